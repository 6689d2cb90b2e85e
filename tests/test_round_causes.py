"""The mutation suite: planted faults are caught and named among the two likeliest causes; the correct
simulator passes. Fast variants here; the full-size run at the defaults is benchmarks/mutation.py."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import numpy as np
import pytest

from bjexact.checks import round_causes, sequential
from bjexact.checks.round_causes import NOT_CANDIDATES, directed_tests
from bjexact.checks.round_faults import faulty_round_distribution
from bjexact.checks.rounds import (
    _counts_by_result,
    _look,
    _Sample,
    check_round_simulator,
    default_game_rounds,
    exact_round_distribution,
    family_weight,
    fault_candidates,
    format_round_check,
    planned_game_rounds,
    round_simulator,
)
from bjexact.checks.simulators import goodness_of_fit
from bjexact.checks.stats import chi2_sf, normal_quantile
from bjexact.core.cards import ACE, TEN
from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules
from bjexact.dealer.distributions import dealer_distributions
from bjexact.player.game import Strategy, solve_game

RULES = GameRules(decks="inf", split_hands=2, surrender="late")
H17 = replace(RULES, h17=True)


@pytest.mark.parametrize("fault, rounds, cause", [
    ("split-hand-dropped", 100_000, "split-hand-dropped"),
    ("dealer-hits-soft-18-21", 100_000, "dealer-hits-soft-18-21"),
    ("surrender-as-loss", 100_000, "surrender-as-loss"),
    ("das-refused", 100_000, "das-refused"),
    ("6:5", 100_000, "natural-paid-6:5"),
    ("natural-not-pushed", 240_000, "natural-not-pushed"),
    ("dah-allowed", 100_000, "dah-allowed"),
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


@pytest.mark.parametrize("rules, fault", [(RULES, "h17-for-s17"), (RULES, "split-aces-hit"),
                                          (H17, "dealer-stands-after-soft-17")])
def test_faults_that_need_the_default_rounds_are_caught_and_named_there(rules, fault):
    """Counts drawn (seeded) from the fault's exact distribution (the asked rules' chart played under the
    faulty rule, or the faulty round), at the default rounds: the family fails at the last look and the
    fault is named first or second. (The simulators themselves at these rounds: benchmarks/mutation.py.)"""
    exact = exact_round_distribution(rules)
    candidates, _ = fault_candidates(rules)
    directed = directed_tests(exact, candidates)
    faulty = candidates[fault]
    n = planned_game_rounds(rules)
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
                               "surrender-as-loss", "das-refused", "dah-allowed", "split-aces-hit",
                               "split-hand-dropped", "dealer-hits-soft-18-21", "split-21-as-settled"}
    assert candidates["natural-paid-6:5"][mpq(6, 5)] == exact[mpq(3, 2)]
    assert mpq(-1, 2) not in candidates["surrender-as-loss"]
    assert "das-allowed" not in candidates and "natural-paid-3:2" not in candidates  # the rules already do


def test_doubling_after_hitting_is_a_candidate_only_where_the_rules_refuse_it():
    """dah-allowed is the rules with doubling after hitting, played by the rules' chart (a D code doubles a
    hand of any number of cards): it moves mass to the doubled results; it is no candidate where the rules
    allow it already or allow no doubling."""
    exact = exact_round_distribution(RULES)
    allowed = fault_candidates(RULES)[0]["dah-allowed"]
    assert sum(allowed.values()) == 1 and allowed != exact
    assert allowed[mpq(2)] > exact[mpq(2)] and allowed[mpq(-2)] > exact[mpq(-2)]
    for rules in (replace(RULES, double_after_hit=True), replace(RULES, double="none")):
        assert "dah-allowed" not in fault_candidates(rules)[0]


def test_quick_candidates_share_one_weight_so_adding_one_plans_no_more_rounds():
    """The directed tests of quick faults share one unit of Holm's weight: the level of each slow fault's
    test, and so the rounds planned, are the same with or without the dah-allowed candidate (with every
    test weighing 1, the extra test would raise the plan); each quick fault is still caught well within the
    plan at its smaller level."""
    exact = exact_round_distribution(RULES)
    candidates = fault_candidates(RULES)[0]
    labels = {str(r): p for r, p in exact.items()}
    directed = directed_tests(exact, candidates)
    without = directed_tests(exact, {k: v for k, v in candidates.items() if k != "dah-allowed"})
    weight = {t.name: t.weight for t in directed}
    assert weight["dah-allowed"] == weight["natural-paid-6:5"] == weight["das-refused"] == pytest.approx(1 / 7)
    assert weight["split-aces-hit"] == weight["h17-for-s17"] == weight["natural-not-pushed"] == 1
    assert sum(weight.values()) == pytest.approx(sum(t.weight for t in without)) == pytest.approx(5)
    assert default_game_rounds(labels, directed=directed) == default_game_rounds(labels, directed=without)
    unweighted = tuple(replace(t, weight=1.0) for t in directed)
    unweighted_without = tuple(replace(t, weight=1.0) for t in without)
    assert default_game_rounds(labels, directed=unweighted) > default_game_rounds(labels, directed=unweighted_without)
    n = default_game_rounds(labels, directed=directed)
    total = family_weight(labels, n, directed)
    last = sequential.look_levels(0.01)[-1]
    quick = next(t for t in directed if t.name == "dah-allowed")
    assert quick.rounds_to_catch(normal_quantile(1 - last * quick.weight / total), normal_quantile(0.9)) < n // 100


def test_a_correct_simulator_rarely_fails_the_weighted_family_over_the_four_looks():
    """The error rate with the directed tests weighted: counts drawn (seeded) from the exact distribution,
    looked at four times over the default rounds, fail at some look in at most about 1 % of runs."""
    exact = exact_round_distribution(RULES)
    candidates = fault_candidates(RULES)[0]
    directed = directed_tests(exact, candidates)
    labels = {str(r): p for r, p in exact.items()}
    n = planned_game_rounds(RULES) // 4
    values = list(exact)
    rng = np.random.default_rng(13)
    alarms = 0
    for _ in range(150):
        draws = np.zeros(len(values), dtype=np.int64)
        for k, level in enumerate(sequential.look_levels(0.01)):
            draws += rng.multinomial(n, [float(exact[r]) for r in values])
            counts = {str(r): int(c) for r, c in zip(values, draws) if c}
            sample = _Sample(counts, float(sum(float(r) * c for r, c in zip(values, draws))), n * (k + 1))
            result = _look(sample, exact, labels, level, family_weight(labels, n * (k + 1), directed), directed)
            p_values = [*result[6], *(a for _, _, a in result[8]), *(t.adjusted for t in result[7]
                                                                     if t.adjusted is not None)]
            if min(p_values) < level:
                alarms += 1
                break
    assert alarms <= 6  # at most 1 % expected: 1.5 of 150, and 6 or more has chance below 0.5 %


# --- faulty rounds (bjexact.checks.round_faults) ---------------------------------------------------------


def _optimal_play(rules):
    from bjexact.checks.rounds import _solution

    solution = _solution(rules)  # the solve exact_round_distribution makes and keeps: one solve a rule set
    return Strategy(rules), lambda a, b, up: solution.hands[(min(a, b), max(a, b), up)].best


@pytest.mark.parametrize("options", [
    {"split_hands": 2, "surrender": "late"},
    {"h17": True, "das": False, "split_hands": 4, "rsa": True},
    {"hole_card": "enhc", "surrender": "early", "split_hands": 3},
    {"hole_card": "enhc", "obo": True, "hit_split_aces": True, "bj_pays": "6/5"},
    {"split_hands": 2, "charlie": 5},
    {"split_hands": 3, "charlie": 4, "double_after_hit": True, "hole_card": "enhc", "surrender": "early"},
    {"h17": True, "double_after_hit": True, "double": "9-11", "double_soft": False, "split_hands": 2},
    {"split_hands": 8, "rsa": True, "split_strategy": "cdp", "charlie": 6, "double_after_hit": True,
     "hit_split_aces": True, "double_split_aces": True, "surrender": "late"},
])
def test_a_round_without_a_fault_is_the_exact_distribution(options):
    """The faulty rounds' enumerator, with no fault, is the solver's distribution, exactly: under a Charlie,
    doubling after hitting and up to eight split hands too."""
    rules = GameRules(decks="inf", **options)
    moves, first_move = _optimal_play(rules)
    assert faulty_round_distribution(rules, moves, first_move) == exact_round_distribution(rules)


def test_faults_of_one_play_that_share_the_players_hands_get_what_each_gets_alone():
    """The player's hands do not depend on the fault: computed once for every fault of a play (as
    fault_candidates does), each fault's distribution is the one it has computed on its own."""
    from bjexact.checks.round_faults import DEALER_FAULTS, ROUND_FAULTS, dealer_stops

    rules = GameRules(decks="inf", split_hands=2, h17=True, double="10-11")
    moves, first_move = _optimal_play(rules)
    faults = [f for f in dict.fromkeys((*ROUND_FAULTS, *DEALER_FAULTS))
              if f not in DEALER_FAULTS or dealer_stops(rules, f)]
    shared: dict = {}
    together = [faulty_round_distribution(rules, moves, first_move, f, shared=shared) for f in faults]
    assert shared["hits"] and shared["splits"]
    # the last faults, computed from what the earlier ones left: as each computes them alone
    assert len(faults) >= 5
    assert together[-2:] == [faulty_round_distribution(rules, *_optimal_play(rules), f) for f in faults[-2:]]


