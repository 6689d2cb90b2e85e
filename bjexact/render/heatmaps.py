"""Heatmaps of the chain matrices (T, R, N, N R; the player's T), drawn by Graphviz.

For when a chain's diagram is too dense to follow: one coloured cell per entry,
darker for larger values (white is 0, the darkest colour the matrix's largest
entry), rows the states the chain is in ("from"), columns the states it goes to.
A cell shows its value rounded to 2 places ("" for 0); the exact fraction is the
cell's tooltip (in SVG, the ``xlink:title`` of the cell's link), and each cell's
``id`` is ``row -> column``.

The cells are placed here and laid out by Graphviz with ``neato -n2`` (see
:func:`bjexact.render.diagrams.render`), so the same picture comes as DOT, SVG,
PNG or PDF and no plotting library is needed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.numbers import fraction_string, mpq
from ..errors import BjexactError
from .diagrams import dot_quote as quote
from .diagrams import new_graph

__all__ = ["MAX_HEATMAP_STATES", "heatmap", "short_state"]

MAX_HEATMAP_STATES = 80
_CELL_W = 38.0
_CELL_H = 20.0
_LOW = (255, 255, 255)
_HIGH = (8, 69, 148)


def short_state(state: str) -> str:
    """``hard 12`` -> ``h12``, ``soft 15`` -> ``s15``, the up-card ``6`` -> ``up 6``; outcomes as they are."""
    if state in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T"):
        return f"up {state}"
    kind, _, total = state.partition(" ")
    return {"hard": "h", "soft": "s"}.get(kind, kind) + total if total else state


def _colour(share: float) -> str:
    return "#" + "".join(f"{round(lo + (hi - lo) * share):02x}" for lo, hi in zip(_LOW, _HIGH))


def _cell_text(value: mpq) -> str:
    if not value:
        return ""
    text = f"{float(value):.2f}"
    return text[1:] if text.startswith("0.") else text


def heatmap(title: str, rows: Sequence[str], columns: Sequence[str], grid: Sequence[Sequence[mpq]]) -> Any:
    """A ``pydot.Dot`` heatmap of ``grid`` (exact entries), ``rows`` x ``columns`` labelled by state."""
    if len(rows) > MAX_HEATMAP_STATES or len(columns) > MAX_HEATMAP_STATES:
        raise BjexactError(f"{max(len(rows), len(columns))} states are too many for a heatmap "
                           f"(at most {MAX_HEATMAP_STATES}): use --format csv or json")
    if any(value < 0 for row in grid for value in row):
        raise BjexactError("a heatmap shows non-negative entries only")
    graph = new_graph(title + "\nrow: from, column: to; darker = larger (white 0); hover over a cell for the "
                      "exact fraction", fixed=True)
    import pydot

    largest = max((value for row in grid for value in row), default=0) or 1
    left = 54.0
    top = -30.0
    for j, column in enumerate(columns):
        x = left + _CELL_W * (j + 0.5)
        graph.add_node(pydot.Node(quote(f"column {column}"), label=quote(short_state(column)), shape="plaintext",
                                  style="", pos=quote(f"{x:.1f},{top:.1f}!"), fontsize="9"))
    for i, (row, values) in enumerate(zip(rows, grid)):
        y = top - _CELL_H * (i + 1)
        graph.add_node(pydot.Node(quote(f"row {row}"), label=quote(short_state(row)), shape="plaintext", style="",
                                  pos=quote(f"{left - 22:.1f},{y:.1f}!"), fontsize="9"))
        for j, (column, value) in enumerate(zip(columns, values)):
            share = float(value / largest)
            cell = pydot.Node(
                quote(f"{row} -> {column}"), label=quote(_cell_text(value)), shape="box", style="filled",
                fillcolor=_colour(share), color="#dddddd", penwidth="0.5", fixedsize="true",
                width=f"{_CELL_W / 72:.4f}", height=f"{_CELL_H / 72:.4f}", fontsize="8",
                fontcolor="white" if share > 0.55 else "black", tooltip=quote(fraction_string(value)),
                pos=quote(f"{left + _CELL_W * (j + 0.5):.1f},{y:.1f}!"))
            cell.set("class", "cell")
            graph.add_node(cell)
    # The scale: five swatches from 0 to the largest entry.
    bottom = top - _CELL_H * (len(rows) + 2)
    graph.add_node(pydot.Node(quote("scale"), label=quote("scale:"), shape="plaintext", style="", fontsize="9",
                              pos=quote(f"{left - 22:.1f},{bottom:.1f}!")))
    for k in range(5):
        value = largest * mpq(k, 4)
        graph.add_node(pydot.Node(
            quote(f"scale {k}"), label=quote(_cell_text(value) or "0"), shape="box", style="filled",
            fillcolor=_colour(k / 4), fontcolor="white" if k / 4 > 0.55 else "black", fixedsize="true",
            width=f"{_CELL_W / 72:.4f}", height=f"{_CELL_H / 72:.4f}", fontsize="8", color="#dddddd",
            pos=quote(f"{left + _CELL_W * (k + 0.5):.1f},{bottom:.1f}!")))
    right = left + _CELL_W * max(len(columns), 5) + 8
    width = max(right, 7.6 * max(len(line) for line in title.split("\n")))
    graph.set("bb", quote(f"0,{bottom - _CELL_H:.1f},{width:.1f},44"))
    graph.set("lp", quote(f"{width / 2:.1f},22"))
    return graph
