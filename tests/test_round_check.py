"""Whole-round simulators against the exact distribution of the round's net result."""

from __future__ import annotations

import random
from bisect import bisect
from pathlib import Path

import chart_bruteforce as cbf
import pytest

from bjexact import BjexactError
from bjexact.checks.charts import chart_policy
from bjexact.checks.rounds import (
    assert_round_simulator_matches,
    check_round_simulator,
    exact_round_distribution,
    format_round_check,
    round_simulator,
)
from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules
from bjexact.player.game import solve_game
from bjexact.player.policy import ChartPolicy, evaluate_chart

RULES = GameRules(decks="inf", split_hands=2)
ROUNDS = 30_000


def test_the_reference_simulator_passes_and_its_exact_mean_is_the_edge():
    check = check_round_simulator(round_simulator(RULES), RULES, rounds=ROUNDS, seed=3)
    assert check.passed, format_round_check(check)
    assert check.exact_mean == sum(r * p for r, p in exact_round_distribution(RULES).items())
    assert check.exact_mean < 0 and check.df > 5 and not check.impossible
    assert "Verdict: PASS" in format_round_check(check)
    assert_round_simulator_matches(round_simulator(RULES), RULES, rounds=ROUNDS, seed=4)


def test_the_reference_simulator_passes_with_surrender_h17_and_no_hole_card():
    rules = GameRules(decks="inf", split_hands=3, h17=True, surrender="early", hole_card="enhc")
    assert "-1/2" in check_round_simulator(round_simulator(rules), rules, rounds=10, seed=0).exact
    assert_round_simulator_matches(round_simulator(rules), rules, rounds=ROUNDS, seed=5)


def test_a_splitting_bug_fails():
    check = check_round_simulator(round_simulator(RULES, split_bug=True), RULES, rounds=ROUNDS, seed=3)
    assert check.verdict == "fail" and "distribution" in check.failed
    with pytest.raises(AssertionError, match="FAIL"):
        assert_round_simulator_matches(round_simulator(RULES, split_bug=True), RULES, rounds=ROUNDS)


def test_a_six_to_five_payout_fails_as_a_result_the_rules_cannot_produce():
    check = check_round_simulator(round_simulator(RULES, bj_pays="6/5"), RULES, rounds=ROUNDS, seed=3)
    assert check.verdict == "fail" and check.impossible == ("1.2",)
    text = format_round_check(check)
    assert "cannot produce" in text and "1.2" in text
    # and against 6:5 rules it is right
    rules = GameRules(decks="inf", split_hands=2, bj_pays=mpq(6, 5))
    assert check_round_simulator(round_simulator(RULES, bj_pays="6/5"), rules, rounds=ROUNDS, seed=3).passed


def test_impossible_results_fail_with_their_count_and_rounds():
    play = round_simulator(RULES)

    def sometimes_minus_16(rng):
        result = play(rng)
        return -16.0 if rng.random() < 0.01 else result

    check = check_round_simulator(sometimes_minus_16, RULES, rounds=2000)
    assert check.verdict == "fail" and check.impossible == ("-16.0",)
    assert check.impossible_count == check.counts["-16.0"]
    assert len(check.examples) == 5 and all(result == "-16.0" for _, result in check.examples)
    document = check.to_json()["impossible"]
    assert document["count"] == check.impossible_count and document["examples"][0]["round"] == check.examples[0][0]
    assert f"returned in {check.impossible_count} rounds: -16.0" in format_round_check(check)


def test_too_few_rounds_is_not_tested_never_a_pass():
    check = check_round_simulator(round_simulator(RULES), RULES, rounds=3)
    assert check.verdict == "too few rounds" and not check.passed and check.needed > 3
    assert "NOT TESTED" in format_round_check(check)
    with pytest.raises(AssertionError, match="NOT TESTED"):
        assert_round_simulator_matches(round_simulator(RULES), RULES, rounds=3)


def test_bad_simulators_and_rules_are_errors(monkeypatch):
    def broken(rng: random.Random) -> float:
        raise ZeroDivisionError("oops")

    with pytest.raises(BjexactError, match="raised ZeroDivisionError: oops"):
        check_round_simulator(broken, RULES, rounds=10)
    with pytest.raises(BjexactError, match="not a number"):
        check_round_simulator(lambda rng: "win", RULES, rounds=10)
    import bjexact.player.game as game

    monkeypatch.setattr(game, "SPLIT_WORK_LIMIT", 0)  # as for resplits on several decks
    with pytest.raises(BjexactError, match="not computed for these rules: the split hands' joint law"):
        exact_round_distribution(GameRules(shoe=(1, 0, 0, 0, 0, 2, 3, 3, 3, 7), split_hands=2))


# --- rounds played by a printed chart ------------------------------------------------------------------

CHART_FILE = Path(__file__).parent / "data" / "chart_inf_s17_das_ls.txt"
CHART_RULES = GameRules(decks="inf", split_hands=2, surrender="late")
BUG_ROUNDS = 200_000  # hitting a stiff of three cards instead of standing barely moves the mean


