"""The whole-round check's power, its one default, the sequential looks and the time limit."""

from __future__ import annotations

import random
from itertools import accumulate

import numpy as np
import pytest

from bjexact.checks import rounds as round_check
from bjexact.checks import sequential
from bjexact.checks.rounds import _look, _Sample, check_round_simulator, format_round_check, round_simulator
from bjexact.checks.simulators import DEFAULT_ROUNDS
from bjexact.cli import check_sim
from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules
from bjexact.errors import OutOfTime
from bjexact.player.game import solve_game

COMMON_RULES = [
    GameRules(decks="inf"),
    GameRules(decks="inf", h17=True, surrender="late", split_hands=2),
    GameRules(decks=6, split_hands=1, h17=True, surrender="late"),
    GameRules(decks=2, split_hands=1, hole_card="enhc"),
]


def _exact(rules):
    distribution = round_check.exact_round_distribution(rules)
    return distribution, {round_check._label(r): p for r, p in distribution.items()}


def test_one_default_in_the_help_and_the_code():
    assert check_sim.DEALER_ROUNDS == DEFAULT_ROUNDS and check_sim.GAME_SHIFT == sequential.DEFAULT_SHIFT
    assert round_check.DEFAULT_SHIFT == sequential.DEFAULT_SHIFT == 0.002
    assert sum(sequential.look_levels(0.01)) == pytest.approx(0.01)


@pytest.mark.parametrize("rules", COMMON_RULES, ids=lambda r: r.describe())
def test_the_default_rounds_catch_a_shift_of_two_tenths_of_a_point_in_any_outcome(rules):
    distribution, exact = _exact(rules)
    n = round_check.default_game_rounds(exact)
    assert 1_000_000 < n < 1_600_000
    level = sequential.look_levels(0.01)[-1]
    tests = sequential.family_size(exact, n)
    assert all(sequential.detectable_shift(float(p), n, level=level, tests=tests) <= 0.002
               for p in exact.values() if 0 < p < 1)
    # and by sampling: the likeliest outcome (the hardest to move) shifted by 0.002 to the second likeliest,
    # tested at the last look's level alone, is caught at least 90 % of the time
    ordered = sorted(distribution, key=lambda r: -distribution[r])
    shifted = dict(distribution)
    shifted[ordered[0]] -= mpq(1, 500)
    shifted[ordered[1]] += mpq(1, 500)
    values = list(distribution)
    rng = np.random.default_rng(7)
    caught = 0
    for _ in range(100):
        draws = rng.multinomial(n, [float(shifted[r]) for r in values])
        counts = {round_check._label(r): int(k) for r, k in zip(values, draws) if k}
        sample = _Sample(counts, float(sum(float(r) * k for r, k in zip(values, draws))), n)
        adjusted, outcomes = _look(sample, distribution, exact, level, tests)[6:8]
        caught += min([*adjusted, *(t.adjusted for t in outcomes if t.adjusted is not None)]) < level
    assert caught >= 85  # 90 % power: 85 of 100 or more but for a chance below 5 %


def test_a_correct_simulator_rarely_fails_over_the_four_looks():
    rules = COMMON_RULES[0]
    distribution, exact = _exact(rules)
    values = list(distribution)
    probabilities = [float(distribution[r]) for r in values]
    rng = np.random.default_rng(11)
    levels = sequential.look_levels(0.01)
    alarms = 0
    for _ in range(150):
        draws = np.zeros(len(values), dtype=np.int64)
        for k, level in enumerate(levels):
            draws += rng.multinomial(350_000, probabilities)
            n = 350_000 * (k + 1)
            counts = {round_check._label(r): int(c) for r, c in zip(values, draws) if c}
            sample = _Sample(counts, float(sum(float(r) * c for r, c in zip(values, draws))), n)
            adjusted, outcomes = _look(sample, distribution, exact, level, sequential.family_size(exact, n))[6:8]
            if min([*adjusted, *(t.adjusted for t in outcomes if t.adjusted is not None)]) < level:
                alarms += 1
                break
    assert alarms <= 6  # at most 1 % expected: 1.5 of 150, and 6 or more has chance below 0.5 %


