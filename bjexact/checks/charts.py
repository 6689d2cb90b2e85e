"""Checking printed basic strategy charts of the full game against the exact solution.

Reading
    A chart has hard, soft and pair sections (titled by a line or a header cell naming
    "hard", "soft", "pair"/"split"), a header row of up-cards (2..10, T, J/Q/K, A, in any
    order) and rows: ``16``, ``hard 16``, ``5-8``, ``17+``, ``A,7``, ``A7``, ``soft 18``,
    ``8,8``, ``88``, ``T,T``, ``10,10``; in a pair section a bare ``8`` is a pair of eights.
    Layouts: aligned text, CSV/TSV/semicolons, Markdown, ``|``/``+---+`` boxes. Codes:
    H, S, D (double, else hit), Dh, Ds, P, Ph/Pd (split with DAS, else hit/double), R
    (surrender, else hit), Rh, Rs, Rp, and spellings such as Hit, Stand, Dbl, DD, SP,
    Split, Y/N (split or not), Sur, D/H, Dbl/Stand.

Judging
    A cell is a decision for the two-card hands of its row against its up-card: the
    right move is the one of largest expected value summed over those hands, each
    weighted by its chance (:meth:`bjexact.player.game.GameSolution.chart`). The printed
    code is read under the rules (Dh is a hit where doubling is not allowed, Ph a hit
    without DAS); its cost is what playing it instead of the best move loses, exactly,
    per 100 units of initial bets: ``100 * P(up-card) * (value(best) - value(printed))``
    with the values summed over the cell's hands weighted by P(hand | up-card). A cell
    whose hands disagree among themselves (``12 v 4`` with 6 decks) "depends on
    composition": a printed move that is the best move of some of its hands is not
    called wrong (its cost is still reported). A second choice (the h/s of Dh/Ds, Rh/Rs)
    that differs from the exact one is reported too, with what it costs where the first
    choice is not allowed.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.cards import ACE, parse_rank, rank_symbol
from ..core.choice import best_move
from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules
from ..core.text import untidy_csv
from ..errors import BjexactError
from ..files import read_bounded
from ..player.game import ChartCell, GameSolution, solve_game
from ..player.policy import ChartPolicy, with_nearest_hard_rows
from .player_tables import upcard_of_header
from .printed import layout_of, skippable, split_cells, strip_markup

__all__ = [
    "PrintedChartCell", "PrintedChart", "read_chart", "parse_code", "ChartCellCheck", "ChartCheck",
    "check_chart", "format_chart_check", "chart_rule_sets", "ChartIdentification", "identify_chart",
    "format_chart_identification", "cached_solution", "chart_policy",
]

CODES = ("H", "S", "D", "Dh", "Ds", "P", "Ph", "Pd", "R", "Rh", "Rs", "Rp", "N")
_MOVE_OF_LETTER = {"H": "hit", "S": "stand", "D": "double", "P": "split", "R": "surrender"}
_FALLBACK_OF_LETTER = {"h": "hit", "s": "stand", "p": "split", "d": "double"}
_WORDS = {
    "h": "h", "hit": "h", "hits": "h",
    "s": "s", "st": "s", "stand": "s", "stay": "s", "stick": "s",
    "d": "d", "dd": "d", "db": "d", "dbl": "d", "dou": "d", "double": "d", "dbl.": "d",
    "p": "p", "sp": "p", "spl": "p", "split": "p", "y": "p", "yes": "p",
    "r": "r", "su": "r", "sur": "r", "surr": "r", "surrender": "r", "rend": "r",
    "n": "n", "no": "n",
}
_SECTION_WORDS = (("pairs", re.compile(r"\bpairs?\b|\bsplitting\b|\bsplits\b")),
                  ("soft", re.compile(r"\bsoft\b")), ("hard", re.compile(r"\bhard\b")))


def parse_code(text: str) -> str | None:
    """The canonical code (:data:`CODES`) of a printed cell, or ``None`` when it is not one."""
    raw = strip_markup(text).strip("*†‡ ").lower()
    if not raw:
        return None
    parts = [p for p in re.split(r"[\s/\\,\-()]+|\belse\b|\botherwise\b|\bor\b", raw) if p]
    letters: list[str] = []
    for part in parts:
        if part in _WORDS:
            letters.append(_WORDS[part])
        elif all(c in "hsdpr" for c in part) and len(part) <= 2:
            letters.extend(part)
        else:
            return None
    if not letters or len(letters) > 2 or letters[0] not in "hsdprn":
        return None
    first = letters[0].upper()
    if len(letters) == 1:
        return first
    second = letters[1]
    code = first + second
    return code if code in CODES else None


# --- reading -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrintedChartCell:
    """One printed cell: ``section`` (hard/soft/pairs), ``row`` (the chart key: a total, or
    a pair's rank symbol), ``label`` as printed, ``upcard`` rank, ``code`` canonical,
    ``text`` as printed, ``line`` number; ``ranged``: from a row such as 5-8 or 17+."""

    section: str
    row: str
    label: str
    upcard: int
    code: str
    text: str
    line: int
    ranged: bool = False


@dataclass(frozen=True)
class PrintedChart:
    cells: tuple[PrintedChartCell, ...]
    source: str = "<chart>"
    notes: tuple[str, ...] = ()


_CARD = r"(a|t|j|q|k|10|[2-9])"
_TWO_CARDS = re.compile(rf"(?:pair\s+(?:of\s+)?)?{_CARD}\s*[,/&+x ]?\s*{_CARD}s?")
_DASHED_CARDS = re.compile(rf"{_CARD}\s*-\s*{_CARD}")
_SOFT = re.compile(r"(?:soft|s)\s*(\d+)(?:\s*(?:-|–|to)\s*(?:soft\s*|s\s*)?(\d+))?")
_SOFT_ACES = re.compile(r"a\s*,?\s*(\d)\s*(?:-|–|to)\s*(?:a\s*,?\s*)?(\d)")
_TOTAL = re.compile(r"(?:hard|h)?\s*(\d+)")
_RANGE = re.compile(r"(?:hard|h)?\s*(\d+)\s*(?:-|–|to)\s*(\d+)")
_UP = re.compile(r"(?:hard|h)?\s*(\d+)\s*(?:\+|or more|and up|and over|or higher)")
_DOWN = re.compile(r"(?:hard|h)?\s*(?:(?:<=|≤|up to)\s*(\d+)"
                   r"|(\d+)\s*(?:or less|or fewer|and under|and below|or lower|-))")


def _card(symbol: str) -> int:
    return parse_rank(symbol)


def row_keys(label: str, section: str | None) -> tuple[str, list[str]] | None:
    """(section, chart row keys) of a row label, ``None`` when it is not one.

    ``section``: the section the label appears in (decides bare numbers)."""
    text = strip_markup(label).lower().rstrip(":").strip()
    text = re.sub(r"\s+", " ", text)
    if not text:
        return None
    if section == "pairs":
        bare = re.fullmatch(rf"{_CARD}s?|(11)", text)
        if bare:
            return "pairs", [rank_symbol(_card(bare.group(1) or "a"))]
    named_pair = re.fullmatch(rf"(?:p|pair|pairs)\s*{_CARD}", text)
    if named_pair:
        return "pairs", [rank_symbol(_card(named_pair.group(1)))]
    match = _TWO_CARDS.fullmatch(text) or _DASHED_CARDS.fullmatch(text)
    if match and not (match.re is _DASHED_CARDS and match.group(1) != match.group(2)
                      and "a" not in (match.group(1), match.group(2))):
        a, b = _card(match.group(1)), _card(match.group(2))
        if a == b:
            return "pairs", [rank_symbol(a)]
        if ACE in (a, b):
            other = b if a == ACE else a
            return "soft", [str(11 + other)]
        return "hard", [str(a + b)]
    match = _SOFT_ACES.fullmatch(text)
    if match:
        low, high = sorted((int(match.group(1)), int(match.group(2))))
        return "soft", [str(11 + v) for v in _totals(low, high, text, 1, 10)]
    match = _SOFT.fullmatch(text)
    if match:
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) else low
        return "soft", [str(t) for t in _totals(low, high, text)]
    target = "soft" if section == "soft" else "hard"
    match = _RANGE.fullmatch(text)
    if match:
        low, high = sorted((int(match.group(1)), int(match.group(2))))
        return target, [str(t) for t in _totals(low, high, text)]
    match = _UP.fullmatch(text)
    if match:
        return target, [str(t) for t in _totals(int(match.group(1)), 21, text)]
    match = _DOWN.fullmatch(text)
    if match:
        high = int(match.group(1) or match.group(2))
        return target, [str(t) for t in _totals(4 if target == "hard" else 12, high, text)]
    match = _TOTAL.fullmatch(text)
    if match:
        return target, [match.group(1)]
    if section == "soft" and text in ("a,a", "aa"):
        return "pairs", ["A"]
    return None


def _totals(low: int, high: int, text: str, least: int = 2, most: int = 21) -> range:
    """The totals ``low .. high`` of a row label, refused (before any is listed) beyond ``least .. most``."""
    if low < least or high > most:
        raise BjexactError(f"the chart row {text!r} names totals outside {least}..{most}")
    return range(low, high + 1)


def _section_of(text: str) -> str | None:
    """The section a title names: the first of its section words ("hard totals: ..., no splitting" is hard)."""
    lower = text.lower()
    found = [(match.start(), section) for section, pattern in _SECTION_WORDS
             for match in [pattern.search(lower)] if match]
    return min(found)[1] if found else None


def _header(cells: list[str]) -> tuple[list[int], str] | None:
    """The up-cards of a header row (its trailing cells) and its leading text."""
    run: list[int] = []
    for cell in reversed(cells):
        up = upcard_of_header(cell)
        if up is None:
            break
        run.append(up)
    run.reverse()
    if len(run) < 2 or len(set(run)) != len(run):
        return None
    lead = cells[: len(cells) - len(run)]
    if any(upcard_of_header(c) is not None for c in lead[-1:]) and len(run) < 10:
        return None
    return run, " ".join(lead)


_SECTION_ORDER = ("hard", "soft", "pairs")
_BARE_NUMBER = re.compile(r"\d+")
_KNOWN_CODES = "H, S, D, Dh, Ds, P, Ph, Pd, R, Rh, Rs, Rp, N, or Hit, Stand, Dbl, SP, Sur ..."


def _plain_line(line: str) -> str:
    """A LaTeX table line as a '|' row (``a & b \\\\``); its caption as a title; other commands as nothing."""
    stripped = line.strip()
    if stripped.startswith("%"):
        return ""
    caption = re.fullmatch(r"\\caption\{(.*)\}", stripped)
    if caption:
        return caption.group(1)
    if stripped.startswith("\\"):
        return ""
    if "&" in stripped and stripped.endswith("\\\\"):
        return "|" + stripped[:-2].replace("&", "|") + "|"
    return line


def _json_chart(text: str, source: str) -> str | None:
    """bjexact's JSON chart ({"hard": {row: {up-card: code}}, "soft": ..., "pairs": ...}) as a text chart."""
    import json

    try:
        document = json.loads(text)
    except ValueError:
        return None
    if not isinstance(document, dict) or not any(isinstance(document.get(s), dict) for s in _SECTION_ORDER):
        raise BjexactError(f"{source}: a JSON chart has sections hard, soft and pairs of rows of up-card: code")
    lines: list[str] = []
    for section in _SECTION_ORDER:
        rows = document.get(section) or {}
        if not isinstance(rows, dict):
            raise BjexactError(f"{source}: the JSON chart's {section} section is not an object")
        for row, cells in rows.items():
            if not isinstance(cells, dict) or not all(isinstance(c, str) for c in cells.values()):
                raise BjexactError(f"{source}: the JSON chart's {section} row {row!r} is not an object of codes")
            label = f"pair {row}" if section == "pairs" else f"{section} {row}"
            lines += [f"{label},{','.join(str(u) for u in cells)}".replace(label, "player", 1),
                      f"{label},{','.join(cells.values())}"]
    return "\n".join(lines)


def read_chart(text: str, *, source: str = "<chart>") -> PrintedChart:
    """Read a printed basic strategy chart (see the module docstring).

    Also read: LaTeX tables, bjexact's JSON charts, and grids whose sections are not titled but
    follow one another (hard 5-21, then soft 13-21, then pairs 2-A, each row labelled by a bare
    number: a number lower than the one before, after rising, starts the next section). A row with
    a label and cells that are not codes is an error listing every such cell with its line; prose
    lines are skipped, and a line naming hard, soft or pairs opens that section."""
    if text.lstrip().startswith(("{", "[")):
        converted = _json_chart(text, source)
        if converted is not None:
            text = converted
    section: str | None = None
    named = False  # whether a title or header named the section
    bare: list[int] = []  # the bare-number row labels of the section, in order
    columns: list[int] | None = None
    cells: list[PrintedChartCell] = []
    notes: list[str] = []
    unreadable: list[str] = []
    seen: dict[tuple[str, str, int], PrintedChartCell] = {}
    text = untidy_csv(text)  # bjexact's own CSV: one table, a section column
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = _plain_line(raw_line)
        if skippable(line):
            continue
        parts = split_cells(line, layout_of(line))
        if columns is not None and len(parts) < len(columns) + 1 and len(line.split()) >= len(columns) + 1:
            parts = line.split()  # aligned text with commas in its labels (A,7  S Ds ...)
        if not any(p.strip() for p in parts):
            continue
        header = _header(parts)
        if header is not None:
            columns, lead = header
            title = _section_of(lead)
            if title:
                section, named, bare = title, True, []
            continue
        if columns is None or len(parts) < len(columns) + 1:
            title = _section_of(line)
            if title and (columns is None or len(parts) < 3):
                section, named, bare = title, True, []
            continue
        label = " ".join(parts[: len(parts) - len(columns)])
        printed = parts[len(parts) - len(columns):]
        plain = strip_markup(label).rstrip(":").strip()
        if not named and _BARE_NUMBER.fullmatch(plain):
            value = int(plain)
            if len(bare) >= 2 and bare[-1] > bare[-2] and value < bare[-1] and section != "pairs":
                section = _SECTION_ORDER[_SECTION_ORDER.index(section or "hard") + 1]
                bare = []
            bare.append(value)
        keys = row_keys(label, section)
        codes = [parse_code(p) for p in printed]
        if keys is None:
            if any(c is not None for c in codes) and sum(c is not None for c in codes) >= len(codes) - 1:
                raise BjexactError(f"{source} line {number}: cannot read the row label {label!r} "
                                   "(expected a total like 16, soft 18, A,7 or a pair like 8,8)")
            title = _section_of(line)
            if title:
                section, named, bare = title, True, []
            continue
        row_section, rows = keys
        for up, cell_text, code in zip(columns, printed, codes):
            if code is None:
                if strip_markup(cell_text).strip() in ("", "-", "\u2013", "\u2014"):
                    continue
                unreadable.append(f"line {number}: {cell_text.strip()!r} is not a strategy code "
                                  f"({label.strip()} v {rank_symbol(up)})")
                continue
            for row in rows:
                cell = PrintedChartCell(row_section, row, label.strip(), up, code, cell_text.strip(), number,
                                        len(rows) > 1)
                key = (row_section, row, up)
                if key in seen:
                    if seen[key].code != code:
                        raise BjexactError(f"{source} line {number}: {label.strip()} v {rank_symbol(up)} is printed "
                                           f"twice, {seen[key].code} on line {seen[key].line} and {code}")
                    continue
                seen[key] = cell
                cells.append(cell)
    if unreadable:
        shown = "; ".join(unreadable[:12]) + ("; ..." if len(unreadable) > 12 else "")
        many = f"{len(unreadable)} cells cannot be read: " if len(unreadable) > 1 else ""
        raise BjexactError(f"{source} {many}{shown} (codes: {_KNOWN_CODES})")
    if not cells:
        raise BjexactError(f"{source}: no strategy chart found (a header row of up-cards 2..9, T, A and rows "
                           "like '16 S S S S S H H H H H' are needed)")
    return PrintedChart(tuple(cells), source, tuple(notes))


MAX_CHART_BYTES = 10 * 2**20  # a chart file is a few kilobytes; read no more than this of one


def chart_policy(chart: PrintedChart | ChartPolicy | str | Path) -> ChartPolicy:
    """The chart as a fixed policy (:class:`~bjexact.player.policy.ChartPolicy`) to play or value:
    a chart already read, or a path to a chart file, or a chart's text. Hard 4 and hard 20, which
    charts often leave out (no two different cards make them), play as the nearest printed hard row."""
    if isinstance(chart, ChartPolicy):
        return chart
    if not isinstance(chart, PrintedChart):
        path = Path(chart)
        if "\n" not in str(chart) and path.exists():
            chart = read_chart(read_bounded(str(path), limit=MAX_CHART_BYTES, what="chart"), source=str(path))
        else:
            chart = read_chart(str(chart))
    codes = {(cell.section, cell.row, cell.upcard): cell.code for cell in chart.cells}
    return ChartPolicy(with_nearest_hard_rows(codes))


# --- judging -----------------------------------------------------------------------------------------------


def printed_moves(code: str, values: Mapping[str, mpq], rules: GameRules) -> tuple[str, str | None]:
    """(the move a code plays under ``rules`` among the allowed ``values``, its explicit second
    choice when the first is taken or ``None``)."""
    letter, second = code[0], (code[1] if len(code) > 1 else None)
    if letter == "N":
        rest = {m: v for m, v in values.items() if m != "split"}
        return best_move(rest), None
    if letter == "P" and second in ("h", "d") and not rules.das:
        letter, second = ("D", "h") if second == "d" else ("H", None)
    move = _MOVE_OF_LETTER[letter]
    if move in values:
        if letter in ("D", "R") and second is not None:
            return move, _FALLBACK_OF_LETTER[second]
        return move, None
    fallback = _FALLBACK_OF_LETTER.get(second or "h", "hit")
    if fallback not in values:
        fallback = "hit" if "hit" in values else "stand"
    return fallback, None


@dataclass(frozen=True)
class ChartCellCheck:
    """One printed cell judged. ``status``: ``ok``, ``wrong``, ``composition`` (the printed move
    is the best of some of the cell's hands, not of their sum), ``second`` (right first choice,
    wrong second choice) or ``absent`` (no two-card hand has this row: not judged)."""

    cell: PrintedChartCell
    status: str
    exact_code: str | None = None
    printed_move: str | None = None
    best: str | None = None
    cost: mpq = mpq(0)
    hands: Mapping[str, str] = field(default_factory=dict)

    @property
    def consistent(self) -> bool:
        return self.status in ("ok", "composition", "absent")

    def to_json(self) -> dict[str, Any]:
        return {
            "line": self.cell.line, "section": self.cell.section, "row": self.cell.label,
            "chart_row": self.cell.row, "upcard": rank_symbol(self.cell.upcard), "printed": self.cell.code,
            "printed_text": self.cell.text, "printed_move": self.printed_move, "exact": self.exact_code,
            "best": self.best, "cost": fraction_string(self.cost), "cost_decimal": f"{float(self.cost):.6f}",
            "status": self.status, "consistent": self.consistent,
            "depends_on_composition": bool(self.hands) and len(set(self.hands.values())) > 1,
            "hands": dict(self.hands),
        }


@dataclass(frozen=True)
class ChartCheck:
    chart: PrintedChart
    rules: GameRules
    cells: tuple[ChartCellCheck, ...]
    not_printed: int = 0

    @property
    def wrong(self) -> list[ChartCellCheck]:
        return [c for c in self.cells if not c.consistent]

    @property
    def consistent(self) -> bool:
        return not self.wrong

    @property
    def unplayable(self) -> int:
        """Cells whose printed first choice the rules do not allow (an R without surrender, a D
        where doubling is not allowed): such a chart was made for other rules."""
        return sum(1 for c in self.cells if c.printed_move is not None
                   and c.cell.code[0] in "DR" and _MOVE_OF_LETTER[c.cell.code[0]] != c.printed_move)

    @property
    def total_cost(self) -> mpq:
        """What the chart's wrong first choices cost together, per 100 units bet."""
        return sum((c.cost for c in self.cells if c.status in ("wrong", "composition")), mpq(0))

    def to_json(self) -> dict[str, Any]:
        return {
            "consistent": self.consistent, "source": self.chart.source, "rules": self.rules.to_json(),
            "rules_text": self.rules.describe(), "cost_unit": "per 100 units of initial bets",
            "cells": [c.to_json() for c in self.cells],
            "inconsistent_cells": len(self.wrong), "total_cost": fraction_string(self.total_cost),
            "not_printed": self.not_printed,
        }


_SOLUTIONS: dict[GameRules, GameSolution] = {}


def cached_solution(rules: GameRules, progress: bool | None = False) -> GameSolution:
    """The solution of ``rules`` (no distribution), computed once per process."""
    found = _SOLUTIONS.get(rules)
    if found is None:
        found = _SOLUTIONS[rules] = solve_game(rules, with_distribution=False, progress=progress)
    return found


def _hand_label(cards: tuple[int, int]) -> str:
    low, high = sorted(cards)
    first, second = (low, high) if low == ACE else (high, low)
    return f"{rank_symbol(first)},{rank_symbol(second)}"


def judge_cell(cell: PrintedChartCell, exact: ChartCell | None, upcard_chance: mpq, rules: GameRules) -> ChartCellCheck:
    if exact is None:
        return ChartCellCheck(cell, "absent")
    values = exact.values
    move, second = printed_moves(cell.code, values, rules)
    best = exact.best
    hands = {_hand_label(cards): m for cards, m in exact.hands.items()}
    cost = 100 * upcard_chance * (values[best] - values[move])
    common: dict[str, Any] = dict(exact_code=exact.code, printed_move=move, best=best, hands=hands)
    if move != best:
        status = "composition" if move in set(exact.hands.values()) and exact.depends_on_composition else "wrong"
        return ChartCellCheck(cell, status, cost=cost, **common)
    if second is not None and len(exact.code) > 1 and move in ("double", "surrender"):
        rest = {m: v for m, v in values.items() if m not in ("double", "surrender")}
        right = best_move(rest)
        if second in rest and second != right:
            return ChartCellCheck(cell, "second", cost=100 * upcard_chance * (rest[right] - rest[second]),
                                  **common)
    return ChartCellCheck(cell, "ok", cost=cost, **common)


def check_chart(chart: PrintedChart, rules: GameRules, solution: GameSolution | None = None) -> ChartCheck:
    """Judge every printed cell against the exact chart of ``rules`` (see the module docstring)."""
    solution = solution or cached_solution(rules)
    exact = solution.chart()
    checks = []
    printed_keys = set()
    for cell in chart.cells:
        printed_keys.add((cell.section, cell.row, cell.upcard))
        exact_cell = exact.get(cell.section, {}).get(cell.row, {}).get(cell.upcard)
        if exact_cell is None and cell.ranged:
            continue  # a range such as 5-8 or 17+ covers totals that no two different cards make
        checks.append(judge_cell(cell, exact_cell, solution.upcard_chance.get(cell.upcard, mpq(0)), rules))
    not_printed = sum(1 for section, rows in exact.items() for row, cells in rows.items() for up in cells
                      if (section, row, up) not in printed_keys)
    return ChartCheck(chart, rules, tuple(checks), not_printed)


def _cost_text(cost: mpq) -> str:
    return f"{float(cost):.6f}"


def _describe_cell(check: ChartCellCheck) -> str:
    cell = check.cell
    where = f"line {cell.line}: {cell.label} v {rank_symbol(cell.upcard)}"
    if check.status == "second":
        return (f"{where}: printed {cell.text} ({cell.code}), exact {check.exact_code}: the second choice is wrong; "
                f"where {check.printed_move} is not allowed it costs {_cost_text(check.cost)} per 100 units bet "
                f"(= {fraction_string(check.cost)})")
    text = (f"{where}: printed {cell.text} ({check.printed_move}), best {check.best} ({check.exact_code}); "
            f"costs {_cost_text(check.cost)} per 100 units bet (= {fraction_string(check.cost)})")
    if check.status == "composition":
        differ = ", ".join(f"{h} {m}" for h, m in check.hands.items())
        text += f"; depends on composition ({differ}): not wrong"
    return text


def format_chart_check(check: ChartCheck, *, show_all: bool = False) -> str:
    lines = [f"{check.chart.source}: {len(check.cells)} cells against {check.rules.describe()}"]
    wrong = check.wrong
    composition = [c for c in check.cells if c.status == "composition"]
    absent = [c for c in check.cells if c.status == "absent"]
    if wrong:
        lines.append(f"NOT CONSISTENT: {len(wrong)} cell{'s' if len(wrong) != 1 else ''} wrong, costing together "
                     f"{_cost_text(sum((c.cost for c in wrong if c.status == 'wrong'), mpq(0)))} per 100 units bet:")
        for c in sorted(wrong, key=lambda c: -c.cost):
            lines.append("  " + _describe_cell(c))
    else:
        lines.append("CONSISTENT: every printed cell plays the best move (or a best move of its hands where they "
                     "disagree).")
    if composition:
        lines.append(f"Depends on composition ({len(composition)}), either move may be printed:")
        lines.extend("  " + _describe_cell(c) for c in composition)
    if show_all:
        lines.append("All cells:")
        lines.extend(f"  line {c.cell.line}: {c.cell.label} v {rank_symbol(c.cell.upcard)}: {c.cell.code} "
                     f"{c.status}" + (f", exact {c.exact_code}" if c.exact_code else "") for c in check.cells)
    if absent:
        labels = sorted({c.cell.label for c in absent})
        lines.append(f"Not judged (no two-card hand of that row, a natural or a pair): {', '.join(labels)}")
    if check.not_printed:
        lines.append(f"{check.not_printed} cells of the exact chart are not printed.")
    lines.append("Cost: the exact loss of the printed move against the best, summed over the cell's two-card "
                 "hands weighted by their chances, per 100 units of initial bets.")
    return "\n".join(lines) + "\n"


# --- identifying the rules of a chart ------------------------------------------------------------------------

IDENTIFY_DECKS: tuple[Any, ...] = (1, 2, 4, 6, 8, "inf")


def chart_rule_sets(base: GameRules | None = None, *, decks: Sequence[Any] | None = None,
                    h17: Sequence[bool] = (False, True), das: Sequence[bool] = (True, False),
                    surrender: Sequence[str] = ("none", "late"),
                    hole_card: Sequence[str] = ("peek", "enhc")) -> list[GameRules]:
    """The rule sets ``--identify`` tries: decks x S17/H17 x DAS x surrender x hole card, the
    other rules from ``base``. Under ENHC late surrender becomes early surrender."""
    base = base or GameRules(split_hands=2)
    options = {k: v for k, v in base.to_json().items()
               if k in ("double", "double_soft", "split_hands", "rsa", "hit_split_aces", "split_strategy")}
    found = []
    for d, h, a, s, hole in itertools.product(decks or IDENTIFY_DECKS, h17, das, surrender, hole_card):
        if hole == "enhc" and s == "late":
            s = "early"
        choices: dict[str, Any] = dict(surrender=s, hole_card=hole, double_split_aces=base.double_split_aces and a)
        rules = GameRules(decks=d, h17=h, das=a, bj_pays=base.bj_pays, **choices, **options)
        if rules not in found:
            found.append(rules)
    return found


@dataclass(frozen=True)
class ChartIdentification:
    chart: PrintedChart
    checks: tuple[ChartCheck, ...]  # best first

    @property
    def matches(self) -> list[ChartCheck]:
        return [c for c in self.checks if c.consistent]

    def separating(self, count: int = 2) -> list[tuple[PrintedChartCell, list[str]]]:
        """The printed cells judged differently by the nearest ``count`` candidates."""
        nearest = self.checks[:count]
        out = []
        for cells in zip(*(c.cells for c in nearest)):
            verdicts = [f"{c.status}" + (f" ({c.exact_code})" if c.exact_code else "") for c in cells]
            if len({c.exact_code for c in cells}) > 1 or len({c.consistent for c in cells}) > 1:
                out.append((cells[0].cell, verdicts))
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "consistent": bool(self.matches), "source": self.chart.source,
            "candidates": [{"rules": c.rules.to_json(), "rules_text": c.rules.describe(), "consistent": c.consistent,
                            "inconsistent_cells": len(c.wrong), "unplayable_cells": c.unplayable,
                            "cost": fraction_string(c.total_cost)}
                           for c in self.checks],
            "separating": [{"row": cell.label, "upcard": rank_symbol(cell.upcard), "printed": cell.code,
                            "verdicts": verdicts} for cell, verdicts in self.separating()],
        }


