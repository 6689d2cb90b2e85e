"""Faults a round simulator may have, planted and valued exactly on the infinite deck.

One place for each fault of a round's play that is not another rule set: how the reference round
simulator (:func:`bjexact.checks.rounds.round_simulator`) plants it, and the exact distribution of
the round's net result it produces (:func:`faulty_round_distribution`), which ranks it among the
likely causes of a failed check (:mod:`bjexact.checks.round_causes`).

The faults
    ``split-hand-dropped``: a split hand's bet is not placed or not paid: the second split
    hand's result (and its stake, under ENHC) is dropped from the round.
    ``dealer-hits-soft-18-21``: the dealer hits soft 18 to soft 21 (a natural is found before the
    dealer draws, by the peek or the check of its two cards, so it is never hit).
    ``dealer-stands-after-soft-17``: under H17, a dealer who hit soft 17 stands on whatever it
    then holds, below 17 too (hard 13 from A,6,6). Under S17 it is the rule's play: no fault.
    ``split-21-as-settled``: the dealer does not draw when every hand is bust or a split hand's
    two-card 21, as if such a 21 were settled; it is no natural, and the dealer's draws can push
    it (without a hole card, a natural found after play beats it). The dealer drawing when every
    hand is bust changes no net result (each round is dealt from a fresh shoe): no check can see it.

The dealer's rule stays :meth:`bjexact.core.rules.GameRules.dealer_stands`; a dealer fault is a
variant of it (:func:`dealer_stops`), given explicitly to the simulator and to the distribution.

The distribution
    Every card is drawn with its probability on the infinite deck, in the simulator's order (the
    player's two cards, the up-card, the hole card where the dealer peeks), and each hand is played
    as the simulator plays it, by the same moves (bjexact's optimal play or a chart's): a hand of
    three or more cards stands, hits or, with ``double_after_hit``, doubles; one that reaches a
    Charlie's count has won (unless the dealer has a natural); a soft 21 may still hit towards a
    Charlie (:func:`hand_is_finished`). The player's hands and the dealer's cards are independent
    given the up-card, so each hand's final total and stake is found once, the split hands' results
    are summed per dealer outcome by convolution, followed by (hands made, hands given their second
    card) as the cards fall (up to eight hands), and the dealer's outcome is weighted by its chance.
    Probabilities are exact ``mpq``; with no fault the distribution is that of
    :func:`bjexact.player.game.solve_game` (the tests compare them, under a Charlie, doubling after
    hitting and eight split hands too).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..core.cards import RANKS, Counts
from ..core.hand import HandValue, add_card, hand_value
from ..core.numbers import mpq, whole
from ..core.rules import GameRules
from ..core.settlement import hand_result
from ..errors import BjexactError

__all__ = ["ROUND_FAULTS", "DEALER_FAULTS", "DealerStops", "RoundPlay", "dealer_stops", "dealer_rule",
           "hand_is_settled", "hand_is_finished", "faulty_round_distribution"]

ROUND_FAULTS = {
    "split-hand-dropped": "a split hand's bet is not placed or not paid (the second hand's result dropped)",
    "dealer-hits-soft-18-21": "the dealer hits soft 18 to soft 21",
    "dealer-stands-after-soft-17": "the dealer, having hit soft 17 (H17), stands on whatever it then holds, "
                                   "below 17 too",
    "split-21-as-settled": "the dealer does not draw when every hand is bust or a split hand's two-card 21, "
                           "which is no natural (the dealer's draws can push it)",
}
DEALER_FAULTS = ("h17-for-s17", "dealer-hits-soft-18-21", "dealer-stands-after-soft-17")

# (the dealer's hand value, its value before the last card) -> it stands: the value and the one before
# it are all a stopping rule or its faults read (the fault that stands after hitting soft 17 stands at once)
DealerStops = Callable[[HandValue, HandValue], bool]


class RoundPlay(Protocol):
    """The moves of a round's hands (:class:`bjexact.player.game.Strategy`,
    :class:`bjexact.player.policy.ChartStrategy`), with the first move of a dealt hand."""

    def split_move(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> str: ...

    def later_move(self, hand: Counts, upcard: int) -> str: ...


FirstMove = Callable[[int, int, int], str]  # (card, card, up-card) of a dealt non-natural hand -> its move


def dealer_stops(rules: GameRules, fault: str | None = None) -> DealerStops | None:
    """Whether the dealer stands on its cards: the rules' (``fault`` None or not a dealer fault) or
    that of a dealer fault of :data:`DEALER_FAULTS`; ``None`` where the fault is the rules' own play
    (``dealer-stands-after-soft-17`` under S17)."""
    if fault == "h17-for-s17":
        flipped = GameRules(h17=not rules.h17)
        return lambda value, before: flipped.dealer_stands(value)
    if fault == "dealer-hits-soft-18-21":
        return lambda value, before: rules.dealer_stands(value) and not (value.soft and 18 <= value.total <= 21)
    if fault == "dealer-stands-after-soft-17":
        if not rules.h17:
            return None
        return lambda value, before: before == _SOFT_17 or rules.dealer_stands(value)
    return _rules_stops(rules)


def dealer_rule(rules: GameRules, fault: str | None = None) -> DealerStops:
    """The dealer's stopping rule with ``fault``: :func:`dealer_stops`, or the rules' own where that is None."""
    return dealer_stops(rules, fault) or _rules_stops(rules)


def _rules_stops(rules: GameRules) -> DealerStops:
    return lambda value, before: rules.dealer_stands(value)


def hand_is_settled(value: HandValue, cards: int, split: bool) -> bool:
    """Whether a finished hand worth ``value`` of ``cards`` cards is settled before the dealer draws, as
    a faulty simulator thinks (``split-21-as-settled``): bust, or a split hand's two-card 21 (which is
    not: the dealer's draws can push it)."""
    return value.bust or (split and cards == 2 and value.total == 21)


