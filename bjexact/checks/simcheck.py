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
    The p-values are Holm-corrected, which keeps the chance of a false alarm on a
    correct simulator at most ``alpha`` over all up-cards together. An outcome the
    exact rules make impossible fails its up-card at once.

    Too few rounds: when pooling leaves a single cell (every expected count below 5)
    there is no degree of freedom and nothing is tested. Such an up-card is *untested*,
    never a pass; the check says how many rounds a test needs
    (:func:`rounds_for_a_test`) and its verdict is neither PASS nor FAIL.

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
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ..core.cards import ACE, TEN, rank_symbol
from ..core.numbers import fraction_string, mpq
from ..core.rules import Rules
from ..errors import BjexactError

__all__ = [
    "DEFAULT_ROUNDS",
    "DEFAULT_ALPHA",
    "UPCARDS",
    "outcome_label",
    "chi2_sf",
    "chi2_isf",
    "holm",
    "goodness_of_fit",
    "rounds_for_a_test",
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
    "GYM_RULES",
    "stick_on_20",
    "optimal_gym_policy",
    "gym_observations",
    "gym_results",
    "gym_start_results",
    "gym_start_distribution",
    "gym_values",
    "gym_game_value",
    "GymCheck",
    "check_gym_blackjack",
    "format_gym_check",
    "gym_dealer_outcome",
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
    needed: int = 0  # simulated rounds of this up-card a test needs (0: no test is possible)

    @property
    def tested(self) -> bool:
        """Whether the counts were tested: some degree of freedom, an impossible outcome
        seen, or a single possible outcome (then anything else is impossible)."""
        return self.df > 0 or bool(self.impossible) or sum(1 for p in self.exact.values() if p) <= 1

    def passed(self, alpha: float) -> bool:
        return self.tested and self.adjusted_p >= alpha

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
            "tested": self.tested,
            "rounds_needed": self.needed,
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
        return tuple(t for t in self.tests if t.tested and not t.passed(self.alpha))

    @property
    def untested(self) -> tuple[UpcardTest, ...]:
        """Up-cards with too few rounds for a test (see :func:`rounds_for_a_test`)."""
        return tuple(t for t in self.tests if not t.tested)

    @property
    def verdict(self) -> str:
        """``"pass"``, ``"fail"`` (some up-card fails) or ``"too few rounds"`` (none fails, some untested)."""
        return "fail" if self.failed else "too few rounds" if self.untested else "pass"

    @property
    def rounds_needed(self) -> int:
        """Rounds in all (split evenly) after which every up-card can be tested."""
        return max((t.needed for t in self.tests), default=0) * len(self.tests)

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "verdict": self.verdict,
            "untested_upcards": [rank_symbol(t.upcard) for t in self.untested],
            "rounds_needed": self.rounds_needed,
            "rules": self.rules.to_json(),
            "rounds": self.rounds,
            "seed": self.seed,
            "alpha": self.alpha,
            "failed_upcards": [rank_symbol(t.upcard) for t in self.failed],
            "upcards": [t.to_json(self.alpha) for t in self.tests],
        }


def _exact_rows(rules: Rules) -> dict[int, dict[str, mpq]]:
    from .verify import cached_dealer_table

    table = cached_dealer_table(rules)
    return {u: dict(row) for u, row in table.rows.items()}


def rounds_for_a_test(exact: Mapping[str, Any]) -> int | None:
    """The fewest counted rounds after which :func:`goodness_of_fit` has a degree of freedom.

    Pooling leaves at least two cells once two outcomes expect 5 each, or the likeliest
    outcome and the pool of the others do. ``None`` when fewer than two outcomes are possible.
    """
    probabilities = [mpq(p) for p in exact.values() if p]
    if len(probabilities) < 2:
        return None
    candidates = {int(math.ceil(MIN_EXPECTED / p)) for p in probabilities}
    candidates |= {int(math.ceil(MIN_EXPECTED / (1 - p))) for p in probabilities if p < 1}
    for n in sorted(candidates):
        for m in (n, n + 1):  # the pooling compares floats: allow for their rounding
            if goodness_of_fit({}, exact, rounds=m)[1] > 0:
                return m
    return None  # unreachable: the largest candidate makes every outcome a cell


