"""Statistical checks of dealer simulators: the tests, their power, and the command."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction

import pytest

from bjexact import BjexactError, Rules, dealer_table
from bjexact.checks.simcheck import (
    DEFAULT_ROUNDS,
    check_dealer_simulator,
    chi2_sf,
    exact_dealer_simulator,
    format_simulator_check,
    goodness_of_fit,
    holm,
    noncentral_chi2_sf,
    outcome_label,
    rounds_for_a_test,
    rounds_to_detect,
    rounds_to_detect_shift,
    slipped_dealer_simulator,
)
from bjexact.checks.verify import KNOWN_SLIPS, slipped_dealer_table
from bjexact.cli import main
from bjexact.core.numbers import mpq

INF = Rules(decks="inf")
SIX = Rules(decks=6)


def test_outcome_labels_and_totals():
    assert [outcome_label(x) for x in ("17", " BUST", "bj", "Blackjack", 21, 22, 30, 17)] == [
        "17", "bust", "blackjack", "blackjack", "21", "bust", "bust", "17"]
    # totals the dealer cannot stand on are outcomes of their own, impossible under any rules (a FAIL)
    assert [outcome_label(x) for x in (16, "16", 0, -3)] == ["16", "16", "0", "-3"]
    for bad in ("foo", None, True, "16.5", ""):
        with pytest.raises(BjexactError):
            outcome_label(bad)


def test_chi_square_survival_matches_closed_forms():
    for x in (0.1, 1.0, 3.7, 12.0, 40.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
        assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-12)
        # df = 4: exp(-x/2) (1 + x/2)
        assert chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-12)
    assert noncentral_chi2_sf(5.0, 3, 0.0) == pytest.approx(chi2_sf(5.0, 3))


def test_noncentral_chi_square_against_a_simulation():
    # X = (Z1 + sqrt(lam))^2 + Z2^2 + Z3^2 is noncentral chi-square with 3 df and noncentrality lam
    rng = random.Random(5)
    lam, c, n = 9.0, 11.34, 40_000
    hits = sum((rng.gauss(0, 1) + 3.0) ** 2 + rng.gauss(0, 1) ** 2 + rng.gauss(0, 1) ** 2 >= c for _ in range(n))
    p = noncentral_chi2_sf(c, 3, lam)
    assert abs(hits / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_holm_adjusts_step_down():
    # by hand: sorted 0.01, 0.02, 0.04 -> 3*0.01, max(0.03, 2*0.02), max(0.04, 1*0.04)
    assert holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_weighted_holm_divides_by_the_weights_and_multiplies_by_those_left():
    # by hand: weights 1, 1/4, 1/4, 1/2 (sum 2); p / w = 0.02, 0.004, 0.16, 0.03, in that order of ratios
    # 0.004 x 2, then 0.02 x 1.75, then 0.03 x 0.75 (below the 0.035 before it), then 0.16 x 0.25
    assert holm([0.02, 0.001, 0.04, 0.015], [1, 0.25, 0.25, 0.5]) == pytest.approx([0.035, 0.008, 0.04, 0.035])
    assert holm([0.04, 0.01, 0.02], [1, 1, 1]) == holm([0.04, 0.01, 0.02])
    with pytest.raises(ValueError):
        holm([0.1, 0.2], [1, 0])


def test_goodness_of_fit_by_hand_and_with_pooling():
    exact = {"a": mpq(1, 2), "b": mpq(1, 4), "c": mpq(1, 4)}
    statistic, df, impossible = goodness_of_fit({"a": 50, "b": 30, "c": 20}, exact)
    assert statistic == pytest.approx(0 + 25 / 25 + 25 / 25) and df == 2 and impossible == ()
    # expected counts 1 and 1 are pooled (2, still below 5) and joined to the smallest other cell
    tiny = {"a": mpq(90, 100), "b": mpq(1, 100), "c": mpq(1, 100), "d": mpq(8, 100)}
    statistic, df, _ = goodness_of_fit({"a": 90, "b": 2, "c": 0, "d": 8}, tiny)
    assert df == 1 and statistic == pytest.approx(0)
    statistic, df, _ = goodness_of_fit({"a": 85, "b": 2, "c": 3, "d": 10}, tiny)
    assert df == 1 and statistic == pytest.approx(25 / 90 + 25 / 10)
    assert goodness_of_fit({"a": 1, "z": 1}, exact)[2] == ("z",)


def test_a_correct_simulator_passes_at_the_default_rounds():
    for rules in (INF, SIX):
        check = check_dealer_simulator(exact_dealer_simulator(rules), rules)
        assert check.passed, format_simulator_check(check)
        assert check.rounds == DEFAULT_ROUNDS and all(t.rounds == DEFAULT_ROUNDS // 10 for t in check.tests)


def test_the_soft_ace_slip_is_caught_at_the_default_rounds():
    for rules in (INF, SIX):
        check = check_dealer_simulator(slipped_dealer_simulator(rules), rules)
        assert not check.passed
        failed = {t.upcard for t in check.failed}
        assert 1 in failed and failed <= {1, 2, 3, 4}  # only these rows differ (see test_verify)
        report = format_simulator_check(check)
        assert "FAIL for up-card(s) A" in report and "bust: observed" in report


def test_checks_are_deterministic_for_a_seed_and_differ_between_seeds():
    sim = exact_dealer_simulator(INF)
    a = check_dealer_simulator(sim, INF, rounds=2000, seed=3)
    b = check_dealer_simulator(sim, INF, rounds=2000, seed=3)
    c = check_dealer_simulator(sim, INF, rounds=2000, seed=4)
    assert a.to_json() == b.to_json() and a.to_json() != c.to_json()


def test_the_slip_needs_few_rounds_and_a_small_bias_many():
    exact = dealer_table(INF)
    slipped = slipped_dealer_table(INF, KNOWN_SLIPS["soft-ace-becomes-hard"])
    need = rounds_to_detect(exact[1], slipped[1])
    assert 1000 < need < DEFAULT_ROUNDS // 10
    assert rounds_to_detect(exact[7], slipped[7]) is None  # the 7 row is unchanged
    small = rounds_to_detect_shift(exact[7], 0.005)
    assert small > 10 * need
    assert rounds_to_detect(exact[1], slipped[1], power=0.99) > need


def test_the_power_formula_against_scipy():
    stats = pytest.importorskip("scipy.stats")
    exact = dealer_table(INF)[1]
    slipped = slipped_dealer_table(INF, KNOWN_SLIPS["soft-ace-becomes-hard"])[1]
    n = rounds_to_detect(exact, slipped, alpha=0.01, power=0.9, tests=10)
    per_round = sum((float(slipped[o]) - float(p)) ** 2 / float(p) for o, p in exact.items())
    critical = stats.chi2.isf(0.001, 5)
    assert stats.ncx2.sf(critical, 5, n * per_round) >= 0.9 > stats.ncx2.sf(critical, 5, (n - 2) * per_round)


def test_naturals_conventions_and_totals_as_answers():
    separate = Rules(decks=2, naturals="separate")
    assert check_dealer_simulator(exact_dealer_simulator(separate), separate, rounds=30_000).passed
    peek = Rules(decks=2, naturals="peek")
    check = check_dealer_simulator(exact_dealer_simulator(peek), peek, rounds=30_000)
    assert check.passed
    discarded = {t.upcard: t.discarded for t in check.tests}
    assert discarded[5] == 0 and discarded[1] > 0 and discarded[10] > 0
    # as21: "blackjack" counts as 21, and a simulator answering totals (22+ for a bust) is fine
    sim = exact_dealer_simulator(INF)

    def totals(upcard, rng):
        label = sim(upcard, rng)
        return {"bust": 23, "blackjack": 21}.get(label, int(label) if label.isdigit() else label)

    assert check_dealer_simulator(totals, INF, rounds=30_000).passed


def test_a_simulator_reporting_an_impossible_outcome_fails_its_upcard():
    sim = exact_dealer_simulator(INF)
    separate = Rules(decks="inf", naturals="separate")

    def naturals_everywhere(upcard, rng):
        return "blackjack" if upcard == 5 and rng.random() < 0.001 else sim(upcard, rng)

    check = check_dealer_simulator(naturals_everywhere, separate, rounds=20_000)
    assert [t.upcard for t in check.failed] == [5] and check.failed[0].impossible == ("blackjack",)


def test_a_dealer_standing_below_17_fails_with_its_impossible_totals_and_their_rounds(capsys):
    sim = exact_dealer_simulator(INF)

    def stands_on_13(upcard, rng):
        outcome = sim(upcard, rng)
        return 13 if upcard == 6 and rng.random() < 0.05 else outcome

    check = check_dealer_simulator(stands_on_13, INF, rounds=10_000)
    six = next(t for t in check.tests if t.upcard == 6)
    assert [t.upcard for t in check.failed] == [6] and six.impossible == ("13",)
    assert len(six.examples) == 5 and all(o == "13" for _, o in six.examples)
    assert [r for r, _ in six.examples] == sorted(r for r, _ in six.examples) and six.examples[0][0] >= 1
    data = six.to_json(check.alpha)
    assert data["impossible"]["count"] == six.counts["13"] > 5 and data["impossible"]["examples"][0]["outcome"] == "13"
    report = format_simulator_check(check, shift=None)
    assert f"reported {six.counts['13']} times (13); for example 13 in round {six.examples[0][0]}" in report
    assert main(["check-sim", "tests/test_simcheck.py:stands_on_12", "--decks", "inf", "--rounds", "1000"]) == 1
    assert "FAIL" in capsys.readouterr().out


def stands_on_12(upcard, rng):
    return 12


def test_bad_answers_and_arguments_are_errors():
    with pytest.raises(BjexactError, match="not an outcome"):
        check_dealer_simulator(lambda u, rng: "twelve", INF, rounds=100)
    assert check_dealer_simulator(lambda u, rng: 12, INF, rounds=100).verdict == "fail"
    with pytest.raises(BjexactError):
        check_dealer_simulator(lambda u, rng: "17", INF, rounds=0)
    with pytest.raises(BjexactError):
        check_dealer_simulator(lambda u, rng: "17", INF, alpha=1.5)


SIMULATOR = '''
import random

def dealer_outcome(upcard, rng):
    """Infinite deck, S17; SLIP makes a soft hand that draws an ace hard."""
    total, soft = (11, True) if upcard == 1 else (upcard, False)
    first = True
    while True:
        card = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10])
        if card == 1 and soft and SLIP:
            total, soft = total + 1, False
        elif card == 1 and total + 11 <= 21:
            total, soft = total + 11, True
        else:
            total += card
            if total > 21 and soft:
                total, soft = total - 10, False
        if first and total == 21:
            return "blackjack"
        first = False
        if total >= 17:
            return total

SLIP = False
'''


def test_the_command_runs_a_simulator_from_a_file(tmp_path, capsys):
    good = tmp_path / "good_sim.py"
    good.write_text(SIMULATOR)
    bad = tmp_path / "bad_sim.py"
    bad.write_text(SIMULATOR.replace("SLIP = False", "SLIP = True"))
    assert main(["check-sim", f"{good}:dealer_outcome", "--decks", "inf", "--rounds", "50000"]) == 0
    assert "Verdict: PASS" in capsys.readouterr().out
    assert main(["check-sim", f"{bad}:dealer_outcome", "--decks", "inf", "--rounds", "50000",
                 "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["passed"] is False and "A" in data["failed_upcards"]
    ace = next(u for u in data["upcards"] if u["upcard"] == "A")
    assert set(ace) >= {"chi_square", "df", "p_value", "holm_p_value", "outcomes", "passed"}
    assert ace["outcomes"]["bust"]["observed"] > 0 and "/" in ace["outcomes"]["bust"]["exact"]


def test_the_command_refuses_what_it_cannot_run(tmp_path, capsys):
    assert main(["check-sim", "no_such_module_xyz:f", "--decks", "inf"]) == 2
    assert main(["check-sim", "random", "--decks", "inf"]) == 2
    assert main(["check-sim", "math:pi", "--decks", "inf"]) == 2
    wrong = tmp_path / "wrong_sim.py"
    wrong.write_text("def f(upcard, rng):\n    return 'seventeen'\n")
    assert main(["check-sim", f"{wrong}:f", "--decks", "inf", "--rounds", "100"]) == 2
    err = capsys.readouterr().err
    assert "'seventeen'" in err and err.count("bjexact: error:") == 4


# --- too few rounds, a failing simulator, private imports ---------------------------------------------------


def always_bust(upcard, rng):
    return "bust"


def test_too_few_rounds_for_any_test_is_never_a_pass(capsys):
    # 10 rounds per up-card: every expected count is below 5, pooling leaves one cell and df = 0
    check = check_dealer_simulator(always_bust, INF, rounds=100)
    assert all(t.df == 0 for t in check.tests) and not check.failed
    assert not check.passed and check.verdict == "too few rounds" and len(check.untested) == 10
    report = format_simulator_check(check, shift=None)
    assert "PASS" not in report and f"at least {check.rounds_needed} rounds" in report
    assert main(["check-sim", "tests/test_simcheck.py:always_bust", "--decks", "inf", "--rounds", "100"]) == 1
    out = capsys.readouterr().out
    assert "NOT TESTED" in out and "PASS" not in out
    # with the rounds asked for, every up-card is tested, and always busting fails
    enough = check_dealer_simulator(always_bust, INF, rounds=check.rounds_needed)
    assert not enough.untested and enough.verdict == "fail"


@pytest.mark.parametrize("rules", [INF, Rules(decks=1, h17=True, naturals="separate")])
def test_rounds_for_a_test_is_the_fewest_that_leave_a_degree_of_freedom(rules):
    for upcard, row in dealer_table(rules).rows.items():
        n = rounds_for_a_test(row)
        assert goodness_of_fit({}, row, rounds=n)[1] >= 1
        assert all(goodness_of_fit({}, row, rounds=m)[1] == 0 for m in range(1, n)), upcard
    assert rounds_for_a_test({"21": mpq(1)}) is None


def test_under_peek_the_rounds_needed_allow_for_the_discarded_naturals():
    peek = Rules(decks="inf", naturals="peek")
    check = check_dealer_simulator(exact_dealer_simulator(peek), peek, rounds=20)
    needed = {t.upcard: t.needed for t in check.tests}
    rows = dealer_table(peek).rows
    # the ace's hole card is a ten 4/13 of the time, the ten's an ace 1/13: those rounds are discarded
    assert needed[1] == math.ceil(rounds_for_a_test(rows[1]) / Fraction(9, 13))
    assert needed[10] == math.ceil(rounds_for_a_test(rows[10]) / Fraction(12, 13))
    assert needed[7] == rounds_for_a_test(rows[7])


class Boom:
    def __call__(self, upcard, rng):
        if upcard == 7:
            return 1 / 0
        return 20


def boom_factory(rules):
    return Boom()


def test_an_exception_in_the_simulator_is_one_line_naming_it_and_the_upcard(capsys):
    with pytest.raises(BjexactError, match=r"simulator .*Boom raised ZeroDivisionError for up-card 7: division"):
        check_dealer_simulator(Boom(), INF, rounds=100)
    assert main(["check-sim", "tests/test_simcheck.py:boom_factory", "--factory", "--rounds", "100"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "up-card 7" in err and "ZeroDivisionError" in err


def test_check_sim_refuses_options_of_the_other_kind_of_check(capsys):
    assert main(["check-sim", "--gym", "--rounds", "1000"]) == 2
    assert "--episodes" in capsys.readouterr().err
    assert main(["check-sim", "tests/test_simcheck.py:always_bust", "--episodes", "10"]) == 2
    assert main(["check-sim", "tests/test_simcheck.py:always_bust", "--policy", "optimal"]) == 2


# --- gymnasium's Blackjack-v1 ----------------------------------------------------------------------------

gym_blackjack = pytest.importorskip("gymnasium.envs.toy_text.blackjack")

from functools import cache  # noqa: E402

from bjexact.checks.simcheck import (  # noqa: E402
    GYM_RULES,
    check_gym_blackjack,
    format_gym_check,
    gym_dealer_outcome,
    gym_game_value,
    gym_start_distribution,
    gym_values,
    optimal_gym_policy,
    stick_on_20,
)

CARD = {r: Fraction(4 if r == 10 else 1, 13) for r in range(1, 11)}


def _add(total, soft, rank):
    hard = total - (10 if soft else 0) + rank
    return (hard + 10, True) if (soft or rank == 1) and hard + 10 <= 21 else (hard, False)


@cache
def _dealer(total, soft):
    """Gym's dealer from (total, soft): draw while under 17; P(final), 22 = bust."""
    if total > 21:
        return {22: Fraction(1)}
    if total >= 17:
        return {total: Fraction(1)}
    out = {}
    for rank, p in CARD.items():
        for final, q in _dealer(*_add(total, soft, rank)).items():
            out[final] = out.get(final, 0) + p * q
    return out


