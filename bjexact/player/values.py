"""The values of a hand's moves under optimal composition-dependent play, and their solvers.

Every value here is per unit initial bet and exact (the rules:
:class:`~bjexact.core.rules.GameRules`; the cards seen: :mod:`bjexact.player.seen`).

Composition-dependent play
    A hand's decisions depend on its own cards and the up-card (not on other
    hands' cards). Its values are computed from the cards unseen: the shoe less the
    hand's cards and the up-card; the hole card is one of them (by exchangeability it
    can be drawn after the player's cards), so the player can never draw the last
    unseen card.

Hole-card rules and the dealer's natural
    ``peek``: with a T or A up the dealer checks for a natural first; it takes the
    original bet only (a player natural pushes). Decisions are made knowing there
    is none, so a decision's value is conditioned on no dealer natural. Internally
    the solvers work with *unnormalised* values W = E[payoff, no dealer natural]
    (the same denominator P(no natural | cards seen) for every move of a
    position, so comparing W compares the conditioned values) and divide once
    for display (:class:`MoveValues`). ``enhc``: no hole card; a later dealer natural
    takes every bet on the table, doubles and splits included. ``obo`` with ``enhc``:
    only the original bet is lost to it, which makes every decision's W the same as
    under peek (the natural's loss of 1 is common to all moves but surrender).

Splits
    Post-split strategy (``GameRules.split_strategy``): a split hand chooses its moves
    by the values of its cards played on optimally with ``n`` other pair cards gone
    as well (:meth:`FractionSolver.strategy_pairs`): CDZ- ``n = 0``, the unsplit hand's
    strategy (other split hands' cards are ignored when choosing, not when computing
    values); CDP1 ``n = 1``, the first split hand's optimum, for every split hand;
    CDP ``n`` = the other split hands on the table when the hand is played (their
    first cards, the pair cards the player has seen; their other cards are ignored).
    Splitting once, CDP is CDP1. Two split hands (no resplit) are worth twice the
    first one: the other hand's cards, drawn by a stopping rule of its own, leave
    the dealer's next cards distributed as if they had not been drawn (a uniformly
    shuffled shoe stays uniform after a stopping time), so hand one is valued with
    only the other pair card removed. With resplits the hands are seen receiving
    their second cards first (:meth:`FractionSolver.split`). That changes no value as long
    as every hand's play depends only on its own cards and on the second cards dealt
    up to its own (each deal of cards to places has the same chance in either
    order): CDP's ``n`` is such a quantity, the hands on the table when the hand took
    its non-pair second card. So each hand depends only on that and on how many of
    the others' second cards are known not to be pair cards.

Engine
    On finite shoes :class:`EngineSolver` takes its values from :mod:`bjexact.player.engine`
    (integers over known denominators, the dealer in batches modulo primes): the same
    rationals as the fraction arithmetic of :class:`FractionSolver`, which the infinite deck,
    :func:`~bjexact.player.game.hand_moves`, the policies of :mod:`bjexact.player.policy` and
    ``solve_game(..., engine=False)`` still use.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.cards import RANKS, Counts, add_counts, counts_of
from ..core.choice import MOVES, best_move, hits, optimal_value
from ..core.display import Displayable
from ..core.numbers import mpq
from ..core.rules import GameRules
from ..errors import BjexactError
from .engine import UpcardEngine, stand_weights
from .seen import NOTHING_GONE, Gone, SeenCards
from .states import counts_value, hands_up_to_21

__all__ = ["MOVES", "MoveValues", "FractionSolver", "EngineSolver", "engine_covers", "solver_for", "add_card",
           "best_move"]

_ZERO = mpq(0)
_ONE = mpq(1)
_HALF = mpq(1, 2)

# where perfect post-split play is given so far
OPTIMAL_FOR_ONE_HAND = ("--split-strategy optimal (perfect post-split play) is given by bjexact hand, edge, chart "
                        "and sweep (values and best moves); the other commands take cdz, cdp1 or cdp")


def add_card(counts: Counts, rank: int) -> Counts:
    """``counts`` with one more card of ``rank``."""
    return counts[: rank - 1] + (counts[rank - 1] + 1,) + counts[rank:]


@dataclass(frozen=True)
class MoveValues(Displayable):
    """The values (per unit initial bet) of the allowed moves of one two-card hand.

    ``w`` maps move -> W: E[payoff, no dealer natural] when a dealer natural costs the
    original bet only (peek, or ENHC with OBO), the plain expected value under ENHC;
    early surrender's W is its unconditional -1/2. ``natural``: P(dealer natural | the
    cards seen). ``peek``: the dealer checks first, so values are shown conditioned.
    """

    cards: tuple[int, ...]
    upcard: int
    w: Mapping[str, mpq]
    natural: mpq
    natural_costs_one: bool
    early_surrender: bool
    peek: bool

    def __repr__(self) -> str:
        return f"MoveValues(cards={self.cards!r}, upcard={self.upcard!r}, best={self.best!r}, values={self.values!r})"

    def unconditional(self, move: str) -> mpq:
        """What the round is worth with this move, dealer naturals included."""
        value = self.w[move]
        if move == "surrender" and self.early_surrender:
            return value
        return value - self.natural if self.natural_costs_one else value

    @property
    def best(self) -> str:
        """The move of largest value; ties go to the earlier move of :data:`MOVES`
        (:func:`~bjexact.core.choice.best_move`)."""
        return best_move({move: self.unconditional(move) for move in self.w})

    def value(self, move: str) -> mpq:
        """A move's value as the player weighs it: under peek with a ten or ace up conditioned
        on no dealer natural (early surrender, decided before the check, unconditional);
        otherwise unconditional."""
        if self.peek and self.natural and not (move == "surrender" and self.early_surrender):
            return self.w[move] / (1 - self.natural)
        return self.unconditional(move)

    @property
    def values(self) -> dict[str, mpq]:
        return {move: self.value(move) for move in self.w}

    @property
    def round_value(self) -> mpq:
        """The value of the dealt hand to the round: the best move, dealer naturals included."""
        return self.unconditional(self.best)


class FractionSolver:
    """Memoised exact values for one rule set, in fraction arithmetic. W values (see
    :class:`MoveValues`).

    The code path the engine (:class:`EngineSolver`, :mod:`bjexact.player.engine`) replaced
    where it reaches; still used for the infinite deck (through the engine solver), for one
    hand's moves (:func:`hand_moves`), for fixed policies (:mod:`bjexact.player.policy`), and
    by ``solve_game(..., engine=False)`` as an independent check of the engine."""

    def __init__(self, rules: GameRules, cards: SeenCards | None = None):
        if rules.split_strategy == "optimal":
            raise BjexactError(OPTIMAL_FOR_ONE_HAND)
        self.rules = rules
        self.cards = SeenCards(rules) if cards is None else cards  # shared: the dealer's rows are the shoe's
        self.natural_loses = not rules.excludes_natural
        # total (4..21) -> the payoff of standing on it for each dealer outcome, in the order of
        # OUTCOMES; a natural's weight follows ``natural_loses`` (read-only, shared with callers)
        self.stand_weights_by_total = {t: stand_weights(t, self.natural_loses) for t in range(4, 22)}
        self._cont: dict[Any, tuple[mpq, mpq | None]] = {}
        self._split_cont: dict[Any, mpq] = {}
        self._stand: dict[Any, mpq] = {}
        self._scale: dict[Any, mpq] = {}
        self._split_two: dict[Any, mpq] = {}
        self._first_cont: dict[Any, tuple[mpq, mpq | None]] = {}
        self._later: dict[Any, mpq] = {}
        self._later_double: dict[Any, mpq | None] = {}

    def hand_key(self, hand: Counts) -> Any:
        """Memo key of a hand's values, for this solver's memos and those of its subclasses and users
        (:mod:`bjexact.player.distribution`): the hand's counts for a finite shoe; for the infinite
        deck its values depend on (total, soft) only (and on the card count under a Charlie rule)."""
        if self.cards.infinite:
            value = counts_value(hand)
            return (value.total, value.soft) if self.rules.charlie is None else (value.total, value.soft, sum(hand))
        return hand

    def _gone_key(self, hand: Counts, upcard: int, gone: Gone) -> Any:
        """Memo key of what has left the shoe: nothing matters on the infinite deck."""
        if self.cards.infinite:
            return upcard
        return (add_counts(hand, gone.extra), upcard, gone.key)

    def scale(self, hand: Counts, upcard: int, gone: Gone) -> mpq:
        """The weight of a payoff settled before the dealer plays (a bust): P(no natural) when
        a dealer natural is left out, else 1."""
        if self.natural_loses:
            return _ONE
        key = self._gone_key(hand, upcard, gone)
        found = self._scale.get(key)
        if found is None:
            found = self._scale[key] = 1 - self.cards.natural_chance(add_counts(hand, gone.extra), upcard, gone)
        return found

    def stand(self, hand: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> mpq:
        """W of standing with ``hand``."""
        total = max(counts_value(hand).total, 4)
        key = (total, self._gone_key(hand, upcard, gone))
        found = self._stand.get(key)
        if found is None:
            numerators, denominator = self.cards.dealer(add_counts(hand, gone.extra), upcard, gone)
            weights = self.stand_weights_by_total[total]
            found = mpq(sum(w * n for w, n in zip(weights, numerators) if w), denominator)
            if self.cards.recording is None or not gone.pair:  # no zeros kept from a dry run
                self._stand[key] = found
        return found

    def hit_value(self, hand: Counts, upcard: int, gone: Gone, then: Callable[[Counts], mpq]) -> mpq | None:
        """W of drawing one card to ``hand`` with ``gone`` also out of the shoe, then ``then(new hand)``
        (never called on a bust: a bust loses the stake at once, scaled as :meth:`scale` says);
        ``None`` when no card can be drawn (only the hole card is unseen)."""
        draws = self.cards.draws(add_counts(hand, gone.extra), upcard, gone)
        if not draws:
            return None
        total = _ZERO
        for rank, p in draws:
            new = add_card(hand, rank)
            if counts_value(new).bust:
                total -= p * self.scale(new, upcard, gone)
            elif self.is_charlie(new):
                total += p * self.charlie(new, upcard, gone)
            else:
                total += p * then(new)
        return total

    def is_charlie(self, hand: Counts) -> bool:
        """Whether ``hand`` (counts) is a Charlie: finished, it wins 1:1 (:meth:`GameRules.is_charlie`)."""
        return self.rules.charlie is not None and self.rules.is_charlie(sum(hand), counts_value(hand))

    def charlie(self, hand: Counts, upcard: int, gone: Gone) -> mpq:
        """W of a Charlie per unit of its stake: it wins unless the dealer has a natural, which is left
        out under peek and OBO (W is P(no natural)); under ENHC the natural takes it: 1 - 2 P(natural)."""
        if not self.natural_loses:
            return self.scale(hand, upcard, gone)
        return 1 - 2 * self.cards.natural_chance(add_counts(hand, gone.extra), upcard, gone)

    def continuation(self, hand: Counts, upcard: int) -> tuple[mpq, mpq | None]:
        """(stand, hit) W of an unsplit hand that may only stand or hit from here."""
        key = (self.hand_key(hand), upcard)
        found = self._cont.get(key)
        if found is None:
            stand = self.stand(hand, upcard)
            hit = self.hit_value(hand, upcard, NOTHING_GONE, lambda new: self.later_value(new, upcard))
            found = self._cont[key] = (stand, hit)
        return found

    def later_value(self, hand: Counts, upcard: int, pair: int = 0, pairs_gone: int = 0) -> mpq:
        """W of an unsplit hand of three or more cards played on optimally: the best of standing,
        hitting and, with ``double_after_hit``, doubling (with ``pairs_gone`` cards of ``pair``
        gone too: the values a split strategy chooses by, :meth:`post_split_continuation`)."""
        key = (self.hand_key(hand), upcard, pair, pairs_gone)
        found = self._later.get(key)
        if found is None:
            values = self.post_split_continuation(hand, upcard, pair, pairs_gone)
            found = optimal_value(*values)
            double = self.later_double(hand, upcard, _pairs_gone(pair, pairs_gone)) \
                if self.may_double(hand) else None
            if double is not None and double > found:
                found = double
            self._later[key] = found
        return found

    def later_double(self, hand: Counts, upcard: int, gone: Gone) -> mpq | None:
        """W of doubling a hand of three or more cards (memoised: a position is reached by many lines)."""
        key = (self.hand_key(hand), upcard, gone.pair if self.cards.infinite else gone)
        if key not in self._later_double:
            self._later_double[key] = self.double(hand, upcard, gone)
        return self._later_double[key]

    def later_move(self, hand: Counts, upcard: int) -> str:
        """The move of an unsplit hand of three or more cards: stand, hit or (``double_after_hit``)
        double, the first of equal values."""
        stand, hit = self.continuation(hand, upcard)
        options = {"stand": stand} | ({"hit": hit} if hit is not None else {})
        if self.may_double(hand):
            double = self.later_double(hand, upcard, NOTHING_GONE)
            if double is not None:
                options["double"] = double
        return best_move(options)

    def double(self, hand: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> mpq | None:
        one_card = self.hit_value(hand, upcard, gone, lambda new: self.stand(new, upcard, gone))
        return None if one_card is None else 2 * one_card

    def may_double(self, hand: Counts, split_pair: int | None = None) -> bool:
        """Whether ``hand`` (counts) may double (a split hand of ``split_pair``): the rules say."""
        return self.rules.may_double(counts_value(hand), split_pair=split_pair, cards=sum(hand))

    def moves(self, cards: tuple[int, int], upcard: int) -> MoveValues:
        """The W of every allowed move of an unsplit two-card hand."""
        hand = counts_of(cards)
        stand, hit = self.continuation(hand, upcard)
        moves: dict[str, mpq] = {"stand": stand}
        if hit is not None:
            moves["hit"] = hit
        if self.may_double(hand):
            value = self.double(hand, upcard)
            if value is not None:
                moves["double"] = value
        if self.rules.may_split(cards):
            moves["split"] = self.split(cards[0], upcard)
        if self.rules.surrender != "none":
            early = self.rules.surrender == "early"
            moves["surrender"] = -_HALF if early else -_HALF * self.scale(hand, upcard, NOTHING_GONE)
        return MoveValues(cards, upcard, moves, self.cards.natural_chance(hand, upcard),
                          self.rules.excludes_natural, self.rules.surrender == "early",
                          self.rules.hole_card == "peek")

    # --- splits ---

    def split_limit(self, pair: int) -> int:
        """The most hands splitting ``pair`` can make (aces are resplit only with RSA)."""
        return self.rules.split_limit(pair)

    def strategy_pairs(self, hands: int) -> int:
        """How many pair cards besides its own a split hand's strategy takes as gone, the hand
        played while ``hands`` split hands are on the table: none (CDZ-: the unsplit hand's
        strategy), one (CDP1: the first split hand's), or the other hands' ``hands - 1`` (CDP).
        On the infinite deck none: no card seen changes a chance, so every split strategy is CDZ-."""
        if self.cards.infinite:
            return 0
        strategy = self.rules.split_strategy
        return 0 if strategy == "cdz" else 1 if strategy == "cdp1" else hands - 1

    def split(self, pair: int, upcard: int) -> mpq:
        """W of splitting ``pair``: the sum of the split hands' values.

        Seen in this order (which leaves every value unchanged, see the module
        docstring): first the hands receive their second cards, a pair card starting
        a new hand while fewer than the most hands are on the table; then each hand
        is played. Until the limit is reached a second card is known not to be a pair
        card; once it is, the waiting hands' second cards are plain draws. A pattern
        (``hands``, ``made[k]`` hands given a non-pair card while k + 2 hands were on
        the table, ``waiting`` at the limit) has an exact chance. Given it, one hand's
        value depends on its own cards, the other hands' first cards (pair cards,
        seen) and the others' ``b = sum(made)`` known-not-pair second cards (otherwise
        unknown: :class:`Gone`); the plain draws of other hands are uniform removals,
        which change nothing. Its strategy (:meth:`strategy_pairs`) depends on how
        many hands were on the table when it took its second card (CDP).
        """
        # on the infinite deck a hand's value does not depend on the pattern (no card seen changes a
        # chance): found once per kind of second card and strategy
        same: dict[tuple[bool, int], mpq] | None = {} if self.cards.infinite else None

        def hand(gone: Gone, strategy: int, not_pair: bool) -> mpq:
            """W of one split hand over its second card (``not_pair``: known not to be a pair card)."""
            found = None if same is None else same.get((not_pair, strategy))
            if found is None:
                chances = self.cards.chances(add_counts(gone.extra, counts_of([pair])), upcard, gone)
                others = 1 - chances[pair - 1] if not_pair else _ONE
                found = sum((c / others * self._split_two_cards(counts_of([pair, x]), upcard, gone, strategy)
                             for x, c in zip(RANKS, chances) if c and not (not_pair and x == pair)), _ZERO)
                if same is not None:
                    same[(not_pair, strategy)] = found
            return found

        total = _ZERO
        for chance, hands, made, waiting in self.split_patterns(pair, upcard):
            extra = counts_of([pair] * (hands - 1))
            b = sum(made)
            if b:  # a hand whose second card x is not a pair card; b - 1 others like it, unknown
                for strategy, count in self._hands_by_strategy(made).items():
                    total += chance * count * hand(Gone(extra, pair, b - 1), strategy, True)
            if waiting:  # a hand that draws its second card once no more hands can be made
                total += chance * waiting * hand(Gone(extra, pair, b), self.strategy_pairs(hands), False)
        return total

    def _hands_by_strategy(self, made: tuple[int, ...]) -> dict[int, int]:
        """How many of the hands ``made`` counts (see :meth:`split_patterns`) play each strategy."""
        found: dict[int, int] = {}
        for k, count in enumerate(made):
            if count:
                strategy = self.strategy_pairs(k + 2)
                found[strategy] = found.get(strategy, 0) + count
        return found

    def split_patterns(self, pair: int, upcard: int) -> list[tuple[mpq, int, tuple[int, ...], int]]:
        """(chance, hands, made, waiting) of how the split hands' second cards fall, up to the
        limit, given the pair and ``upcard`` dealt: ``made[k]`` hands took a non-pair card while
        k + 2 hands were on the table, ``hands`` were split in all and ``waiting`` still wait for a
        second card when the limit stops resplitting (they keep any card). Chances sum to 1."""
        limit = self.split_limit(pair)
        if self.cards.infinite:
            p_pair_always = self.cards.shoe.draw_probabilities()[pair - 1]
        else:
            left = self.cards.unseen(counts_of([pair, pair]), upcard)
            pairs_left, unseen = left[pair - 1], sum(left)
        found: dict[tuple[int, tuple[int, ...], int], mpq] = {}
        start: tuple[int, ...] = (0,) * (limit - 1)
        pending = [(_ONE, 2, 2, start)]  # chance, waiting, hands, made
        while pending:
            chance, waiting, hands, made = pending.pop()
            if not waiting or hands == limit:
                key = (hands, made, waiting)
                found[key] = found.get(key, _ZERO) + chance
                continue
            b = sum(made)
            if self.cards.infinite:
                p_pair = p_pair_always
            else:
                drawn_pairs = hands - 2
                if unseen - drawn_pairs - b <= 1:
                    raise BjexactError("the shoe is too small to deal the split hands")
                p_pair = mpq(pairs_left - drawn_pairs, unseen - drawn_pairs - b)
            if p_pair:
                pending.append((chance * p_pair, waiting + 1, hands + 1, made))
            if p_pair != 1:
                now = made[: hands - 2] + (made[hands - 2] + 1,) + made[hands - 1:]
                pending.append((chance * (1 - p_pair), waiting - 1, hands, now))
        return [(chance, hands, made, waiting) for (hands, made, waiting), chance in found.items()]

    def split_move(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> str:
        """The move of a split hand of ``pair`` once it has its second card (no resplit), played
        while ``hands`` split hands are on the table: the best of the moves allowed after a
        split by the values of the hand played on optimally with :meth:`strategy_pairs` other
        pair cards gone (none: the unsplit hand's values, CDZ-)."""
        return self.split_move_by_strategy(hand, upcard, pair, self.strategy_pairs(hands))

    def split_move_by_strategy(self, hand: Counts, upcard: int, pair: int, strategy: int) -> str:
        """The move of a split hand of ``pair`` (two cards or, with ``double_after_hit``, more) against
        ``upcard`` when it plays the split strategy of ``strategy`` other pair cards gone (see
        :meth:`strategy_pairs`). A hook: :meth:`split_move` and the split valuation ask it for every
        post-split move, so a subclass that plays split hands otherwise (a chart) overrides it."""
        if (sum(hand) == 2 and counts_value(hand).total == 21) or not self.rules.may_hit_split(pair):
            return "stand"
        gone = _pairs_gone(pair, strategy)
        stand, hit = self.post_split_continuation(hand, upcard, pair, strategy)
        options = {"stand": stand}
        if hit is not None:
            options["hit"] = hit
        if self.may_double(hand, pair):
            double = self.double(hand, upcard, gone)
            if double is not None:
                options["double"] = double
        return best_move(options)

    def continues_hitting(self, hand: Counts, upcard: int) -> bool:
        """Whether an unsplit hand of three or more cards hits (ties go to standing)."""
        stand, hit = self.continuation(hand, upcard)
        return hits(stand, hit)

    def split_hits(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> bool:
        """Whether a split hand of ``pair`` with three or more cards hits, by the split strategy,
        played while ``hands`` split hands are on the table."""
        return self.split_hits_by_strategy(hand, upcard, pair, self.strategy_pairs(hands))

    def split_hits_by_strategy(self, hand: Counts, upcard: int, pair: int, strategy: int) -> bool:
        """Whether a split hand of ``pair`` with three or more cards hits against ``upcard`` when it
        plays the split strategy of ``strategy`` other pair cards gone (ties go to standing). A hook
        like :meth:`split_move_by_strategy`: :meth:`split_hits` and the split valuation ask it."""
        stand, hit = self.post_split_continuation(hand, upcard, pair, strategy)
        return hits(stand, hit)

    def post_split_continuation(self, hand: Counts, upcard: int, pair: int, pairs_gone: int) -> tuple[mpq, mpq | None]:
        """(stand, hit) W of a hand of ``pair`` played optimally from here with ``pairs_gone``
        other pair cards gone too: the values a split strategy is chosen by (none gone: the
        unsplit hand's :meth:`continuation`, CDZ-; one: the first split hand's, CDP1)."""
        if not pairs_gone:
            return self.continuation(hand, upcard)
        key = (self.hand_key(hand), upcard, pair, pairs_gone)
        found = self._first_cont.get(key)
        if found is None:
            gone = _pairs_gone(pair, pairs_gone)
            stand = self.stand(hand, upcard, gone)
            hit = self.hit_value(hand, upcard, gone, lambda new: self.later_value(new, upcard, pair, pairs_gone))
            found = self._first_cont[key] = (stand, hit)  # its rows are batched before any dry run
        return found

    def _split_two_cards(self, hand: Counts, upcard: int, gone: Gone, strategy: int) -> mpq:
        """W of a split hand once it has its second card (and cannot be resplit), played by the
        strategy that takes ``strategy`` other pair cards as gone."""
        key = (hand, upcard, gone.pair if self.cards.infinite else gone, strategy)
        found = self._split_two.get(key)
        if found is None:
            found = self._split_two_cards_now(hand, upcard, gone, strategy)
            if self.cards.recording is None:
                self._split_two[key] = found
        return found

    def _split_two_cards_now(self, hand: Counts, upcard: int, gone: Gone, strategy: int) -> mpq:
        move = self.split_move_by_strategy(hand, upcard, gone.pair, strategy)
        if move == "double":
            doubled = self.double(hand, upcard, gone)
            if doubled is None:
                raise BjexactError("the shoe is too small to deal the split hands")
            return doubled
        if move == "hit":
            return self._split_hit(hand, upcard, gone, strategy)
        return self.stand(hand, upcard, gone)

    def _split_hit(self, hand: Counts, upcard: int, gone: Gone, strategy: int) -> mpq:
        result = self.hit_value(hand, upcard, gone, lambda new: self._split_continuation(new, upcard, gone, strategy))
        if result is None:
            raise BjexactError("the shoe is too small to deal the split hands")
        return result

    def _split_continuation(self, hand: Counts, upcard: int, gone: Gone, strategy: int) -> mpq:
        """W of a split hand of three or more cards, played by its split strategy."""
        key = (self.hand_key(hand), upcard, None if self.cards.infinite else gone, strategy)
        found = self._split_cont.get(key)
        if found is None:
            if self.rules.double_after_hit and self.may_double(hand, gone.pair):
                found = self._split_two_cards_now(hand, upcard, gone, strategy)  # may double: chosen alike
            elif self.split_hits_by_strategy(hand, upcard, gone.pair, strategy):
                found = self._split_hit(hand, upcard, gone, strategy)
            else:
                found = self.stand(hand, upcard, gone)
            self._split_cont[key] = found
        return found

    # --- batching the dealer ---

    def prefetch(self, upcard: int) -> None:
        """Batch the dealer's distributions of every hand this up-card will ask about.

        Unsplit hands: every composition (each may stand). Split hands: only where
        they stand, found by a dry run (their moves follow the unsplit values).
        """
        if self.cards.infinite:
            return
        shoe = self.cards.counts
        self.cards.prefetch([(hand, None) for hand in hands_up_to_21(shoe, upcard)], upcard)
        pairs = [p for p in RANKS if self.rules.split_hands >= 2 and shoe[p - 1] - (p == upcard) >= 2]
        self.prefetch_splits(pairs, upcard)

    def prefetch_hand(self, cards: tuple[int, ...], upcard: int) -> None:
        """Batch the dealer's distributions one hand can ask about: every hand holding its
        cards and, for a pair that may be split, every hand a split hand can become."""
        if self.cards.infinite:
            return
        pair = self.rules.may_split(cards)
        hands = hands_up_to_21(self.cards.counts, upcard, start=cards[:1] if pair else cards)
        self.cards.prefetch([(hand, None) for hand in hands], upcard)
        if pair:
            self.prefetch_splits([cards[0]], upcard)

    def prefetch_splits(self, pairs: list[int], upcard: int) -> None:
        """Batch the dealer's distributions of the split hands of ``pairs`` where they stand,
        found by a dry run (their moves follow the unsplit hands' values)."""
        for pair in pairs:  # the rows that choose the split hands' moves (CDP1, CDP) come first
            for pairs_gone in self._strategy_pairs_used(pair, upcard):
                if pairs_gone:
                    extra = counts_of([pair] * pairs_gone)
                    hands = hands_up_to_21(self.cards.counts, upcard, start=(pair,), extra=extra)
                    self.cards.prefetch([(add_counts(hand, extra), None) for hand in hands], upcard)
        needed: set[tuple[Counts, tuple[int, int] | None]] = set()
        self.cards.recording = needed
        try:
            for pair in pairs:
                self.split(pair, upcard)
        finally:
            self.cards.recording = None
            self._split_cont.clear()
        self.cards.prefetch(sorted(needed, key=lambda item: (item[1] or (0, 0), item[0])), upcard)

    def _strategy_pairs_used(self, pair: int, upcard: int) -> set[int]:
        """The values of :meth:`strategy_pairs` the split hands of ``pair`` can be played by."""
        left = self.cards.counts[pair - 1] - 2 - (pair == upcard)
        most = min(self.split_limit(pair), 2 + max(left, 0))
        return {self.strategy_pairs(hands) for hands in range(2, most + 1)}

def engine_covers(rules: GameRules) -> bool:
    """Whether :mod:`bjexact.player.engine` can value ``rules``: not with doubling after hitting (its
    positions are two-card decisions then stand or hit), nor with plain naturals (its dealer rows keep
    a natural apart), which :func:`~bjexact.player.game.solve_game` values in fraction arithmetic
    instead. A Charlie it covers (a hand of the Charlie's count is a position of its own).

    >>> engine_covers(GameRules(decks=6, split_hands=8)), engine_covers(GameRules(decks=6, charlie=5))
    (True, True)
    >>> engine_covers(GameRules(decks=6, double_after_hit=True))
    False
    """
    return not rules.double_after_hit and not rules.plain_naturals


class EngineSolver(FractionSolver):
    """:class:`FractionSolver` whose values come from :mod:`bjexact.player.engine` (integers over
    known denominators, few dealer batches per up-card) on a finite shoe: every unsplit
    hand's stand, hit and double, the splits of pairs that make two hands at most, and the
    split hands of resplits (the patterns of second cards of :meth:`FractionSolver.split` stay here,
    in fractions, weighing the engine's values). The rest stays with the inherited fraction
    arithmetic: the infinite deck (a small table of totals) and the distribution of the net
    result."""

    def __init__(self, rules: GameRules, cards: SeenCards | None = None):
        super().__init__(rules, cards)
        self._engines: dict[int, UpcardEngine] = {}
        self._requests: set[tuple[int, int, int, int]] | None = None  # while the split hands are listed
        self._prepared: set[tuple[int, int]] = set()

    def _engine(self, upcard: int) -> UpcardEngine | None:
        if self.cards.infinite:
            return None
        found = self._engines.get(upcard)
        if found is None:
            shoe = self.cards.counts
            pairs = [p for p in RANKS if self.rules.split_hands >= 2 and self.split_limit(p) == 2
                     and shoe[p - 1] - (p == upcard) >= 2]
            assert self.cards.dealer_oracle is not None  # finite shoes only
            found = self._engines[upcard] = UpcardEngine(self.rules, shoe, upcard, self.cards.dealer_oracle, pairs)
            self.cards.sources[upcard] = found.row  # the fraction arithmetic reads the same rows
        return found

    def prefetch(self, upcard: int) -> None:
        engine = self._engine(upcard)
        if engine is None:
            return
        shoe = self.cards.counts
        self._prepare([p for p in RANKS if self.rules.split_hands >= 2 and p not in engine.pairs
                       and shoe[p - 1] - (p == upcard) >= 2], upcard, engine)

    def prefetch_hand(self, cards: tuple[int, ...], upcard: int) -> None:
        if len(cards) == 2 and cards[0] == cards[1] and self.rules.split_hands >= 2:
            self.prefetch_pairs([cards[0]], upcard)
        else:
            self._engine(upcard)

    def prefetch_pairs(self, pairs: list[int], upcard: int) -> None:
        """Prepare the splits of ``pairs`` against ``upcard`` together (fewer dealer batches)."""
        engine = self._engine(upcard)
        if engine is not None:
            self._prepare([p for p in pairs if p not in engine.pairs], upcard, engine)

    def _prepare(self, pairs: list[int], upcard: int, engine: UpcardEngine) -> None:
        """List the split hands the resplits of ``pairs`` value (a dry run of :meth:`FractionSolver.split`),
        then let the engine walk the dealer for them in few batches."""
        wanted: dict[int, list[tuple[int, int, int, int]]] = {}
        for pair in pairs:
            if (pair, upcard) in self._prepared:
                continue
            self._requests = set()
            try:
                super().split(pair, upcard)
                wanted[pair] = sorted(self._requests)
            finally:
                self._requests = None
        engine.prepare_splits(wanted)
        self._prepared.update((pair, upcard) for pair in wanted)

    def continuation(self, hand: Counts, upcard: int) -> tuple[mpq, mpq | None]:
        engine = self._engine(upcard)
        # the engine values a Charlie as finished, never played on: what standing or hitting it would be
        # worth (asked by a simulator's play) comes from the fractions, here and below
        if engine is None or self.is_charlie(hand):
            return super().continuation(hand, upcard)
        key = (hand, upcard)
        found = self._cont.get(key)
        if found is None:
            stand, hit = engine.optimal(hand)
            denominator = engine.denominator(hand)
            found = self._cont[key] = (mpq(stand, denominator), None if hit is None else mpq(hit, denominator))
        return found

    def continues_hitting(self, hand: Counts, upcard: int) -> bool:
        engine = self._engine(upcard)
        if engine is None or self.is_charlie(hand):
            return super().continues_hitting(hand, upcard)
        return hits(*engine.optimal(hand))  # one denominator: the integers compare as the values

    def double(self, hand: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> mpq | None:
        engine = self._engine(upcard)
        if engine is None or gone != NOTHING_GONE or self.is_charlie(hand):
            return super().double(hand, upcard, gone)
        value = engine.double(hand)
        return None if value is None else mpq(value, engine.denominator(hand))

    def split(self, pair: int, upcard: int) -> mpq:
        engine = self._engine(upcard)
        if engine is None:
            return super().split(pair, upcard)
        if pair not in engine.pairs:
            self._prepare([pair], upcard, engine)
            return super().split(pair, upcard)
        return mpq(engine.split(pair), engine.denominator(counts_of([pair, pair])))

    def _split_two_cards(self, hand: Counts, upcard: int, gone: Gone, strategy: int) -> mpq:
        engine = self._engine(upcard)
        if engine is None:
            return super()._split_two_cards(hand, upcard, gone, strategy)
        pair = gone.pair
        second = pair if hand[pair - 1] == 2 else next(r for r in RANKS if hand[r - 1] and r != pair)
        request = (second, sum(gone.extra), gone.hidden, strategy)
        if self._requests is not None:  # listing the split hands
            self._requests.add(request)
            return _ZERO
        value, denominator = engine.split_hand_value(*request, pair)
        return mpq(value, denominator)


def solver_for(rules: GameRules, engine: bool = True) -> FractionSolver:
    """The solver of ``rules``: through the engine where it covers them (:func:`engine_covers`) and
    ``engine`` asks for it, else in fraction arithmetic (the same values)."""
    return EngineSolver(rules) if engine and engine_covers(rules) else FractionSolver(rules)


def _pairs_gone(pair: int, count: int) -> Gone:
    """``count`` pair cards gone besides a split hand's own cards (one: the first split hand's)."""
    return Gone(counts_of([pair] * count), pair, 0) if count else NOTHING_GONE
