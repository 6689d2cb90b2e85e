"""Hit/stand grids and value tables as people print them, checked against the exact solutions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..core.cards import parse_rank, rank_symbol
from ..core.numbers import fraction_string, mpq
from ..core.rules import Rules
from ..core.text import untidy_csv
from ..errors import BjexactError
from ..player.solver import majority_move, solve_finite, solve_infinite
from ..player.states import PlayerState
from .dealer_tables import Tolerance, decimal_text
from .messages import short_text
from .printed import DASHES, PrintedNumber, layout_of, parse_number, skippable, split_cells, strip_markup

__all__ = [
    "PLAYER_KINDS", "VALUE_BLOCKS", "PlayerCell", "PrintedPlayerTable", "PlayerCellCheck", "PlayerCheck",
    "read_player_table", "check_player_table", "format_player_check",
]


# --- player tables: hit/stand policy grids and value tables ------------------------------------------------

PLAYER_KINDS = ("policy", "values")
VALUE_BLOCKS = ("stand", "hit", "value")
MOVES = {"h": "hit", "hit": "hit", "s": "stand", "stand": "stand", "stay": "stand", "st": "stand"}
_HAND_LABEL = re.compile(
    r"^(?:(?P<kind>hard|soft|h|s)\s*(?P<total>\d{1,2})"
    r"|(?P<plain>\d{1,2})"
    r"|a\s*[,+\-/ ]?\s*(?P<ace>a|\d{1,2}))$"
)


@dataclass(frozen=True)
class PlayerCell:
    """One printed cell of a player table: the state it names and what is printed there.

    ``block`` is ``"policy"``, or for value tables ``"stand"``, ``"hit"`` or ``"value"`` (the
    optimal value, the larger of the two). ``move`` holds a policy cell's ``"hit"``/``"stand"``.
    """

    line: int
    row: str
    column: str
    total: int
    soft: bool
    upcard: int
    block: str
    move: str | None = None
    number: PrintedNumber | None = None


@dataclass(frozen=True)
class PrintedPlayerTable:
    """A hit/stand policy grid or value tables as read: every cell with its state."""

    kind: str
    cells: tuple[PlayerCell, ...]
    source: str = "<table>"


def _hand_of_label(cell: str, soft_block: bool) -> tuple[int, bool] | None:
    """(total, soft) of a row label: ``hard 12``, ``soft 18``, ``S18``, ``12`` (the block decides), ``A,7``."""
    text = strip_markup(cell).lower().rstrip(":").strip()
    match = _HAND_LABEL.match(text)
    if not match:
        return None
    if match.group("ace"):
        other = match.group("ace")
        if other == "a":
            return 12, True
        value = int(other)
        return (11 + value, True) if 1 <= value <= 10 else None
    total = int(match.group("total") or match.group("plain"))
    kind = match.group("kind")
    soft = soft_block if kind is None else kind in ("soft", "s")
    if soft and not 12 <= total <= 21 or not soft and not 4 <= total <= 21:
        return None
    return total, soft


def upcard_of_header(cell: str) -> int | None:
    text = strip_markup(cell)
    if not text:
        return None
    try:
        return parse_rank(text)
    except BjexactError:
        return None


def _block_words(text: str) -> tuple[bool | None, str | None]:
    """Softness and value block named by a title or a header's first cell."""
    lower = text.lower()
    soft = True if "soft" in lower else (False if "hard" in lower else None)
    if soft is None and "usable" in lower:  # Sutton and Barto: "usable ace" / "no usable ace"
        soft = not re.search(r"\bno\b|\bwithout\b|\bnot\b", lower)
    block = None
    if re.search(r"\bstand(ing)?\b|\bstick(ing)?\b", lower):
        block = "stand"
    elif re.search(r"\bhit(ting)?\b", lower):
        block = "hit"
    elif re.search(r"\b(optimal|best|value|v)\b", lower):
        block = "value"
    return soft, block