def _dealer_from(upcard):
    out = {}
    for rank, p in CARD.items():  # the hole card, then the rest
        for final, q in _dealer(*_add(*_add(0, False, upcard), rank)).items():
            out[final] = out.get(final, 0) + p * q
    return out


@cache
def _stick20(total, soft, upcard):
    """V of 'stick only on 20 or 21' by brute recursion, written independently here."""
    if total >= 20:
        return sum(q * (1 if d > 21 or d < total else 0 if d == total else -1) for d, q in _dealer_from(upcard).items())
    value = Fraction(0)
    for rank, p in CARD.items():
        t, s = _add(total, soft, rank)
        value += p * (-1 if t > 21 else _stick20(t, s, upcard))
    return value


def test_the_fixed_policy_values_agree_with_a_brute_recursion():
    values = gym_values(stick_on_20)
    for (total, upcard, usable), v in values.items():
        assert Fraction(v) == _stick20(total, bool(usable), upcard), (total, upcard, usable)
    # the whole game, from the deal
    game = sum(CARD[u] * CARD[a] * CARD[b] * _stick20(*_add(*_add(0, False, a), b), u)
               for u in CARD for a in CARD for b in CARD)
    assert Fraction(gym_game_value(stick_on_20)) == game
    assert sum(gym_start_distribution().values()) == 1


