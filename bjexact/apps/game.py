"""A console blackjack game with chips and exact advice at every decision.

Rules of the table
    One or more 52-card decks, shuffled (``random.Random(seed)``: a seed makes
    the game reproducible). The player stakes whole chips, then player and dealer
    get two cards each, alternately, the dealer's second card face down.
    Naturals (an ace and a ten-valued card as the first two cards) are settled
    at once, before the player acts: the player's natural pays ``bj_pays`` times
    the stake, the dealer's natural takes the stake, both push. The dealer
    checks the hole card under an ace or a ten, so a hand that goes on is one
    where the dealer has no natural. The player hits or stands (no split, double
    or insurance); over 21 loses at once. The dealer draws while under 17 and
    stands on 17 or more (with ``h17`` also hits a soft 17). A win pays even
    money, a loss takes the stake, equal totals push. Aces follow the one rule
    of :mod:`bjexact.core.hand`. Before a hand, the shoe is reshuffled when fewer
    than a quarter of its cards are left (and at least 20), more than any hand
    can use; should it run out in a hand all the same, every card not on the
    table is reshuffled.

Advice
    Expected values are exact, per unit stake (+1 win, 0 push, -1 loss), for
    the cards the player has not seen (the shoe plus the hole card) and
    conditioned on no dealer natural (it was checked): see
    :func:`bjexact.player.hand_decision`. "Hit" means hit and then play on
    optimally. The dealer's outcome probabilities are those of the final hand
    if the player stands now. The unseen cards are taken to be all that can be
    drawn in the hand: the rare reshuffle in the middle of a hand (only when
    the shoe runs dry) is not part of the model.

:class:`Game` runs a session over two callables, ``read(prompt) -> str | None``
(``None`` at the end of input) and ``write(line)``, so whole games can be
played by tests; everything else here is pure.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.cards import RANKS, TEN, Counts, counts_of
from ..core.hand import HandValue, hand_value
from ..core.hand import is_natural as hand_is_natural
from ..core.numbers import as_rational, fraction_string, mpq
from ..core.rules import Rules
from ..dealer.distributions import dealer_distributions
from ..errors import BjexactError
from ..player.solver import hand_decision
from ..render.tables import NumberStyle
from .replay import Card

__all__ = [
    "FACES",
    "Advice",
    "DealingShoe",
    "Game",
    "GameConfig",
    "Settlement",
    "chips_text",
    "dealer_outlook",
    "exact_advice",
    "is_natural",
    "parse_move",
    "parse_stake",
    "settle",
]

FACES: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_FACE_RANK = {face: min(n, TEN) for n, face in enumerate(FACES, start=1)}
# A round uses at most 16 cards of one deck (see ``DealingShoe.cut``): 20 leaves room.
MIN_CUT = 20


def card(face: str) -> Card:
    """The card with ``face`` (``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``)."""
    return Card(face, _FACE_RANK[face])


def ranks_of(cards: Sequence[Card]) -> tuple[int, ...]:
    return tuple(c.rank for c in cards)


def value_of(cards: Sequence[Card]) -> HandValue:
    return hand_value(ranks_of(cards))


def is_natural(cards: Sequence[Card]) -> bool:
    """An ace and a ten-valued card as the first two cards."""
    return hand_is_natural(ranks_of(cards))


# --- configuration ------------------------------------------------------------------------


@dataclass(frozen=True)
class GameConfig:
    """The table: ``decks`` in the shoe, starting ``chips``, ``seed`` (``None``: unpredictable),
    ``bj_pays`` for a player natural, ``hints`` (exact advice on or off), ``h17``."""

    decks: int = 1
    chips: int = 100
    seed: int | None = None
    bj_pays: Any = mpq(3, 2)
    hints: bool = True
    h17: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.decks, bool) or not isinstance(self.decks, int) or not 1 <= self.decks <= 8:
            raise BjexactError(f"--decks must be a whole number from 1 to 8, not {self.decks!r}")
        if isinstance(self.chips, bool) or not isinstance(self.chips, int) or self.chips < 1:
            raise BjexactError(f"--chips must be a whole number >= 1, not {self.chips!r}")
        object.__setattr__(self, "bj_pays", self.rules.bj_pays)

    @property
    def rules(self) -> Rules:
        """The rule set of the advice: this shoe, the soft-17 rule, naturals peeked."""
        return Rules(decks=self.decks, h17=self.h17, naturals="peek", bj_pays=self.bj_pays)


# --- the shoe -----------------------------------------------------------------------------


@dataclass(frozen=True)
class DealingShoe:
    """The cards left to deal, top first, from a shoe of ``decks`` decks."""

    cards: tuple[Card, ...]
    decks: int

    @classmethod
    def shuffled(cls, decks: int, rng: random.Random, held: Sequence[Card] = ()) -> DealingShoe:
        """A shuffled shoe of ``decks`` decks less the cards ``held`` (on the table)."""
        cards = [card(face) for face in FACES for _ in range(4 * decks)]
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
        """Reshuffle before a hand when fewer cards than this are left: a quarter of the shoe, at least 20.

        A hand never needs more: the cards of both hands but the dealer's last one add up
        to at most 21 + 16 = 37 (aces as 1), which is at most 15 of one deck's smallest
        cards (A A A A 2 2 2 2 3 3 3 3 4 4 4) and 34 of eight decks' (32 aces, 2 twos).
        So the exact advice never meets a shoe that runs dry.
        """
        return max(MIN_CUT, self.size // 4)

    @property
    def low(self) -> bool:
        """Whether to reshuffle before the next hand (fewer than :attr:`cut` cards left)."""
        return len(self.cards) < self.cut

    @property
    def counts(self) -> Counts:
        return counts_of(ranks_of(self.cards))

    def draw(self) -> tuple[Card, DealingShoe]:
        if not self.cards:
            raise BjexactError("the shoe is empty")
        return self.cards[0], DealingShoe(self.cards[1:], self.decks)


# --- settling -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Settlement:
    """How a hand ends: ``outcome`` (``blackjack``, ``win``, ``push``, ``loss``), the chips
    won or lost (``net``, exact) and one line saying why."""

    outcome: str
    net: mpq
    reason: str


def settle(player: Sequence[Card], dealer: Sequence[Card], stake: int, bj_pays: Any = "3/2") -> Settlement:
    """Settle a finished hand: the player's cards, the dealer's (all of them) and the stake.

    Naturals count only as the first two cards of a hand. A bust player loses
    whatever the dealer holds.
    """
    stake_q = mpq(stake)
    you, them = value_of(player), value_of(dealer)
    if you.bust:
        return Settlement("loss", -stake_q, f"you bust with {you.total}")
    if is_natural(player) and is_natural(dealer):
        return Settlement("push", mpq(0), "both have blackjack")
    if is_natural(player):
        return Settlement("blackjack", stake_q * as_rational(bj_pays), "blackjack")
    if is_natural(dealer):
        return Settlement("loss", -stake_q, "the dealer has blackjack")
    if them.bust:
        return Settlement("win", stake_q, f"the dealer busts with {them.total}")
    if you.total > them.total:
        return Settlement("win", stake_q, f"{you.total} beats {them.total}")
    if you.total < them.total:
        return Settlement("loss", -stake_q, f"the dealer's {them.total} beats your {you.total}")
    return Settlement("push", mpq(0), f"both have {you.total}")


# --- advice -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Advice:
    """Exact values of standing and hitting (``hit`` is ``None`` if no card is left), the
    better move, and the dealer's final-outcome probabilities if the player stands now."""

    stand: mpq
    hit: mpq | None
    best: str
    dealer: dict[str, mpq] = field(default_factory=dict)

    def value(self, move: str) -> mpq:
        return self.stand if move == "stand" else self.hit  # type: ignore[return-value]

    def cost(self, move: str) -> mpq:
        """How much less than the best move ``move`` is worth (0 for the best move)."""
        return self.value(self.best) - self.value(move)


