"""The statistics of the whole-round check: per-outcome tests, their power, and a sequential plan.

Per-outcome tests
    Each outcome of the round's net result whose expected count and complement are at least
    :data:`~bjexact.checks.simulators.MIN_EXPECTED` gets a two-sided binomial test of its
    count against the exact probability, by the normal approximation: the residual
    ``z = (k - n p) / sqrt(n p (1 - p))`` and ``p = erfc(|z| / sqrt 2)``. These, Pearson's
    chi-square over all outcomes, the z test of the mean and the directed tests of the candidate
    faults (:mod:`bjexact.checks.round_causes`) form one family, Holm-corrected with weights:
    each test weighs 1 but the directed tests of quick faults, which share one unit. Weighted
    Holm keeps the family's error rate for any weights fixed before the counts (here they depend
    on the rules alone), as plain Holm does.

Power
    A shift ``d`` of one outcome's probability (compensated anywhere) moves its residual by
    ``d sqrt(n / (p (1 - p)))``; at Holm's first step (weighted Bonferroni: level ``a / m``
    for a test of weight 1 in a family of total weight ``m``) it is caught with probability
    ``power`` once that reaches ``z(1 - a / (2 m)) + z(power)``. :func:`detectable_shift` and :func:`rounds_for_shift`
    solve that for ``d`` and for ``n``; both ignore the other tests of the family, which can
    only add rejections, so the power they state is a lower bound.

Sequential plan
    The rounds are looked at :data:`LOOKS` times, at equal fractions ``t`` of the planned
    rounds; the run stops at the first look whose family rejects. The error rate is kept by
    alpha spending: the family at look ``k`` is tested at level ``alpha * (t_k**3 - t_(k-1)**3)``
    (an O'Brien-Fleming-like spending function). By the union bound, the chance that a
    correct simulator fails at some look is at most ``alpha``; the last look gets the
    largest share (``alpha * 37 / 64`` with four looks), and the planned rounds are chosen
    so that it alone has the power asked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from .simulators import MIN_EXPECTED
from .stats import normal_quantile

__all__ = ["LOOKS", "DEFAULT_SHIFT", "DEFAULT_POWER", "look_levels", "testable", "outcome_residual",
           "two_sided_p", "family_size", "detectable_shift", "rounds_for_shift"]

LOOKS = 4
DEFAULT_SHIFT = 0.002  # a shift of 0.2 percentage points in any outcome's probability
DEFAULT_POWER = 0.9
MAX_PLANNED_ROUNDS = 100_000_000


def look_levels(alpha: float, looks: int = LOOKS) -> list[float]:
    """The level each look is tested at: ``alpha * ((k / looks)**3 - ((k - 1) / looks)**3)``; they sum to alpha.

    >>> [round(a / 0.01, 4) for a in look_levels(0.01)]
    [0.0156, 0.1094, 0.2969, 0.5781]
    """
    return [alpha * ((k / looks) ** 3 - ((k - 1) / looks) ** 3) for k in range(1, looks + 1)]


def testable(p: float, rounds: int) -> bool:
    """Whether an outcome of probability ``p`` gets its own test after ``rounds`` rounds."""
    return p * rounds >= MIN_EXPECTED and (1 - p) * rounds >= MIN_EXPECTED


def outcome_residual(count: int, p: float, rounds: int) -> float:
    """(observed - expected) in standard deviations of the binomial count."""
    spread = math.sqrt(rounds * p * (1 - p))
    return (count - rounds * p) / spread if spread > 0 else 0.0


def two_sided_p(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def family_size(exact: Mapping[str, Any], rounds: int) -> int:
    """The tests of the family after ``rounds`` rounds: the testable outcomes, the chi-square and the mean."""
    return sum(1 for p in exact.values() if testable(float(p), rounds)) + 2


def _needed_z(level: float, tests: float, power: float) -> float:
    return normal_quantile(1 - level / (2 * tests)) + normal_quantile(power)


def detectable_shift(p: float, rounds: int, *, level: float, tests: float, power: float = DEFAULT_POWER) -> float:
    """The smallest shift of an outcome's probability ``p`` that ``rounds`` rounds catch with ``power``
    at ``level`` among ``tests`` tests, or a family of that total weight (Holm's first step)."""
    return _needed_z(level, tests, power) * math.sqrt(p * (1 - p) / rounds)


def rounds_for_shift(exact: Mapping[str, Any], shift: float, *, alpha: float, power: float = DEFAULT_POWER,
                     looks: int = LOOKS) -> int:
    """The planned rounds whose last look alone catches a shift ``shift`` of any outcome's probability
    with ``power`` (the worst outcome: the one whose probability is nearest one half)."""
    level = look_levels(alpha, looks)[-1]
    probabilities: Sequence[float] = [float(p) for p in exact.values() if 0 < p < 1]
    if not probabilities:
        return 1
    n = 1000
    for _ in range(8):  # the family grows with the rounds: iterate to a fixed point
        tests = family_size(exact, n)
        z = _needed_z(level, tests, power)
        worst = max(p * (1 - p) for p in probabilities)
        new = min(MAX_PLANNED_ROUNDS, math.ceil(z * z * worst / (shift * shift)))
        if new == n:
            break
        n = new
    return n
