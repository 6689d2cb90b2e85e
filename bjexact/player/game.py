"""The casino game: stand, hit, double, split, surrender, insurance; the exact house edge.

Model (the rules: :class:`~bjexact.core.rules.GameRules`): the player is dealt two
cards, the dealer an up-card and a hole card. Every value here is per unit initial
bet and exact.

Composition-dependent play
    A hand's decisions depend on its own cards and the up-card (not on other
    hands' cards). Its values are computed from the cards unseen: the shoe less
    the hand's cards and the up-card; the hole card is one of them (by
    exchangeability it can be drawn after the player's cards), so the player can
    never draw the last unseen card.

Hole-card rules and the dealer's natural
    ``peek``: with a T or A up the dealer checks for a natural first; it takes the
    original bet only (a player natural pushes). Decisions are made knowing there
    is none, so a decision's value is conditioned on no dealer natural. Internally
    the engine works with *unnormalised* values W = E[payoff, no dealer natural]
    (the same denominator P(no natural | cards seen) for every move of a
    position, so comparing W compares the conditioned values) and divides once
    for display. ``enhc``: no hole card; a later dealer natural takes every bet
    on the table, doubles and splits included. ``obo`` with ``enhc``: only the
    original bet is lost to it, which makes every decision's W the same as under
    peek (the natural's loss of 1 is common to all moves but surrender).

Splits
    Post-split strategy (``GameRules.split_strategy``): a split hand chooses its moves
    by the values of its cards played on optimally with ``n`` other pair cards gone
    as well (:meth:`_Solver.strategy_pairs`): CDZ- ``n = 0``, the unsplit hand's
    strategy (other split hands' cards are ignored when choosing, not when computing
    values); CDP1 ``n = 1``, the first split hand's optimum, for every split hand;
    CDP ``n`` = the other split hands on the table when the hand is played (their
    first cards, the pair cards the player has seen; their other cards are ignored).
    Splitting once, CDP is CDP1. Two split hands (no resplit) are worth twice the
    first one: the other hand's cards, drawn by a stopping rule of its own, leave
    the dealer's next cards distributed as if they had not been drawn (a uniformly
    shuffled shoe stays uniform after a stopping time), so hand one is valued with
    only the other pair card removed. With resplits the hands are seen receiving
    their second cards first (:meth:`_Solver.split`). That changes no value as long
    as every hand's play depends only on its own cards and on the second cards dealt
    up to its own (each deal of cards to places has the same chance in either
    order): CDP's ``n`` is such a quantity, the hands on the table when the hand took
    its non-pair second card. So each hand depends only on that and on how many of
    the others' second cards are known not to be pair cards.

Engine
    On finite shoes :func:`solve_game` takes its values from :mod:`bjexact.player.engine`
    (integers over known denominators, the dealer in batches modulo primes): the same
    rationals as the fraction arithmetic of :class:`_Solver`, which the infinite deck,
    :func:`hand_moves`, the policies of :mod:`bjexact.player.policy` and
    ``solve_game(..., engine=False)`` still use.

Results
    :func:`solve_game` gives every two-card hand's moves, the round's value by
    up-card and overall, and the distribution of its net result (on finite shoes
    with splits, with ``split_lines=True``, exact within a bound of work); :func:`hand_moves`
    one hand's moves; :meth:`GameSolution.chart` the basic strategy chart.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from math import gcd, prod
from typing import Any

from ..core.cards import (
    ACE,
    RANKS,
    STANDARD_PROPORTIONS,
    TEN,
    UPCARD_ORDER,
    Counts,
    FiniteShoe,
    RankKeyed,
    Shoe,
    add_counts,
    as_rank,
    counts_of,
    rank_symbol,
)
from ..core.display import Displayable
from ..core.frames import data_frame, upcard_label
from ..core.hand import hand_value, is_natural, natural_partner, player_hand
from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules
from ..core.text import decimal_string
from ..dealer.batch import OUTCOMES, DealerOracle, from_residues, moduli_above
from ..dealer.distributions import dealer_distributions
from ..errors import BjexactError
from ..progress import Progress
from .engine import UpcardEngine, stand_weights
from .states import counts_value, hands_up_to_21

__all__ = ["GameRules", "MOVES", "SPLIT_WORK_LIMIT", "Strategy", "GameSolution", "MoveValues", "ChartCell",
           "solve_game", "engine_covers", "hand_moves", "insurance_value", "even_money", "chart_code", "UPCARD_ORDER"]

MOVES = ("stand", "hit", "double", "split", "surrender")
_ZERO = mpq(0)
_ONE = mpq(1)
_HALF = mpq(1, 2)
_NO_CARDS: Counts = (0,) * 10


# --- card models -------------------------------------------------------------


@dataclass(frozen=True)
class Gone:
    """Cards that have left the shoe besides a hand's own cards and the up-card.

    ``extra``: seen cards (the other split hands' pair cards). ``hidden`` cards not
    of rank ``pair`` have gone too, each such set equally likely (the second cards
    of other split hands, which were not pair cards); see :class:`DealerOracle`.
    """

    extra: Counts = (0,) * 10
    pair: int = 0
    hidden: int = 0

    @property
    def key(self) -> tuple[int, int] | None:
        return (self.pair, self.hidden) if self.hidden else None


NOTHING_GONE = Gone()


class _Cards:
    """Draw and dealer probabilities given the cards gone: a hand's cards, :class:`Gone`.

    ``removed`` (the hand plus ``gone.extra``) never includes the up-card; every
    method takes it separately. The infinite deck ignores what is gone.
    """

    def __init__(self, rules: GameRules):
        self.rules = rules
        self.shoe = shoe = rules.make_shoe()
        self.infinite = not isinstance(shoe, FiniteShoe)
        # the counts a finite shoe starts with (the infinite deck never asks for them)
        self.counts: Counts = shoe.counts if isinstance(shoe, FiniteShoe) else STANDARD_PROPORTIONS
        self._dealer: dict[Any, tuple[tuple[int, ...], int]] = {}
        self._oracle = DealerOracle(shoe.counts, rules.h17) if isinstance(shoe, FiniteShoe) else None
        if self.infinite:
            rows = dealer_distributions(rules.dealer_rules())
            self._infinite_rows = {u: _over_common_denominator([rows[u][o] for o in OUTCOMES]) for u in rows}
        self.recording: set[tuple[Counts, tuple[int, int] | None]] | None = None
        # up-card -> rows already computed elsewhere (nothing hidden), ``None`` where not
        self.sources: dict[int, Callable[[Counts], tuple[tuple[int, ...], int] | None]] = {}

    def unseen(self, removed: Counts, upcard: int) -> list[int]:
        left = [c - r for c, r in zip(self.counts, removed)]
        left[upcard - 1] -= 1
        return left

    def chances(self, removed: Counts, upcard: int, gone: Gone) -> list[mpq]:
        """P(an unseen card has rank r), r = A..T (the next card drawn, or the hole card)."""
        if self.infinite:
            return list(self.shoe.draw_probabilities())
        left = self.unseen(removed, upcard)
        n = sum(left)
        j = gone.hidden
        if not j:
            return [mpq(c, n) for c in left]
        others = n - left[gone.pair - 1]
        if others < j:
            raise BjexactError("the shoe is too small to deal the split hands")
        return [mpq(c, n - j) if r == gone.pair else mpq(c * (others - j), others * (n - j))
                for r, c in zip(RANKS, left)]

    def draws(self, removed: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> list[tuple[int, mpq]]:
        """(rank, probability) of the player's next card; empty when only the hole card is unseen."""
        if not self.infinite and sum(self.unseen(removed, upcard)) - gone.hidden <= 1:
            return []
        return [(r, p) for r, p in zip(RANKS, self.chances(removed, upcard, gone)) if p]

    def natural_chance(self, removed: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> mpq:
        """P(the dealer's hole card makes a natural | the cards seen)."""
        partner = natural_partner(upcard)
        if partner is None:
            return _ZERO
        return self.chances(removed, upcard, gone)[partner - 1]

    def prefetch(self, wanted: list[tuple[Counts, tuple[int, int] | None]], upcard: int) -> None:
        """Compute the dealer's distributions for many (removed set, hidden cards) in few batches:
        one per pair rank with hidden cards, one for the rest."""
        if self.infinite:
            return
        batches: dict[int, list[tuple[Counts, int]]] = {}
        source = self.sources.get(upcard)
        for removed, hidden in dict.fromkeys(wanted):
            if (removed, upcard, hidden) not in self._dealer and hidden is None and source is not None:
                row = source(removed)
                if row is not None:
                    self._dealer[(removed, upcard, hidden)] = row
            if (removed, upcard, hidden) not in self._dealer:
                pair, j = hidden or (0, 0)
                batches.setdefault(pair, []).append((removed, j))
        assert self._oracle is not None  # finite shoes only
        for pair, sets in batches.items():
            rows = self._oracle.numerators([r for r, _ in sets], upcard, pair, [j for _, j in sets])
            for (removed, j), row in zip(sets, rows):
                self._dealer[(removed, upcard, (pair, j) if j else None)] = row

    def dealer_rows(self, removed_sets: list[Counts], upcard: int) -> list[tuple[tuple[int, ...], int]]:
        """:meth:`dealer` for many removed sets at once (finite shoes, nothing hidden), not kept."""
        assert self._oracle is not None  # finite shoes only
        return self._oracle.numerators(removed_sets, upcard, 0, [0] * len(removed_sets))

    def dealer(self, removed: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> tuple[tuple[int, ...], int]:
        """P(outcome | up-card, removed) for :data:`OUTCOMES`, as (numerators, denominator).

        While ``recording`` is a set, a split hand's distribution (``gone.pair`` set) not
        computed yet is only noted there (and returned as zeros), to be computed with the
        others in one batch; unsplit hands' distributions, which decide every move, are
        always computed.
        """
        if self.infinite:
            return self._infinite_rows[upcard]
        key = (removed, upcard, gone.key)
        row = self._dealer.get(key)
        if row is None and gone.key is None and upcard in self.sources:
            row = self.sources[upcard](removed)
            if row is not None:
                self._dealer[key] = row
        if row is None:
            if self.recording is not None and gone.pair:
                self.recording.add((removed, gone.key))
                return _NO_OUTCOMES
            self.prefetch([(removed, gone.key)], upcard)
            row = self._dealer[key]
        return row


_NO_OUTCOMES = ((0,) * len(OUTCOMES), 1)


def _over_common_denominator(values: list[mpq]) -> tuple[tuple[int, ...], int]:
    denominator = 1
    for v in values:
        denominator = denominator * v.denominator // gcd(denominator, v.denominator)
    return tuple(int(v * denominator) for v in values), denominator


# --- the solver ----------------------------------------------------------------


def _add(counts: Counts, rank: int) -> Counts:
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
        """The move of largest value; ties go to the earlier move of :data:`MOVES`."""
        return max(self.w, key=lambda m: (self.unconditional(m), -MOVES.index(m)))

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


class _Solver:
    """Memoised exact values for one rule set, in fraction arithmetic. W values (see
    :class:`MoveValues`).

    The code path the engine (:class:`_EngineSolver`, :mod:`bjexact.player.engine`) replaced
    where it reaches; still used for the infinite deck (through the engine solver), for one
    hand's moves (:func:`hand_moves`), for fixed policies (:mod:`bjexact.player.policy`), and
    by ``solve_game(..., engine=False)`` as an independent check of the engine."""

    def __init__(self, rules: GameRules, cards: _Cards | None = None):
        self.rules = rules
        self.cards = _Cards(rules) if cards is None else cards  # shared: the dealer's rows are the shoe's
        self.natural_loses = not rules.excludes_natural
        self._stand_w = {t: stand_weights(t, self.natural_loses) for t in range(4, 22)}
        self._cont: dict[Any, tuple[mpq, mpq | None]] = {}
        self._split_cont: dict[Any, mpq] = {}
        self._stand: dict[Any, mpq] = {}
        self._scale: dict[Any, mpq] = {}
        self._split_two: dict[Any, mpq] = {}
        self._first_cont: dict[Any, tuple[mpq, mpq | None]] = {}
        self._later: dict[Any, mpq] = {}
        self._later_double: dict[Any, mpq | None] = {}

    def _key(self, hand: Counts) -> Any:
        """Memo key of a hand: for the infinite deck its values depend on (total, soft) only."""
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
            weights = self._stand_w[total]
            found = mpq(sum(w * n for w, n in zip(weights, numerators) if w), denominator)
            if self.cards.recording is None or not gone.pair:  # no zeros kept from a dry run
                self._stand[key] = found
        return found

    def _hit(self, hand: Counts, upcard: int, gone: Gone, then: Callable[[Counts], mpq]) -> mpq | None:
        """W of drawing one card, then ``then(new hand)``; a bust loses the stake at once."""
        draws = self.cards.draws(add_counts(hand, gone.extra), upcard, gone)
        if not draws:
            return None
        total = _ZERO
        for rank, p in draws:
            new = _add(hand, rank)
            if counts_value(new).bust:
                total -= p * self.scale(new, upcard, gone)
            elif self.is_charlie(new):
                total += p * self.charlie(new, upcard, gone)
            else:
                total += p * then(new)
        return total

    def is_charlie(self, hand: Counts) -> bool:
        """Whether ``hand`` (counts) is a Charlie: finished, it wins 1:1 (:meth:`GameRules.is_charlie`)."""
        return self.rules.is_charlie(sum(hand), counts_value(hand))

    def charlie(self, hand: Counts, upcard: int, gone: Gone) -> mpq:
        """W of a Charlie per unit of its stake: it wins unless the dealer has a natural, which is left
        out under peek and OBO (W is P(no natural)); under ENHC the natural takes it: 1 - 2 P(natural)."""
        if not self.natural_loses:
            return self.scale(hand, upcard, gone)
        return 1 - 2 * self.cards.natural_chance(add_counts(hand, gone.extra), upcard, gone)

    def continuation(self, hand: Counts, upcard: int) -> tuple[mpq, mpq | None]:
        """(stand, hit) W of an unsplit hand that may only stand or hit from here."""
        key = (self._key(hand), upcard)
        found = self._cont.get(key)
        if found is None:
            stand = self.stand(hand, upcard)
            hit = self._hit(hand, upcard, NOTHING_GONE, lambda new: self.later_value(new, upcard))
            found = self._cont[key] = (stand, hit)
        return found

    def later_value(self, hand: Counts, upcard: int, pair: int = 0, pairs_gone: int = 0) -> mpq:
        """W of an unsplit hand of three or more cards played on optimally: the best of standing,
        hitting and, with ``double_after_hit``, doubling (with ``pairs_gone`` cards of ``pair``
        gone too: the values a split strategy chooses by, :meth:`post_split_continuation`)."""
        key = (self._key(hand), upcard, pair, pairs_gone)
        found = self._later.get(key)
        if found is None:
            values = self.post_split_continuation(hand, upcard, pair, pairs_gone)
            found = _best(values)
            double = self.later_double(hand, upcard, _pairs_gone(pair, pairs_gone)) \
                if self.may_double(hand) else None
            if double is not None and double > found:
                found = double
            self._later[key] = found
        return found

    def later_double(self, hand: Counts, upcard: int, gone: Gone) -> mpq | None:
        """W of doubling a hand of three or more cards (memoised: a position is reached by many lines)."""
        key = (self._key(hand), upcard, gone.pair if self.cards.infinite else gone)
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
        return _argmax(options)

    def double(self, hand: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> mpq | None:
        one_card = self._hit(hand, upcard, gone, lambda new: self.stand(new, upcard, gone))
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
        strategy), one (CDP1: the first split hand's), or the other hands' ``hands - 1`` (CDP)."""
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
        total = _ZERO
        for chance, hands, made, waiting in self._split_patterns(pair, upcard):
            extra = counts_of([pair] * (hands - 1))
            b = sum(made)
            if b:  # a hand whose second card x is not a pair card; b - 1 others like it, unknown
                gone = Gone(extra, pair, b - 1)
                chances = self.cards.chances(add_counts(extra, counts_of([pair])), upcard, gone)
                others = 1 - chances[pair - 1]
                for strategy, count in self._hands_by_strategy(made).items():
                    value = sum((c / others * self._split_two_cards(counts_of([pair, x]), upcard, gone, strategy)
                                 for x, c in zip(RANKS, chances) if x != pair and c), _ZERO)
                    total += chance * count * value
            if waiting:  # a hand that draws its second card once no more hands can be made
                gone = Gone(extra, pair, b)
                strategy = self.strategy_pairs(hands)
                chances = self.cards.chances(add_counts(extra, counts_of([pair])), upcard, gone)
                value = sum((c * self._split_two_cards(counts_of([pair, x]), upcard, gone, strategy)
                             for x, c in zip(RANKS, chances) if c), _ZERO)
                total += chance * waiting * value
        return total

    def _hands_by_strategy(self, made: tuple[int, ...]) -> dict[int, int]:
        """How many of the hands ``made`` counts (see :meth:`_split_patterns`) play each strategy."""
        found: dict[int, int] = {}
        for k, count in enumerate(made):
            if count:
                strategy = self.strategy_pairs(k + 2)
                found[strategy] = found.get(strategy, 0) + count
        return found

    def _split_patterns(self, pair: int, upcard: int) -> list[tuple[mpq, int, tuple[int, ...], int]]:
        """(chance, hands, made, waiting) of how the split hands' second cards fall, up to the
        limit: ``made[k]`` hands took a non-pair card while k + 2 hands were on the table."""
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
        return self._split_move(hand, upcard, pair, self.strategy_pairs(hands))

    def _split_move(self, hand: Counts, upcard: int, pair: int, strategy: int) -> str:
        """The move of a split hand (two cards or, with ``double_after_hit``, more) by its strategy."""
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
        return _argmax(options)

    def continues_hitting(self, hand: Counts, upcard: int) -> bool:
        """Whether an unsplit hand of three or more cards hits (ties go to standing)."""
        stand, hit = self.continuation(hand, upcard)
        return hit is not None and hit > stand

    def split_hits(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> bool:
        """Whether a split hand of ``pair`` with three or more cards hits, by the split strategy,
        played while ``hands`` split hands are on the table."""
        return self._split_hits(hand, upcard, pair, self.strategy_pairs(hands))

    def _split_hits(self, hand: Counts, upcard: int, pair: int, strategy: int) -> bool:
        stand, hit = self.post_split_continuation(hand, upcard, pair, strategy)
        return hit is not None and hit > stand

    def post_split_continuation(self, hand: Counts, upcard: int, pair: int, pairs_gone: int) -> tuple[mpq, mpq | None]:
        """(stand, hit) W of a hand of ``pair`` played optimally from here with ``pairs_gone``
        other pair cards gone too: the values a split strategy is chosen by (none gone: the
        unsplit hand's :meth:`continuation`, CDZ-; one: the first split hand's, CDP1)."""
        if not pairs_gone:
            return self.continuation(hand, upcard)
        key = (self._key(hand), upcard, pair, pairs_gone)
        found = self._first_cont.get(key)
        if found is None:
            gone = _pairs_gone(pair, pairs_gone)
            stand = self.stand(hand, upcard, gone)
            hit = self._hit(hand, upcard, gone, lambda new: self.later_value(new, upcard, pair, pairs_gone))
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
        move = self._split_move(hand, upcard, gone.pair, strategy)
        if move == "double":
            doubled = self.double(hand, upcard, gone)
            if doubled is None:
                raise BjexactError("the shoe is too small to deal the split hands")
            return doubled
        if move == "hit":
            return self._split_hit(hand, upcard, gone, strategy)
        return self.stand(hand, upcard, gone)

    def _split_hit(self, hand: Counts, upcard: int, gone: Gone, strategy: int) -> mpq:
        result = self._hit(hand, upcard, gone, lambda new: self._split_continuation(new, upcard, gone, strategy))
        if result is None:
            raise BjexactError("the shoe is too small to deal the split hands")
        return result

    def _split_continuation(self, hand: Counts, upcard: int, gone: Gone, strategy: int) -> mpq:
        """W of a split hand of three or more cards, played by its split strategy."""
        key = (self._key(hand), upcard, None if self.cards.infinite else gone, strategy)
        found = self._split_cont.get(key)
        if found is None:
            if self.rules.double_after_hit and self.may_double(hand, gone.pair):
                found = self._split_two_cards_now(hand, upcard, gone, strategy)  # may double: chosen alike
            elif self._split_hits(hand, upcard, gone.pair, strategy):
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

class _EngineSolver(_Solver):
    """:class:`_Solver` whose values come from :mod:`bjexact.player.engine` (integers over
    known denominators, few dealer batches per up-card) on a finite shoe: every unsplit
    hand's stand, hit and double, the splits of pairs that make two hands at most, and the
    split hands of resplits (the patterns of second cards of :meth:`_Solver.split` stay here,
    in fractions, weighing the engine's values). The rest stays with the inherited fraction
    arithmetic: the infinite deck (a small table of totals) and the distribution of the net
    result."""

    def __init__(self, rules: GameRules, cards: _Cards | None = None):
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
            assert self.cards._oracle is not None  # finite shoes only
            found = self._engines[upcard] = UpcardEngine(self.rules, shoe, upcard, self.cards._oracle, pairs)
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
        """List the split hands the resplits of ``pairs`` value (a dry run of :meth:`_Solver.split`),
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
        if engine is None:
            return super().continuation(hand, upcard)
        key = (hand, upcard)
        found = self._cont.get(key)
        if found is None:
            stand, hit = engine.optimal(hand)
            denominator = engine.denominator(hand)
            found = self._cont[key] = (mpq(stand, denominator), None if hit is None else mpq(hit, denominator))
        return found

    def double(self, hand: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> mpq | None:
        engine = self._engine(upcard)
        if engine is None or gone != NOTHING_GONE:
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


class Strategy:
    """The solved play of a rule set, move by move, for code that plays rounds (simulators):
    the moves the exact values choose, split hands' included (by the rules' split strategy)."""

    def __init__(self, rules: GameRules):
        self._solver = _Solver(rules)

    def split_limit(self, pair: int) -> int:
        """The most hands splitting ``pair`` can make."""
        return self._solver.split_limit(pair)

    def split_move(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> str:
        """The move of a split hand of ``pair`` holding ``hand`` (counts) once it has two cards or
        more (stand, hit, double), played while ``hands`` split hands are on the table (only CDP's
        moves depend on it)."""
        return self._solver.split_move(hand, upcard, pair, hands)

    def continues_hitting(self, hand: Counts, upcard: int) -> bool:
        """Whether an unsplit hand (counts) that may only stand or hit hits."""
        return self._solver.continues_hitting(hand, upcard)

    def later_move(self, hand: Counts, upcard: int) -> str:
        """The move of an unsplit hand (counts) of three or more cards: stand, hit, or double (only
        with ``double_after_hit``)."""
        return self._solver.later_move(hand, upcard)

    def split_hits(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> bool:
        """Whether a split hand of ``pair`` (counts, three cards or more) hits, played while
        ``hands`` split hands are on the table."""
        return self._solver.split_hits(hand, upcard, pair, hands)


def _pairs_gone(pair: int, count: int) -> Gone:
    """``count`` pair cards gone besides a split hand's own cards (one: the first split hand's)."""
    return Gone(counts_of([pair] * count), pair, 0) if count else NOTHING_GONE


def _best(values: tuple[mpq, mpq | None]) -> mpq:
    stand, hit = values
    return stand if hit is None or stand >= hit else hit


# --- the distribution of the round's net result ---------------------------------

Dist = dict[Any, mpq]  # net result (mpq), or a hand's (total, stake), -> probability
CHARLIE_TOTAL = 23  # the total of a finished split hand that is a Charlie (22: a bust)

# The most pairs (combined lines, one hand's line) the split hands of one rule set may be combined
# over before the distribution of the net result is given up (finite shoes): about half a minute.
SPLIT_WORK_LIMIT = 30_000_000


def _mix(target: Dist, source: Dist, weight: mpq) -> None:
    for result, p in source.items():
        target[result] = target.get(result, _ZERO) + weight * p


def _convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, _ZERO) + p * q
    return out


class _Results:
    """The distribution of net results under the solved play, in the solver's W form:
    under peek/OBO the probabilities are those of (result, no dealer natural).

    Unsplit hands: for any shoe, settled against the dealer's distribution for
    their cards. Split hands: the hands and the dealer are independent only on the
    infinite deck, where each hand's final total is found once and the hands are
    combined per dealer outcome. On a finite shoe they share the cards and the
    dealer's outcome: every line of the split hands is followed exactly
    (:meth:`_finite_split`), within :data:`SPLIT_WORK_LIMIT`; beyond it, ``None``.
    """

    def __init__(self, solver: _Solver, split_lines: bool = True):
        self.solver = solver
        self.split_lines = split_lines  # follow the split hands' lines on a finite shoe
        self._play: dict[Any, Dist] = {}
        self._finals: dict[Any, Dist] = {}  # infinite deck: by hand value
        self.work = 0  # finite shoes: combinations of split hands' lines so far
        self.missing = ""  # why the distribution is not computed, if it is not

    def stand(self, hand: Counts, upcard: int, stake: int) -> Dist:
        numerators, denominator = self.solver.cards.dealer(hand, upcard)
        weights = self.solver._stand_w[max(counts_value(hand).total, 4)]
        out: Dist = {}
        for outcome, w, n in zip(OUTCOMES, weights, numerators):
            if not n or (outcome == "blackjack" and not self.solver.natural_loses):
                continue  # under peek/OBO the dealer's natural is left out (W form)
            result = mpq(w * stake)
            out[result] = out.get(result, _ZERO) + mpq(n, denominator)
        return out

    def _after_hit(self, hand: Counts, upcard: int, stake: int, then: Callable[[Counts], Dist]) -> Dist:
        out: Dist = {}
        for rank, p in self.solver.cards.draws(hand, upcard):
            new = _add(hand, rank)
            if counts_value(new).bust:
                _mix(out, {mpq(-stake): self.solver.scale(new, upcard, NOTHING_GONE)}, p)
            elif self.solver.is_charlie(new):
                _mix(out, self.charlie(new, upcard, stake), p)
            else:
                _mix(out, then(new), p)
        return out

    def charlie(self, hand: Counts, upcard: int, stake: int) -> Dist:
        """A Charlie's result: it wins ``stake`` unless the dealer has a natural (left out under peek
        and OBO, the W form; under ENHC the natural takes the stake)."""
        if not self.solver.natural_loses:
            return {mpq(stake): self.solver.scale(hand, upcard, NOTHING_GONE)}
        natural = self.solver.cards.natural_chance(hand, upcard)
        return {mpq(stake): 1 - natural, mpq(-stake): natural}

    def play(self, hand: Counts, upcard: int) -> Dist:
        """A hand of three or more cards, played on as the solution plays it (stand, hit or, with
        ``double_after_hit``, double)."""
        key = (self.solver._key(hand), upcard)
        found = self._play.get(key)
        if found is None:
            move = self.solver.later_move(hand, upcard)
            if move == "double":
                found = self._after_hit(hand, upcard, 2, lambda new: self.stand(new, upcard, 2))
            elif move == "hit":
                found = self._after_hit(hand, upcard, 1, lambda new: self.play(new, upcard))
            else:
                found = self.stand(hand, upcard, 1)
            self._play[key] = found
        return found

    def deal(self, moves: MoveValues) -> Dist | None:
        """The net result of a dealt (non-natural) hand under its best move, dealer naturals included."""
        solver = self.solver
        hand = counts_of(moves.cards)
        upcard = moves.upcard
        best = moves.best
        if best == "surrender":
            if solver.rules.surrender == "early":
                return {-_HALF: _ONE}
            out = {-_HALF: solver.scale(hand, upcard, NOTHING_GONE)}
        elif best == "stand":
            out = self.stand(hand, upcard, 1)
        elif best == "hit":
            out = self._after_hit(hand, upcard, 1, lambda new: self.play(new, upcard))
        elif best == "double":
            out = self._after_hit(hand, upcard, 2, lambda new: self.stand(new, upcard, 2))
        else:
            split = self.split(moves.cards[0], upcard)
            if split is None:
                return None
            out = split
        if solver.rules.excludes_natural and moves.natural:
            out = dict(out)
            out[-_ONE] = out.get(-_ONE, _ZERO) + moves.natural
        return out

    # --- splits, infinite deck ---

    def _final(self, hand: Counts, upcard: int, pair: int) -> Dist:
        """Final (total, stake) of a split hand with its second card; total 22 is a bust."""
        move = self.solver.split_move(hand, upcard, pair)
        if move == "stand":
            return {(counts_value(hand).total, 1): _ONE}
        if move == "double":
            return self._final_after_hit(hand, upcard, 2, lambda new: {(min(counts_value(new).total, 22), 2): _ONE})
        return self._final_after_hit(hand, upcard, 1, lambda new: self._final_continue(new, upcard, pair))

    def _final_after_hit(self, hand: Counts, upcard: int, stake: int, then: Callable[[Counts], Dist]) -> Dist:
        out: Dist = {}
        for rank, p in self.solver.cards.draws(hand, upcard):
            new = _add(hand, rank)
            _mix(out, {(CHARLIE_TOTAL, stake): _ONE} if self.solver.is_charlie(new) else then(new), p)
        return out

    def _final_continue(self, hand: Counts, upcard: int, pair: int) -> Dist:
        """Final (total, stake) of a split hand of three or more cards played on (stand, hit, or with
        ``double_after_hit`` double)."""
        value = counts_value(hand)
        if value.bust:
            return {(22, 1): _ONE}
        key = (self.solver._key(hand), upcard, pair)
        found = self._finals.get(key)
        if found is None:
            move = self.solver.split_move(hand, upcard, pair)
            if move == "double":
                found = self._final_after_hit(hand, upcard, 2,
                                              lambda new: {(min(counts_value(new).total, 22), 2): _ONE})
            elif move == "hit":
                found = self._final_after_hit(hand, upcard, 1, lambda new: self._final_continue(new, upcard, pair))
            else:
                found = {(value.total, 1): _ONE}
            self._finals[key] = found
        return found

    def split(self, pair: int, upcard: int) -> Dist | None:
        solver = self.solver
        if not solver.cards.infinite:
            return self._finite_split(pair, upcard)
        p = solver.cards.shoe.draw_probabilities()
        others = 1 - p[pair - 1]
        seconds = {x: self._final(counts_of([pair, x]), upcard, pair) for x in RANKS}
        not_pair: Dist = {}
        free: Dist = {}
        for x in RANKS:
            if x != pair:
                _mix(not_pair, seconds[x], p[x - 1] / others)
            _mix(free, seconds[x], p[x - 1])
        numerators, denominator = solver.cards.dealer(_NO_CARDS, upcard)
        patterns = solver._split_patterns(pair, upcard)
        out: Dist = {}
        for outcome, n in zip(OUTCOMES, numerators):
            if not n or (outcome == "blackjack" and not solver.natural_loses):
                continue  # under peek/OBO a dealer natural is settled with the round, not here
            # the hands' results against this outcome, and their sums over 0..4 hands of a kind
            most = solver.split_limit(pair)
            sums = [_powers(_settle(not_pair, outcome), most), _powers(_settle(free, outcome), most)]
            for chance, _, made, waiting in patterns:
                b = sum(made)
                _mix(out, _convolve(sums[0][b], sums[1][waiting]), chance * mpq(n, denominator))
        return out

    # --- splits, finite shoes ---

    def _finite_split(self, pair: int, upcard: int) -> Dist | None:
        """The split hands' joint net result on a finite shoe, in the solver's W form.

        The hands share the shoe and the dealer's outcome, so they are not independent;
        but a line of play (every card every hand draws, in order) has a chance that
        depends only on the cards it draws: f(M) = prod_r ff(left_r, M_r) / ff(n, |M|),
        ff the falling factorial, ``left`` the unseen cards at the split (n of them).
        So, seen in the order of :meth:`_Solver.split` (second cards first, a pair card
        making a new hand while the limit allows), the round's lines are: a pattern
        (hands, ``b`` hands given a non-pair second card before the limit, ``waiting``
        given any card at the limit) counted by its number of orders of pair / non-pair
        events, the hands - 2 pair cards it drew, and each hand's own line (its second
        card and draws, played by the split strategy), one after the other. The lines of
        one hand are enumerated once; the hands are combined by convolution on (cards
        drawn, finished hands) with integer counts; each combination is weighted by
        f(cards drawn) and settled against the dealer's distribution for those cards
        (the hole card drawn after the player by exchangeability).

        ``None`` when a line would need the last unseen card (the hole card), or when the
        combinations of all the splits of the rule set could outgrow :data:`SPLIT_WORK_LIMIT`
        (checked before each split from the number of each hand's lines, which bounds them;
        the distribution is not computed and :attr:`missing` says why).
        """
        rules = self.solver.rules
        if rules.double_after_hit or rules.charlie is not None or self.solver.split_limit(pair) > 7:
            self.missing = ("on a finite shoe the split hands' lines are not followed with doubling after hitting, "
                            "a Charlie or eight split hands")
            return None
        if not self.split_lines:
            self.missing = ("on a finite shoe where pairs are split it needs every line of the split hands "
                            "followed (seconds to minutes), which was not asked for (bjexact edge --distribution; "
                            "solve_game(..., split_lines=True))")
            return None
        solver = self.solver
        left = solver.cards.unseen(counts_of([pair, pair]), upcard)
        packing = _Packing(left)
        not_pair = self._hand_lines(pair, upcard, left, packing, second_may_be_pair=False)
        free = self._hand_lines(pair, upcard, left, packing, second_may_be_pair=True)
        patterns = self._pattern_counts(pair)
        # at most this many combinations (exactly this many without resplits): give up before starting
        bound = 0
        for _, _, b, waiting in patterns:
            size = 1
            for lines in [not_pair] * b + [free] * waiting:
                bound += size * len(lines)
                size *= len(lines)
        if self.work + bound > SPLIT_WORK_LIMIT:
            self.missing = (f"the split hands' joint law could need more than {SPLIT_WORK_LIMIT:,} combinations "
                            "of their lines on this shoe")
            return None
        finished: dict[int, int] = {}
        for orders, hands, b, waiting in patterns:
            pairs_drawn = packing.pack(counts_of([pair] * (hands - 2)))
            if not packing.fits(pairs_drawn):
                continue
            combined = {pairs_drawn << _DONE_BITS: orders}
            for lines in [not_pair] * b + [free] * waiting:
                self.work += len(combined) * len(lines)
                combined = _combine(combined, lines, packing)
            for key, count in combined.items():
                finished[key] = finished.get(key, 0) + count
        return self._settle_lines(finished, upcard, counts_of([pair, pair]), left, packing)

    def _pattern_counts(self, pair: int) -> list[tuple[int, int, int, int]]:
        """(orders, hands, b, waiting): the patterns of :meth:`_Solver._split_patterns` with the
        number of orders of pair / non-pair second cards that make each."""
        limit = self.solver.split_limit(pair)
        counts: dict[tuple[int, int, int], int] = {}
        pending = [(2, 2, 0)]  # waiting, hands, b: one entry per order
        while pending:
            waiting, hands, b = pending.pop()
            if not waiting or hands == limit:
                counts[(hands, b, waiting)] = counts.get((hands, b, waiting), 0) + 1
                continue
            pending.append((waiting + 1, hands + 1, b))
            pending.append((waiting - 1, hands, b + 1))
        return [(n, hands, b, waiting) for (hands, b, waiting), n in counts.items()]

    def _hand_lines(self, pair: int, upcard: int, left: Sequence[int], packing: _Packing,
                    second_may_be_pair: bool) -> list[tuple[int, int, int]]:
        """One split hand's lines from its pair card, as (cards it draws packed, its finished hand
        as a :data:`_DONE_BITS` count, the number of orders of those cards the split strategy
        plays to that end). A total below 17 is kept as 16, which settles alike (it wins only
        when the dealer busts); 22 is a bust."""
        solver = self.solver
        lines: dict[tuple[Counts, int], int] = {}

        def end(drawn: Counts, total: int, stake: int) -> None:
            key = (drawn, _finished_hand(total, stake))
            lines[key] = lines.get(key, 0) + 1

        def play(hand: Counts, drawn: Counts, mode: str) -> None:
            for r in RANKS:
                if drawn[r - 1] >= left[r - 1]:
                    continue
                new_hand, new_drawn = _add(hand, r), _add(drawn, r)
                value = counts_value(new_hand)
                if mode == "double":
                    end(new_drawn, 22 if value.bust else value.total, 2)
                elif value.bust:
                    end(new_drawn, 22, 1)
                elif solver.split_hits(new_hand, upcard, pair):
                    play(new_hand, new_drawn, "hit")
                else:
                    end(new_drawn, value.total, 1)

        for x in RANKS:
            if (x == pair and not second_may_be_pair) or not left[x - 1]:
                continue
            hand, drawn = counts_of([pair, x]), counts_of([x])
            move = solver.split_move(hand, upcard, pair)
            if move == "stand":
                end(drawn, counts_value(hand).total, 1)
            else:
                play(hand, drawn, move)
        return [(packing.pack(drawn), done, ways) for (drawn, done), ways in lines.items()]

    def _settle_lines(self, finished: Mapping[int, int], upcard: int, start: Counts, left: Sequence[int],
                      packing: _Packing) -> Dist | None:
        """Net results of the combined lines (packed (cards drawn, finished hands) -> count).

        A line that has drawn the cards M has chance prod_r ff(left_r, M_r) / ff(n, |M|) and the dealer's
        outcome o given them chance numerator_o / D(|M|), so each net result's chance is, per
        number of cards drawn, an integer over ff(n, |M|) D(|M|): summed in numpy modulo primes
        and recovered exactly (:func:`bjexact.dealer.batch.from_residues`).
        """
        import numpy as np  # imported here: the infinite deck never needs it

        solver = self.solver
        unseen = sum(left)
        mask = (1 << _DONE_BITS) - 1
        drawn_index: dict[int, int] = {}
        done_index: dict[int, int] = {}
        entries = []
        for key, count in finished.items():
            drawn = drawn_index.setdefault(key >> _DONE_BITS, len(drawn_index))
            done = done_index.setdefault(key & mask, len(done_index))
            entries.append((drawn, done, count))
        drawn_sets = [packing.unpack(d) for d in drawn_index]
        if max(sum(d) for d in drawn_sets) >= unseen:
            self.missing = "a line of split hands would need the last unseen card (the hole card)"
            return None
        falling = [[_falling(c, d) for d in range(c + 1)] for c in left]  # falling[r][d] = ff(left_r, d)
        weights = [prod(table[d] for table, d in zip(falling, drawn)) for drawn in drawn_sets]
        rows = solver.cards.dealer_rows([add_counts(start, d) for d in drawn_sets], upcard)
        sizes = sorted({sum(d) for d in drawn_sets})
        size_index = {size: i for i, size in enumerate(sizes)}
        denominators = [0] * len(sizes)
        for drawn_set, (_, dealer_denominator) in zip(drawn_sets, rows):
            denominators[size_index[sum(drawn_set)]] = _falling(unseen, sum(drawn_set)) * dealer_denominator
        outcomes = [i for i, o in enumerate(OUTCOMES) if o != "blackjack" or solver.natural_loses]
        results = np.array([[_settle_hands(_unpack_done(done), OUTCOMES[i]) for i in outcomes]
                            for done in done_index], dtype=np.int64)
        lowest, highest = int(results.min()), int(results.max())
        span = highest - lowest + 1
        line_drawn = np.array([e[0] for e in entries], dtype=np.int64)
        line_done = np.array([e[1] for e in entries], dtype=np.int64)
        drawn_size = np.array([size_index[sum(d)] for d in drawn_sets], dtype=np.int64)
        bins = drawn_size[line_drawn][:, None] * span + (results[line_done] - lowest)  # lines x outcomes
        try:
            primes = moduli_above(max(denominators))
        except BjexactError as too_large:
            self.missing = str(too_large)
            return None
        residues = np.zeros((len(primes), len(sizes) * span), dtype=np.int64)
        for k, p in enumerate(primes):
            weight = np.array([w % p for w in weights], dtype=np.int64)
            dealer = np.array([[row[0][i] % p for i in outcomes] for row in rows], dtype=np.int64)
            lines = np.array([e[2] % p for e in entries], dtype=np.int64)
            base = weight[line_drawn] * lines % p
            for column in range(len(outcomes)):
                chance = base * dealer[line_drawn, column] % p
                np.add.at(residues[k], bins[:, column], chance)  # sums of < 2^31 values: no overflow
            residues[k] %= p
        numerators = from_residues(residues, primes)
        out: Dist = {}
        for slot, numerator in enumerate(numerators):
            if numerator:
                result = mpq(slot % span + lowest)
                out[result] = out.get(result, _ZERO) + mpq(numerator, denominators[slot // span])
        return out

def _powers(dist: Dist, most: int = 4) -> list[Dist]:
    """The distributions of the sum of 0, 1, ..., ``most`` independent draws from ``dist``."""
    powers: list[Dist] = [{_ZERO: _ONE}]
    for _ in range(most):
        powers.append(_convolve(powers[-1], dist))
    return powers


_DONE_BITS = 42  # finished split hands: 3 bits counting each of 14 kinds (total 16..22, stake 1 or 2)


def _finished_hand(total: int, stake: int) -> int:
    """One finished hand as a count in the packed finished hands (total below 17 kept as 16, 22 a bust)."""
    return 1 << 3 * ((min(max(total, 16), 22) - 16) * 2 + stake - 1)


def _unpack_done(done: int) -> tuple[tuple[int, int], ...]:
    """The finished hands ((total, stake), ...) of a packed count."""
    hands: list[tuple[int, int]] = []
    for kind in range(14):
        hands.extend([(16 + kind // 2, kind % 2 + 1)] * ((done >> 3 * kind) & 7))
    return tuple(hands)


class _Packing:
    """Cards drawn from ``left`` as one integer, a field per rank with a guard bit: adding two
    packed sets adds their counts, and :meth:`fits` tells whether the shoe holds them."""

    def __init__(self, left: Sequence[int]):
        self.value_bits = max(max(left), 1).bit_length()
        self.field = self.value_bits + 2  # a sum of two sets that fit stays below the guard bit
        self.mask = (1 << self.field) - 1
        guards = sum(1 << (self.field * i + self.value_bits + 1) for i in range(10))
        self.guards = guards
        self.room = self.pack(left) | guards

    def pack(self, counts: Sequence[int]) -> int:
        return sum(c << (self.field * i) for i, c in enumerate(counts))

    def unpack(self, packed: int) -> Counts:
        return tuple((packed >> (self.field * i)) & self.mask for i in range(10))

    def fits(self, packed: int) -> bool:
        """Whether every rank's count is at most the shoe's (no borrow reaches a guard bit)."""
        return (self.room - packed) & self.guards == self.guards


def _combine(combined: Mapping[int, int], lines: Sequence[tuple[int, int, int]], packing: _Packing) -> dict[int, int]:
    """One more split hand: every combined line (packed (cards drawn, finished hands) -> count)
    followed by every line of the hand the shoe still holds the cards of, counts multiplied."""
    out: dict[int, int] = {}
    steps = [((drawn << _DONE_BITS) + done, ways) for drawn, done, ways in lines]
    room, guards = packing.room, packing.guards
    for key, count in combined.items():
        for step, ways in steps:
            new = key + step
            if (room - (new >> _DONE_BITS)) & guards == guards:
                out[new] = out.get(new, 0) + count * ways
    return out

def _falling(n: int, k: int) -> int:
    """The falling factorial n (n - 1) ... (n - k + 1)."""
    return prod(range(n - k + 1, n + 1))


def _settle_hands(done: tuple[tuple[int, int], ...], outcome: str) -> int:
    """The net result of finished hands ((total, stake), 22 a bust) against a dealer outcome."""
    if outcome == "blackjack":  # ENHC: a dealer natural takes every bet
        return -sum(stake for _, stake in done)
    result = 0
    for total, stake in done:
        if total > 21:
            result -= stake
        elif outcome == "bust":
            result += stake
        else:
            dealer = int(outcome)
            result += stake if total > dealer else 0 if total == dealer else -stake
    return result


def _settle(final: Dist, outcome: str) -> Dist:
    """Net results of a hand whose (total, stake) is distributed as ``final`` against a dealer outcome."""
    out: Dist = {}
    for (total, stake), q in final.items():
        if total == CHARLIE_TOTAL and outcome != "blackjack":  # a Charlie wins, but not against a natural
            result = stake
        elif total > 21 or outcome == "blackjack":  # ENHC: a dealer natural takes every bet
            result = -stake
        elif outcome == "bust":
            result = stake
        else:
            dealer = int(outcome)
            result = stake if total > dealer else 0 if total == dealer else -stake
        key = mpq(result)
        out[key] = out.get(key, _ZERO) + q
    return out


CHART_SECTIONS = ("hard", "soft", "pairs")


@dataclass(frozen=True)
class ChartCell:
    """One cell of a basic strategy chart: the code people print and the moves' values.

    ``values``: per move, the sum over the cell's two-card hands of P(hand | up-card)
    times the move's unconditional value (dealer naturals included), the weighting
    that makes a total-dependent chart; ``hands``: the hands behind the cell with
    their own best moves (composition-dependent).
    """

    code: str
    best: str
    values: Mapping[str, mpq]
    hands: Mapping[tuple[int, int], str]

    @property
    def depends_on_composition(self) -> bool:
        return len(set(self.hands.values())) > 1


def chart_code(values: Mapping[str, mpq]) -> str:
    """H, S, P, Dh/Ds (double, else hit/stand), Rh/Rs/Rp (surrender, else hit/stand/split)."""
    best = _argmax(values)
    if best in ("double", "surrender"):
        rest = {m: v for m, v in values.items() if m not in ("double", "surrender")}
        second = _argmax(rest)
        letter = {"hit": "h", "stand": "s", "split": "p"}[second]
        return ("D" if best == "double" else "R") + letter
    return {"hit": "H", "stand": "S", "split": "P"}[best]


def _argmax(values: Mapping[str, mpq]) -> str:
    return max(values, key=lambda m: (values[m], -MOVES.index(m)))


@dataclass(frozen=True)
class GameSolution(Displayable):
    """The exact value of the round under optimal composition-dependent play.

    ``ev``: the expected net result of a round per unit initial bet (minus the house
    edge). ``by_upcard[u]``: the same given the up-card, dealer naturals included;
    weighted by ``upcard_chance`` they sum to ``ev``. ``distribution``: the net result of a
    round -> its chance, ``None`` where not computed (``distribution_missing`` says why).
    ``hands[(a, b, u)]`` (a <= b):
    the moves of every two-card hand that is not a natural. ``deal_chance[(a, b, u)]``:
    P(the player is dealt a, b | up-card u). Keys are ranks and answer to card symbols
    too: ``by_upcard["A"]``, ``hands[("8", "8", "T")]``.
    """

    rules: GameRules
    hands: Mapping[tuple[int, int, int], MoveValues]
    deal_chance: Mapping[tuple[int, int, int], mpq]
    by_upcard: Mapping[int, mpq]
    upcard_chance: Mapping[int, mpq]
    ev: mpq
    distribution: Mapping[mpq, mpq] | None = None
    distribution_missing: str = ""

    def __post_init__(self) -> None:
        for name in ("hands", "deal_chance", "by_upcard", "upcard_chance"):
            value = getattr(self, name)
            if not isinstance(value, RankKeyed):
                object.__setattr__(self, name, RankKeyed(value, hands=name in ("hands", "deal_chance")))

    @property
    def house_edge(self) -> mpq:
        """Minus :attr:`ev`: what the house expects to win per unit initial bet."""
        return -self.ev

    def __repr__(self) -> str:
        """A few lines (the whole solution is in its attributes and :meth:`to_pandas`)."""
        exact = fraction_string(self.ev)
        exact = exact if len(exact) <= 160 else f"{exact[:60]}... ({len(exact):,} characters: .ev)"
        spread = "" if self.variance is None else f", standard deviation {float(self.variance) ** 0.5:.4f}"
        return (f"<GameSolution: {self.rules.describe()}\n"
                f" house edge {decimal_string(-self.ev * 100, 6)}% (.house_edge), expected result per unit "
                f"initial bet (.ev) {exact}{spread}\n"
                f" {len(self.hands):,} two-card hands by up-card (.hands[(\"8\", \"8\", \"T\")]), "
                f".chart(), .by_upcard, .to_pandas()>")

    def to_pandas(self, exact: bool = False, *, upcards: str = "symbol") -> Any:
        """A pandas DataFrame, one row per two-card hand (not a natural) and up-card, indexed by hand
        (``"8,8"``) and up-card (``"T"``; ``upcards="rank"``: the rank, 1 the ace, 10 a ten): P(the
        hand | up-card), the best move, the value of each move per unit initial bet as the player
        weighs it (:meth:`MoveValues.value`; missing where the rules forbid the move) and the hand's
        value to the round; floats (the default), or exact ``mpq`` cells with ``exact=True``."""
        records = [{"hand": f"{rank_symbol(a)},{rank_symbol(b)}", "up-card": upcard_label(u, upcards),
                    "chance": self.deal_chance[(a, b, u)], "best": moves.best, **moves.values,
                    "round value": moves.round_value}
                   for (a, b, u), moves in self.hands.items()]
        moves = [m for m in MOVES if any(m in r for r in records)]
        return data_frame(records, ["hand", "up-card", "chance", "best", *moves, "round value"], exact,
                          index=["hand", "up-card"])

    @property
    def move_chances(self) -> dict[str, mpq]:
        """How rounds go: P(player natural), P(dealer natural before any decision: peek), and
        P(the first decision is each move). They sum to 1."""
        early = self.rules.surrender == "early"
        played = _ZERO
        chances: dict[str, mpq] = {m: _ZERO for m in MOVES}
        peeked = _ZERO
        for (a, b, upcard), moves in self.hands.items():
            weight = self.upcard_chance[upcard] * self.deal_chance[(a, b, upcard)]
            played += weight
            best = moves.best
            if self.rules.hole_card == "peek" and not (early and best == "surrender"):
                peeked += weight * moves.natural
                weight *= 1 - moves.natural
            chances[best] += weight
        result = {"player natural": 1 - played}
        if self.rules.hole_card == "peek":
            result["dealer natural"] = peeked
        result.update((m, p) for m, p in chances.items()
                      if not (m == "surrender" and self.rules.surrender == "none")
                      and not (m == "split" and self.rules.split_hands < 2))
        return result

    @property
    def variance(self) -> mpq | None:
        """The variance of the round's net result (``None`` where the distribution is not computed)."""
        if self.distribution is None:
            return None
        second = sum((r * r * p for r, p in self.distribution.items()), _ZERO)
        return second - self.ev * self.ev

    def chart(self, das_codes: bool = False) -> dict[str, dict[str, Mapping[int, ChartCell]]]:
        """The total-dependent basic strategy chart: section -> row -> up-card -> cell (up-cards
        as ranks or card symbols: ``chart["hard"]["16"]["T"]``).

        Rows: hard totals of two different cards (keys "5".."20"), soft totals of an
        ace and another card ("13".."21" less the natural: "13".."20"), pairs (keys
        "2".."9", "T", "A"). A cell's move has the largest expected value summed
        over the two-card hands of that row, each weighted by its chance.
        ``das_codes`` (rules with DAS): a pair split only thanks to doubling after
        splitting is coded Ph or Pd, the move without DAS (hit or double); it takes
        one more valuation of those splits.
        """
        sections: dict[str, dict[str, dict[int, dict[tuple[int, int], MoveValues]]]] = {s: {} for s in CHART_SECTIONS}
        for (a, b, upcard), moves in self.hands.items():
            value = hand_value((a, b))
            if a == b:
                section, row = "pairs", rank_symbol(a)
            elif value.soft:
                section, row = "soft", str(value.total)
            else:
                section, row = "hard", str(value.total)
            sections[section].setdefault(row, {}).setdefault(upcard, {})[(a, b)] = moves
        chart: dict[str, dict[str, dict[int, ChartCell]]] = {}
        for section, rows in sections.items():
            order = sorted(rows, key=lambda r: _row_key(section, r))
            chart[section] = {}
            for row in order:
                cells = {}
                for upcard in UPCARD_ORDER:
                    hands = rows[row].get(upcard)
                    if not hands:
                        continue
                    totals: dict[str, mpq] = {}
                    for cards, moves in hands.items():
                        weight = self.deal_chance[(cards[0], cards[1], upcard)]
                        for move in moves.w:
                            totals[move] = totals.get(move, _ZERO) + weight * moves.unconditional(move)
                    cells[upcard] = ChartCell(chart_code(totals), _argmax(totals), totals,
                                              {cards: m.best for cards, m in hands.items()})
                chart[section][row] = cells
        if das_codes and self.rules.das:
            codes = self.__dict__.get("_das_code_memo")
            if codes is None:  # kept: a chart is often drawn and written from one solution
                codes = _das_codes(self, chart["pairs"])
                object.__setattr__(self, "_das_code_memo", codes)
            for (pair, upcard), code in codes.items():
                cell = chart["pairs"][rank_symbol(pair)][upcard]
                chart["pairs"][rank_symbol(pair)][upcard] = replace(cell, code=code)
        return {section: {row: RankKeyed(cells) for row, cells in rows.items()} for section, rows in chart.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "ev": fraction_string(self.ev),
            "by_upcard": {rank_symbol(u): fraction_string(v) for u, v in self.by_upcard.items()},
        }


def _das_codes(solution: GameSolution, pairs: Mapping[str, Mapping[int, ChartCell]]) -> dict[tuple[int, int], str]:
    """Ph / Pd for the pair cells whose split is best only with doubling after splitting."""
    without = _EngineSolver(replace(solution.rules, das=False))
    splits: dict[int, list[int]] = {}  # up-card -> the pairs split there
    for row, cells in pairs.items():
        for upcard, cell in cells.items():
            if cell.best == "split":
                splits.setdefault(upcard, []).append(as_rank(row))
    for upcard, ranks in splits.items():
        without.prefetch_pairs(ranks, upcard)
    codes: dict[tuple[int, int], str] = {}
    for upcard, ranks in splits.items():
        for pair in ranks:
            moves = solution.hands[(pair, pair, upcard)]
            values = {m: moves.unconditional(m) for m in moves.w}
            split = without.split(pair, upcard)
            values["split"] = split - moves.natural if moves.natural_costs_one else split
            best = _argmax(values)
            if best in ("hit", "double"):
                codes[(pair, upcard)] = "Ph" if best == "hit" else "Pd"
    return codes


def _row_key(section: str, row: str) -> int:
    if section == "pairs":
        return {"A": 11, "T": 10}.get(row, 0) or int(row)
    return int(row)


def _deal_chances(shoe: Shoe, upcard: int) -> Iterator[tuple[tuple[int, int], mpq]]:
    """P(player's two cards | up-card), first <= second."""
    if shoe.is_infinite:
        p = shoe.draw_probabilities()
        for a in RANKS:
            for b in RANKS[a - 1:]:
                yield (a, b), p[a - 1] * p[b - 1] * (1 if a == b else 2)
        return
    assert isinstance(shoe, FiniteShoe)
    left = list(shoe.counts)
    left[upcard - 1] -= 1
    n = sum(left)
    for a in RANKS:
        for b in RANKS[a - 1:]:
            ways = left[a - 1] * (left[b - 1] - (a == b)) * (1 if a == b else 2)
            if ways > 0:
                yield (a, b), mpq(ways, n * (n - 1))


def solve_game(rules: GameRules, *, with_distribution: bool = True, split_lines: bool = False,
               progress: bool | None = None, engine: bool = True) -> GameSolution:
    """Solve the round exactly: every two-card hand against every up-card, and the house edge.

    ``with_distribution``: also the exact distribution of the round's net result. On a
    finite shoe where pairs are split that needs every line of the split hands followed
    (they share the cards and the dealer's outcome): with ``split_lines`` only (one deck
    split once about 12 s, six decks about 30 s, against about 1 s for the value), and
    given up (``None``) beyond :data:`SPLIT_WORK_LIMIT` combinations, which resplits on a
    deck or more need (see :class:`_Results`); ``distribution_missing`` says why it is
    ``None``. ``progress``: a progress bar on standard error (default: when it is a terminal).
    ``engine=False``: the values in fraction arithmetic throughout, without
    :mod:`bjexact.player.engine` (many times slower; the same results, kept as an independent
    check of the engine). Rules the engine does not cover (:func:`engine_covers`: doubling
    after hitting, a Charlie) take the fraction arithmetic whatever ``engine`` says.

    Examples
    --------
    >>> solution = solve_game(GameRules(decks="inf", split_hands=2))
    >>> f"{float(solution.ev) * 100:.6f}"
    '-0.570388'
    >>> sum(solution.distribution.values()) == 1
    True
    >>> solution.chart()["hard"]["16"][10].code, solution.chart()["pairs"]["8"][10].code
    ('H', 'P')
    """
    solver = _EngineSolver(rules) if engine and engine_covers(rules) else _Solver(rules)
    return _solve(solver, with_distribution=with_distribution, split_lines=split_lines,
                  progress=progress)


def engine_covers(rules: GameRules) -> bool:
    """Whether :mod:`bjexact.player.engine` can value ``rules``: not with doubling after hitting or
    a Charlie (its positions are two-card decisions then stand or hit, settled by total), which
    :func:`solve_game` values in fraction arithmetic instead."""
    return not rules.double_after_hit and rules.charlie is None


def _solve(solver: _Solver, *, with_distribution: bool, progress: bool | None,
           split_lines: bool = False) -> GameSolution:
    """The round under the play ``solver`` chooses (its :meth:`_Solver.moves` and the decisions
    after the first): the optimal play, or a fixed policy's (:mod:`bjexact.player.policy`)."""
    rules = solver.rules
    shoe = solver.cards.shoe
    up_p = shoe.draw_probabilities()
    upcards = [u for u in UPCARD_ORDER if up_p[u - 1]]
    results = _Results(solver, split_lines)
    hands: dict[tuple[int, int, int], MoveValues] = {}
    deal_chance: dict[tuple[int, int, int], mpq] = {}
    by_upcard: dict[int, mpq] = {}
    distribution: Dist | None = {} if with_distribution else None
    with Progress(len(upcards), "up-cards", enabled=progress) as bar:
        for upcard in upcards:
            solver.prefetch(upcard)
            value = _ZERO
            for cards, chance in _deal_chances(shoe, upcard):
                dealt: Dist | None
                if is_natural(cards):  # a natural: paid at once, or a push
                    p_nat = solver.cards.natural_chance(counts_of(cards), upcard)
                    value += chance * (1 - p_nat) * rules.bj_pays
                    dealt = {rules.bj_pays: 1 - p_nat, _ZERO: p_nat}
                else:
                    moves = solver.moves(cards, upcard)
                    hands[(cards[0], cards[1], upcard)] = moves
                    deal_chance[(cards[0], cards[1], upcard)] = chance
                    value += chance * moves.round_value
                    dealt = results.deal(moves) if distribution is not None else None
                if distribution is not None:
                    if dealt is None:
                        distribution = None
                    else:
                        _mix(distribution, dealt, up_p[upcard - 1] * chance)
            by_upcard[upcard] = value
            bar.advance()
    up_chance = {u: up_p[u - 1] for u in upcards}
    ev = sum((up_chance[u] * v for u, v in by_upcard.items()), _ZERO)
    if distribution is not None:
        distribution = {r: p for r, p in sorted(distribution.items()) if p}
    missing = "" if distribution is not None or not with_distribution else results.missing
    return GameSolution(rules, hands, deal_chance, by_upcard, up_chance, ev, distribution, missing)


def hand_moves(rules: GameRules, cards: Sequence[int] | Sequence[str] | Sequence[int | str],
               upcard: int | str) -> MoveValues:
    """The values of every allowed move of the player's ``cards`` against ``upcard``.

    Two cards: stand, hit, double, split, surrender as the rules allow; three or
    more: stand and hit, and double with ``double_after_hit``. Values per unit initial bet, composition-dependent (the
    cards and the up-card have left the shoe); see :meth:`MoveValues.value` for
    what they are conditioned on.

    Examples
    --------
    >>> moves = hand_moves(GameRules(decks=6, split_hands=2, surrender="late"), ["T", "6"], "T")
    >>> {move: f"{float(v) * 100:.6f}" for move, v in moves.values.items()}
    {'stand': '-54.095444', 'hit': '-53.467556', 'double': '-106.935112', 'surrender': '-50.000000'}
    >>> moves.best
    'surrender'
    """
    ranks, up = player_hand(cards, upcard)
    if is_natural(ranks):
        raise BjexactError("the hand is a natural: it is paid at once, with nothing to decide")
    solver = _Solver(rules)
    hand = counts_of(ranks)
    if not solver.cards.infinite:
        needed = add_counts(hand, counts_of([up]))
        for rank in RANKS:
            if needed[rank - 1] > solver.cards.counts[rank - 1]:
                raise BjexactError(f"the shoe does not hold {needed[rank - 1]} of {rank_symbol(rank)}")
    if rules.is_charlie(len(ranks), hand_value(ranks)):
        raise BjexactError(f"the hand is a {rules.charlie}-card Charlie: it has won, with nothing to decide")
    solver.prefetch_hand(ranks, up)
    if len(ranks) == 2:
        return solver.moves((ranks[0], ranks[1]), up)
    stand, hit = solver.continuation(hand, up)
    moves = {"stand": stand} | ({"hit": hit} if hit is not None else {})
    double = solver.later_double(hand, up, NOTHING_GONE) if solver.may_double(hand) else None
    if double is not None:
        moves["double"] = double
    return MoveValues(ranks, up, moves, solver.cards.natural_chance(hand, up), rules.excludes_natural,
                      False, rules.hole_card == "peek")


def even_money(rules: GameRules) -> dict[str, mpq]:
    """A player natural against an ace: ``{"even money": 1, "no insurance": (1 - P(ten)) * bj_pays}``,
    P(ten) that of the hole card given the player's A, T and the ace up."""
    p_ten = _Cards(rules).natural_chance(counts_of([ACE, TEN]), ACE)
    return {"even money": _ONE, "no insurance": (1 - p_ten) * rules.bj_pays}


def insurance_value(rules: GameRules, cards: Sequence[int] | Sequence[str] | Sequence[int | str],
                    upcard: int | str = ACE) -> mpq:
    """The value of insuring (half the stake, paid 2:1 if the hole card is ten-valued),
    per unit initial bet, given the player's ``cards`` and an ace up: (3 P(ten) - 1) / 2.

    >>> insurance_value(GameRules(decks=1), ["T", "9"])   # 15 tens among 49 unseen cards
    mpq(-2,49)

    With a player natural, even money is worth 1 against (1 - P(ten)) * bj_pays unpaid.
    """
    ranks = tuple(as_rank(c) for c in cards)
    if as_rank(upcard) != ACE:
        raise BjexactError("insurance is only offered with an ace up")
    p_ten = _Cards(rules).natural_chance(counts_of(ranks), ACE)
    return (3 * p_ten - 1) / 2
