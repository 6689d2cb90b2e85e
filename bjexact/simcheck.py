"""Statistical checks of floating-point simulators against the exact distributions.

The dealer protocol
    A dealer simulator is any callable ``dealer_outcome(upcard, rng) -> outcome``:

    * ``upcard`` is an ``int`` rank, 1 for the ace, 2..9, and 10 for any ten-valued card;
    * ``rng`` is a :class:`random.Random`, seeded by the checker: draw every random
      number from it (a numpy user can seed ``numpy.random.default_rng(rng.getrandbits(64))``)
      and the check is reproducible;
    * each call is one independent round: the dealer holds ``upcard`` and plays out
      the hand from a full shoe of the rules (a fresh shoe each round, the up-card
      already taken out of it), hitting below 17 and on soft 17 under H17;
    * the result is the final outcome: ``"17"`` .. ``"21"``, ``"bust"``, or
      ``"blackjack"`` for a natural (ace and ten-valued card as the first two cards).
      Totals are accepted too: an int 17..21, and any int above 21 for a bust.

    Under ``naturals="as21"`` a reported ``"blackjack"`` counts as a 21; under
    ``separate`` it is its own outcome; under ``peek`` rounds that end in a natural are
    left out, because the exact table is conditioned on the dealer having none.

The test
    Rounds are split evenly over the up-cards. For each up-card the counts of outcomes
    are compared with the exact probabilities by Pearson's chi-square goodness of fit
    (outcomes with an expected count below 5 are pooled); p-values come from the
    regularised upper incomplete gamma function of mpmath (which sympy depends on).
    The ten p-values are Holm-corrected, which keeps the chance of a false alarm on a
    correct simulator at most ``alpha`` over all up-cards together. An outcome the
    exact rules make impossible fails its up-card at once.

Power
    A simulator whose distribution differs from the exact one by ``p1 - p0`` is
    caught with probability given by the noncentral chi-square with noncentrality
    ``n * sum((p1 - p0)**2 / p0)``. :func:`rounds_to_detect` inverts that:
    how many rounds per up-card find a given bias with the asked power.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from .cards import ACE, TEN, rank_symbol
from .errors import BjexactError
from .exact import fraction_string, mpq
from .rules import Rules

__all__ = [
    "DEFAULT_ROUNDS",
    "DEFAULT_ALPHA",
    "UPCARDS",
    "outcome_label",
    "chi2_sf",
    "chi2_isf",
    "holm",
    "UpcardTest",
    "SimulatorCheck",
    "check_dealer_simulator",
    "noncentral_chi2_sf",
    "required_noncentrality",
    "rounds_to_detect",
    "rounds_to_detect_shift",
    "exact_dealer_simulator",
    "slipped_dealer_simulator",
    "format_simulator_check",
]

DEFAULT_ROUNDS = 200_000
DEFAULT_ALPHA = 0.01
UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, TEN, ACE)
MIN_EXPECTED = 5.0

_LABELS = {
    **{str(t): str(t) for t in range(17, 22)},
    "bust": "bust", "busted": "bust", "busts": "bust", ">21": "bust",
    "blackjack": "blackjack", "bj": "blackjack", "natural": "blackjack",
    "exhausted": "exhausted",
}


def outcome_label(value: Any) -> str:
    """The canonical outcome of a simulator's answer (see the module docstring)."""
    if isinstance(value, bool):
        raise BjexactError(f"a simulator returned {value!r}, not an outcome (17..21, bust, blackjack)")
    if isinstance(value, int) or (hasattr(value, "__index__") and not isinstance(value, str)):
        total = int(value)
        if total > 21:
            return "bust"
        if 17 <= total <= 21:
            return str(total)
    elif isinstance(value, str) and value.strip().lower() in _LABELS:
        return _LABELS[value.strip().lower()]
    raise BjexactError(
        f"a simulator returned {value!r}, not an outcome (17..21, bust, blackjack, or a total)"
    )


# --- distributions -----------------------------------------------------------------------------------------


def chi2_sf(statistic: float, df: int) -> float:
    """P(X >= statistic) for X chi-square with ``df`` degrees of freedom (mpmath, regularised gamma)."""
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


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


def _wilson(successes: int, n: int, z: float) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _normal_quantile(q: float) -> float:
    """The standard normal quantile (inverse of the CDF), by bisection on erfc."""
    lo, hi = -40.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(-mid / math.sqrt(2)) < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


