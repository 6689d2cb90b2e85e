"""Perfect play after a split: every decision of every split hand uses every card seen in the round.

The classical post-split strategies (CDZ-, CDP1, CDP: :mod:`bjexact.player.values`) play each
split hand by rules fixed in advance. The optimum plays each one knowing every card seen in the
round (the pair, the up-card, the cards of the hands played before) and the totals the finished
hands stand on, with their stakes, and maximises the expected *sum* of the round's hands: they
all meet the same dealer, whose cards the later hands' draws change. It is at least every fixed
strategy's value. On the infinite deck no card seen changes a chance and the hands' values add
up, so split once the optimum is CDZ-; with resplits it can be more (CDZ- resplits wherever the
rules allow, the optimum only where it pays).

Conventions
    The hands are played in order; each split hand receives its second card when its turn
    comes. A hand whose second card is a card of the pair may be resplit while fewer than
    :meth:`~bjexact.core.rules.GameRules.split_limit` hands are on the table: it keeps its first
    card, takes a new second card at once, and the card it gave up starts a hand that waits its
    turn. Every other move is the rules': stand, hit (any hand that is not bust, split aces only
    with ``hit_split_aces``), double (:meth:`~bjexact.core.rules.GameRules.may_double`: DAS, the
    totals rule, ``double_after_hit``, ``double_split_aces``). A split hand's ace and ten is 21,
    not a natural.

    Values are W values as in :class:`~bjexact.player.values.MoveValues`: E[payoff, no dealer
    natural] where a dealer natural costs the original bet only (peek, or ENHC with OBO), the
    plain expected value under ENHC. Every position is compared by W: its cards seen fix
    P(no dealer natural), common to all its moves. The hole card is one of the unseen cards (by
    exchangeability it is drawn after the player's cards), so the player never draws the last
    unseen card: where only that card is left a hand cannot hit or double.

    Tiny shoes: where the shoe cannot give a split hand its second card, or the dealer's hand
    runs out of cards, the round cannot be completed and the value is refused (one line naming
    the problem); realistic shoes never come near.

Cost
    A split to two hands on a finite shoe is valued in batches (:mod:`bjexact.player.split_batch`):
    every position with as many cards gone at once, decided in floats and valued exactly modulo
    primes, the same values. Measured (the whole ``hand`` command, processor time and peak memory,
    ``benchmarks/optimal_split.py``): one deck, 8,8 against a ten 0.7 s and 67 MB, 2,2 against a 6
    (the most positions) 2.0 s and 107 MB; two decks, 8,8 against a ten 1.1 s and 87 MB, 2,2
    against a 6 4.6 s and 251 MB; every pair and up-card of one deck 63 s. Its departures follow
    the optimum over the play the batches keep (every allowed move's exact value at every
    position): one deck, 8,8 against a ten 2.8 s and 90 MB, 2,2 against a 6 10.5 s and 197 MB.
    Resplits and the infinite deck (and ``batched=False``) value every position of the round (the
    cards gone, the finished hands' totals and stakes, the hand in play, the hands waiting) once,
    in exact rationals, recursively, in two passes: the first finds the sets of cards gone the
    dealer meets (its tables are then computed in one batch), the second values. The positions,
    valued one by one, are the price: one deck split once, 8,8 against a ten about 30 s and
    0.3 GB, 2,2 against a 6 about 150 s and 1 GB.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from ..core.cards import Counts, add_counts, check_shoe_holds, counts_of
from ..core.choice import best_move
from ..core.hand import HandValue, add_card, hand_value
from ..core.numbers import mpq
from ..core.rules import GameRules
from ..errors import BjexactError
from ..progress import Progress
from .engine import stand_weights
from .seen import NOTHING_GONE, SeenCards
from .split_batch import Played, SplitPlay, split_once_play, split_once_w
from .values import FractionSolver

__all__ = ["OptimalSplit", "Departure", "optimal_split", "MAX_POSITIONS"]

# the most positions one split is valued over (recursively, one deck split once: 8,8 against a ten,
# about 270,000 positions in 0.3 GB; 2,2 against a 6, the largest, under 1 GB; in batches, two decks
# split once: 2,2 against a 6, 1.6 million in 0.4 GB); beyond, a one-line refusal rather than
# gigabytes (one deck split to four hands went past 5 GB)
MAX_POSITIONS = 3_000_000

_ZERO = mpq(0)
_ONE = mpq(1)


@dataclass(frozen=True)
class OptimalSplit:
    """The value of splitting ``pair`` against ``upcard`` under perfect post-split play.

    ``w``: W of the split (see the module docstring); ``natural``: P(dealer natural | the pair and
    the up-card seen); ``natural_costs_one``: a dealer natural costs the original bet only (peek,
    or ENHC with OBO); ``peek``: the dealer checks first, so the value is shown conditioned on no
    dealer natural (as :meth:`~bjexact.player.values.MoveValues.value` shows every move).
    ``departures``: where asked for, every position the optimum reaches at which it plays otherwise
    than CDZ-, largest gain first (:class:`Departure`).
    """

    pair: int
    upcard: int
    w: mpq
    natural: mpq
    natural_costs_one: bool
    peek: bool
    departures: tuple[Departure, ...] | None = None

    @property
    def unconditional(self) -> mpq:
        """What the round is worth with the split, dealer naturals included."""
        return self.w - self.natural if self.natural_costs_one else self.w

    @property
    def value(self) -> mpq:
        """The value as the player weighs it: conditioned on no dealer natural where the dealer
        has peeked, otherwise unconditional."""
        if self.peek and self.natural:
            return self.w / (1 - self.natural)
        return self.unconditional


# the hands finished before a position, each as (its cards, its total or "bust", its stake)
_Before = tuple[tuple[tuple[int, ...], int | str, int], ...]


@dataclass(frozen=True)
class Departure:
    """A position of the split hands where perfect play departs from CDZ-.

    ``hand``: which split hand (1 = the first played); ``cards``: its cards (ranks, the pair card
    first, then the others in increasing rank); ``before``: the hands finished before it, each as
    (its cards, what it ended on: a total or ``"bust"``, its stake); ``move`` the optimum's move and
    ``cdz`` CDZ-'s (a split hand holding two pair cards resplits under CDZ- wherever the rules
    allow); ``tie``: the two moves are worth the same there. ``chance``: P(the optimum reaches the
    position | the split), the cards drawn one by one from the unseen ones (the hole card among
    them), conditioned as :attr:`OptimalSplit.value` is (under peek with a ten or ace up, on no
    dealer natural); ``gain``: what the optimum's move adds there, against CDZ-'s followed by perfect
    play, to the split's value as :attr:`OptimalSplit.value` shows it.
    """

    hand: int
    cards: tuple[int, ...]
    before: _Before
    move: str
    cdz: str
    chance: mpq
    gain: mpq

    @property
    def tie(self) -> bool:
        return not self.gain


@dataclass(frozen=True)
class _Hand:
    """The split hand in play: its value, how many cards it holds, whether they are two of the pair."""

    value: HandValue
    cards: int
    paired: bool


# the finished hands: sorted (total, stake) of the hands standing (a total below 17 as 16: it wins
# only on a dealer bust), and the stakes lost by the busted ones
_Done = tuple[tuple[tuple[int, int], ...], int]
_NOTHING_DONE: _Done = ((), 0)


def optimal_split(rules: GameRules, pair: int, upcard: int, cards: SeenCards | None = None, *,
                  progress: bool | None = None, departures: bool = False, batched: bool = True) -> OptimalSplit:
    """The exact value of splitting ``pair`` (a rank, 1 = ace) against ``upcard`` when every split
    hand is played perfectly (the module docstring gives the conventions).

    ``cards``: the :class:`~bjexact.player.seen.SeenCards` of ``rules`` to share with other
    solves (its dealer tables are reused). ``progress``: a progress bar on standard error (default:
    when it is a terminal), by the first split hand's second card. ``departures``: also every
    position where the optimum plays otherwise than CDZ- (:attr:`OptimalSplit.departures`: a walk
    of the positions the optimum reaches, whose values are known by then, and CDZ-'s moves there).
    ``batched``: a split to two hands on a finite shoe is valued in batches
    (:mod:`bjexact.player.split_batch`), its departures walked over the play the batches keep;
    ``batched=False``: by the recursive solver, as resplits and the infinite deck are (many times
    slower; the same values and departures, kept as an independent check of the batches).

    Examples
    --------
    An ace and nine tens, T,T split once against a T: the hand that draws the ace doubles its soft 21
    (the next card is a ten, hard 21 beats the dealer's 20), which CDZ- (playing A,T as the unsplit
    natural) never does:

    >>> rules = GameRules(shoe=(1, 0, 0, 0, 0, 0, 0, 0, 0, 9), split_hands=2)
    >>> str(optimal_split(rules, 10, 10).value)
    '2/3'
    >>> from bjexact.player.game import hand_moves
    >>> str(hand_moves(rules, (10, 10), 10).values["split"])
    '1/3'
    """
    if rules.charlie is not None:
        raise BjexactError("perfect post-split play is not available with --charlie")
    if not rules.may_split([pair, pair]):
        raise BjexactError(f"{pair},{pair} cannot be split under these rules (split hands: {rules.split_hands})")
    seen = cards or SeenCards(rules)
    if not seen.infinite:
        check_shoe_holds(seen.counts, (pair, pair, upcard))
    start = counts_of([pair, pair])
    if batched and not seen.infinite and rules.split_limit(pair) == 2:
        return _split_in_batches(rules, seen, pair, upcard, progress, departures)
    draws: dict[Counts, list[tuple[int, mpq, Counts]]] = {}  # shared by both passes
    solver = _Solver(rules, seen, pair, upcard, draws)
    first_cards = solver.draws(start)
    passes = 1 if seen.infinite else 2
    with Progress(passes * len(first_cards), "splits, by the first hand's second card", enabled=progress) as bar:
        if not seen.infinite:  # first the sets of cards gone the dealer meets, to compute its tables in one batch
            wanted: list[tuple[Counts, tuple[int, int] | None]] = [(removed, None)
                                                                   for removed in solver.dealer_sets(start, bar)]
            seen.prefetch(wanted, upcard)
        w = solver.first_deal(start, bar)
    split = OptimalSplit(pair, upcard, w, seen.natural_chance(start, upcard), rules.excludes_natural,
                         rules.hole_card == "peek")
    if not departures:
        return split
    return _with_departures(split, solver, lambda *position: _recursive_play(solver, *position))


def _split_in_batches(rules: GameRules, seen: SeenCards, pair: int, upcard: int, progress: bool | None,
                      departures: bool) -> OptimalSplit:
    """:func:`optimal_split` of a split to two hands on a finite shoe, valued in batches
    (:mod:`bjexact.player.split_batch`); the ``departures`` walked over the play the batches keep."""
    assert seen.dealer_oracle is not None  # a finite shoe's
    too_many = f"perfect post-split play needs more than {MAX_POSITIONS:,} positions here: use a smaller shoe"
    start = counts_of([pair, pair])
    if not departures:
        w = split_once_w(rules, seen.dealer_oracle, pair, upcard, seen.counts, limit=MAX_POSITIONS,
                         too_many=too_many, progress=progress)
        return OptimalSplit(pair, upcard, w, seen.natural_chance(start, upcard), rules.excludes_natural,
                            rules.hole_card == "peek")
    play = split_once_play(rules, seen.dealer_oracle, pair, upcard, seen.counts, limit=MAX_POSITIONS,
                           too_many=too_many, progress=progress)
    split = OptimalSplit(pair, upcard, play.w, seen.natural_chance(start, upcard), rules.excludes_natural,
                         rules.hole_card == "peek")
    solver = _Solver(rules, seen, pair, upcard, {})  # its draws only: the values are the batches'
    return _with_departures(split, solver, lambda *position: _batched_play(play, start, *position))


def _with_departures(split: OptimalSplit, solver: _Solver, play: Callable[..., Played]) -> OptimalSplit:
    """``split`` with its :attr:`~OptimalSplit.departures`, the optimum's play at each position from
    ``play`` (see :func:`_departures`)."""
    scale = 1 / (1 - split.natural) if split.peek and split.natural else mpq(1)
    cdz = FractionSolver(replace(solver.rules, split_strategy="cdz"), solver.cards)
    return replace(split, departures=_departures(solver, play, cdz, counts_of([split.pair] * 2), scale))


def _recursive_play(solver: _Solver, removed: Counts, done: _Done, hand: _Hand, waiting: int, hands: int) -> Played:
    """A position's play from the recursive solver's values (known once it has valued the split)."""
    values = solver.moves(removed, done, hand, waiting, hands)
    return Played(best_move(values), tuple(values), values.__getitem__)


def _batched_play(play: SplitPlay, start: Counts, removed: Counts, done: _Done, hand: _Hand, waiting: int,
                  hands: int) -> Played:
    """A position of a split to two hands (``hands`` 2) from the play the batches keep: the first hand
    while the second waits, else the second, after the first hand's total and stake (``done``)."""
    drawn = tuple(r - s for r, s in zip(removed, start, strict=True))
    if waiting:
        return play.first_hand(drawn)
    standing, lost = done
    total, stake = standing[0] if standing else (None, lost)
    return play.second_hand(drawn, hand.value, hand.cards, total, stake)


class _Solver:
    """The memoised values of the positions after one split (see :func:`optimal_split`)."""

    def __init__(self, rules: GameRules, cards: SeenCards, pair: int, upcard: int,
                 draws: dict[Counts, list[tuple[int, mpq, Counts]]]):
        self.rules, self.cards, self.pair, self.upcard = rules, cards, pair, upcard
        self._draws = draws  # cards gone -> the player's next card (see :meth:`draws`)
        self.natural_costs_one = rules.excludes_natural
        self.weights = {total: stand_weights(total, not self.natural_costs_one) for total in range(16, 22)}
        self.limit = rules.split_limit(pair)
        self.may_hit = rules.may_hit_split(pair)
        self._dealt: dict[tuple[Counts, _Done, int, int], mpq] = {}
        # a position keyed by its hand's total, softness, cards and whether they are two of the pair (what
        # :class:`_Hand` holds), plain values hashed without calling Python
        self._played: dict[tuple[Counts, _Done, int, bool, int, bool, int, int], mpq] = {}
        self._doubles: dict[tuple[int, bool, int], bool] = {}  # (total, soft, cards) -> may double
        self._pair_value = hand_value([pair])
        self._final: dict[tuple[Counts, _Done], mpq] = {}

    def _key(self, removed: Counts) -> Counts:
        return () if self.cards.infinite else removed

    def first_deal(self, start: Counts, bar: Progress) -> mpq:
        """W of the split: the first hand takes its second card, one hand waits (:meth:`deal`, with
        ``bar`` advanced by each card)."""
        draws = self.draws(start)
        if not draws:
            raise BjexactError("the shoe runs out before every split hand has its second card")
        total = _ZERO
        for rank, p, after in draws:
            total += p * self.play(after, _NOTHING_DONE, self.second_card(rank), 1, 2)
            bar.advance()
        return total

    def hands_played(self, waiting: int, hands: int) -> int:
        """Which split hand is in play (1 = the first) when ``waiting`` wait and ``hands`` are on the table."""
        return hands - waiting

    def second_card(self, rank: int) -> _Hand:
        """A split hand (one card of the pair) with its second card ``rank``."""
        return _Hand(add_card(hand_value([self.pair]), rank), 2, rank == self.pair)

    def draws(self, removed: Counts) -> list[tuple[int, mpq, Counts]]:
        """(rank, chance, cards gone after it) of the player's next card; empty when only the hole
        card is unseen."""
        found = self._draws.get(removed)
        if found is None:
            found = self._draws[removed] = [
                (rank, p, removed if self.cards.infinite else add_counts(removed, counts_of([rank])))
                for rank, p in self.cards.draws(removed, self.upcard, NOTHING_GONE)]
        return found

    def dealer_sets(self, start: Counts, bar: Progress) -> set[Counts]:
        """The sets of cards gone the dealer meets with a hand standing (to compute its tables in one batch
        before :meth:`first_deal` values the split): every position :meth:`first_deal` reaches, walked without
        valuing it (``bar`` advanced by each of the first hand's second cards, as there). Of the finished
        hands only whether one stands matters here, and of the hand in play, whether it holds two cards
        or more (its moves are the same at three cards as at more), which makes fewer positions.

        The walk raises where :meth:`first_deal` would run out of cards for a split hand's second card,
        before any dealer's table is computed. (A set missed here would only be computed on its own when
        met: the values never depend on this walk.)"""
        pair, first, limit, may_hit = self.pair, self._pair_value, self.limit, self.may_hit
        draws_of, doubles = self.draws, self._may_double
        found: set[Counts] = set()
        dealt: set[tuple[Counts, bool, int, int]] = set()
        played: set[tuple[Counts, bool, HandValue, int, bool, int, int]] = set()
        # the positions still to walk: (cards gone, a hand stands, hand value, cards, paired, waiting, hands);
        # a hand value None for a split hand about to take its second card
        todo: list[tuple[Counts, bool, HandValue | None, int, bool, int, int]] = []

        def finish(removed: Counts, standing: bool, waiting: int, hands: int) -> None:
            if waiting:
                todo.append((removed, standing, None, 0, False, waiting - 1, hands))
            elif standing:
                found.add(removed)

        for rank, _, after in self._first_draws(start):
            todo.append((after, False, add_card(first, rank), 2, rank == pair, 1, 2))
            while todo:
                removed, standing, value, cards, paired, waiting, hands = todo.pop()
                if value is None:  # a split hand takes its second card (:meth:`deal`)
                    if (removed, standing, waiting, hands) in dealt:
                        continue
                    dealt.add((removed, standing, waiting, hands))
                    draws = draws_of(removed)
                    if not draws:
                        raise BjexactError("the shoe runs out before every split hand has its second card")
                    todo.extend((after, standing, add_card(first, r), 2, r == pair, waiting, hands)
                                for r, _, after in draws)
                    continue
                key = (removed, standing, value, cards, paired, waiting, hands)
                if key in played:
                    continue
                played.add(key)
                if len(played) > MAX_POSITIONS:
                    raise BjexactError(
                        f"perfect post-split play needs more than {MAX_POSITIONS:,} positions here (several GB "
                        f"in exact arithmetic): split fewer hands (--split-hands 2) or use a smaller shoe")
                finish(removed, True, waiting, hands)  # stand
                draws = draws_of(removed)
                if draws:
                    if cards > 2 or may_hit:
                        for r, _, after in draws:
                            drawn = add_card(value, r)
                            if drawn.bust:
                                finish(after, standing, waiting, hands)
                            else:
                                todo.append((after, standing, drawn, 3, False, waiting, hands))
                    if doubles(value, cards):
                        for r, _, after in draws:
                            finish(after, standing or not add_card(value, r).bust, waiting, hands)
                if paired and hands < limit:
                    todo.append((removed, standing, None, 0, False, waiting + 1, hands + 1))  # split
            bar.advance()
        return found

    def _first_draws(self, start: Counts) -> list[tuple[int, mpq, Counts]]:
        draws = self.draws(start)
        if not draws:
            raise BjexactError("the shoe runs out before every split hand has its second card")
        return draws

    def _may_double(self, value: HandValue, cards: int) -> bool:
        """Whether the hand in play, worth ``value`` with ``cards`` cards, may double (memoised)."""
        key = (value.total, value.soft, cards)
        doubles = self._doubles.get(key)
        if doubles is None:
            doubles = self._doubles[key] = self.rules.may_double(value, split_pair=self.pair, cards=cards)
        return doubles

    def deal(self, removed: Counts, done: _Done, waiting: int, hands: int) -> mpq:
        """W from the moment the next split hand (one card of the pair) takes its second card;
        ``waiting`` more wait behind it, ``hands`` are on the table."""
        if self.cards.infinite and done != _NOTHING_DONE:  # nothing seen matters: the hands' values add up
            return self.final(removed, done) + self.deal(removed, _NOTHING_DONE, waiting, hands)
        key = (self._key(removed), done, waiting, hands)
        found = self._dealt.get(key)
        if found is None:
            draws = self.draws(removed)
            if not draws:
                raise BjexactError("the shoe runs out before every split hand has its second card")
            pair, first = self.pair, self._pair_value
            found = _ZERO
            for rank, p, after in draws:  # :meth:`second_card`'s hands
                found += p * self._play(after, done, add_card(first, rank), 2, rank == pair, waiting, hands)
            self._dealt[key] = found
        return found

    def play(self, removed: Counts, done: _Done, hand: _Hand, waiting: int, hands: int) -> mpq:
        """W of the hand in play at its best move (the moves of the module docstring)."""
        return self._play(removed, done, hand.value, hand.cards, hand.paired, waiting, hands)

    def _play(self, removed: Counts, done: _Done, value: HandValue, cards: int, paired: bool, waiting: int,
              hands: int) -> mpq:
        """:meth:`play` of the hand ``_Hand(value, cards, paired)``, taken apart (no object is built, none
        hashed, on the way through millions of positions)."""
        infinite = self.cards.infinite
        if infinite and done != _NOTHING_DONE:
            return self.final(removed, done) + self._play(removed, _NOTHING_DONE, value, cards, paired, waiting, hands)
        key = (() if infinite else removed, done, value.total, value.soft, cards, paired, waiting, hands)
        found = self._played.get(key)
        if found is None:
            found = max(self._move_values(removed, done, value, cards, paired, waiting, hands).values())
            self._played[key] = found
            if len(self._played) > MAX_POSITIONS:
                raise BjexactError(
                    f"perfect post-split play needs more than {MAX_POSITIONS:,} positions here (several GB "
                    f"in exact arithmetic): split fewer hands (--split-hands 2) or use a smaller shoe")
        return found

    def moves(self, removed: Counts, done: _Done, hand: _Hand, waiting: int, hands: int) -> dict[str, mpq]:
        """W of every move of the hand in play."""
        return self._move_values(removed, done, hand.value, hand.cards, hand.paired, waiting, hands)

    def _move_values(self, removed: Counts, done: _Done, value: HandValue, cards: int, paired: bool, waiting: int,
                     hands: int) -> dict[str, mpq]:
        """W of every move of the hand ``_Hand(value, cards, paired)`` in play (taken apart: no object is
        built or hashed on the way through millions of positions), in the order stand, hit, double, split."""
        values = {"stand": self.next_hand(removed, _stand(done, value.total, 1), waiting, hands)}
        draws = self.draws(removed)
        if draws:
            if cards > 2 or self.may_hit:
                hit, more = _ZERO, cards + 1
                for rank, p, after in draws:
                    drawn = add_card(value, rank)
                    if drawn.bust:
                        hit += p * self.next_hand(after, _finished(done, drawn, 1), waiting, hands)
                    else:
                        hit += p * self._play(after, done, drawn, more, False, waiting, hands)
                values["hit"] = hit
            if self._may_double(value, cards):
                double = _ZERO
                for rank, p, after in draws:
                    double += p * self.next_hand(after, _finished(done, add_card(value, rank), 2), waiting, hands)
                values["double"] = double
        if paired and hands < self.limit:
            values["split"] = self.deal(removed, done, waiting + 1, hands + 1)
        return values

    def next_hand(self, removed: Counts, done: _Done, waiting: int, hands: int) -> mpq:
        if waiting:
            return self.deal(removed, done, waiting - 1, hands)
        return self.final(removed, done)

    def final(self, removed: Counts, done: _Done) -> mpq:
        """W once every hand is finished: the dealer plays out against the standing hands."""
        key = (self._key(removed), done)
        found = self._final.get(key)
        if found is None:
            standing, lost = done
            no_natural = 1 - self.cards.natural_chance(removed, self.upcard) if self.natural_costs_one else 1
            found = -lost * no_natural
            if standing:
                numerators, denominator = self.cards.dealer(removed, self.upcard)
                if sum(numerators) != denominator:
                    raise BjexactError("the dealer's hand runs out of cards: the round cannot be completed")
                found += sum((stake * sum(w * n for w, n in zip(self.weights[total], numerators, strict=True))
                              for total, stake in standing), 0) / mpq(denominator)
            self._final[key] = found
        return found


def _departures(solver: _Solver, play: Callable[..., Played], cdz: FractionSolver, start: Counts,
                scale: mpq) -> tuple[Departure, ...]:
    """Every position the optimum reaches where its move is not CDZ-'s (:class:`Departure`), found by
    following the optimum's play forward from the split, position by position in the order of the
    cards gone (each move draws a card before the next position), the chances of the ways to a
    position summed; ``play(cards gone, done, hand, waiting, hands)``: a position's moves and the
    optimum's (:class:`~bjexact.player.split_batch.Played`); ``solver`` the draws; ``scale`` turns W
    into the values shown."""
    pair, upcard = solver.pair, solver.upcard
    # position -> chance; a position: (cards gone, finished hands as keyed, hand in play, waiting,
    # hands on the table, the hand's cards, the finished hands as shown)
    Position = tuple[Counts, _Done, _Hand, int, int, tuple[int, ...], _Before]
    by_size: dict[int, dict[Position, mpq]] = {}

    def reach(position: Position, chance: mpq) -> None:
        level = by_size.setdefault(sum(position[0]), {})
        level[position] = level.get(position, _ZERO) + chance

    def deal(removed: Counts, done: _Done, waiting: int, hands: int, before: _Before, chance: mpq) -> None:
        for rank, p, after in solver.draws(removed):
            reach((after, done, solver.second_card(rank), waiting, hands, (pair, rank), before), chance * p)

    def grown(cards: tuple[int, ...], rank: int) -> tuple[int, ...]:
        """A hand's cards as shown and keyed: the pair card, then the others in increasing rank."""
        return (cards[0], *sorted((*cards[1:], rank)))

    def finish(removed: Counts, done: _Done, waiting: int, hands: int, before: _Before, chance: mpq) -> None:
        if waiting:
            deal(removed, done, waiting - 1, hands, before, chance)

    found = []
    deal(start, _NOTHING_DONE, 1, 2, (), _ONE)
    while by_size:
        level = by_size.pop(min(by_size))
        for (removed, done, hand, waiting, hands, cards, before), chance in level.items():
            played = play(removed, done, hand, waiting, hands)
            move = played.best
            fixed = "split" if "split" in played.allowed else cdz.split_move(counts_of(cards), upcard, pair, hands)
            if fixed != move and fixed in played.allowed:
                # P(reach | no dealer natural) = P(reach) P(no natural | the cards seen there) / P(no natural)
                seen = (1 - solver.cards.natural_chance(removed, upcard)) * scale if scale != 1 else _ONE
                gain = played.value(move) - played.value(fixed)
                found.append(Departure(solver.hands_played(waiting, hands), cards, before, move, fixed,
                                       chance * seen, chance * gain * scale))
            if move == "stand":
                finish(removed, _stand(done, hand.value.total, 1), waiting, hands,
                       (*before, (cards, hand.value.total, 1)), chance)
            elif move == "split":
                deal(removed, done, waiting + 1, hands + 1, before, chance)
            else:
                for rank, p, after in solver.draws(removed):
                    value = add_card(hand.value, rank)
                    if move == "double" or value.bust:
                        stake = 2 if move == "double" else 1
                        finish(after, _finished(done, value, stake), waiting, hands,
                               (*before, (grown(cards, rank), "bust" if value.bust else value.total, stake)),
                               chance * p)
                    else:
                        reach((after, done, _Hand(value, hand.cards + 1, False), waiting, hands,
                               grown(cards, rank), before), chance * p)
    return tuple(sorted(found, key=lambda d: (-d.gain, -d.chance)))


def _stand(done: _Done, total: int, stake: int) -> _Done:
    standing, lost = done
    return tuple(sorted((*standing, (max(total, 16), stake)))), lost


def _finished(done: _Done, value: HandValue, stake: int) -> _Done:
    """``done`` with a hand of ``value`` finished with ``stake`` on it (busted or standing)."""
    if value.bust:
        return done[0], done[1] + stake
    return _stand(done, value.total, stake)

