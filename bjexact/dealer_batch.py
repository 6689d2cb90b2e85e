"""The dealer's outcome distributions for many removed sets at once, exactly.

The full game needs P(dealer outcome | up-card, cards removed) for thousands of
sets of removed cards (every composition of the player's hand, and of split
hands with their extra pair card). The dealer graph is the same every time;
only its weights change. So the graph is walked once per up-card, carrying at
each node a *vector* over all removed sets.

Integers, not fractions: with ``M`` cards left after the up-card, a path of
``d`` draws has probability (product of card counts) / M(M-1)...(M-d+1). The
walk accumulates the integer numerators and brings every depth to the common
denominator ``M(M-1)...(M-K+1)`` (K the longest path). Those numerators are below
the denominator, so they are computed in numpy's int64 modulo a few primes
below 2^31 and recovered exactly by the Chinese remainder theorem.

Conventions are those of :mod:`bjexact.dealer`: the dealer's cards include the
up-card; the hole card is the first card drawn; a natural is the outcome
``blackjack``. ``exclude_natural`` drops it (under peek the player's decisions
are worth E[payoff, no dealer natural]: the remaining probabilities are
unconditional and sum to P(no natural)).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from .cards import RANKS, Counts
from .dealer import BLACKJACK, EXHAUSTED, FINAL_TOTALS, BUST, dealer_graph
from .errors import BjexactError
from .exact import mpq

__all__ = ["OUTCOMES", "DealerOracle"]

OUTCOMES = FINAL_TOTALS + (BUST, BLACKJACK)
_SLOT = {o: i for i, o in enumerate(OUTCOMES)}

# primes just below 2^31: products of two residues fit in int64
_PRIMES = (2147483647, 2147483629, 2147483587, 2147483579, 2147483563, 2147483549, 2147483543, 2147483497,
           2147483489, 2147483477, 2147483423, 2147483399, 2147483353, 2147483323, 2147483269, 2147483249)


@dataclass(frozen=True)
class _Edge:
    source: int
    target: int  # node index, or -1 - slot for an outcome
    ranks: tuple[int, ...]  # rank indices 0..9
    held: int  # the dealer's cards of those ranks at the source


@dataclass(frozen=True)
class _UpcardWalk:
    """The part of the dealer graph one up-card reaches, in topological order."""

    depths: tuple[int, ...]  # draws made at each node
    edges: tuple[_Edge, ...]  # sorted by source
    longest: int  # the most draws a path makes


@cache
def _walk(h17: bool, upcard: int) -> _UpcardWalk:
    import networkx as nx

    graph = dealer_graph(h17, "separate", True).graph
    start = RANKS_SYMBOL[upcard - 1]
    reach = nx.descendants(graph, start) | {start}
    nodes = [n for n in nx.topological_sort(graph.subgraph(reach)) if graph.nodes[n]["kind"] != "absorbing"]
    index = {n: i for i, n in enumerate(nodes)}
    depths = tuple(sum(graph.nodes[n]["cards"]) - 1 for n in nodes)
    edges = []
    for n in nodes:
        cards = graph.nodes[n]["cards"]
        for _, target, data in graph.out_edges(n, data=True):
            if target == EXHAUSTED:
                continue
            ranks = tuple(r - 1 for r in data["ranks"])
            to = index[target] if target in index else -1 - _SLOT[target]
            edges.append(_Edge(index[n], to, ranks, sum(cards[r] for r in ranks)))
    longest = max(depths) + 1
    return _UpcardWalk(depths, tuple(edges), longest)


RANKS_SYMBOL = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")


def _falling(n: int, k: int) -> int:
    result = 1
    for i in range(k):
        result *= n - i
    return result


class DealerOracle:
    """P(outcome | up-card, removed cards) for a batch of removed sets, exact.

    ``shoe``: the ten counts before anything is dealt. ``removed``: the sets of
    cards gone besides the up-card (for example the player's cards). A removed set
    whose shoe could run out before the dealer finishes is an error: the full
    game refuses shoes that small.
    """

    def __init__(self, shoe: Counts, h17: bool):
        self.shoe = tuple(shoe)
        self.h17 = h17

    def distributions(
        self, removed: Sequence[Counts], upcard: int
    ) -> list[tuple[mpq, ...]]:
        """Per removed set, the probabilities of :data:`OUTCOMES` given ``upcard``.

        ``blackjack`` is the dealer's natural; the entries sum to 1.
        """
        walk = _walk(self.h17, upcard)
        left = np.array([[s - r for s, r in zip(self.shoe, cards)] for cards in removed], dtype=np.int64)
        if (left < 0).any() or (left[:, upcard - 1] < 1).any():
            raise BjexactError("more cards removed than the shoe holds")
        # the dealer's cards (``held`` on the edges) include the up-card; M excludes it
        sizes = left.sum(axis=1) - 1
        k = walk.longest
        if len(removed) and int(sizes.min()) < k:
            raise BjexactError("the shoe is too small: the dealer could run out of cards before finishing")
        denominators = [_falling(int(m), k) for m in sizes]
        bound = max(denominators, default=1)
        primes: list[int] = []
        product = 1
        for p in _PRIMES:
            if product > bound:
                break
            primes.append(p)
            product *= p
        if product <= bound:
            raise BjexactError("the shoe is too large for the exact batched dealer")
        numerators = self._numerators(walk, left, sizes, np.array(primes, dtype=np.int64)[:, None])
        return [
            tuple(mpq(v, den) for v in values)
            for values, den in zip(_crt(numerators, primes, product), denominators)
        ]

    @staticmethod
    def _numerators(walk: _UpcardWalk, left: np.ndarray, sizes: np.ndarray, p: np.ndarray) -> np.ndarray:
        """Residues (primes x outcomes x sets) of the numerators over the common denominator."""
        n_sets = left.shape[0]
        n_nodes = len(walk.depths)
        reach = [np.zeros((p.shape[0], n_sets), dtype=np.int64) for _ in range(n_nodes)]
        reach[0][:] = 1
        # terminal[slot][depth]: numerators of the paths ending there, depth = draws made
        terminal: dict[tuple[int, int], np.ndarray] = {}
        columns: dict[tuple[int, ...], np.ndarray] = {}
        current = -1
        for edge in walk.edges:
            if edge.source != current:
                current = edge.source
                source = reach[current] % p
            base = columns.get(edge.ranks)
            if base is None:
                base = columns[edge.ranks] = left[:, list(edge.ranks)].sum(axis=1)
            weight = (base - edge.held) % p
            flow = source * weight % p
            if edge.target >= 0:
                reach[edge.target] += flow
            else:
                key = (-1 - edge.target, walk.depths[current] + 1)
                if key in terminal:
                    terminal[key] += flow
                else:
                    terminal[key] = flow
        k = walk.longest
        out = np.zeros((p.shape[0], len(OUTCOMES), n_sets), dtype=np.int64)
        scales: dict[int, np.ndarray] = {}
        for (slot, depth), flow in terminal.items():
            scale = scales.get(depth)
            if scale is None:  # (M - depth)(M - depth - 1)...(M - K + 1)
                scale = np.ones((p.shape[0], n_sets), dtype=np.int64)
                for i in range(depth, k):
                    scale = scale * ((sizes - i) % p) % p
                scales[depth] = scale
            out[:, slot] = (out[:, slot] + flow % p * scale) % p
        return out


def _crt(residues: np.ndarray, primes: list[int], product: int) -> list[list[int]]:
    """Exact integers from their residues (primes x outcomes x sets), as [set][outcome]."""
    coefficients = []
    for p in primes:
        rest = product // p
        coefficients.append(rest * pow(rest, -1, p))
    n_outcomes, n_sets = residues.shape[1], residues.shape[2]
    values = [[0] * n_outcomes for _ in range(n_sets)]
    lists = [residues[i].tolist() for i in range(len(primes))]
    for s in range(n_sets):
        row = values[s]
        for o in range(n_outcomes):
            row[o] = sum(c * lists[i][o][s] for i, c in enumerate(coefficients)) % product
    return values
