"""Exact values of the full game on a finite shoe, as integers over known denominators.

The values are the W of :mod:`bjexact.player.game`: E[payoff, no dealer natural] when a
dealer natural costs the original bet only (peek, or ENHC with OBO), else E[payoff];
per unit initial bet, given the up-card.

A *position* is a hand's cards with ``extra`` cards gone as well (the other split hand's
pair card), never including the up-card; ``n`` cards are unseen (the shoe less the hand,
the extra cards and the up-card; the hole card is one of them, so the player never draws
the last one). Every value of a position with ``n`` cards unseen is an integer over

    D(n) = n! / m!        (m fixed per up-card, see :class:`UpcardEngine`)

A drawn card has rank r with chance left_r / n and D(n) = n D(n - 1), so the numerator of
a hit is sum_r left_r X(after r), with no division; a dealer row for the position is a
set of integers over ff(n, K) (:class:`~bjexact.dealer.batch.DealerOracle`, K its longest
path), which divides D(n) once m <= n - K. The moves of one position share D(n), so they
compare as integers; a fraction is made only for a value that is shown. The results are
therefore the same rationals as those of the fraction arithmetic of ``player.game``, by
construction, with its conventions: ties go to the earlier move of stand, hit, double;
split hands are played by the unsplit hand's moves (CDZ-) or by their own optimum with the
other pair card gone (CDP1, and CDP when splitting once).

What this reaches: every position of a finite shoe, unsplit hands and the split hands of
every split rule (split once, resplits to three or four hands with their second cards known
not to be pair cards, RSA, hit split aces; CDZ-, CDP1, CDP), with or without a Charlie. A
Charlie (a hand of the rule's count of cards, see :meth:`GameRules.is_charlie`) is a position of
its own, never played on: its "stand" is the Charlie's X, P(no dealer natural) when a dealer
natural is left out of W, else 1 - 2 P(natural) (the fraction arithmetic's ``charlie``), so a
hit or a double that makes one takes that value, and no hand of more cards is valued. The
infinite deck, one hand's
moves (:func:`~bjexact.player.game.hand_moves`), fixed policies and the distribution of the
net result stay with ``player.game``'s fraction arithmetic.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from functools import cache
from typing import Any

from ..core.cards import RANKS, Counts, counts_of
from ..core.choice import best_move, hits
from ..core.hand import natural_partner
from ..core.rules import GameRules
from ..core.settlement import stand_result
from ..dealer.batch import OUTCOMES, DealerOracle, Residues, row_of, weighted
from ..errors import BjexactError
from .states import counts_value, hands_up_to_21

__all__ = ["UpcardEngine", "stand_weights"]

_NONE: Counts = (0,) * 10


def stand_weights(total: int, natural_loses: bool) -> tuple[int, ...]:
    """The payoff of standing on ``total`` against each dealer outcome (:data:`OUTCOMES`), settled by
    :func:`~bjexact.core.settlement.stand_result` (a dealer natural left out: 0)."""
    return tuple(_STAND_PAYOFF[stand_result(total, outcome, blackjack_loses=natural_loses)] for outcome in OUTCOMES)


_STAND_PAYOFF = {"win": 1, "push": 0, "loss": -1, None: 0}


_BUST = -1  # a child that busts
_OUT = -2  # a child the shoe holds no card for


@dataclass(frozen=True)
class _Hands:
    """Every hand (two cards or more, hard total 21 or less) a shoe can hold, by id, with the
    hand each card makes (:data:`_BUST`, :data:`_OUT` or an id) and its stand total."""

    hands: tuple[Counts, ...]
    index: dict[Counts, int]
    children: tuple[tuple[int, ...], ...]
    sizes: tuple[int, ...]
    totals: tuple[int, ...]  # at least 4: the stand weights' key

    counts: Any  # the hands as a numpy array (hands x 10)
    total_array: Any  # the totals as a numpy array

    def within(self, top: Sequence[int], most: int | None = None) -> list[int]:
        """The ids of the hands of at most ``top`` cards of each rank (and at most ``most`` cards)."""
        import numpy as np

        if not self.hands:
            return []
        held = (self.counts <= np.array(top, dtype=np.int64)).all(axis=1)
        if most is not None:
            held &= self.counts.sum(axis=1) <= most
        return np.flatnonzero(held).tolist()


@cache
def _hands(shoe: Counts) -> _Hands:
    hands = tuple(hands_up_to_21(shoe, None))
    index = {h: i for i, h in enumerate(hands)}
    children = []
    for hand in hands:
        hard = sum(r * c for r, c in zip(RANKS, hand))
        row = []
        for rank in RANKS:
            if hard + rank > 21:
                row.append(_BUST)
            elif hand[rank - 1] >= shoe[rank - 1]:
                row.append(_OUT)
            else:
                row.append(index[hand[: rank - 1] + (hand[rank - 1] + 1,) + hand[rank:]])
        children.append(tuple(row))
    import numpy as np

    totals = tuple(max(counts_value(h).total, 4) for h in hands)
    return _Hands(hands, index, tuple(children), tuple(map(sum, hands)),
                  totals, np.array(hands, dtype=np.int64).reshape(-1, 10), np.array(totals, dtype=np.int64))


class UpcardEngine:
    """Exact W numerators (X over D(n)) of every position against one up-card of a finite shoe.

    ``pairs``: the pair ranks whose splits (two hands at most) are valued here. The dealer's
    rows come in at most two batches: every unsplit hand, with (CDP1) every split hand of
    those pairs; then (CDZ-) the split hands' positions the unsplit strategy stands on.
    """

    def __init__(self, rules: GameRules, shoe: Counts, upcard: int, oracle: DealerOracle, pairs: list[int]):
        self.rules = rules
        self.shoe = shoe
        self.upcard = upcard
        self.pairs = pairs
        self.unseen = sum(shoe) - 1  # before any player card
        self.partner = natural_partner(upcard)
        self.natural_loses = not rules.excludes_natural
        self._oracle = oracle
        self._weights = {t: stand_weights(t, self.natural_loses) for t in range(4, 22)}
        self._weight_rows: Any = None  # the same by total, a numpy array (0 to 21)
        self._cdz = rules.split_strategy == "cdz"
        self._charlie = rules.charlie  # a hand of this many cards is finished (a Charlie): no hand has more
        self._top = [c - (r == upcard) for r, c in zip(RANKS, shoe)]
        key = (_shared_rules(rules), shoe, upcard, tuple(pairs))
        sibling = _SIBLINGS.get(key)
        if sibling is None:
            self._solve_unsplit()
        else:
            self._share(sibling)
        if _SIBLINGS and next(iter(_SIBLINGS))[:2] != key[:2]:
            _SIBLINGS.clear()  # another rule set or shoe: the engines of the last one are let go
        _SIBLINGS[key] = self
        if self._cdz and pairs:
            wanted: set[tuple[int, int]] = set()
            for pair in pairs:
                seen: set[int] = set()  # the hands of three cards or more visited: split hands share them
                for x in RANKS:
                    if self._held(pair, x):
                        self._visit_split(self._id((pair, x)), pair, 0, wanted, seen)
            self._add_stands(sorted(wanted - self._stand.keys()))

    def _solve_unsplit(self) -> None:
        """Stand on every position of the first batch and play every hand optimally: the
        unsplit hands, with (CDP1, CDP) the split hands of :attr:`pairs`."""
        self._table = table = _hands(self.shoe)
        self._lefts: dict[tuple[int, int], list[int]] = {}
        self._value: dict[int, dict[int, int]] = {}  # extra -> hand id -> X of its optimum
        unsplit = table.within(self._top, self._charlie)
        # (hand id, extra pair rank or 0) -> X of standing
        self._stand: dict[tuple[int, int], int] = {}
        self._batches: list[Residues] = []
        self._rows: dict[Counts, tuple[int, int]] = {}  # removed set -> (batch, column)
        first = [(i, 0) for i in unsplit]
        if not self._cdz:
            first += [(i, p) for p in self.pairs for i in self._split_ids(p)]
        # the floors of D: below every position's n (less hidden cards) by the dealer's longest path
        self._most = most = max(table.sizes, default=2) + 7  # a bust's card, three extra pair cards, two hidden
        self._k = self._oracle.longest(self.upcard)
        self._floor = max(0, self.unseen - most - self._k - 2)
        self._d = [1] * (self.unseen + 1)
        for n in range(self._floor + 1, self.unseen + 1):
            self._d[n] = self._d[n - 1] * n
        self._add_stands(first)
        # the optimum at no extra card, bottom-up (children have one card more)
        self._opt: dict[int, dict[int, tuple[int, int | None]]] = {0: self._optimize(unsplit, 0)}
        if not self._cdz:
            for pair in self.pairs:
                self._opt[pair] = self._optimize(self._split_ids(pair), pair)
        self._policy: dict[tuple[int, int], int] = {}
        self._g: dict[int, list[int]] = {}
        self._hstand: dict[tuple[int, int, int], int] = {}
        self._hplay: dict[tuple[int, int, int, int], int] = {}

    def _share(self, sibling: UpcardEngine) -> None:
        """Take over (by reference: what either engine adds the other finds) the positions
        ``sibling`` valued. Its rules differ at most in doubling after splitting, which only
        the moves of split hands with two cards ask (:meth:`_split_move`, never stored): every
        stand, every optimum and every split hand of three cards or more is the same."""
        for name in ("_table", "_lefts", "_value", "_stand", "_batches", "_rows", "_most", "_k", "_floor", "_d",
                     "_opt", "_policy", "_g", "_hstand", "_hplay", "_weight_rows"):
            setattr(self, name, getattr(sibling, name))

    # --- positions ---

    def _id(self, cards: tuple[int, ...]) -> int:
        return self._table.index[counts_of(cards)]

    def _held(self, pair: int, x: int) -> bool:
        """Whether the shoe (less the up-card) holds two pair cards and a card x besides."""
        need = counts_of([pair, pair, x])
        return all(n <= t for n, t in zip(need, self._top))

    def _split_ids(self, extra: int) -> list[int]:
        """The hands holding the pair card that a split hand can become, ``extra`` gone (see :func:`_extra`)."""
        pair, count = _pair_of(extra), _count_of(extra)
        top = list(self._top)
        top[pair - 1] -= count
        return [i for i in self._table.within(top, self._charlie) if self._table.hands[i][pair - 1]]

    def _left(self, i: int, extra: int) -> list[int]:
        """The unseen counts of hand ``i`` with the ``extra`` pair cards (:func:`_extra`) gone."""
        key = (i, extra)
        found = self._lefts.get(key)
        if found is None:
            found = [t - c for t, c in zip(self._top, self._table.hands[i])]
            if extra:
                found[_pair_of(extra) - 1] -= _count_of(extra)
            self._lefts[key] = found
        return found

    def _n(self, i: int, extra: int) -> int:
        return self.unseen - self._table.sizes[i] - _count_of(extra)

    def _add_stands(self, wanted: list[tuple[int, int]]) -> None:
        """X of standing at the positions ``wanted`` (hand id, extra pair rank or 0), from one
        batch of dealer rows (the oracle walks only the removed sets it has not walked before);
        a Charlie's position (:meth:`_finished`) holds the Charlie's X instead, no row walked."""
        table = self._table
        if self._charlie is not None:
            for w in wanted:
                if self._finished(w[0]):
                    self._stand[w] = self._charlie_at(*w)
            wanted = [w for w in wanted if not self._finished(w[0])]
        if not wanted:
            return
        removed = [_removed(table.hands[i], e) for i, e in wanted]
        columns = {r: k for k, r in enumerate(dict.fromkeys(removed))}
        batch = self._oracle.residues(list(columns), self.upcard, bound=2)  # stakes of 1: |X| <= D
        _check(batch)
        number = len(self._batches)
        self._batches.append(batch)
        for r, k in columns.items():
            self._rows.setdefault(r, (number, k))
        values = weighted(batch, [columns[r] for r in removed], self._stand_weights([i for i, _ in wanted]))
        d, unseen, denominators = self._d, self.unseen, batch.denominators
        factors: dict[tuple[int, int], int] = {}  # (n, the row's denominator) -> D(n) / it
        for w, r, value in zip(wanted, removed, values):
            key = (unseen - sum(r), denominators[columns[r]])
            factor = factors.get(key)
            if factor is None:
                factor = factors[key] = d[key[0]] // key[1]
            self._stand[w] = value * factor

    def _stand_weights(self, ids: list[int]) -> Any:
        """The stand weights (:func:`stand_weights`) of the hands ``ids``, one row each (a numpy array)."""
        import numpy as np

        if self._weight_rows is None:
            self._weight_rows = np.array([self._weights[max(t, 4)] for t in range(22)], dtype=np.int64)
        return self._weight_rows[self._table.total_array[ids]]

    def _finished(self, i: int) -> bool:
        """Whether hand ``i`` is a Charlie (:meth:`GameRules.is_charlie`: its cards reach the count;
        every hand here is 21 or less): it is never played on, and wins unless the dealer has a natural."""
        return self._charlie is not None and self._table.sizes[i] >= self._charlie

    def _charlie_at(self, i: int, extra: int) -> int:
        """X (over D(n)) of the Charlie ``i`` with the ``extra`` pair cards gone: P(no dealer natural)
        when a dealer natural is left out of W, else (ENHC without OBO: the natural takes the Charlie's
        stake) 1 - 2 P(natural); P(natural) = partners left / n."""
        n = self._n(i, extra)
        if self.partner is None:
            return self._d[n]
        partners = self._left(i, extra)[self.partner - 1]
        return (n - (2 if self.natural_loses else 1) * partners) * self._d[n - 1]

    def denominator(self, removed: Counts) -> int:
        """D(n) of a position whose hand and extra cards are ``removed``."""
        return self._d[self.unseen - sum(removed)]

    def row(self, removed: Counts) -> tuple[tuple[int, ...], int] | None:
        """The dealer's exact row (numerators over ff(n, K)) for a removed set this engine
        walked, else ``None``."""
        found = self._rows.get(removed)
        if found is None:
            return None
        number, column = found
        return row_of(self._batches[number], column)

    # --- one step ---

    def _bust(self, left: list[int], n: int, rank: int) -> int:
        """X (over D(n - 1)) of busting by drawing ``rank`` with ``n`` unseen: minus P(no dealer
        natural) when a dealer natural is left out of W, else minus one."""
        if self.natural_loses or self.partner is None:
            return -self._d[n - 1]
        after = n - 1
        return -(after - left[self.partner - 1] + (rank == self.partner)) * self._d[after - 1]

    def _double_at(self, i: int, pair: int) -> int | None:
        """X of doubling hand ``i`` with the extra pair card (0: none) gone."""
        n = self._n(i, pair)
        if n <= 1:
            return None
        left = self._left(i, pair)
        total = 0
        for rank, (count, child) in enumerate(zip(left, self._table.children[i]), 1):
            if count:
                total += count * (self._bust(left, n, rank) if child == _BUST else self._stand[(child, pair)])
        return 2 * total

    def _optimize(self, ids: list[int], extra: int) -> dict[int, tuple[int, int | None]]:
        """(stand, hit) X of the hands ``ids`` (with the ``extra`` pair cards gone, :func:`_extra`)
        played optimally, children first (they have one card more); the better of the two is
        kept in :attr:`_value` for their parents. Busting costs :meth:`_bust`."""
        table = self._table
        hands, sizes, every_child = table.hands, table.sizes, table.children
        stands, d, top = self._stand, self._d, self._top
        value = self._value.setdefault(extra, {})
        gone = _count_of(extra)
        gone_at = _pair_of(extra) - 1 if extra else -1
        partner = self.partner - 1 if self.partner is not None and not self.natural_loses else -1
        best: dict[int, tuple[int, int | None]] = {}
        base = [t - (gone if r == gone_at else 0) for r, t in enumerate(top)]  # the unseen counts less the hand's
        finished = 99 if self._charlie is None else self._charlie  # a Charlie's "stand" is its own X
        for i in sorted(ids, key=sizes.__getitem__, reverse=True):
            stand = stands[(i, extra)]
            n = self.unseen - sizes[i] - gone
            if n <= 1 or sizes[i] >= finished:
                value[i] = stand
                best[i] = (stand, None)
                continue
            hand, children = hands[i], every_child[i]
            total = busts = 0  # busts: the cards that bust the hand
            for b, c, child in zip(base, hand, children):
                count = b - c
                if count:
                    if child >= 0:
                        total += count * value[child]
                    else:
                        busts += count
            if busts:
                if partner < 0:  # minus one, over D(n - 1)
                    total -= busts * d[n - 1]
                else:  # minus P(no dealer natural) after the card, over D(n - 1) = (n - 1) D(n - 2)
                    partners = base[partner] - hand[partner]
                    total -= busts * (n - 1 - partners) * d[n - 2]
                    if children[partner] < 0:  # drawing a partner leaves one fewer for the dealer
                        total -= partners * d[n - 2]
            value[i] = stand if stand >= total else total
            best[i] = (stand, total)
        return best

    def _visit_split(self, i: int, extra: int, chooser: int, wanted: set[tuple[int, int]],
                     seen: set[int] | None = None) -> None:
        """Note the positions a split hand ``i`` (two cards, ``extra`` gone) stands on (its
        doubles' too), played by the optimum with ``chooser`` gone; ``seen``: hands of three
        cards or more already visited (their positions noted)."""
        move = self._split_move(i, _pair_of(extra), chooser)
        children = self._table.children[i]
        left = self._left(i, extra)
        if move == "stand":
            wanted.add((i, extra))
        elif move == "double":
            wanted.update((c, extra) for c, k in zip(children, left) if k and c >= 0)
        else:
            self._visit_played(i, extra, chooser, wanted, set() if seen is None else seen)

    def _visit_played(self, i: int, extra: int, chooser: int, wanted: set[tuple[int, int]], seen: set[int]) -> None:
        for child, count in zip(self._table.children[i], self._left(i, extra)):
            if count and child >= 0 and child not in seen:
                seen.add(child)
                if self._chooser_hits(child, chooser):
                    self._visit_played(child, extra, chooser, wanted, seen)
                else:
                    wanted.add((child, extra))

    def _chooser_hits(self, i: int, chooser: int) -> bool:
        """Whether the optimum with ``chooser`` gone hits hand ``i`` (ties go to standing)."""
        return hits(*self._opt[chooser][i])

    # --- the values ---

    def optimal(self, hand: Counts) -> tuple[int, int | None]:
        """(stand, hit) X of an unsplit hand that may only stand or hit, played optimally."""
        return self._opt[0][self._table.index[hand]]

    def double(self, hand: Counts) -> int | None:
        """X of doubling an unsplit hand."""
        return self._double_at(self._table.index[hand], 0)

    def moves(self, cards: tuple[int, int]) -> tuple[dict[str, int], int]:
        """The X of stand, hit, double (as allowed) and split (for :attr:`pairs`) of an unsplit
        two-card hand, and their denominator D(n)."""
        hand = counts_of(cards)
        stand, hit = self.optimal(hand)
        values = {"stand": stand}
        if hit is not None:
            values["hit"] = hit
        if self.rules.may_double(counts_value(hand)):
            double = self.double(hand)
            if double is not None:
                values["double"] = double
        if cards[0] == cards[1] and cards[0] in self.pairs:
            values["split"] = self.split(cards[0])
        return values, self.denominator(hand)

    def split(self, pair: int) -> int:
        """X (over the pair's D(n)) of splitting ``pair`` into two hands, no more: twice the
        first hand's value with the other pair card gone (see ``player.game``)."""
        left = [t - 2 * (r == pair) for r, t in zip(RANKS, self._top)]
        return 2 * sum(c * self._split_hand(self._id((pair, x)), pair) for x, c in zip(RANKS, left) if c)

    def _split_move(self, i: int, pair: int, chooser: int) -> str:
        """The move of split hand ``i`` (two cards) of ``pair`` by the values of the optimum with
        ``chooser`` gone (:func:`_extra`)."""
        hand = self._table.hands[i]
        if counts_value(hand).total == 21 or not self.rules.may_hit_split(pair):
            return "stand"
        stand, hit = self._opt[chooser][i]
        options = {"stand": stand}
        if hit is not None:
            options["hit"] = hit
        if self.rules.may_double(counts_value(hand), split_pair=pair):
            double = self._double_at(i, chooser)
            if double is not None:
                options["double"] = double
        return best_move(options)

    def _split_hand(self, i: int, pair: int) -> int:
        """X of split hand ``i`` of ``pair`` holding its second card, the other pair card gone."""
        move = self._split_move(i, pair, 0 if self._cdz else pair)
        if move == "double":
            return _must(self._double_at(i, pair))
        if move == "hit":
            return self._hit_played(i, pair)
        return self._stand[(i, pair)]

    def _hit_played(self, i: int, pair: int) -> int:
        """X of hitting split hand ``i`` and playing on by the split strategy."""
        n = self._n(i, pair)
        if n <= 1:
            raise BjexactError("the shoe is too small to deal the split hands")
        left = self._left(i, pair)
        total = 0
        for rank, (count, child) in enumerate(zip(left, self._table.children[i]), 1):
            if count:
                total += count * (self._bust(left, n, rank) if child == _BUST else self._played(child, pair))
        return total

    def _played(self, i: int, pair: int) -> int:
        """X of split hand ``i`` (three cards or more) played by the split strategy."""
        if not self._cdz:
            return self._value[pair][i]
        key = (i, pair)
        found = self._policy.get(key)
        if found is None:
            found = self._policy[key] = self._hit_played(i, pair) if self._chooser_hits(i, 0) else self._stand[key]
        return found


    # --- resplits: split hands with hidden cards ---

    def ensure_optimum(self, extra: int) -> None:
        """The optimum of the hands holding the pair card with ``extra`` pair cards gone, nothing
        hidden: the values CDP1 and CDP choose a split hand's moves by."""
        self.ensure_optima([extra])

    def ensure_optima(self, extras: Sequence[int]) -> None:
        """:meth:`ensure_optimum` of each of ``extras``, their stands from one batch of dealer rows."""
        missing = {extra: self._split_ids(extra) for extra in extras if extra not in self._opt}
        stands = self._stand
        self._add_stands([(i, extra) for extra, ids in missing.items() for i in ids if (i, extra) not in stands])
        for extra, ids in missing.items():
            self._opt[extra] = self._optimize(ids, extra)

    def prepare_splits(self, wanted: dict[int, list[tuple[int, int, int, int]]]) -> None:
        """Walk the dealer for the split hands ``wanted[pair]``: (second card x, extra pair cards k,
        hidden non-pair cards j, pair cards gone for the choosing optimum), see
        :meth:`split_hand_value`: one batch of plain rows for the optima that choose the split
        hands' moves (every pair and number of pair cards gone), one for the positions they
        stand on, one per pair for the rows with hidden cards."""
        needed: dict[int, set[tuple[int, int, int]]] = {}
        self.ensure_optima(sorted({_extra(pair, c) for pair, requests in wanted.items() for *_, c in requests}))
        for pair, requests in wanted.items():
            self._g.setdefault(pair, self._factorials_not(pair))
            needed[pair] = self._split_positions(pair, requests)
        # nothing hidden: plain rows (shared with other positions), D(n) G(Q) = F(n - 0) G(Q)
        plain = [(i, e) for positions in needed.values() for i, e, j in positions if not j]
        self._add_stands([w for w in dict.fromkeys(plain) if w not in self._stand])
        for pair, positions in needed.items():
            g = self._g[pair]
            for i, e, j in positions:
                if not j:
                    self._hstand[(i, e, 0)] = self._stand[(i, e)] * g[self._n(i, e) - self._left(i, e)[pair - 1]]
            self._hidden_stands(pair, sorted(p for p in positions if p[2]))

    def _factorials_not(self, pair: int) -> list[int]:
        """G(Q) = Q!/m'! for every count Q of unseen cards that are not ``pair`` (1 below the floor m')."""
        nonpair = sum(self.shoe) - self.shoe[pair - 1] - (self.upcard != pair)
        floor = max(0, nonpair - self._most - self._k - 2)
        g = [1] * (nonpair + 1)
        for q in range(floor + 1, nonpair + 1):
            g[q] = g[q - 1] * q
        return g

    def _split_positions(self, pair: int, requests: list[tuple[int, int, int, int]]) -> set[tuple[int, int, int]]:
        """The positions (hand id, extra, hidden j) the split hands ``requests`` stand on, not yet valued."""
        needed: set[tuple[int, int, int]] = set()
        seen: dict[tuple[int, int, int], set[int]] = {}
        for x, k, j, c in requests:
            extra, chooser = _extra(pair, k), _extra(pair, c)
            flat: set[tuple[int, int]] = set()
            self._visit_split(self._id((pair, x)), extra, chooser, flat, seen.setdefault((extra, j, chooser), set()))
            needed.update((i, e, j) for i, e in flat)
        return needed - self._hstand.keys()

    def _hidden_stands(self, pair: int, positions: list[tuple[int, int, int]]) -> None:
        """X of standing at ``positions`` (hand id, extra, j >= 1 hidden cards), in one batch; a
        Charlie's (:meth:`_finished`) holds its X instead (:meth:`_hidden_charlie`), no row walked."""
        if self._charlie is not None:
            for position in positions:
                if self._finished(position[0]):
                    self._hstand[position] = self._hidden_charlie(*position)
            positions = [p for p in positions if not self._finished(p[0])]
        if not positions:
            return
        table = self._table
        batch = self._oracle.residues([_removed(table.hands[i], e) for i, e, _ in positions], self.upcard, pair,
                                      [j for *_, j in positions], bound=2)
        _check(batch)
        values = weighted(batch, range(len(positions)), self._stand_weights([i for i, _, _ in positions]))
        factors: dict[tuple[int, int, int, int], int] = {}  # (n, Q, j, the row's denominator) -> D / it
        for position, value, denominator in zip(positions, values, batch.denominators):
            key = (*self._unseen_counts(*position[:2]), position[2], denominator)
            factor = factors.get(key)
            if factor is None:
                factor = factors[key] = self._hidden_d(*position) // denominator
            self._hstand[position] = value * factor

    def _hidden_charlie(self, i: int, extra: int, j: int) -> int:
        """X (over F(n - j) G(Q)) of the Charlie ``i`` with ``j`` hidden non-pair cards: as
        :meth:`_charlie_at`, the hole card a partner with chance c / (n - j) when the partner is the
        pair rank, else c (Q - j) / (Q (n - j)) (as :meth:`_hidden_bust`)."""
        n, q = self._unseen_counts(i, extra)
        pair = _pair_of(extra)
        g = self._g[pair]
        whole = self._d[n - j] * g[q]
        if self.partner is None:
            return whole
        count = self._left(i, extra)[self.partner - 1]
        if self.partner == pair:
            natural = count * self._d[n - j - 1] * g[q]
        else:
            natural = count * (q - j) * self._d[n - j - 1] * g[q - 1]
        return whole - (2 if self.natural_loses else 1) * natural

    def _unseen_counts(self, i: int, extra: int) -> tuple[int, int]:
        """(n, Q): the unseen cards of hand ``i`` with the ``extra`` pair cards gone, and those
        of them that are not pair cards."""
        pair, gone = _pair_of(extra), _count_of(extra)
        n = self.unseen - self._table.sizes[i] - gone
        return n, n - (self._top[pair - 1] - self._table.hands[i][pair - 1] - gone)

    def _hidden_d(self, i: int, extra: int, j: int) -> int:
        """The denominator F(n - j) G(Q) of a position with ``j`` hidden non-pair cards: F(x) = x!/m!,
        G(Q) = Q!/m'! with Q the unseen cards that are not pair cards."""
        n, q = self._unseen_counts(i, extra)
        return self._d[n - j] * self._g[_pair_of(extra)][q]

    def split_hand_value(self, x: int, k: int, j: int, chooser: int, pair: int) -> tuple[int, int]:
        """(X, its denominator) of a split hand of ``pair`` holding second card ``x``, with ``k``
        other pair cards and ``j`` hidden non-pair cards gone, played by the optimum with
        ``chooser`` pair cards gone (0: the unsplit hand's, CDZ-). A draw is the pair rank with
        chance c_pair / (n - j) and rank r otherwise with c_r (Q - j) / (Q (n - j)), so with
        D = F(n - j) G(Q) a hit's numerator is c_pair X(pair) + sum_r c_r (Q - j) X(r)."""
        i, extra = self._id((pair, x)), _extra(pair, k)
        move = self._split_move(i, pair, _extra(pair, chooser))
        if move == "double":
            value = _must(self._hidden_hit(i, extra, j, -1))
        elif move == "hit":
            value = _must(self._hidden_hit(i, extra, j, _extra(pair, chooser)))
        else:
            value = self._hstand[(i, extra, j)]
        return value, self._hidden_d(i, extra, j)

    def _hidden_hit(self, i: int, extra: int, j: int, chooser: int) -> int | None:
        """X of drawing a card to hand ``i`` with ``j`` hidden cards, then playing by the optimum
        with ``chooser`` gone (-1: standing, a double's card; twice the stake)."""
        n = self._n(i, extra)
        if n - j <= 1:
            return None
        pair = _pair_of(extra)
        left = self._left(i, extra)
        q = n - left[pair - 1]
        if q < j:
            raise BjexactError("the shoe is too small to deal the split hands")
        stands, played = self._hstand, self._hplay
        total = 0
        for rank, (count, child) in enumerate(zip(left, self._table.children[i]), 1):
            weight = count if rank == pair else count * (q - j)
            if not weight:
                continue
            if child == _BUST:
                total += weight * self._hidden_bust(left, n, q, j, pair, rank)
            elif chooser < 0:
                total += weight * stands[(child, extra, j)]
            else:
                found = played.get((child, extra, j, chooser))
                total += weight * (self._hidden_played(child, extra, j, chooser) if found is None else found)
        return 2 * total if chooser < 0 else total

    def _hidden_played(self, i: int, extra: int, j: int, chooser: int) -> int:
        key = (i, extra, j, chooser)
        found = self._hplay.get(key)
        if found is None:
            if self._chooser_hits(i, chooser):
                found = _must(self._hidden_hit(i, extra, j, chooser))
            else:
                found = self._hstand[(i, extra, j)]
            self._hplay[key] = found
        return found

    def _hidden_bust(self, left: list[int], n: int, q: int, j: int, pair: int, rank: int) -> int:
        """X (over F(n' - j) G(Q')) of busting by drawing ``rank``: minus P(no dealer natural)
        when a dealer natural is left out of W, else minus one."""
        after, q_after = n - 1, q - (rank != pair)
        g = self._g[pair]
        value = -self._d[after - j] * g[q_after]
        if self.natural_loses or self.partner is None:
            return value
        partner = self.partner
        count = left[partner - 1] - (rank == partner)
        if partner == pair:  # P(natural) = c / (n' - j)
            return value + count * self._d[after - j - 1] * g[q_after]
        return value + count * (q_after - j) * self._d[after - j - 1] * g[q_after - 1]


# The engines of the last rule set solved, by (rules but doubling after splitting, shoe, up-card,
# pairs): a rule set that differs only in doubling after splitting (``chart``'s second solve,
# for its Ph/Pd cells) shares their positions instead of valuing them again.
_SIBLINGS: dict[tuple[Any, Counts, int, tuple[int, ...]], UpcardEngine] = {}

_SPLIT_DOUBLING = ("das", "double_split_aces")


def _shared_rules(rules: GameRules) -> tuple[Any, ...]:
    """The rules but those of doubling after splitting: engines whose rules agree on these
    value every stand, every optimum and every split hand of three cards or more alike."""
    return tuple(getattr(rules, f.name) for f in fields(rules) if f.name not in _SPLIT_DOUBLING)


def _extra(pair: int, count: int) -> int:
    """The code of ``count`` extra pair cards gone (0: none): pair + 10 (count - 1)."""
    return pair + 10 * (count - 1) if count else 0


def _pair_of(extra: int) -> int:
    return (extra - 1) % 10 + 1


def _count_of(extra: int) -> int:
    return (extra - 1) // 10 + 1 if extra else 0


def _removed(hand: Counts, extra: int) -> Counts:
    """A hand's cards with the extra pair cards of code ``extra``."""
    if not extra:
        return hand
    pair = _pair_of(extra)
    return hand[: pair - 1] + (hand[pair - 1] + _count_of(extra),) + hand[pair:]


def _check(batch: Residues) -> None:
    """Every row must sum to its denominator: the dealer never runs out of cards."""
    import numpy as np

    p = np.array(batch.primes, dtype=np.int64)[:, None]
    known = {d: k for k, d in enumerate(dict.fromkeys(batch.denominators))}
    table = np.array([[d % q for q in batch.primes] for d in known], dtype=np.int64).T
    check = table[:, [known[d] for d in batch.denominators]]
    if (batch.residues.sum(axis=1) % p != check).any():  # primes' product > D: equal sums
        raise BjexactError("the shoe is too small: the dealer could run out of cards before finishing")


def _must(value: int | None) -> int:
    if value is None:
        raise BjexactError("the shoe is too small to deal the split hands")
    return value
