"""The vocabulary of events a side bet pays on: one documented list of *features* of a deal.

A deal, as a bet sees it (:class:`Deal`), is the player's first two cards, the dealer's up-card
and the dealer's final hand, each present only when the bet sees it. A *feature* reads one thing
of the deal (``dealer.cards``: how many cards the dealer's final hand holds); a
:class:`Condition` is a feature and the values that satisfy it (``dealer.cards`` in {3, 4}). A
pay line holds when all its conditions hold, so combinations of events are lists of conditions.

The features (:data:`FEATURES`, each with its own description):

- the player's two cards, ``hand.*``: ``pair`` (``perfect``, ``coloured``, ``mixed``; ``true``
  any pair, ``false`` none), ``total`` and ``soft`` by the main game's ace rule, ``total_aces_one``,
  ``natural``, ``suited``, ``same_colour``, ``identical`` (same rank and suit), ``each_card`` and
  ``has_card`` (named cards such as ``QH``);
- the up-card, ``upcard.*``: ``value`` (1 or ``A`` the ace, 10 any ten-valued card), ``rank``
  (``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``), ``suit``, ``colour``;
- the player's two cards and the up-card: ``three.hand``, their three-card poker hand
  (:class:`~bjexact.sidebets.first_cards.ThreeCardHand`), and ``match.suited`` / ``match.rank_only``,
  how many of the player's cards are the up-card's rank and suit / its rank in another suit;
- the dealer's final hand, ``dealer.*``: ``bust``, ``total`` (17..21 of a hand that stands; a
  natural's is 21), ``natural``, ``cards`` (how many), ``last_card`` (the value of the card that
  ended the hand: for a bust, the one that busted it), ``all_value`` (every card of this value),
  ``suited`` (every card of one suit, which is the up-card's), ``one_colour``.

Values: a boolean, a whole number or a list of them, a range as text (``"3-4"``, ``"8+"``),
or the names above; each feature says which it takes. Anything else is a :class:`BjexactError`
naming the feature.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass
from enum import StrEnum

from ..core.cards import parse_rank
from ..core.numbers import short
from ..errors import BjexactError
from .dealer import DealerHand, DealerSuits
from .first_cards import PairKind, ThreeCardHand, TwoCards, three_card_hand, up_card_matches
from .suits import FACE_SYMBOLS, SUIT_NAMES, Card, parse_card, parse_face, parse_suit

__all__ = ["Sees", "Deal", "Feature", "FEATURES", "Condition", "condition", "feature_names"]


class Sees(StrEnum):
    """What a feature reads. ``upcard-card`` is the up-card's rank or suit beyond its value;
    ``dealer-suits`` the suits of the dealer's cards."""

    HAND = "hand"
    UPCARD = "upcard"
    UPCARD_CARD = "upcard-card"
    DEALER = "dealer"
    DEALER_SUITS = "dealer-suits"


@dataclass(frozen=True, slots=True)
class Deal:
    """What a bet has seen of one deal: ``hand`` (the player's two cards), ``upcard`` (as a card,
    where the bet sees its rank or suit) and ``dealer`` (the final hand), each ``None`` when unseen."""

    hand: TwoCards | None = None
    upcard: Card | None = None
    dealer: DealerHand | None = None

    @property
    def upcard_value(self) -> int:
        if self.upcard is not None:
            return self.upcard.value
        assert self.dealer is not None, "the up-card's value is read from the up-card or the dealer's hand"
        return self.dealer.upcard


def _hand(deal: Deal) -> TwoCards:
    assert deal.hand is not None
    return deal.hand


def _up(deal: Deal) -> Card:
    assert deal.upcard is not None
    return deal.upcard


def _dealer(deal: Deal) -> DealerHand:
    assert deal.dealer is not None
    return deal.dealer