def test_a_dropped_split_hand_takes_half_of_each_split_away():
    """Split to two hands on the infinite deck the hands are alike: dropping the second takes half of each
    split's value (W, the value with no dealer natural, read from the solver's move values)."""
    exact = exact_round_distribution(RULES)
    dropped = fault_candidates(RULES)[0]["split-hand-dropped"]
    solution = solve_game(RULES, progress=False)
    p = RULES.make_shoe().draw_probabilities()
    half_splits = sum((p[pair - 1] ** 2 * p[up - 1] * moves.w["split"] / 2
                       for (pair, other, up), moves in solution.hands.items()
                       if pair == other and moves.best == "split"), mpq(0))
    assert half_splits > 0 and sum(dropped.values()) == 1
    assert _mean(exact) - _mean(dropped) == half_splits


def test_split_21s_not_drawn_to_win_where_the_dealer_would_push_them():
    """Both split aces take a ten (not naturals): the dealer's 21 pushes them; a dealer who does not draw
    pays both. The mass moved from 0 to +2 is P(A,A) P(T)^2 P(dealer 21 without a natural | up) over the
    up-cards (aces are split against every up-card here), from the dealer's own tables."""
    exact = exact_round_distribution(RULES)
    settled = fault_candidates(RULES)[0]["split-21-as-settled"]
    p = RULES.make_shoe().draw_probabilities()
    rows = dealer_distributions(RULES.dealer_rules())
    moved = sum((p[ACE - 1] ** 2 * p[TEN - 1] ** 2 * p[up - 1] * rows[up]["21"] for up in range(1, 11)), mpq(0))
    assert settled[mpq(2)] - exact[mpq(2)] == moved == exact[mpq(0)] - settled[mpq(0)]
    assert {r for r in exact if settled[r] != exact[r]} == {mpq(0), mpq(2)}


