"""Statistical checks of whole-round simulators against the exact distribution of net results.

The round protocol
    A round simulator is any callable ``play_round(rng) -> float``: one independent round
    from a fresh shoe of the rules, played with the optimal strategy bjexact computes
    (composition-dependent for two-card hands, split hands playing CDZ-), returning the
    net result per unit initial bet (+1.5 for a natural at 3:2, -2 for a lost double, -0.5
    for a surrender, the sum over split hands). Draw every random number from ``rng``.

The test
    The results are counted per outcome and compared with the exact distribution of the
    round's net result (:func:`bjexact.player.game.solve_game`; under a chart,
    :func:`bjexact.player.policy.evaluate_chart`) by Pearson's chi-square (outcomes
    with expected counts below 5 pooled, as in :mod:`bjexact.checks.simcheck`), and the sample
    mean with the exact mean by a z test with the exact variance, each outcome's count
    by a binomial test (its residual), and one directed test per candidate fault; these p-values
    form one family, Holm-corrected (weighted: the directed tests of quick faults share the weight
    of one test, :func:`~bjexact.checks.round_causes.directed_tests`). The
    rounds are looked at four times with alpha spending and the run stops at the first look
    that fails; by default enough rounds are planned to catch a shift of 0.2 percentage
    points in any outcome's probability with power 0.9 (:mod:`bjexact.checks.sequential`).
    A result the rules cannot produce (1.2 from a 6:5 payout under 3:2) fails at once.
    When every expected count is below 5 nothing is tested: the verdict is NOT TESTED,
    never a pass, with the rounds a test needs.

    The exact distribution exists for the infinite deck, for shoes where no hand is split, and
    for finite shoes with splits within :data:`bjexact.player.game.SPLIT_WORK_LIMIT` (one to eight
    decks splitting once, small shoes with resplits); other rules are refused, saying why.

The strategy
    ``strategy=None`` (the optimal play above) or a :class:`~bjexact.player.policy.ChartPolicy`:
    the simulator plays that printed chart (its codes read as in :mod:`bjexact.player.policy`)
    and is compared with the exact distribution of a round played by it.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from itertools import accumulate
from typing import Any

from ..core.cards import ACE, TEN
from ..core.hand import HandValue, add_card, hand_value
from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules
from ..errors import BjexactError, OutOfTime
from ..player.game import GameSolution, Strategy, solve_game
from ..player.policy import ChartPolicy, ChartStrategy, evaluate_chart
from . import sequential
from .charts import chart_policy
from .round_causes import Cause, DirectedTest, candidate_distributions, directed_tests, rank_causes
from .round_faults import (
    DEALER_FAULTS,
    ROUND_FAULTS,
    dealer_rule,
    dealer_stops,
    faulty_round_distribution,
    hand_is_finished,
    hand_is_settled,
)
from .sequential import DEFAULT_POWER, DEFAULT_SHIFT, LOOKS
from .simulators import DEFAULT_ALPHA, MAX_EXAMPLES, MIN_EXPECTED, goodness_of_fit
from .stats import chi2_sf, holm, normal_quantile

__all__ = [
    "DEFAULT_SHIFT", "default_game_rounds", "planned_game_rounds", "family_weight", "fault_candidates",
    "exact_round_distribution",
    "OutcomeTest", "RoundCheck",
    "check_round_simulator",
    "format_round_check", "round_simulator", "exact_round_simulator", "rounds_for_a_round_test",
    "assert_round_simulator_matches", "PLANTED_FAULTS",
]

_GAME_SOLUTIONS: dict[Any, GameSolution] = {}


def _solution(rules: GameRules, strategy: ChartPolicy | None = None) -> GameSolution:
    key = (rules, None if strategy is None else frozenset(strategy.codes.items()))
    found = _GAME_SOLUTIONS.get(key)
    if found is None:
        found = _GAME_SOLUTIONS[key] = (
            solve_game(rules, with_distribution=True, split_lines=True, progress=False, partial=True)
            if strategy is None
            else evaluate_chart(rules, strategy, with_distribution=True, split_lines=True, progress=False,
                                partial=True))
    return found


def exact_round_distribution(rules: GameRules, strategy: ChartPolicy | None = None) -> dict[mpq, mpq]:
    """P(net result) of a round under optimal play (or played by the chart ``strategy``); an error
    where it is not computed."""
    solution = _solution(rules, strategy)
    if solution.distribution is None:
        instead = "--decks inf or --split-hands 1" if rules.split_hands <= 2 else \
            "--decks inf, --split-hands 2 or --split-hands 1"
        raise BjexactError(f"the exact distribution of a round's net result is not computed for these rules: "
                           f"{solution.distribution_missing}; use {instead}")
    return dict(solution.distribution)


def _label(value: mpq) -> str:
    return fraction_string(value)


def _as_result(value: Any, outcomes: Mapping[mpq, str], where: str) -> str:
    """The outcome label of a returned net result; a finite number the rules cannot produce is
    labelled by its ``repr`` (an impossible outcome); anything else is an error naming the simulator."""
    if isinstance(value, bool) or not isinstance(value, (int, float, mpq)) and not hasattr(value, "__float__"):
        raise BjexactError(f"the simulator {where} returned {value!r}, not a number (the net result of the round)")
    try:
        number = float(value)
    except Exception as exc:  # an overflowing int, a __float__ that raises
        raise BjexactError(f"the simulator {where} returned a value that is not a finite number "
                           f"({type(exc).__name__}: {exc})") from None
    if not math.isfinite(number):
        raise BjexactError(f"the simulator {where} returned {value!r}, not a finite number")
    for exact, label in outcomes.items():
        if abs(float(exact) - number) <= 1e-9 * max(1.0, abs(number)):
            return label
    return repr(number)


def rounds_for_a_round_test(exact: Mapping[str, mpq]) -> int:
    """The fewest rounds after which the chi-square has a degree of freedom."""
    n = 1
    while goodness_of_fit({}, exact, rounds=n)[1] == 0:
        n *= 2
    low, high = n // 2, n
    while high - low > 1:
        mid = (low + high) // 2
        if goodness_of_fit({}, exact, rounds=mid)[1] > 0:
            high = mid
        else:
            low = mid
    return high


@dataclass(frozen=True)
class OutcomeTest:
    """One outcome of the round's net result: its count against the exact probability.

    ``residual``: (observed - expected) in standard deviations of the binomial count;
    ``p_value``: two-sided, ``None`` when the outcome is too rare for a test of its own
    (:func:`~bjexact.checks.sequential.testable`); ``adjusted``: Holm-corrected over the family;
    ``detectable``: the smallest shift of its probability these rounds catch with power 0.9."""

    outcome: str
    observed: int
    exact: mpq
    residual: float
    p_value: float | None
    adjusted: float | None
    detectable: float | None

    def to_json(self) -> dict[str, Any]:
        return {"observed": self.observed, "exact": fraction_string(self.exact), "exact_decimal": float(self.exact),
                "residual": self.residual, "p_value": self.p_value, "holm_p_value": self.adjusted,
                "detectable_shift": self.detectable}


@dataclass(frozen=True)
class BoundedTest:
    """One outcome in the mean-only check where the distribution is known but for some deals (pairs
    split whose hands' lines are not followed): its count against the bounds of its probability.

    ``low``: P(this result, and a deal whose lines are followed), exact; ``high``: that plus the chance
    of the deals not followed where their rounds can end so (a whole number of units), else ``low``.
    ``p_value``: two-sided against the bound the count is beyond (1 within them; ``None`` when that
    bound is too rare for a test of its own); ``adjusted``: Holm-corrected with the mean."""

    outcome: str
    observed: int
    low: mpq
    high: mpq
    p_value: float | None
    adjusted: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"observed": self.observed, "low": fraction_string(self.low), "high": fraction_string(self.high),
                "low_decimal": float(self.low), "high_decimal": float(self.high), "p_value": self.p_value,
                "holm_p_value": self.adjusted}


def _bounded_p(observed: int, rounds: int, low: mpq, high: mpq) -> float | None:
    """The p value of :class:`BoundedTest`: the normal approximation of the binomial count at the bound
    it is beyond; a count above a bound of 0 is impossible (0)."""
    if observed < rounds * low:
        bound = float(low)
    elif observed > rounds * high:
        if high == 0:
            return 0.0
        bound = float(high)
    else:
        return 1.0
    if not sequential.testable(bound, rounds):
        return None
    return sequential.two_sided_p(sequential.outcome_residual(observed, bound, rounds))


@dataclass(frozen=True)
class RoundCheck:
    """The verdict on a round simulator: one family of tests (each outcome's count, the chi-square
    over outcomes, the mean) Holm-corrected at the level of the look that decided it.

    The run is sequential (:mod:`bjexact.checks.sequential`): ``planned`` rounds looked at
    ``looks`` times; ``rounds`` were played (fewer when a look failed, or when time ran out:
    ``stopped`` says why: ``"fail"``, ``"timeout"`` or ``""`` for a run to its end); ``level``
    is the share of ``alpha`` the last look was tested at."""

    rules: GameRules
    rounds: int
    seed: int
    alpha: float
    counts: Mapping[str, int]
    exact: Mapping[str, mpq]
    statistic: float
    df: int
    impossible: tuple[str, ...]
    chi2_p: float
    mean: float
    exact_mean: mpq
    exact_variance: mpq
    mean_p: float
    adjusted: tuple[float, float]
    needed: int
    strategy: str = "optimal"
    examples: tuple[tuple[int, str], ...] = ()  # (round, from 1; result) of impossible results returned
    outcomes: tuple[OutcomeTest, ...] = ()
    planned: int = 0
    looks: int = 1
    level: float = 0.0
    stopped: str = ""
    shift: float = DEFAULT_SHIFT
    shift_rounds: int = 0
    causes: tuple[Cause, ...] = ()  # on a FAIL: candidate faults, likeliest first (bjexact.checks.round_causes)
    causes_left_out: tuple[str, ...] = ()
    directed: tuple[tuple[str, float, float], ...] = ()  # (candidate fault, p, Holm p) of the directed tests
    mean_only: str = ""  # why only the mean was tested (the exact distribution is not computed); "" otherwise
    sample_variance: float = 0.0  # the mean-only test's variance
    bounded: tuple[BoundedTest, ...] = ()  # mean-only: outcomes within bounds where the distribution is partly known
    unfollowed: mpq | None = None  # mean-only: the chance of the deals whose lines are not followed

    @property
    def tested(self) -> bool:
        return self.df > 0 or bool(self.impossible) or bool(self.mean_only and self.rounds > 1)

    @property
    def failed(self) -> list[str]:
        """The tests that reject: "distribution" (chi-square), "mean", "outcome X" (X's count)."""
        if not self.tested:
            return []
        if self.mean_only:
            bounded = [f"outcome {t.outcome}" for t in self.bounded
                       if t.adjusted is not None and t.adjusted < self.alpha]
            return ((["mean"] if self.adjusted[1] < self.alpha else []) + bounded
                    + (["impossible results"] if self.impossible else []))
        level = self.level or self.alpha
        names = [n for n, p in zip(("distribution", "mean"), self.adjusted) if p < level]
        names += [f"directed {name}" for name, _, adjusted in self.directed if adjusted < level]
        return names + [f"outcome {t.outcome}" for t in self.outcomes if t.adjusted is not None and t.adjusted < level]

    @property
    def verdict(self) -> str:
        return "fail" if self.failed else "pass" if self.tested else "too few rounds"

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"

    @property
    def impossible_count(self) -> int:
        """Rounds whose result the rules cannot produce."""
        return sum(self.counts.get(o, 0) for o in self.impossible)

    @property
    def worst_detectable(self) -> float | None:
        """The largest of the outcomes' detectable shifts: smaller shifts of some outcome may go unseen."""
        shifts = [t.detectable for t in self.outcomes if t.detectable is not None]
        return max(shifts) if shifts else None

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed, "verdict": self.verdict, "rules": self.rules.to_json(), "strategy": self.strategy,
            "rounds": self.rounds, "planned_rounds": self.planned, "looks": self.looks, "stopped": self.stopped,
            "tests_run": (["mean"] + (["bounded outcomes"] if self.bounded else []) if self.mean_only
                          else ["distribution", "mean", "outcomes", "directed"]),
            "why_mean_only": self.mean_only or None,
            "level_of_last_look": self.level,
            "seed": self.seed, "alpha": self.alpha, "rounds_needed": self.needed,
            "power": {"power": DEFAULT_POWER, "shift": self.shift, "rounds_for_shift": self.shift_rounds,
                      "largest_undetected_shift": self.worst_detectable},
            "chi_square": self.statistic, "df": self.df, "p_value": self.chi2_p, "holm_p_value": self.adjusted[0],
            "impossible_outcomes_seen": list(self.impossible),
            "impossible": {"count": self.impossible_count,
                           "examples": [{"round": r, "result": o} for r, o in self.examples]},
            "mean": self.mean, "exact_mean": fraction_string(self.exact_mean),
            "exact_mean_decimal": float(self.exact_mean), "exact_variance": fraction_string(self.exact_variance),
            "mean_p_value": self.mean_p, "mean_holm_p_value": self.adjusted[1], "failed": self.failed,
            "likely_causes": [{"cause": c.name, "description": c.description, "log_likelihood_ratio": c.log_likelihood}
                              for c in self.causes],
            "causes_left_out": list(self.causes_left_out),
            "directed_tests": {name: {"p_value": p, "holm_p_value": adjusted} for name, p, adjusted in self.directed},
            "bounded_outcomes": {t.outcome: t.to_json() for t in self.bounded},
            "unfollowed_chance": None if self.unfollowed is None else fraction_string(self.unfollowed),
            "outcomes": {t.outcome: t.to_json() for t in self.outcomes}
                        | {o: {"observed": self.counts[o], "exact": "0", "exact_decimal": 0.0, "residual": None,
                               "p_value": 0.0, "holm_p_value": 0.0, "detectable_shift": None}
                           for o in self.impossible},
        }


@dataclass(frozen=True)
class _Sample:
    """What the rounds so far have shown (the state between looks)."""

    counts: Mapping[str, int]
    total: float
    rounds: int


def _look(sample: _Sample, distribution: Mapping[mpq, mpq], exact: Mapping[str, mpq], level: float,
          tests_for_power: float, directed: tuple[DirectedTest, ...] = ()) -> tuple[
              float, int, tuple[str, ...], float, float, float, tuple[float, float], tuple[OutcomeTest, ...],
              tuple[tuple[str, float, float], ...]]:
    """The family's tests on ``sample``: chi-square, mean, one directed test per candidate fault, each
    testable outcome; Holm-corrected, weighted (each test weighs 1 but the directed tests of quick
    faults, which share one unit: :func:`~bjexact.checks.round_causes.directed_tests`).
    ``tests_for_power``: the family's total weight, for the detectable shifts."""
    n = sample.rounds
    statistic, df, impossible = goodness_of_fit(sample.counts, exact)
    chi2_p = 0.0 if impossible else chi2_sf(statistic, df)
    ev = sum((r * p for r, p in distribution.items()), mpq(0))
    variance = sum((r * r * p for r, p in distribution.items()), mpq(0)) - ev * ev
    mean = sample.total / n
    z = (mean - float(ev)) / math.sqrt(float(variance) / n) if variance else 0.0
    mean_p = math.erfc(abs(z) / math.sqrt(2))
    raw = []
    for outcome, p in sorted(exact.items(), key=lambda item: mpq(item[0])):
        observed = sample.counts.get(outcome, 0)
        q = float(p)
        residual = sequential.outcome_residual(observed, q, n)
        raw.append((outcome, observed, p, residual,
                    sequential.two_sided_p(residual) if sequential.testable(q, n) else None))
    by_result = _counts_by_result(sample.counts)
    directed_p = [t.p_value(by_result, n) for t in directed]
    family = [chi2_p, mean_p, *directed_p] + [r[4] for r in raw if r[4] is not None]
    weights = [1.0, 1.0, *(t.weight for t in directed)] + [1.0 for r in raw if r[4] is not None]
    adjusted = iter(holm(family, weights))
    chi2_adjusted, mean_adjusted = next(adjusted), next(adjusted)
    directed_results = tuple((t.name, p_t, next(adjusted)) for t, p_t in zip(directed, directed_p))
    outcomes = tuple(OutcomeTest(o, k, p, z_o, p_o, None if p_o is None else next(adjusted),
                                 sequential.detectable_shift(float(p), n, level=level, tests=tests_for_power)
                                 if 0 < p < 1 else None)
                     for o, k, p, z_o, p_o in raw)
    return statistic, df, impossible, chi2_p, mean, mean_p, (chi2_adjusted, mean_adjusted), outcomes, directed_results


def check_round_simulator(
    play_round: Callable[[random.Random], Any],
    rules: GameRules | None = None,
    *,
    rounds: int | None = None,
    seed: int = 0,
    alpha: float = DEFAULT_ALPHA,
    strategy: ChartPolicy | None = None,
    strategy_name: str | None = None,
    shift: float = DEFAULT_SHIFT,
    looks: int = LOOKS,
) -> RoundCheck:
    """Run up to ``rounds`` rounds of ``play_round`` with ``random.Random(seed)`` and test them against
    optimal play, or against the chart ``strategy`` (named ``strategy_name`` in the report).

    ``rounds=None``: the rounds that catch a ``shift`` of any outcome's probability with power 0.9
    (:func:`default_game_rounds`). The rounds are looked at ``looks`` times with alpha spending
    (:mod:`bjexact.checks.sequential`): the run stops at the first look that fails. An
    :class:`~bjexact.errors.OutOfTime` raised by ``play_round`` (a time guard's) ends the run
    there, and the rounds done are tested at the level left."""
    rules = rules or GameRules(decks="inf")
    if not 0 < alpha < 1:
        raise BjexactError(f"alpha must be between 0 and 1, not {alpha!r}")
    if not 0 < shift < 1:
        raise BjexactError(f"the shift to detect must be a probability between 0 and 1, not {shift!r}")
    solution = _solution(rules, strategy)
    if solution.distribution is None:
        return _check_mean_only(play_round, solution, rounds or DEFAULT_MEAN_ROUNDS, seed, alpha,
                                "optimal" if strategy is None else strategy_name or "a chart")
    distribution = exact_round_distribution(rules, strategy)
    outcomes = {r: _label(r) for r in distribution}
    exact = {outcomes[r]: p for r, p in distribution.items()}
    faults: list[tuple[dict[str, dict[mpq, mpq]], tuple[str, ...], tuple[DirectedTest, ...]]] = []

    def candidate_faults() -> tuple[dict[str, dict[mpq, mpq]], tuple[str, ...], tuple[DirectedTest, ...]]:
        """(candidates, those left out, their directed tests), solved when first needed: at the first look
        when the rounds are given, so that a simulator failing in round 1 is named without them."""
        if not faults:
            candidates, left_out = fault_candidates(rules, strategy)
            faults.append((candidates, left_out, directed_tests(distribution, candidates)))
        return faults[0]

    shift_rounds = sequential.rounds_for_shift(exact, shift, alpha=alpha, looks=looks)
    if rounds is None:
        rounds = default_game_rounds(exact, shift, alpha, candidate_faults()[2])
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise BjexactError(f"the number of rounds must be a whole number >= 1, not {rounds!r}")
    lookup = {float(r): label for r, label in outcomes.items()}
    name = getattr(play_round, "__qualname__", None) or type(play_round).__name__
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    total = 0.0
    examples: list[tuple[int, str]] = []
    levels = sequential.look_levels(alpha, looks)
    stops = [max(1, math.ceil(rounds * k / looks)) for k in range(1, looks + 1)]
    done, spent, stopped, look = 0, 0.0, "", None
    for k, stop in enumerate(stops):
        try:
            for number, value in _results(play_round, rng, name, done + 1, stop):
                label = lookup.get(value) if type(value) is float else None
                if label is None:
                    label = _as_result(value, outcomes, name)
                counts[label] += 1
                if label not in exact and len(examples) < MAX_EXAMPLES:
                    examples.append((number, label))
                total += float(value)
                done = number
        except OutOfTime:
            stopped = "timeout"
        if done == 0:
            raise BjexactError(f"the time ran out before the simulator {name} finished a round")
        level = alpha - spent if stopped else levels[k]
        spent += level
        sample = _Sample(dict(counts), total, done)
        directed = candidate_faults()[2]
        tests = family_weight(exact, done, directed)
        look = _look(sample, distribution, exact, level, tests, directed), level, k + 1
        partial = _partial_check(rules, seed, alpha, sample, exact, distribution, look, strategy, strategy_name,
                                 tuple(examples), rounds, stopped, shift, shift_rounds)
        if stopped or partial.verdict == "fail":
            break
    if partial.verdict == "fail":
        candidates, left_out, _ = candidate_faults()
        causes = rank_causes(_counts_by_result(partial.counts), distribution, candidates)
        partial = replace(partial, causes=causes, causes_left_out=left_out)
    return replace(partial, stopped=stopped or ("fail" if partial.rounds < rounds else ""))


def _counts_by_result(counts: Mapping[str, int]) -> dict[mpq, int]:
    """Counts by exact net result; a result the rules cannot produce (its float's repr) by the nearest
    fraction of small denominator (1.2 is 6/5)."""
    out: dict[mpq, int] = {}
    for label, k in counts.items():
        value = mpq(label) if "." not in label else mpq(Fraction(label).limit_denominator(1000))
        out[value] = out.get(value, 0) + k
    return out


def _results(play_round: Callable[[random.Random], Any], rng: random.Random, name: str, first: int,
             last: int) -> Iterator[tuple[int, Any]]:
    """(round number, the simulator's answer) for rounds ``first`` to ``last``; an exception in the
    simulator is one line naming it (an :class:`~bjexact.errors.OutOfTime` passes through)."""
    for number in range(first, last + 1):
        try:
            value = play_round(rng)
        except OutOfTime:
            raise
        except Exception as exc:  # the user's code failed: one line naming it
            raise BjexactError(f"the simulator {name} raised {type(exc).__name__}: {exc} (round {number})") from None
        yield number, value


DEFAULT_MEAN_ROUNDS = 1_000_000


def possible_results(rules: GameRules) -> frozenset[mpq]:
    """The net results (units of the initial bet, insurance aside) some play of a round under ``rules``
    can end in, whatever the cards: a whole number of units up to :attr:`GameRules.largest_stake`
    either way, a natural's payout, and half a unit lost by surrender. (Not every one need occur; any
    other value shows a bug.)"""
    most = rules.largest_stake
    return frozenset({mpq(k) for k in range(-most, most + 1)} | {rules.bj_pays}
                     | ({mpq(-1, 2)} if rules.surrender != "none" else set()))


def _check_mean_only(play_round: Callable[[random.Random], Any], solution: GameSolution, rounds: int, seed: int,
                     alpha: float, strategy_name: str) -> RoundCheck:
    """The fallback where the exact distribution is not computed: the sample mean against the exact
    expected value (the edge), a z test with the sample variance; one look at the end (or at a time-out).
    A result no play under the rules can give (:func:`possible_results`) fails on its own, as in the full
    check; so does a sample with no spread whose mean is not the exact one (a round's result varies).
    Where the distribution is known but for the deals whose split hands' lines are not followed
    (:attr:`GameSolution.partial_distribution`), each outcome's count is also tested against the bounds
    of its probability (:class:`BoundedTest`), Holm-corrected with the mean."""
    name = getattr(play_round, "__qualname__", None) or type(play_round).__name__
    rules = solution.rules
    known = solution.partial_distribution or {}
    unfollowed = solution.unfollowed_chance
    possible = sorted(possible_results(rules) | set(known))
    lookup = {float(r): _label(r) for r in possible}  # a result is one of these exactly, or impossible
    rng = random.Random(seed)
    total = squares = 0.0
    done, stopped = 0, ""
    counts: Counter[str] = Counter()
    impossible: Counter[str] = Counter()
    examples: list[tuple[int, str]] = []
    try:
        for number, value in _results(play_round, rng, name, 1, rounds):
            number_value = _finite(value, name)
            label = lookup.get(number_value)
            if label is not None:
                counts[label] += 1
            else:  # no play under the rules gives it: named by its repr
                impossible[repr(number_value)] += 1
                if len(examples) < MAX_EXAMPLES:
                    examples.append((number, repr(number_value)))
            total += number_value
            squares += number_value * number_value
            done = number
    except OutOfTime:
        stopped = "timeout"
    if done == 0:
        raise BjexactError(f"the time ran out before the simulator {name} finished a round")
    mean = total / done
    variance = max(squares / done - mean * mean, 0.0) * done / max(done - 1, 1)
    if variance:
        z = (mean - float(solution.ev)) / math.sqrt(variance / done)
    else:  # every round the same result: only a mean equal to the exact one is consistent, by chance
        z = 0.0 if done == 1 or mean == float(solution.ev) else math.inf
    mean_p = math.erfc(abs(z) / math.sqrt(2))
    bounded = []
    if unfollowed is not None:
        for r in possible:
            label, low = _label(r), known.get(r, mpq(0))
            high = low + (unfollowed if r.denominator == 1 else 0)  # a split round ends in whole units
            if low or counts.get(label):
                bounded.append(BoundedTest(label, counts.get(label, 0), low, high,
                                           _bounded_p(counts.get(label, 0), done, low, high)))
    family = [mean_p] + [t.p_value for t in bounded if t.p_value is not None]
    adjusted = iter(holm(family))
    mean_adjusted = next(adjusted)
    bounded = [replace(t, adjusted=next(adjusted)) if t.p_value is not None else t for t in bounded]
    return RoundCheck(rules, done, seed, alpha, dict(counts) | dict(impossible), {}, 0.0, 0, tuple(impossible), 1.0,
                      mean, solution.ev, mpq(0), mean_p, (1.0, mean_adjusted), 2, strategy_name,
                      examples=tuple(examples), planned=rounds, level=alpha, stopped=stopped,
                      mean_only=solution.distribution_missing or "not computed", sample_variance=variance,
                      bounded=tuple(bounded), unfollowed=unfollowed)


def _finite(value: Any, name: str) -> float:
    """A simulator's answer as a finite float (the mean-only check has no outcomes to label)."""
    _as_result(value, {}, name)  # the same refusals as the full check
    return float(value)


def default_game_rounds(exact: Mapping[str, Any], shift: float = DEFAULT_SHIFT, alpha: float = DEFAULT_ALPHA,
                        directed: tuple[DirectedTest, ...] = ()) -> int:
    """The default rounds of ``check-sim --game``: those whose last look catches, with power 0.9, a
    ``shift`` of any outcome's probability (:func:`~bjexact.checks.sequential.rounds_for_shift`) and each
    candidate fault of ``directed`` by its directed test (at Holm's first step: the last look's level times
    its weight over the family's, :func:`family_weight`), unless that takes more than
    :data:`MAX_DEFAULT_ROUNDS` (such a fault, the dealer not drawing against split 21s, is ranked when a
    check fails but not planned for); rounded up to a multiple of 10,000."""
    n = sequential.rounds_for_shift(exact, shift, alpha=alpha)
    if directed:
        tests = family_weight(exact, n, directed)
        z_power = normal_quantile(sequential.DEFAULT_POWER)
        needed = (t.rounds_to_catch(normal_quantile(1 - sequential.look_levels(alpha)[-1] * t.weight / tests), z_power)
                  for t in directed)
        n = max([n, *(r for r in needed if r <= MAX_DEFAULT_ROUNDS)])
    return -(-n // 10_000) * 10_000


def family_weight(exact: Mapping[str, Any], rounds: int, directed: tuple[DirectedTest, ...] = ()) -> float:
    """The total weight of the family after ``rounds`` rounds: 1 for each testable outcome, the chi-square
    and the mean, and the directed tests' weights; a test of weight ``w`` is tested at ``level w / total``
    at Holm's first step."""
    return sequential.family_size(exact, rounds) + sum(t.weight for t in directed)


def planned_game_rounds(rules: GameRules, strategy: ChartPolicy | None = None, shift: float = DEFAULT_SHIFT,
                        alpha: float = DEFAULT_ALPHA) -> int:
    """The rounds :func:`check_round_simulator` plans when none are given (:func:`default_game_rounds`
    with the directed tests of the candidate faults of ``rules``)."""
    if _solution(rules, strategy).distribution is None:
        return DEFAULT_MEAN_ROUNDS
    distribution = exact_round_distribution(rules, strategy)
    directed = directed_tests(distribution, fault_candidates(rules, strategy)[0])
    return default_game_rounds({_label(r): p for r, p in distribution.items()}, shift, alpha, directed)


MAX_DEFAULT_ROUNDS = 10_000_000
_CANDIDATES: dict[Any, tuple[dict[str, dict[mpq, mpq]], tuple[str, ...]]] = {}


def fault_candidates(rules: GameRules, strategy: ChartPolicy | None = None) -> tuple[
        dict[str, dict[mpq, mpq]], tuple[str, ...]]:
    """The candidate faults' distributions for ``rules`` (:mod:`bjexact.checks.round_causes`) and the
    names left out. A fault that is another rule set is valued with the asked rules' chart (or
    ``strategy``): the simulator keeps its play and gets the other rule; such candidates are computed
    for the infinite deck and for shoes without splitting, and left out elsewhere (too slow to value)."""
    key = (rules, None if strategy is None else frozenset(strategy.codes.items()))
    found = _CANDIDATES.get(key)
    if found is None:
        exact = exact_round_distribution(rules, strategy)
        quick = rules.infinite or rules.split_hands == 1
        chart = strategy if strategy is not None or not quick else ChartPolicy.of_solution(_solution(rules))

        def solve(other: GameRules) -> dict[mpq, mpq]:
            if not quick:
                raise BjexactError("another rule set is not valued quickly on a finite shoe with splits")
            return exact_round_distribution(other, chart)

        moves, first_move = _round_play(rules, strategy)
        hands: dict[str, dict[Any, Any]] = {}  # the player's hands, one play for every fault

        def faulty(fault: str) -> dict[mpq, mpq] | None:
            if fault in DEALER_FAULTS and dealer_stops(rules, fault) is None:
                return None  # the rules' own play
            return faulty_round_distribution(rules, moves, first_move, fault, shared=hands)

        found = _CANDIDATES[key] = candidate_distributions(rules, exact, solve, faulty)
    return found


def _partial_check(rules, seed, alpha, sample, exact, distribution, look, strategy, strategy_name, examples,
                   planned, stopped, shift, shift_rounds) -> RoundCheck:
    (statistic, df, impossible, chi2_p, mean, mean_p, adjusted, outcome_tests, directed), level, looks = look
    ev = sum((r * p for r, p in distribution.items()), mpq(0))
    variance = sum((r * r * p for r, p in distribution.items()), mpq(0)) - ev * ev
    return RoundCheck(rules, sample.rounds, seed, alpha, dict(sample.counts), exact, statistic, df, impossible, chi2_p,
                      mean, ev, variance, mean_p, adjusted, rounds_for_a_round_test(exact),
                      "optimal" if strategy is None else strategy_name or "a chart", examples, outcome_tests,
                      planned, looks, level, stopped, shift, shift_rounds, directed=directed)


def format_round_check(check: RoundCheck) -> str:
    played = "optimal play" if check.strategy == "optimal" else f"play by {check.strategy}"
    if check.mean_only:
        return _format_mean_only(check, played)
    if check.stopped == "fail":
        how = f"stopped at look {check.looks} of {LOOKS} of the {check.planned} rounds planned, as it failed"
    elif check.stopped == "timeout":
        how = f"stopped by --timeout at look {check.looks} of the {check.planned} rounds planned"
    else:
        how = f"{check.looks} looks"
    lines = [f"Round simulator checked against the exact distribution of net results for {check.rules.describe()}",
             f"strategy: {played}",
             f"{check.rounds} rounds (seed {check.seed}; {how}); each outcome's count, the chi-square over "
             f"outcomes and the mean, Holm-corrected at level {check.level or check.alpha:.3g} of {check.alpha:g} "
             "(alpha spent over the looks)", ""]
    lines.append("   result   observed     exact  residual  detectable shift")
    for t in check.outcomes:
        observed = t.observed / check.rounds
        flag = "  <--" if t.adjusted is not None and t.adjusted < (check.level or check.alpha) else ""
        shift = "" if t.detectable is None else f"{t.detectable:.5f}" if t.p_value is not None else \
            f"{t.detectable:.5f} (not tested alone)"
        lines.append(f"{t.outcome:>9}  {observed:9.6f}  {float(t.exact):8.6f}  {t.residual:+8.1f}  {shift:>16}{flag}")
    for outcome in check.impossible:
        lines.append(f"{outcome:>9}  {check.counts[outcome] / check.rounds:9.6f}  {0:8.6f}  impossible  <--")
    lines.append("(residual: observed - expected count in standard deviations; detectable shift: the smallest "
                 "change of that outcome's probability these rounds catch with power 90 %)")
    lines.append("")
    lines.append(f"distribution: chi-square {check.statistic:.2f}, df {check.df}, p {check.chi2_p:.2g}, "
                 f"Holm p {check.adjusted[0]:.2g}")
    lines.append(f"mean: {check.mean:+.6f} against exact {float(check.exact_mean):+.6f} "
                 f"(= {fraction_string(check.exact_mean)}), p {check.mean_p:.2g}, Holm p {check.adjusted[1]:.2g}")
    if check.impossible:
        lines.append(_impossible_line(check, "Results these rules cannot produce",
                                      "a payout or a stake the rules do not have"))
    if check.directed:
        lines.append("directed tests (one per candidate fault): " + ", ".join(
            f"{name} p {p:.2g}" for name, p, _ in check.directed))
    worst = check.worst_detectable
    if worst is not None:
        seen = "catch" if worst <= check.shift else "do not catch"
        lines.append(f"Power: these {check.rounds} rounds catch a shift of {worst:.4f} in any outcome's probability "
                     f"with power 90 %; they {seen} every shift of {check.shift:g} (that takes {check.shift_rounds} "
                     f"rounds; --bias sets the shift).")
    if check.verdict == "too few rounds":
        lines.append(f"Verdict: NOT TESTED: too few rounds (every expected count is below {MIN_EXPECTED:g}). "
                     f"Run at least {check.needed} rounds.")
    elif check.passed:
        lines.append("Verdict: PASS. No test of the distribution, the mean or an outcome differs from the exact "
                     "one at this level; a pass is not a proof.")
    else:
        lines.append(f"Verdict: FAIL ({', '.join(check.failed)}). With a correct simulator this happens with "
                     f"probability below {check.alpha:g}.")
        if check.causes:
            lines.append("Likely causes, likeliest first (log-likelihood of the counts under each fault's exact "
                         "distribution, less that under the rules asked):")
            lines += [f"  {i}. {c.name}: {c.description} ({c.log_likelihood:+.1f})"
                      for i, c in enumerate(check.causes, start=1)]
        if check.causes_left_out:
            lines.append("Not ranked (their distribution is not computed for these rules): "
                         + ", ".join(check.causes_left_out))
    return "\n".join(lines) + "\n"


def _impossible_line(check: RoundCheck, what: str, why: str) -> str:
    """The line on the results the rules cannot produce: how many rounds, which, why, where."""
    shown = ", ".join(f"{o} in round {r}" for r, o in check.examples)
    return (f"{what} were returned in {check.impossible_count} rounds: " + ", ".join(check.impossible)
            + f" ({why}); for example {shown}.")


def _format_mean_only(check: RoundCheck, played: str) -> str:
    spread = math.sqrt(check.sample_variance / check.rounds) if check.rounds else 0.0
    detectable = (normal_quantile(1 - check.alpha / 2) + normal_quantile(DEFAULT_POWER)) * spread
    stopped = f" (stopped by --timeout; {check.planned} planned)" if check.stopped == "timeout" else ""
    lines = [f"Round simulator checked against the exact expected value for {check.rules.describe()}",
             f"strategy: {played}",
             f"{check.rounds} rounds (seed {check.seed}){stopped}",
             f"Tests run: the mean{', each outcome within bounds' if check.bounded else ' only'}. The exact "
             f"distribution of a round's net result is not computed for these rules ({check.mean_only}), so the "
             "chi-square and the directed tests cannot run; the exact expected value can.", "",
             f"mean: {check.mean:+.6f} against exact {float(check.exact_mean):+.6f} "
             f"(= {fraction_string(check.exact_mean)}), sample standard deviation "
             f"{math.sqrt(check.sample_variance):.4f}, z test p {check.mean_p:.2g} at level {check.alpha:g}",
             f"Power: these rounds catch a shift of the mean of {detectable:.5f} units per round with power 90 %."
             if check.sample_variance else
             "Power: not estimated: every round gave the same result, which a correct simulator's rounds do not."]
    if check.bounded:
        lines += ["", f"Outcomes: the distribution is known but for the deals whose split hands' lines are not "
                      f"followed (their chance {float(check.unfollowed or 0):.4%}, and their rounds end in whole "
                      "units), so each outcome's probability lies within bounds; its count is tested against them, "
                      f"Holm-corrected with the mean at level {check.alpha:g}.",
                  "   result   observed       low      high  Holm p"]
        for t in check.bounded:
            flag = "  <--" if t.adjusted is not None and t.adjusted < check.alpha else ""
            shown = "" if t.adjusted is None else f"{t.adjusted:.2g}"
            lines.append(f"{t.outcome:>9}  {t.observed / check.rounds:9.6f}  {float(t.low):8.6f}  {float(t.high):8.6f}"
                         f"  {shown:>6}{flag}")
    if check.impossible:
        lines.append(_impossible_line(check, "Results no play under these rules can give",
                                      f"a round risks at most {check.rules.largest_stake} units; its results are whole "
                                      "units, a natural's payout, or -0.5 for a surrender"))
    tested = "the mean and the outcomes' bounds" if check.bounded else "the mean only"
    lines.append(f"Verdict: FAIL ({', '.join(check.failed)})." if check.failed else
                 f"Verdict: PASS (of {tested}). A pass is not a proof.")
    return "\n".join(lines) + "\n"


# --- a reference simulator ---------------------------------------------------------------------------------


PLANTED_FAULTS = {
    "natural-not-pushed": "a player natural loses to a dealer natural instead of pushing",
    "h17-for-s17": "the dealer hits soft 17 where the rules say it stands (or stands where it hits)",
    "surrender-as-loss": "a surrendered hand loses the whole bet instead of half",
    "das-refused": "no doubling after a split although the rules allow it",
    "split-aces-hit": "split aces are played on (hit, and doubled where DAS) instead of taking one card each",
    "dah-allowed": "a hand of three or more cards doubles where the rules' chart has a D code for its total, "
                   "although the rules allow doubling on two cards only",
    **ROUND_FAULTS,
}


def _round_play(rules: GameRules, strategy: ChartPolicy | None = None) -> tuple[
        Strategy | ChartStrategy, Callable[[int, int, int], str]]:
    """The moves a round is played by (bjexact's optimal play, or the chart ``strategy``) and the first
    move of a dealt non-natural hand (cards, up-card)."""
    if strategy is None:
        solution = _solution(rules)

        def first_move(a: int, b: int, up: int) -> str:
            return solution.hands[(min(a, b), max(a, b), up)].best
        return Strategy(rules), first_move
    chart = ChartStrategy(rules, strategy)

    def chart_move(a: int, b: int, up: int) -> str:
        return chart.first_move((min(a, b), max(a, b)), up)
    return chart, chart_move


def round_simulator(rules: GameRules | None = None, *, bj_pays: Any = None, split_bug: bool = False,
                    strategy: ChartPolicy | None = None, fault: str | None = None) -> Callable[[random.Random], float]:
    """A simulator of whole rounds on the infinite deck playing bjexact's optimal strategy, or the
    chart ``strategy``.

    ``bj_pays``, ``split_bug`` and ``fault`` make it wrong on purpose (for testing the checker): a
    natural paid otherwise than the rules say, split hands that all receive the first hand's
    second card, or one of :data:`PLANTED_FAULTS`."""
    rules = rules or GameRules(decks="inf")
    if fault is not None and fault not in PLANTED_FAULTS:
        raise BjexactError(f"unknown fault {fault!r} (known: {', '.join(PLANTED_FAULTS)})")
    dealer_stands = dealer_rule(rules, fault)  # the dealer's rule, maybe faulty
    if not rules.infinite:
        raise BjexactError("the reference round simulator deals from the infinite deck: use --decks inf")
    solver, first_move = _remembered_play(*_round_play(rules, strategy))
    doubles_after_hit = _doubles_after_hit(rules, strategy) if fault == "dah-allowed" else None
    pays = float(rules.bj_pays if bj_pays is None else mpq(bj_pays))
    ranks = list(range(1, 11))
    # the infinite deck's cumulative weights (a ten is four ranks of thirteen): a card is the rank where a
    # uniform draw from [0, 13) falls, as rng.choices(ranks, weights) draws it, without its set-up per call
    bounds = list(accumulate(4 if r == TEN else 1 for r in ranks))
    weight, last = float(bounds[-1]), len(ranks) - 1
    peek = rules.hole_card == "peek"
    limit_of = {pair: rules.split_limit(pair) for pair in ranks}
    natural = {(x, y): rules.is_natural((x, y)) for x in ranks for y in ranks}  # two cards, in order

    def counts(cards: list[int]) -> tuple[int, ...]:
        out = [0] * 10
        for c in cards:
            out[c - 1] += 1
        return tuple(out)

    # each hand's value is followed card by card (not recomputed from its cards), and the dealer's rule and
    # the settling are looked up by plain numbers once asked: the same cards drawn, the same results
    stops: dict[tuple[int, bool, int, bool], bool] = {}

    def dealer_stops_on(value: HandValue, before: HandValue) -> bool:
        key = (value.total, value.soft, before.total, before.soft)
        found = stops.get(key)
        if found is None:
            found = stops[key] = dealer_stands(value, before)
        return found

    up_value = {up: hand_value((up,)) for up in ranks}
    settle = _remembered_settle(rules)

    def play_round(rng: random.Random) -> float:
        def draw() -> int:
            return ranks[bisect(bounds, rng.random() * weight, 0, last)]

        def play_on(cards: list[int], choose: Callable[[list[int]], str]) -> tuple[list[int], int, HandValue]:
            """A hand of three or more cards played on by ``choose`` (stand, hit, double): its cards, stake, value."""
            value = hand_value(cards)
            while not hand_is_finished(rules, value, len(cards)):
                move = choose(cards)
                if doubles_after_hit is not None and doubles_after_hit(counts(cards), split_pair, up):
                    move = "double"
                if move == "double":
                    card = draw()
                    return cards + [card], 2, add_card(value, card)
                if move != "hit":
                    break
                card = draw()
                cards = cards + [card]
                value = add_card(value, card)
            return cards, 1, value

        a, b, up = draw(), draw(), draw()
        hole = draw() if peek else None
        player_natural = natural[a, b]
        if hole is not None and natural[up, hole]:
            if player_natural:
                return -1.0 if fault == "natural-not-pushed" else 0.0
            return -0.5 if rules.surrender == "early" and first_move(a, b, up) == "surrender" else -1.0
        if player_natural:
            if hole is None:
                hole = draw()
            if natural[up, hole]:
                return -1.0 if fault == "natural-not-pushed" else 0.0
            return pays
        best = first_move(a, b, up)
        split_pair = a if best == "split" else None
        if best == "surrender":
            return -1.0 if fault == "surrender-as-loss" else -0.5
        hands: list[tuple[list[int], int, HandValue]] = []  # cards, stake, value
        if best == "split":
            pair = a
            split: list[list[int]] = [[pair], [pair]]
            if split_bug:  # the bug: one second card dealt to every split hand
                card = draw()
                split = [[pair, card], [pair, card]]
            on_table = [2] * len(split)  # the hands on the table as each hand takes its second card (CDP)
            i = 0
            while i < len(split) and not split_bug:
                card = draw()
                if card == pair and len(split) < limit_of[pair]:
                    split.append([pair])
                    on_table.append(0)
                    continue
                split[i].append(card)
                on_table[i] = len(split)
                i += 1
            for cards, table in zip(split, on_table):
                move = solver.split_move(counts(cards), up, pair, table)
                if fault == "das-refused" and move == "double":
                    move = "hit"
                if fault == "split-aces-hit" and pair == ACE and hand_value(cards).total < 21:  # played as any hand
                    dealt = first_move(min(cards), max(cards), up)
                    move = "double" if dealt == "double" and rules.das else \
                        "hit" if solver.continues_hitting(counts(cards), up) else "stand"
                if move == "double":
                    card = draw()
                    hands.append((cards + [card], 2, hand_value(cards + [card])))
                    continue
                if move == "hit":
                    aces_hit = fault == "split-aces-hit" and pair == ACE

                    def choose(cards: list[int], table: int = table, aces_hit: bool = aces_hit) -> str:
                        if aces_hit:
                            return "hit" if solver.continues_hitting(counts(cards), up) else "stand"
                        later = solver.split_move(counts(cards), up, pair, table)
                        return "hit" if fault == "das-refused" and later == "double" else later
                    hands.append(play_on(cards + [draw()], choose))
                    continue
                hands.append((cards, 1, hand_value(cards)))
        elif best == "double":
            card = draw()
            hands.append(([a, b, card], 2, hand_value((a, b, card))))
        else:
            if best == "hit":
                hands.append(play_on([a, b, draw()], lambda cards: solver.later_move(counts(cards), up)))
            else:
                hands.append(([a, b], 1, hand_value((a, b))))
        split_hands = best == "split"
        if fault == "split-hand-dropped" and split_hands:
            del hands[1]
        dealer = [up, hole if hole is not None else draw()]
        if natural[up, dealer[1]]:  # no hole card: a dealer natural takes the bets (OBO: the original one)
            return float(rules.dealer_natural_loss([stake for _, stake, _ in hands]))
        settled = fault == "split-21-as-settled" and all(
            hand_is_settled(value, len(cards), split_hands) for cards, _, value in hands)
        before = up_value[up]
        value = add_card(before, dealer[1])
        while not settled and not dealer_stops_on(value, before):
            card = draw()
            dealer.append(card)
            before, value = value, add_card(value, card)
        return float(sum(settle(cards, hand, dealer, value, stake, split_hands) for cards, stake, hand in hands))

    return play_round


def _remembered_play(play: Strategy | ChartStrategy, first_move: Callable[[int, int, int], str]) -> tuple[
        _RememberedPlay, Callable[[int, int, int], str]]:
    """The moves of :func:`_round_play`, each answer kept: a simulator asks the same hands again in every
    round, and a play's move for a hand is always the same."""
    return _RememberedPlay(play), cache(first_move)


class _RememberedPlay:
    """A play's moves (:class:`~bjexact.player.game.Strategy`, :class:`~bjexact.player.policy.ChartStrategy`),
    each asked of it once per hand and up-card (and pair and hands on the table), then looked up."""

    def __init__(self, play: Strategy | ChartStrategy):
        self.split_move = cache(play.split_move)
        self.later_move = cache(play.later_move)
        self.continues_hitting = cache(play.continues_hitting)


def _remembered_settle(rules: GameRules) -> Callable[[list[int], HandValue, list[int], HandValue, int, bool], mpq]:
    """:meth:`GameRules.settle` of a finished hand (``value`` its cards' value) against the dealer's cards
    (``dealer_value`` their value), each answer kept: the result depends only on the hand's value and
    number of cards, the dealer's value and whether it holds two cards (a natural), the stake and whether
    the hand is split (kept by plain numbers: a tuple of them hashes quicker than hand values)."""
    found: dict[tuple[int, bool, int, int, bool, bool, int, bool], mpq] = {}

    def settle(cards: list[int], value: HandValue, dealer: list[int], dealer_value: HandValue, stake: int,
               split: bool) -> mpq:
        key = (value.total, value.soft, len(cards), dealer_value.total, dealer_value.soft, len(dealer) == 2, stake,
               split)
        result = found.get(key)
        if result is None:
            result = found[key] = rules.settle(cards, dealer, stake, split=split)
        return result
    return settle


def _doubles_after_hit(rules: GameRules, strategy: ChartPolicy | None) -> Callable[
        [tuple[int, ...], int | None, int], bool]:
    """The planted fault ``dah-allowed``: whether a hand of three or more cards (``pair``: split from
    that pair, else ``None``) doubles against the up-card, by the rules' chart (``strategy`` or the
    engine's own chart of the rules) read as if the rules allowed doubling after hitting: a D code for
    its total doubles where the double rule, and for a split hand DAS, allows it. (This is the candidate fault's own
    play: :mod:`bjexact.checks.round_causes` values it by that chart under those rules.)"""
    chart = strategy if strategy is not None else ChartPolicy.of_solution(_solution(rules))
    faulty = ChartStrategy(replace(rules, double_after_hit=True), chart)

    def doubles(hand: tuple[int, ...], pair: int | None, up: int) -> bool:
        move = faulty.later_move(hand, up) if pair is None else faulty.split_move(hand, up, pair)
        return move == "double"
    return doubles


def exact_round_simulator(rules: GameRules | None = None,
                          strategy: ChartPolicy | None = None) -> Callable[[random.Random], float]:
    """The reference round simulator (for ``check-sim --game --factory``; with ``--chart`` it is
    called with the chart too)."""
    return round_simulator(rules, strategy=strategy)


def assert_round_simulator_matches(
    play_round: Callable[[random.Random], Any],
    rules: GameRules | None = None,
    *,
    rounds: int | None = None,
    seed: int = 0,
    alpha: float | None = None,
    strategy: ChartPolicy | Any = None,
    **rule_options: Any,
) -> None:
    """Assert that a round simulator passes :func:`check_round_simulator` (rules: ``rules`` or
    :class:`~bjexact.core.rules.GameRules` of ``rule_options``, the infinite deck by default;
    ``strategy``: the chart it plays, as a :class:`~bjexact.player.policy.ChartPolicy`, a chart read by
    :func:`~bjexact.checks.charts.read_chart` or a chart file's path; optimal play by default).
    Too few rounds to test is a failure too, never a pass."""
    if rules is None:
        rules = GameRules(**({"decks": "inf"} | rule_options))
    elif rule_options:
        raise TypeError("give rules or rule options, not both")
    try:
        chart = None if strategy is None else chart_policy(strategy)
        check = check_round_simulator(play_round, rules, rounds=rounds, seed=seed,
                                      alpha=DEFAULT_ALPHA if alpha is None else alpha, strategy=chart)
    except BjexactError as exc:
        raise AssertionError(f"the simulator cannot be checked: {exc}") from None
    if not check.passed:
        raise AssertionError("the simulator's rounds disagree with the exact distribution of net results:\n"
                             + format_round_check(check))
