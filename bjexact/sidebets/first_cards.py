"""The first cards a side bet sees: the player's two cards and the dealer's up-card.

The player's two cards are a :class:`TwoCards` (ranks, suits, pair kind, total, soft, natural);
with the up-card they make a three-card poker hand (:func:`three_card_hand`) and may match the
up-card (:func:`up_card_matches`).

How often each happens is counted, not sampled: a *configuration* is a pair of cards (in card
order, a card may appear twice) and, where the bet sees it, an up-card; its number of
*combinations* is the number of ways to take those cards from the shoe's physical cards, the
player's pair unordered (:func:`combinations`). Every configuration has the chance of its
combinations over all of them. Bets that see only the three cards as a poker hand count
unordered three-card sets (each is three configurations), as published combination tables do.
For N standard decks the combinations of a configuration are a polynomial in N fixed by which
of its cards coincide (:func:`pattern_combinations`), so a bet's counts for any N come from
one pass over the 71,656 configurations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from enum import StrEnum
from functools import cache

from ..core.hand import hand_value
from ..core.numbers import mpq
from .suits import CARDS, Card, SuitedShoe

__all__ = [
    "PairKind", "ThreeCardHand", "TwoCards", "two_cards", "three_card_hand", "up_card_matches", "Layout",
    "Configuration", "configurations", "dealable_configurations", "combinations", "pattern_combinations",
    "total_combinations", "configuration_chance", "configuration_weight", "configuration_denominator",
]


class PairKind(StrEnum):
    """A pair is two cards of one rank (a jack and a queen are no pair): ``perfect`` of one suit,
    ``coloured`` of one colour but two suits, ``mixed`` a red and a black card."""

    PERFECT = "perfect"
    COLOURED = "coloured"
    MIXED = "mixed"


class ThreeCardHand(StrEnum):
    """Three-card poker hands, best first; each hand is exactly one of them (the best it makes).

    A straight is three consecutive ranks; the ace is low in A-2-3 and high in Q-K-A, and K-A-2
    is no straight. Suited trips (one rank, one suit) need two decks or more.
    """

    SUITED_TRIPS = "suited-trips"
    STRAIGHT_FLUSH = "straight-flush"
    TRIPS = "trips"
    STRAIGHT = "straight"
    FLUSH = "flush"
    PAIR = "pair"
    HIGH_CARD = "high-card"


@dataclass(frozen=True, slots=True)
class TwoCards:
    """The player's first two cards, ``first`` <= ``second`` in card order, and what a bet reads of them.

    ``total`` and ``soft`` follow the main game's ace rule (:func:`bjexact.core.hand.hand_value`:
    A,9 is soft 20, A,A soft 12); ``total_aces_one`` counts every ace 1 (A,K is 11).
    """

    first: Card
    second: Card
    total: int
    soft: bool
    natural: bool
    total_aces_one: int
    pair: PairKind | None
    suited: bool
    same_colour: bool
    identical: bool

    @property
    def cards(self) -> tuple[Card, Card]:
        return (self.first, self.second)


@cache
def two_cards(first: Card, second: Card) -> TwoCards:
    """The :class:`TwoCards` of two cards, in either order."""
    a, b = sorted((first, second))
    value = hand_value((a.value, b.value))
    pair = None
    if a.face == b.face:
        pair = PairKind.PERFECT if a.suit == b.suit else PairKind.COLOURED if a.red == b.red else PairKind.MIXED
    return TwoCards(a, b, value.total, value.soft, value.total == 21, a.value + b.value, pair,
                    a.suit == b.suit, a.red == b.red, a == b)


def _straight(faces: list[int]) -> bool:
    low = sorted(faces)
    if low[1] == low[0] + 1 and low[2] == low[1] + 1:
        return True
    return low == [1, 12, 13]  # Q-K-A: the ace high


@cache
def three_card_hand(a: Card, b: Card, c: Card) -> ThreeCardHand:
    """The three-card poker hand of three cards (the player's two and the up-card).

    >>> from bjexact.sidebets.suits import parse_card
    >>> three_card_hand(*map(parse_card, ("QH", "KH", "AH"))), three_card_hand(*map(parse_card, ("KS", "AH", "2D")))
    (<ThreeCardHand.STRAIGHT_FLUSH: 'straight-flush'>, <ThreeCardHand.HIGH_CARD: 'high-card'>)
    """
    faces = [a.face, b.face, c.face]
    flush = a.suit == b.suit == c.suit
    distinct = len(set(faces))
    if distinct == 1:
        return ThreeCardHand.SUITED_TRIPS if flush else ThreeCardHand.TRIPS
    straight = distinct == 3 and _straight(faces)
    if straight:
        return ThreeCardHand.STRAIGHT_FLUSH if flush else ThreeCardHand.STRAIGHT
    if flush:
        return ThreeCardHand.FLUSH
    return ThreeCardHand.PAIR if distinct == 2 else ThreeCardHand.HIGH_CARD


def up_card_matches(hand: TwoCards, up: Card) -> tuple[int, int]:
    """(how many of the player's cards are the up-card's rank and suit, how many its rank in another suit)."""
    suited = rank_only = 0
    for card in (hand.first, hand.second):
        if card.face == up.face:
            if card.suit == up.suit:
                suited += 1
            else:
                rank_only += 1
    return suited, rank_only


@dataclass(frozen=True)
class Layout:
    """Which first cards a bet sees: the player's two (``hand``), the up-card (``upcard``); ``unordered``:
    only the three of them as a set (a poker hand), counted as unordered three-card sets."""

    hand: bool
    upcard: bool
    unordered: bool = False


@dataclass(frozen=True, slots=True)
class Configuration:
    """One way the seen first cards can be, up to card order: ``hand`` and ``upcard`` (``None``: not
    seen), and ``pattern``, which of the cards coincide (0 none; with the up-card: 1 a pair of one
    card, 2 the up-card is one of two different player's cards, 3 all three the same card)."""

    hand: TwoCards | None
    upcard: Card | None
    pattern: int


@cache
def configurations(layout: Layout) -> tuple[Configuration, ...]:
    """Every configuration of the layout's cards, each once."""
    pairs = [two_cards(a, b) for i, a in enumerate(CARDS) for b in CARDS[i:]] if layout.hand else [None]
    ups = CARDS if layout.upcard else (None,)
    return tuple(Configuration(hand, up, _pattern(hand, up)) for hand in pairs for up in ups)


def dealable_configurations(layout: Layout, shoe: SuitedShoe) -> tuple[Configuration, ...]:
    """The configurations of :func:`configurations` whose cards are all in the finite ``shoe``, in the
    same order: the others have no combinations (a small shoe holds few of the 52 cards)."""
    present = [card for card in CARDS if shoe.count(card)]
    if len(present) == len(CARDS):
        return configurations(layout)
    if 2 * len(present) > len(CARDS):  # most cards: the few configurations with a missing card left out
        missing = frozenset(CARDS) - frozenset(present)
        return tuple(c for c in configurations(layout) if not (c.upcard in missing or c.hand is not None and (
            c.hand.first in missing or c.hand.second in missing)))
    pairs = [two_cards(a, b) for i, a in enumerate(present) for b in present[i:]] if layout.hand else [None]
    ups = present if layout.upcard else (None,)
    return tuple(Configuration(hand, up, _pattern(hand, up)) for hand in pairs for up in ups)


def _pattern(hand: TwoCards | None, up: Card | None) -> int:
    if hand is None:
        return 0
    pair = hand.first == hand.second
    if up is None:
        return int(pair)
    if up not in hand.cards:
        return int(pair)
    return 3 if pair else 2


def combinations(layout: Layout, configuration: Configuration, shoe: SuitedShoe) -> int:
    """The number of ways to take the configuration's cards from the shoe's physical cards (finite shoes).

    Unordered three-card sets: each is counted by three configurations, so the caller divides sums by 3.
    """
    ways = 1
    hand, up = configuration.hand, configuration.upcard
    if hand is not None:
        a, b = shoe.count(hand.first), shoe.count(hand.second)
        ways = math.comb(a, 2) if hand.first == hand.second else a * b
    if up is not None:
        taken = 0 if hand is None else sum(card == up for card in hand.cards)
        ways *= max(shoe.count(up) - taken, 0)
    return ways


# combinations of each pattern in N standard decks (N of every card)
_PATTERNS = {
    (True, True): (lambda n: n**3, lambda n: math.comb(n, 2) * n, lambda n: n * n * (n - 1),
                   lambda n: math.comb(n, 2) * (n - 2)),
    (True, False): (lambda n: n * n, lambda n: math.comb(n, 2)),
    (False, True): (lambda n: n,),
}


def pattern_combinations(layout: Layout, pattern: int, decks: int) -> int:
    """The combinations of one configuration of ``pattern`` in ``decks`` standard decks (before the
    division of unordered three-card sets by 3, which the caller does on sums)."""
    return int(_PATTERNS[(layout.hand, layout.upcard)][pattern](decks))


def total_combinations(layout: Layout, shoe: SuitedShoe) -> int:
    """All the combinations of the layout in a finite shoe: C(n, 2), n, C(n, 2) (n - 2), or C(n, 3) unordered."""
    n = shoe.size
    if layout.unordered:
        return math.comb(n, 3)
    total = math.comb(n, 2) if layout.hand else 1
    return total * ((n - 2 if layout.hand else n) if layout.upcard else 1)


def configuration_chance(configuration: Configuration, shoe: SuitedShoe) -> mpq:
    """The chance of a configuration in the infinite deck (every card drawn with its proportion)."""
    return mpq(configuration_weight(configuration, shoe), configuration_denominator(configuration, shoe))


def configuration_weight(configuration: Configuration, shoe: SuitedShoe) -> int:
    """:func:`configuration_chance` times :func:`configuration_denominator`: an integer, so that the
    chances of configurations of one layout add as integers."""
    weight = 1
    hand, up = configuration.hand, configuration.upcard
    if hand is not None:
        weight = shoe.count(hand.first) * shoe.count(hand.second) * (1 if hand.first == hand.second else 2)
    if up is not None:
        weight *= shoe.count(up)
    return weight


def configuration_denominator(configuration: Configuration, shoe: SuitedShoe) -> int:
    """n^2 for the player's two cards, times n for the up-card (n the cards of one deck's proportions)."""
    return int(shoe.size ** ((2 if configuration.hand is not None else 0) + (configuration.upcard is not None)))