def read_player_table(
    text: str, kind: str, *, source: str = "<table>", scale: str = "auto", blocks: Sequence[str] = ()
) -> PrintedPlayerTable:
    """Read a hit/stand policy grid (``kind="policy"``) or value tables (``kind="values"``).

    Grids have a header row of up-cards (2..9, T/10, A) and rows labelled ``hard 12``,
    ``soft 18``, ``A,7`` or a bare total (hard, unless the block's title or header says
    soft). Several blocks may follow each other (hard and soft; for values, standing and
    hitting), each with its own header. Blocks of the other kind are skipped, so the
    output of ``bjexact player --moves hit-stand --values`` can be read either way. A value block's title
    line (or its header's first cell) names ``stand``/``hit``/``best``; untitled value
    blocks (CSV) take their names from ``blocks`` in order. Policy cells are ``H``/``S``
    (or ``hit``/``stand``); value cells are numbers per unit bet (a ``%`` sign, or
    ``scale="percent"``, divides by 100).
    """
    if kind not in PLAYER_KINDS:
        raise BjexactError(f"unknown kind of player table {kind!r} (use policy or values)")
    for name in blocks:
        if name not in VALUE_BLOCKS:
            raise BjexactError(f"unknown value block {name!r} (use stand, hit or value)")
    untitled = list(blocks)
    text = untidy_csv(text)  # bjexact's own CSV: one table, a section column
    cells: list[PlayerCell] = []
    context = ""
    header: dict[str, Any] | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        if skippable(line):
            continue
        layout = layout_of(line)
        parts = split_cells(line, layout)
        first_cell = parts[0] if parts and upcard_of_header(parts[0]) is None else None
        header_cells = parts[1:] if first_cell is not None else parts
        upcards = [upcard_of_header(c) for c in header_cells]
        if len(upcards) >= 2 and all(u is not None for u in upcards) and len(set(upcards)) == len(upcards) \
                and (first_cell is not None or len(upcards) >= 8):
            soft, block = _block_words(first_cell or "")
            # a title names the block unless the header does ("dealer hits soft 17" names no block)
            title_soft, title_block = _block_words(re.sub(r"soft\s*17", "", context, flags=re.IGNORECASE))
            soft = title_soft if soft is None else soft
            block = title_block if block is None else block
            names = [strip_markup(c) for c in header_cells]
            header = {"layout": layout, "names": names, "upcards": upcards, "soft": bool(soft),
                      "block": block, "line": number, "content": None}
            context = ""
            continue
        if header is None:
            context = line  # a title before the first header
            continue
        parts = split_cells(line, header["layout"])
        n = len(header["upcards"])
        if header["layout"] == "whitespace":
            label = " ".join(parts[:-n]) if len(parts) > n else (parts[0] if parts else "")
            values = parts[-n:] if len(parts) > n else parts[1:]
        else:
            label, values = (parts[0] if parts else ""), parts[1:]
        hand = _hand_of_label(label, header["soft"])
        if hand is None:
            if len(values) == n and any(all(_player_value(v, k) is not None for v in values) for k in PLAYER_KINDS):
                raise BjexactError(f"{source} line {number}: unknown row label {label!r} "
                                   "(use hard 4..21, soft 12..21, A,2..A,10 or a total)")
            context, header = line, None  # prose: a note, or the title of the next block
            continue
        if len(values) != n:
            raise BjexactError(f"{source} line {number}: row {label!r} has {len(values)} cells, "
                               f"the header has {n} up-cards")
        if header["content"] is None:  # the first row tells a policy block from a value block
            moves = any(_player_value(v, "policy") is not None for v in values)
            header["content"] = "policy" if moves else "values"
            if header["content"] == "values" and kind == "values":
                if header["block"] is None:
                    if not untitled:
                        raise BjexactError(
                            f"{source} line {header['line']}: say whether this block holds the values of "
                            "standing, hitting or the best move (a title above it, its first cell, or --blocks)")
                    header["block"] = untitled.pop(0)
        if header["content"] != kind:
            continue  # a block of the other kind
        block = header["block"] if kind == "values" else "policy"
        for name, upcard, value in zip(header["names"], header["upcards"], values, strict=True):
            parsed = _player_value(value, kind)
            if parsed is None:
                expected = "H or S" if kind == "policy" else "a number"
                raise BjexactError(f"{source} line {number}: row {label!r}, up-card {name}: "
                                   f"{value!r} is not {expected}")
            if kind == "policy":
                cells.append(PlayerCell(number, strip_markup(label), name, *hand, upcard, block, move=parsed))
            else:
                if scale == "percent" and not parsed.percent:
                    parsed = PrintedNumber(parsed.text, parsed.value, parsed.unit, parsed.kind, True)
                cells.append(PlayerCell(number, strip_markup(label), name, *hand, upcard, block, number=parsed))
    if not cells:
        raise BjexactError(f"{source}: no {kind} grid found (a header row of up-cards 2..9, T, A, then rows "
                           "such as 'hard 12' or 'soft 18')")
    return PrintedPlayerTable(kind, tuple(cells), source)