_SOFT_17 = HandValue(17, True)


# --- the exact distribution -------------------------------------------------------------------------------

_ZERO = mpq(0)
_ONE = mpq(1)
_BUST = HandValue(22, False)


@dataclass(frozen=True, eq=False)
class _Final:
    """A finished hand: its value (bust as hard 22), stake, whether :func:`hand_is_settled`, and whether
    it is a Charlie (it wins its stake unless the dealer has a natural). One instance for each such hand
    (made by :func:`_final` only), so compared and hashed by identity: the laws' keys are quick."""

    value: HandValue
    stake: int
    settled: bool
    charlie: bool = False


_Law = dict[_Final, mpq]  # a hand's finals -> probability
# The player's hands of a round, independent given the up-card, as one function: ``fold(transform, add,
# zero)`` is the sum over the ways the hands fall (how many, which laws) of its chance times the
# convolution, keys combined by ``add`` from ``zero``, of ``transform(law)`` over the hands counted.
_Fold = Callable[[Callable[[_Law], dict[Any, mpq]], Callable[[Any, Any], Any], Any], dict[Any, mpq]]
_DealerLaw = dict[tuple[HandValue, bool], mpq]  # (the dealer's final value, a natural) -> probability


def _mix(target: dict[Any, mpq], source: Mapping[Any, mpq], weight: mpq) -> None:
    get = target.get
    for key, p in source.items():
        target[key] = get(key, _ZERO) + weight * p


def _final(rules: GameRules, value: HandValue, cards: int, stake: int, split: bool) -> _Final:
    fields = (_BUST if value.bust else value, stake, hand_is_settled(value, cards, split),
              rules.is_charlie(cards, value))
    found = _FINALS.get(fields)
    if found is None:
        found = _FINALS[fields] = _Final(*fields)
    return found


# the one :class:`_Final` of each hand (at most 32 values, 2 stakes, settled or not, a Charlie or not)
_FINALS: dict[tuple[HandValue, int, bool, bool], _Final] = {}


def hand_is_finished(rules: GameRules, value: HandValue, cards: int) -> bool:
    """Whether a hand worth ``value`` of ``cards`` cards has no move left: bust, a Charlie, or 21 (a soft 21
    may still hit towards a Charlie)."""
    return value.bust or rules.is_charlie(cards, value) or \
        (value.total == 21 and (rules.charlie is None or not value.soft))