@dataclass(frozen=True)
class Feature:
    """One thing a bet can read of a deal: its ``name`` (``dealer.cards``), what it ``sees``, the
    kind of values it takes (``kind``: bool, number, value, rank, suit, colour, card, or choice
    among ``choices``), the numbers it can take (``numbers``) and how to ``read`` it."""

    name: str
    sees: frozenset[Sees]
    kind: str
    read: Callable[[Deal], Hashable]
    description: str
    numbers: range = range(0)
    choices: tuple[str, ...] = ()


def _f(name: str, sees: Iterable[Sees], kind: str, read: Callable[[Deal], Hashable], description: str,
       numbers: range = range(0), choices: tuple[str, ...] = ()) -> Feature:
    return Feature(name, frozenset(sees), kind, read, description, numbers, choices)


_HAND, _UP, _UP_CARD = (Sees.HAND,), (Sees.UPCARD,), (Sees.UPCARD, Sees.UPCARD_CARD)
_THREE = (Sees.HAND, Sees.UPCARD, Sees.UPCARD_CARD)
_DEALER, _SUITS = (Sees.DEALER,), (Sees.DEALER, Sees.DEALER_SUITS)

FEATURES: dict[str, Feature] = {f.name: f for f in (
    _f("hand.pair", _HAND, "choice", lambda d: _hand(d).pair,
       "the player's two cards are a pair (one rank): perfect (one suit), coloured (one colour), mixed; "
       "true: any pair, false: no pair", choices=tuple(PairKind)),
    _f("hand.total", _HAND, "number", lambda d: _hand(d).total,
       "the total of the player's two cards by the ace rule (A,9 is 20, A,A is 12)", numbers=range(4, 22)),
    _f("hand.total_aces_one", _HAND, "number", lambda d: _hand(d).total_aces_one,
       "the total of the player's two cards with every ace 1 (A,K is 11)", numbers=range(2, 21)),
    _f("hand.soft", _HAND, "bool", lambda d: _hand(d).soft, "the player's two cards are a soft total (an ace as 11)"),
    _f("hand.natural", _HAND, "bool", lambda d: _hand(d).natural,
       "the player's two cards are an ace and a ten-valued card"),
    _f("hand.suited", _HAND, "bool", lambda d: _hand(d).suited, "the player's two cards are of one suit"),
    _f("hand.same_colour", _HAND, "bool", lambda d: _hand(d).same_colour, "the player's two cards are of one colour"),
    _f("hand.identical", _HAND, "bool", lambda d: _hand(d).identical,
       "the player's two cards are the same card (rank and suit): two decks or more"),
    _f("hand.each_card", _HAND, "card", lambda d: frozenset(_hand(d).cards),
       "each of the player's two cards is one of these cards (QH: both the queen of hearts)"),
    _f("hand.has_card", _HAND, "card", lambda d: frozenset(_hand(d).cards),
       "one of the player's two cards at least is one of these cards"),
    _f("upcard.value", _UP, "value", lambda d: d.upcard_value,
       "the up-card's value: 1 (A) the ace, 2..9, 10 (T) any ten-valued card", numbers=range(1, 11)),
    _f("upcard.rank", _UP_CARD, "rank", lambda d: _up(d).face, "the up-card's rank: A, 2..10, J, Q, K"),
    _f("upcard.suit", _UP_CARD, "suit", lambda d: _up(d).suit, "the up-card's suit: spades, hearts, diamonds, clubs"),
    _f("upcard.colour", _UP_CARD, "colour", lambda d: _up(d).red, "the up-card's colour: red or black"),
    _f("three.hand", _THREE, "choice", lambda d: three_card_hand(*_hand(d).cards, _up(d)),
       "the three-card poker hand of the player's two cards and the up-card (A-2-3 and Q-K-A are straights, "
       "K-A-2 is not)", choices=tuple(ThreeCardHand)),
    _f("match.suited", _THREE, "number", lambda d: up_card_matches(_hand(d), _up(d))[0],
       "how many of the player's two cards are the up-card's rank and suit", numbers=range(0, 3)),
    _f("match.rank_only", _THREE, "number", lambda d: up_card_matches(_hand(d), _up(d))[1],
       "how many of the player's two cards are the up-card's rank in another suit", numbers=range(0, 3)),
    _f("dealer.bust", _DEALER, "bool", lambda d: _dealer(d).bust,
       "the dealer's final hand is a bust (a natural is not)"),
    _f("dealer.total", _DEALER, "number", lambda d: _dealer(d).total,
       "the dealer's final total when it stands, 17..21 (a natural's is 21)", numbers=range(17, 22)),
    _f("dealer.natural", _DEALER, "bool", lambda d: _dealer(d).natural, "the dealer's first two cards are a natural"),
    _f("dealer.cards", _DEALER, "number", lambda d: _dealer(d).size,
       "how many cards the dealer's final hand holds, the up-card's included", numbers=range(2, 27)),
    _f("dealer.last_card", _DEALER, "value", lambda d: _dealer(d).last,
       "the value of the card that ended the dealer's hand (for a bust, the card that busted it)",
       numbers=range(1, 11)),
    _f("dealer.all_value", _DEALER, "value",
       lambda d: next((r + 1 for r, c in enumerate(_dealer(d).cards) if c == _dealer(d).size), None),
       "every card of the dealer's final hand has this value (8: an 8-8-8 bust)", numbers=range(1, 11)),
    _f("dealer.suited", _SUITS, "bool", lambda d: _dealer(d).suits is DealerSuits.SUITED,
       "every card of the dealer's final hand is of one suit (the up-card's)"),
    _f("dealer.one_colour", _SUITS, "bool", lambda d: _dealer(d).suits in (DealerSuits.SUITED, DealerSuits.ONE_COLOUR),
       "every card of the dealer's final hand is of one colour"),
)}


