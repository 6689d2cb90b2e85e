"""How notebooks show the package's values: HTML and Markdown for Jupyter's rich display.

Importing this module registers a presenter for each displayable type of the domain layers
(:func:`bjexact.core.display.register_presenter`); the package arranges for the import the first
time a notebook displays one of them (see :mod:`bjexact.core.display` for why it is wired that
way). Each presenter builds the same :class:`~bjexact.core.text.Table` objects as the command
line, so a notebook shows what ``bjexact dealer``, ``player``, ``edge``, ``hand`` and ``matrix``
print: numbers rounded for reading, and in HTML each rounded number carries its exact value as
a tooltip (``title``: the fraction itself, a probability where the cell shows a percentage).
``to_pandas()`` gives the exact values as data.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from html import escape
from typing import Any

from ..core.cards import rank_symbol
from ..core.display import register_presenter
from ..core.numbers import fraction_string
from ..core.text import NumberStyle, Table, render
from ..dealer.distributions import DealerTable
from ..dealer.matrices import AbsorbingChain
from ..dealer.text import dealer_tables
from ..player.game import GameSolution, MoveValues
from ..player.solver import FiniteSolution, HandDecision, InfiniteSolution, PlayerMatrices
from ..symbolic.polys import n_terms, polynomial_string, summary
from ..symbolic.removal import GameRemovalEffects, RemovalEffects
from ..symbolic.table import SymbolicTable, substitution_text
from .game import chart_tables, edge_headline, edge_tables, hand_tables
from .removal import game_tables, removal_tables
from .symbolic import render_symbolic
from .tables import game_lines, player_tables

__all__ = ["html_tables", "markdown_tables", "notebook_tables"]

# one convention, as on the command line: chances in %, expected results in % of the initial bet
# (4 places), every header saying so; the exact fraction (per unit) is each number's tooltip
_PERCENT = NumberStyle()
_VALUE = _PERCENT
_MATRIX = NumberStyle(decimals=6, percent=False)


Styles = NumberStyle | Sequence[NumberStyle]  # one for every table, or one per table


def _per_table(tables: Sequence[Table], styles: Styles) -> list[tuple[Table, NumberStyle]]:
    if isinstance(styles, NumberStyle):
        return [(table, styles) for table in tables]
    return list(zip(tables, styles, strict=True))


def html_tables(tables: Sequence[Table], styles: Styles, lines: Sequence[str] = ()) -> str:
    """Tables as HTML: a caption per table, its notes below it, every number rounded by its style
    with the exact fraction as its tooltip; ``lines``: paragraphs before the tables."""
    parts = ['<div class="bjexact">']
    parts += [f"<p>{escape(line)}</p>" for line in lines]
    for table, style in _per_table(tables, styles):
        parts.append("<table>")
        if table.title:
            parts.append(f"<caption>{escape(table.title)}</caption>")
        parts.append("<thead><tr>" + "".join(f"<th>{escape(str(c))}</th>" for c in table.columns) + "</tr></thead>")
        parts.append("<tbody>")
        for row in table.rows:
            cells = []
            for i, value in enumerate(row):
                if isinstance(value, str):
                    tag = "th" if i == 0 else "td"
                    cells.append(f"<{tag}>{escape(value)}</{tag}>")
                elif value is None:
                    cells.append("<td></td>")
                else:
                    cells.append(f'<td style="text-align:right" title="{escape(fraction_string(value))}">'
                                 f"{escape(style.plain(value))}</td>")
            parts.append("<tr>" + "".join(cells) + "</tr>")
        parts.append("</tbody></table>")
        parts += [f"<p><small>{escape(note)}</small></p>" for note in table.notes]
    parts.append("</div>")
    return "\n".join(parts) + "\n"


def markdown_tables(tables: Sequence[Table], styles: Styles, lines: Sequence[str] = ()) -> str:
    """Tables as Markdown (as ``--format md`` prints them), ``lines`` first."""
    head = "".join(f"{line}\n\n" for line in lines)
    return head + "\n".join(render([table], "md", style) for table, style in _per_table(tables, styles))


def notebook_tables(value: Any) -> tuple[list[str], list[Table], Styles]:
    """(paragraphs, tables, number styles) that show ``value`` in a notebook."""
    if isinstance(value, DealerTable):
        return [], dealer_tables(value, _PERCENT), _PERCENT
    if isinstance(value, InfiniteSolution | FiniteSolution):
        lines = [line.strip() for line in game_lines(value.game, value.objective, value.rules.naturals)]
        lines.append("Every value: solution.to_pandas().")
        return lines, player_tables(value, _VALUE, "policy"), _VALUE
    if isinstance(value, GameSolution):
        lines = [line.strip() for line in edge_headline(value, _PERCENT)]
        # the chart without the Ph/Pd codes, which take one more valuation of the splits (seconds)
        lines.append("Chart codes as bjexact chart prints them, but P for every split: "
                     "solution.chart(das_codes=True) marks the splits that only DAS makes best (Ph, Pd).")
        return lines, edge_tables(value, _PERCENT) + chart_tables(value, das_codes=False), _PERCENT
    if isinstance(value, MoveValues):
        return [], hand_tables(value, "the player's moves", _VALUE), _VALUE
    if isinstance(value, HandDecision):
        return [], [_decision_table(value)], _VALUE
    if isinstance(value, AbsorbingChain):
        return [], [_grid_table(value, name) for name in ("absorption", "T", "R")], _MATRIX
    if isinstance(value, PlayerMatrices):
        return [], [_player_matrices_table(value)], _MATRIX
    if isinstance(value, RemovalEffects):
        # as `bjexact eor` prints them: percentages, the changes signed
        return [], removal_tables(value, _PERCENT), [_PERCENT, NumberStyle(signed=True)]
    if isinstance(value, GameRemovalEffects):
        signed = NumberStyle(signed=True)
        return [], game_tables(value, signed), signed
    if isinstance(value, SymbolicTable):
        return [substitution_text(value.model)], [_symbolic_table(value)], _PERCENT
    raise TypeError(f"no notebook view of {type(value).__name__}")


def _decision_table(decision: HandDecision) -> Table:
    cards = ",".join(rank_symbol(c) for c in decision.cards)
    rows = [[move, value, "best" if move == decision.best else ""]
            for move, value in (("stand", decision.stand), ("hit", decision.hit)) if value is not None]
    return Table(f"{cards} ({decision.hand}) v {rank_symbol(decision.upcard)}: best move {decision.best}",
                 ["move", _VALUE.value_header("value"), ""], rows, ["Hitting: one card, then the best play."])


_GRID_TITLES = {"absorption": "N R: P(final outcome | state)", "T": "T: one draw, transient to transient",
                "R": "R: one draw, transient to absorbing"}


def _grid_table(chain: AbsorbingChain, name: str) -> Table:
    rows, columns, grid = chain.grid(name)
    return Table(_GRID_TITLES[name], ["state", *columns], [[label, *row] for label, row in zip(rows, grid)])


def _player_matrices_table(matrices: PlayerMatrices) -> Table:
    rows = [[label, *t, b, r, v, move] for label, t, b, r, v, move in
            zip(matrices.states, matrices.T, matrices.B, matrices.R_stand, matrices.V, matrices.policy)]
    return Table("The hit chain: T (one card), B (busting), R_stand (standing), V (optimal value), the best move",
                 ["state", *matrices.states, "B", "R_stand", "V", "best"], rows)


_LONG_POLYNOMIAL = 12  # terms: longer polynomials are summarised, as `bjexact dealer --symbolic` does


def _symbolic_table(table: SymbolicTable) -> Table:
    standard = table.evaluate()
    rows = [[rank_symbol(u), o, standard[u][o],
             polynomial_string(cell) if n_terms(cell) <= _LONG_POLYNOMIAL else summary(cell)]
            for u, row in table.rows.items() for o, cell in row.items()]
    return Table(f"P(dealer's final outcome | up-card) as {table.model.describe()}: {table.rules.describe()}",
                 ["up-card", "outcome", "at the standard deck (%)", "polynomial"], rows,
                 [f"Polynomials of more than {_LONG_POLYNOMIAL} terms are summarised: table.to_pandas() or "
                  "table.rows[u][outcome] give them in full."])


# A notebook asks for HTML and Markdown one after the other: the tables of the last value shown
# are kept for the second request (by identity, through a weak reference: nothing is kept alive).
_last: tuple[Any, tuple[list[str], list[Table], Styles]] | None = None


def _tables_of(value: Any) -> tuple[list[str], list[Table], Styles]:
    global _last
    if _last is not None and _last[0]() is value:
        return _last[1]
    found = notebook_tables(value)
    try:
        _last = (weakref.ref(value), found)
    except TypeError:  # a type without weak references is simply not kept
        _last = None
    return found


def present(value: Any, fmt: str) -> str:
    """``value`` as ``"html"`` or ``"md"`` (the presenter registered for every displayable type)."""
    if fmt == "md" and isinstance(value, SymbolicTable):  # `dealer --symbolic --format md`: polynomials as code
        return f"{substitution_text(value.model)}\n\n" + render_symbolic(value, "md", _PERCENT)[0]
    lines, tables, style = _tables_of(value)
    if fmt == "html":
        return html_tables(tables, style, lines)
    if fmt == "md":
        return markdown_tables(tables, style, lines)
    raise ValueError(f"unknown notebook format {fmt!r} (use html or md)")


for _type in (DealerTable, InfiniteSolution, FiniteSolution, GameSolution, MoveValues, HandDecision,
              AbsorbingChain, PlayerMatrices, RemovalEffects, GameRemovalEffects, SymbolicTable):
    register_presenter(_type, present)