def _rank_key(check: ChartCheck) -> tuple[int, int, mpq]:
    wrong_cost = sum((c.cost for c in check.wrong), mpq(0))
    return len(check.wrong), check.unplayable, wrong_cost + check.total_cost


def identify_chart(chart: PrintedChart, rule_sets: Iterable[GameRules], *, progress: bool | None = False
                   ) -> ChartIdentification:
    """Judge the chart under every rule set; best first (fewest wrong cells, then least cost)."""
    checks = [check_chart(chart, rules, cached_solution(rules, progress)) for rules in rule_sets]
    checks.sort(key=_rank_key)
    return ChartIdentification(chart, tuple(checks))


def format_chart_identification(identification: ChartIdentification, *, limit: int = 5) -> str:
    chart = identification.chart
    checks = identification.checks
    matches = identification.matches
    lines = [f"{chart.source}: consistent with {len(matches)} of {len(checks)} rule sets tried, best first:"]
    for i, check in enumerate(checks[:limit], start=1):
        verdict = "fits" if check.consistent else f"{len(check.wrong)} wrong cells"
        if check.unplayable:
            verdict += f", {check.unplayable} printed moves these rules do not allow"
        lines.append(f"  {i}. {check.rules.describe()}: {verdict}, cost {_cost_text(check.total_cost)} "
                     "per 100 units bet")
    separating = identification.separating()
    if len(checks) >= 2 and separating:
        lines.append("Cells that separate the two nearest:")
        for cell, verdicts in separating[:20]:
            lines.append(f"  line {cell.line}: {cell.label} v {rank_symbol(cell.upcard)} printed {cell.code}: "
                         + " / ".join(verdicts))
    return "\n".join(lines) + "\n"