def test_a_gross_fault_stops_at_the_first_look_and_says_so():
    """Naturals paid 1:1 leave the 3/2 outcome empty: the first look, a quarter of the rounds planned (10,000),
    fails it at Holm p near 1e-100, far below that look's level (1.6e-4)."""
    rules = GameRules(decks="inf", split_hands=1)
    check = check_round_simulator(round_simulator(rules, bj_pays="1"), rules, rounds=40_000, seed=1)
    assert check.verdict == "fail" and check.stopped == "fail" and check.looks == 1 and check.rounds == 10_000
    text = format_round_check(check)
    assert "stopped at look 1 of 4 of the 40000 rounds planned, as it failed" in text
    assert check.to_json()["stopped"] == "fail" and check.to_json()["planned_rounds"] == 40_000


def test_residuals_and_detectable_shifts_in_text_and_json():
    rules = GameRules(decks="inf", split_hands=1)
    check = check_round_simulator(round_simulator(rules), rules, rounds=20_000, seed=2)
    document = check.to_json()
    for row in document["outcomes"].values():
        assert set(row) >= {"observed", "exact", "residual", "p_value", "holm_p_value", "detectable_shift"}
        expected = float(mpq(row["exact"])) * 20_000
        spread = (expected * (1 - float(mpq(row["exact"])))) ** 0.5
        assert row["residual"] == pytest.approx((row["observed"] - expected) / spread)
    assert document["power"]["rounds_for_shift"] > 1_000_000
    assert document["power"]["largest_undetected_shift"] == max(r["detectable_shift"] for r in document["outcomes"]
                                                               .values() if r["detectable_shift"] is not None)
    text = format_round_check(check)
    assert "residual  detectable shift" in text and "they do not catch every shift of 0.002" in text


class Tiring:
    """A simulator whose time runs out after 3000 rounds (as a time guard would raise)."""

    def __init__(self, rules):
        self.play = round_simulator(rules)
        self.calls = 0

    def __call__(self, rng: random.Random) -> float:
        self.calls += 1
        if self.calls > 3000:
            raise OutOfTime("--timeout")
        return self.play(rng)


def test_out_of_time_reports_on_the_rounds_done_at_the_alpha_left():
    rules = GameRules(decks="inf", split_hands=1)
    check = check_round_simulator(Tiring(rules), rules, rounds=100_000, seed=3)
    assert check.rounds == 3000 and check.stopped == "timeout" and check.looks == 1
    assert check.level == pytest.approx(0.01)  # nothing was spent before: all of alpha is left
    text = format_round_check(check)
    assert "stopped by --timeout at look 1 of the 100000 rounds planned" in text
    assert "do not catch every shift of 0.002" in text


def test_the_command_bounds_the_run_by_timeout_and_reports(tmp_path, capsys):
    from bjexact.cli import main

    status = main(["check-sim", "--game", "bjexact.checks.rounds:exact_round_simulator", "--factory",
                   "--decks", "inf", "--split-hands", "1", "--timeout", "2", "--format", "json"])
    import json

    document = json.loads(capsys.readouterr().out)
    assert status == 0 and document["stopped"] == "timeout" and 0 < document["rounds"] < document["planned_rounds"]
    assert document["planned_rounds"] == round_check.planned_game_rounds(GameRules(decks="inf", split_hands=1))


def test_where_the_distribution_is_not_computed_the_mean_alone_is_tested(monkeypatch):
    """As for 8 decks resplit to 4: the exact distribution is out of reach, the exact mean is not."""
    import dataclasses

    rules = GameRules(decks="inf", split_hands=1)
    solution = round_check._solution(rules)
    monkeypatch.setitem(round_check._GAME_SOLUTIONS, (rules, None), dataclasses.replace(
        solution, distribution=None, distribution_missing="the split hands' joint law is too large"))
    check = check_round_simulator(round_simulator(rules), rules, rounds=20_000, seed=1)
    assert check.mean_only and check.passed and check.exact_mean == solution.ev
    text = format_round_check(check)
    assert "Tests run: the mean only" in text and "the split hands' joint law is too large" in text
    assert check.to_json()["tests_run"] == ["mean"]
    wrong = check_round_simulator(round_simulator(rules, bj_pays="1"), rules, rounds=20_000, seed=1)
    assert wrong.mean_only and wrong.failed == ["mean"] and "Verdict: FAIL (mean)" in format_round_check(wrong)
    assert round_check.planned_game_rounds(rules) == round_check.DEFAULT_MEAN_ROUNDS