def dealer_outlook(rules: Rules, upcard: int, unseen: Counts) -> dict[str, mpq]:
    """P(dealer's final outcome | up-card, no natural) drawing from ``unseen`` (hole card included)."""

    shoe = tuple(n + (rank == upcard) for rank, n in zip(RANKS, unseen, strict=True))
    outlook_rules = Rules(shoe=shoe, h17=rules.h17, naturals="peek")
    return dealer_distributions(outlook_rules, upcards=[upcard])[upcard]


def exact_advice(rules: Rules, player: Sequence[int], upcard: int, unseen: Counts) -> Advice:
    """The exact advice for the player's cards (ranks) against ``upcard``; ``unseen`` as above."""

    decision = hand_decision(rules, tuple(player), upcard, unseen=unseen)
    return Advice(decision.stand, decision.hit, decision.best, dealer_outlook(rules, upcard, unseen))


# --- reading the player's answers -----------------------------------------------------------


def parse_stake(text: str, balance: mpq, last: int | None = None) -> int:
    """A stake: a whole number of chips from 1 to the balance; empty repeats ``last``."""
    text = text.strip()
    if not text:
        if last is not None and last <= balance:
            return last
        raise BjexactError("type a number of chips")
    if text.startswith("-") and text[1:].strip().isdigit():
        raise BjexactError("a stake cannot be negative")
    if not text.isascii() or not text.isdigit():
        raise BjexactError(f"{text[:20]!r} is not a whole number of chips")
    if len(text.lstrip("0")) > 30:  # int() of thousands of digits is slow or refused
        raise BjexactError(f"you have only {chips_text(balance)} chips")
    stake = int(text)
    if stake == 0:
        raise BjexactError("a stake must be at least 1 chip")
    if stake > balance:
        raise BjexactError(f"you have only {chips_text(balance)} chips")
    return stake


