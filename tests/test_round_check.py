"""Whole-round simulators against the exact distribution of the round's net result."""

from __future__ import annotations

import random

import pytest

from bjexact import BjexactError
from bjexact.checks.rounds import (
    assert_round_simulator_matches,
    check_round_simulator,
    exact_round_distribution,
    format_round_check,
    round_simulator,
)
from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules

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