def _natural_chance(rules: Rules, upcard: int) -> mpq:
    """P(the dealer's hole card makes a natural | ``upcard``) in the full shoe of ``rules``."""
    from ..core.cards import counts_of
    from ..core.hand import no_natural_chance

    shoe = rules.make_shoe()
    if shoe.is_infinite:
        return 1 - no_natural_chance((1,) * 9 + (4,), upcard)
    unseen = tuple(c - d for c, d in zip(shoe.counts, counts_of([upcard]), strict=True))
    return 1 - no_natural_chance(unseen, upcard)


def _simulated_rounds_needed(rules: Rules, upcard: int, exact: Mapping[str, mpq]) -> int:
    """Rounds of ``upcard`` to simulate for a test (under peek, naturals are discarded); 0: never."""
    counted = rounds_for_a_test(exact)
    if counted is None:
        return 0
    if rules.naturals != "peek":
        return counted
    return int(math.ceil(counted / (1 - _natural_chance(rules, upcard))))


def goodness_of_fit(
    counts: Mapping[str, int], exact: Mapping[str, mpq], *, rounds: int | None = None
) -> tuple[float, int, tuple[str, ...]]:
    """Pearson's statistic, its degrees of freedom and the impossible outcomes seen.

    Outcomes whose expected count is below 5 are pooled into one cell (when the pool is
    still below 5 it joins the smallest other cell). Degrees of freedom 0 (a single
    cell) mean nothing is tested. ``rounds``: the number of rounds, when not the sum of
    ``counts`` (for asking what a number of rounds would allow).
    """
    n = sum(counts.values()) if rounds is None else rounds
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
            label = outcome_label(_call_simulator(dealer_outcome, upcard, rng))
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
        needed = _simulated_rounds_needed(rules, upcard, exact)
        raw.append(UpcardTest(upcard, n, dict(counts), exact, statistic, df, p, p, impossible, discarded, needed))
    tests = _holm_tested(raw, lambda t, a: replace(t, adjusted_p=a))
    return SimulatorCheck(rules, per_upcard * len(chosen), seed, alpha, tests)


def _holm_tested(items: Sequence[Any], adjust: Callable[[Any, float], Any]) -> tuple[Any, ...]:
    """Holm's correction over the items that were tested (``.tested``, ``.p_value``); the others keep p."""
    tested = [i for i, t in enumerate(items) if t.tested]
    adjusted = dict(zip(tested, holm([items[i].p_value for i in tested]), strict=True))
    return tuple(adjust(t, adjusted[i]) if i in adjusted else t for i, t in enumerate(items))


def _call_simulator(dealer_outcome: Callable[[int, random.Random], Any], upcard: int, rng: random.Random) -> Any:
    """One round of the user's simulator; an exception in it becomes one line naming it and the up-card."""
    try:
        return dealer_outcome(upcard, rng)
    except Exception as exc:  # the user's code failed: say where, in one line
        name = getattr(dealer_outcome, "__qualname__", None) or type(dealer_outcome).__name__
        module = getattr(dealer_outcome, "__module__", None)
        where = f"{module}.{name}" if module and module not in ("__main__", "builtins") else name
        raise BjexactError(f"the simulator {where} raised {type(exc).__name__} for up-card "
                           f"{rank_symbol(upcard)}: {exc}") from None


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
    from ..core.hand import EMPTY_HAND

    shoe = rules.make_shoe()
    if shoe.is_infinite:
        population = [r for r in range(1, 11) for _ in range(4 if r == TEN else 1)]
    else:
        population = [r for r in range(1, 11) for _ in range(shoe.counts[r - 1])]

    rest: dict[int, list[int]] = {}  # the shoe less the up-card, per up-card

    def dealer_outcome(upcard: int, rng: random.Random) -> str:
        if shoe.is_infinite:
            cards = iter(lambda: rng.choice(population), None)
        else:
            if upcard not in rest:
                rest[upcard] = list(population)
                rest[upcard].remove(upcard)
            cards = _without_replacement(rest[upcard], rng)
        hand = add(add(EMPTY_HAND, upcard), next(cards))
        if hand.total == 21:
            return "blackjack"
        while not rules.dealer_stands(hand) and not hand.bust:
            card = next(cards, None)
            if card is None:
                return "exhausted"
            hand = add(hand, card)
        return "bust" if hand.bust else str(hand.total)

    return dealer_outcome


def _without_replacement(cards: list[int], rng: random.Random):
    """Draw from ``cards`` without replacement: uniform positions, drawn ones rejected."""
    used: set[int] = set()
    n = len(cards)
    while len(used) < n:
        position = rng.randrange(n)
        if position not in used:
            used.add(position)
            yield cards[position]