def _player_value(text: str, kind: str):
    if kind == "policy":
        return MOVES.get(strip_markup(text).lower())
    stripped = strip_markup(text)
    sign = -1 if stripped[:1] in ("-", "\u2212") and len(stripped) > 1 else 1
    body = stripped[1:] if sign == -1 else stripped.lstrip("+")
    number = parse_number(body)
    if number is None or number.kind == "fraction" and body in DASHES:
        return None
    return PrintedNumber(text.strip(), sign * number.value, number.unit, number.kind, number.percent)


@dataclass(frozen=True)
class PlayerCellCheck:
    """One player-table cell judged against the exact solution."""

    cell: PlayerCell
    consistent: bool
    exact_move: str | None = None
    stand: mpq | None = None
    hit: mpq | None = None
    exact: mpq | None = None
    error: mpq | None = None
    allowed: mpq | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        c = self.cell
        data: dict[str, Any] = {
            "line": c.line, "row": c.row, "column": c.column, "total": c.total, "soft": c.soft,
            "upcard": rank_symbol(c.upcard), "block": c.block, "consistent": self.consistent,
        }
        if c.move is not None:
            data.update(printed="H" if c.move == "hit" else "S",
                        exact={"hit": "H", "stand": "S", None: None}[self.exact_move])
            if self.stand is not None:
                data.update(stand=fraction_string(self.stand),
                            hit=None if self.hit is None else fraction_string(self.hit))
        else:
            assert c.number is not None and self.exact is not None and self.error is not None
            assert self.allowed is not None  # a value cell is always judged
            data.update(printed=c.number.text, exact=fraction_string(self.exact), error=float(self.error),
                        allowed=float(self.allowed))
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class PlayerCheck:
    """A player table checked cell by cell against the exact solution of ``rules``."""

    rules: Rules
    objective: str
    table: PrintedPlayerTable
    cells: tuple[PlayerCellCheck, ...]

    @property
    def consistent(self) -> bool:
        return all(c.consistent for c in self.cells)

    @property
    def inconsistent_cells(self) -> tuple[PlayerCellCheck, ...]:
        return tuple(c for c in self.cells if not c.consistent)

    @property
    def max_abs_error(self) -> float:
        return max((float(abs(c.error)) for c in self.cells if c.error is not None), default=0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "consistent": self.consistent,
            "rules": self.rules.to_json(),
            "kind": self.table.kind,
            "objective": self.objective,
            "cells": [c.to_json() for c in self.cells],
            "inconsistent_cells": len(self.inconsistent_cells),
            "max_abs_error": self.max_abs_error,
        }


@cache
def _player_solution(rules: Rules, objective: str):
    return solve_infinite(rules, objective)


def check_player_table(
    table: PrintedPlayerTable, rules: Rules, *, objective: str = "ev", tolerance: Tolerance = Tolerance()
) -> PlayerCheck:
    """Judge a policy grid or value tables against the exact infinite-deck solution of ``rules``.

    A policy cell is consistent when its move is optimal: its value equals the best
    value (so either move is accepted where standing and hitting tie exactly). Value
    cells follow the rounding rules of the module docstring.
    """
    if not rules.infinite:
        if table.kind == "values":
            raise BjexactError("value tables by total are checked on the infinite deck only (use --decks inf): "
                               "on a finite shoe a total's value depends on its cards")
        return _check_finite_policy(table, rules, objective)

    solution = _player_solution(rules, objective)
    checks = []
    for cell in table.cells:
        position = solution[PlayerState(cell.total, cell.soft, cell.upcard)]
        stand, hit = position.stand, position.hit
        if cell.move is not None:
            chosen = stand if cell.move == "stand" else hit
            tie = hit is not None and hit == stand
            checks.append(PlayerCellCheck(cell, chosen == position.value, position.best, stand, hit,
                                          note="standing and hitting tie" if tie else ""))
            continue
        exact = {"stand": stand, "hit": hit, "value": position.value}[cell.block]
        number = cell.number
        assert number is not None  # a value cell
        factor = 100 if number.percent else 1
        error = number.value - exact * factor
        allowed = tolerance.allowed(number, exact * factor)
        checks.append(PlayerCellCheck(cell, abs(error) <= allowed, position.best, stand, hit, exact,
                                      error / factor, allowed / factor))
    return PlayerCheck(rules, objective, table, tuple(checks))


