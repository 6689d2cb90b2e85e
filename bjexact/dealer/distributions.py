"""The dealer's outcome tables: rows per up-card from the one graph re-weighted for each shoe,
and their average over the up-card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.cards import (
    ACE,
    RANKS,
    STANDARD_PROBABILITIES,
    STANDARD_PROPORTIONS,
    Counts,
    FiniteShoe,
    UpcardRows,
    rank_symbol,
)
from ..core.display import Displayable
from ..core.frames import data_frame, upcard_label
from ..core.hand import EMPTY_HAND, HandValue, add_card, natural_partner, no_natural_chance, two_cards_natural
from ..core.numbers import fraction_string, mpq
from ..core.rules import Rules
from ..core.text import with_floats
from ..errors import BjexactError
from .graph import BLACKJACK, BUST, EXHAUSTED, NO_CARDS, ShoeDraws, absorbing_outcomes, graph_for
from .text import dealer_text

__all__ = ["DealerTable", "dealer_table", "dealer_distributions", "average_row", "row_order"]


@dataclass(frozen=True)
class DealerTable(UpcardRows[mpq], Displayable):
    """Exact final-outcome probabilities of the dealer, one row per up-card.

    ``rows[u][o]`` is P(the dealer ends with outcome ``o`` | up-card ``u``), under
    the conventions of ``rules`` (see :mod:`bjexact.core.rules`). Up-cards that the
    shoe does not hold have no row. ``outcomes`` lists the columns; ``exhausted``
    is one only when a custom shoe can run out. Rows are keyed by rank (1 the ace,
    10 any ten-valued card) and answer to card symbols too: ``table["A"]``,
    ``table[11]`` and ``table[1]`` are one row, as are ``table["T"]``, ``table["K"]``
    and ``table[10]`` (:class:`~bjexact.core.cards.RankKeyed`).
    """

    rules: Rules
    outcomes: tuple[str, ...]
    rows: Mapping[int, Mapping[str, mpq]]

    def to_pandas(self, exact: bool = False, *, upcards: str = "symbol") -> Any:
        """A pandas DataFrame: one row per up-card (index ``"2"`` .. ``"9"``, ``"T"``, ``"A"``; with
        ``upcards="rank"`` 2 .. 10 and 1 for the ace, so that ``.loc[10]`` is the ten), one column per
        outcome; floats (the default), or exact ``mpq`` cells with ``exact=True``."""
        records = [{"up-card": upcard_label(u, upcards), **row} for u, row in self.rows.items()]
        return data_frame(records, ["up-card", *self.outcomes], exact, index="up-card")

    def to_json(self) -> dict[str, Any]:
        """``{"rules", "outcomes", "table": {up-card: {outcome: "p/q"}}, "table_float"}``: the exact
        chances, and the same as the nearest floats."""
        return with_floats({
            "rules": self.rules.to_json(),
            "outcomes": list(self.outcomes),
            "table": {
                rank_symbol(u): {o: fraction_string(row[o]) for o in self.outcomes}
                for u, row in self.rows.items()
            },
        }, ("table",))

    def __str__(self) -> str:
        return dealer_text(self)


def dealer_distributions(
    rules: Rules, removed: Counts = NO_CARDS, upcards: Iterable[int] | None = None
) -> dict[int, dict[str, mpq]]:
    """P(outcome | up-card) with the cards ``removed`` gone from the shoe as well.

    Every outcome of the graph is a key (``exhausted`` only for finite shoes).
    Up-cards not left in the shoe are skipped.
    """
    shoe = rules.make_shoe()
    if not isinstance(shoe, FiniteShoe):
        return _infinite_rows(rules, RANKS if upcards is None else upcards)
    graph = graph_for(rules)
    shoe = shoe.less(removed)
    wanted = [u for u in (RANKS if upcards is None else upcards) if shoe.has(u)]
    vectors = graph.solve(ShoeDraws(shoe), wanted)
    return {u: dict(zip(graph.outcomes, vectors[u])) for u in wanted}


def _infinite_rows(rules: Rules, upcards: Iterable[int]) -> dict[int, dict[str, mpq]]:
    """The rows of :func:`dealer_distributions` for the infinite deck, by the dealer's totals
    (every draw has the same chances, so a hand is its total and softness): the same
    outcomes, moves and conventions as the graph's (:func:`.graph.dealer_graph`), without
    building it."""
    chances = STANDARD_PROBABILITIES
    outcomes = absorbing_outcomes(rules.naturals, False)
    zero = {o: mpq(0) for o in outcomes}
    memo: dict[HandValue, dict[str, mpq]] = {}

    def draw_into(row: dict[str, mpq], value: HandValue, chance: mpq) -> None:
        """Add to ``row`` the outcomes of a hand now worth ``value``, reached with ``chance``."""
        if value.bust:
            row[BUST] += chance
        elif rules.dealer_stands(value):
            row[str(value.total)] += chance
        else:
            for outcome, p in from_hand(value).items():
                row[outcome] += chance * p

    def from_hand(value: HandValue) -> dict[str, mpq]:
        found = memo.get(value)
        if found is None:
            found = dict(zero)
            for rank, chance in zip(RANKS, chances):
                draw_into(found, add_card(value, rank), chance)
            memo[value] = found
        return found

    rows = {}
    for upcard in upcards:
        start = add_card(EMPTY_HAND, upcard)
        partner = natural_partner(upcard)
        rest = mpq(1) - (chances[partner - 1] if partner and rules.naturals == "peek" else 0)
        row = dict(zero)
        for rank, chance in zip(RANKS, chances):
            new_value = add_card(start, rank)
            if two_cards_natural(new_value):
                if rules.naturals != "peek":
                    row[BLACKJACK if rules.naturals == "separate" else "21"] += chance
                continue
            draw_into(row, new_value, chance / rest)
        rows[upcard] = row
    return rows


def dealer_table(rules: Rules | None = None) -> DealerTable:
    """The dealer's exact final-outcome table for ``rules`` (default: 2 decks, S17, as21).

    Each row is P(final outcome | up-card); see :class:`~bjexact.core.rules.Naturals` for the
    conventions of the outcome ``21`` and of ``blackjack``.

    Examples
    --------
    >>> table = dealer_table(Rules(decks="inf"))
    >>> table.outcomes
    ('17', '18', '19', '20', '21', 'bust')
    >>> table[6]["bust"]
    mpq(345176856,815730721)
    """
    rules = rules or Rules()
    rows = dealer_distributions(rules)
    outcomes = absorbing_outcomes(rules.naturals, False)
    if any(row.get(EXHAUSTED) for row in rows.values()):
        outcomes += (EXHAUSTED,)
    ordered = sorted(rows, key=row_order)
    return DealerTable(rules, outcomes, {u: {o: rows[u][o] for o in outcomes} for u in ordered})


def row_order(upcard: int) -> int:
    """Rows in the usual order: 2..9, T, then A."""
    return upcard if upcard != ACE else 11


def average_row(source: Rules | DealerTable, removed: Counts = NO_CARDS) -> dict[str, mpq]:
    """The dealer's outcome distribution averaged over the up-card, each weighted by its chance;
    under ``peek``, by its chance and the chance of no natural with it.

    Without ``peek`` that is ``sum_u P(u) * P(outcome | u)`` = P(outcome). Under ``peek``
    the rows are conditioned on no natural, and so is the average:
    ``sum_u P(u) P(no natural | u) P(outcome | u, no natural) / P(no natural)``
    = P(outcome | no natural). ``source``: the rules (their rows are computed, with the
    cards ``removed`` gone as well) or a table of rows to average, whose shoe is that of
    its rules less ``removed``. Up-cards without a row (not in the shoe) weigh nothing.
    """
    rows: Mapping[int, Mapping[str, Any]]
    if isinstance(source, Rules):
        rules, rows = source, dealer_distributions(source, removed)
    else:
        rules, rows = source.rules, source.rows
    shoe = rules.make_shoe()
    # the infinite deck in the proportions of its draw probabilities (no_natural_chance needs counts)
    counts = STANDARD_PROPORTIONS
    if isinstance(shoe, FiniteShoe):
        counts = tuple(c - r for c, r in zip(shoe.counts, removed))
    if any(c < 0 for c in counts):
        raise BjexactError("more cards removed than the shoe holds")
    total = sum(counts)
    weights = {}
    for upcard in rows:
        weight = mpq(counts[upcard - 1], total)
        if rules.naturals == "peek":
            unseen = counts if shoe.is_infinite else tuple(c - (r == upcard) for r, c in zip(RANKS, counts))
            weight *= no_natural_chance(unseen, upcard)
        weights[upcard] = weight
    norm = sum(weights.values(), mpq(0))
    if not norm:
        raise BjexactError("no up-card leaves the dealer without a natural in this shoe")
    outcomes = list(dict.fromkeys(o for row in rows.values() for o in row))
    return {o: sum((w * rows[u].get(o, mpq(0)) for u, w in weights.items()), mpq(0)) / norm for o in outcomes}