def test_the_natural_and_sab_options_change_only_the_starting_natural():
    plain, bonus, sab = (gym_values(stick_on_20, natural=n, sab=s) for n, s in ((0, 0), (1, 0), (0, 1)))
    changed = {o for o in plain if plain[o] != bonus[o]} | {o for o in plain if plain[o] != sab[o]}
    assert changed == {(21, u, 1) for u in range(1, 11)}
    twenty_one = _dealer_from(10)[21]
    assert Fraction(bonus[(21, 10, 1)]) == Fraction(3, 2) * (1 - twenty_one)
    assert Fraction(sab[(21, 10, 1)]) == 1 - CARD[1]  # pushes only against a dealer natural
    assert Fraction(sab[(21, 5, 1)]) == 1


def _natural_reward(upcard, natural, sab):
    """E[reward] of sticking on a starting natural, as gymnasium's step scores it: the hole card, then
    the dealer's draws; cmp(21, dealer's score), 1.5 for a win with ``natural``, and with ``sab`` a win
    of 1 unless the dealer's first two cards are a natural too (``sab`` overrides ``natural``)."""
    value = Fraction(0)
    for hole, p in CARD.items():
        dealer_natural = sorted((upcard, hole)) == [1, 10]
        for final, q in _dealer(*_add(*_add(0, False, upcard), hole)).items():
            reward = 1 if final > 21 or final < 21 else 0
            if sab:
                reward = 0 if dealer_natural else 1
            elif natural and reward == 1:
                reward = Fraction(3, 2)
            value += p * q * reward
    return value


