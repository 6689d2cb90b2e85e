"""Stacked-deck replay: with the deck in a known order, can the player win?

The rules of the contest problem "A No-Win Situation":

- cards 1 and 3 go to the player, 2 and 4 to the dealer;
- the player takes ``k >= 0`` more cards from the top and stops; a player over 21
  loses at once (the dealer does not draw);
- the dealer then draws from the top while the hand is under 17 and stands on 17
  or more (with ``h17`` the dealer also hits a soft 17); a dealer over 21 loses;
- otherwise the higher total wins, and a tie goes to the player (``ties`` may
  instead give it to the dealer or make it a push).

The contest knows no naturals: A K against T A is a tie of 21s, a win under its rule.
``ties="casino"`` settles as a casino does instead: a natural (the first two cards make 21)
beats every other hand, 21s of three or more cards included, two naturals push, and a
dealer natural ends the deal before the player draws (every ``k`` loses to it, ``k = 0``
pushes a player natural); other equal totals push.

Every ``k`` is tried, from 0 until the player busts or the deck cannot give the
player ``k`` cards. Each alternative is built from the original deck, so the
deck and both hands start afresh every time. An alternative where the deck runs
out while the dealer still has to draw is *unsettled*: it is never a win.
Totals follow the one ace rule of :mod:`bjexact.core.hand`; there is no choice to make.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ..core.cards import parse_cards
from ..core.hand import HandValue, hand_value, is_natural
from ..core.rules import Rules
from ..errors import BjexactError

__all__ = ["Card", "Try", "Replay", "TIE_RULES", "parse_deck", "replay", "replay_lines"]

TIE_RULES = ("player", "dealer", "push", "casino")
TieRule = Literal["player", "dealer", "push", "casino"]
CONTEST_TIES = "player"  # the contest's rule, the default

WIN, LOSS, PUSH, UNSETTLED = "win", "loss", "push", "unsettled"


@dataclass(frozen=True, slots=True)
class Card:
    """A card of the deck: its ``label`` as written (upper case, suit kept) and its ``rank`` (1..10)."""

    label: str
    rank: int


@dataclass(frozen=True, slots=True)
class Try:
    """One alternative: the player takes ``hits`` extra cards, then the dealer plays.

    ``result`` is ``"win"``, ``"loss"``, ``"push"`` or ``"unsettled"`` (the deck ran
    out before the dealer finished); ``reason`` says why in a few words.
    """

    hits: int
    player: tuple[Card, ...]
    dealer: tuple[Card, ...]
    player_value: HandValue
    dealer_value: HandValue
    result: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "hits": self.hits,
            "player": [c.label for c in self.player],
            "player_total": self.player_value.total,
            "dealer": [c.label for c in self.dealer],
            "dealer_total": self.dealer_value.total,
            "result": self.result,
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Replay:
    """Every alternative tried for one deck; ``hits`` is the smallest winning ``k`` or ``None``."""

    deck: tuple[Card, ...]
    tries: tuple[Try, ...]

    @property
    def can_win(self) -> bool:
        return self.hits is not None

    @property
    def hits(self) -> int | None:
        return next((t.hits for t in self.tries if t.result == WIN), None)

    def to_json(self) -> dict[str, Any]:
        return {
            "deck": [c.label for c in self.deck],
            "can_win": self.can_win,
            "hits": self.hits,
            "tries": [t.to_json() for t in self.tries],
        }


def parse_deck(text: str) -> tuple[Card, ...]:
    """Cards separated by spaces or commas: A, 2..10, T, J, Q, K in any case, optional suit letter.

    An unknown card raises :class:`BjexactError` naming the card and its position.
    """
    ranks = parse_cards(text, suits=True)
    labels = [t.upper() for t in re.split(r"[\s,]+", text.strip()) if t]
    return tuple(Card(label, rank) for label, rank in zip(labels, ranks, strict=True))


def _settle(player: HandValue, dealer: HandValue, ties: TieRule) -> tuple[str, str]:
    """Result and reason once neither side draws any more (the player is not bust)."""
    if dealer.bust:
        return WIN, "dealer busts"
    if player.total > dealer.total:
        return WIN, "higher total"
    if player.total < dealer.total:
        return LOSS, "dealer's total is higher"
    tie = {"player": WIN, "dealer": LOSS, "push": PUSH, "casino": PUSH}[ties]
    if ties in ("push", "casino"):
        return tie, "tie is a push"
    return tie, f"tie goes to the {ties}" + (", the contest's rule" if ties == CONTEST_TIES else "")


def _settle_naturals(player: tuple[Card, ...], dealer: Sequence[Card]) -> tuple[str, str] | None:
    """The casino's settlement of naturals (two-card 21s), or ``None`` when neither side has one."""
    player_natural = is_natural(tuple(c.rank for c in player))
    dealer_natural = is_natural(tuple(c.rank for c in dealer))
    if player_natural and dealer_natural:
        return PUSH, "two naturals push"
    if dealer_natural:
        return LOSS, "dealer natural"
    if player_natural:
        return WIN, "player natural"
    return None