def test_the_dealer_faults_move_the_dealers_totals():
    """Both dealer faults are distributions apart from the rules' one; standing after hitting soft 17 is
    H17's only (under S17 it is no fault) and there favours the player (a dealer standing on 13-16 loses to
    every standing 17-21: -0.538 % a round against -0.687 %)."""
    exact = exact_round_distribution(RULES)
    candidates = fault_candidates(RULES)[0]
    assert "dealer-stands-after-soft-17" not in candidates
    assert candidates["dealer-hits-soft-18-21"] != exact and sum(candidates["dealer-hits-soft-18-21"].values()) == 1
    h17 = fault_candidates(H17)[0]["dealer-stands-after-soft-17"]
    assert h17 != exact_round_distribution(H17) and sum(h17.values()) == 1
    assert _mean(h17) > _mean(exact_round_distribution(H17))


# resplits to four hands (eight hands cost five times as much here; the enumerator's eight hands are
# checked exactly below, test_a_round_without_a_fault_is_the_exact_distribution)
NEW_RULES = GameRules(decks="inf", split_hands=4, rsa=True, charlie=5, double_after_hit=True, h17=True)


@pytest.mark.parametrize("rules, fault", [(RULES, "split-hand-dropped"), (RULES, "dealer-hits-soft-18-21"),
                                          (H17, "dealer-stands-after-soft-17"), (RULES, "split-21-as-settled"),
                                          (RULES, "dah-allowed"),
                                          (NEW_RULES, "split-hand-dropped"), (NEW_RULES, "split-21-as-settled"),
                                          (NEW_RULES, "dealer-stands-after-soft-17")])
def test_each_planted_fault_plays_as_its_candidate_distribution(rules, fault):
    """The planted simulator and its candidate are one fault: 60,000 rounds (seeded) fit the candidate's
    exact distribution (chi-square, p above 0.001)."""
    simulator = round_simulator(rules, fault=fault)
    rng = random.Random(3)
    counts = _counts_by_result(Counter(repr(simulator(rng)) for _ in range(60_000)))  # by exact result
    expected = {str(r): p for r, p in fault_candidates(rules)[0][fault].items()}
    statistic, df, impossible = goodness_of_fit({str(r): k for r, k in counts.items()}, expected)
    assert not impossible and chi2_sf(statistic, df) > 0.001


def test_insurance_and_the_dealer_drawing_after_busts_are_named_as_no_candidates():
    assert set(NOT_CANDIDATES) == {"insurance-paid-wrong", "dealer-draws-after-busts"}
    assert not set(NOT_CANDIDATES) & {name for name, _, _ in round_causes.CANDIDATE_FAULTS}


def _mean(distribution):
    return sum((r * p for r, p in distribution.items()), mpq(0))
