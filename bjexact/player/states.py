"""The player's states on the infinite deck and the hit chain between them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from ..core.cards import RANKS, Counts, rank_symbol, ranks_in
from ..core.hand import HandValue, add_card, hand_value
from ..dealer.graph import BUST

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["PlayerState", "player_states", "player_hit_graph", "hands_up_to_21", "counts_value"]

_HARD_TOTALS = range(4, 22)
_SOFT_TOTALS = range(12, 22)


@dataclass(frozen=True, order=True)
class PlayerState:
    """An infinite-deck state: the player's ``total`` and softness against the ``upcard``."""

    total: int
    soft: bool
    upcard: int

    @property
    def hand(self) -> HandValue:
        return HandValue(self.total, self.soft)

    def label(self) -> str:
        return f"{self.hand} v {rank_symbol(self.upcard)}"


def player_states() -> tuple[HandValue, ...]:
    """The player's hand states, hard 4-21 then soft 12-21."""
    return tuple(HandValue(t, False) for t in _HARD_TOTALS) + tuple(HandValue(t, True) for t in _SOFT_TOTALS)


def hard_sum(hand: HandValue) -> int:
    return hand.total - (10 if hand.soft else 0)


@cache
def player_hit_graph() -> nx.DiGraph:
    """The player's hit chain as a networkx graph over :func:`player_states` and ``"bust"``.

    Edge attribute ``ranks`` lists the cards that make each move. Drawing a card
    always raises the hard sum, so the graph is acyclic.
    """
    import networkx as nx  # here: the exact engine's paths never build a graph

    graph = nx.DiGraph()
    graph.add_node(BUST, kind="absorbing")
    for hand in player_states():
        graph.add_node(str(hand), kind="transient", total=hand.total, soft=hand.soft)
    for hand in player_states():
        for rank in RANKS:
            new = add_card(hand, rank)
            target = BUST if new.bust else str(new)
            if graph.has_edge(str(hand), target):
                graph.edges[str(hand), target]["ranks"] += (rank,)
            else:
                graph.add_edge(str(hand), target, ranks=(rank,))
    return graph


def hands_up_to_21(
    shoe: Counts, upcard: int | None, start: tuple[int, ...] = (), extra: Counts = (0,) * 10
) -> Iterator[Counts]:
    """Every composition of a player's hand the ``shoe`` (ten counts), less the up-card (if any)
    and the ``extra`` cards, can hold: multisets of two or more cards, containing ``start``, with
    a hard total of 21 or less (every hand the player may stand on or hit)."""
    available = list(shoe)
    if upcard is not None:
        available[upcard - 1] -= 1
    for r in RANKS:
        available[r - 1] -= extra[r - 1]
    counts = [0] * 10
    for r in start:
        counts[r - 1] += 1
    if any(counts[i] > available[i] for i in range(10)):
        return

    def extend(rank_from: int, total: int) -> Iterator[Counts]:
        if sum(counts) >= 2:
            yield tuple(counts)
        for r in range(rank_from, 11):
            if total + r > 21:
                break
            if counts[r - 1] < available[r - 1]:
                counts[r - 1] += 1
                yield from extend(r, total + r)
                counts[r - 1] -= 1

    yield from extend(1, sum(start))  # cards added in rank order: each multiset once


@cache
def counts_value(counts: Counts) -> HandValue:
    """The value of a hand given by its ten counts (A, 2, ..., T), kept once computed."""
    return hand_value(ranks_in(counts))