def feature_names() -> tuple[str, ...]:
    return tuple(FEATURES)


@dataclass(frozen=True)
class Condition:
    """A feature and the values that satisfy it. ``each_card``/``has_card`` hold when every / some
    card of the player's two is among ``allowed``; every other feature when its value is."""

    feature: Feature
    allowed: frozenset[Hashable]

    def holds(self, deal: Deal) -> bool:
        return self.accepts(self.feature.read(deal))

    def accepts(self, found: Hashable) -> bool:
        """Whether the feature's value ``found`` satisfies the condition."""
        if self.feature.name == "hand.each_card":
            return isinstance(found, frozenset) and found <= self.allowed
        if self.feature.name == "hand.has_card":
            return isinstance(found, frozenset) and bool(found & self.allowed)
        return found in self.allowed

    def describe(self) -> str:
        """The condition as a TOML line would write it: ``dealer.cards = [3, 4]``."""
        numbers = sorted(v for v in self.allowed if type(v) is int)
        if self.feature.kind in ("number", "value") and len(numbers) == len(self.allowed) > 1:
            return f"{self.feature.name} = {_number_range(self.feature, numbers)}"
        shown = sorted(_show(self.feature, v) for v in self.allowed)
        return f"{self.feature.name} = {shown[0] if len(shown) == 1 else '[' + ', '.join(shown) + ']'}"


def _number_range(feature: Feature, numbers: list[int]) -> str:
    """Numbers as a bet file writes them: ``"8+"`` up to the feature's largest, ``"3-4"``, or a list."""
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        if numbers[-1] == feature.numbers.stop - 1:
            return f'"{numbers[0]}+"'
        return f'"{numbers[0]}-{numbers[-1]}"'
    return "[" + ", ".join(map(str, numbers)) + "]"


def _show(feature: Feature, value: Hashable) -> str:
    if isinstance(value, bool):
        if feature.kind == "colour":
            return '"red"' if value else '"black"'
        return "true" if value else "false"
    if isinstance(value, Card):
        return f'"{FACE_SYMBOLS[value.face - 1]}{SUIT_NAMES[value.suit][0].upper()}"'
    if feature.kind == "rank" and isinstance(value, int):
        return f'"{FACE_SYMBOLS[value - 1]}"'
    if feature.kind == "suit" and isinstance(value, int):
        return f'"{SUIT_NAMES[value]}"'
    if value is None:
        return "false"
    return f'"{value}"' if isinstance(value, str) else str(value)