@pytest.mark.parametrize("natural, sab", [(True, False), (False, True), (True, True)])
def test_the_whole_game_with_the_natural_and_sab_options_agrees_with_a_brute_recursion(natural, sab):
    game = Fraction(0)
    for u in CARD:
        for a in CARD:
            for b in CARD:
                natural_hand = sorted((a, b)) == [1, 10]
                value = _natural_reward(u, natural, sab) if natural_hand else _stick20(*_add(*_add(0, False, a), b), u)
                game += CARD[u] * CARD[a] * CARD[b] * value
    assert Fraction(gym_game_value(stick_on_20, natural=natural, sab=sab)) == game
    assert Fraction(gym_game_value(stick_on_20, natural=natural, sab=sab)) > Fraction(gym_game_value(stick_on_20))


def test_a_policy_that_hits_a_starting_natural_gets_no_bonus():
    def hit_soft_21(observation):
        return 1 if observation[0] == 21 and observation[2] == 1 else stick_on_20(observation)

    plain = gym_values(hit_soft_21)
    assert gym_values(hit_soft_21, natural=True) == plain == gym_values(hit_soft_21, sab=True)


def test_the_optimal_policy_is_the_player_modules_and_beats_sticking_on_20():
    from bjexact.player import solve_infinite

    solution = solve_infinite(GYM_RULES)
    policy = optimal_gym_policy()
    values = gym_values(policy)
    for state, position in solution.positions.items():
        assert values[(state.total, state.upcard, int(state.soft))] == position.value
        assert policy((state.total, state.upcard, int(state.soft))) == (position.best == "hit")
    assert gym_game_value(policy) == solution.game.value
    assert gym_game_value(policy) > gym_game_value(stick_on_20)
    for natural, sab in ((False, False), (True, False), (False, True)):
        assert gym_game_value(policy, natural=natural, sab=sab) > gym_game_value(stick_on_20, natural=natural, sab=sab)


