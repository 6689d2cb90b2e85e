"""The dealer table as a plain :class:`~bjexact.core.text.Table`: the text of ``str(DealerTable)``."""

from __future__ import annotations

from typing import Any

from ..core.cards import rank_symbol
from ..core.text import NumberStyle, Table, render

__all__ = ["dealer_tables", "dealer_text"]


_RANK_ROWS = (("2", 2), ("3", 3), ("4", 4), ("5", 5), ("6", 6), ("7", 7), ("8", 8),
              ("9", 9), ("10", 10), ("J", 10), ("Q", 10), ("K", 10), ("A", 1))


def dealer_tables(table: Any, style: NumberStyle, *, rank_rows: bool = False) -> list[Table]:
    """The dealer table (a :class:`bjexact.dealer.DealerTable`) as a renderable :class:`Table`."""
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