def condition(name: str, value: object) -> Condition:
    """The condition ``name = value`` as a bet file writes it (``"dealer.cards", "3-4"``); an unknown
    feature or a value it cannot take is a one-line :class:`BjexactError` naming it."""
    feature = FEATURES.get(name)
    if feature is None:
        from difflib import get_close_matches

        close = get_close_matches(name, FEATURES, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise BjexactError(f"unknown event {short(name, 40)!r}{hint}: see 'bjexact sidebet --events'")
    allowed = frozenset(_values(feature, value))
    if not allowed:
        raise BjexactError(f"{name}: an empty list matches nothing")
    return Condition(feature, allowed)


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list) else [value]


def _values(feature: Feature, value: object) -> Iterable[Hashable]:
    name, kind = feature.name, feature.kind
    if kind == "bool":
        if not isinstance(value, bool):
            raise BjexactError(f"{name} takes true or false, not {short(repr(value))}")
        return {value}
    if kind == "choice" and name == "hand.pair" and isinstance(value, bool):
        return set(PairKind) if value else {None}
    if kind == "choice":
        found: set[Hashable] = set()
        for item in _listed(value):
            if not isinstance(item, str) or item not in feature.choices:
                raise BjexactError(f"{name} takes {', '.join(feature.choices)}, not {short(repr(item))}")
            found.add(item)
        return found
    if kind in ("number", "value"):
        return _numbers(feature, value)
    if kind == "rank":
        return {parse_face(str(item)) for item in _listed(value)}
    if kind == "suit":
        return {parse_suit(str(item)) for item in _listed(value)}
    if kind == "colour":
        colours = {"red": True, "black": False}
        for item in _listed(value):
            if item not in colours:
                raise BjexactError(f"{name} takes red or black, not {short(repr(item))}")
        return {colours[str(item)] for item in _listed(value)}
    if kind == "card":
        return {parse_card(str(item)) for item in _listed(value)}
    raise AssertionError(kind)


def _numbers(feature: Feature, value: object) -> set[Hashable]:
    """Whole numbers, lists of them, ``"a-b"`` and ``"a+"`` ranges; card values also ``A``/``T``."""
    found: set[Hashable] = set()
    low, high = feature.numbers.start, feature.numbers.stop - 1
    for item in _listed(value):
        if isinstance(item, bool):
            raise BjexactError(f"{feature.name} takes numbers from {low} to {high}, not {str(item).lower()}")
        if isinstance(item, int):
            numbers = range(item, item + 1)
        elif isinstance(item, str) and feature.kind == "value" and item.strip().upper() in ("A", "T", "J", "Q", "K"):
            rank = parse_rank(item)
            numbers = range(rank, rank + 1)
        elif isinstance(item, str):
            numbers = _range(feature, item.strip(), low, high)
        else:
            raise BjexactError(f"{feature.name} takes numbers from {low} to {high}, not {short(repr(item))}")
        for number in numbers:
            if number not in feature.numbers:
                raise BjexactError(f"{feature.name} is never {number}: it takes numbers from {low} to {high}")
            found.add(number)
    return found


def _range(feature: Feature, text: str, low: int, high: int) -> range:
    try:
        if text.endswith("+"):
            return range(int(text[:-1]), high + 1)
        if "-" in text:
            first, last = text.split("-", 1)
            if int(last) < int(first):
                raise BjexactError(f"{feature.name}: the range {text!r} is empty (write the smaller number first)")
            return range(int(first), int(last) + 1)
        return range(int(text), int(text) + 1)
    except ValueError:
        raise BjexactError(f"{feature.name} takes a number, a list of numbers or a range such as \"3-4\" or \"8+\", "
                           f"not {short(repr(text))}") from None
