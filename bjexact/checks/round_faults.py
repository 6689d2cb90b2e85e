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
    as the simulator plays it, by the same moves (bjexact's optimal play or a chart's). The player's
    hands and the dealer's cards are independent given the up-card, so each hand's final total and
    stake is found once, the split hands' results are summed per dealer outcome by convolution, and
    the dealer's outcome is weighted by its chance. Probabilities are exact ``mpq``; with no fault
    the distribution is that of :func:`bjexact.player.game.solve_game` (the tests compare them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..core.cards import RANKS, Counts
from ..core.hand import HandValue, add_card, hand_value
from ..core.numbers import mpq
from ..core.rules import GameRules
from ..core.settlement import hand_result
from ..errors import BjexactError

__all__ = ["ROUND_FAULTS", "DEALER_FAULTS", "DealerStops", "RoundPlay", "dealer_stops", "dealer_rule",
           "hand_is_settled", "faulty_round_distribution"]

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

    def continues_hitting(self, hand: Counts, upcard: int) -> bool: ...

    def split_hits(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> bool: ...


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


@dataclass(frozen=True)
class _Final:
    """A finished hand: its value (bust as hard 22), stake, and whether :func:`hand_is_settled`."""

    value: HandValue
    stake: int
    settled: bool


_Law = dict[_Final, mpq]  # a hand's finals -> probability
_DealerLaw = dict[tuple[HandValue, bool], mpq]  # (the dealer's final value, a natural) -> probability


def _mix(target: dict[Any, mpq], source: Mapping[Any, mpq], weight: mpq) -> None:
    for key, p in source.items():
        target[key] = target.get(key, _ZERO) + weight * p


def _final(value: HandValue, cards: int, stake: int, split: bool) -> _Final:
    return _Final(_BUST if value.bust else value, stake, hand_is_settled(value, cards, split))


class _Round:
    """The round's parts on the infinite deck for one rule set, play and fault (see the module)."""

    def __init__(self, rules: GameRules, play: RoundPlay, first_move: FirstMove, fault: str | None):
        self.rules, self.play, self.first_move, self.fault = rules, play, first_move, fault
        self.p = rules.make_shoe().draw_probabilities()
        self.stops = dealer_rule(rules, fault)
        self._dealer: dict[tuple[HandValue, HandValue], _DealerLaw] = {}
        self._hits: dict[tuple[tuple[int, ...], int, tuple[int, int] | None], _Law] = {}
        self._splits: dict[tuple[int, int, int, int], _Law] = {}

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

    def _keeps_hitting(self, cards: tuple[int, ...], up: int, split: tuple[int, int] | None) -> bool:
        if split is None:
            return self.play.continues_hitting(_counts(cards), up)
        return self.play.split_hits(_counts(cards), up, *split)

    def _after_hit(self, cards: tuple[int, ...], value: HandValue, up: int, split: tuple[int, int] | None) -> _Law:
        """A hand of ``cards`` that draws a card, then plays on (``split``: (pair, hands on the table))."""
        key = (cards, up, split)
        found = self._hits.get(key)
        if found is None:
            found = {}
            for rank in RANKS:
                new, after = tuple(sorted(cards + (rank,))), add_card(value, rank)
                if after.total < 21 and self._keeps_hitting(new, up, split):
                    _mix(found, self._after_hit(new, after, up, split), self.p[rank - 1])
                else:
                    _mix(found, {_final(after, len(new), 1, split is not None): _ONE}, self.p[rank - 1])
            self._hits[key] = found
        return found

    def _double(self, value: HandValue, split: bool) -> _Law:
        out: _Law = {}
        for rank in RANKS:
            _mix(out, {_final(add_card(value, rank), 3, 2, split): _ONE}, self.p[rank - 1])
        return out

    def unsplit(self, a: int, b: int, up: int, move: str) -> _Law:
        value = hand_value((a, b))
        if move == "stand":
            return {_final(value, 2, 1, False): _ONE}
        if move == "double":
            return self._double(value, False)
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
                found = self._double(value, True)
            elif move == "hit":
                found = self._after_hit(cards, value, up, (pair, table))
            else:
                found = {_final(value, 2, 1, True): _ONE}
            self._splits[key] = found
        return found

    def split_patterns(self, pair: int, up: int) -> list[tuple[mpq, list[_Law]]]:
        """(chance, each split hand's law in order) over the ways the second cards fall: a pair card
        makes a new hand while the rules' limit allows, as the simulator deals them."""
        limit = self.rules.split_limit(pair)
        p_pair = self.p[pair - 1]
        out: list[tuple[mpq, list[_Law]]] = []

        def second(hands: int, chance: mpq, laws: list[_Law]) -> None:
            if len(laws) == hands:
                out.append((chance, laws))
                return
            law: _Law = {}
            if hands < limit:
                for rank in RANKS:
                    if rank != pair:
                        _mix(law, self.split_hand(pair, rank, up, hands), self.p[rank - 1] / (1 - p_pair))
                if p_pair:
                    second(hands + 1, chance * p_pair, laws)
                second(hands, chance * (1 - p_pair), laws + [law])
            else:
                for rank in RANKS:
                    _mix(law, self.split_hand(pair, rank, up, hands), self.p[rank - 1])
                second(hands, chance, laws + [law])

        second(2, _ONE, [])
        return out

    # settling

    def settle(self, hands: list[_Law], dealer: tuple[HandValue, bool]) -> dict[mpq, mpq]:
        """The round's net result of hands with these laws (independent) against a dealer outcome."""
        value, natural = dealer
        if natural:  # found after play (ENHC): it takes the stakes as the rules say
            stakes: dict[tuple[int, ...], mpq] = {(): _ONE}
            for law in hands:
                by_stake: dict[tuple[int, ...], mpq] = {}
                for f, p in law.items():
                    by_stake[(f.stake,)] = by_stake.get((f.stake,), _ZERO) + p
                stakes = _convolve(stakes, by_stake, lambda x, y: tuple(sorted(x + y)))
            out: dict[mpq, mpq] = {}
            for s, p in stakes.items():
                loss = self.rules.dealer_natural_loss(list(s))
                out[loss] = out.get(loss, _ZERO) + p
            return out
        total: dict[mpq, mpq] = {_ZERO: _ONE}
        for law in hands:
            results: dict[mpq, mpq] = {}
            for f, p in law.items():
                result = f.stake * self.rules.payout(hand_result(f.value, value, player_natural=False,
                                                                 dealer_natural=False))
                results[result] = results.get(result, _ZERO) + p
            total = _convolve(total, results, lambda x, y: x + y)
        return total

    def hands_against(self, patterns: list[tuple[mpq, list[_Law]]], final: _DealerLaw,
                      two: _DealerLaw) -> dict[mpq, mpq]:
        """The net result of the hands (by pattern) against the dealer's outcomes, the fault applied."""
        out: dict[mpq, mpq] = {}
        for chance, laws in patterns:
            counted = laws if self.fault != "split-hand-dropped" or len(laws) < 2 else laws[:1] + laws[2:]
            for dealer, q in final.items():
                _mix(out, self.settle(counted, dealer), chance * q)
            if self.fault == "split-21-as-settled":  # every hand settled: the dealer keeps its two cards
                settled = [{f: p for f, p in law.items() if f.settled} for law in counted]
                for dealer, q in final.items():
                    _mix(out, self.settle(settled, dealer), -chance * q)
                for dealer, q in two.items():
                    _mix(out, self.settle(settled, dealer), chance * q)
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
            patterns = self.split_patterns(a, up)
        else:
            patterns = [(_ONE, [self.unsplit(a, b, up, move)])]
        _mix(out, self.hands_against(patterns, final, two), _ONE)
        return out


def _counts(cards: Sequence[int]) -> Counts:
    out = [0] * 10
    for c in cards:
        out[c - 1] += 1
    return tuple(out)


def _convolve(a: Mapping[Any, mpq], b: Mapping[Any, mpq], add: Callable[[Any, Any], Any]) -> dict[Any, mpq]:
    out: dict[Any, mpq] = {}
    for x, p in a.items():
        for y, q in b.items():
            key = add(x, y)
            out[key] = out.get(key, _ZERO) + p * q
    return out


def faulty_round_distribution(rules: GameRules, play: RoundPlay, first_move: FirstMove,
                              fault: str | None = None) -> dict[mpq, mpq]:
    """P(net result) of a round on the infinite deck played by ``play`` (first moves by ``first_move``)
    with ``fault`` (one of :data:`ROUND_FAULTS`, ``h17-for-s17``, or ``None``: the rules' round);
    an error on a finite shoe (its cards are not independent)."""
    if not rules.infinite:
        raise BjexactError("a faulty round's distribution is computed for the infinite deck only")
    if fault is not None and fault not in ROUND_FAULTS and fault not in DEALER_FAULTS:
        raise BjexactError(f"unknown fault {fault!r} (known: {', '.join([*ROUND_FAULTS, *DEALER_FAULTS])})")
    game = _Round(rules, play, first_move, fault)
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

