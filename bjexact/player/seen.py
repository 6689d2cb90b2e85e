"""The cards seen, and the chances they leave: the draws, the hole card, the dealer's outcomes.

A hand's values (:mod:`bjexact.player.values`) are computed from the cards unseen: the shoe
less the hand's cards, the up-card and whatever else has left it (:class:`Gone`: the other
split hands' pair cards, seen, and their second cards known not to be pair cards, hidden).
The hole card is one of the unseen cards (by exchangeability it can be drawn after the
player's cards), so the player can never draw the last unseen card. The infinite deck
ignores what is gone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import gcd
from typing import Any

from ..core.cards import RANKS, STANDARD_PROPORTIONS, Counts, FiniteShoe
from ..core.hand import natural_partner
from ..core.numbers import mpq
from ..core.rules import GameRules
from ..dealer.batch import OUTCOMES, DealerOracle, Residues
from ..dealer.distributions import dealer_distributions
from ..errors import BjexactError

__all__ = ["Gone", "NOTHING_GONE", "SeenCards"]

_ZERO = mpq(0)


@dataclass(frozen=True)
class Gone:
    """Cards that have left the shoe besides a hand's own cards and the up-card.

    ``extra``: seen cards (the other split hands' pair cards). ``hidden`` cards not
    of rank ``pair`` have gone too, each such set equally likely (the second cards
    of other split hands, which were not pair cards); see :class:`DealerOracle`.
    """

    extra: Counts = (0,) * 10
    pair: int = 0
    hidden: int = 0

    @property
    def key(self) -> tuple[int, int] | None:
        return (self.pair, self.hidden) if self.hidden else None


NOTHING_GONE = Gone()


_DEALER_CHUNK = 10_000  # removed sets per walk of the dealer's residues (its arrays grow with them)


class SeenCards:
    """Draw and dealer probabilities given the cards gone: a hand's cards, :class:`Gone`.

    ``removed`` (the hand plus ``gone.extra``) never includes the up-card; every
    method takes it separately. The infinite deck ignores what is gone.
    """

    def __init__(self, rules: GameRules):
        self.rules = rules
        # plain naturals: a dealer natural is a plain 21 (its chance moved to the 21 outcome of every row)
        self.plain_naturals = rules.plain_naturals
        self.shoe = shoe = rules.make_shoe()
        self.infinite = not isinstance(shoe, FiniteShoe)
        # the counts a finite shoe starts with (the infinite deck never asks for them)
        self.counts: Counts = shoe.counts if isinstance(shoe, FiniteShoe) else STANDARD_PROPORTIONS
        self._dealer: dict[Any, tuple[tuple[int, ...], int]] = {}
        # the exact dealer rows of a finite shoe, shared with the engine that values the same shoe;
        # ``None`` for the infinite deck
        self.dealer_oracle = DealerOracle(shoe.counts, rules.h17) if isinstance(shoe, FiniteShoe) else None
        if self.infinite:
            rows = dealer_distributions(rules.dealer_rules())
            self._infinite_rows = {u: self._as_ruled(_over_common_denominator([rows[u][o] for o in OUTCOMES]))
                                   for u in rows}
        self.recording: set[tuple[Counts, tuple[int, int] | None]] | None = None
        # up-card -> rows already computed elsewhere (nothing hidden), ``None`` where not
        self.sources: dict[int, Callable[[Counts], tuple[tuple[int, ...], int] | None]] = {}

    def unseen(self, removed: Counts, upcard: int) -> list[int]:
        left = [c - r for c, r in zip(self.counts, removed)]
        left[upcard - 1] -= 1
        return left

    def chances(self, removed: Counts, upcard: int, gone: Gone) -> list[mpq]:
        """P(an unseen card has rank r), r = A..T (the next card drawn, or the hole card)."""
        if self.infinite:
            return list(self.shoe.draw_probabilities())
        left = self.unseen(removed, upcard)
        n = sum(left)
        j = gone.hidden
        if not j:
            return [mpq(c, n) for c in left]
        others = n - left[gone.pair - 1]
        if others < j:
            raise BjexactError("the shoe is too small to deal the split hands")
        return [mpq(c, n - j) if r == gone.pair else mpq(c * (others - j), others * (n - j))
                for r, c in zip(RANKS, left)]

    def draws(self, removed: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> list[tuple[int, mpq]]:
        """(rank, probability) of the player's next card; empty when only the hole card is unseen."""
        if not self.infinite and sum(self.unseen(removed, upcard)) - gone.hidden <= 1:
            return []
        return [(r, p) for r, p in zip(RANKS, self.chances(removed, upcard, gone)) if p]

    def natural_chance(self, removed: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> mpq:
        """P(the dealer's hole card makes a natural | the cards seen); 0 under plain naturals (a plain 21)."""
        partner = natural_partner(upcard)
        if partner is None or self.plain_naturals:
            return _ZERO
        return self.chances(removed, upcard, gone)[partner - 1]

    def prefetch(self, wanted: list[tuple[Counts, tuple[int, int] | None]], upcard: int) -> None:
        """Compute the dealer's distributions for many (removed set, hidden cards) in few batches:
        one per pair rank with hidden cards, one for the rest."""
        if self.infinite:
            return
        batches: dict[int, list[tuple[Counts, int]]] = {}
        source = self.sources.get(upcard)
        for removed, hidden in dict.fromkeys(wanted):
            if (removed, upcard, hidden) not in self._dealer and hidden is None and source is not None:
                row = source(removed)
                if row is not None:
                    self._dealer[(removed, upcard, hidden)] = row
            if (removed, upcard, hidden) not in self._dealer:
                pair, j = hidden or (0, 0)
                batches.setdefault(pair, []).append((removed, j))
        assert self.dealer_oracle is not None  # finite shoes only
        for pair, sets in batches.items():
            rows = self.dealer_oracle.numerators([r for r, _ in sets], upcard, pair, [j for _, j in sets])
            for (removed, j), row in zip(sets, rows):
                self._dealer[(removed, upcard, (pair, j) if j else None)] = row

    def dealer_rows(self, removed_sets: list[Counts], upcard: int) -> list[tuple[tuple[int, ...], int]]:
        """:meth:`dealer` for many removed sets at once (finite shoes, nothing hidden), not kept."""
        assert self.dealer_oracle is not None  # finite shoes only
        return [self._as_ruled(row)
                for row in self.dealer_oracle.numerators(removed_sets, upcard, 0, [0] * len(removed_sets))]

    def _as_ruled(self, row: tuple[tuple[int, ...], int]) -> tuple[tuple[int, ...], int]:
        """A dealer row under these rules: as it is, or under plain naturals with the natural's chance
        moved to the outcome 21."""
        if not self.plain_naturals:
            return row
        numerators, denominator = row
        moved = list(numerators)
        moved[_TWENTY_ONE] += moved[_NATURAL]
        moved[_NATURAL] = 0
        return tuple(moved), denominator

    def dealer_denominator(self, unseen: int, upcard: int) -> int:
        """The common denominator of the dealer's outcomes (:meth:`dealer_rows`) when ``unseen`` cards
        besides the up-card are left (finite shoes, nothing hidden)."""
        assert self.dealer_oracle is not None  # finite shoes only
        return self.dealer_oracle.denominator(unseen, upcard)

    def dealer_residues_once(self, removed_sets: Any, upcard: int) -> Residues:
        """The numerators of :meth:`dealer_rows` modulo primes above every denominator, for distinct
        removed sets (an int array, sets x ranks) used once: each is walked, none is kept or looked
        up (:meth:`bjexact.dealer.batch.DealerOracle.walked_once`), in chunks of the walk's size."""
        import numpy as np  # finite shoes only

        assert self.dealer_oracle is not None  # finite shoes only
        if self.plain_naturals:
            raise BjexactError("the residues of dealer rows keep a natural apart: not under plain naturals")
        oracle = self.dealer_oracle
        chunks = [oracle.walked_once(removed_sets[i:i + _DEALER_CHUNK], upcard)
                  for i in range(0, len(removed_sets), _DEALER_CHUNK)]  # the walk's arrays stay small
        if len(chunks) == 1:
            return chunks[0]
        return Residues(np.concatenate([chunk.residues for chunk in chunks], axis=2),
                        [d for chunk in chunks for d in chunk.denominators], chunks[0].primes)

    def dealer(self, removed: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> tuple[tuple[int, ...], int]:
        """P(outcome | up-card, removed) for :data:`OUTCOMES`, as (numerators, denominator).

        While ``recording`` is a set, a split hand's distribution (``gone.pair`` set) not
        computed yet is only noted there (and returned as zeros), to be computed with the
        others in one batch; unsplit hands' distributions, which decide every move, are
        always computed.
        """
        if self.infinite:
            return self._infinite_rows[upcard]
        key = (removed, upcard, gone.key)
        row = self._dealer.get(key)
        if row is None and gone.key is None and upcard in self.sources:
            row = self.sources[upcard](removed)
            if row is not None:
                self._dealer[key] = row
        if row is None:
            if self.recording is not None and gone.pair:
                self.recording.add((removed, gone.key))
                return _NO_OUTCOMES
            self.prefetch([(removed, gone.key)], upcard)
            row = self._dealer[key]
        return self._as_ruled(row)


_NO_OUTCOMES = ((0,) * len(OUTCOMES), 1)
_TWENTY_ONE, _NATURAL = OUTCOMES.index("21"), OUTCOMES.index("blackjack")


def _over_common_denominator(values: list[mpq]) -> tuple[tuple[int, ...], int]:
    denominator = 1
    for v in values:
        denominator = denominator * v.denominator // gcd(denominator, v.denominator)
    return tuple(int(v * denominator) for v in values), denominator