_MOVES = {"h": "hit", "hit": "hit", "s": "stand", "stand": "stand", "q": "quit", "quit": "quit"}


def parse_move(text: str) -> str | None:
    """``hit``, ``stand`` or ``quit`` from h/hit, s/stand, q/quit (any case); ``None`` otherwise."""
    return _MOVES.get(text.strip().lower())


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
    return NumberStyle(decimals=places, percent=False, signed=True).plain(value)


def _percent(value: mpq) -> str:
    return NumberStyle(decimals=2).plain(value) + "%"


def _hand(cards: Sequence[Card]) -> str:
    """``10 5  (15)``, ``A 6  (soft 17)``, ``A K  (blackjack)``, ``10 5 9  (bust, 24)``."""
    value = value_of(cards)
    if is_natural(cards):
        shown = "blackjack"
    elif value.bust:
        shown = f"bust, {value.total}"
    else:
        shown = f"soft {value.total}" if value.soft else str(value.total)
    return f"{' '.join(c.label for c in cards)}  ({shown})"


def advice_lines(advice: Advice, upcard: Card) -> list[str]:
    """The advice as shown before a decision."""
    order = ("17", "18", "19", "20", "21", "bust", "exhausted")
    outlook = "  ".join(f"{o} {_percent(p)}" for o in order if (p := advice.dealer.get(o)))
    lines = [f"  Dealer with {upcard.label} up, if you stand now: {outlook}",
             "  Expected value per chip staked (exact):"]
    for move in ("stand", "hit"):
        value = advice.value(move)
        shown = "not possible" if value is None else f"{_signed(value)}  = {fraction_string(value)}"
        lines.append(f"    {move:<5}  {shown}{'   <- best' if move == advice.best else ''}")
    return lines


