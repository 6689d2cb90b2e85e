"""Dealer simulators checked against the exact outcome distributions: chi-square tests per up-card,
Holm-corrected, their power, and reference simulators (exact and with a known slip).
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from ..core.cards import STANDARD_PROPORTIONS, UPCARD_ORDER, FiniteShoe, counts_of, rank_symbol
from ..core.hand import EMPTY_HAND, add_card, no_natural_chance, two_cards_natural
from ..core.numbers import fraction_string, mpq
from ..core.rules import Rules, dealer_stands
from ..errors import BjexactError
from .dealer_tables import cached_dealer_table
from .slips import KNOWN_SLIPS
from .stats import chi2_isf, chi2_sf, holm, noncentral_chi2_sf, normal_quantile, wilson

__all__ = [
    "DEFAULT_ROUNDS", "DEFAULT_ALPHA", "UPCARDS", "outcome_label", "goodness_of_fit", "rounds_for_a_test",
    "UpcardTest", "SimulatorCheck", "check_dealer_simulator", "required_noncentrality", "rounds_to_detect",
    "rounds_to_detect_shift", "exact_dealer_simulator", "slipped_dealer_simulator", "format_simulator_check",
    "exact_rows",
]


DEFAULT_ROUNDS = 200_000
DEFAULT_ALPHA = 0.01
UPCARDS = UPCARD_ORDER
MIN_EXPECTED = 5.0
MAX_EXAMPLES = 5  # impossible results shown with the rounds they came from

_LABELS = {
    **{str(t): str(t) for t in range(17, 22)},
    "bust": "bust", "busted": "bust", "busts": "bust", ">21": "bust",
    "blackjack": "blackjack", "bj": "blackjack", "natural": "blackjack",
    "exhausted": "exhausted",
}


def outcome_label(value: Any) -> str:
    """The canonical outcome of a simulator's answer (see the module docstring)."""
    if type(value) is str and value in _LABELS:  # the answers of most rounds, as they are spelled: at once
        return _LABELS[value]
    if isinstance(value, bool):
        raise BjexactError(f"a simulator returned {value!r}, not an outcome (17..21, bust, blackjack)")
    if isinstance(value, str) and re.fullmatch(r"[+-]?\d{1,6}", value.strip()):
        value = int(value.strip())
    if isinstance(value, int) or (hasattr(value, "__index__") and not isinstance(value, str)):
        total = int(value)
        if total > 21:
            return "bust"
        return str(total)  # 17..21, or a total the dealer cannot stand on: an impossible outcome
    elif isinstance(value, str) and value.strip().lower() in _LABELS:
        return _LABELS[value.strip().lower()]
    raise BjexactError(
        f"a simulator returned {value!r}, not an outcome (17..21, bust, blackjack, or a total)"
    )


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
    examples: tuple[tuple[int, str], ...] = ()  # (round of this up-card, from 1; outcome) of impossible ones

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
        z = normal_quantile(0.5 + confidence / 2)
        return {o: wilson(self.counts.get(o, 0), self.rounds, z) for o in self.exact}

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
            "impossible": {"count": sum(self.counts.get(o, 0) for o in self.impossible),
                           "examples": [{"round": r, "outcome": o} for r, o in self.examples]},
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


def exact_rows(rules: Rules) -> dict[int, dict[str, mpq]]:
    """The exact dealer rows a simulator of ``rules`` is tested against, by up-card."""
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

    shoe = rules.make_shoe()
    if not isinstance(shoe, FiniteShoe):
        return 1 - no_natural_chance(STANDARD_PROPORTIONS, upcard)
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
    rows_by_upcard = exact_rows(rules)
    chosen = [u for u in (UPCARDS if upcards is None else tuple(upcards)) if u in rows_by_upcard]
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
        exact = rows_by_upcard[upcard]
        examples: list[tuple[int, str]] = []
        for number in range(1, per_upcard + 1):
            label = outcome_label(_call_simulator(dealer_outcome, upcard, rng))
            if label == "blackjack" and rules.naturals == "as21":
                label = "21"
            elif label == "blackjack" and rules.naturals == "peek":
                discarded += 1
                continue
            counts[label] += 1
            if not exact.get(label) and len(examples) < MAX_EXAMPLES:
                examples.append((number, label))
        statistic, df, impossible = goodness_of_fit(counts, exact)
        p = 0.0 if impossible else chi2_sf(statistic, df)
        n = sum(counts.values())
        needed = _simulated_rounds_needed(rules, upcard, exact)
        raw.append(UpcardTest(upcard, n, dict(counts), exact, statistic, df, p, p, impossible, discarded, needed,
                               tuple(examples)))
    tests = holm_tested(raw, lambda t, a: replace(t, adjusted_p=a))
    return SimulatorCheck(rules, per_upcard * len(chosen), seed, alpha, tests)


def holm_tested(items: Sequence[Any], adjust: Callable[[Any, float], Any]) -> tuple[Any, ...]:
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

    shoe = rules.make_shoe()
    if not isinstance(shoe, FiniteShoe):
        population = [r for r in range(1, 11) for _ in range(STANDARD_PROPORTIONS[r - 1])]
    else:
        population = [r for r in range(1, 11) for _ in range(shoe.counts[r - 1])]

    rest: dict[int, list[int]] = {}  # the shoe less the up-card, per up-card
    h17 = rules.h17

    def dealer_outcome(upcard: int, rng: random.Random) -> str:
        if shoe.is_infinite:
            cards = iter(lambda: rng.choice(population), None)
        else:
            if upcard not in rest:
                rest[upcard] = list(population)
                rest[upcard].remove(upcard)
            cards = _without_replacement(rest[upcard], rng)
        hand = add(add(EMPTY_HAND, upcard), next(cards))
        if two_cards_natural(hand):
            return "blackjack"
        while not dealer_stands(h17, hand) and not hand.bust:  # the rules' own drawing rule
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

    return _make_simulator(rules or Rules(), add_card)


def slipped_dealer_simulator(rules: Rules | None = None, slip: str = "soft-ace-becomes-hard"):
    """A Monte Carlo dealer with a known slip (see :data:`bjexact.checks.verify.KNOWN_SLIPS`)."""

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
            count = sum(t.counts.get(o, 0) for o in t.impossible)
            shown = ", ".join(f"{o} in round {r}" for r, o in t.examples)
            lines.append(f"  outcomes that cannot happen under these rules were reported {count} times "
                         f"({', '.join(t.impossible)}); for example {shown}")
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
