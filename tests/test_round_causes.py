"""The mutation suite: planted faults are caught and named among the two likeliest causes; the correct
simulator passes. Fast variants here; the full-size run at the defaults is benchmarks/mutation.py."""

from __future__ import annotations

import numpy as np
import pytest

from bjexact.checks import round_causes, sequential
from bjexact.checks.round_causes import directed_tests
from bjexact.checks.rounds import (
    _counts_by_result,
    _look,
    _Sample,
    check_round_simulator,
    exact_round_distribution,
    fault_candidates,
    format_round_check,
    planned_game_rounds,
    round_simulator,
)
from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules

RULES = GameRules(decks="inf", split_hands=2, surrender="late")


@pytest.mark.parametrize("fault, rounds, cause", [
    ("surrender-as-loss", 100_000, "surrender-as-loss"),
    ("das-refused", 100_000, "das-refused"),
    ("6:5", 100_000, "natural-paid-6:5"),
    ("natural-not-pushed", 240_000, "natural-not-pushed"),
])
def test_a_planted_fault_fails_and_is_named_first_or_second(fault, rounds, cause):
    simulator = round_simulator(RULES, bj_pays="6/5") if fault == "6:5" else round_simulator(RULES, fault=fault)
    check = check_round_simulator(simulator, RULES, rounds=rounds, seed=1)
    assert check.verdict == "fail", format_round_check(check)
    assert cause in [c.name for c in check.causes[:2]], format_round_check(check)
    assert f"1. {check.causes[0].name}: " in format_round_check(check)
    assert check.to_json()["likely_causes"][0]["cause"] == check.causes[0].name


def test_the_correct_simulator_passes_at_the_one_percent_level():
    check = check_round_simulator(round_simulator(RULES), RULES, rounds=100_000, seed=1, alpha=0.01)
    assert check.passed and not check.causes, format_round_check(check)


@pytest.mark.parametrize("fault", ["h17-for-s17", "split-aces-hit"])
def test_faults_that_need_the_default_rounds_are_caught_and_named_there(fault):
    """Counts drawn (seeded) from the fault's exact distribution (the asked rules' chart played under the
    faulty rule), at the default rounds: the family fails at the last look and the fault is named first
    or second. (The simulators themselves at these rounds: benchmarks/mutation.py.)"""
    exact = exact_round_distribution(RULES)
    candidates, _ = fault_candidates(RULES)
    directed = directed_tests(exact, candidates)
    faulty = candidates[fault]
    n = planned_game_rounds(RULES)
    values = sorted(set(exact) | set(faulty))
    rng = np.random.default_rng(5)
    level = sequential.look_levels(0.01)[-1]
    by_label = {str(r): p for r, p in exact.items()}
    named = 0
    for _ in range(40):
        draws = rng.multinomial(n, [float(faulty.get(r, 0)) for r in values])
        counts = {str(r): int(k) for r, k in zip(values, draws) if k}
        sample = _Sample(counts, float(sum(float(r) * k for r, k in zip(values, draws))), n)
        result = _look(sample, exact, by_label, level, sequential.family_size(by_label, n) + len(directed), directed)
        adjusted, outcomes, directed_results = result[6], result[7], result[8]
        p_values = [*adjusted, *(a for _, _, a in directed_results),
                    *(t.adjusted for t in outcomes if t.adjusted is not None)]
        causes = round_causes.rank_causes(_counts_by_result(counts), exact, candidates)
        named += min(p_values) < level and fault in [c.name for c in causes[:2]]
    assert named >= 32  # at power 0.9, 36 of 40 expected, fewer than 32 has chance 4 % (seeded: fixed draws)


def test_candidates_move_exact_mass():
    exact = exact_round_distribution(RULES)
    candidates, missing = fault_candidates(RULES)
    assert not missing and sum(candidates["natural-not-pushed"].values()) == 1
    both = (mpq(8, 169)) ** 2  # a natural each: 2 x 1/13 x 4/13, twice
    assert candidates["natural-not-pushed"][mpq(-1)] - exact[mpq(-1)] == both
    assert set(candidates) == {"natural-not-pushed", "h17-for-s17", "natural-paid-6:5", "natural-paid-1:1",
                               "surrender-as-loss", "das-refused", "split-aces-hit"}
    assert candidates["natural-paid-6:5"][mpq(6, 5)] == exact[mpq(3, 2)]
    assert mpq(-1, 2) not in candidates["surrender-as-loss"]
    assert "das-allowed" not in candidates and "natural-paid-3:2" not in candidates  # the rules already do
