"""The ace rule, in one place.

An ace counts 11 unless that would take the hand over 21, in which case it
counts 1. The value is re-evaluated after every card, and at most one ace can
count 11. A hand is *soft* when one of its aces currently counts 11.

Because hard totals only grow, the pair (total, soft) is all one needs to know
to add a card: a hand with an ace that counts 1 can never become soft again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..errors import BjexactError
from .cards import ACE, TEN, Counts, as_rank
from .numbers import mpq

__all__ = [
    "HandValue", "EMPTY_HAND", "add_card", "hand_value", "is_natural", "two_cards_natural", "natural_partner",
    "no_natural_chance", "player_hand",
]


@dataclass(frozen=True, slots=True, order=True)
class HandValue:
    """The value of a hand: its best ``total`` and whether an ace counts 11 in it."""

    total: int
    soft: bool

    @property
    def bust(self) -> bool:
        return self.total > 21

    def __str__(self) -> str:
        if self.bust:
            return "bust"
        return f"{'soft' if self.soft else 'hard'} {self.total}"


EMPTY_HAND = HandValue(0, False)


def _drawn(hand: HandValue, rank: int) -> HandValue:
    """The ace rule for one more card: an ace counts 11 when that does not bust the hand."""
    hard = hand.total - (10 if hand.soft else 0) + rank
    has_ace = hand.soft or rank == ACE
    if has_ace and hard + 10 <= 21:
        return HandValue(hard + 10, True)
    return HandValue(hard, False)


# add_card's answers for every total up to 31 (a bust hand's total too), soft or not, and every rank: the
# solvers and simulators draw millions of cards, and a look-up is cheaper than building a HandValue
_DRAWN = tuple(tuple(tuple(_drawn(HandValue(total, soft), rank) for rank in range(1, 11)) for soft in (False, True))
               for total in range(32))


def add_card(hand: HandValue, rank: int) -> HandValue:
    """The value after drawing a card of ``rank`` (1 = ace, 10 = ten-valued).

    A soft hand that draws an ace stays soft when it can: soft 13 (A,2) + A is soft 14.

    Examples
    --------
    >>> str(add_card(HandValue(13, True), 1))
    'soft 14'
    >>> str(add_card(HandValue(16, True), 10))
    'hard 16'
    """
    total = hand.total
    if 0 <= total < 32 and 1 <= rank <= 10:
        return _DRAWN[total][hand.soft][rank - 1]
    return _drawn(hand, rank)


def hand_value(ranks: Iterable[int]) -> HandValue:
    """The value of a hand of cards given by rank (1 = ace, 10 = ten-valued).

    Examples
    --------
    >>> str(hand_value([1, 6, 10]))
    'hard 17'
    >>> str(hand_value([3, 1, 2, 6, 1]))
    'hard 13'
    """
    value = EMPTY_HAND
    for rank in ranks:
        value = add_card(value, rank)
    return value


def two_cards_natural(two_cards: HandValue) -> bool:
    """The natural rule, in one place: the value of a hand of two cards is a natural when it
    totals 21, that is an ace and a ten-valued card."""
    return two_cards.total == 21


def is_natural(ranks: Sequence[int]) -> bool:
    """Whether the cards (by rank) are a natural: two cards that total 21.

    Examples
    --------
    >>> is_natural((1, 10)), is_natural((1, 5, 5))
    (True, False)
    """
    return len(ranks) == 2 and two_cards_natural(hand_value(ranks))


def natural_partner(first: int) -> int | None:
    """The rank that makes a natural (an ace and a ten-valued card as the first two
    cards) with a first card of rank ``first``: T for an ace, A for a ten, else ``None``."""
    return TEN if first == ACE else ACE if first == TEN else None


def no_natural_chance(unseen: Counts, upcard: int) -> mpq:
    """P(the dealer has no natural | ``upcard``) when the hole card is any of the ``unseen`` cards.

    ``unseen`` excludes the up-card. It is 1 for up-cards 2..9, and when no card is unseen.
    """
    partner = natural_partner(upcard)
    total = sum(unseen)
    if partner is None or total == 0:
        return mpq(1)
    return 1 - mpq(unseen[partner - 1], total)


def player_hand(cards: Iterable[int | str], upcard: int | str) -> tuple[tuple[int, ...], int]:
    """A player's hand and the up-card as ranks, checked: two cards or more, not bust.

    Cards are ranks 1..10 (11 for an ace) or symbols such as ``"A"``, ``"K"``.
    """
    ranks = tuple(as_rank(c) for c in cards)
    up = as_rank(upcard)
    if len(ranks) < 2:
        raise BjexactError("a hand needs at least two cards")
    if hand_value(ranks).bust:
        raise BjexactError("the hand is already bust")
    return ranks, up
