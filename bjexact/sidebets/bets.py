"""A side bet: what it sees, when it is settled, and its pay table; the built-in bets by name.

A :class:`SideBet` is a list of :class:`PayLine`: a name, what it pays ("to 1": the stake comes
back too) and the conditions of the deal that it pays on (:mod:`bjexact.sidebets.events`, all of
them must hold). Pay tables list the best line first: each deal is paid by the first line it
matches, and a deal that matches none loses the stake. So "two matches pay both" is a line of
its own, paying the sum.

When a bet is settled (:class:`Settled`) is part of its definition:

- ``before-deal``: the bet is placed before any card is dealt. Where it pays on the dealer's hand,
  the dealer always plays out its hand (even when every player busted or has a natural); a dealer
  natural is not a bust; no other card is known.
- ``after-upcard``: placed once the up-card is seen; only the up-card is known. Under peek (the
  default of the analysis), with an ace or a ten up the dealer has checked for a natural and the
  chances are conditioned on none (the bet is made only when the round goes on).

What a bet sees (:attr:`SideBet.sees`) follows from its conditions: the player's two cards, the
up-card, the dealer's final hand. A bet that sees the player's cards and the dealer's hand is
valued jointly: the player's cards leave the shoe before the dealer draws.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from ..core.numbers import fraction_string, mpq, short
from ..errors import BjexactError
from .events import Condition, Sees, condition

__all__ = ["Settled", "PayLine", "SideBet", "BUILT_IN", "built_in", "pay_line", "pays_text"]


class Settled(StrEnum):
    """When a bet is placed: before the deal, or after the up-card is seen."""

    BEFORE_DEAL = "before-deal"
    AFTER_UPCARD = "after-upcard"


@dataclass(frozen=True)
class PayLine:
    """A line of a pay table: ``name``, ``pays`` (to 1, exact, >= 0) and the ``conditions`` that must all hold."""

    name: str
    pays: mpq
    conditions: tuple[Condition, ...]

    @cached_property
    def sees(self) -> frozenset[Sees]:
        return frozenset().union(*(c.feature.sees for c in self.conditions))

    def describe(self) -> str:
        return ", ".join(c.describe() for c in self.conditions)


def pay_line(name: str, pays: int | str | mpq, conditions: Mapping[str, object]) -> PayLine:
    """A pay line from conditions written as in a bet file: ``{"dealer.bust": True, "dealer.cards": "3-4"}``."""
    if not conditions:
        raise BjexactError(f"line {short(name, 40)!r} has no condition: it would pay on every deal")
    return PayLine(name, mpq(pays), tuple(condition(key, value) for key, value in conditions.items()))


@dataclass(frozen=True)
class SideBet:
    """A side bet: its ``name`` (how it is selected), ``title``, when it is ``settled``, its pay ``lines``
    (best first; a deal matching none loses) and a sentence ``about`` it."""

    name: str
    title: str
    settled: Settled
    lines: tuple[PayLine, ...]
    about: str = ""

    def __post_init__(self) -> None:
        if not self.lines:
            raise BjexactError(f"the bet {self.name!r} has no pay line")
        names = [line.name for line in self.lines]
        for name in names:
            if names.count(name) > 1:
                raise BjexactError(f"the bet {self.name!r} has two lines named {short(name, 40)!r}")
        for line in self.lines:
            if line.pays < 0:
                raise BjexactError(f"line {short(line.name, 40)!r} pays {fraction_string(line.pays)}: pays are "
                                   "to 1 and not negative (a deal that matches no line loses the stake)")
        if self.settled is Settled.AFTER_UPCARD and Sees.UPCARD_CARD in self.needs:
            raise BjexactError(f"the bet {self.name!r} is settled after the up-card, where the up-card is seen "
                               "by its value only: use upcard.value")
        if Sees.DEALER in self.needs and Sees.UPCARD_CARD in self.needs:
            raise BjexactError(f"the bet {self.name!r} sees the dealer's hand and the up-card's rank or suit or "
                               "a three-card hand: with the dealer's hand the up-card is seen by its value "
                               "(upcard.value; dealer.suited for suits)")

    @cached_property
    def needs(self) -> frozenset[Sees]:
        """Everything the bet's conditions read (:class:`~bjexact.sidebets.events.Sees`)."""
        return frozenset().union(*(line.sees for line in self.lines))

    @property
    def sees(self) -> tuple[str, ...]:
        """What the bet sees, for people: ``hand``, ``upcard``, ``dealer`` (the up-card when seen is
        dealt after the player's cards and is the dealer's first card)."""
        parts = [("hand", Sees.HAND), ("upcard", Sees.UPCARD), ("dealer", Sees.DEALER)]
        return tuple(word for word, part in parts if part in self.needs)

    @property
    def first_cards_only(self) -> bool:
        """Whether the bet is settled on the first cards alone (the player's two and the up-card)."""
        return Sees.DEALER not in self.needs and self.settled is Settled.BEFORE_DEAL


