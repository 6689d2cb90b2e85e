"""A suited view of a shoe: 13 ranks x 4 suits, for the bets that see faces and suits.

The main game needs card values only (``bjexact.core.cards``: 1 the ace, 10 any ten-valued card).
Side bets also see what a card *is*: a jack, queen and king make a straight J-Q-K, a queen of
hearts is not a queen of spades. Here a card is a :class:`Card`, a rank (its face: ``A``, ``2`` ..
``10``, ``J``, ``Q``, ``K``) and a suit; its *value* is the main game's rank (``J`` has value 10).

A :class:`SuitedShoe` holds a count for each of the 52 cards. N standard decks hold N of each;
the infinite deck draws each of the 52 with chance 1/52 at every draw, whatever was drawn
(it is kept as one deck drawn with replacement). Nothing here enumerates card orders: chances
come from counts of (rank, suit) classes.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from ..core.cards import RANKS, Counts, FiniteShoe, InfiniteShoe, Shoe
from ..core.numbers import mpq, short
from ..errors import BjexactError

__all__ = [
    "FACES", "FACE_SYMBOLS", "SUITS", "SUIT_NAMES", "RED_SUITS", "Card", "CARDS", "SuitedShoe",
    "parse_card", "parse_face", "parse_suit", "face_value",
]

FACES: tuple[int, ...] = tuple(range(1, 14))  # 1 the ace, 2..10, 11 jack, 12 queen, 13 king
FACE_SYMBOLS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[int, ...] = (0, 1, 2, 3)
SUIT_NAMES: tuple[str, ...] = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS: tuple[str, ...] = ("♠", "♥", "♦", "♣")
RED_SUITS = frozenset({1, 2})  # hearts and diamonds; spades and clubs are black

_FACE_WORDS = {s.lower(): f for f, s in zip(FACES, FACE_SYMBOLS)} | {
    "t": 10, "1": 1, "ace": 1, "ten": 10, "jack": 11, "queen": 12, "king": 13}
_SUIT_WORDS = {w: s for s in SUITS for w in (SUIT_NAMES[s], SUIT_NAMES[s][0], SUIT_SYMBOLS[s],
                                              SUIT_NAMES[s].rstrip("s"))}


def face_value(face: int) -> int:
    """The main game's value of a face: the face itself, 10 for a jack, queen or king."""
    return min(face, 10)


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One of the 52 cards: ``face`` 1 (ace) .. 13 (king), ``suit`` 0..3 (spades, hearts, diamonds, clubs)."""

    face: int
    suit: int

    @property
    def index(self) -> int:
        """The card's place among the 52, face by face: the index of its count in a :class:`SuitedShoe`."""
        return (self.face - 1) * 4 + self.suit

    @property
    def value(self) -> int:
        return face_value(self.face)

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return FACE_SYMBOLS[self.face - 1] + SUIT_SYMBOLS[self.suit]


CARDS: tuple[Card, ...] = tuple(Card(face, suit) for face in FACES for suit in SUITS)


def parse_face(text: str) -> int:
    """A rank as people write it: ``A``, ``2`` .. ``10`` (or ``T``), ``J``, ``Q``, ``K``, any case."""
    face = _FACE_WORDS.get(str(text).strip().lower())
    if face is None:
        raise BjexactError(f"unknown rank {short(str(text))!r} (use A, 2..10, J, Q, K)")
    return face


def parse_suit(text: str) -> int:
    """A suit: ``spades``, ``hearts``, ``diamonds``, ``clubs``, their first letters or symbols."""
    suit = _SUIT_WORDS.get(str(text).strip().lower())
    if suit is None:
        raise BjexactError(f"unknown suit {short(str(text))!r} (use spades, hearts, diamonds, clubs or S, H, D, C)")
    return suit


def parse_card(text: str) -> Card:
    """A card with its suit: ``QH``, ``Q♥``, ``10s``, ``AS``.

    >>> str(parse_card("qh")), parse_card("10S").index
    ('Q♥', 36)
    """
    body = str(text).strip()
    if len(body) < 2:
        raise BjexactError(f"unknown card {short(body)!r} (a rank and a suit, such as QH, 10S, A♠)")
    return Card(parse_face(body[:-1]), parse_suit(body[-1]))


def _falling(n: int, k: int) -> int:
    """n (n - 1) ... (n - k + 1): the ordered ways to draw k of n cards."""
    return math.perm(n, k) if 0 <= k <= n else 0


