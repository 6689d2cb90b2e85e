"""Cards and shoes.

A card is represented by its *rank*, an int from 1 to 10: 1 is the ace, 10 is
any ten-valued card (ten, jack, queen, king are interchangeable for every
probability in bjexact). ``Counts`` are ten card counts in rank order A, 2, ..., 9, T.

A :class:`Shoe` is either the infinite deck (cards drawn with replacement:
A and 2..9 each 1/13, ten-valued 4/13) or a finite composition drawn without
replacement.
"""

from __future__ import annotations

import re
from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, Sequence, ValuesView
from dataclasses import dataclass
from operator import add
from typing import Any, Generic, TypeVar

from ..errors import BjexactError
from .numbers import mpq, short

__all__ = ["whole_number", "parse_shoe",
    "ACE",
    "TEN",
    "RANKS",
    "check_shoe_holds",
    "ranks_in",
    "RANK_SYMBOLS",
    "MAX_DECKS",
    "MAX_RANK_COUNT",
    "STANDARD_PROBABILITIES",
    "STANDARD_PROPORTIONS",
    "UPCARD_ORDER",
    "Counts",
    "Shoe",
    "InfiniteShoe",
    "FiniteShoe",
    "counts_of",
    "parse_rank",
    "as_rank",
    "rank_key",
    "RankKeyError",
    "RankKeyed",
    "UpcardRows",
    "add_counts",
    "parse_cards",
    "rank_symbol",
]

ACE = 1
TEN = 10
RANKS: tuple[int, ...] = tuple(range(1, 11))
RANK_SYMBOLS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T")

# The most decks in a shoe, and cards of one rank (ten-valued cards of that many decks): beyond
# them the exact numbers only grow, slowly, and Python ints overflow C longs on the way.
MAX_DECKS = 10**6
MAX_RANK_COUNT = 16 * MAX_DECKS
Counts = tuple[int, ...]

