"""The player's states on the infinite deck and the hit chain between them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import networkx as nx

from ..core.cards import RANKS, rank_symbol
from ..core.hand import HandValue, add_card
from ..dealer.graph import BUST

__all__ = ["PlayerState", "player_states", "player_hit_graph"]

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


def _hard_sum(hand: HandValue) -> int:
    return hand.total - (10 if hand.soft else 0)


@cache
def player_hit_graph() -> nx.DiGraph:
    """The player's hit chain as a networkx graph over :func:`player_states` and ``"bust"``.

    Edge attribute ``ranks`` lists the cards that make each move. Drawing a card
    always raises the hard sum, so the graph is acyclic.
    """
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
