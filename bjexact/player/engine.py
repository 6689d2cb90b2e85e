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

What this reaches: every unsplit position, and the splits of a pair that makes two
hands at most (``split_hands=2``, or aces without resplitting). A split that may go on to
three or four hands brings in second cards known not to be pair cards (hidden removals);
those splits stay with ``player.game``'s fraction arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core.cards import ACE, RANKS, Counts, add_counts, counts_of
from ..core.hand import natural_partner
from ..core.rules import GameRules
from ..dealer.batch import OUTCOMES, DealerOracle, row_of
from ..errors import BjexactError
from .states import counts_value, hands_up_to_21

__all__ = ["UpcardEngine", "may_double", "stand_weights", "split_limit"]

_NONE: Counts = (0,) * 10


def stand_weights(total: int, natural_loses: bool) -> tuple[int, ...]:
    """The payoff of standing on ``total`` against each dealer outcome (:data:`OUTCOMES`)."""
    weights = []
    for outcome in OUTCOMES:
        if outcome == "bust":
            weights.append(1)
        elif outcome == "blackjack":
            weights.append(-1 if natural_loses else 0)
        else:
            dealer = int(outcome)
            weights.append(1 if total > dealer else 0 if total == dealer else -1)
    return tuple(weights)


def may_double(rules: GameRules, hand: Counts) -> bool:
    """Whether the rules let a two-card ``hand`` (counts) double (after a split: with DAS)."""
    value = counts_value(hand)
    if value.soft and not rules.double_soft:
        return False
    if rules.double == "9-11":
        return 9 <= value.total <= 11
    if rules.double == "10-11":
        return 10 <= value.total <= 11
    return True


def split_limit(rules: GameRules, pair: int) -> int:
    """The most hands splitting ``pair`` can make (aces are resplit only with RSA)."""
    return rules.split_hands if pair != ACE or rules.rsa else min(rules.split_hands, 2)


def _argmax(values: dict[str, int]) -> str:
    """The move of largest value; ties go to the earlier move (the dict's order: stand, hit, double)."""
    best = ""
    for move, value in values.items():
        if not best or value > values[best]:
            best = move
    return best