# --- the check ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UpcardTest:
    """The goodness of fit for one up-card: observed counts against the exact probabilities."""

    upcard: int
    rounds: int
    counts: Mapping[str, int]
    exact: Mapping[str, mpq]
    statistic: float
    df: int
    p_value: float
    adjusted_p: float
    impossible: tuple[str, ...]
    discarded: int = 0

    def passed(self, alpha: float) -> bool:
        return self.adjusted_p >= alpha

    def residuals(self) -> dict[str, float]:
        """Standardised residuals (observed - expected) / sqrt(expected) per outcome."""
        out = {}
        for outcome, p in self.exact.items():
            expected = float(p) * self.rounds
            if expected > 0:
                out[outcome] = (self.counts.get(outcome, 0) - expected) / math.sqrt(expected)
        return out

    def intervals(self, confidence: float) -> dict[str, tuple[float, float]]:
        """Wilson confidence intervals for each outcome's probability."""
        z = _normal_quantile(0.5 + confidence / 2)
        return {o: _wilson(self.counts.get(o, 0), self.rounds, z) for o in self.exact}

    def to_json(self, alpha: float) -> dict[str, Any]:
        intervals = self.intervals(1 - alpha)
        return {
            "upcard": rank_symbol(self.upcard),
            "rounds": self.rounds,
            "discarded_naturals": self.discarded,
            "chi_square": self.statistic,
            "df": self.df,
            "p_value": self.p_value,
            "holm_p_value": self.adjusted_p,
            "passed": self.passed(alpha),
            "impossible_outcomes_seen": list(self.impossible),
            "outcomes": {
                o: {
                    "observed": self.counts.get(o, 0),
                    "frequency": self.counts.get(o, 0) / self.rounds if self.rounds else None,
                    "exact": fraction_string(p),
                    "exact_decimal": float(p),
                    "interval": list(intervals[o]),
                }
                for o, p in self.exact.items()
            },
        }


@dataclass(frozen=True)
class SimulatorCheck:
    """The verdict on a simulator: one test per up-card, Holm-corrected at level ``alpha``."""

    rules: Rules
    rounds: int
    seed: int
    alpha: float
    tests: tuple[UpcardTest, ...]

    @property
    def passed(self) -> bool:
        return all(t.passed(self.alpha) for t in self.tests)

    @property
    def failed(self) -> tuple[UpcardTest, ...]:
        return tuple(t for t in self.tests if not t.passed(self.alpha))

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "rules": self.rules.to_json(),
            "rounds": self.rounds,
            "seed": self.seed,
            "alpha": self.alpha,
            "failed_upcards": [rank_symbol(t.upcard) for t in self.failed],
            "upcards": [t.to_json(self.alpha) for t in self.tests],
        }


def _exact_rows(rules: Rules) -> dict[int, dict[str, mpq]]:
    from .verify import _cached_table

    table = _cached_table(rules)
    return {u: dict(row) for u, row in table.rows.items()}


def goodness_of_fit(
    counts: Mapping[str, int], exact: Mapping[str, mpq]
) -> tuple[float, int, tuple[str, ...]]:
    """Pearson's statistic, its degrees of freedom and the impossible outcomes seen.

    Outcomes whose expected count is below 5 are pooled into one cell (when the pool is
    still below 5 it joins the smallest other cell).
    """
    n = sum(counts.values())
    impossible = tuple(o for o, c in counts.items() if c and not exact.get(o))
    cells = [(float(p) * n, counts.get(o, 0)) for o, p in exact.items() if p]
    big = [c for c in cells if c[0] >= MIN_EXPECTED]
    small = [c for c in cells if c[0] < MIN_EXPECTED]
    if small:
        pooled = (sum(e for e, _ in small), sum(k for _, k in small))
        if pooled[0] < MIN_EXPECTED and big:
            big.sort()
            first = big.pop(0)
            pooled = (pooled[0] + first[0], pooled[1] + first[1])
        big.append(pooled)
    statistic = sum((k - e) ** 2 / e for e, k in big if e > 0)
    return statistic, max(len(big) - 1, 0), impossible


