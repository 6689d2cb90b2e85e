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
the denominator, so they are computed modulo a few primes below 2^26 (in float64, where
a residue times a card count and a residue times a residue are exact integers) and
recovered exactly by the Chinese remainder theorem.

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
from math import prod
from typing import TYPE_CHECKING, Any

from ..core.cards import RANKS, Counts, counts_of
from ..core.hand import EMPTY_HAND, add_card, two_cards_natural
from ..core.numbers import mpq
from ..core.rules import Rules
from ..errors import BjexactError
from .graph import BLACKJACK, BUST, FINAL_TOTALS

if TYPE_CHECKING:
    import numpy as np

__all__ = ["OUTCOMES", "MAX_ENGINE_CARDS", "DealerOracle", "Residues", "moduli_above", "from_residues", "row_of",
           "weighted"]

OUTCOMES = FINAL_TOTALS + (BUST, BLACKJACK)
_SLOT = {o: i for i, o in enumerate(OUTCOMES)}

# primes just below 2^26: the product of two residues is an exact float64 (below 2^52), so
# residues are multiplied in floats; a residue times a card count, summed, is exact too
_PRIMES = (67108859, 67108837, 67108819, 67108777, 67108763, 67108757, 67108753, 67108747, 67108739, 67108729,
           67108721, 67108709, 67108693, 67108669, 67108667, 67108661, 67108649, 67108633, 67108597, 67108579)

# the most cards a shoe may hold for the engine's arithmetic modulo primes (counts below 2^18)
MAX_ENGINE_CARDS = (1 << 18) - 1
TOO_LARGE = (f"the shoe is too large for exact arithmetic modulo primes: at most {MAX_ENGINE_CARDS:,} cards "
             f"({MAX_ENGINE_CARDS // 52:,} decks)")


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
    cards: tuple[Counts, ...]  # the dealer's cards at each node, up-card included
    edges: tuple[_Edge, ...]  # sorted by source
    longest: int  # the most draws a path makes


@cache
def _walk(h17: bool, upcard: int) -> _UpcardWalk:
    """The dealer's hands from ``upcard`` on, as multisets, breadth first (so in topological
    order: each draw adds a card): the same hands and moves as :func:`.graph.dealer_graph`
    (naturals apart), enumerated directly rather than through the graph library."""
    rules = Rules(decks=1, h17=h17, naturals="separate")
    start = counts_of([upcard])
    index = {start: 0}
    order = [(start, add_card(EMPTY_HAND, upcard))]
    edges: list[_Edge] = []
    for source, (cards, value) in enumerate(order):  # grows while it is walked
        groups: dict[int, list[int]] = {}
        for rank in RANKS:
            new_value = add_card(value, rank)
            if source == 0 and two_cards_natural(new_value):
                target = -1 - _SLOT[BLACKJACK]
            elif new_value.bust:
                target = -1 - _SLOT[BUST]
            elif rules.dealer_stands(new_value):
                target = -1 - _SLOT[str(new_value.total)]
            else:
                new_cards = cards[: rank - 1] + (cards[rank - 1] + 1,) + cards[rank:]
                target = index.get(new_cards, len(order))
                if target == len(order):
                    index[new_cards] = target
                    order.append((new_cards, new_value))
            groups.setdefault(target, []).append(rank - 1)
        edges.extend(_Edge(source, target, tuple(ranks), sum(cards[r] for r in ranks))
                     for target, ranks in groups.items())
    depths = tuple(sum(cards) - 1 for cards, _ in order)
    return _UpcardWalk(depths, tuple(cards for cards, _ in order), tuple(edges), max(depths) + 1)


def _capped(n: int, k: int) -> int:
    """n (n - 1) ... (n - k + 1) with the factors below 1 left out.

    For d <= n it splits as ff(n, d) * _capped(n - d, k - d): a common denominator for
    paths of every possible length, also in a shoe shorter than the longest path."""
    result = 1
    for i in range(k):
        if n - i > 0:
            result *= n - i
    return result


