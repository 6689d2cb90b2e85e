"""Index numbers and betting figures of a count from exact solves at given true counts."""

from __future__ import annotations

import itertools
import json
from math import exp, floor, sqrt

import pytest
from clirun import run

from bjexact.core.numbers import fraction_string, mpq, parse_fraction
from bjexact.core.rules import GameRules
from bjexact.counting.betting import (
    bet_at,
    count_frequencies,
    griffin_figures,
    kelly_ramp,
    normal_gain,
    parse_ramp,
    ramp_figures,
    values_by_count,
    weighted_correlation,
)
from bjexact.counting.paths import (
    count_path,
    count_shoes,
    count_true_count,
    neutral_remainder,
)
from bjexact.counting.simulation import CountSystem, load_system
from bjexact.errors import BjexactError

HI_LO = load_system("hi-lo")
SIX = (24,) * 9 + (96,)
SMALL = (3, 3, 3, 3, 3, 3, 3, 3, 3, 12)  # three quarters of a deck: quick to solve
SMALL_RULES = GameRules(shoe=SMALL, split_hands=1, surrender="late")


def test_the_path_follows_the_count_in_its_own_proportions():
    assert neutral_remainder(SIX, mpq(1, 2)) == (12,) * 9 + (48,)
    assert neutral_remainder((1, 2, 3, 0, 0, 0, 0, 0, 0, 5), mpq(1, 2)) == (1, 1, 1, 0, 0, 0, 0, 0, 0, 2)
    ten = count_path(HI_LO, SIX, mpq(1, 2), 10)  # five low cards out (one of each), five high cards back (4:1)
    assert ten == (13, 11, 11, 11, 11, 11, 12, 12, 12, 52)
    assert count_path(HI_LO, SIX, mpq(1, 2), -10) == (11, 13, 13, 13, 13, 13, 12, 12, 12, 44)
    for steps in range(1, 12):  # a step moves the running count of the cards dealt by one
        shoe = count_path(HI_LO, SIX, mpq(1, 2), steps)
        assert count_true_count(HI_LO, SIX, shoe) == mpq(steps * 52, sum(shoe))
    # an unbalanced count is read as its balanced equivalent: the neutral remainder is at 0
    ko = load_system("ko")
    assert count_true_count(ko, SIX, neutral_remainder(SIX, mpq(1, 2))) == 0
    shoes = count_shoes(HI_LO, SIX, 4)
    assert [s.target for s in shoes] == list(range(-4, 5))
    for s in shoes:  # the first shoe along the path to reach its target
        assert abs(s.true_count) >= abs(s.target) and s.true_count == count_true_count(HI_LO, SIX, s.shoe)
        if s.target:
            before = count_path(HI_LO, SIX, mpq(1, 2), s.steps - (1 if s.steps > 0 else -1))
            assert abs(count_true_count(HI_LO, SIX, before)) < abs(s.target)
    with pytest.raises(BjexactError, match="tags no card"):
        count_shoes(CountSystem("none", (0,) * 10), SIX, 3)


def test_true_count_frequencies_against_every_order_of_a_tiny_shoe():
    shoe = (1, 1, 0, 0, 0, 1, 0, 0, 0, 2)  # A, 2, 6, T, T
    system = HI_LO
    cards = [1, 2, 6, 10, 10]
    cut = 3  # penetration 3/5: rounds begin after 0, 1 or 2 cards
    expected: dict[int, mpq] = {}
    orders = list(itertools.permutations(cards))
    for order in orders:
        for n in range(cut):
            rc = sum(system.tags[c - 1] for c in order[:n])
            mean = mpq(-1, 5)  # the shoe's cards count -1 in all: less n / 5 of that for n cards seen
            t = max(-30, min(30, int(floor((rc - mean * n) * 52 / (5 - n)))))
            expected[t] = expected.get(t, 0) + mpq(1, len(orders) * cut)
    found = count_frequencies(system, shoe, mpq(3, 5), 30)
    assert {t: p for t, p in found.items() if p} == expected
    assert sum(found.values()) == 1
    pooled = count_frequencies(system, shoe, mpq(3, 5), 2)
    assert pooled[2] == sum(p for t, p in expected.items() if t >= 2)


