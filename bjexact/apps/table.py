"""A console blackjack game with chips and the exact value of every move at every decision.

The table
    ``decks`` 52-card decks (``♠ ♥ ♦ ♣``), shuffled by ``random.Random(seed)`` (a seed
    makes the game reproducible). Before a hand the shoe is reshuffled once the
    fraction ``penetration`` of it has been dealt (or fewer than :data:`MIN_CUT` cards
    are left); should it run dry in a hand all the same, every card not on the table
    is reshuffled. The player stakes whole chips, from the table minimum to its
    maximum (and the balance), then gets two cards, the dealer an up-card and, under
    ``peek``, a hole card (``enhc``: the dealer's second card is drawn after the
    player has played). Everything else follows the :class:`~bjexact.core.rules.GameRules`:
    doubling (which totals, soft or not, after splitting), splitting and resplitting
    up to ``split_hands`` hands (aces once unless ``rsa``, one card each unless
    ``hit_split_aces``, doubled only with ``double_split_aces``; a split hand's 21 is
    not a blackjack), doubling a hand of more cards with ``double_after_hit``, a
    Charlie (a hand of ``charlie`` cards, not bust, stops and wins 1:1 unless the
    dealer has blackjack; a soft 21 short of it may still hit), late or early
    surrender, the dealer's peek with a ten or an ace up, the blackjack payout, the
    dealer's soft 17. Split hands are played one after the other, each receiving its
    second card when its turn comes. With an ace up the player is offered insurance
    (half the stake, paid 2:1 when the hole card is a ten) or, holding a blackjack,
    even money. Under ``enhc`` a dealer blackjack takes every bet on the table
    (doubles and splits), with ``obo`` the original stake only. Leaving in the middle
    of a hand (q, end of input, Ctrl-C) forfeits what is on the table.

What the values are (per chip; chips = bet x value)
    Every value is exact and computed for the cards the player has not seen: the
    shoe plus the dealer's hole card, with the cards on the table (every hand's,
    the up-card) removed. A move's value is the expected net result of that hand,
    per chip of its bet before the move, with the best play after it
    (:func:`bjexact.player.hand_moves`, composition-dependent). Under ``peek`` with
    a ten or an ace up the dealer has already checked, so the values are
    conditioned on no dealer blackjack; the early-surrender offer comes before the
    check and its two values ("surrender", and "play on": the best other move) are
    unconditional, dealer blackjacks included, as are all values under ``enhc``.
    Insurance and even money: the value of the side bet per chip of the stake,
    ``(3 P(ten) - 1) / 2``, and even money's ``1`` against ``(1 - P(ten)) x`` the
    payout, P(ten) that of the hole card for the unseen cards (insuring can pay in a
    shoe short of small cards).

Inside a split
    A split hand's values are those of that hand alone, per chip of its bet, for
    the cards unseen at the time of the decision (every hand's cards so far
    removed). Standing, hitting and doubling are exact for that hand: the hands
    played after it draw by stopping rules of their own, which leave the dealer's
    cards distributed as if they had not been drawn. Splitting at the deal and
    resplitting take the engine's split values for the cards unseen now (CDZ-:
    the new hands are valued playing the unsplit strategy for their cards; CDP1
    and CDP with ``split_strategy``), with as many hands as the rules still allow
    counting the hands on the table now. A resplit is valued as a fresh split in
    the current shoe: the pair cards of hands already on the table count as
    removed cards only (CDP does not count them among the "other split hands"),
    and hands still waiting for their second card are not foreseen to use up
    resplits. The hands are played by the player, move by move, with these
    values shown: the split values are a model of the play to come, not a
    promise about it. Under ``enhc`` with ``obo`` the values inside a split count the
    original stake's loss to a dealer blackjack against each hand: a constant that
    changes no choice and no cost.

Costs
    After a move that is not the best the game says what it cost: the difference
    of the two values times the bet, an exact expected number of chips. The
    session's summary adds them up: the expected result of the decisions made
    against the best ones.

:class:`Game` runs a session over two callables, ``read(prompt) -> str | None``
(``None`` at the end of input) and ``write(line)``, and optionally ``log(event)``
(one JSON-ready dict per event: the session, each shuffle, each hand with its
cards, answers and the values of every decision as ``"p/q"``, the end);
:func:`read_log` turns such a log back into a :class:`Game` that replays it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..core.cards import ACE, TEN, Counts, add_counts, counts_of
from ..core.hand import HandValue, hand_value
from ..core.hand import is_natural as hand_is_natural
from ..core.numbers import as_rational, fraction_string, mpq, parse_fraction
from ..core.rules import GameRules
from ..core.settlement import hand_result, payout
from ..errors import BjexactError
from ..player.game import MoveValues, even_money, hand_moves, insurance_value
from ..player.values import OPTIMAL_FOR_ONE_HAND
from ..render.tables import NumberStyle

__all__ = [
    "FACES",
    "SUITS",
    "Advice",
    "DealingShoe",
    "Decision",
    "Game",
    "GameConfig",
    "PlayingCard",
    "Settlement",
    "card",
    "chips_text",
    "early_surrender_advice",
    "first_differing_hand",
    "insurance_advice",
    "is_natural",
    "move_advice",
    "parse_move",
    "parse_stake",
    "read_log",
    "settle",
    "unseen_rules",
    "value_of",
]

FACES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: tuple[str, ...] = ("♠", "♥", "♦", "♣")
RED_SUITS = frozenset("♥♦")
_FACE_RANK = {face: min(n, TEN) for n, face in enumerate(FACES, start=1)}
# Reshuffle before a hand with fewer cards than this left, whatever the penetration. A hand
# without splits never needs more (see ``DealingShoe.cut``); split hands rarely do, and if the
# shoe runs dry every card not on the table is reshuffled.
MIN_CUT = 20
_HALF = mpq(1, 2)
_ZERO = mpq(0)
LOG_VERSION = 1


@dataclass(frozen=True, slots=True)
class PlayingCard:
    """A card: its ``face`` (``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``) and ``suit`` (``♠♥♦♣``)."""

    face: str
    suit: str = "♠"

    @property
    def rank(self) -> int:
        """1 (ace) .. 10 (ten-valued)."""
        return _FACE_RANK[self.face]

    @property
    def label(self) -> str:
        return f"{self.face}{self.suit}"

    @property
    def red(self) -> bool:
        return self.suit in RED_SUITS


def card(text: str) -> PlayingCard:
    """The card written ``text``: a face with an optional suit (``10``, ``Q♥``, ``A♣``; default ``♠``)."""
    face, suit = (text[:-1], text[-1]) if text[-1:] in SUITS else (text, "♠")
    if face not in _FACE_RANK:
        raise BjexactError(f"{text[:20]!r} is not a card (A, 2-10, J, Q, K with a suit ♠♥♦♣)")
    return PlayingCard(face, suit)


def ranks_of(cards: Iterable[PlayingCard]) -> tuple[int, ...]:
    return tuple(c.rank for c in cards)


def value_of(cards: Sequence[PlayingCard]) -> HandValue:
    return hand_value(ranks_of(cards))


def is_natural(cards: Sequence[PlayingCard]) -> bool:
    """An ace and a ten-valued card as the first two cards (of a hand that was not split)."""
    return hand_is_natural(ranks_of(cards))


# --- configuration ------------------------------------------------------------------------


@dataclass(frozen=True)
class GameConfig:
    """The table: ``rules`` (whole decks, 1 to 8), starting ``chips``, ``seed`` (``None``:
    unpredictable), ``hints`` (exact advice on or off), the table minimum and maximum stake
    (``max_bet`` ``None``: the balance), and the ``penetration`` (the fraction of the shoe
    dealt before it is reshuffled)."""

    rules: GameRules = field(default_factory=lambda: GameRules(decks=1))
    chips: int = 100
    seed: int | None = None
    hints: bool = True
    min_bet: int = 1
    max_bet: int | None = None
    penetration: Any = mpq(3, 4)

    def __post_init__(self) -> None:
        rules = self.rules
        if rules.shoe is not None or not isinstance(rules.decks, int) or not 1 <= rules.decks <= 8:
            raise BjexactError(f"--decks must be a whole number from 1 to 8 for play, not {rules.decks!r}")
        if rules.split_strategy == "optimal":  # a hint would value a split under perfect play: minutes
            raise BjexactError(OPTIMAL_FOR_ONE_HAND)
        if isinstance(self.chips, bool) or not isinstance(self.chips, int) or self.chips < 1:
            raise BjexactError(f"--chips must be a whole number >= 1, not {self.chips!r}")
        if isinstance(self.min_bet, bool) or not isinstance(self.min_bet, int) or self.min_bet < 1:
            raise BjexactError(f"--min-bet must be a whole number >= 1, not {self.min_bet!r}")
        if self.min_bet > self.chips:
            raise BjexactError(f"--min-bet {self.min_bet} is more than the {self.chips} chips you start with (--chips)")
        if self.max_bet is not None and (isinstance(self.max_bet, bool) or not isinstance(self.max_bet, int)
                                         or self.max_bet < self.min_bet):
            raise BjexactError(f"--max-bet must be a whole number >= --min-bet ({self.min_bet}), not {self.max_bet!r}")
        try:
            penetration = as_rational(self.penetration)
        except (ValueError, TypeError, ZeroDivisionError):
            raise BjexactError(f"--penetration must be a fraction such as 0.75, not {self.penetration!r}") from None
        if not 0 < penetration <= 1:
            raise BjexactError(f"--penetration must be above 0 and at most 1 (the fraction of the shoe dealt), "
                               f"not {fraction_string(penetration)}")
        object.__setattr__(self, "penetration", penetration)

    @property
    def decks(self) -> int:
        assert isinstance(self.rules.decks, int)
        return self.rules.decks

    def to_json(self) -> dict[str, Any]:
        return {"rules": self.rules.to_json(), "chips": self.chips, "seed": self.seed, "hints": self.hints,
                "min_bet": self.min_bet, "max_bet": self.max_bet, "penetration": fraction_string(self.penetration)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameConfig:
        rules = dict(data["rules"])
        rules.pop("shoe", None)
        return cls(rules=GameRules.from_json(rules), chips=data["chips"], seed=data["seed"], hints=data["hints"],
                   min_bet=data["min_bet"], max_bet=data["max_bet"], penetration=parse_fraction(data["penetration"]))


# --- the shoe -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DealingShoe:
    """The cards left to deal, top first, from a shoe of ``decks`` decks."""

    cards: tuple[PlayingCard, ...]
    decks: int

    @staticmethod
    def full(decks: int) -> list[PlayingCard]:
        return [PlayingCard(face, suit) for face in FACES for suit in SUITS for _ in range(decks)]

    @classmethod
    def shuffled(cls, decks: int, rng: random.Random, held: Sequence[PlayingCard] = ()) -> DealingShoe:
        """A shuffled shoe of ``decks`` decks less the cards ``held`` (on the table)."""
        cards = cls.full(decks)
        for c in held:
            cards.remove(c)
        rng.shuffle(cards)
        return cls(tuple(cards), decks)

    @property
    def size(self) -> int:
        """The number of cards of the full shoe."""
        return 52 * self.decks

    @property
    def cut(self) -> int:
        """The least number of cards left before a hand: at least :data:`MIN_CUT`.

        A hand without splits rarely needs more: with one deck the cards of both
        hands but the dealer's last one add up to at most 21 + 16 = 37 (aces as 1),
        at most 15 cards (A A A A 2 2 2 2 3 3 3 3 4 4 4); with more decks a hand of
        aces and twos can need a few more. Should the shoe run dry in a hand all
        the same, the cards not on the table are reshuffled (see the module docstring).
        """
        return MIN_CUT

    def needs_shuffle(self, penetration: mpq) -> bool:
        """Whether to reshuffle before the next hand: ``penetration`` of the shoe dealt, or too few left."""
        return len(self.cards) < self.cut or self.size - len(self.cards) >= penetration * self.size

    @property
    def counts(self) -> Counts:
        return counts_of(ranks_of(self.cards))

    def draw(self) -> tuple[PlayingCard, DealingShoe]:
        if not self.cards:
            raise BjexactError("the shoe is empty")
        return self.cards[0], DealingShoe(self.cards[1:], self.decks)


# --- settling -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Settlement:
    """How a hand ends: ``outcome`` (``blackjack``, ``win``, ``push``, ``loss``, ``surrender``),
    the chips won or lost (``net``, exact) and one line saying why."""

    outcome: str
    net: mpq
    reason: str


def settle(player: Sequence[PlayingCard], dealer: Sequence[PlayingCard], stake: Any, bj_pays: Any = "3/2", *,
           split: bool = False, charlie: int | None = None) -> Settlement:
    """Settle a finished hand: the player's cards, the dealer's (all of them) and the bet on it.

    Naturals count only as the first two cards of a hand that was not ``split``. A
    bust player loses whatever the dealer holds; a dealer natural takes the bet. With
    ``charlie`` (the rules' number of cards) a hand of that many cards, not bust, wins 1:1
    against anything but a dealer natural.
    """
    stake_q = mpq(stake)
    you, them = value_of(player), value_of(dealer)
    player_natural, dealer_natural = is_natural(player) and not split, is_natural(dealer)
    is_charlie = charlie is not None and len(player) >= charlie and not you.bust
    result = hand_result(you, them, player_natural=player_natural, dealer_natural=dealer_natural, charlie=is_charlie)
    net = stake_q * payout(result, as_rational(bj_pays))
    if result == "natural":
        return Settlement("blackjack", net, "blackjack")
    if you.bust:
        reason = f"bust with {you.total}"
    elif player_natural or dealer_natural:
        reason = "both have blackjack" if result == "push" else "the dealer has blackjack"
    elif is_charlie:
        reason = f"a {len(player)}-card Charlie"
    elif them.bust:
        reason = f"the dealer busts with {them.total}"
    elif result == "win":
        reason = f"{you.total} beats {them.total}"
    elif result == "loss":
        reason = f"the dealer's {them.total} beats {you.total}"
    else:
        reason = f"both have {you.total}"
    return Settlement(result, net, reason)


# --- advice -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """The exact values of the moves open at one decision (per chip of the bet), in the order
    offered, and what they are conditioned on (``note``). ``best``: the largest (ties: the
    earlier move)."""

    values: Mapping[str, mpq]
    note: str = ""

    @property
    def best(self) -> str:
        moves = list(self.values)
        return max(moves, key=lambda m: (self.values[m], -moves.index(m)))

    def cost(self, move: str) -> mpq:
        """How much less than the best move ``move`` is worth, per chip (0 for the best move)."""
        return self.values[self.best] - self.values[move]


def unseen_rules(rules: GameRules, seen: Sequence[int], unseen: Counts, split_hands: int | None = None) -> GameRules:
    """``rules`` for a shoe of the ``unseen`` cards plus the ``seen`` ones (a hand's cards, the
    up-card), which :func:`hand_moves` removes again; ``split_hands``: the most hands a split
    may still make (1: none)."""
    changes: dict[str, Any] = {"decks": None, "shoe": add_counts(unseen, counts_of(seen))}
    if split_hands is not None:
        changes.update(split_hands=split_hands, rsa=rules.rsa and split_hands >= 3)
    return replace(rules, **changes)


def _hand_values(rules: GameRules, cards: Sequence[int], upcard: int, unseen: Counts,
                 split_hands: int | None) -> MoveValues:
    return hand_moves(unseen_rules(rules, [*cards, upcard], unseen, split_hands), tuple(cards), upcard)


def move_advice(rules: GameRules, cards: Sequence[int], upcard: int, unseen: Counts, allowed: Sequence[str], *,
                split_hands: int | None = None, note: str = "") -> Advice:
    """The values of the ``allowed`` moves of the hand ``cards`` (ranks) against ``upcard``, for the
    ``unseen`` cards (shoe and hole card): :meth:`MoveValues.value` of :func:`hand_moves` for a shoe
    of exactly those cards. ``split_hands``: the most hands a split may still make."""
    moves = _hand_values(rules, cards, upcard, unseen, split_hands)
    return Advice({m: moves.value(m) for m in allowed if m in moves.w}, note)


def early_surrender_advice(rules: GameRules, cards: Sequence[int], upcard: int, unseen: Counts,
                           allowed: Sequence[str]) -> Advice:
    """Surrender before the dealer checks (-1/2) or play on: the best of the ``allowed`` other
    moves, unconditional (a dealer blackjack found by the check takes the stake)."""
    moves = _hand_values(rules, cards, upcard, unseen, None)
    play_on = max(moves.unconditional(m) for m in allowed if m in moves.w and m != "surrender")
    return Advice({"surrender": -_HALF, "play on": play_on},
                  "before the dealer checks: dealer blackjacks included; play on = the best move after the check")


def insurance_advice(rules: GameRules, cards: Sequence[int], unseen: Counts) -> Advice:
    """With an ace up: insuring (the side bet's value per chip of the stake) against not, or, with a
    blackjack, even money (1) against none ((1 - P(ten)) x the payout); P(ten) for the ``unseen`` cards."""
    shoe_rules = unseen_rules(rules, [*cards, ACE], unseen)
    if hand_is_natural(tuple(cards)):
        values = even_money(shoe_rules)
        return Advice({"even money": values["even money"], "no even money": values["no insurance"]},
                      "per chip of the stake")
    return Advice({"insure": insurance_value(shoe_rules, tuple(cards)), "no insurance": _ZERO},
                  "the side bet alone, per chip of the stake: (3 P(ten) - 1)/2")


# --- reading the player's answers -----------------------------------------------------------


def parse_stake(text: str, balance: mpq, last: int | None = None, minimum: int = 1, maximum: int | None = None) -> int:
    """A stake: a whole number of chips from ``minimum`` to ``maximum`` and the balance; empty repeats ``last``."""
    text = text.strip()
    top = int(balance) if maximum is None else min(int(balance), maximum)
    if not text:
        if last is not None and minimum <= last <= top:
            return last
        raise BjexactError("type a number of chips")
    if text.startswith("-") and text[1:].strip().isdigit():
        raise BjexactError("a stake cannot be negative")
    if not text.isascii() or not text.isdigit():
        raise BjexactError(f"{text[:20]!r} is not a whole number of chips")
    if len(text.lstrip("0")) > 30:  # int() of thousands of digits is slow or refused
        raise BjexactError(f"you have only {chips_text(balance)} chips")
    stake = int(text)
    if stake < minimum:
        raise BjexactError(f"the table minimum is {minimum} chip{'s' if minimum > 1 else ''}")
    if stake > balance:
        raise BjexactError(f"you have only {chips_text(balance)} chips")
    if maximum is not None and stake > maximum:
        raise BjexactError(f"the table maximum is {maximum} chips")
    return stake


MOVE_KEYS = {"stand": "s", "hit": "h", "double": "d", "split": "p", "surrender": "r"}
_MOVE_WORDS = {**{key: move for move, key in MOVE_KEYS.items()}, **{move: move for move in MOVE_KEYS},
               "q": "quit", "quit": "quit"}


def parse_move(text: str, allowed: Sequence[str] = ("hit", "stand")) -> str | None:
    """A move of ``allowed`` (or ``quit``) from its name or key (s h d p r q, any case); ``None`` otherwise."""
    move = _MOVE_WORDS.get(text.strip().lower())
    return move if move == "quit" or move in allowed else None


# --- formatting ---------------------------------------------------------------------------


def chips_text(value: Any) -> str:
    """A number of chips: ``95``, ``107.5``; a fraction with no finite decimal as ``p/q``."""
    value = mpq(value)
    q, twos, fives = value.denominator, 0, 0
    while q % 2 == 0:
        q, twos = q // 2, twos + 1
    while q % 5 == 0:
        q, fives = q // 5, fives + 1
    if q != 1:
        return fraction_string(value)
    return NumberStyle(decimals=max(twos, fives), percent=False).plain(value)


def _signed(value: mpq, places: int = 5) -> str:
    text = NumberStyle(decimals=places, percent=False, signed=True).plain(value)
    return text if text[:1] in "+-" else "+" + text  # zero too, to keep the column aligned


def _approx(value: mpq) -> str:
    return NumberStyle(decimals=3, percent=False).plain(value)


def _total(cards: Sequence[PlayingCard], split: bool = False) -> str:
    value = value_of(cards)
    if is_natural(cards) and not split:
        return "blackjack"
    if value.bust:
        return f"bust, {value.total}"
    return f"soft {value.total}" if value.soft else str(value.total)


_DOING = {"stand": "Standing", "hit": "Hitting", "double": "Doubling", "split": "Splitting",
          "surrender": "Surrendering", "play on": "Playing on", "insure": "Insuring",
          "no insurance": "Declining insurance", "even money": "Taking even money",
          "no even money": "Declining even money"}


def advice_lines(advice: Advice) -> list[str]:
    """The values as shown before a decision, the best marked."""
    lines = [f"  Exact values per chip bet{f' ({advice.note})' if advice.note else ''}:"]
    width = max(len(m) for m in advice.values)
    for move, value in advice.values.items():
        mark = "   <- best" if move == advice.best else ""
        lines.append(f"    {move:<{width}}  {_signed(value)}  = {fraction_string(value)}{mark}")
    return lines


def regret_line(advice: Advice, move: str, bet: Any) -> str | None:
    """After ``move``: ``None`` if it was the best, else what it cost (per chip, exact, and in chips)."""
    cost = advice.cost(move)
    if cost <= 0:
        return None
    return (f"  {_DOING.get(move, move)} was not the best move: {advice.best} was worth {_signed(cost)} more "
            f"per chip\n  (exact {fraction_string(cost)}), {_approx(cost * bet)} chips on your bet of "
            f"{chips_text(bet)}.")


# --- the session --------------------------------------------------------------------------

Reader = Callable[[str], "str | None"]
Writer = Callable[[str], None]
Logger = Callable[[dict[str, Any]], None]


class _Quit(Exception):
    """The player asked to leave (q, end of input or Ctrl-C)."""

    def __init__(self, how: str):
        super().__init__(how)
        self.how = how


@dataclass
class SeatHand:
    """One of the player's hands in a round (several after splitting): its cards, the bet on it, the
    pair it was split from (``None``: not split) and whether it is finished or surrendered."""

    cards: list[PlayingCard]
    bet: int
    pair: int | None = None
    doubled: bool = False
    surrendered: bool = False


@dataclass(frozen=True)
class Decision:
    """A decision made: which hand (1-based), its cards, the up-card, what was asked (``move``,
    ``insurance``, ``even money``, ``early surrender``), the advice (``None``: hints off), the
    answer and the bet the values are per chip of."""

    hand: int
    cards: tuple[PlayingCard, ...]
    upcard: PlayingCard
    kind: str
    advice: Advice | None
    chosen: str
    bet: int

    @property
    def cost(self) -> mpq:
        """What the choice cost, in chips (expected): 0 for the best move or without advice."""
        return _ZERO if self.advice is None else self.advice.cost(self.chosen) * self.bet

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hand": self.hand, "kind": self.kind, "cards": [c.label for c in self.cards],
                               "upcard": self.upcard.label, "bet": self.bet, "chosen": self.chosen}
        if self.advice is not None:
            out.update(values={m: fraction_string(v) for m, v in self.advice.values.items()},
                       best=self.advice.best, cost=fraction_string(self.cost))
        return out


class Game:
    """One session at the table: stakes, rounds, settlements, until the player leaves or cannot cover
    the table minimum. ``shoes``: the shuffles to deal (a replay); default ``random.Random(seed)``."""

    def __init__(self, config: GameConfig, read: Reader, write: Writer, *, log: Logger | None = None,
                 shoe: DealingShoe | None = None, shoes: Iterator[DealingShoe] | None = None, colour: bool = False,
                 advisor: Callable[[Callable[[], Advice]], Advice] | None = None):
        """``advisor(compute)``: how advice is computed (the command line adds a spinner); ``shoe``: the
        first shoe to deal from."""
        self.config = config
        self.rules = config.rules
        self.read = read
        self.write = write
        self.log = log
        self.colour = colour
        self.advisor = advisor or (lambda compute: compute())
        self.rng = random.Random(config.seed)
        self.shoes = shoes
        self.balance = mpq(config.chips)
        self.hands = 0
        self.last_stake: int | None = None
        self.on_table = _ZERO  # the bets of a round not yet settled
        self.decisions: list[Decision] = []
        self.answers: list[str] = []
        self.advice_failed = False
        # the round being played
        self.seat: list[SeatHand] = []
        self.dealer: list[PlayingCard] = []
        self.round_decisions: list[Decision] = []
        self.net = _ZERO
        if self.log is not None:
            self.log({"event": "session", "version": LOG_VERSION, **config.to_json()})
        if shoe is None:
            shoe = self.new_shoe(())
        elif self.log is not None:
            self.log({"event": "shuffle", "held": [], "cards": [c.label for c in shoe.cards]})
        self.shoe = shoe

    # -- input ---------------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        try:
            answer = self.read(prompt)
        except EOFError:
            answer = None
        if answer is None:
            raise _Quit("end of input")
        self.answers.append(answer)
        if answer.strip().lower() in ("q", "quit"):
            raise _Quit("q")
        return answer

    def ask_stake(self) -> int:
        config = self.config
        top = int(self.balance) if config.max_bet is None else min(int(self.balance), config.max_bet)
        last = self.last_stake
        default = f", Enter = {last}" if last is not None and config.min_bet <= last <= top else ""
        while True:
            answer = self.ask(f"Stake ({config.min_bet}-{top}{default}, q to quit): ")
            try:
                return parse_stake(answer, self.balance, last, config.min_bet, config.max_bet)
            except BjexactError as exc:
                self.write(f"  {exc}; try again.")

    def ask_move(self, allowed: Sequence[str]) -> str:
        names = ", ".join(allowed[:-1]) + f" or {allowed[-1]}"
        keys = "/".join(MOVE_KEYS[m] for m in allowed)
        while True:
            move = parse_move(self.ask(f"{names[0].upper()}{names[1:]}? [{keys}, q to quit]: "), allowed)
            if move is not None:
                return move
            self.write(f"  Type {', '.join(MOVE_KEYS[m] + ' (' + m + ')' for m in allowed)} or q to quit.")

    def ask_yes_no(self, question: str) -> bool:
        while True:
            answer = self.ask(f"{question} [y/n, q to quit]: ").strip().lower()
            if answer in ("y", "yes", "n", "no"):
                return answer.startswith("y")
            self.write("  Type y (yes), n (no) or q to quit.")

    # -- cards ---------------------------------------------------------------------------

    def show(self, c: PlayingCard) -> str:
        return f"\x1b[31m{c.label}\x1b[0m" if self.colour and c.red else c.label

    def hand_text(self, cards: Sequence[PlayingCard], split: bool = False) -> str:
        return f"{' '.join(self.show(c) for c in cards)}  ({_total(cards, split)})"

    def new_shoe(self, held: Sequence[PlayingCard]) -> DealingShoe:
        """A freshly shuffled shoe less the cards ``held``: the next of ``shoes``, or shuffled now."""
        decks = self.config.decks
        if self.shoes is None:
            shoe = DealingShoe.shuffled(decks, self.rng, held)
        else:
            logged = next(self.shoes, None)
            if logged is None:
                raise BjexactError("the log has no more shuffles")
            shoe = logged
            expected = DealingShoe.full(decks)
            for c in held:
                expected.remove(c)
            if sorted(shoe.cards, key=lambda c: c.label) != sorted(expected, key=lambda c: c.label):
                raise BjexactError(f"a shuffle in the log is not {decks} deck{'s' if decks > 1 else ''} "
                                   "less the cards on the table")
        if self.log is not None:
            self.log({"event": "shuffle", "held": [c.label for c in held], "cards": [c.label for c in shoe.cards]})
        return shoe

    def draw(self, table: Sequence[PlayingCard]) -> PlayingCard:
        if not self.shoe.cards:
            self.write("  The shoe is empty: every card not on the table is reshuffled.")
            self.shoe = self.new_shoe(table)
        dealt, self.shoe = self.shoe.draw()
        return dealt

    # -- the session ---------------------------------------------------------------------

    def run(self) -> mpq:
        """Play until the player quits or cannot cover the table minimum; print the summary and
        return the final balance."""
        rules = self.rules
        self.write(f"Blackjack: {rules.describe()}.")
        limits = f"stakes {self.config.min_bet} to " + (
            str(self.config.max_bet) if self.config.max_bet is not None else "your balance")
        size = 52 * self.config.decks
        floor = f" (or fewer than {MIN_CUT} cards are left)" if size - self.config.penetration * size < MIN_CUT else ""
        self.write(f"{limits}; the shoe is reshuffled once {_percent(self.config.penetration)} of it is "
                   f"dealt{floor}; exact advice {'on' if self.config.hints else 'off'}.")
        how = "q"
        try:
            while self.balance >= self.config.min_bet:
                self.play_round()
            self.write(f"You cannot cover the table minimum of {self.config.min_bet} "
                       f"chip{'s' if self.config.min_bet > 1 else ''}.")
            how = "out of chips"
        except _Quit as leave:
            how = leave.how
        except KeyboardInterrupt:
            how = "interrupted"
        if how in ("end of input", "interrupted"):
            self.write("")
            self.write(f"Leaving the table ({how}).")
        self.summary(how)
        return self.balance

    def summary(self, how: str) -> None:
        won = self.balance - self.config.chips
        cost = sum((d.cost for d in self.decisions), _ZERO)
        priced = [d for d in self.decisions if d.advice is not None]
        wrong = [d for d in priced if d.cost > 0]
        self.write("")
        self.write(f"Final balance: {chips_text(self.balance)} chips "
                   f"({'+' if won >= 0 else '-'}{chips_text(abs(won))} over {self.hands} "
                   f"hand{'s' if self.hands != 1 else ''}).")
        if priced and not wrong:
            self.write(f"Decisions: {len(priced)}, every one the best.")
        elif priced:
            self.write(f"Decisions: {len(priced)}, {len(wrong)} not the best; against the best ones yours were "
                       f"worth {_approx(cost)} chips less in expectation (exact {fraction_string(cost)}).")
        elif self.decisions:
            self.write(f"Decisions: {len(self.decisions)} (advice off: not priced).")
        if self.log is not None:
            self.log({"event": "end", "how": how, "answers": self.answers, "hands": self.hands,
                      "balance": fraction_string(self.balance), "net": fraction_string(won),
                      "decisions": len(priced), "mistakes": len(wrong), "cost": fraction_string(cost)})
            self.answers = []

    def play_round(self) -> None:
        if self.shoe.needs_shuffle(self.config.penetration):
            dealt = self.shoe.size - len(self.shoe.cards)
            self.write(f"Reshuffling the shoe ({dealt} of {self.shoe.size} cards dealt).")
            self.shoe = self.new_shoe(())
        self.write("")
        self.write(f"--- Hand {self.hands + 1} · balance {chips_text(self.balance)} · "
                   f"{len(self.shoe.cards)} cards in the shoe ---")
        stake = self.ask_stake()
        self.last_stake = stake
        self.hands += 1
        self.on_table = mpq(stake)
        self.round_decisions = []
        self.seat = [SeatHand([], stake)]
        self.dealer = []
        self.net = _ZERO
        ended = "settled"
        try:
            self.deal_and_play(stake)
        except (_Quit, KeyboardInterrupt) as leave:
            ended = "left"
            if self.on_table:
                self.balance -= self.on_table
                self.net -= self.on_table
                self.write(f"  You leave mid-hand: the {chips_text(self.on_table)} chips on the table are lost.")
                self.on_table = _ZERO
            raise leave
        finally:
            self.log_round(stake, ended)

    def log_round(self, stake: int, ended: str) -> None:
        if self.log is None:
            return
        self.log({"event": "hand", "number": self.hands, "stake": stake, "answers": self.answers,
                  "player": [[c.label for c in h.cards] for h in self.seat],
                  "bets": [h.bet for h in self.seat], "dealer": [c.label for c in self.dealer],
                  "decisions": [d.to_json() for d in self.round_decisions], "net": fraction_string(self.net),
                  "balance": fraction_string(self.balance), "ended": ended})
        self.answers = []

    def table(self) -> list[PlayingCard]:
        return [c for h in self.seat for c in h.cards] + self.dealer

    def unseen(self) -> Counts:
        """The cards the player has not seen: the shoe, plus the hole card under peek."""
        hole = counts_of([self.dealer[1].rank]) if len(self.dealer) > 1 else (0,) * 10
        return add_counts(self.shoe.counts, hole)

    def settle_now(self, amount: mpq, line: str) -> None:
        """Settle ``amount`` (won or lost) of the bets on the table."""
        self.balance += amount
        self.net += amount
        self.write(f"{line} Balance: {chips_text(self.balance)}.")

    def deal_and_play(self, stake: int) -> None:
        rules = self.rules
        peek = rules.hole_card == "peek"
        player = self.seat[0].cards
        for hand in (player, self.dealer, player) + ((self.dealer,) if peek else ()):
            hand.append(self.draw(self.table()))
        up = self.dealer[0]
        self.write(f"You: {self.hand_text(player)}")
        self.write(f"Dealer: {self.show(up)} {'?' if peek else '(no hole card)'}")
        natural = is_natural(player)
        insured = _ZERO
        if up.rank == ACE:
            if natural:
                if self.offer_even_money(stake):
                    self.on_table = _ZERO
                    self.settle_now(mpq(stake), f"Even money: you win {stake}.")
                    self.reveal()
                    return
            else:
                insured = self.offer_insurance(stake)
        early_check = peek and rules.surrender == "early" and up.rank in (ACE, TEN) and not natural
        if early_check and self.offer_early_surrender(stake):
            self.seat[0].surrendered = True
        if peek and up.rank in (ACE, TEN):
            if is_natural(self.dealer):
                self.dealer_natural(stake, insured)
                return
            if insured:
                self.on_table -= insured
                self.settle_now(-insured, f"The dealer has no blackjack: the insurance of {chips_text(insured)} "
                                          "is lost.")
                insured = _ZERO
            else:
                self.write("  The dealer checks the hole card: no blackjack.")
        if self.seat[0].surrendered:
            self.on_table = _ZERO
            self.settle_now(-mpq(stake, 2), f"You surrender: half the stake, {chips_text(mpq(stake, 2))}, is lost.")
            self.reveal()
            return
        if not natural:
            self.player_turn()
        self.dealer_turn(stake, insured)

    def reveal(self) -> None:
        if len(self.dealer) > 1:
            self.write(f"Dealer: {self.hand_text(self.dealer)}")

    def advise(self, compute: Callable[[], Advice]) -> Advice | None:
        if not self.config.hints or self.advice_failed:
            return None
        try:
            advice = self.advisor(compute)
        except ImportError:
            self.advice_failed = True
            self.write("  (exact advice is not available in this installation)")
            return None
        except BjexactError as exc:
            self.write(f"  (no exact advice here: {exc})")
            return None
        for line in advice_lines(advice):
            self.write(line)
        return advice

    def decide(self, index: int, kind: str, advice: Advice | None, chosen: str, bet: int) -> None:
        hand = self.seat[index]
        if advice is not None and chosen not in advice.values:  # a move the shoe left no value for
            advice = None
        decision = Decision(index + 1, tuple(hand.cards), self.dealer[0], kind, advice, chosen, bet)
        self.decisions.append(decision)
        self.round_decisions.append(decision)
        if advice is not None and (regret := regret_line(advice, chosen, bet)):
            self.write(regret)

    def available(self) -> mpq:
        return self.balance - self.on_table

    def offer_even_money(self, stake: int) -> bool:
        advice = self.advise(lambda: insurance_advice(self.rules, ranks_of(self.seat[0].cards), self.unseen()))
        take = self.ask_yes_no(f"Even money ({stake} now for your blackjack)?")
        self.decide(0, "even money", advice, "even money" if take else "no even money", stake)
        return take

    def offer_insurance(self, stake: int) -> mpq:
        cost = mpq(stake, 2)
        if self.available() < cost:
            self.write(f"  (no insurance: it costs {chips_text(cost)} chips, more than you have free)")
            return _ZERO
        advice = self.advise(lambda: insurance_advice(self.rules, ranks_of(self.seat[0].cards), self.unseen()))
        take = self.ask_yes_no(f"Insurance ({chips_text(cost)} chips, pays 2:1 if the dealer has blackjack)?")
        self.decide(0, "insurance", advice, "insure" if take else "no insurance", stake)
        if take:
            self.on_table += cost
            return cost
        return _ZERO

    def first_moves(self) -> list[str]:
        """The moves the unsplit two-card hand may make (rules and free chips)."""
        hand = self.seat[0]
        ranks = ranks_of(hand.cards)
        moves = ["stand", "hit"]
        free = self.available()
        if self.rules.may_double(value_of(hand.cards)) and free >= hand.bet:
            moves.append("double")
        if self.rules.may_split(ranks) and free >= hand.bet:
            moves.append("split")
        surrender = self.rules.surrender
        early_checked = self.rules.hole_card == "peek" and self.dealer[0].rank in (ACE, TEN)
        if surrender == "late" or (surrender == "early" and not early_checked):
            moves.append("surrender")
        return moves

    def offer_early_surrender(self, stake: int) -> bool:
        allowed = [m for m in self.first_moves() if m != "surrender"]
        cards = ranks_of(self.seat[0].cards)
        advice = self.advise(lambda: early_surrender_advice(self.rules, cards, self.dealer[0].rank, self.unseen(),
                                                            allowed))
        give_up = self.ask_yes_no("Surrender now, before the dealer checks for blackjack?")
        self.decide(0, "early surrender", advice, "surrender" if give_up else "play on", stake)
        return give_up

    # -- the player's hands ----------------------------------------------------------------

    def show_seat(self, current: int) -> None:
        if len(self.seat) == 1:
            return
        parts = []
        for i, hand in enumerate(self.seat):
            mark = "▶" if i == current else " "
            cards = self.hand_text(hand.cards, split=True) if len(hand.cards) > 1 else (
                " ".join(self.show(c) for c in hand.cards))
            extra = " x2" if hand.doubled else ""
            parts.append(f"{mark}{i + 1}: {cards}{extra}")
        self.write("Your hands: " + "  │ ".join(parts))

    def player_turn(self) -> None:
        index = 0
        while index < len(self.seat):
            self.play_hand(index)
            index += 1

    def play_hand(self, index: int) -> None:
        hand = self.seat[index]
        if len(hand.cards) == 1:  # a split hand gets its second card when its turn comes
            hand.cards.append(self.draw(self.table()))
            self.write(f"Hand {index + 1} of {len(self.seat)} gets {self.show(hand.cards[-1])}.")
            self.show_seat(index)
        while True:
            value = value_of(hand.cards)
            if value.bust or hand.doubled:
                return
            if self.rules.is_charlie(len(hand.cards), value):
                self.write(f"  {len(hand.cards)}-card Charlie: it wins, unless the dealer has blackjack.")
                return
            if value.total == 21 and not (self.rules.charlie is not None and value.soft):
                if len(self.seat) > 1:
                    self.write(f"  Hand {index + 1}: 21, it stands.")
                else:
                    self.write("  21: you stand.")
                return
            allowed, split_hands = self.allowed_moves(index)
            if allowed == ["stand"]:
                self.write(f"  Hand {index + 1}: split aces take one card each; it stands.")
                return
            advice = self.advise(self.move_computation(index, allowed, split_hands))
            move = self.ask_move(allowed)
            self.decide(index, "move", advice, move, hand.bet)
            if move == "stand":
                return
            if move == "surrender":
                hand.surrendered = True
                return
            if move == "split":
                self.split(index)
                continue
            if move == "double":
                self.on_table += hand.bet
                hand.bet *= 2
                hand.doubled = True
            hand.cards.append(self.draw(self.table()))
            what = "double and draw" if move == "double" else "draw"
            if len(self.seat) > 1:
                self.write(f"Hand {index + 1}: {what} {self.show(hand.cards[-1])}.")
            else:
                self.write(f"You {what} {self.show(hand.cards[-1])}: {self.hand_text(hand.cards)}")
            self.show_seat(index)

    def allowed_moves(self, index: int) -> tuple[list[str], int | None]:
        """The moves open to hand ``index`` now, and the most hands a split may make (``None``:
        the rules' own, at the deal; 1: no split)."""
        hand = self.seat[index]
        rules = self.rules
        free = self.available()
        if len(hand.cards) > 2:  # doubling after hitting, where the rules allow it
            may_double = rules.may_double(value_of(hand.cards), split_pair=hand.pair, cards=len(hand.cards))
            return ["stand", "hit"] + (["double"] if may_double and free >= hand.bet else []), 1
        if hand.pair is None:
            return self.first_moves(), None
        ranks = ranks_of(hand.cards)
        aces_stuck = not rules.may_hit_split(hand.pair)
        moves = ["stand"] if aces_stuck else ["stand", "hit"]
        if not aces_stuck and rules.may_double(value_of(hand.cards), split_pair=hand.pair) and free >= hand.bet:
            moves.append("double")
        limit = rules.split_limit(hand.pair)
        if ranks[0] == ranks[1] and len(self.seat) < limit and free >= hand.bet:
            moves.append("split")
            return moves, limit - len(self.seat) + 1
        return moves, 1

    def move_computation(self, index: int, allowed: list[str], split_hands: int | None) -> Callable[[], Advice]:
        hand = self.seat[index]
        up = self.dealer[0].rank
        peek = self.rules.hole_card == "peek"
        if len(self.seat) > 1:
            note = "this hand alone"
        else:
            note = ""
        if peek and up in (ACE, TEN):
            conditioned = "given no dealer blackjack"
        elif peek:
            conditioned = ""
        else:
            conditioned = "dealer blackjacks included"
        note = ", ".join(n for n in (note, conditioned) if n)
        cards = ranks_of(hand.cards)
        unseen = self.unseen()
        return lambda: move_advice(self.rules, cards, up, unseen, allowed, split_hands=split_hands, note=note)

    def split(self, index: int) -> None:
        hand = self.seat[index]
        pair = hand.cards[0].rank
        self.on_table += hand.bet
        new = SeatHand([hand.cards.pop()], hand.bet, pair)
        hand.pair = pair
        self.seat.insert(index + 1, new)
        hand.cards.append(self.draw(self.table()))
        self.write(f"You split: {len(self.seat)} hands. Hand {index + 1} gets {self.show(hand.cards[-1])}.")
        self.show_seat(index)

    # -- the dealer --------------------------------------------------------------------------

    def dealer_natural(self, stake: int, insured: mpq) -> None:
        """Under peek: the dealer turns over a blackjack before the player acts."""
        self.write(f"Dealer: {self.hand_text(self.dealer)}")
        if insured:
            self.settle_now(2 * insured, f"The insurance pays 2:1: you win {chips_text(2 * insured)}.")
        hand = self.seat[0]
        self.on_table = _ZERO
        if hand.surrendered:
            self.settle_now(-mpq(stake, 2), f"You surrendered: half the stake, {chips_text(mpq(stake, 2))}, is lost.")
        elif is_natural(hand.cards):
            self.settle_now(_ZERO, "Push: both have blackjack.")
        else:
            self.settle_now(-mpq(stake), f"You lose {stake} (the dealer has blackjack).")

    def dealer_turn(self, stake: int, insured: mpq) -> None:
        """The dealer's hole card (under enhc: second card), its draws if any hand is still
        waiting for it, then every hand settled."""
        rules = self.rules
        if len(self.dealer) == 1:
            self.dealer.append(self.draw(self.table()))
        self.write(f"Dealer: {self.hand_text(self.dealer)}")
        if insured:  # under enhc: settled on the dealer's second card
            self.on_table -= insured
            if is_natural(self.dealer):
                self.settle_now(2 * insured, f"The insurance pays 2:1: you win {chips_text(2 * insured)}.")
            else:
                self.settle_now(-insured, f"No blackjack: the insurance of {chips_text(insured)} is lost.")
        live = [h for h in self.seat if not h.surrendered and not value_of(h.cards).bust
                and not rules.is_charlie(len(h.cards), value_of(h.cards))]
        natural_round = len(self.seat) == 1 and is_natural(self.seat[0].cards)
        if live and not natural_round and not is_natural(self.dealer):
            while not value_of(self.dealer).bust and not rules.dealer_stands(value_of(self.dealer)):
                self.dealer.append(self.draw(self.table()))
                self.write(f"Dealer draws {self.show(self.dealer[-1])}: {self.hand_text(self.dealer)}")
        split = len(self.seat) > 1
        if (rules.hole_card == "enhc" and rules.obo and is_natural(self.dealer) and not natural_round
                and not self.seat[0].surrendered):
            self.on_table = _ZERO
            lost = rules.dealer_natural_loss([hand.bet for hand in self.seat], stake)
            self.settle_now(lost, f"You lose {stake} (the dealer has blackjack: only the original stake "
                                         "is lost, OBO).")
            return
        for i, hand in enumerate(self.seat):
            name = f"Hand {i + 1}: " if split else ""
            if hand.surrendered:
                result = Settlement("surrender", -mpq(hand.bet, 2), "surrendered, half the bet")
            else:
                result = settle(hand.cards, self.dealer, hand.bet, rules.bj_pays, split=split, charlie=rules.charlie)
            self.on_table -= hand.bet
            verdict = {"blackjack": "Blackjack! You win", "win": "You win", "push": "Push: the bet comes back",
                       "loss": "You lose", "surrender": "You lose"}[result.outcome]
            amount = "" if result.outcome == "push" else f" {chips_text(abs(result.net))}"
            self.settle_now(result.net, f"{name}{verdict}{amount} ({result.reason}).")
        self.on_table = _ZERO


def _percent(value: mpq) -> str:
    return NumberStyle(decimals=0).plain(value) + "%"


# --- replaying a log ----------------------------------------------------------------------------


def read_log(lines: Iterable[str], name: str = "the log") -> tuple[GameConfig, list[DealingShoe], list[str], str]:
    """A log written by :class:`Game` (JSON lines): the table, its shuffles, every answer typed in
    order and how the session ended. Malformed logs are an error naming the line."""
    config: GameConfig | None = None
    shuffles: list[list[PlayingCard]] = []
    answers: list[str] = []
    how = "end of input"
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{name} line {number}"
        try:
            event = json.loads(line)
            kind = event["event"]
            if kind == "session":
                if event.get("version") != LOG_VERSION:
                    raise BjexactError(f"{where}: not a play log of version {LOG_VERSION}")
                config = GameConfig.from_json(event)
            elif config is None:
                raise BjexactError(f"{where}: the log does not start with the session")
            elif kind == "shuffle":
                dealt = [card(text) for text in event["cards"]]
                held = [card(text) for text in event["held"]]
                if sorted(c.label for c in dealt + held) != sorted(c.label for c in DealingShoe.full(config.decks)):
                    raise BjexactError(f"the shuffle is not {config.decks} deck{'s' if config.decks > 1 else ''}")
                shuffles.append(dealt)
            elif kind in ("hand", "end"):
                if not all(isinstance(a, str) for a in event["answers"]):
                    raise BjexactError(f"{where}: answers must be text")
                answers.extend(event["answers"])
                if kind == "end":
                    how = str(event["how"])
            else:
                raise BjexactError(f"{where}: unknown event {str(kind)[:20]!r}")
        except BjexactError as exc:
            if str(exc).startswith(name):
                raise
            raise BjexactError(f"{where}: {exc}") from None
        except (ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
            raise BjexactError(f"{where}: not a play log record ({type(exc).__name__}: {str(exc)[:60]})") from None
    if config is None:
        raise BjexactError(f"{name} holds no session")
    if not shuffles:
        raise BjexactError(f"{name} holds no shuffle")
    shoes = [DealingShoe(tuple(cards), config.decks) for cards in shuffles]
    return config, shoes, answers, how


def first_differing_hand(lines: Iterable[str], replayed: Iterable[Mapping[str, Any]]) -> int | None:
    """The number of the first hand whose record in the log (JSON ``lines``) differs from the
    record of its replay (the events a replaying :class:`Game` logged), or ``None`` when all agree.

    A replay recomputes every value; this finds logs edited by hand or written by another version.
    """
    logged = [event for event in (json.loads(line) for line in lines if line.strip()) if event["event"] == "hand"]
    again = [json.loads(json.dumps(event)) for event in replayed if event["event"] == "hand"]
    for number, (before, after) in enumerate(zip(logged, again), start=1):
        if before != after:
            return number
    return None if len(logged) == len(again) else min(len(logged), len(again)) + 1


def replay_reader(answers: Sequence[str], how: str, write: Writer) -> Reader:
    """The answers of a log, each written after its prompt; then the end as the log says
    (end of input, or Ctrl-C as ``KeyboardInterrupt``)."""
    feed = iter(answers)

    def read(prompt: str) -> str | None:
        answer = next(feed, None)
        if answer is None:
            write(prompt.rstrip())
            if how == "interrupted":
                raise KeyboardInterrupt
            return None
        write(prompt + answer)
        return answer

    return read