def exact_dealer_simulator(rules: Rules | None = None) -> Callable[[int, random.Random], str]:
    """A correct Monte Carlo dealer following the protocol: the reference a good simulator matches."""
    from ..core.hand import add_card

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
        verdict = "ok" if t.passed(check.alpha) else "FAIL" if t.tested else "untested"
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
    if check.verdict == "too few rounds":
        bad = ", ".join(rank_symbol(t.upcard) for t in check.untested)
        lines.append(f"Verdict: NOT TESTED: too few rounds for up-card(s) {bad} (every expected count is "
                     f"below {MIN_EXPECTED:g}, so no degree of freedom is left). Run at least "
                     f"{check.rounds_needed} rounds ({max(t.needed for t in check.tests)} per up-card).")
    elif check.passed:
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


# --- gymnasium's Blackjack-v1 ------------------------------------------------------------------------------
#
# Its rules: cards drawn with replacement (the infinite deck), the dealer stands on all 17s, no
# peek (a dealer natural is a 21 that pushes against any player 21), a player over 21 loses at
# once, ties push. Observations are (player sum, dealer up-card 1..10, usable ace 0/1); action 1
# hits, 0 sticks. Options: natural=True pays 1.5 when a starting natural wins (it pushes against
# any dealer 21); sab=True (Sutton and Barto) makes a starting natural win 1 unless the dealer
# also has a natural, which pushes.

GYM_RULES = Rules(decks="inf", h17=False, naturals="as21")
GYM_RESULTS = ("natural", "win", "push", "loss")
GYM_REWARDS = {"natural": 1.5, "win": 1.0, "push": 0.0, "loss": -1.0}
Observation = tuple[int, int, int]
GymPolicy = Callable[[Observation], int]


def stick_on_20(observation: Observation) -> int:
    """The textbook fixed policy (Sutton and Barto, example 5.1): stick only on 20 or 21."""
    return 0 if observation[0] >= 20 else 1


def optimal_gym_policy() -> GymPolicy:
    """The exact optimal hit/stand policy under gymnasium's rules (ties go to sticking)."""
    from ..player.solver import solve_infinite

    solution = solve_infinite(GYM_RULES)
    moves = {(s.total, s.upcard, int(s.soft)): int(v.best == "hit") for s, v in solution.positions.items()}

    def policy(observation: Observation) -> int:
        return moves[(int(observation[0]), int(observation[1]), int(observation[2]))]

    return policy


def gym_observations() -> tuple[Observation, ...]:
    """Every observation a player can be in: hard 4-21 and soft 12-21 against up-cards 1..10."""
    hands = [(t, 0) for t in range(4, 22)] + [(t, 1) for t in range(12, 22)]
    return tuple((t, d, u) for t, u in hands for d in range(1, 11))


def gym_results(policy: GymPolicy) -> dict[Observation, dict[str, mpq]]:
    """Exact P(result) from every observation, reached in play, when ``policy`` is followed.

    Results are ``win``/``push``/``loss`` (a state reached in play is never a starting
    natural; see :func:`gym_start_results`). Policy evaluation by backward induction over
    the hard sum, with the exact dealer rows of :data:`GYM_RULES`.
    """
    from ..core.hand import HandValue, add_card
    from ..dealer.graph import dealer_table

    rows = dealer_table(GYM_RULES).rows
    p = GYM_RULES.make_shoe().draw_probabilities()
    results: dict[Observation, dict[str, mpq]] = {}

    def stand(total: int, upcard: int) -> dict[str, mpq]:
        row = rows[upcard]
        win = row["bust"] + sum((row[str(t)] for t in range(17, 22) if t < total), mpq(0))
        push = row[str(total)] if total >= 17 else mpq(0)
        return {"win": win, "push": push, "loss": 1 - win - push}

    order = sorted(gym_observations(), key=lambda o: (o[0] - 10 * o[2], o[2]), reverse=True)
    for total, upcard, soft in order:  # by decreasing hard sum: every successor is solved first
        observation = (total, upcard, soft)
        action = policy(observation)
        if action not in (0, 1):
            raise BjexactError(f"the policy answered {action!r} for {observation}; use 0 (stick) or 1 (hit)")
        if not action:
            results[observation] = stand(total, upcard)
            continue
        out = {"win": mpq(0), "push": mpq(0), "loss": mpq(0)}
        for rank, q in enumerate(p, start=1):
            new = add_card(HandValue(total, bool(soft)), rank)
            if new.bust:
                out["loss"] += q
            else:
                for k, v in results[(new.total, upcard, int(new.soft))].items():
                    out[k] += q * v
        results[observation] = out
    return results