@pytest.mark.parametrize("policy, natural, sab", [("stick20", False, False), ("optimal", True, False),
                                                  ("optimal", False, True), ("stick20", True, True)])
def test_gymnasiums_environment_agrees_with_the_exact_values(policy, natural, sab):
    check = check_gym_blackjack(policy, episodes=10_000, seed=1, natural=natural, sab=sab)
    assert check.passed, format_gym_check(check)
    assert check.mean_interval[0] <= float(check.game_value) <= check.mean_interval[1]


def test_an_environment_with_other_rules_fails():
    # the options mismatched: an env paying 1.5 for naturals checked as the plain game
    import gymnasium

    env = gymnasium.make("Blackjack-v1", natural=True, sab=False)
    check = check_gym_blackjack("optimal", episodes=5_000, seed=2, env=env, natural=False, sab=False)
    assert not check.passed and any(s.observation[0] == 21 and s.observation[2] == 1 for s in check.failed)

    class PushesLose(gym_blackjack.BlackjackEnv):
        """An environment that scores a tie as a loss: a bug the check must catch."""

        def step(self, action):
            observation, reward, terminated, truncated, info = super().step(action)
            if terminated and reward == 0.0:
                reward = -1.0
            return observation, reward, terminated, truncated, info

    check = check_gym_blackjack("stick20", episodes=10_000, seed=3, env=PushesLose())
    assert not check.passed and check.mean_p_value < 1e-6 and check.failed