class _Round:
    """The round's parts on the infinite deck for one rule set, play and fault (see the module)."""

    def __init__(self, rules: GameRules, play: RoundPlay, first_move: FirstMove, fault: str | None,
                 shared: dict[str, dict[Any, Any]] | None = None):
        self.rules, self.play, self.first_move, self.fault = rules, play, first_move, fault
        self.p = rules.make_shoe().draw_probabilities()
        self.stops = dealer_rule(rules, fault)
        self._dealer: dict[tuple[HandValue, HandValue], _DealerLaw] = {}
        # the player's hands and their results against a dealer total: the same whatever the fault (a fault
        # changes the dealer, the split hands counted or the settling), so rounds of one play may share them
        memo: dict[str, dict[Any, Any]] = {} if shared is None else shared
        self._hits: dict[tuple[HandValue, int, int, tuple[int, int] | None], _Law] = memo.setdefault("hits", {})
        self._moves: dict[tuple[HandValue, int, int, tuple[int, int] | None], str] = memo.setdefault("moves", {})
        self._splits: dict[tuple[int, int, int, int], _Law] = memo.setdefault("splits", {})
        self._seconds: dict[tuple[int, int, tuple[int, bool]], _Law] = memo.setdefault("seconds", {})
        self._settled: dict[tuple[int, HandValue], tuple[_Law, dict[int, mpq]]] = memo.setdefault("settled", {})
        self._settled_parts: dict[int, tuple[_Law, _Law]] = memo.setdefault("settled parts", {})
        self._folded: dict[tuple[tuple[int, int, bool], tuple[HandValue, bool], bool], dict[mpq, mpq]] = \
            memo.setdefault("split results", {})

    # the dealer

    def dealer(self, up: int) -> tuple[_DealerLaw, _DealerLaw]:
        """(the dealer's final outcome, its two-card outcome) over the hole card: naturals included."""
        final: _DealerLaw = {}
        two: _DealerLaw = {}
        for hole in RANKS:
            p = self.p[hole - 1]
            value = hand_value((up, hole))
            if self.rules.is_natural((up, hole)):
                _mix(final, {(value, True): _ONE}, p)
                _mix(two, {(value, True): _ONE}, p)
                continue
            _mix(two, {(value, False): _ONE}, p)
            _mix(final, self._draw(value, hand_value((up,))), p)
        return final, two

    def _draw(self, value: HandValue, before: HandValue) -> _DealerLaw:
        """The dealer's final outcome from a hand worth ``value`` (``before`` its last card)."""
        if value.bust or self.stops(value, before):
            return {(_BUST if value.bust else value, False): _ONE}
        key = (value, before)
        found = self._dealer.get(key)
        if found is None:
            found = {}
            for rank in RANKS:
                _mix(found, self._draw(add_card(value, rank), value), self.p[rank - 1])
            self._dealer[key] = found
        return found

    # the player's hands

    def _later_move(self, cards: tuple[int, ...], value: HandValue, up: int, split: tuple[int, int] | None) -> str:
        """The move of a hand of three or more cards worth ``value`` (stand, hit, double), as the simulator
        asks it; asked once per value and number of cards (see :meth:`_after_hit`)."""
        key = (value, len(cards), up, split)
        found = self._moves.get(key)
        if found is None:
            found = self._moves[key] = self.play.later_move(_counts(cards), up) if split is None else \
                self.play.split_move(_counts(cards), up, *split)
        return found

    def _after_hit(self, cards: tuple[int, ...], value: HandValue, up: int, split: tuple[int, int] | None) -> _Law:
        """A hand of ``cards`` that draws a card, then plays on (``split``: (pair, hands on the table)):
        it stands, hits again or (``double_after_hit``) doubles, until it is finished. Found once per
        value and number of cards: on the infinite deck a play (bjexact's optimal one, a chart's)
        decides by those alone, and the hand's result depends on nothing else."""
        key = (value, len(cards), up, split)
        found = self._hits.get(key)
        if found is None:
            found = {}
            for rank in RANKS:
                new, after = tuple(sorted(cards + (rank,))), add_card(value, rank)
                move = "stand" if hand_is_finished(self.rules, after, len(new)) else \
                    self._later_move(new, after, up, split)
                if move == "hit":
                    law = self._after_hit(new, after, up, split)
                elif move == "double":
                    law = self._double(after, len(new), split is not None)
                else:
                    law = {self.final(after, len(new), 1, split is not None): _ONE}
                _mix(found, law, self.p[rank - 1])
            self._hits[key] = found
        return found

    def final(self, value: HandValue, cards: int, stake: int, split: bool) -> _Final:
        return _final(self.rules, value, cards, stake, split)

    def _double(self, value: HandValue, cards: int, split: bool) -> _Law:
        """A hand worth ``value`` of ``cards`` cards doubled: one more card, the stake 2."""
        out: _Law = {}
        for rank in RANKS:
            _mix(out, {self.final(add_card(value, rank), cards + 1, 2, split): _ONE}, self.p[rank - 1])
        return out

    def unsplit(self, a: int, b: int, up: int, move: str) -> _Law:
        value = hand_value((a, b))
        if move == "stand":
            return {self.final(value, 2, 1, False): _ONE}
        if move == "double":
            return self._double(value, 2, False)
        return self._after_hit((a, b), value, up, None)

    def split_hand(self, pair: int, second: int, up: int, table: int) -> _Law:
        """A split hand of ``pair`` given its ``second`` card, played with ``table`` hands on the table."""
        key = (pair, second, up, table)
        found = self._splits.get(key)
        if found is None:
            cards = tuple(sorted((pair, second)))
            value = hand_value(cards)
            move = self.play.split_move(_counts(cards), up, pair, table)
            if move == "double":
                found = self._double(value, 2, True)
            elif move == "hit":
                found = self._after_hit(cards, value, up, (pair, table))
            else:
                found = {self.final(value, 2, 1, True): _ONE}
            self._splits[key] = found
        return found

    def _second_card_law(self, pair: int, up: int, key: tuple[int, bool]) -> _Law:
        """The law of a split hand that took its second card with ``key[0]`` hands on the table; ``key[1]``:
        a pair card would have made a new hand instead, so the card is not one."""
        table, not_pair = key
        found = self._seconds.get((pair, up, key))
        if found is None:
            found = {}
            p_pair = self.p[pair - 1]
            for rank in RANKS:
                if not (not_pair and rank == pair):
                    weight = self.p[rank - 1] / (1 - p_pair) if not_pair else self.p[rank - 1]
                    _mix(found, self.split_hand(pair, rank, up, table), weight)
            self._seconds[(pair, up, key)] = found
        return found

    def split_fold(self, pair: int, up: int) -> _Fold:
        """The split hands of ``pair`` as a :data:`_Fold`, over the ways their second cards fall: a pair
        card makes a new hand while the rules' limit allows, as the simulator deals them. A hand's law
        depends only on the hands on the table when it takes its second card and on whether that card
        could still have been a pair card, so the ways are followed by (hands made, hands dealt their
        second card), the hands' results so far convolved as they come: eight hands stay quick.
        ``split-hand-dropped``: the second hand is not counted."""
        limit = self.rules.split_limit(pair)
        p_pair = self.p[pair - 1]
        dropped = self.fault == "split-hand-dropped"

        def fold(transform: Callable[[_Law], dict[Any, mpq]], add: Callable[[Any, Any], Any],
                 zero: Any) -> dict[Any, mpq]:
            out: dict[Any, mpq] = {}
            ways: dict[tuple[int, int], dict[Any, mpq]] = {(2, 0): {zero: _ONE}}
            while ways:  # each step makes a hand or deals one its second card: one step further each turn
                later: dict[tuple[int, int], dict[Any, mpq]] = {}
                for (hands, dealt), measure in ways.items():
                    if dealt == hands:
                        _mix(out, measure, _ONE)
                        continue
                    chance = _ONE
                    if hands < limit:
                        chance = 1 - p_pair
                        if p_pair:
                            _mix(later.setdefault((hands + 1, dealt), {}), measure, p_pair)
                    law = self._second_card_law(pair, up, (hands, hands < limit))
                    step = measure if dropped and dealt == 1 else _convolve(measure, transform(law), add)
                    _mix(later.setdefault((hands, dealt + 1), {}), step, chance)
                ways = later
            return out
        return fold

    # settling

    def settle(self, hands: _Fold, dealer: tuple[HandValue, bool], settled_only: bool = False) -> dict[mpq, mpq]:
        """The round's net result of the hands against a dealer outcome (``settled_only``: the part of their
        laws where every hand is settled, :func:`hand_is_settled`; a measure, not a distribution)."""
        value, natural = dealer

        def part(law: _Law) -> _Law:
            return self._settled_part(law) if settled_only else law

        if natural:  # found after play (ENHC): it takes the stakes as the rules say
            stakes = hands(lambda law: _by_stake(part(law)), lambda x, y: tuple(sorted(x + y)), ())
            out: dict[mpq, mpq] = {}
            for s, p in stakes.items():
                loss = self.rules.dealer_natural_loss(list(s))
                out[loss] = out.get(loss, _ZERO) + p
            return out
        # summed as ints (a hand's result here is a whole number of units), made mpq at the end (whole)
        summed = hands(lambda law: self._results(part(law), value), operator.add, 0)
        return {whole(r): p for r, p in summed.items()}

    def _settled_part(self, law: _Law) -> _Law:
        """The part of ``law`` where the hand is settled (memoised by identity, the law held)."""
        found = self._settled_parts.get(id(law))
        if found is None:
            found = self._settled_parts[id(law)] = (law, {f: p for f, p in law.items() if f.settled})
        return found[1]

    def _results(self, law: _Law, dealer: HandValue) -> dict[int, mpq]:
        """P(the hand's net result) of a hand of ``law`` against the dealer's final ``dealer`` (no natural),
        the result a whole number of units (no natural here: a stake won, pushed or lost) as an int;
        memoised by the law's identity (the memo holds the law, so that identity is never reused)."""
        key = (id(law), dealer)
        found = self._settled.get(key)
        if found is None:
            results: dict[int, mpq] = {}
            for f, p in law.items():
                result = f.stake * int(self.rules.payout(hand_result(f.value, dealer, player_natural=False,
                                                                     dealer_natural=False, charlie=f.charlie)))
                results[result] = results.get(result, _ZERO) + p
            found = self._settled[key] = (law, results)
        return found[1]

    def _kept_settle(self, hands: _Fold, dealer: tuple[HandValue, bool], settled_only: bool,
                     key: tuple[int, int, bool] | None) -> dict[mpq, mpq]:
        """:meth:`settle`, kept by ``key`` (split hands: (pair, up-card, the second hand dropped)) with the
        player's hands: it depends on the hands and the dealer's outcome alone, so the faults of one play
        that change the dealer's rule or what is settled ask the same split hands again."""
        if key is None:
            return self.settle(hands, dealer, settled_only)
        full = (key, dealer, settled_only)
        found = self._folded.get(full)
        if found is None:
            found = self._folded[full] = self.settle(hands, dealer, settled_only)
        return found

    def hands_against(self, hands: _Fold, final: _DealerLaw, two: _DealerLaw,
                      key: tuple[int, int, bool] | None = None) -> dict[mpq, mpq]:
        """The net result of the hands against the dealer's outcomes, the fault applied (``key``: see
        :meth:`_kept_settle`)."""
        out: dict[mpq, mpq] = {}
        for dealer, q in final.items():
            _mix(out, self._kept_settle(hands, dealer, False, key), q)
        if self.fault == "split-21-as-settled":  # every hand settled: the dealer keeps its two cards
            for dealer, q in final.items():
                _mix(out, self._kept_settle(hands, dealer, True, key), -q)
            for dealer, q in two.items():
                _mix(out, self._kept_settle(hands, dealer, True, key), q)
        return out

    def deal(self, a: int, b: int, up: int, final: _DealerLaw, two: _DealerLaw) -> dict[mpq, mpq]:
        """The round's net result given the player's two cards and the up-card."""
        rules = self.rules
        peek = rules.hole_card == "peek"
        natural = sum((q for (_, n), q in final.items() if n), _ZERO)
        if rules.is_natural((a, b)):
            pushed = rules.payout(hand_result(hand_value((a, b)), HandValue(21, True), player_natural=True,
                                              dealer_natural=True))
            paid = rules.payout(hand_result(hand_value((a, b)), HandValue(0, False), player_natural=True,
                                            dealer_natural=False))
            return {pushed: natural, paid: 1 - natural} if pushed != paid else {paid: _ONE}
        move = self.first_move(a, b, up)
        out: dict[mpq, mpq] = {}
        if peek and natural:  # the dealer's natural ends the round before play (early surrender aside)
            lost = -mpq(1, 2) if rules.surrender == "early" and move == "surrender" else -_ONE
            out[lost] = natural
            final = {k: q for k, q in final.items() if not k[1]}
            two = {k: q for k, q in two.items() if not k[1]}
        rest = sum(final.values(), _ZERO)
        if move == "surrender":
            out[-mpq(1, 2)] = out.get(-mpq(1, 2), _ZERO) + rest
            return out
        if move == "split":
            key = (a, up, self.fault == "split-hand-dropped")
            _mix(out, self.hands_against(self.split_fold(a, up), final, two, key), _ONE)
        else:
            _mix(out, self.hands_against(_one_hand(self.unsplit(a, b, up, move)), final, two), _ONE)
        return out


