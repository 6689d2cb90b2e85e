"""Tests of the brute-force full-round reference itself (tests/fullgame_bruteforce.py).

Hand-checked values on shoes small enough to count by hand, identities the model must obey
(probabilities sum to one, ENHC with OBO equals peek, surrender options only help), published
infinite-deck values, and a simulation of real dealing against the exact distribution.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction as F

import fullgame_bruteforce as bf
import pytest
from fullgame_bruteforce import BFRules

TENS = (0,) * 9 + (20,)
ACE_AND_TENS = (1,) + (0,) * 8 + (9,)  # one ace, nine tens
SMALL = [(2, 0, 0, 0, 2, 2, 0, 0, 0, 8), (2, 2, 0, 0, 0, 2, 0, 0, 0, 8), (2, 0, 2, 0, 0, 0, 0, 2, 0, 8)]
RULE_SETS = [
    BFRules(),
    BFRules(hole_card="enhc"),
    BFRules(hole_card="enhc", obo=True, surrender="early"),
    BFRules(h17=True, surrender="late", das=False, split_hands=2),
    BFRules(surrender="early", rsa=True, hit_split_aces=True, double="10-11", bj_pays=F(6, 5)),
]


def test_all_tens():
    """Only tens: every hand is 20 v 20. Stand pushes, hit busts, a double loses 2, split hands
    (resplit to four) all push, surrender gives half. Every round is a push."""
    values = bf.move_values(TENS, (10, 10), 10, BFRules(surrender="late"))
    assert values == {"stand": 0, "hit": -1, "double": -2, "split": 0, "surrender": F(-1, 2)}
    assert bf.round_distribution(TENS, BFRules()) == {0: 1}
    assert bf.round_value_by_upcard(TENS, BFRules()) == {10: 0}


def test_one_ace_among_tens_peek():
    """Shoe A + 9T, one split (split_hands=2), peek.

    T,T v T: the dealer peeked, so the hole card is a T and the dealer has 20. Six cards are
    left to draw: the ace and five tens. Hit: the ace (1/6) makes 21 and wins, a ten busts:
    (1 - 5)/6 = -2/3; double twice that. Split: each hand wins when its second card is the ace
    (1/6 each), else pushes with 20 (T,T stands: it cannot resplit): 2/6 = 1/3, the best move.
    Round: the ace is each of the first four cards with chance 1/10: player's card -> natural
    +3/2 (twice), up-card or hole card -> dealer natural -1 (twice); otherwise (6/10) split T,T.
    """
    rules = BFRules(split_hands=2)
    assert bf.move_values(ACE_AND_TENS, (10, 10), 10, rules) == {
        "stand": 0,
        "hit": F(-2, 3),
        "double": F(-4, 3),
        "split": F(1, 3),
    }
    assert bf.round_distribution(ACE_AND_TENS, rules) == {F(3, 2): F(1, 5), -1: F(1, 5), 1: F(1, 5), 0: F(2, 5)}
    assert bf.round_value(ACE_AND_TENS, rules) == F(3, 10)


def test_one_ace_among_tens_enhc_and_obo():
    """Same shoe, no hole card. T,T v T with the ace and six tens unseen (7 cards).

    Stand: the dealer's second card is the ace (1/7): natural, -1; else push: -1/7.
    Hit: ace 1/7 -> 21 beats the dealer's 20, else bust: -5/7.
    Split: the ace goes to hand 1 or hand 2 (1/7 each: +1, the other hand pushes) or to the
    dealer (1/7: natural, both stakes lost, -2; with OBO only -1): 0, or 1/7 with OBO. Split is best.
    Against an ace up the dealer surely has a natural: stand, -1. Round (ENHC):
    2/10 * 3/2 - 1/10 + 7/10 * 0 = 1/5; with OBO 3/10, the peek game's value.
    """
    enhc, obo = BFRules(split_hands=2, hole_card="enhc"), BFRules(split_hands=2, hole_card="enhc", obo=True)
    assert bf.move_values(ACE_AND_TENS, (10, 10), 10, enhc) == {
        "stand": F(-1, 7),
        "hit": F(-5, 7),
        "double": F(-10, 7),
        "split": 0,
    }
    assert bf.move_values(ACE_AND_TENS, (10, 10), 10, obo)["split"] == F(1, 7)
    assert bf.round_distribution(ACE_AND_TENS, enhc) == {
        F(3, 2): F(1, 5),
        -1: F(1, 10),
        1: F(1, 5),
        -2: F(1, 10),
        0: F(2, 5),
    }
    assert bf.round_value(ACE_AND_TENS, enhc) == F(1, 5)
    assert bf.round_value(ACE_AND_TENS, obo) == F(3, 10) == bf.round_value(ACE_AND_TENS, BFRules(split_hands=2))


def test_split_aces():
    """Shoe 3A + 9T, A,A v T under peek: the hole card is a T (dealer 20); one ace and seven tens
    are left. Each split ace gets one card: a T makes 21 (+1), the ace makes soft 12 (-1).
    No resplit: hand 1 gets the ace 1/8 (then hand 2 a T: 0), else +1 and hand 2 gets the ace
    1/7: 7/8 * (1 + 5/7) = 3/2. With RSA a split ace that gets the ace resplits and every hand
    then gets a T: 1/8 * 3 + 7/8 * (1/7 * 3 + 6/7 * 2) = 9/4. Hitting split aces changes
    nothing here: soft 12 v 20 loses whether it stands or hits (stand wins the tie)."""
    shoe = (3,) + (0,) * 8 + (9,)
    assert bf.move_values(shoe, (1, 1), 10)["split"] == F(3, 2)
    assert bf.move_values(shoe, (1, 1), 10, BFRules(rsa=True))["split"] == F(9, 4)
    assert bf.move_values(shoe, (1, 1), 10, BFRules(rsa=True, split_hands=2))["split"] == F(3, 2)
    assert bf.move_values(shoe, (1, 1), 10, BFRules(hit_split_aces=True))["split"] == F(3, 2)


def test_h17():
    """Shoe A + 4x4 + 6 + 8T, T,T v 6: eleven cards unseen. The dealer reaches soft 17 only as 6,A
    (hole card A, 1/11). Standing on it, 20 wins; hitting it, a 4 (4/10) makes soft 21, which
    beats 20, and a T makes hard 17. Every other line is the same under S17 and H17, so hitting
    soft 17 costs the player 2 * 1/11 * 4/10 = 4/55 on standing 20."""
    shoe = (1, 0, 0, 4, 0, 1, 0, 0, 0, 8)
    s17 = bf.move_values(shoe, (10, 10), 6)["stand"]
    assert bf.move_values(shoe, (10, 10), 6, BFRules(h17=True))["stand"] == s17 - F(4, 55)


def test_double_after_split():
    """Split 5s v 6 among sixes and tens: a split 5 that draws a 6 makes 11, which the unsplit
    hand 5,6 would double; without DAS it may only hit, so splitting is worth less."""
    shoe = (0, 0, 0, 0, 3, 4, 0, 0, 0, 10)
    with_das = bf.move_values(shoe, (5, 5), 6)["split"]
    assert with_das > bf.move_values(shoe, (5, 5), 6, BFRules(das=False))["split"]


def test_natural_and_insurance_values():
    """A natural against a T up with no ace left: the dealer cannot have one, 3:2 (or 6:5).
    Insurance against an ace when only tens are unseen wins 1; one deck, 5,6 v A: 16 tens among
    49 unseen cards: 16/49 - (33/49)/2 = -1/98."""
    assert bf.move_values(ACE_AND_TENS, (1, 10), 10) == {"stand": F(3, 2)}
    assert bf.move_values(ACE_AND_TENS, (1, 10), 10, BFRules(bj_pays=F(6, 5), hole_card="enhc")) == {"stand": F(6, 5)}
    assert bf.insurance_value(ACE_AND_TENS, (10, 10), 1, BFRules()) == 1
    assert bf.insurance_value((4,) * 9 + (16,), (5, 6), 1, BFRules()) == F(-1, 98)  # no play: quick
    with pytest.raises(ValueError):
        bf.insurance_value(ACE_AND_TENS, (10, 10), 10, BFRules())


def test_moves_offered():
    """T,T is a pair (all ten-valued cards are one rank); doubling and surrender follow the rules."""
    shoe = (2, 1, 1, 1, 1, 2, 0, 0, 1, 8)
    assert "split" in bf.move_values(shoe, (10, 10), 6)
    assert "split" not in bf.move_values(shoe, (10, 10), 6, BFRules(split_hands=1))
    assert set(bf.move_values(shoe, (9, 2, 3), 6)) == {"stand", "hit"}
    assert "double" in bf.move_values(shoe, (5, 4), 6, BFRules(double="9-11"))
    assert "double" not in bf.move_values(shoe, (5, 4), 6, BFRules(double="10-11"))
    assert "double" in bf.move_values(shoe, (6, 4), 6, BFRules(double="10-11"))
    assert "double" not in bf.move_values(shoe, (1, 6), 6, BFRules(double_soft=False))
    assert "double" not in bf.move_values(shoe, (1, 9), 6, BFRules(double="9-11"))  # soft 20
    assert bf.move_values(shoe, (10, 6), 10, BFRules(surrender="early"))["surrender"] == F(-1, 2)
    assert "surrender" not in bf.move_values(shoe, (10, 6), 10)


def test_errors():
    with pytest.raises(ValueError, match="shoe exhausted"):
        bf.round_value((0,) * 9 + (4,), BFRules())  # valuing a hit needs a fifth card
    with pytest.raises(ValueError, match="shoe exhausted"):
        bf.move_values((0,) * 9 + (5,), (10, 10), 10)  # the second split hand has no card
    with pytest.raises(ValueError):
        bf.round_value(TENS, BFRules(hole_card="enhc", surrender="late"))
    with pytest.raises(ValueError):
        bf.move_values(TENS, (10, 10, 10), 10)


@pytest.mark.parametrize("shoe", SMALL)
@pytest.mark.parametrize("rules", RULE_SETS, ids=range(len(RULE_SETS)))
def test_distribution_is_consistent(shoe, rules):
    dist = bf.round_distribution(shoe, rules)
    value = bf.round_value(shoe, rules)
    assert sum(dist.values()) == 1
    assert all(p > 0 for p in dist.values())
    assert sum(x * p for x, p in dist.items()) == value
    counts = dict(zip(range(1, 11), shoe))
    by_up = bf.round_value_by_upcard(shoe, rules)
    assert set(by_up) == {r for r, c in counts.items() if c}
    assert sum(F(counts[up], sum(shoe)) * v for up, v in by_up.items()) == value
    assert min(dist) >= -8 and max(dist) <= 8


@pytest.mark.parametrize("shoe", SMALL)
@pytest.mark.parametrize("surrender", ["none", "early"])
def test_enhc_with_obo_is_the_peek_game(shoe, surrender):
    """With OBO a dealer natural costs exactly 1 whatever the player did, as under peek, and the
    player's choices rank the same; so the whole distribution is the peek game's."""
    peek = bf.round_distribution(shoe, BFRules(surrender=surrender))
    assert bf.round_distribution(shoe, BFRules(surrender=surrender, hole_card="enhc", obo=True)) == peek
    assert bf.round_value(shoe, BFRules(surrender=surrender, hole_card="enhc")) < bf.round_value(
        shoe, BFRules(surrender=surrender)
    )


@pytest.mark.parametrize("shoe", SMALL)
def test_surrender_options_only_help(shoe):
    none, late, early = (bf.round_value(shoe, BFRules(surrender=s)) for s in ("none", "late", "early"))
    assert none <= late < early
    assert bf.round_value(shoe, BFRules(hole_card="enhc")) <= bf.round_value(
        shoe, BFRules(hole_card="enhc", surrender="early")
    )


def test_twenty_card_shoe():
    """A 20-card shoe of five ranks with every option on: still exact and consistent."""
    shoe = (3, 2, 0, 0, 3, 0, 3, 0, 0, 9)
    rules = BFRules(h17=True, surrender="late", rsa=True)
    dist = bf.round_distribution(shoe, rules)
    assert sum(dist.values()) == 1
    assert sum(x * p for x, p in dist.items()) == bf.round_value(shoe, rules)


def test_infinite_deck_published_values():
    """Hard 16 v T, infinite deck, S17, dealer peeked: stand -0.5404, hit -0.5398 (the well-known
    near tie). Standing on 16 wins only on a dealer bust: v 6 the dealer busts 42.32%, v 2 35.36%."""
    values = bf.move_values("inf", (10, 6), 10)
    assert round(float(values["stand"]), 4) == -0.5404
    assert round(float(values["hit"]), 4) == -0.5398
    assert round(float((bf.move_values("inf", (10, 6), 6)["stand"] + 1) / 2), 4) == 0.4232
    assert round(float((bf.move_values("inf", (10, 6), 2)["stand"] + 1) / 2), 4) == 0.3536


def _one_split_hand(first, up, rules):
    """Value of one hand after a split of first,first, infinite deck, no resplit: the hand takes a
    card and plays the unsplit hand's best move among those allowed after a split."""
    total = F(0)
    for card in range(1, 11):
        p = F(4 if card == 10 else 1, 13)
        values = bf.move_values("inf", (first, card), up, rules)
        allowed = ["stand", "hit"] + (["double"] if rules.das and "double" in values else [])
        if (first, card) in ((1, 10), (10, 1)):
            allowed = ["stand"]
        total += p * max(values[m] for m in allowed)
    return total


