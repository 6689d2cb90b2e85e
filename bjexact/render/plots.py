"""Figures of symbolic results (matplotlib, imported only when a figure is drawn).

The curves are the exact polynomials of :mod:`bjexact.symbolic`, evaluated
exactly at rational points and converted to floats only to be drawn.
"""

from __future__ import annotations

import io
from typing import Any

from ..core.cards import STANDARD_PROBABILITIES, TEN, rank_symbol
from ..core.numbers import mpq
from ..errors import BjexactError
from ..symbolic.polys import evaluate
from .svg import FIGURE_FORMATS

__all__ = ["outcome_plot"]

STANDARD_T = STANDARD_PROBABILITIES[TEN - 1]


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise BjexactError("plots need matplotlib: pip install 'bjexact[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def outcome_plot(table: Any, fmt: str = "svg", points: int = 200) -> bytes:
    """P(outcome | up-card) against the ten density ``t`` in [0, 1), one panel per up-card.

    ``table`` is a :class:`bjexact.symbolic.SymbolicTable` of the ten-density model.
    The standard deck, ``t = 4/13``, is marked by a dashed line. Returns the file's bytes.
    """

    if table.model.kind != "ten-density":
        raise BjexactError("plots are drawn against the ten density: use --ten-density NAME")
    if fmt not in FIGURE_FORMATS:
        raise BjexactError(f"unknown plot format {fmt!r} (use svg, pdf or png)")
    plt = _pyplot()
    t = table.model.variables[0]
    xs = [mpq(i, points) for i in range(points)]  # t = 1 is left out: peek divides by 1 - t there
    upcards = table.upcards
    columns = 5
    rows = (len(upcards) + columns - 1) // columns
    fig, axes = plt.subplots(rows, columns, figsize=(3.2 * columns, 2.8 * rows), sharex=True, sharey=True,
                             squeeze=False)
    for k, u in enumerate(upcards):
        ax = axes[k // columns][k % columns]
        for outcome in table.outcomes:
            ys = [float(evaluate(table[u][outcome], (x,))) for x in xs]
            ax.plot([float(x) for x in xs], ys, label=outcome, linewidth=1.2)
        ax.axvline(float(STANDARD_T), color="grey", linestyle="--", linewidth=0.8)
        ax.set_title(f"up-card {rank_symbol(u)}", fontsize=10)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.grid(True, linewidth=0.3)
    for k in range(len(upcards), rows * columns):
        axes[k // columns][k % columns].axis("off")
    for ax in axes[-1]:
        ax.set_xlabel(f"{t} = P(ten-valued card)")
    for row in axes:
        row[0].set_ylabel("probability")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.suptitle(f"Dealer's final outcome against {t} (dashed: standard deck, {t} = 4/13); "
                 f"{table.rules.describe()}", fontsize=11, y=0.995)
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.955), ncol=len(labels),
               frameon=False)
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    buffer = io.BytesIO()
    metadata = {"Date": None} if fmt == "svg" else ({"CreationDate": None} if fmt == "pdf" else {})
    fig.savefig(buffer, format=fmt, metadata=metadata)
    plt.close(fig)
    return buffer.getvalue()
