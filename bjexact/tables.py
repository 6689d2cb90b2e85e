"""Rendering tables for people and programs: text, CSV, JSON, Markdown, LaTeX.

A :class:`Table` is a title, column headers and rows of cells that are either
strings (labels) or exact numbers. How a number is shown is decided here, at
the last moment: as a percentage or decimal with a given number of places, or
as the exact fraction. Floats never feed back into any computation.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .exact import fraction_string, mpq

__all__ = [
    "FORMATS", "PLAYER_VIEWS", "Table", "NumberStyle", "render", "dealer_text", "dealer_tables",
    "player_tables", "game_lines", "latex_escape",
]

FORMATS = ("text", "csv", "json", "md", "latex")


@dataclass(frozen=True)
class NumberStyle:
    """How exact numbers are printed: ``exact`` fractions, or ``decimals`` places (``percent``)."""

    decimals: int = 4
    percent: bool = True
    exact: bool = False
    signed: bool = False

    def plain(self, value: Any) -> str:
        if self.exact:
            return fraction_string(value)
        return _decimal(mpq(value) * (100 if self.percent else 1), self.decimals, self.signed)

    def latex(self, value: Any) -> str:
        if not self.exact:
            return self.plain(value)
        value = mpq(value)
        if value.denominator == 1:
            return str(value.numerator)
        sign = "-" if value < 0 else ""
        return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def _decimal(value: mpq, places: int, signed: bool = False) -> str:
    """Round an exact value half away from zero to ``places`` decimals, exactly."""
    scaled = abs(value) * 10**places
    whole = int(scaled)
    if scaled - whole >= mpq(1, 2):
        whole += 1
    digits = str(whole).rjust(places + 1, "0")
    text = digits if places == 0 else f"{digits[:-places]}.{digits[-places:]}"
    if value < 0 and whole:
        return "-" + text
    return ("+" + text) if signed and value > 0 else text


@dataclass(frozen=True)
class Table:
    """A titled grid: ``columns`` headers and ``rows`` of label strings or exact numbers."""

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    notes: Sequence[str] = field(default_factory=tuple)


def _cell(value: Any, style: NumberStyle, latex: bool = False) -> str:
    if isinstance(value, str):
        return value
    return style.latex(value) if latex else style.plain(value)


def render(tables: Sequence[Table], fmt: str, style: NumberStyle, json_document: Any = None) -> str:
    """Render tables in ``fmt`` (one of :data:`FORMATS`); JSON prints ``json_document``."""
    if fmt == "json":
        return json.dumps(json_document, indent=2) + "\n"
    renderer = {"text": _text, "csv": _csv, "md": _markdown, "latex": _latex}[fmt]
    return "\n".join(renderer(t, style) for t in tables)


def _text(table: Table, style: NumberStyle) -> str:
    grid = [list(table.columns)] + [[_cell(v, style) for v in row] for row in table.rows]
    widths = [max(len(r[i]) for r in grid) for i in range(len(grid[0]))]
    # numbers and short codes line up on the right, longer text on the left
    left = [i == 0 or any(isinstance(row[i], str) and len(row[i]) > 3 for row in table.rows)
            for i in range(len(widths))]
    lines = [table.title, ""] if table.title else []
    for n, row in enumerate(grid):
        cells = [c.ljust(w) if lft else c.rjust(w) for c, w, lft in zip(row, widths, left)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines += [""] + list(table.notes) if table.notes else []
    return "\n".join(lines) + "\n"


def _csv(table: Table, style: NumberStyle) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(table.columns)
    for row in table.rows:
        writer.writerow([_cell(v, style) for v in row])
    return buffer.getvalue()


def _markdown(table: Table, style: NumberStyle) -> str:
    lines = [f"**{table.title}**", ""] if table.title else []
    lines.append("| " + " | ".join(table.columns) + " |")
    lines.append("|" + "|".join([":---"] + ["---:"] * (len(table.columns) - 1)) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(_cell(v, style) for v in row) + " |")
    lines += [""] + [f"*{n}*" for n in table.notes] if table.notes else []
    return "\n".join(lines) + "\n"


_LATEX_ESCAPES = {"%": r"\%", "&": r"\&", "_": r"\_", "#": r"\#", "$": r"\$"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_ESCAPES.get(c, c) for c in text)


def _latex(table: Table, style: NumberStyle) -> str:
    cells = [[_cell(v, style, latex=True) for v in row] for row in table.rows]
    if style.exact:
        cells = [[r[0]] + [f"${c}$" for c in r[1:]] for r in cells]
    lines = [
        "% needs \\usepackage{booktabs}",
        "\\begin{table}[htbp]",
        "\\centering",
        f"\\caption{{{latex_escape(table.title)}}}" if table.title else "",
        "\\begin{tabular}{l" + "r" * (len(table.columns) - 1) + "}",
        "\\toprule",
        " & ".join(latex_escape(c) for c in table.columns) + r" \\",
        "\\midrule",
        *(" & ".join(latex_escape(c) if not style.exact else c for c in row) + r" \\" for row in cells),
        "\\bottomrule",
        "\\end{tabular}",
        *(f"\\par\\smallskip{{\\footnotesize {latex_escape(n)}}}" for n in table.notes),
        "\\end{table}",
    ]
    return "\n".join(line for line in lines if line) + "\n"


# --- the dealer table -------------------------------------------------------

_RANK_ROWS = (("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8),
              ("9", 9), ("10", 10), ("J", 10), ("Q", 10), ("K", 10), ("A", 1))


def dealer_tables(table: Any, style: NumberStyle, *, rank_rows: bool = False) -> list[Table]:
    """The dealer table (a :class:`bjexact.dealer.DealerTable`) as a renderable :class:`Table`."""
    from .cards import rank_symbol

    unit = " (%)" if style.percent and not style.exact else ""
    title = f"Dealer's final outcome by up-card{unit}: {table.rules.describe()}"
    labels = _RANK_ROWS if rank_rows else tuple((rank_symbol(u), u) for u in table.upcards)
    rows = [[label] + [table.rows[u][o] for o in table.outcomes] for label, u in labels if u in table.rows]
    notes = [_NATURALS_NOTE[table.rules.naturals]]
    return [Table(title, ["up-card", *table.outcomes], rows, notes)]


_NATURALS_NOTE = {
    "as21": "Rows are P(outcome | up-card); a dealer natural counts as a final 21.",
    "separate": "Rows are P(outcome | up-card); a dealer natural is the outcome 'blackjack', not a 21.",
    "peek": "Rows are P(outcome | up-card, no dealer natural): the dealer has peeked (A and T rows renormalised).",
}


def dealer_text(table: Any, style: NumberStyle | None = None) -> str:
    return render(dealer_tables(table, style or NumberStyle()), "text", style or NumberStyle())


# --- the player's tables ----------------------------------------------------

PLAYER_VIEWS = ("policy", "values", "hands")
_UPCARD_COLUMNS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
_MOVE = {"hit": "H", "stand": "S"}


def _upcard_header(first: str) -> list[str]:
    from .cards import rank_symbol

    return [first] + [rank_symbol(u) for u in _UPCARD_COLUMNS]


def player_tables(solution: Any, style: NumberStyle, view: str = "policy") -> list[Table]:
    """Tables of a player solution (:mod:`bjexact.player`) for people.

    ``policy``: the best move (H hit, S stand) by hand total and up-card, hard and
    soft blocks; for finite shoes the move of the two-card
    hands, starred where hands of one total disagree (the exceptions follow).
    ``values``: the values of standing and of hitting. ``hands``: every two-card
    hand against every up-card.
    """
    if view not in PLAYER_VIEWS:
        raise ValueError(f"unknown view {view!r}")
    from .player import InfiniteSolution

    if isinstance(solution, InfiniteSolution):
        return _infinite_tables(solution, style, view)
    return _finite_tables(solution, style, view)


def _objective_note(solution: Any) -> str:
    if solution.objective == "win":
        return "Values are the chance of winning, a push counted as half a win."
    return "Values are expected results per unit bet: +1 win, 0 push, -1 loss."


def _infinite_tables(solution: Any, style: NumberStyle, view: str) -> list[Table]:
    from .cards import rank_symbol
    from .player import PlayerState

    rules = solution.rules.describe()
    blocks = (("hard", False, range(4, 22)), ("soft", True, range(12, 22)))
    if view == "hands":
        rows = []
        for first in range(1, 11):
            for second in range(first, 11):
                from .hand import hand_value

                hand = hand_value((first, second))
                label = f"{rank_symbol(first)},{rank_symbol(second)}"
                rows.append([label] + [_MOVE[solution.best(hand.total, hand.soft, u)] for u in _UPCARD_COLUMNS])
        return [Table(f"Best move by two-card hand (infinite deck): {rules}", _upcard_header("hand"), rows,
                      ["H: hit, S: stand. On the infinite deck a hand's value depends only on its total."])]
    tables = []
    if view == "policy":
        for name, soft, totals in blocks:
            rows = [[f"{name} {t}"] + [_MOVE[solution.best(t, soft, u)] for u in _UPCARD_COLUMNS] for t in totals]
            tables.append(Table(f"Best move, {name} totals: {rules}", _upcard_header("player"), rows,
                                ["H: hit, S: stand; ties go to standing."]))
        return tables
    for action in ("stand", "hit"):
        rows = []
        for name, soft, totals in blocks:
            for t in totals:
                rows.append([f"{name} {t}"] + [
                    getattr(solution[PlayerState(t, soft, u)], action) for u in _UPCARD_COLUMNS
                ])
        tables.append(Table(f"Value of {'standing' if action == 'stand' else 'hitting'}: {rules}",
                            _upcard_header("player"), rows, [_objective_note(solution)]))
    return tables


def _finite_tables(solution: Any, style: NumberStyle, view: str) -> list[Table]:
    from .cards import rank_symbol
    from .hand import hand_value

    rules = solution.rules.describe()
    hands = sorted({(a, b) for a, b, _ in solution.hands}, key=lambda h: (hand_value(h).soft, hand_value(h), h))

    def cell(first: int, second: int, upcard: int, action: str) -> Any:
        decision = solution.hands.get((first, second, upcard))
        if decision is None:
            return ""
        if action == "best":
            return _MOVE[decision.best]
        value = getattr(decision, action)
        return "" if value is None else value

    def hand_label(h: tuple[int, int]) -> str:
        return f"{rank_symbol(h[0])},{rank_symbol(h[1])}"

    if view == "hands":
        rows = [[hand_label(h)] + [cell(*h, u, "best") for u in _UPCARD_COLUMNS] for h in hands]
        return [Table(f"Best move by two-card hand: {rules}", _upcard_header("hand"), rows,
                      ["H: hit, S: stand; composition-dependent: the hand's own cards have left the shoe."])]
    if view == "values":
        return [
            Table(f"Value of {'standing' if action == 'stand' else 'hitting'} by two-card hand: {rules}",
                  _upcard_header("hand"),
                  [[hand_label(h)] + [cell(*h, u, action) for u in _UPCARD_COLUMNS] for h in hands],
                  [_objective_note(solution)])
            for action in ("stand", "hit")
        ]
    from .player import majority_move

    starred = {(s.total, s.soft, s.upcard) for s, _, _ in solution.exceptions}
    votes = {(s.total, s.soft, s.upcard): tally for s, tally in solution.two_card_moves.items()}
    tables = []
    for name, soft in (("hard", False), ("soft", True)):
        totals = sorted({t for t, s, _ in votes if s == soft})
        rows = []
        for t in totals:
            row = [f"{name} {t}"]
            for u in _UPCARD_COLUMNS:
                tally = votes.get((t, soft, u))
                if not tally:
                    row.append("")
                    continue
                best = majority_move(tally)
                mixed = len(tally) > 1 or (t, soft, u) in starred
                row.append(_MOVE[best] + ("*" if mixed else ""))
            rows.append(row)
        tables.append(Table(f"Best move of two-card hands, {name} totals: {rules}", _upcard_header("player"),
                            rows, ["H: hit, S: stand; * some hands of this total (two cards or more) "
                                   "play the other way: see the exceptions."]))
    rows = [[f"{s.hand} v {rank_symbol(s.upcard)}", _MOVE[best],
             " ".join("".join(rank_symbol(r) for r in cards) for cards in found[:8])
             + (f" (+{len(found) - 8} more)" if len(found) > 8 else "")]
            for s, best, found in solution.exceptions]
    tables.append(Table(f"Composition exceptions: {rules}", ["state", "best", "hands"], rows,
                        ["Hands whose best move differs from the majority of the two-card hands of their total."]))
    return tables


def game_lines(game: Any, objective: str) -> list[str]:
    """One paragraph on the value of the whole hit/stand game from the deal."""
    from .player import RESULTS

    shares = ", ".join(f"{name} {_decimal(p * 100, 4)}%" for name, p in zip(RESULTS, game.results))
    what = "expected result per unit bet" if objective == "ev" else "chance of winning (push = 1/2)"
    return [
        f"Game value from the deal ({what}): {fraction_string(game.value)}",
        f"  = {_decimal(game.value * 100, 6, signed=objective == 'ev')}%; results: {shares}",
    ]