def regret_line(advice: Advice, move: str, stake: int) -> str | None:
    """After ``move``: ``None`` if it was the best, else what it cost (exact and decimal)."""
    cost = advice.cost(move)
    if cost <= 0:
        return None
    doing = "Hitting" if move == "hit" else "Standing"
    return (f"  {doing} was not the best move: to {advice.best} was worth {_signed(cost)} more per chip\n"
            f"  (exact {fraction_string(cost)}), {_approx(cost * stake)} chips on your stake of {stake}.")


def _approx(value: mpq) -> str:
    return NumberStyle(decimals=3, percent=False).plain(value)


# --- the session --------------------------------------------------------------------------

Reader = Callable[[str], "str | None"]
Writer = Callable[[str], None]
Advisor = Callable[[Rules, Sequence[int], int, Counts], Advice]


class _Quit(Exception):
    """The player asked to leave (q, end of input or Ctrl-C)."""

    def __init__(self, how: str):
        super().__init__(how)
        self.how = how


class Game:
    """One session at the table: stakes, hands, settlements, until the player leaves or is broke."""

    def __init__(self, config: GameConfig, read: Reader, write: Writer, advisor: Advisor = exact_advice,
                 shoe: DealingShoe | None = None):
        """``shoe``: the first shoe to deal from (default: shuffled with ``random.Random(config.seed)``)."""
        self.config = config
        self.read = read
        self.write = write
        self.advisor = advisor
        self.rng = random.Random(config.seed)
        self.shoe = shoe if shoe is not None else DealingShoe.shuffled(config.decks, self.rng)
        self.balance = mpq(config.chips)
        self.hands = 0
        self.last_stake: int | None = None
        self.on_table = 0  # the stake of a hand not yet settled
        self.advice_missing = False

    # -- input ---------------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        try:
            answer = self.read(prompt)
        except EOFError:
            answer = None
        if answer is None:
            raise _Quit("end of input")
        return answer

    def ask_stake(self) -> int:
        balance = chips_text(self.balance)
        last = self.last_stake
        default = f", Enter = {last}" if last is not None and last <= self.balance else ""
        while True:
            answer = self.ask(f"Stake (1-{balance}{default}, q to quit): ")
            if answer.strip().lower() in ("q", "quit"):
                raise _Quit("q")
            try:
                return parse_stake(answer, self.balance, self.last_stake)
            except BjexactError as exc:
                self.write(f"  {exc}; try again.")

    def ask_move(self) -> str:
        while True:
            move = parse_move(self.ask("Hit or stand? [h/s, q to quit]: "))
            if move == "quit":
                raise _Quit("q")
            if move is not None:
                return move
            self.write("  Type h to hit, s to stand or q to quit.")

    # -- dealing -------------------------------------------------------------------------

    def draw(self, table: Sequence[Card]) -> Card:
        if not self.shoe.cards:
            self.write("  The shoe is empty: every card not on the table is reshuffled.")
            self.shoe = DealingShoe.shuffled(self.config.decks, self.rng, held=table)
        dealt, self.shoe = self.shoe.draw()
        return dealt

    # -- the session ---------------------------------------------------------------------

    def run(self) -> mpq:
        """Play until the player quits or cannot stake; print and return the final balance."""
        config = self.config
        self.write(f"Blackjack, {config.decks} deck{'s' if config.decks > 1 else ''}: dealer "
                   f"{'hits' if config.h17 else 'stands on'} soft 17, blackjack pays "
                   f"{fraction_string(config.bj_pays)}, exact advice {'on' if config.hints else 'off'}.")
        how = "q"
        try:
            while self.balance >= 1:
                self.play_hand()
            self.write("You cannot cover the smallest stake of 1 chip.")
            how = "broke"
        except _Quit as leave:
            how = leave.how
        except KeyboardInterrupt:
            how = "interrupted"
        if how in ("end of input", "interrupted"):
            self.write("")
            self.write(f"Leaving the table ({how}).")
        won = self.balance - config.chips
        self.write(f"Final balance: {chips_text(self.balance)} chips "
                   f"({'+' if won >= 0 else '-'}{chips_text(abs(won))} over {self.hands} "
                   f"hand{'s' if self.hands != 1 else ''}).")
        return self.balance

    def play_hand(self) -> None:
        if self.shoe.low:
            self.write("Reshuffling the shoe.")
            self.shoe = DealingShoe.shuffled(self.config.decks, self.rng)
        self.write("")
        self.write(f"--- Hand {self.hands + 1} · balance {chips_text(self.balance)} · "
                   f"{len(self.shoe.cards)} cards in the shoe ---")
        stake = self.ask_stake()
        self.last_stake = stake
        self.hands += 1
        self.on_table = stake
        try:
            player: list[Card] = []
            dealer: list[Card] = []
            for hand in (player, dealer, player, dealer):
                hand.append(self.draw(player + dealer))
            self.write(f"You: {_hand(player)}")
            self.write(f"Dealer: {dealer[0].label} ?")
            self.player_turn(player, dealer, stake)
            self.finish(player, dealer, stake)
        except (_Quit, KeyboardInterrupt):
            if self.on_table:
                self.balance -= self.on_table
                self.on_table = 0
                self.write(f"  You leave mid-hand: the stake of {stake} is lost.")
            raise

    def player_turn(self, player: list[Card], dealer: list[Card], stake: int) -> None:
        """Naturals first (settled by :meth:`finish`), then hit or stand until done."""
        if is_natural(player) or is_natural(dealer):
            return
        if dealer[0].rank in (1, TEN):
            self.write("  The dealer checks the hole card: no blackjack.")
        while True:
            value = value_of(player)
            if value.bust:
                return
            if value.total == 21:
                self.write("  21: you stand.")
                return
            advice = self.advise(player, dealer)
            move = self.ask_move()
            if advice is not None and (regret := regret_line(advice, move, stake)):
                self.write(regret)
            if move == "stand":
                return
            player.append(self.draw(player + dealer))
            self.write(f"You draw {player[-1].label}: {_hand(player)}")

    def advise(self, player: list[Card], dealer: list[Card]) -> Advice | None:
        if not self.config.hints or self.advice_missing:
            return None
        unseen = tuple(s + h for s, h in zip(self.shoe.counts, counts_of([dealer[1].rank]), strict=True))
        try:
            advice = self.advisor(self.config.rules, ranks_of(player), dealer[0].rank, unseen)
        except ImportError:
            self.advice_missing = True
            self.write("  (exact advice is not available in this installation)")
            return None
        except BjexactError as exc:
            self.write(f"  (no exact advice for this hand: {exc})")
            return None
        for line in advice_lines(advice, dealer[0]):
            self.write(line)
        return advice

    def finish(self, player: list[Card], dealer: list[Card], stake: int) -> None:
        """The dealer plays (unless the hand is already decided), then the hand is settled."""
        decided = value_of(player).bust or is_natural(player) or is_natural(dealer)
        self.write(f"Dealer: {_hand(dealer)}")
        if not decided:
            rules = self.config.rules
            while not value_of(dealer).bust and not rules.dealer_stands(value_of(dealer)):
                dealer.append(self.draw(player + dealer))
                self.write(f"Dealer draws {dealer[-1].label}: {_hand(dealer)}")
        result = settle(player, dealer, stake, self.config.bj_pays)
        self.balance += result.net
        self.on_table = 0
        verdict = {"blackjack": "Blackjack! You win", "win": "You win", "push": "Push: your stake comes back",
                   "loss": "You lose"}[result.outcome]
        amount = "" if result.outcome == "push" else f" {chips_text(abs(result.net))}"
        self.write(f"{verdict}{amount} ({result.reason}). Balance: {chips_text(self.balance)}.")