class UpcardEngine:
    """Exact W numerators of every position against one up-card of a finite shoe.

    ``pairs``: the pair ranks whose splits (two hands at most) are valued here; the dealer's
    rows of all the positions they and the unsplit hands reach are computed in one batch.
    """

    def __init__(self, rules: GameRules, shoe: Counts, upcard: int, oracle: DealerOracle, pairs: list[int]):
        self.rules = rules
        self.shoe = shoe
        self.upcard = upcard
        self.unseen = sum(shoe) - 1  # before any player card
        self.partner = natural_partner(upcard)
        self.natural_loses = not rules.excludes_natural
        self._weights = {t: stand_weights(t, self.natural_loses) for t in range(4, 22)}
        self.pairs = pairs
        self.chooser = {p: counts_of([p]) if rules.split_strategy != "cdz" else _NONE for p in pairs}
        import numpy as np  # here: the infinite deck never needs it

        # the positions to stand on: (hand, removed); split hands' removed sets hold the other pair card
        stands = [(h, h) for h in hands_up_to_21(shoe, upcard)]
        for pair in pairs:
            extra = counts_of([pair])
            stands.extend((h, add_counts(h, extra)) for h in hands_up_to_21(shoe, upcard, start=(pair,), extra=extra))
        columns: dict[Counts, int] = {}
        for _, removed in stands:
            columns.setdefault(removed, len(columns))
        self._columns = columns
        weights = [self._weights[max(counts_value(h).total, 4)] for h, _ in stands]
        values, denominators, self._batch = oracle.stand_numerators(
            list(columns), upcard, [columns[r] for _, r in stands], np.array(weights, dtype=np.int64).reshape(-1, 7))
        # the floor m of D(n) = n!/m!: below every bust position's n less the dealer's longest path
        most = max((sum(r) for r in columns), default=1) + 1
        floor = max(0, self.unseen - most - oracle.longest(upcard) - 1)
        self._d = {floor: 1}
        for n in range(floor + 1, self.unseen + 1):
            self._d[n] = self._d[n - 1] * n
        scale = {den: self._d[self.unseen - sum(r)] // den for (_, r), den in zip(stands, denominators)}
        self._stand = {(h, r): v * scale[den] for (h, r), v, den in zip(stands, values, denominators)}
        self._opt: dict[tuple[Counts, Counts], tuple[int, int | None]] = {}
        self._policy: dict[tuple[Counts, Counts], int] = {}

    def denominator(self, removed: Counts) -> int:
        """D(n) of a position whose hand and extra cards are ``removed``."""
        return self._d[self.unseen - sum(removed)]

    def _left(self, removed: Counts) -> list[int]:
        left = [c - r for c, r in zip(self.shoe, removed)]
        left[self.upcard - 1] -= 1
        return left

    # --- one step ---

    def stand(self, hand: Counts, removed: Counts) -> int:
        """X of standing with ``hand`` (cards ``removed`` gone in all)."""
        return self._stand[(hand, removed)]

    def row(self, removed: Counts) -> tuple[tuple[int, ...], int] | None:
        """The dealer's exact row (numerators over ff(n, K)) for a removed set this engine
        walked, else ``None``."""
        column = self._columns.get(removed)
        return None if column is None else row_of(self._batch, column)

    def _bust(self, left: list[int], n: int, rank: int) -> int:
        """X (over D(n - 1)) of busting by drawing ``rank`` with ``n`` unseen: minus P(no dealer
        natural) when a dealer natural is left out of W, else minus one."""
        if self.natural_loses or self.partner is None:
            return -self._d[n - 1]
        after = n - 1
        return -(after - left[self.partner - 1] + (rank == self.partner)) * self._d[after - 1]

    def hit(self, hand: Counts, extra: Counts, then: Callable[[Counts], int]) -> int | None:
        """X of drawing one card, then ``then(new hand)``; ``None`` when only the hole card is unseen."""
        removed = add_counts(hand, extra)
        n = self.unseen - sum(removed)
        if n <= 1:
            return None
        left = self._left(removed)
        total = 0
        for rank, count in zip(RANKS, left):
            if not count:
                continue
            new = hand[: rank - 1] + (hand[rank - 1] + 1,) + hand[rank:]
            if counts_value(new).bust:
                total += count * self._bust(left, n, rank)
            else:
                total += count * then(new)
        return total

    def double(self, hand: Counts, extra: Counts = _NONE) -> int | None:
        one_card = self.hit(hand, extra, lambda new: self.stand(new, add_counts(new, extra)))
        return None if one_card is None else 2 * one_card

    # --- play ---

    def optimal(self, hand: Counts, extra: Counts = _NONE) -> tuple[int, int | None]:
        """(stand, hit) X of a hand that may only stand or hit, played optimally from here."""
        key = (hand, extra)
        found = self._opt.get(key)
        if found is None:
            stand = self.stand(hand, add_counts(hand, extra))
            hit = self.hit(hand, extra, lambda new: _best(self.optimal(new, extra)))
            found = self._opt[key] = (stand, hit)
        return found

    def _played(self, hand: Counts, extra: Counts, chooser: Counts) -> int:
        """X of a hand of three or more cards at ``extra``, hitting where the optimum with
        ``chooser`` extra cards gone hits (hit > stand)."""
        if chooser == extra:
            return _best(self.optimal(hand, extra))
        key = (hand, extra)
        found = self._policy.get(key)
        if found is None:
            stand, hit = self.optimal(hand, chooser)
            if hit is not None and hit > stand:
                found = self._must(self.hit(hand, extra, lambda new: self._played(new, extra, chooser)))
            else:
                found = self.stand(hand, add_counts(hand, extra))
            self._policy[key] = found
        return found

    def moves(self, cards: tuple[int, int]) -> tuple[dict[str, int], int]:
        """The X of stand, hit, double (as allowed) and split (for :attr:`pairs`) of an unsplit
        two-card hand, and their denominator D(n)."""
        hand = counts_of(cards)
        stand, hit = self.optimal(hand)
        values = {"stand": stand}
        if hit is not None:
            values["hit"] = hit
        if may_double(self.rules, hand):
            double = self.double(hand)
            if double is not None:
                values["double"] = double
        if cards[0] == cards[1] and cards[0] in self.chooser:
            values["split"] = self.split(cards[0])
        return values, self.denominator(hand)

    def split(self, pair: int) -> int:
        """X (over the pair's D(n)) of splitting ``pair`` into two hands, no more: twice the
        first hand's value with the other pair card gone (see ``player.game``)."""
        left = self._left(counts_of([pair, pair]))
        return 2 * sum(c * self.split_hand(counts_of([pair, x]), pair) for x, c in zip(RANKS, left) if c)

    def split_hand(self, hand: Counts, pair: int) -> int:
        """X of a split hand of ``pair`` holding its second card, the other pair card gone."""
        extra = counts_of([pair])
        chooser = self.chooser[pair]
        move = "stand"
        if counts_value(hand).total != 21 and (pair != ACE or self.rules.hit_split_aces):
            stand, hit = self.optimal(hand, chooser)
            options = {"stand": stand}
            if hit is not None:
                options["hit"] = hit
            if self.rules.das and may_double(self.rules, hand):
                double = self.double(hand, chooser)
                if double is not None:
                    options["double"] = double
            move = _argmax(options)
        if move == "double":
            return self._must(self.double(hand, extra))
        if move == "hit":
            return self._must(self.hit(hand, extra, lambda new: self._played(new, extra, chooser)))
        return self.stand(hand, add_counts(hand, extra))

    @staticmethod
    def _must(value: int | None) -> int:
        if value is None:
            raise BjexactError("the shoe is too small to deal the split hands")
        return value


def _best(values: tuple[int, int | None]) -> int:
    stand, hit = values
    return stand if hit is None or stand >= hit else hit