def gym_start_results(
    policy: GymPolicy, *, natural: bool = False, sab: bool = False
) -> dict[Observation, dict[str, mpq]]:
    """Exact P(result) from each *starting* observation (after the deal) under the env's options.

    A starting (21, d, 1) is a natural. Standing on it (every sensible policy does) wins
    unless the dealer reaches 21; with ``natural`` the win is a ``natural`` (1.5); with
    ``sab`` it wins 1 unless the dealer's own first two cards are a natural.
    """
    from ..dealer.graph import dealer_table

    in_play = gym_results(policy)
    start = dict(in_play)
    rows = dealer_table(GYM_RULES).rows
    p = GYM_RULES.make_shoe().draw_probabilities()
    for upcard in range(1, 11):
        key = (21, upcard, 1)
        if policy(key) == 1 or not (natural or sab):
            continue  # hitting a natural forfeits the bonus: the state plays as in play
        if sab:
            dealer_natural = {1: p[9], 10: p[0]}.get(upcard, mpq(0))
            start[key] = {"win": 1 - dealer_natural, "push": dealer_natural, "loss": mpq(0)}
        else:
            twenty_one = rows[upcard]["21"]
            start[key] = {"natural": 1 - twenty_one, "push": twenty_one, "loss": mpq(0)}
    return start


def gym_start_distribution() -> dict[Observation, mpq]:
    """P(starting observation): two player cards and the dealer's up-card, infinite deck."""
    from ..core.hand import hand_value

    p = GYM_RULES.make_shoe().draw_probabilities()
    out: dict[Observation, mpq] = {}
    for upcard in range(1, 11):
        for a in range(1, 11):
            for b in range(1, 11):
                hand = hand_value((a, b))
                key = (hand.total, upcard, int(hand.soft))
                out[key] = out.get(key, mpq(0)) + p[upcard - 1] * p[a - 1] * p[b - 1]
    return out


_EXACT_REWARDS = {"natural": mpq(3, 2), "win": mpq(1), "push": mpq(0), "loss": mpq(-1)}


def _value(results: Mapping[str, mpq]) -> mpq:
    """Expected reward of a result distribution."""
    return sum((_EXACT_REWARDS[k] * v for k, v in results.items()), mpq(0))


def gym_values(policy: GymPolicy, *, natural: bool = False, sab: bool = False) -> dict[Observation, mpq]:
    """The exact state-value function: expected return from each starting observation."""
    return {o: _value(r) for o, r in gym_start_results(policy, natural=natural, sab=sab).items()}


def gym_game_value(policy: GymPolicy, *, natural: bool = False, sab: bool = False) -> mpq:
    """The exact expected return of one episode from ``env.reset()`` under ``policy``."""
    values = gym_values(policy, natural=natural, sab=sab)
    return sum((q * values[o] for o, q in gym_start_distribution().items()), mpq(0))


@dataclass(frozen=True)
class GymStateTest:
    """Episodes that started in one observation: their results against the exact probabilities."""

    observation: Observation
    episodes: int
    counts: Mapping[str, int]
    exact: Mapping[str, mpq]
    mean: float
    value: mpq
    interval: tuple[float, float]
    p_value: float
    adjusted_p: float
    tested: bool = True  # False: too few episodes left a single cell after pooling (no test)
    needed: int = 0  # episodes starting here that a test needs (0: any number)