@pytest.mark.parametrize("pair,up", [(8, 10), (9, 6)])
def test_infinite_deck_split_is_two_independent_hands(pair, up):
    """Draws from the infinite deck are independent, so a split (no resplit) is worth twice one hand."""
    rules = BFRules(split_hands=2)
    assert bf.move_values("inf", (pair, pair), up, rules)["split"] == 2 * _one_split_hand(pair, up, rules)


def _literal_double(shoe, cards, up, rules):
    """Value of doubling, enumerated in the real order: hole card (under peek with T/A up, drawn
    again until it makes no natural, i.e. conditioned), then the player's card, then the dealer."""

    def draw(counts):
        n = sum(counts)
        left = [tuple(x - (i == r - 1) for i, x in enumerate(counts)) for r in range(1, 11)]
        return [(r, F(c, n), left[r - 1]) for r, c in enumerate(counts, 1) if c]

    def total(hand):
        s = sum(hand)
        return s + 10 if 1 in hand and s <= 11 else s

    def dealer(counts, hand):
        t = total(hand)
        if t > 17 or (t == 17 and not (rules.h17 and 1 in hand and sum(hand) <= 11)):
            return {t: F(1)}
        out = {}
        for r, p, rest in draw(counts):
            for o, q in dealer(rest, hand + [r]).items():
                out[o] = out.get(o, 0) + p * q
        return out

    unseen = list(shoe)
    for c in (*cards, up):
        unseen[c - 1] -= 1
    partner = {1: 10, 10: 1}.get(up)
    holes = draw(unseen)
    if rules.hole_card == "peek":
        holes = [(h, p, rest) for h, p, rest in holes if h != partner]
    z = sum(p for _, p, _ in holes)
    value = F(0)
    for h, ph, rest in holes:
        for c, pc, rest2 in draw(rest):
            mine = total([*cards, c])
            if h == partner:
                result = -1 if rules.obo else -2
            elif mine > 21:
                result = -2
            else:
                result = sum(
                    q * (2 if o > 21 or mine > o else -2 if mine < o else 0) for o, q in dealer(rest2, [up, h]).items()
                )
            value += ph / z * pc * result
    return value