def check_dealer_simulator(
    dealer_outcome: Callable[[int, random.Random], Any],
    rules: Rules | None = None,
    *,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 0,
    alpha: float = DEFAULT_ALPHA,
    upcards: Iterable[int] | None = None,
) -> SimulatorCheck:
    """Run ``rounds`` rounds of ``dealer_outcome`` (split evenly over the up-cards) and test them.

    Each up-card gets its own ``random.Random`` seeded from ``seed`` and the up-card, so
    a result does not depend on the order of the up-cards.
    """
    rules = rules or Rules()
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise BjexactError(f"the number of rounds must be a whole number >= 1, not {rounds!r}")
    if not 0 < alpha < 1:
        raise BjexactError(f"alpha must be between 0 and 1, not {alpha!r}")
    exact_rows = _exact_rows(rules)
    chosen = [u for u in (UPCARDS if upcards is None else tuple(upcards)) if u in exact_rows]
    if not chosen:
        raise BjexactError("no up-card to test: the shoe holds none of those asked")
    per_upcard = rounds // len(chosen)
    if per_upcard < 1:
        raise BjexactError(f"{rounds} rounds cannot cover {len(chosen)} up-cards")
    raw = []
    for upcard in chosen:
        rng = random.Random(seed * 1_000_003 + upcard)
        counts: Counter[str] = Counter()
        discarded = 0
        for _ in range(per_upcard):
            label = outcome_label(dealer_outcome(upcard, rng))
            if label == "blackjack" and rules.naturals == "as21":
                label = "21"
            elif label == "blackjack" and rules.naturals == "peek":
                discarded += 1
                continue
            counts[label] += 1
        exact = exact_rows[upcard]
        statistic, df, impossible = goodness_of_fit(counts, exact)
        p = 0.0 if impossible else chi2_sf(statistic, df)
        n = sum(counts.values())
        raw.append((upcard, n, dict(counts), exact, statistic, df, p, impossible, discarded))
    adjusted = holm([r[6] for r in raw])
    tests = tuple(
        UpcardTest(u, n, c, e, s, df, p, a, imp, disc)
        for (u, n, c, e, s, df, p, imp, disc), a in zip(raw, adjusted, strict=True)
    )
    return SimulatorCheck(rules, per_upcard * len(chosen), seed, alpha, tests)


# --- power -------------------------------------------------------------------------------------------------


def _noncentrality_per_round(exact: Mapping[str, Any], alternative: Mapping[str, Any]) -> float:
    total = 0.0
    for outcome in set(exact) | set(alternative):
        p0 = float(exact.get(outcome, 0))
        p1 = float(alternative.get(outcome, 0))
        if p0 == 0:
            if p1 > 0:
                return math.inf
            continue
        total += (p1 - p0) ** 2 / p0
    return total


def rounds_to_detect(
    exact: Mapping[str, Any],
    alternative: Mapping[str, Any],
    *,
    alpha: float = DEFAULT_ALPHA,
    power: float = 0.9,
    tests: int = len(UPCARDS),
) -> int | None:
    """Rounds of one up-card after which a simulator following ``alternative`` fails with ``power``.

    The level is ``alpha / tests`` (Holm's first step, a Bonferroni bound), the test
    Pearson's chi-square with one degree of freedom fewer than the outcomes. ``None``
    when the two distributions are equal. An impossible outcome given positive
    probability is found in about ``1 / p`` rounds; that case returns the rounds after
    which it has been seen with ``power``.
    """
    per_round = _noncentrality_per_round(exact, alternative)
    if per_round == 0:
        return None
    if math.isinf(per_round):
        p = sum(float(v) for o, v in alternative.items() if not exact.get(o))
        return math.ceil(math.log(1 - power) / math.log(1 - p))
    df = sum(1 for v in exact.values() if v) - 1
    return math.ceil(required_noncentrality(df, alpha / tests, power) / per_round)


@cache
def required_noncentrality(df: int, level: float, power: float) -> float:
    """The noncentrality at which a chi-square test at ``level`` rejects with probability ``power``."""
    critical = chi2_isf(level, df)
    lo, hi = 0.0, 1.0
    while noncentral_chi2_sf(critical, df, hi) < power:
        hi *= 2
    for _ in range(100):
        mid = (lo + hi) / 2
        if noncentral_chi2_sf(critical, df, mid) < power:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-7 * hi:
            break
    return hi


def rounds_to_detect_shift(
    exact: Mapping[str, Any], shift: float, *, alpha: float = DEFAULT_ALPHA, power: float = 0.9,
    tests: int = len(UPCARDS),
) -> int:
    """Rounds of one up-card that detect ``shift`` of probability moved between two outcomes.

    The worst case: the shift between the two likeliest outcomes, where it is hardest to see.
    """
    likely = sorted(((float(p), o) for o, p in exact.items() if p), reverse=True)
    if len(likely) < 2:
        raise BjexactError("an up-card with a single possible outcome has no shift to detect")
    (p_a, a), (p_b, b) = likely[:2]
    if not 0 < shift <= p_a:
        raise BjexactError(f"the shift must be between 0 and {p_a:.4g}, not {shift!r}")
    alternative = {o: float(p) for o, p in exact.items()}
    alternative[a] -= shift
    alternative[b] += shift
    result = rounds_to_detect(exact, alternative, alpha=alpha, power=power, tests=tests)
    assert result is not None
    return result


# --- reference simulators ----------------------------------------------------------------------------------