@dataclass(frozen=True)
class GymCheck:
    """An environment run against the exact values: per starting state and over all episodes."""

    natural: bool
    sab: bool
    episodes: int
    seed: int
    alpha: float
    game_value: mpq
    mean_return: float
    mean_interval: tuple[float, float]
    mean_p_value: float
    states: tuple[GymStateTest, ...]

    @property
    def passed(self) -> bool:
        """The mean return and every tested observation pass, and some observation was tested."""
        return (self.mean_p_value >= self.alpha and bool(self.tested)
                and all(s.adjusted_p >= self.alpha for s in self.tested))

    @property
    def tested(self) -> tuple[GymStateTest, ...]:
        return tuple(s for s in self.states if s.tested)

    @property
    def untested(self) -> tuple[GymStateTest, ...]:
        """Observations with too few episodes for a chi-square test (left out of Holm's correction)."""
        return tuple(s for s in self.states if not s.tested)

    @property
    def failed(self) -> tuple[GymStateTest, ...]:
        return tuple(s for s in self.tested if s.adjusted_p < self.alpha)

    @property
    def episodes_needed(self) -> int:
        """Episodes after which each untested observation would expect enough starts for a test."""
        start = gym_start_distribution()
        return max((int(math.ceil(s.needed / start[s.observation])) for s in self.untested if s.needed), default=0)

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "env": {"id": "Blackjack-v1", "natural": self.natural, "sab": self.sab},
            "episodes": self.episodes, "seed": self.seed, "alpha": self.alpha,
            "game_value": fraction_string(self.game_value), "game_value_decimal": float(self.game_value),
            "mean_return": self.mean_return, "mean_interval": list(self.mean_interval),
            "mean_p_value": self.mean_p_value,
            "observations_untested": len(self.untested),
            "states": [
                {"observation": list(s.observation), "episodes": s.episodes, "mean_return": s.mean,
                 "value": fraction_string(s.value), "value_decimal": float(s.value),
                 "interval": list(s.interval), "tested": s.tested, "p_value": s.p_value,
                 "holm_p_value": s.adjusted_p, "counts": dict(s.counts)}
                for s in self.states
            ],
        }


def _result_of_reward(reward: float, observation: Observation) -> str:
    for name, value in GYM_REWARDS.items():
        if reward == value:
            return name
    raise BjexactError(f"the environment paid {reward!r} from {observation}, which its rules never pay")


def run_gym_episodes(env: Any, policy: GymPolicy, episodes: int, seed: int) -> list[tuple[Observation, str]]:
    """Play ``episodes`` episodes; the starting observation and the result of each."""
    out = []
    observation, _ = env.reset(seed=seed)
    for n in range(episodes):
        if n:
            observation, _ = env.reset()
        start = tuple(int(x) for x in observation)
        done, reward = False, 0.0
        while not done:
            observation, reward, terminated, truncated, _ = env.step(policy(tuple(int(x) for x in observation)))
            done = terminated or truncated
        out.append((start, _result_of_reward(float(reward), start)))
    return out


def check_gym_blackjack(
    policy: GymPolicy | str = "stick20",
    *,
    episodes: int = 20_000,
    seed: int = 0,
    natural: bool | None = None,
    sab: bool | None = None,
    alpha: float = DEFAULT_ALPHA,
    env: Any = None,
) -> GymCheck:
    """Run gymnasium's ``Blackjack-v1`` (or ``env``) under ``policy`` and test it against the exact values.

    ``policy``: ``"stick20"``, ``"optimal"`` or a callable observation -> action. Per starting
    observation a chi-square test of the results (win/push/loss, and the natural payout)
    with Holm's correction across observations, plus a z-test of the mean return against
    the exact game value using the exact variance. An observation with too few episodes
    for a test (pooling leaves a single cell) is *untested*: left out of Holm's correction,
    counted apart, and the check never passes when no observation was tested.

    ``natural``/``sab`` left as ``None`` are read from ``env`` (its ``unwrapped`` attributes)
    or, without ``env``, from the registered ``Blackjack-v1``. Note that gymnasium registers
    ``Blackjack-v1`` with ``sab=True`` while the class defaults to ``sab=False``, and that
    ``sab=True`` overrides ``natural``.
    """
    if isinstance(policy, str):
        policies = {"stick20": lambda: stick_on_20, "optimal": optimal_gym_policy}
        if policy not in policies:
            raise BjexactError(f"unknown policy {policy!r} (use stick20, optimal or a callable)")
        policy = policies[policy]()
    import gymnasium

    if env is None:
        defaults = gymnasium.spec("Blackjack-v1").kwargs
        natural = bool(defaults.get("natural", False)) if natural is None else natural
        sab = bool(defaults.get("sab", False)) if sab is None else sab
        env = gymnasium.make("Blackjack-v1", natural=natural, sab=sab)
    else:
        natural = bool(getattr(env.unwrapped, "natural", False)) if natural is None else natural
        sab = bool(getattr(env.unwrapped, "sab", False)) if sab is None else sab
    if sab:
        natural = False  # sab overrides natural in the environment
    exact = gym_start_results(policy, natural=natural, sab=sab)
    start = gym_start_distribution()
    game = sum((q * _value(exact[o]) for o, q in start.items()), mpq(0))
    second = sum((q * sum((GYM_REWARDS[k] ** 2 * float(v) for k, v in exact[o].items())) for o, q in start.items()))
    variance = second - float(game) ** 2
    played = run_gym_episodes(env, policy, episodes, seed)
    by_state: dict[Observation, Counter[str]] = {}
    for observation, result in played:
        by_state.setdefault(observation, Counter())[result] += 1
    total_return = sum(GYM_REWARDS[r] for _, r in played)
    mean = total_return / episodes
    z_crit = _normal_quantile(1 - alpha / 2)
    half = z_crit * math.sqrt(variance / episodes)
    z = (mean - float(game)) / math.sqrt(variance / episodes) if variance > 0 else 0.0
    mean_p = math.erfc(abs(z) / math.sqrt(2))
    raw = []
    for observation in sorted(by_state):
        counts = by_state[observation]
        probabilities = {k: v for k, v in exact[observation].items()}
        statistic, df, impossible = goodness_of_fit(counts, probabilities)
        p = 0.0 if impossible else chi2_sf(statistic, df)
        n = sum(counts.values())
        value = _value(exact[observation])
        state_var = sum(GYM_REWARDS[k] ** 2 * float(v) for k, v in probabilities.items()) - float(value) ** 2
        state_mean = sum(GYM_REWARDS[k] * c for k, c in counts.items()) / n
        width = z_crit * math.sqrt(max(state_var, 0.0) / n)
        tested = df > 0 or bool(impossible) or sum(1 for v in probabilities.values() if v) <= 1
        raw.append(GymStateTest(observation, n, dict(counts), probabilities, state_mean, value,
                                (state_mean - width, state_mean + width), p, p, tested,
                                rounds_for_a_test(probabilities) or 0))
    states = _holm_tested(raw, lambda t, a: replace(t, adjusted_p=a))
    return GymCheck(natural, sab, episodes, seed, alpha, game, mean, (mean - half, mean + half), mean_p, states)