@dataclass(frozen=True)
class SuitedShoe:
    """A count of each of the 52 cards (``counts[card.index]``), drawn without replacement, or
    (``replacement``) the infinite deck: one deck's proportions at every draw.

    Build one with :meth:`of_decks`, :meth:`infinite` or :meth:`of_cards`.
    """

    counts: tuple[int, ...]
    replacement: bool = False

    def __post_init__(self) -> None:
        if len(self.counts) != 52 or any(c < 0 for c in self.counts):
            raise BjexactError("a suited shoe needs 52 non-negative counts")
        if not any(self.counts):
            raise BjexactError("the shoe is empty")

    @staticmethod
    def of_decks(decks: int | float) -> SuitedShoe:
        """``decks`` standard decks (a whole number >= 1), or ``math.inf`` for the infinite deck."""
        if decks == math.inf:
            return SuitedShoe.infinite()
        per_card = Shoe.of_decks(decks).counts[0] // 4  # type: ignore[arg-type]  # checks decks, as the game does
        return SuitedShoe((per_card,) * 52)

    @staticmethod
    def infinite() -> SuitedShoe:
        """Every draw is any of the 52 cards with chance 1/52."""
        return SuitedShoe((1,) * 52, replacement=True)

    @staticmethod
    def of_cards(cards: Iterable[Card | str]) -> SuitedShoe:
        """A shoe of exactly these cards (``"QH"`` or :class:`Card`), for small examples and tests."""
        counts = [0] * 52
        for card in cards:
            counts[(card if isinstance(card, Card) else parse_card(card)).index] += 1
        return SuitedShoe(tuple(counts))

    @property
    def infinite_deck(self) -> bool:
        return self.replacement

    @property
    def size(self) -> int:
        """The number of cards (one deck's 52 for the infinite deck, whose draws are in its proportions)."""
        return sum(self.counts)

    @cached_property
    def uniform(self) -> int | None:
        """N when the shoe holds N of every card (N standard decks), else ``None``."""
        first = self.counts[0]
        return first if not self.replacement and all(c == first for c in self.counts) else None

    def count(self, card: Card) -> int:
        return self.counts[card.index]

    @cached_property
    def value_counts(self) -> Counts:
        """The cards per value A, 2, ..., 9, T (the main game's view of this shoe)."""
        values = [0] * 10
        for card, count in zip(CARDS, self.counts):
            values[card.value - 1] += count
        return tuple(values)

    def value_shoe(self) -> FiniteShoe | InfiniteShoe:
        """The main game's shoe of these cards: the infinite deck, or the counts per value."""
        if self.replacement:
            if self.value_counts != (4,) * 9 + (16,):
                raise BjexactError("an infinite deck in other proportions than a standard deck's is not supported")
            return Shoe.infinite()
        return Shoe.of_counts(self.value_counts)

    def less(self, cards: Iterable[Card]) -> SuitedShoe:
        """The shoe without ``cards`` (the infinite deck is unchanged by a draw)."""
        if self.replacement:
            return self
        counts = list(self.counts)
        for card in cards:
            if counts[card.index] == 0:
                raise BjexactError(f"the shoe has no {card} left to remove")
            counts[card.index] -= 1
        return SuitedShoe(tuple(counts))

    def suit_counts(self, suits: frozenset[int]) -> Counts:
        """The cards per value whose suit is one of ``suits``."""
        found = self._suit_counts.get(suits)
        if found is None:
            values = [0] * 10
            for card, count in zip(CARDS, self.counts):
                if card.suit in suits:
                    values[card.value - 1] += count
            found = self._suit_counts[suits] = tuple(values)
        return found

    @cached_property
    def _suit_counts(self) -> dict[frozenset[int], Counts]:
        """:meth:`suit_counts` by the suits asked (a few sets, asked for every hand of the dealer)."""
        return {}

    def all_of_suits_chance(self, dealt: Sequence[int], suits: frozenset[int]) -> mpq:
        """P(every card dealt is of one of ``suits`` | the values dealt), ``dealt`` counting the dealt
        cards per value A..T.

        Given the values, the cards of each value are a uniform draw from that value's cards (the
        drawing rule sees values only), so the chance is a product over values of
        ``falling(of those suits, m) / falling(all of the value, m)`` for ``m`` cards of the value,
        ``(of those suits / all)^m`` for the infinite deck.
        """
        within = self.suit_counts(suits)
        chance = mpq(1)
        for rank in RANKS:
            m = dealt[rank - 1]
            if m:
                n, k = self.value_counts[rank - 1], within[rank - 1]
                chance *= mpq(k, n) ** m if self.replacement else mpq(_falling(k, m), _falling(n, m))
        return chance

    def describe(self) -> str:
        if self.replacement:
            return "infinite deck"
        if self.uniform is not None:
            return f"{self.uniform} deck{'s' if self.uniform != 1 else ''}"
        return f"a shoe of {self.size} cards"