def _counts(cards: Sequence[int]) -> Counts:
    out = [0] * 10
    for c in cards:
        out[c - 1] += 1
    return tuple(out)


def _one_hand(law: _Law) -> _Fold:
    """One hand of ``law`` as a :data:`_Fold`."""
    def fold(transform: Callable[[_Law], dict[Any, mpq]], add: Callable[[Any, Any], Any],
             zero: Any) -> dict[Any, mpq]:
        return _convolve({zero: _ONE}, transform(law), add)
    return fold


def _by_stake(law: _Law) -> dict[tuple[int, ...], mpq]:
    """P(the hand's stake) of a hand of ``law``, the stake as a one-element tuple (stakes are gathered)."""
    out: dict[tuple[int, ...], mpq] = {}
    for f, p in law.items():
        out[(f.stake,)] = out.get((f.stake,), _ZERO) + p
    return out


def _convolve(a: Mapping[Any, mpq], b: Mapping[Any, mpq], add: Callable[[Any, Any], Any]) -> dict[Any, mpq]:
    out: dict[Any, mpq] = {}
    get = out.get
    for x, p in a.items():
        for y, q in b.items():
            key = add(x, y)
            out[key] = get(key, _ZERO) + p * q
    return out


def faulty_round_distribution(rules: GameRules, play: RoundPlay, first_move: FirstMove,
                              fault: str | None = None, *, shared: dict[str, dict[Any, Any]] | None = None
                              ) -> dict[mpq, mpq]:
    """P(net result) of a round on the infinite deck played by ``play`` (first moves by ``first_move``)
    with ``fault`` (one of :data:`ROUND_FAULTS`, ``h17-for-s17``, or ``None``: the rules' round);
    an error on a finite shoe (its cards are not independent). ``shared``: a dict that the calls for
    several faults of one ``rules``, ``play`` and ``first_move`` pass alike, where the player's hands are
    kept for all of them (they do not depend on the fault)."""
    if not rules.infinite:
        raise BjexactError("a faulty round's distribution is computed for the infinite deck only")
    if fault is not None and fault not in ROUND_FAULTS and fault not in DEALER_FAULTS:
        raise BjexactError(f"unknown fault {fault!r} (known: {', '.join([*ROUND_FAULTS, *DEALER_FAULTS])})")
    game = _Round(rules, play, first_move, fault, shared)
    out: dict[mpq, mpq] = {}
    for up in RANKS:
        final, two = game.dealer(up)
        for a in RANKS:
            for b in RANKS:
                if b < a:
                    continue
                weight = game.p[a - 1] * game.p[b - 1] * game.p[up - 1] * (1 if a == b else 2)
                _mix(out, game.deal(a, b, up, final, two), weight)
    return {r: p for r, p in out.items() if p}