class DealerOracle:
    """P(outcome | up-card, removed cards) for a batch of removed sets, exact.

    ``shoe``: the ten counts before anything is dealt. ``removed``: the sets of
    cards gone besides the up-card (for example the player's cards). A removed set
    whose shoe could run out before the dealer finishes is an error: the full
    game refuses shoes that small.

    ``hidden = (pair, j)``: besides ``removed``, ``j`` cards that are *not* of rank
    ``pair`` have left unseen, each set of j such cards equally likely (the second
    cards of other split hands). Then a draw is ``pair`` with chance
    V_pair / (N - j) and rank r otherwise with chance V_r (Q - j) / (Q (N - j)), with
    V the visible counts, N their total and Q the visible cards not of rank ``pair``;
    a whole path with ``a`` pair cards and ``b`` others has probability
    ff(V_pair, a) prod ff(V_r, b_r) ff(Q - j, b) / (ff(Q, b) ff(N - j, a + b)),
    ff the falling factorial.
    """

    def __init__(self, shoe: Counts, h17: bool):
        self.shoe = tuple(shoe)
        self.h17 = h17

    def longest(self, upcard: int) -> int:
        """The most cards the dealer draws after ``upcard`` (hole card included): K in the
        denominators ff(n, K) of :meth:`numerators`."""
        return _walk(self.h17, upcard).longest

    def distributions(
        self, removed: Sequence[Counts], upcard: int, hidden: tuple[int, int] | None = None
    ) -> list[tuple[mpq, ...]]:
        """Per removed set, the probabilities of :data:`OUTCOMES` given ``upcard``.

        ``blackjack`` is the dealer's natural; the entries sum to 1.

        >>> rows = DealerOracle((4,) * 9 + (16,), h17=False).distributions([(0,) * 5 + (1,) + (0,) * 3 + (1,)], 10)
        >>> dict(zip(OUTCOMES, (f"{float(p):.4f}" for p in rows[0])))["blackjack"]   # 4 aces among 49 cards
        '0.0816'
        """
        pair, j = hidden if hidden else (0, 0)
        rows = self.numerators(removed, upcard, pair, [j] * len(removed) if j else None)
        return [tuple(mpq(n, den) for n in nums) for nums, den in rows]

    def numerators(
        self, removed: Sequence[Counts], upcard: int, pair: int = 0, hidden: Sequence[int] | None = None
    ) -> list[tuple[tuple[int, ...], int]]:
        """As :meth:`distributions`, each as (numerators, common denominator): integers.

        ``hidden[i]``: the number of hidden non-``pair`` cards of removed set i (one walk
        serves every number).
        """
        if not removed:
            return []
        batch = self.residues(removed, upcard, pair, hidden)
        rows = [(tuple(values), den) for values, den in
                zip(_crt(batch.residues, batch.primes, prod(batch.primes)), batch.denominators)]
        if any(sum(values) != den for values, den in rows):
            raise BjexactError("the shoe is too small: the dealer could run out of cards before finishing")
        return rows

    def residues(self, removed: Sequence[Counts], upcard: int, pair: int = 0, hidden: Sequence[int] | None = None,
                 bound: int = 1, keep: bool = True) -> Residues:
        """The numerators of :meth:`numerators` modulo primes whose product exceeds ``bound``
        times every denominator.

        Rows already walked for this shoe (by any oracle of the same shoe and soft-17 rule,
        such as a second solution of other rules) are reused; the others are walked together
        and, with ``keep``, kept for later requests. ``keep=False`` is for rows used once (the
        lines of split hands of an exact distribution): they are returned without being
        stored, so their memory goes with the result.
        """
        if not pair or hidden is None or not any(hidden):
            pair, hidden = 0, [0] * len(removed)
        if removed and type(removed[0]) is not tuple:  # hashable keys
            removed = [tuple(r) for r in removed]
        store = self._store(upcard, pair, bound)
        keys = list(zip(removed, hidden))
        where = store.where
        fresh: dict[tuple[Counts, int], int] = {}  # each removed set not walked before, once
        for c, key in enumerate(keys):
            if key not in where and key not in fresh:
                fresh[key] = c
        if fresh:
            rows = removed if len(fresh) == len(keys) else [removed[c] for c in fresh.values()]
            chunk, denominators = self._walked(rows, upcard, pair, [j for _, j in fresh], store.primes)
            if not keep:
                return _joined(store, keys, fresh, chunk, denominators)
            number = len(store.chunks)
            chunk.flags.writeable = False  # shared by every request that finds these rows
            store.chunks.append(chunk)
            where.update((key, (number, column, den)) for column, (key, den) in enumerate(zip(fresh, denominators)))
            if len(fresh) == len(keys):
                return Residues(chunk, denominators, store.primes)
        places = [where[key] for key in keys]
        return Residues(store.gather(places), [den for _, _, den in places], store.primes)

    def denominator(self, unseen: int, upcard: int) -> int:
        """The common denominator of :meth:`numerators` (nothing hidden) when ``unseen`` cards besides the
        up-card are left: n (n - 1) ... (n - K + 1), K :meth:`longest`, factors below 1 left out."""
        return _capped(unseen, self.longest(upcard))

    def walked_once(self, removed: np.ndarray, upcard: int, bound: int = 1) -> Residues:
        """The residues of :meth:`residues` (nothing hidden) for distinct removed sets given as an int
        array (sets x ranks), every one walked and none kept or looked up: for many rows used once
        (the lines of split hands of an exact distribution), without the bookkeeping of kept rows.
        The values are those :meth:`residues` gives, modulo the same primes."""
        primes = self._store(upcard, 0, bound).primes
        chunk, denominators = self._walked(removed, upcard, 0, [0] * len(removed), primes)
        return Residues(chunk, denominators, primes)

    def _walked(self, removed: Sequence[Counts] | np.ndarray, upcard: int, pair: int, hidden: Sequence[int],
                primes: list[int]) -> tuple[np.ndarray, list[int]]:
        """The residues (primes x outcomes x sets) of the removed sets and their denominators."""
        import numpy as np  # imported here: the infinite deck never needs it

        walk = _walk(self.h17, upcard)
        left = np.array(self.shoe, dtype=np.int64)[None, :] - np.array(removed, dtype=np.int64).reshape(-1, 10)
        if (left < 0).any() or (left[:, upcard - 1] < 1).any():
            raise BjexactError("more cards removed than the shoe holds")
        # the dealer's cards (``held`` on the edges) include the up-card; N excludes it
        sizes = left.sum(axis=1) - 1
        k = walk.longest
        j = np.array(hidden, dtype=np.int64)
        others = sizes - (left[:, pair - 1] - (upcard == pair)) if pair else sizes
        if pair and (others < j).any():
            raise BjexactError("the shoe is too small to deal the split hands")
        if sizes.max() > MAX_ENGINE_CARDS:
            raise BjexactError(TOO_LARGE)
        # the denominators, one per distinct (N, Q, j), each below 2^18
        kinds, kind_of = np.unique((sizes << 36) + (others << 18) + j, return_inverse=True)
        dens = [_capped(n - i, k) * (_capped(q, k) if pair else 1)
                for n, q, i in ((c >> 36, (c >> 18) & 0x3FFFF, c & 0x3FFFF) for c in kinds.tolist())]
        denominators = [dens[c] for c in kind_of.reshape(-1).tolist()]
        chunk = _numerators(walk, left, sizes, others, np.array(primes, dtype=np.int64)[:, None], upcard, pair, j)
        return chunk, denominators

    def _store(self, upcard: int, pair: int, bound: int) -> _Store:
        """The rows walked for this shoe, up-card, pair rank of the hidden cards and ``bound``,
        modulo primes enough for every removed set of the shoe."""
        shoe_key = (self.shoe, self.h17)
        stores = _STORES.pop(shoe_key, None) or {}
        _STORES[shoe_key] = stores  # the most recent last
        while len(_STORES) > _SHOES_KEPT:
            del _STORES[next(iter(_STORES))]
        key = (upcard, pair, bound)
        found = stores.get(key)
        if found is None:
            k = self.longest(upcard)
            unseen = sum(self.shoe) - 1
            largest = _capped(unseen, k)
            if pair:
                largest *= _capped(unseen - self.shoe[pair - 1] + (upcard == pair), k)
            found = stores[key] = _Store(moduli_above(bound * largest), {}, [])
        return found


