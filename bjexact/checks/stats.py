"""The statistics of the checks: chi-square tails (central and noncentral), Holm's correction.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["chi2_sf", "chi2_isf", "noncentral_chi2_sf", "holm"]


# --- distributions -----------------------------------------------------------------------------------------


def chi2_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom (mpmath, regularised gamma).

    >>> round(chi2_sf(3.841458820694124, 1), 12)   # the 5 % critical value of one degree of freedom
    0.05
    """
    import mpmath

    if df <= 0:
        return 1.0
    if statistic <= 0:
        return 1.0
    return float(mpmath.gammainc(mpmath.mpf(df) / 2, mpmath.mpf(statistic) / 2, mpmath.inf, regularized=True))


def chi2_isf(alpha: float, df: int) -> float:
    """The critical value c with P(X >= c) = ``alpha`` (bisection on :func:`chi2_sf`)."""
    lo, hi = 0.0, max(10.0, 2.0 * df)
    while chi2_sf(hi, df) > alpha:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if chi2_sf(mid, df) > alpha:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-10 * hi:
            break
    return hi


def noncentral_chi2_sf(statistic: float, df: int, noncentrality: float) -> float:
    """P(X >= statistic) for the noncentral chi-square: a Poisson(λ/2) mixture of central ones.

    The central terms follow from one regularised gamma value by the recurrence
    ``Q(a + 1, x) = Q(a, x) + x**a * exp(-x) / Gamma(a + 1)``.
    """
    half = noncentrality / 2
    if half <= 0:
        return chi2_sf(statistic, df)
    a, x = df / 2, statistic / 2
    q = chi2_sf(statistic, df)
    last = int(half + 12 * math.sqrt(half) + 30)
    total = 0.0
    for j in range(last + 1):
        weight = math.exp(-half + j * math.log(half) - math.lgamma(j + 1))
        total += weight * q
        if x > 0:
            q = min(1.0, q + math.exp((a + j) * math.log(x) - x - math.lgamma(a + j + 1)))
        else:
            q = 1.0
    return min(1.0, total)


def holm(p_values: Sequence[float], weights: Sequence[float] | None = None) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given; with ``weights``, Holm's weighted
    step-down (Holm 1979): each p-value is divided by its weight, the smallest ratio is multiplied by
    the weights of all the tests, the next by those of the tests left, ...; a test is rejected at level
    ``a`` when its adjusted value is below ``a``. Weights fixed before the data keep the chance of any
    false rejection below ``a``, whatever the weights (all 1: the plain Holm procedure); a test of
    weight ``w`` among weights summing to ``W`` is tested at ``a w / W`` at the first step.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    >>> holm([0.01, 0.04, 0.03], [2.0, 0.5, 0.5])
    [0.015, 0.06, 0.06]
    """
    m = len(p_values)
    w = [1.0] * m if weights is None else [float(x) for x in weights]
    if len(w) != m or any(x <= 0 for x in w):
        raise ValueError("Holm's weights: one positive weight per p-value")
    order = sorted(range(m), key=lambda i: p_values[i] / w[i])
    adjusted = [0.0] * m
    running, left = 0.0, sum(w)
    for i in order:
        running = max(running, min(1.0, left * p_values[i] / w[i]))
        adjusted[i] = running
        left -= w[i]
    return adjusted


def wilson(successes: int, n: int, z: float) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def normal_quantile(q: float) -> float:
    """The standard normal quantile (inverse of the CDF), by bisection on erfc."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2