def pays_text(pays: mpq) -> str:
    """What a line pays, to 1: ``2.5`` for 5/2 when it is a short decimal, else the fraction."""
    for places in range(4):
        scaled = pays * 10**places
        if scaled.denominator == 1:
            whole = int(scaled)
            return f"{whole // 10**places}.{str(whole % 10**places).rjust(places, '0')}" if places else str(whole)
    return fraction_string(pays)


def _bet(name: str, title: str, settled: Settled, lines: Sequence[tuple[str, int | str, Mapping[str, object]]],
         about: str) -> SideBet:
    return SideBet(name, title, settled, tuple(pay_line(*line) for line in lines), about)


_BEFORE, _AFTER = Settled.BEFORE_DEAL, Settled.AFTER_UPCARD
_BUSTS = {"dealer.bust": True}

_BETS = (
    _bet("buster", "Buster Blackjack", _BEFORE, [
        ("busts with 8 cards or more", 250, {**_BUSTS, "dealer.cards": "8+"}),
        ("busts with 7 cards", 50, {**_BUSTS, "dealer.cards": 7}),
        ("busts with 6 cards", 12, {**_BUSTS, "dealer.cards": 6}),
        ("busts with 5 cards", 4, {**_BUSTS, "dealer.cards": 5}),
        ("busts with 3 or 4 cards", 2, {**_BUSTS, "dealer.cards": "3-4"}),
    ], "Pays when the dealer busts, by the number of cards in the busted hand."),
    _bet("buster-natural", "Buster Blackjack, player-natural bonus", _BEFORE, [
        ("busts with 8 cards or more, player natural", 2000, {**_BUSTS, "dealer.cards": "8+", "hand.natural": True}),
        ("busts with 8 cards or more", 250, {**_BUSTS, "dealer.cards": "8+"}),
        ("busts with 7 cards, player natural", 800, {**_BUSTS, "dealer.cards": 7, "hand.natural": True}),
        ("busts with 7 cards", 50, {**_BUSTS, "dealer.cards": 7}),
        ("busts with 6 cards", 18, {**_BUSTS, "dealer.cards": 6}),
        ("busts with 5 cards", 4, {**_BUSTS, "dealer.cards": 5}),
        ("busts with 3 or 4 cards", 2, {**_BUSTS, "dealer.cards": "3-4"}),
    ], "Buster's second pay table: 7 and 8+ card busts pay more when the player has a natural."),
    _bet("bust", "Bust", _BEFORE, [("the dealer busts", "5/2", _BUSTS)], "Pays 5 to 2 when the dealer busts."),
    _bet("bust-it", "Bust It", _BEFORE, [
        ("8-8-8 suited", 200, {**_BUSTS, "dealer.cards": 3, "dealer.all_value": 8, "dealer.suited": True}),
        ("8-8-8 of one colour", 50, {**_BUSTS, "dealer.cards": 3, "dealer.all_value": 8, "dealer.one_colour": True}),
        ("busts on a third card 6", 15, {**_BUSTS, "dealer.cards": 3, "dealer.last_card": 6}),
        ("busts on a third card 7", 9, {**_BUSTS, "dealer.cards": 3, "dealer.last_card": 7}),
        ("busts on a third card 8", 7, {**_BUSTS, "dealer.cards": 3, "dealer.last_card": 8}),
        ("busts on a third card 9", 5, {**_BUSTS, "dealer.cards": 3, "dealer.last_card": 9}),
        ("busts on a third card ten", 3, {**_BUSTS, "dealer.cards": 3, "dealer.last_card": "T"}),
    ], "Pays when the dealer busts on exactly three cards, by the third card; 8-8-8 pays more."),
    _bet("bet-the-bust", "Bet the Bust", _AFTER, [
        ("busts, ace up", "7/2", {**_BUSTS, "upcard.value": "A"}),
        ("busts, 2 or 3 up", "3/2", {**_BUSTS, "upcard.value": "2-3"}),
        ("busts, 4 to 6 up", 1, {**_BUSTS, "upcard.value": "4-6"}),
        ("busts, 7 up", "5/2", {**_BUSTS, "upcard.value": 7}),
        ("busts, 8 to ten up", 3, {**_BUSTS, "upcard.value": "8-10"}),
    ], "Placed after the up-card is seen; pays when the dealer busts, by the up-card."),
    _bet("21+3", "21+3", _BEFORE, [
        ("straight flush, trips, straight or flush", 9,
         {"three.hand": ["suited-trips", "straight-flush", "trips", "straight", "flush"]}),
    ], "The player's two cards and the up-card as a three-card poker hand."),
    _bet("21+3-suited-trips", "21+3 with suited trips", _BEFORE, [
        ("suited trips", 100, {"three.hand": "suited-trips"}),
        ("straight flush", 35, {"three.hand": "straight-flush"}),
        ("trips", 33, {"three.hand": "trips"}),
        ("straight", 10, {"three.hand": "straight"}),
        ("flush", 5, {"three.hand": "flush"}),
    ], "21+3's table with suited trips: the player's two cards and the up-card as a three-card poker hand."),
    _bet("perfect-pairs", "Perfect Pairs", _BEFORE, [
        ("perfect pair", 25, {"hand.pair": "perfect"}),
        ("coloured pair", 12, {"hand.pair": "coloured"}),
        ("mixed pair", 6, {"hand.pair": "mixed"}),
    ], "Pays when the player's first two cards are a pair."),
    _bet("lucky-ladies", "Lucky Ladies", _BEFORE, [
        ("queen of hearts pair, dealer natural", 1000, {"hand.each_card": "QH", "dealer.natural": True}),
        ("queen of hearts pair", 125, {"hand.each_card": "QH"}),
        ("identical 20", 19, {"hand.total": 20, "hand.identical": True}),
        ("suited 20", 9, {"hand.total": 20, "hand.suited": True}),
        ("any other 20", 4, {"hand.total": 20}),
    ], "Pays on a player's 20; the queen of hearts pair pays more, most with a dealer natural."),
    _bet("match-the-dealer", "Match the Dealer", _BEFORE, [
        ("two suited matches", 38, {"match.suited": 2}),
        ("a suited and an unsuited match", 23, {"match.suited": 1, "match.rank_only": 1}),
        ("two unsuited matches", 8, {"match.rank_only": 2}),
        ("a suited match", 19, {"match.suited": 1}),
        ("an unsuited match", 4, {"match.rank_only": 1}),
    ], "Each of the player's two cards of the up-card's rank pays 4, or 19 of its suit too; two matches pay both."),
    _bet("under-13", "Over/Under 13: under", _BEFORE, [
        ("under 13", 1, {"hand.total_aces_one": "2-12"}),
    ], "The player's two cards total 12 or less, aces counting 1; 13 loses."),
    _bet("over-13", "Over/Under 13: over", _BEFORE, [
        ("over 13", 1, {"hand.total_aces_one": "14+"}),
    ], "The player's two cards total 14 or more, aces counting 1; 13 loses."),
)

BUILT_IN: dict[str, SideBet] = {bet.name: bet for bet in _BETS}
"""The built-in bets by name. Over/Under 13 is two bets, ``under-13`` and ``over-13``, one wager each."""


def built_in(name: str) -> SideBet:
    """The built-in bet ``name`` (any case); an unknown name is a one-line error naming the close ones."""
    bet = BUILT_IN.get(name.strip().lower())
    if bet is None:
        from difflib import get_close_matches

        close = get_close_matches(name.strip().lower(), BUILT_IN, n=2, cutoff=0.5)
        hint = f" (did you mean {' or '.join(close)}?)" if close else ""
        raise BjexactError(f"unknown side bet {short(name, 40)!r}{hint}: 'bjexact sidebet --list' names them, "
                           "or give a bet file (.toml)")
    return bet
