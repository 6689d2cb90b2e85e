"""A brute-force reference for a round played by a fixed chart, on tiny finite shoes (tests only).

Independent of bjexact: nothing here imports it. The round is dealt card by card in the
casino's order (player, up-card, player, hole card; then the player's hands one after the
other, a split hand receiving its second card when its turn comes; then the dealer), every
card drawn from the cards left with exact probabilities
(gmpy2's ``mpq``: the independence lies in the enumeration, not in the number type), and the chart's
codes are read here from their printed meaning:

H hit, S stand, D/Dh double else hit, Ds double else stand, P split else hit, Ph split if
DAS else hit, Pd split if DAS else double else hit, R/Rh surrender else hit, Rs surrender
else stand, Rp surrender else split else hit, N (pairs) read the total's row. A dealt pair
reads its pair row; every other decision its hard/soft total row (a two-card pair that may
not be split reads its pair row when its total has no row). After the first decision only
stand and hit are allowed, except a split hand's two-card decision, where double is allowed
with DAS. A pair card dealt to a split hand is split again while the rules allow more hands.
Split aces get one card each unless ``hit_split_aces``, and double only with ``double_split_aces``.
Totals of 21 stand.

Rules covered: peek (a dealer natural with a T or A up ends the round first, taking the
original bet; a player natural pushes it) or ENHC (a dealer natural takes every stake), S17
or H17, 3:2 or other payouts, doubling any two cards, DAS or not, split to ``split_hands``
hands (aces resplit with ``rsa``), late surrender (peek only).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gmpy2 import mpq

RANKS = tuple(range(1, 11))
SYMBOLS = {1: "A", 10: "T"}


@dataclass(frozen=True)
class ChartRules:
    h17: bool = False
    bj_pays: mpq = mpq(3, 2)
    das: bool = True
    split_hands: int = 2
    rsa: bool = False
    hit_split_aces: bool = False
    double_split_aces: bool = False  # a split ace may double (with hit_split_aces and das)
    surrender: bool = False
    hole_card: str = "peek"  # "peek" | "enhc"


def _value(cards):
    hard = sum(cards)
    soft = 1 in cards and hard + 10 <= 21
    return (hard + 10 if soft else hard), soft


def _draws(stock):
    n = sum(stock)
    for rank in RANKS:
        if stock[rank - 1]:
            rest = list(stock)
            rest[rank - 1] -= 1
            yield rank, mpq(stock[rank - 1], n), tuple(rest)


def _move(code, allowed, das):
    letter, second = code[0], code[1:]
    if letter == "H":
        return "hit"
    if letter == "S":
        return "stand"
    if letter == "D":
        if "double" in allowed:
            return "double"
        return "stand" if second == "s" else "hit"
    if letter == "P":
        if "split" in allowed and (second == "" or das):
            return "split"
        if second == "d" and "double" in allowed:
            return "double"
        return "hit"
    if letter == "R":
        if "surrender" in allowed:
            return "surrender"
        if second == "s":
            return "stand"
        if second == "p" and "split" in allowed:
            return "split"
        return "hit"
    raise ValueError(code)


def decide(codes, cards, up, allowed, das, first):
    total, soft = _value(cards)
    if total >= 21:
        return "stand"
    pair = len(cards) == 2 and cards[0] == cards[1]
    pair_key = ("pairs", SYMBOLS.get(cards[0], str(cards[0])), up)
    total_key = ("soft" if soft else "hard", str(total), up)
    code = codes.get(pair_key) if first and pair else None
    if code in (None, "N"):
        code = codes.get(total_key)
    if code is None and pair:
        code = codes.get(pair_key)
    if code is None:
        raise KeyError(total_key)
    return _move(code, allowed, das)


def round_distribution(shoe, codes, rules=ChartRules()):
    """P(net result) of one round from ``shoe`` (counts A..T) played by ``codes``
    ((section, row, up-card) -> code)."""
    return dict(_round(tuple(shoe), _chart_number(tuple(sorted(codes.items()))), rules))


def round_value(shoe, codes, rules=ChartRules()):
    return sum(r * p for r, p in round_distribution(shoe, codes, rules).items())


def _add(out, dist, weight):
    for r, p in dist.items():
        out[r] = out.get(r, 0) + weight * p


# the memos key a chart by a number, one per distinct chart (its codes sorted): hashing the chart's few hundred
# codes at every call cost more than the enumeration itself
_CHART_NUMBERS: dict = {}
_CHARTS: list = []


def _chart_number(frozen):
    number = _CHART_NUMBERS.get(frozen)
    if number is None:
        number = _CHART_NUMBERS[frozen] = len(_CHARTS)
        _CHARTS.append(dict(frozen))
    return number


def _codes(chart):
    """The codes of the chart numbered ``chart`` (:func:`_chart_number`)."""
    return _CHARTS[chart]


@cache
def _round(stock, chart, rules):
    out = {}
    for a, pa, s1 in _draws(stock):
        for up, pu, s2 in _draws(s1):
            for b, pb, s3 in _draws(s2):
                for hole, ph, s4 in _draws(s3):
                    _add(out, _after_deal(s4, (a, b), up, hole, chart, rules), pa * pu * pb * ph)
    return out


def _after_deal(stock, cards, up, hole, chart, rules):
    codes = _codes(chart)
    player_natural = sorted(cards) == [1, 10]
    dealer_natural = sorted((up, hole)) == [1, 10]
    if player_natural:
        return {mpq(0) if dealer_natural else rules.bj_pays: mpq(1)}
    if dealer_natural and rules.hole_card == "peek":
        return {mpq(-1): mpq(1)}
    allowed = {"stand", "hit", "double"}
    if cards[0] == cards[1] and rules.split_hands >= 2:
        allowed.add("split")
    if rules.surrender:
        allowed.add("surrender")
    move = decide(codes, cards, up, allowed, rules.das, first=True)
    if move == "surrender":
        return {mpq(-1, 2): mpq(1)}
    if move == "split":
        return _play(stock, up, hole, (), (cards[0],), (cards[0],), 2, cards[0], chart, rules)
    if move == "double":
        out = {}
        for c, p, rest in _draws(stock):
            _add(out, _dealer_turn(rest, up, hole, ((_value(cards + (c,))[0], 2),), rules), p)
        return out
    return _play_unsplit(stock, up, hole, cards, move, codes, rules)


def _play_unsplit(stock, up, hole, cards, move, codes, rules):
    if move == "stand":
        return _dealer_turn(stock, up, hole, ((_value(cards)[0], 1),), rules)
    out = {}
    for c, p, rest in _draws(stock):
        new = cards + (c,)
        total = _value(new)[0]
        if total > 21:
            _add(out, _dealer_turn(rest, up, hole, ((22, 1),), rules), p)
            continue
        nxt = decide(codes, new, up, {"stand", "hit"}, rules.das, first=False)
        _add(out, _play_unsplit(rest, up, hole, new, nxt, codes, rules), p)
    return out


def _limit(pair, rules):
    return rules.split_hands if pair != 1 or rules.rsa else min(rules.split_hands, 2)


@cache
def _play(stock, up, hole, done, current, waiting, hands, pair, chart, rules):
    """Split hands in turn: ``current`` the hand being played, ``waiting`` the hands (first cards)
    still to come after it, ``done`` the finished (total, stake)."""
    codes = _codes(chart)
    out = {}
    if len(current) == 1:  # the hand's second card; a pair card starts another hand while allowed
        for c, p, rest in _draws(stock):
            if c == pair and hands < _limit(pair, rules):
                _add(out, _play(rest, up, hole, done, current, waiting + (pair,), hands + 1, pair, chart, rules), p)
            else:
                _add(out, _play(rest, up, hole, done, current + (c,), waiting, hands, pair, chart, rules), p)
        return out
    total = _value(current)[0]
    if total > 21:
        return _next_hand(stock, up, hole, _with(done, (22, 1)), waiting, hands, pair, chart, rules)
    if len(current) == 2:
        if pair == 1 and not rules.hit_split_aces:
            move = "stand"
        else:
            doubles = rules.das and (pair != 1 or rules.double_split_aces)
            allowed = {"stand", "hit"} | ({"double"} if doubles else set())
            move = decide(codes, current, up, allowed, rules.das, first=False)
    else:
        move = decide(codes, current, up, {"stand", "hit"}, rules.das, first=False)
    if move == "stand":
        return _next_hand(stock, up, hole, _with(done, (total, 1)), waiting, hands, pair, chart, rules)
    for c, p, rest in _draws(stock):
        new = current + (c,)
        if move == "double":
            final = (min(_value(new)[0], 22), 2)
            _add(out, _next_hand(rest, up, hole, _with(done, final), waiting, hands, pair, chart, rules), p)
        else:
            _add(out, _play(rest, up, hole, done, new, waiting, hands, pair, chart, rules), p)
    return out


def _with(done, hand):
    """The finished hands ``done`` (total, stake) and ``hand``, sorted: the dealer settles them alike in any
    order, so the memos meet each set of finished hands once."""
    return tuple(sorted((*done, hand)))


def _next_hand(stock, up, hole, done, waiting, hands, pair, chart, rules):
    if waiting:
        return _play(stock, up, hole, done, (waiting[0],), waiting[1:], hands, pair, chart, rules)
    return _dealer_turn(stock, up, hole, done, rules)


@cache
def _dealer_final(stock, hard, ace, h17):
    total = hard + 10 if ace and hard + 10 <= 21 else hard
    soft = ace and hard + 10 <= 21
    if total > 21:
        return {22: mpq(1)}
    if total > 17 or (total == 17 and not (soft and h17)):
        return {total: mpq(1)}
    out = {}
    for c, p, rest in _draws(stock):
        _add(out, _dealer_final(rest, hard + c, ace or c == 1, h17), p)
    return out


def _dealer_turn(stock, up, hole, done, rules):
    return _settled(stock, up, hole, tuple(sorted(done)), rules)


@cache
def _settled(stock, up, hole, done, rules):
    """:func:`_dealer_turn` of the finished hands ``done`` in sorted order (memoised)."""
    stakes = sum(s for _, s in done)
    if sorted((up, hole)) == [1, 10]:  # ENHC: a dealer natural takes every stake
        return {mpq(-stakes): mpq(1)}
    if all(t > 21 for t, _ in done):
        return {mpq(-stakes): mpq(1)}
    out = {}
    for dealer, p in _dealer_final(stock, up + hole, 1 in (up, hole), rules.h17).items():
        net = 0
        for total, stake in done:
            if total > 21:
                net -= stake
            elif dealer > 21 or total > dealer:
                net += stake
            elif total < dealer:
                net -= stake
        key = mpq(net)
        out[key] = out.get(key, 0) + p
    return out