@cache
def _finite_moves(rules: Rules, objective: str) -> dict[tuple[int, bool, int], dict[str, int]]:
    """Per (total, soft, up-card): how many two-card hands of that total play each move.

    A chart cell is a decision for the two-card hands of its total (a natural is not played
    under separate/peek); hands of three or more cards do not vote, or a total such as hard 16,
    which every two-card hand hits against a ten on 6 decks, would pass for either move.
    """
    solution = solve_finite(rules, objective, progress=False)
    return {(s.total, s.soft, s.upcard): dict(votes) for s, votes in solution.two_card_moves.items()}


def _check_finite_policy(table: PrintedPlayerTable, rules: Rules, objective: str) -> PlayerCheck:
    """A policy by total on a finite shoe: the majority move of the hands of that total.

    Where hands of one total play differently (composition dependence), either move is
    accepted and the cell carries a note; a total no hand of two cards reaches is not judged.
    """

    tally = _finite_moves(rules, objective)
    checks = []
    for cell in table.cells:
        moves = tally.get((cell.total, cell.soft, cell.upcard), {})
        if not moves:
            checks.append(PlayerCellCheck(cell, True, note="not judged: no two-card hand has this total"))
            continue
        majority = majority_move(moves)
        mixed = len([m for m, n in moves.items() if n]) > 1
        note = ("composition-dependent: " + ", ".join(f"{n} hand{'s' if n > 1 else ''} {m}"
                                                       for m, n in sorted(moves.items()) if n)) if mixed else ""
        checks.append(PlayerCellCheck(cell, cell.move == majority or mixed, majority, note=note))
    return PlayerCheck(rules, objective, table, tuple(checks))


def format_player_check(check: PlayerCheck, *, show_all: bool = False) -> str:
    """The report of a player-table check: the disagreeing cells, a summary and a verdict."""
    table = check.table
    what = "a policy grid" if table.kind == "policy" else "value tables"
    solution = "infinite-deck solution" if check.rules.infinite else "composition-dependent solution"
    lines = [f"{table.source}: {len(table.cells)} cells of {what} read, checked against the exact "
             f"{solution} ({check.objective}) for {check.rules.describe()}", ""]
    listed = check.cells if show_all else check.inconsistent_cells
    if listed:
        lines.append("Every cell:" if show_all else "Cells that disagree:")
    for c in listed:
        cell = c.cell
        where = f"line {cell.line}, {cell.row} v {cell.column}"
        if cell.move is not None:
            if c.stand is None:
                detail = f" ({c.note})" if c.note else " (majority of the hands of this total)"
            else:
                hit = "-" if c.hit is None else decimal_text(c.hit, 6)
                detail = f" (stand {decimal_text(c.stand, 6)}, hit {hit})"
            best = {"hit": "H", "stand": "S", None: "-"}[c.exact_move]
            lines.append(f"  {where}: printed {'H' if cell.move == 'hit' else 'S'}, best {best}{detail}"
                         + ("" if c.consistent else "  <-- inconsistent"))
        else:
            assert cell.number is not None and c.exact is not None and c.error is not None  # a value cell
            lines.append(f"  {where} ({cell.block}): printed {cell.number.text}, exact "
                         f"{decimal_text(c.exact, 8)}... (= {fraction_string(c.exact)}), error {short_text(c.error)}"
                         + ("" if c.consistent else "  <-- inconsistent"))
    bad = len(check.inconsistent_cells)
    lines += ["", f"Summary: {len(check.cells) - bad} of {len(check.cells)} cells consistent"
              + (f"; largest error {check.max_abs_error:.3g} per unit bet" if table.kind == "values" else "") + ".",
              "Verdict: " + ("CONSISTENT: every cell is optimal (or the exact value as printed)." if check.consistent
                             else "INCONSISTENT: see the cells above.")]
    return "\n".join(lines) + "\n"