def format_gym_check(check: GymCheck) -> str:
    """A short report: the exact game value, the environment's mean return, the verdict."""
    options = f"natural={check.natural}, sab={check.sab}"
    lines = [
        f"gymnasium Blackjack-v1 ({options}) against the exact values (infinite deck, S17, no peek)",
        f"{check.episodes} episodes, seed {check.seed}",
        f"  exact expected return: {fraction_string(check.game_value)} = {float(check.game_value):+.6f}",
        f"  mean return: {check.mean_return:+.6f}, {1 - check.alpha:.0%} interval "
        f"[{check.mean_interval[0]:+.6f}, {check.mean_interval[1]:+.6f}], p = {check.mean_p_value:.3g}",
        f"  {len(check.tested)} starting observations tested (chi-square of results, Holm-corrected): "
        f"{len(check.failed)} fail",
    ]
    if check.untested:
        lines.append(f"  {len(check.untested)} more observed but not tested: too few episodes started there "
                     f"(every expected count below {MIN_EXPECTED:g}); they would be from about "
                     f"{check.episodes_needed} episodes")
    for s in check.failed:
        lines.append(f"    {s.observation}: mean {s.mean:+.4f} [{s.interval[0]:+.4f}, {s.interval[1]:+.4f}], "
                     f"exact {float(s.value):+.4f}, Holm p {s.adjusted_p:.3g}")
    if check.passed:
        verdict = "PASS: the environment agrees with the exact values."
    elif check.failed or check.mean_p_value < check.alpha:
        verdict = "FAIL: the environment disagrees with the exact values."
    else:
        verdict = (f"NOT TESTED: too few episodes for a test of any starting observation; run at least "
                   f"{min(int(math.ceil(s.needed / gym_start_distribution()[s.observation])) for s in check.untested)} "
                   "episodes.")
    lines.append("Verdict: " + verdict)
    return "\n".join(lines) + "\n"


def gym_dealer_outcome(upcard: int, rng: random.Random) -> str:
    """gymnasium's own dealer (its ``draw_card`` and ``sum_hand``) in the dealer protocol of this module."""
    import numpy as np
    from gymnasium.envs.toy_text import blackjack

    np_random = np.random.default_rng(rng.getrandbits(64))
    dealer = [upcard, blackjack.draw_card(np_random)]
    if blackjack.is_natural(dealer):
        return "blackjack"
    while blackjack.sum_hand(dealer) < 17:
        dealer.append(blackjack.draw_card(np_random))
    return "bust" if blackjack.is_bust(dealer) else str(blackjack.sum_hand(dealer))