@dataclass(frozen=True)
class _Store:
    """Walked rows modulo ``primes``: ``chunks`` (primes x outcomes x sets) and where each
    (removed set, hidden cards) is, with its denominator."""

    primes: list[int]
    where: dict[tuple[Counts, int], tuple[int, int, int]]  # -> (chunk, column, denominator)
    chunks: list[np.ndarray]

    def gather(self, places: Sequence[tuple[int, int, int]]) -> np.ndarray:
        """The residues at ``places`` (chunk, column, denominator), as one array."""
        import numpy as np

        first = places[0][0]
        if all(chunk == first for chunk, _, _ in places):
            return self.chunks[first][:, :, [column for _, column, _ in places]]
        out = np.empty(self.chunks[0].shape[:2] + (len(places),), dtype=np.int64)
        by_chunk: dict[int, tuple[list[int], list[int]]] = {}
        for position, (chunk, column, _) in enumerate(places):
            targets, columns = by_chunk.setdefault(chunk, ([], []))
            targets.append(position)
            columns.append(column)
        for chunk, (targets, columns) in by_chunk.items():
            out[:, :, targets] = self.chunks[chunk][:, :, columns]
        return out


def _joined(store: _Store, keys: Sequence[tuple[Counts, int]], fresh: dict[tuple[Counts, int], int],
            chunk: np.ndarray, denominators: list[int]) -> Residues:
    """The residues of ``keys`` (removed set, hidden cards) in order: those in ``fresh`` (each
    key -> its first position) from the newly walked ``chunk`` (in ``fresh``'s order, with their
    ``denominators``), the others from ``store``, which is left as it was."""
    import numpy as np

    if len(fresh) == len(keys):
        return Residues(chunk, denominators, store.primes)
    column_of = {key: column for column, key in enumerate(fresh)}
    out = np.empty(chunk.shape[:2] + (len(keys),), dtype=np.int64)
    new_at = [c for c, key in enumerate(keys) if key in column_of]
    out[:, :, new_at] = chunk[:, :, [column_of[keys[c]] for c in new_at]]
    old_at = [c for c, key in enumerate(keys) if key not in column_of]
    places = [store.where[keys[c]] for c in old_at]
    if places:
        out[:, :, old_at] = store.gather(places)
    found = dict(zip(old_at, (den for _, _, den in places)))
    return Residues(out, [denominators[column_of[key]] if key in column_of else found[c]
                          for c, key in enumerate(keys)], store.primes)