def stiff_doubling_chart():
    """The printed chart with hard 12-17 v 2-T printed Ds: doubled on two cards, stood on after."""
    chart = chart_policy(CHART_FILE)
    return ChartPolicy(dict(chart.codes) | {("hard", str(t), u): "Ds" for t in range(12, 18) for u in range(2, 11)})


def chart_simulator(codes, rules, ds_bug=False):
    """Rounds on the infinite deck (peek, S17) played by ``codes``, read independently of bjexact by
    tests/chart_bruteforce.py; ``ds_bug``: Ds read as double-or-hit."""
    if ds_bug:
        codes = {k: ("Dh" if c == "Ds" else c) for k, c in codes.items()}
    ranks, cumulative = list(range(1, 11)), [1, 2, 3, 4, 5, 6, 7, 8, 9, 13]  # the weights 1 x 9, then 4 for tens

    def play_round(rng):
        def draw():  # rng.choices(ranks, cum_weights=cumulative)[0], without its set-up per card
            return ranks[bisect(cumulative, rng.random() * 13.0, 0, 9)]

        def total(cards):
            return cbf._value(tuple(cards))[0]

        def play_out(cards, up, stake=1):  # hit or stand by the total rows, from a decision on
            while total(cards) < 21 and cbf.decide(codes, tuple(cards), up, {"stand", "hit"}, rules.das,
                                                   first=False) == "hit":
                cards.append(draw())
            return cards, stake

        a, up, b, hole = draw(), draw(), draw(), draw()
        natural = sorted((a, b)) == [1, 10]
        if sorted((up, hole)) == [1, 10]:
            return 0.0 if natural else -1.0
        if natural:
            return 1.5
        allowed = {"stand", "hit", "double", "surrender"} | ({"split"} if a == b else set())
        move = cbf.decide(codes, (a, b), up, allowed, rules.das, first=True)
        if move == "surrender":
            return -0.5
        if move == "split":
            hands = []
            for _ in range(2):
                cards = [a, draw()]
                if a == 1:
                    hands.append((cards, 1))
                    continue
                second = cbf.decide(codes, tuple(cards), up, {"stand", "hit", "double"}, rules.das, first=False)
                if second == "double":
                    hands.append((cards + [draw()], 2))
                elif second == "hit":
                    hands.append(play_out(cards + [draw()], up))
                else:
                    hands.append((cards, 1))
        elif move == "double":
            hands = [([a, b, draw()], 2)]
        elif move == "hit":
            hands = [play_out([a, b, draw()], up)]
        else:
            hands = [([a, b], 1)]
        dealer = [up, hole]
        while total(dealer) < 17:
            dealer.append(draw())
        d = total(dealer)
        net = 0.0
        for cards, stake in hands:
            t = total(cards)
            net += -stake if t > 21 else stake if d > 21 or t > d else -stake if t < d else 0
        return net

    return play_round


def test_a_simulator_playing_a_chart_passes_against_the_exact_play_of_that_chart():
    chart = stiff_doubling_chart()
    simulator = chart_simulator(dict(chart.codes), CHART_RULES)
    check = check_round_simulator(simulator, CHART_RULES, rounds=ROUNDS, seed=5, strategy=chart,
                                  strategy_name="stiffs doubled")
    assert check.passed, format_round_check(check)
    assert "play by stiffs doubled" in format_round_check(check) and check.to_json()["strategy"] == "stiffs doubled"
    assert_round_simulator_matches(simulator, CHART_RULES, rounds=ROUNDS, seed=6, strategy=chart)
    # the exact mean is the chart's value, below optimal play's
    assert check.exact_mean == evaluate_chart(CHART_RULES, chart).ev < solve_game(CHART_RULES).ev


def test_the_printed_chart_file_and_the_reference_simulator_playing_it_pass():
    simulator = round_simulator(CHART_RULES, strategy=chart_policy(CHART_FILE))
    assert_round_simulator_matches(simulator, CHART_RULES, rounds=ROUNDS, seed=3, strategy=CHART_FILE)
    assert_round_simulator_matches(chart_simulator(dict(chart_policy(CHART_FILE).codes), CHART_RULES), CHART_RULES,
                                   rounds=ROUNDS, seed=3, strategy=CHART_FILE)


def test_reading_ds_as_double_or_hit_fails():
    chart = stiff_doubling_chart()
    buggy = chart_simulator(dict(chart.codes), CHART_RULES, ds_bug=True)
    check = check_round_simulator(buggy, CHART_RULES, rounds=BUG_ROUNDS, seed=5, strategy=chart)
    assert check.verdict == "fail" and "distribution" in check.failed, format_round_check(check)
    with pytest.raises(AssertionError, match="FAIL"):
        assert_round_simulator_matches(buggy, CHART_RULES, rounds=BUG_ROUNDS, seed=6, strategy=chart)
    # and optimal play is not what a chart plays
    assert not check_round_simulator(chart_simulator(dict(chart.codes), CHART_RULES), CHART_RULES,
                                     rounds=ROUNDS, seed=1).passed