def test_ramp_figures_solved_by_hand():
    assert parse_ramp("-1:1, 1:2,2:4") == {-1: 1, 1: 2, 2: 4}
    for bad in ("1:1,1:2", "a:1", "1:0", "2:1,1:2"):
        with pytest.raises(BjexactError, match="--ramp"):
            parse_ramp(bad)
    ramp = {-1: mpq(1), 1: mpq(2), 2: mpq(4)}
    assert [bet_at(ramp, t) for t in (-3, -1, 0, 1, 5)] == [1, 1, 1, 2, 4]
    # between two solved shoes (true counts 0 and 2) the values at +1 lie on the straight line
    solved = [(mpq(0), {"ev": "-1/100", "variance": "1"}), (mpq(2), {"ev": "7/100", "variance": "3"})]
    values = values_by_count(solved, 2)
    assert values[1] == (mpq(3, 100), mpq(2)) and values[-2] == (mpq(-1, 100), 1) and values[2] == (mpq(7, 100), 3)
    # two counts, half the rounds each: EV -1/100 var 1 at 0, EV +3/100 var 1 at +1; bets 1 and 2
    values = {0: (mpq(-1, 100), mpq(1)), 1: (mpq(3, 100), mpq(1))}
    figures = ramp_figures(values, {0: mpq(1, 2), 1: mpq(1, 2)}, {0: mpq(1), 1: mpq(2)}, mpq(100))
    # W = 1/2 (-1/100) + 1/2 (2 x 3/100) = 1/40; E[X^2] = 1/2 (1 + 1/10^4) + 1/2 4 (1 + 9/10^4) = 5/2 + 37/20000
    assert figures.win_rate == mpq(1, 40)
    assert figures.variance == mpq(5, 2) + mpq(37, 20000) - mpq(1, 1600)
    assert figures.average_bet == mpq(3, 2)
    assert figures.n0 == figures.variance * 1600 and figures.score == 10 ** 6 / figures.n0
    assert figures.sd == pytest.approx(sqrt(float(figures.variance)))
    assert figures.risk_of_ruin == pytest.approx(exp(-2 * (1 / 40) * 100 / float(figures.variance)))
    losing = ramp_figures(values, {0: mpq(1), 1: mpq(0)}, {0: mpq(1)}, mpq(100))
    assert losing.n0 is None and losing.risk_of_ruin == 1
    # Kelly: bank x EV / variance within the limits, the minimum where EV <= 0
    kelly = kelly_ramp({0: (mpq(-1, 100), mpq(1)), 1: (mpq(1, 100), mpq(1)), 2: (mpq(1, 10), mpq(1))},
                       mpq(1000), mpq(1), mpq(50))
    assert kelly == {0: 1, 1: 10, 2: 50}


def test_griffin_figures_on_made_up_effects():
    assert weighted_correlation([mpq(1), mpq(2)], [mpq(3), mpq(5)], [mpq(1), mpq(4)]) == pytest.approx(1)
    assert normal_gain(0.0, 1.0) == pytest.approx(1 / sqrt(2 * 3.141592653589793))
    assert normal_gain(5.0, 1e-9) == 0 and normal_gain(1.0, 1.0) == pytest.approx(0.0833155, abs=1e-6)
    full = (4,) * 9 + (16,)
    tags = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)

    def result(removed):  # a game whose values move exactly with the tags of the cards removed
        shift = mpq(tags[removed - 1], 1000) if removed else mpq(0)
        stand = fraction_string(shift - mpq(1, 1000))
        return {"ev": fraction_string(shift), "cells": {"hard 16 T": {"hit": "0", "stand": stand}}}

    results = [result(0)] + [result(r) for r in range(1, 11)]
    griffin = griffin_figures(CountSystem("hi-lo", tags), full, results, mpq(3, 4))
    assert griffin.betting_correlation == pytest.approx(1) and griffin.playing_efficiency == pytest.approx(1)
    assert griffin.insurance_eor[10] < 0 < griffin.insurance_eor[5]
    assert griffin.insurance_correlation == pytest.approx(
        weighted_correlation([mpq(t) for t in tags], [griffin.insurance_eor[r] for r in range(1, 11)],
                             [mpq(n) for n in full]))
    flat = griffin_figures(CountSystem("flat", (0, 0, 0, 0, 0, 0, 0, 0, 1, -1)), full, results, mpq(3, 4))
    assert flat.playing_efficiency < 0.5