# --- where some split hands' lines are not followed: the known part of the distribution -------------------

SMALL = GameRules(shoe=(2, 2, 2, 2, 2, 2, 2, 2, 2, 8), split_hands=2, surrender="late")


@pytest.fixture(scope="module")
def small_solution():
    """The solution of SMALL with every split hand's line followed, solved once for the tests below (before
    any of them patches the work limit: the full distribution, from the unpatched solver)."""
    return solve_game(SMALL, split_lines=True, progress=False)


def _with_splits_unfollowed(monkeypatch, rules):
    """The solution of ``rules`` as when its split hands' lines are too many to follow (work limit 0)."""
    from bjexact.player import game

    monkeypatch.setattr(round_check, "_GAME_SOLUTIONS", {})
    monkeypatch.setattr(game, "SPLIT_WORK_LIMIT", 0)
    return round_check._solution(rules)


def _sampler(distribution):
    """A simulator drawing each round's result from ``distribution`` (result -> chance)."""
    values = list(distribution)
    cumulative = list(accumulate(float(p) for p in distribution.values()))
    return lambda rng: float(rng.choices(values, cum_weights=cumulative)[0])


def test_the_known_part_of_the_distribution_bounds_every_outcome_exactly(small_solution, monkeypatch):
    """With no split followed, the known part is the deals the player does not split: every outcome's exact
    probability lies between it and it plus the chance of a split deal (whole units only; a natural's payout
    and a surrender are never a split round's), and that chance is the optimal play's chance of splitting."""
    full = small_solution
    assert full.distribution is not None
    part = _with_splits_unfollowed(monkeypatch, SMALL)
    assert part.distribution is None and part.partial_distribution is not None
    split_chance = sum((full.upcard_chance[u] * full.deal_chance[(a, b, u)]
                        for (a, b, u), moves in full.hands.items() if moves.best == "split"), mpq(0))
    assert part.unfollowed_chance == split_chance == mpq(19, 1300)
    for result, p in full.distribution.items():
        low = part.partial_distribution.get(result, mpq(0))
        if result.denominator == 1:
            assert low <= p <= low + split_chance
        else:
            assert low == p  # 3/2 and -1/2: never the result of a split round
    assert any(part.partial_distribution.get(r, 0) < p for r, p in full.distribution.items())


def test_the_mean_only_check_tests_each_outcome_within_its_bounds(small_solution, monkeypatch):
    """The correct simulator (drawing from the exact distribution) passes; one that pays naturals 1:1, or a
    surrender as a loss, keeps the mean near but fails the outcome its fault empties; a result no play can
    give (-16 units, with at most 4 at stake) and a simulator whose every round is the same fail too."""
    full = small_solution.distribution
    _with_splits_unfollowed(monkeypatch, SMALL)
    # 20,000 rounds: each fault empties an outcome the bounds keep above zero, and fails it at Holm p below
    # 1e-30 (seeds 1 to 8 alike), while the correct sampler passes with each of those seeds
    rounds = 20_000
    check = check_round_simulator(_sampler(full), SMALL, rounds=rounds, seed=3)
    assert check.mean_only and check.passed and check.bounded, format_round_check(check)
    assert check.to_json()["tests_run"] == ["mean", "bounded outcomes"]
    assert check.to_json()["unfollowed_chance"] == "19/1300"
    assert "each outcome within bounds" in format_round_check(check)
    for source, target, outcome in ((mpq(3, 2), mpq(1), "3/2"), (mpq(-1, 2), mpq(-1), "-1/2")):
        faulty = dict(full)
        faulty[target] += faulty.pop(source)
        wrong = check_round_simulator(_sampler(faulty), SMALL, rounds=rounds, seed=3)
        assert f"outcome {outcome}" in wrong.failed, format_round_check(wrong)
    impossible = check_round_simulator(lambda rng: -16, SMALL, rounds=1000, seed=3)
    assert "impossible results" in impossible.failed and impossible.impossible_count == 1000
    assert "a round risks at most 4 units" in format_round_check(impossible)
    constant = check_round_simulator(lambda rng: -1, SMALL, rounds=1000, seed=3)
    assert "mean" in constant.failed and constant.mean_p == 0