@pytest.mark.parametrize("up", [1, 10, 5])
@pytest.mark.parametrize("rules", [BFRules(), BFRules(hole_card="enhc"), BFRules(hole_card="enhc", obo=True, h17=True)])
def test_double_matches_real_order_enumeration(up, rules):
    """Doubling is one card then stand: no strategy, so it can be enumerated literally in the real
    order (hole card before the player's card); the reference follows the unseen cards instead."""
    shoe = (3, 0, 0, 0, 2, 2, 0, 0, 0, 8)
    for cards in [(5, 6), (1, 5), (6, 10)]:
        assert bf.move_values(shoe, cards, up, rules)["double"] == _literal_double(shoe, cards, up, rules)


def _chi_square_threshold(df):
    return df + 6 * math.sqrt(2 * df)  # far in the tail: a p-value of about 1e-4 or less


@pytest.mark.parametrize(
    "shoe,rules",
    [
        (SMALL[0], BFRules(surrender="late")),
        (SMALL[1], BFRules(hole_card="enhc", h17=True, surrender="early")),
        (SMALL[2], BFRules(hole_card="enhc", obo=True, bj_pays=F(6, 5))),
    ],
)
def test_simulation_agrees(shoe, rules):
    n = 20000
    rng = random.Random(20261123)
    results = [bf.simulate_round(shoe, rules, rng) for _ in range(n)]
    dist = bf.round_distribution(shoe, rules)
    mean = bf.round_value(shoe, rules)
    sd = math.sqrt(float(sum(p * (x - mean) ** 2 for x, p in dist.items())))
    assert abs(float(sum(results) / n - mean)) < 4 * sd / math.sqrt(n)
    assert set(results) <= set(dist)
    seen = {x: 0 for x in dist}
    for x in results:
        seen[x] += 1
    big = [x for x in dist if n * dist[x] >= 5]
    chi2 = sum((seen[x] - n * dist[x]) ** 2 / (n * dist[x]) for x in big)
    rest_seen, rest_p = sum(seen[x] for x in dist if x not in big), sum(dist[x] for x in dist if x not in big)
    df = len(big) - 1
    if rest_p:
        chi2 += (rest_seen - n * rest_p) ** 2 / (n * rest_p)
        df += 1
    assert float(chi2) < _chi_square_threshold(df)