def test_betting_command(tmp_path, capsys):
    shoe = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)  # a quarter deck: true counts -2 to +2 along its path, as half a deck
    args = ["count", "betting", "--shoe", ",".join(map(str, shoe)), "--split-hands", "1", "--span", "2",
            "--left", "1", "--serial", "--quiet", "--store", str(tmp_path), "--ramp", "0:1,1:4", "--no-griffin"]
    status, out, err = run(capsys, *args, "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    rows = document["by_true_count"]
    assert [r["true_count"] for r in rows] == [-2, -1, 0, 1, 2]
    assert sum(parse_fraction(r["frequency"]) for r in rows) == 1
    win = sum(parse_fraction(r["frequency"]) * parse_fraction(r["bet"]) * parse_fraction(r["ev"]) for r in rows)
    assert parse_fraction(document["win_rate"]) == win
    status, out, err = run(capsys, *args)
    assert status == 0 and "N0" in out and "risk of ruin" in out


@pytest.mark.parametrize("args, message", [
    (["indices", "--workers", "1000000"], "--workers 1,000,000: a local cluster here has at most"),
    (["betting", "--ramp", "1:x"], "--ramp takes"),
    (["betting", "--kelly", "--ramp", "1:1"], "--kelly makes the ramp"),
    (["betting", "--bank", "1e999"], "--bank must be at most 1,000,000,000 units, not 1e999"),
    (["betting", "--kelly", "--max-bet", "1e999"], "--max-bet must be at most 1,000,000,000 units"),
    (["betting", "--ramp", "0:1,1:1e999"], "at most 1,000,000,000 units"),
    (["indices", "--decks", "inf"], "counting needs a finite shoe"),
    (["indices", "--left", "0"], "--left must be"),
    (["indices", "--decks", "100"], "index numbers are computed for at most 8 decks"),
    (["indices", "--shoe", "0,0,0,0,0,0,0,0,0,40"], "the true count cannot move"),
    (["betting", "--shoe", "0,0,0,0,0,0,0,0,0,40"], "cannot move the count"),
    (["betting", "--decks", "1000000", "--span", "1"], "betting figures are computed for at most 8 decks"),
    (["indices", "-o", "same", "--store", "same"], "-o and --store name the same path"),
])
def test_exact_count_commands_refuse_bad_input(capsys, args, message):
    status, out, err = run(capsys, "count", *args)
    assert status == 2 and message in err and err.count("\n") == 1 and out == ""


def test_betting_with_resplits_gives_every_figure_but_those_of_the_variance(tmp_path, capsys):
    # 20 cards, six tens (a pair of tens split can be resplit): solved with resplits in two thirds of half a deck's time
    args = ["count", "betting", "--shoe", "2,1,1,1,1,2,2,2,2,6", "--split-hands", "4", "--span", "1",
            "--left", "1", "--serial", "--quiet", "--store", str(tmp_path), "--no-griffin"]
    status, out, err = run(capsys, *args, "--kelly")
    assert status == 2 and "--kelly needs the round's variance" in err and out == ""
    assert not any(tmp_path.iterdir())  # refused before any solve
    status, out, err = run(capsys, *args, "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    assert document["sd"] is None and document["n0"] is None and document["risk_of_ruin"] is None
    assert all(r["variance"] is None for r in document["by_true_count"])
    win = sum(parse_fraction(r["frequency"]) * parse_fraction(r["bet"]) * parse_fraction(r["ev"])
              for r in document["by_true_count"])
    assert parse_fraction(document["win_rate"]) == win
    status, out, err = run(capsys, *args)
    assert status == 0 and "n/a: not computed with resplits on a finite shoe" in out