def test_the_registered_environment_plays_sutton_and_bartos_rules():
    import gymnasium

    assert gymnasium.spec("Blackjack-v1").kwargs.get("sab") is True
    check = check_gym_blackjack("stick20", episodes=3_000, seed=5)
    assert check.sab and not check.natural and check.passed
    assert check.game_value == gym_game_value(stick_on_20, sab=True)


def test_gymnasiums_dealer_follows_the_exact_dealer_table():
    check = check_dealer_simulator(gym_dealer_outcome, GYM_RULES, rounds=30_000, seed=4)
    assert check.passed, format_simulator_check(check)


def test_the_command_checks_gymnasium(capsys):
    assert main(["check-sim", "--gym", "--policy", "optimal", "--no-sab", "--natural", "--episodes", "4000",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["env"] == {"id": "Blackjack-v1", "natural": True, "sab": False} and data["passed"] is True
    assert Fraction(data["game_value"]) == Fraction(gym_game_value(optimal_gym_policy(), natural=True))
    values = {tuple(v["observation"]): Fraction(v["value"]) for v in data["exact_values"]}
    assert values[(21, 10, 1)] == Fraction(3, 2) * (1 - _dealer_from(10)[21])
    assert main(["check-sim", "--gym", "--decks", "2"]) == 2
    assert main(["check-sim", "--gym", "x:y"]) == 2
    assert main(["check-sim"]) == 2


def test_gym_observations_with_too_few_episodes_are_untested_and_never_a_pass():
    few = check_gym_blackjack("stick20", episodes=5, seed=0)
    assert few.untested and not few.tested and not few.passed
    assert "NOT TESTED" in format_gym_check(few) and "PASS" not in format_gym_check(few)
    check = check_gym_blackjack("stick20", episodes=2_000, seed=0)
    # before, every observation seen counted as tested, most with p = 1 exactly
    assert check.tested and check.untested
    for state in check.states:  # tested: a degree of freedom, or a single possible outcome
        cells = goodness_of_fit(state.counts, state.exact)[1] or sum(1 for p in state.exact.values() if p) == 1
        assert state.tested == bool(cells), state.observation
    assert all(s.needed > s.episodes for s in check.untested)