# (shoe, h17) -> (up-card, pair, bound) -> rows walked; a few shoes kept, the most recent last
_STORES: dict[tuple[Counts, bool], dict[tuple[int, int, int], _Store]] = {}
_SHOES_KEPT = 2


@dataclass(frozen=True)
class Residues:
    """Dealer numerators modulo ``primes`` (an int64 array primes x outcomes x sets, each in
    [0, p)) over the exact ``denominators`` (one per set)."""

    residues: np.ndarray
    denominators: list[int]
    primes: list[int]


def weighted(batch: Residues, columns: Sequence[int], weights: np.ndarray) -> list[int]:
    """For each request i, sum_o weights[i, o] numerator_o of the batch's set ``columns[i]``, exactly
    (signed): the primes' product must exceed twice its largest magnitude (``bound`` of
    :meth:`DealerOracle.residues` twice the largest weight). ``weights``: requests x outcomes, below 2^20."""
    import numpy as np

    if not len(columns):
        return []
    p = np.array(batch.primes, dtype=np.int64)[:, None]
    index = np.asarray(columns, dtype=np.int64)
    w = np.asarray(weights, dtype=np.int64).T[None]  # small: the sums fit in int64
    values = from_residues((batch.residues[:, :, index] * w).sum(axis=1) % p, batch.primes)
    product = prod(batch.primes)
    return [v - product if 2 * v > product else v for v in values]