def play_alternative(deck: Sequence[Card], hits: int, *, h17: bool = False, ties: TieRule = "player") -> Try:
    """The alternative where the player takes ``hits`` extra cards; the deck must hold them."""
    if len(deck) < 4 + hits:
        raise BjexactError(f"the deck has {len(deck)} cards: too few to deal and give the player {hits} more")
    dealer_rules = Rules(decks=1, h17=h17)  # only its dealer_stands() is used
    player = (deck[0], deck[2], *deck[4:4 + hits])
    dealer = [deck[1], deck[3]]
    player_value = hand_value(c.rank for c in player)
    naturals = _settle_naturals(player, dealer) if ties == "casino" else None
    if naturals is not None:  # the deal ends here: nobody draws
        return Try(hits, player, tuple(dealer), player_value, hand_value(c.rank for c in dealer), *naturals)
    if player_value.bust:
        return Try(hits, player, tuple(dealer), player_value, hand_value(c.rank for c in dealer),
                   LOSS, "player busts")
    position = 4 + hits
    dealer_value = hand_value(c.rank for c in dealer)
    while not dealer_rules.dealer_stands(dealer_value) and not dealer_value.bust:
        if position == len(deck):
            return Try(hits, player, tuple(dealer), player_value, dealer_value,
                       UNSETTLED, "deck ran out while the dealer had to draw")
        dealer.append(deck[position])
        dealer_value = hand_value(c.rank for c in dealer)
        position += 1
    result, reason = _settle(player_value, dealer_value, ties)
    return Try(hits, player, tuple(dealer), player_value, dealer_value, result, reason)


def replay(deck: Sequence[Card] | str, *, h17: bool = False, ties: TieRule = "player") -> Replay:
    """Try every number of extra cards for the player, from 0 until a bust or the end of the deck."""
    if isinstance(deck, str):
        deck = parse_deck(deck)
    deck = tuple(deck)
    if ties not in TIE_RULES:
        raise BjexactError(f"unknown tie rule {ties!r} (use {', '.join(TIE_RULES)})")
    if len(deck) < 4:
        raise BjexactError(f"a deal needs at least 4 cards, the deck has {len(deck)}")
    tries = []
    for hits in range(len(deck) - 3):
        attempt = play_alternative(deck, hits, h17=h17, ties=ties)
        tries.append(attempt)
        if attempt.player_value.bust:
            break
    return Replay(deck, tuple(tries))


def replay_lines(lines: Iterable[str], *, source: str = "input", h17: bool = False,
                 ties: TieRule = "player") -> list[Replay]:
    """One deck per line; blank lines and ``#`` comments are skipped.

    A bad line raises :class:`BjexactError` naming ``source``, the line number and the problem.
    """
    replays = []
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0]
        if not text.strip():
            continue
        try:
            replays.append(replay(text, h17=h17, ties=ties))
        except BjexactError as exc:
            raise BjexactError(f"{source}, line {number}: {exc}") from None
    return replays


def replay_text(result: Replay) -> str:
    """The table for people: the deck, a verdict line, then one row per alternative tried."""

    def cards(hand: Sequence[Card]) -> str:
        return " ".join(c.label for c in hand)

    if result.hits is None:
        verdict = "no number of extra cards wins"
    else:
        extra = f"{result.hits} extra card{'s' if result.hits != 1 else ''}"
        total = result.tries[result.hits].player_value.total
        verdict = f"the player wins by taking {extra} and standing on {total}"
    header = ("hits", "player", "total", "dealer", "total", "result")
    rows = [header] + [
        (str(t.hits), cards(t.player), _total(t.player_value), cards(t.dealer), _total(t.dealer_value),
         f"{t.result} ({t.reason})")
        for t in result.tries
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    numeric = (True, False, True, False, True, False)

    def line(row: Sequence[str]) -> str:
        cells = [c.rjust(w) if right else c.ljust(w)
                 for c, w, right in zip(row, widths, numeric, strict=True)]
        return "  ".join(cells).rstrip()

    lines = [f"deck: {cards(result.deck)}", verdict, "", line(header), "  ".join("-" * w for w in widths)]
    lines += [line(row) for row in rows[1:]]
    if any(t.reason.endswith("the contest's rule") for t in result.tries):
        lines += ["", "A tie goes to the player: the contest's rule, two naturals included. In a casino equal",
                  "totals push and a natural beats any other 21: --ties casino."]
    return "\n".join(lines) + "\n"


def _total(value: HandValue) -> str:
    """A total as shown: ``14``, ``soft 18`` (an ace counts 11), ``24`` for a bust."""
    return f"soft {value.total}" if value.soft else str(value.total)