_NO_CARDS: Counts = (0,) * 10
_ONE_DECK: Counts = (4,) * 9 + (16,)
# the standard deck's proportions as the smallest whole counts: 1 of each rank, 4 ten-valued cards
STANDARD_PROPORTIONS: Counts = tuple(c // 4 for c in _ONE_DECK)
# P(rank) of a standard deck, which the infinite deck draws with replacement: 1/13 each, ten-valued 4/13
STANDARD_PROBABILITIES: tuple[mpq, ...] = tuple(mpq(c, sum(STANDARD_PROPORTIONS)) for c in STANDARD_PROPORTIONS)
# the order of up-cards in tables and loops: 2..9, then T and A
UPCARD_ORDER: tuple[int, ...] = (2, 3, 4, 5, 6, 7, 8, 9, TEN, ACE)

_SYMBOL_TO_RANK = {
    "a": ACE, "1": ACE, "11": ACE, "ace": ACE,
    **{str(v): v for v in range(2, 10)},
    "t": TEN, "10": TEN, "j": TEN, "q": TEN, "k": TEN,
    "jack": TEN, "queen": TEN, "king": TEN, "ten": TEN,
}
_SUITS = "shdc♠♥♦♣"


def rank_symbol(rank: int) -> str:
    """The one-character symbol of a rank: ``A``, ``2`` .. ``9``, ``T``."""
    return RANK_SYMBOLS[rank - 1]


def parse_rank(text: str, *, suits: bool = False) -> int:
    """Parse a card symbol (A/1/11/Ace, 2..9, T/10/J/Q/K, any case) to its rank.

    With ``suits=True`` a trailing suit letter is allowed (``QS``, ``10h``).

    Examples
    --------
    >>> parse_rank("Q"), parse_rank("a"), parse_rank("10h", suits=True)
    (10, 1, 10)
    """
    key = text.strip().lower()
    if key not in _SYMBOL_TO_RANK and suits and len(key) > 1 and key[-1] in _SUITS:
        key = key[:-1]
    try:
        return _SYMBOL_TO_RANK[key]
    except KeyError:
        raise BjexactError(
            f"unknown card {text!r} (use A, 2..9, T/10/J/Q/K)"
        ) from None


def as_rank(card: int | str) -> int:
    """A rank from an int (1..10, or 11 for an ace) or a card symbol; anything else is an error."""
    if isinstance(card, str):
        return parse_rank(card)
    if isinstance(card, int) and not isinstance(card, bool):
        if 1 <= card <= 10:
            return card
        if card == 11:
            return ACE
    raise BjexactError(f"unknown card {card!r} (use a rank 1..10, 11 for an ace, or A, 2..9, T/J/Q/K)")


class RankKeyError(BjexactError, KeyError):
    """A key that names no card: a ``KeyError`` to mappings (``in`` and ``get`` say no), a
    :class:`BjexactError` with its one-line message to everyone else."""

    def __str__(self) -> str:  # the message as is, not quoted as KeyError would
        return str(self.args[0]) if self.args else ""


def rank_key(key: Any, *, hands: bool = False) -> Any:
    """The one normalisation of keys of tables whose rows are ranks or tuples of ranks.

    A rank (``1``..``10``, ``11`` for an ace) or a card symbol (``"A"``, ``"1"``, ``"T"``,
    ``"10"``, ``"K"``, any case: :func:`as_rank`) becomes its rank; a tuple of them becomes
    the tuple of ranks, element by element. With ``hands`` a tuple is a hand's cards and then
    the up-card, and the cards are put in rank order, as tables of two-card hands store them
    (``(6, 10, 1)`` for T,6 against an ace). Anything else raises :class:`RankKeyError`
    naming the key.

    Examples
    --------
    >>> rank_key("A"), rank_key(11), rank_key("K"), rank_key(("T", "6", 1))
    (1, 1, 10, (10, 6, 1))
    >>> rank_key(("T", "6", "A"), hands=True)
    (6, 10, 1)
    """
    if isinstance(key, tuple):
        ranks = tuple(rank_key(k) for k in key)
        return (*sorted(ranks[:-1]), ranks[-1]) if hands and ranks else ranks
    try:
        return as_rank(key)
    except BjexactError as exc:
        raise RankKeyError(str(exc)) from None


def _rank_keyed(data: Mapping[Any, Any], hands: bool) -> RankKeyed[Any, Any]:
    return RankKeyed(data, hands=hands)


_K = TypeVar("_K")
_V = TypeVar("_V")


class RankKeyed(Mapping[_K, _V]):
    """A read-only mapping keyed by ranks (or tuples of ranks) that accepts card symbols too.

    Stored keys are ranks as ints (``1`` the ace, ``10`` any ten-valued card); a lookup tries
    the key as given, then :func:`rank_key` of it, so ``rows["A"]``, ``rows[1]``, ``rows[11]``
    and ``rows["1"]`` are one row, and ``rows["X"]`` raises :class:`RankKeyError` naming the
    card. With ``hands`` the keys are (a hand's cards in rank order, up-card) and a lookup
    takes the cards in any order (``hands[("T", "6", "A")]`` is ``hands[(6, 10, 1)]``).
    Iteration, ``len`` and equality are those of the stored dict.
    """

    __slots__ = ("_data", "_hands")

    def __init__(self, data: Mapping[_K, _V] | Iterable[tuple[_K, _V]] = (), *, hands: bool = False) -> None:
        self._data: dict[_K, _V] = dict(data)
        self._hands = hands

    def __getitem__(self, key: Any) -> _V:
        try:
            return self._data[key]
        except (KeyError, TypeError):
            pass
        normalised = rank_key(key, hands=self._hands)
        try:
            return self._data[normalised]
        except KeyError:
            raise KeyError(key) from None

    def __contains__(self, key: object) -> bool:
        try:
            self[key]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[_K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __repr__(self) -> str:
        return repr(self._data)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rank_keyed, (self._data, self._hands))


class UpcardRows(Generic[_V]):
    """For frozen dataclasses whose ``rows`` are keyed by up-card: the rows are kept as a
    :class:`RankKeyed` (converted after init), so ``table["A"]``, ``table[1]`` and
    ``table[11]`` are one row; ``upcards`` lists the rows' up-cards in order."""

    rows: Mapping[int, Mapping[str, _V]]

    def __post_init__(self) -> None:
        if not isinstance(self.rows, RankKeyed):
            object.__setattr__(self, "rows", RankKeyed(self.rows))

    @property
    def upcards(self) -> tuple[int, ...]:
        return tuple(self.rows)

    def __getitem__(self, upcard: int | str) -> Mapping[str, _V]:
        return self.rows[rank_key(upcard)]

    # a table reads like the mapping of its rows: up-card rank -> row
    def __len__(self) -> int:
        return len(self.rows)

    def __iter__(self) -> Iterator[int]:
        return iter(self.rows)

    def __contains__(self, upcard: object) -> bool:
        return upcard in self.rows

    def keys(self) -> KeysView[int]:
        return self.rows.keys()

    def items(self) -> ItemsView[int, Mapping[str, _V]]:
        return self.rows.items()

    def values(self) -> ValuesView[Mapping[str, _V]]:
        return self.rows.values()


def parse_cards(text: str, *, suits: bool = False) -> tuple[int, ...]:
    """Parse cards separated by spaces or commas; an unknown card names its position."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    ranks = []
    for position, token in enumerate(tokens, start=1):
        try:
            ranks.append(parse_rank(token, suits=suits))
        except BjexactError:
            raise BjexactError(
                f"unknown card {token!r} at position {position} (use A, 2..9, T/10/J/Q/K)"
            ) from None
    return tuple(ranks)


def counts_of(ranks: Iterable[int]) -> Counts:
    """The ten counts (A, 2, ..., T) of a collection of ranks."""
    counts = [0] * 10
    for rank in ranks:
        counts[rank - 1] += 1
    return tuple(counts)


def ranks_in(counts: Sequence[int]) -> tuple[int, ...]:
    """The ranks of ten counts (A, 2, ..., T), in rank order: the inverse of :func:`counts_of`.

    >>> ranks_in((1, 0, 0, 0, 0, 2, 0, 0, 0, 1))
    (1, 6, 6, 10)
    """
    return tuple(r for r in RANKS for _ in range(counts[r - 1]))


def add_counts(a: Counts, b: Counts) -> Counts:
    return tuple(map(add, a, b))


def check_shoe_holds(counts: Counts, ranks: Iterable[int]) -> None:
    """An error naming the first rank of which a shoe of ``counts`` holds fewer than ``ranks`` have.

    >>> check_shoe_holds((1,) * 10, [1, 1])
    Traceback (most recent call last):
    ...
    bjexact.errors.BjexactError: the shoe does not hold 2 of A
    """
    needed = counts_of(ranks)
    for rank in RANKS:
        if needed[rank - 1] > counts[rank - 1]:
            raise BjexactError(f"the shoe does not hold {needed[rank - 1]} of {rank_symbol(rank)}")


class Shoe:
    """The cards left to draw from: an :class:`InfiniteShoe` or a :class:`FiniteShoe`.

    Build one with :meth:`infinite`, :meth:`of_decks` or :meth:`of_counts`; only a finite shoe
    has ``counts``.
    """

    __slots__ = ()

    @staticmethod
    def infinite() -> InfiniteShoe:
        """The infinite deck: cards drawn with replacement, P(rank) of a standard deck."""
        return InfiniteShoe()

    @staticmethod
    def of_decks(decks: int) -> FiniteShoe:
        """``decks`` standard 52-card decks (4 of each rank, 16 ten-valued cards per deck)."""
        if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
            raise BjexactError(f"the number of decks must be a whole number >= 1, not {short(repr(decks))}")
        if decks > MAX_DECKS:
            raise BjexactError(f"the number of decks is too large: at most {MAX_DECKS:,}, not {short(str(decks))}")
        return FiniteShoe(tuple(decks * c for c in _ONE_DECK))

    @staticmethod
    def of_counts(counts: Sequence[int]) -> FiniteShoe:
        """A custom shoe: ten non-negative whole counts for A, 2, ..., 9, T."""
        counts = tuple(counts)
        if len(counts) != 10:
            raise BjexactError(
                f"a shoe needs 10 counts (A,2,3,4,5,6,7,8,9,T), got {len(counts)}"
            )
        for symbol, count in zip(RANK_SYMBOLS, counts):
            if isinstance(count, bool) or not isinstance(count, int):
                raise BjexactError(f"the count of {symbol} must be a whole number, not {count!r}")
            if count < 0:
                raise BjexactError(f"the count of {symbol} is negative ({count})")
            if count > MAX_RANK_COUNT:
                raise BjexactError(f"the count of {symbol} is too large: at most {MAX_RANK_COUNT:,}, "
                                   f"not {short(str(count))}")
        if sum(counts) == 0:
            raise BjexactError("the shoe is empty")
        return FiniteShoe(counts)

    @property
    def is_infinite(self) -> bool:
        return isinstance(self, InfiniteShoe)

    @property
    def size(self) -> int | float:
        """Number of cards (``inf`` for the infinite deck)."""
        raise NotImplementedError

    def has(self, rank: int) -> bool:
        """Whether a card of ``rank`` can be drawn."""
        raise NotImplementedError

    def remove(self, ranks: Iterable[int]) -> Shoe:
        """The shoe without the given cards; the infinite deck is unchanged."""
        raise NotImplementedError

    def draw_probabilities(self, drawn: Counts = _NO_CARDS) -> tuple[mpq, ...]:
        """P(next card has rank r), r = A..T, after the cards ``drawn`` have left the shoe.

        All ten are zero when no card is left (the shoe is exhausted).
        """
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class InfiniteShoe(Shoe):
    """The infinite deck: every draw has the standard deck's probabilities, whatever was drawn."""

    @property
    def size(self) -> float:
        return float("inf")

    def has(self, rank: int) -> bool:
        return True

    def remove(self, ranks: Iterable[int]) -> InfiniteShoe:
        return self

    def draw_probabilities(self, drawn: Counts = _NO_CARDS) -> tuple[mpq, ...]:
        return STANDARD_PROBABILITIES


@dataclass(frozen=True, slots=True)
class FiniteShoe(Shoe):
    """A shoe of ``counts`` cards per rank (A, 2, ..., 9, T), drawn without replacement."""

    counts: Counts

    @property
    def size(self) -> int:
        return sum(self.counts)

    def has(self, rank: int) -> bool:
        return self.counts[rank - 1] > 0

    def remove(self, ranks: Iterable[int]) -> FiniteShoe:
        left = list(self.counts)
        for rank in ranks:
            if left[rank - 1] == 0:
                raise BjexactError(f"the shoe has no {rank_symbol(rank)} left to remove")
            left[rank - 1] -= 1
        return FiniteShoe(tuple(left))

    def less(self, removed: Counts) -> FiniteShoe:
        """The shoe less the ``removed`` counts; more than it holds is an error."""
        left = tuple(c - r for c, r in zip(self.counts, removed, strict=True))
        if any(c < 0 for c in left):
            raise BjexactError("more cards removed than the shoe holds")
        return FiniteShoe(left)

    def draw_probabilities(self, drawn: Counts = _NO_CARDS) -> tuple[mpq, ...]:
        left = [c - d for c, d in zip(self.counts, drawn)]
        total = sum(left)
        if total <= 0:
            return (mpq(0),) * 10
        return tuple(mpq(n, total) for n in left)


def whole_number(text: str, what: str, *, maximum: int) -> int:
    """A whole number written with ASCII digits (not '²', not 5,000 digits), from 0 to ``maximum``."""
    text = text.strip()
    if not text.isascii() or not text.isdigit():
        raise BjexactError(f"{what} must be a whole number, not {short(text)!r}")
    if len(text.lstrip("0")) > len(str(maximum)) or int(text) > maximum:
        raise BjexactError(f"{what} is too large: at most {maximum:,}, not {short(text)}")
    return int(text)


def parse_shoe(text: str) -> tuple[int, ...]:
    """The ten counts A,2,...,9,T of a ``--shoe`` text such as ``"4,4,4,4,4,4,4,4,4,16"``."""
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    if len(parts) > 10 and not any(parts[10:]):
        raise BjexactError(f"--shoe {text!r} ends with a comma: give exactly 10 counts A,2,3,4,5,6,7,8,9,T")
    for position, part in enumerate(parts[:10]):
        if not part:
            raise BjexactError(f"--shoe: count {position + 1} of {text!r} is empty: give 10 counts A,2,...,9,T")
    counts = []
    for symbol, part in zip("A23456789T", parts):
        counts.append(whole_number(part, f"--shoe: the count of {symbol}", maximum=MAX_RANK_COUNT))
    if len(parts) != 10:
        raise BjexactError(f"--shoe needs 10 counts (A,2,3,4,5,6,7,8,9,T), got {len(parts)}")
    return tuple(counts)