def row_of(batch: Residues, column: int) -> tuple[tuple[int, ...], int]:
    """One removed set's exact row (numerators, denominator) from a batch of residues (the Chinese
    remainder theorem in Python integers: one row is too small for arrays to pay)."""
    product, coefficients = _crt_coefficients(tuple(batch.primes))
    by_prime = batch.residues[:, :, column].tolist()  # primes x outcomes
    values = tuple(sum(r * c for r, c in zip(residues, coefficients)) % product for residues in zip(*by_prime))
    return values, batch.denominators[column]


@cache
def _crt_coefficients(primes: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """The primes' product P and, per prime p, (P / p) times its inverse modulo p: x = sum r_p c_p mod P."""
    product = prod(primes)
    return product, tuple(product // p * pow(product // p, -1, p) for p in primes)


def _reduce(x: np.ndarray, p: np.ndarray, inverse: np.ndarray) -> np.ndarray:
    """x modulo p as a float in about [-p/2, p/2], for integers |x| < 2^52 held exactly in floats."""
    import numpy as np
    reduced: np.ndarray = x - np.rint(x * inverse) * p
    return reduced


def _numerators(walk: _UpcardWalk, left: np.ndarray, sizes: np.ndarray, others: np.ndarray, p: np.ndarray,
                upcard: int, pair: int, j: np.ndarray) -> np.ndarray:
    """Residues (primes x outcomes x sets, int64 in [0, p)) of the numerators over the common
    denominator.

    The walk sums, per outcome, depth and number ``b`` of non-pair cards drawn (only
    with a ``pair`` rank), the products of card counts along the paths; each group is
    then brought to the common denominator ff(N - j, K) (times ff(Q, K) with a pair rank).
    Along the paths the arithmetic is in float64 on integers held exactly: every sum carries
    a bound on its magnitude (the sum of its flows' bounds, a flow's bound its source's times
    the largest count it is multiplied by), and a sum is reduced modulo p (to within p in
    magnitude, p < 2^26) only when a product or a sum could otherwise reach 2^52. Near the
    up-card the sums are the exact numerators themselves (they count ordered draws, at most
    N^d at depth d), so most nodes are never reduced.
    """
    import numpy as np
    most = int(left.sum(axis=1).max())
    if most > MAX_ENGINE_CARDS:
        raise BjexactError(TOO_LARGE)
    pf = p.astype(np.float64)
    inverse = 1.0 / pf
    reduced = 2.0 * float(pf.max())  # a reduced sum is within about p/2 (see _reduce); kept with room
    exact = 2.0 ** 52  # every integer of magnitude below 2^53 is a float64; the bounds keep a factor 2 of room
    n_sets = left.shape[0]
    reach: list[np.ndarray | None] = [None] * len(walk.depths)  # made by a node's first incoming flow
    bounds = [0.0] * len(walk.depths)
    reach[0] = np.ones((1, n_sets), dtype=np.float64)  # one row for every prime while nothing is reduced
    bounds[0] = 1.0
    terminal: dict[tuple[int, int, int], list[Any]] = {}  # key -> [sum, bound on its magnitude]
    factors: dict[tuple[tuple[int, ...], int], tuple[np.ndarray, float]] = {}
    by_rank = left.T.astype(np.float64)  # ranks x sets: the cards of each rank left
    below = np.zeros((11, n_sets), dtype=np.float64)  # [r]: the cards of ranks below r left
    np.cumsum(by_rank, axis=0, out=below[1:])
    most_of_rank = left.max(axis=0).tolist()
    scratch = np.empty((p.shape[0], n_sets), dtype=np.float64)
    for node, moves in _plan(walk, upcard, pair):
        source = reach[node]
        reach[node] = None  # every path through it continues below
        if source is None:  # a hand no path reaches with these cards
            continue
        size = bounds[node]
        if 2 * size * most >= exact:  # reduce (a flow stays below exact / 2)
            source = _reduce(source, pf, inverse)
            size = reduced
        rows = source.shape[0]
        for target, key, ranks, held in moves:
            found_factor = factors.get((ranks, held))
            if found_factor is None:  # the cards of those ranks the dealer may draw here
                found_factor = factors[(ranks, held)] = (_drawable(by_rank, below, ranks, held),
                                                          float(max(sum(most_of_rank[r] for r in ranks) - held, 0)))
            factor, largest = found_factor
            flow_size = size * largest
            if target >= 0:
                flows = reach[target]
                if flows is None:
                    reach[target] = source * factor
                    bounds[target] = flow_size
                else:
                    if bounds[target] + flow_size >= exact:
                        flows = _reduce(flows, pf, inverse)
                        bounds[target] = reduced
                    reach[target] = _add_flow(flows, source, factor, scratch[:rows])
                    bounds[target] += flow_size
            else:
                found = terminal.get(key)
                if found is None:
                    terminal[key] = [source * factor, flow_size]
                else:
                    if found[1] + flow_size >= exact:
                        found[0] = _reduce(found[0], pf, inverse)
                        found[1] = reduced
                    found[0] = _add_flow(found[0], source, factor, scratch[:rows])
                    found[1] += flow_size
    k = walk.longest
    # residues as floats within p in magnitude: a residue times a count or a residue is exact
    by_depth = _capped_vectors(sizes - j, k, pf, inverse)  # [d]: ff(N - j - d, K - d), factors below 1 left out
    by_b: list[np.ndarray] = []
    if pair:  # [b]: ff(Q - j, b) ff(Q - b, K - b)
        rest = _capped_vectors(others, k, pf, inverse)
        falling = np.ones((1, n_sets), dtype=np.float64)
        for b in range(k + 1):
            by_b.append(_reduce(falling * rest[b], pf, inverse))
            falling = _reduce(falling * (others - j - b), pf, inverse)
    # each group times its scale, in floats: residues below p < 2^26 in magnitude, products below 2^52,
    # a sum of two below 2^53
    small = float(pf.min())
    scales: dict[tuple[int, int], np.ndarray] = {}
    sums: dict[int, np.ndarray] = {}
    for (slot, depth, b), (flow, size) in terminal.items():
        scale = scales.get((depth, b))
        if scale is None:
            scale = scales[(depth, b)] = by_depth[depth] if not pair else _reduce(by_depth[depth] * by_b[b], pf,
                                                                                   inverse)
        if size >= small:  # exact integers below every p stay as they are
            flow = _reduce(flow, pf, inverse)
        so_far = sums.get(slot)
        sums[slot] = flow * scale if so_far is None else _reduce(so_far + flow * scale, pf, inverse)
    out = np.zeros((p.shape[0], len(OUTCOMES), n_sets), dtype=np.int64)
    for slot, total in sums.items():
        out[:, slot] = _reduce(total, pf, inverse).astype(np.int64) % p
    return out


def _drawable(by_rank: np.ndarray, below: np.ndarray, ranks: tuple[int, ...], held: int) -> np.ndarray:
    """Per set, the cards of ``ranks`` left (``by_rank``: ranks x sets; ``below``: its sums over the ranks
    below each) less the dealer's ``held``, as floats: a run of ranks from the differences of sums."""
    first, last = ranks[0], ranks[-1]
    if len(ranks) == 1:
        counts: np.ndarray = by_rank[first] - held
    elif ranks == tuple(range(first, last + 1)):
        counts = below[last + 1] - below[first] - held
    else:
        counts = by_rank[list(ranks)].sum(axis=0) - held
    return counts


def _add_flow(flows: np.ndarray, source: np.ndarray, factor: np.ndarray, scratch: np.ndarray) -> np.ndarray:
    """flows + source * factor, in place where the shapes allow: an array of one row holds the
    same exact integer for every prime (nothing reduced yet), one of a row per prime residues."""
    import numpy as np
    np.multiply(source, factor, out=scratch)
    if flows.shape[0] >= scratch.shape[0]:
        flows += scratch
        return flows
    total: np.ndarray = flows + scratch
    return total


_Move = tuple[int, tuple[int, int, int], tuple[int, ...], int]  # target, terminal key, ranks, held


def _plan(walk: _UpcardWalk, upcard: int, pair: int) -> list[tuple[int, list[_Move]]]:
    """The walk's edges by source node: (target node or -1, terminal key (outcome slot, draws,
    non-pair cards drawn ``b``), ranks, the dealer's cards of those ranks). With a ``pair``
    rank a terminal edge splits into its pair card and its other cards, which reach the
    outcome with different ``b``. Kept per walk (walks are kept by :func:`_walk`)."""
    key = (id(walk), upcard, pair)
    found = _PLANS.get(key)
    if found is None:
        found = _PLANS[key] = _plan_of(walk, upcard, pair)
    return found


_PLANS: dict[tuple[int, int, int], list[tuple[int, list[_Move]]]] = {}


def _plan_of(walk: _UpcardWalk, upcard: int, pair: int) -> list[tuple[int, list[_Move]]]:
    nodes: dict[int, list[_Move]] = {}
    at = pair - 1
    up_is_pair = upcard == pair
    depths, all_cards = walk.depths, walk.cards
    for edge in walk.edges:
        moves = nodes.get(edge.source)
        if moves is None:
            moves = nodes[edge.source] = []
        if edge.target >= 0:
            moves.append((edge.target, _NO_KEY, edge.ranks, edge.held))
            continue
        depth = depths[edge.source] + 1
        slot = -1 - edge.target
        if not pair:
            moves.append((-1, (slot, depth, 0), edge.ranks, edge.held))
            continue
        # the dealer's cards (up-card included) number depth; those not of the pair rank, drawn
        held_pairs = all_cards[edge.source][at]
        drawn_others = depth - held_pairs - (not up_is_pair)
        if at in edge.ranks:
            moves.append((-1, (slot, depth, drawn_others), (at,), held_pairs))
            rest = tuple(r for r in edge.ranks if r != at)
            if rest:
                moves.append((-1, (slot, depth, drawn_others + 1), rest, edge.held - held_pairs))
        else:
            moves.append((-1, (slot, depth, drawn_others + 1), edge.ranks, edge.held))
    return list(nodes.items())


_NO_KEY = (0, 0, 0)


def _capped_vectors(start: np.ndarray, k: int, p: np.ndarray, inverse: np.ndarray) -> list[np.ndarray]:
    """[d] = :func:`_capped` (start - d, k - d) modulo each prime p (floats, primes x sets, within
    p in magnitude; ``inverse``: 1 / p), d = 0..k: each is the next one times max(start - d, 1),
    a count below 2^18, so every product is an exact float."""
    import numpy as np
    out = [np.ones((1, start.shape[0]), dtype=np.float64)]
    for d in range(k - 1, -1, -1):
        out.append(_reduce(out[-1] * np.maximum(start - d, 1), p, inverse))
    return out[::-1]


def moduli_above(bound: int) -> list[int]:
    """Primes below 2^26 (products of two residues are exact in float64) whose product exceeds ``bound``:
    enough to recover any integer from 0 to ``bound`` from its residues (:func:`from_residues`)."""
    primes: list[int] = []
    product = 1
    for p in _PRIMES:
        if product > bound:
            return primes
        primes.append(p)
        product *= p
    if product > bound:
        return primes
    raise BjexactError("the shoe is too large for exact arithmetic modulo primes")


def from_residues(residues: np.ndarray, primes: list[int]) -> list[int]:
    """Integers from 0 to prod(primes) - 1 from their residues (an array primes x values)."""
    return [row[0] for row in _crt(residues[:, None, :], primes, prod(primes))]


def _crt(residues: np.ndarray, primes: list[int], product: int) -> list[list[int]]:
    """Exact integers from their residues (primes x outcomes x sets), as [set][outcome]."""
    import numpy as np
    total = np.zeros(residues.shape[1:], dtype=object)
    for i, p in enumerate(primes):
        rest = product // p
        total = total + residues[i].astype(object) * (rest * pow(rest, -1, p))
    rows: list[list[int]] = (total % product).T.tolist()
    return rows