def _make_simulator(rules: Rules, add) -> Callable[[int, random.Random], str]:
    """A plain floating-point dealer simulator using ``add`` as its ace rule (for tests and demos)."""
    from .hand import EMPTY_HAND

    shoe = rules.make_shoe()
    if shoe.is_infinite:
        population = [r for r in range(1, 11) for _ in range(4 if r == TEN else 1)]
    else:
        population = [r for r in range(1, 11) for _ in range(shoe.counts[r - 1])]

    def dealer_outcome(upcard: int, rng: random.Random) -> str:
        if shoe.is_infinite:
            draw = lambda: rng.choice(population)  # noqa: E731
        else:
            cards = list(population)
            cards.remove(upcard)
            draw = lambda: cards.pop(rng.randrange(len(cards)))  # noqa: E731
        hand = add(EMPTY_HAND, upcard)
        hole = draw()
        hand = add(hand, hole)
        if hand.total == 21:
            return "blackjack"
        while not rules.dealer_stands(hand) and not hand.bust:
            hand = add(hand, draw())
        return "bust" if hand.bust else str(hand.total)

    return dealer_outcome


def exact_dealer_simulator(rules: Rules | None = None) -> Callable[[int, random.Random], str]:
    """A correct Monte Carlo dealer following the protocol: the reference a good simulator matches."""
    from .hand import add_card

    return _make_simulator(rules or Rules(), add_card)


def slipped_dealer_simulator(rules: Rules | None = None, slip: str = "soft-ace-becomes-hard"):
    """A Monte Carlo dealer with a known slip (see :data:`bjexact.verify.KNOWN_SLIPS`)."""
    from .verify import KNOWN_SLIPS

    try:
        add = KNOWN_SLIPS[slip].add_card
    except KeyError:
        raise BjexactError(f"unknown slip {slip!r} (known: {', '.join(KNOWN_SLIPS)})") from None
    return _make_simulator(rules or Rules(), add)


# --- report ------------------------------------------------------------------------------------------------


def format_simulator_check(check: SimulatorCheck, *, shift: float | None = 0.005, power: float = 0.9) -> str:
    """A report: one line per up-card, the outcomes behind each failure, a verdict, and the power."""
    per = check.tests[0].rounds if check.tests else 0
    lines = [f"Simulator checked against the exact dealer distribution for {check.rules.describe()}",
             f"{check.rounds} rounds ({per} per up-card, seed {check.seed}); chi-square goodness of fit per "
             f"up-card, Holm-corrected at level {check.alpha:g}", ""]
    lines.append("up-card  rounds  chi-square  df   p-value  Holm p  verdict")
    for t in check.tests:
        verdict = "ok" if t.passed(check.alpha) else "FAIL"
        lines.append(f"{rank_symbol(t.upcard):<7}  {t.rounds:>6}  {t.statistic:>10.2f}  {t.df:>2}  "
                     f"{t.p_value:>8.2g}  {t.adjusted_p:>6.2g}  {verdict}")
    for t in check.failed:
        lines += ["", f"Up-card {rank_symbol(t.upcard)}: observed vs exact (with {1 - check.alpha:.0%} "
                  "Wilson intervals):"]
        if t.impossible:
            lines.append("  outcomes that cannot happen under these rules were reported: "
                         + ", ".join(t.impossible))
        residuals = t.residuals()
        intervals = t.intervals(1 - check.alpha)
        for outcome, p in t.exact.items():
            observed = t.counts.get(outcome, 0) / t.rounds if t.rounds else 0.0
            lo, hi = intervals[outcome]
            flag = "  <--" if not lo <= float(p) <= hi else ""
            lines.append(f"  {outcome:>9}: observed {observed:.5f} [{lo:.5f}, {hi:.5f}], "
                         f"exact {float(p):.5f}, residual {residuals.get(outcome, 0.0):+.1f}{flag}")
    lines.append("")
    if check.passed:
        lines.append("Verdict: PASS. No up-card's distribution differs from the exact one at this level. "
                     "A pass is not a proof: any difference is too small to see in this many rounds.")
    else:
        bad = ", ".join(rank_symbol(t.upcard) for t in check.failed)
        lines.append(f"Verdict: FAIL for up-card(s) {bad}. With a correct simulator this happens with "
                     f"probability below {check.alpha:g}: the simulator's dealer does not follow these rules "
                     "(check the ace rule, the soft-17 rule, the naturals convention and the shoe).")
    if shift and check.tests:
        m = len(check.tests)
        needs = {t.upcard: rounds_to_detect_shift(t.exact, shift, alpha=check.alpha, power=power, tests=m)
                 for t in check.tests}
        worst = max(needs, key=needs.__getitem__)
        need = needs[worst]
        lines.append(f"Power: a bias of {shift:g} in probability moved between two outcomes is caught with "
                     f"probability {power:.0%} after {need} rounds per up-card ({need * m} in all; worst "
                     f"case: up-card {rank_symbol(worst)}, between its two likeliest outcomes).")
    return "\n".join(lines) + "\n"