def test_simulation_infinite_deck():
    """Dealing from the infinite deck works too (no splits, to keep the decisions quick)."""
    rng = random.Random(3)
    results = [bf.simulate_round("inf", BFRules(split_hands=1), rng) for _ in range(30)]
    assert all(x in (-2, -1, 0, 1, 2, F(3, 2)) for x in results)


@pytest.mark.parametrize("shoe", SMALL[:2])
def test_post_split_strategies_splitting_once(shoe):
    """Splitting once, each split hand sees exactly one other pair card: CDP plays as CDP1. Both
    hands are worth the same under any strategy of their own cards, and CDP1 plays the first
    hand's optimum, so CDP1 >= CDZ- for every pair."""
    counts = dict(zip(range(1, 11), shoe))
    for pair in [r for r, c in counts.items() if c >= 2]:
        for up in [r for r, c in counts.items() if c - 2 * (r == pair) >= 1]:
            split = {s: bf.move_values(shoe, (pair, pair), up, BFRules(split_hands=2, split_strategy=s))["split"]
                     for s in ("cdz", "cdp1", "cdp")}
            assert split["cdp"] == split["cdp1"] >= split["cdz"], (pair, up)


def test_cdp_plays_by_the_hands_on_the_table():
    """Resplitting 7s v 9 on a 19-card shoe (the engine's test case): CDP's value differs from
    CDP1's, which takes one other pair card as gone whatever the hands on the table."""
    shoe = (1, 0, 0, 0, 0, 2, 3, 3, 3, 7)
    split = {s: bf.move_values(shoe, (7, 7), 9, BFRules(split_strategy=s))["split"] for s in ("cdp1", "cdp")}
    assert split["cdp"] > split["cdp1"]
    with pytest.raises(ValueError, match="split strategy"):
        bf.move_values(shoe, (7, 7), 9, BFRules(split_strategy="cdp2"))
