"""Why a round simulator failed: candidate faults ranked by the likelihood of the observed counts.

Each candidate is a fault simulators commonly have, with the distribution of the round's net
result it produces:

* by moving exact probability mass (exact): a player natural that loses to a dealer natural
  (P(both naturals) moves from 0 to -1); a natural paid 6:5, 1:1 or 3:2 other than the rules'
  payout (the natural's mass moves); a surrender that loses the whole bet or pays nothing back
  wrongly (the mass at -1/2 moves to -1);
* by another rule set (its exact distribution under that rule set's optimal play, which is how
  such a simulator plays up to the few decisions the rule changes): H17 where S17 was asked and
  back; doubling after splitting allowed where the rules refuse it and back; split aces hit
  instead of taking one card each; doubling after hitting (a hand of three or more cards doubling
  where the rules allow two cards only: the rules' chart read with its D codes doubling a hand of
  any number of cards, a simulator that reads the chart without counting the cards);
* by a faulty round (:mod:`bjexact.checks.round_faults`: its exact distribution on the infinite
  deck, the rules' play kept): the second split hand's result dropped (its bet not placed or not
  paid); the dealer hitting soft 18 to 21; the dealer standing below 17 after hitting soft 17
  (H17 only); the dealer not drawing against split hands that are all bust or two-card 21s.

Not candidates, as the round's net result cannot show them (:data:`NOT_CANDIDATES`): insurance
paid wrong (the round never takes insurance or even money: the ``--game`` contract), and the
dealer drawing when every hand is bust (each round comes from a fresh shoe, so no result changes).

The log-likelihood of the counts under each candidate, less that under the rules asked, ranks
them (multinomial; a result a candidate cannot produce gets probability 1e-15, so that a
candidate is ranked down, not out). A candidate whose distribution is not computed for these
rules (a finite shoe with resplits) is left out and named.

Each candidate also gets a directed test (:func:`directed_tests`), the most powerful test against
it, in the check's family of tests. Holm's procedure is weighted there: every test weighs 1, but the
directed tests of quick faults (caught within 100,000 rounds even at level 1e-6) share one unit of
weight, so that adding a candidate that is easy to catch (doubling after hitting is caught within
about 10,000 rounds) does not lower the level, nor raise the planned rounds, of the tests of faults
that need millions (H17 for S17, split aces hit). Weights fixed before the counts keep the family's
error rate (:func:`bjexact.checks.stats.holm`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from ..core.cards import ACE, STANDARD_PROPORTIONS, TEN, FiniteShoe
from ..core.numbers import mpq
from ..core.rules import GameRules
from ..errors import BjexactError
from .round_faults import ROUND_FAULTS
from .stats import normal_quantile

__all__ = ["Cause", "CANDIDATE_FAULTS", "NOT_CANDIDATES", "candidate_distributions", "rank_causes", "DirectedTest",
           "directed_tests"]

FLOOR = 1e-15


@dataclass(frozen=True)
class Cause:
    """A candidate fault: its ``name``, what it is, and ``log_likelihood``: the log-likelihood of the
    observed counts under its distribution less that under the rules asked (above 0: likelier)."""

    name: str
    description: str
    log_likelihood: float


def _both_naturals(rules: GameRules) -> mpq:
    """P(the player and the dealer both have a natural) in the full shoe of ``rules``."""
    shoe = rules.make_shoe()
    if isinstance(shoe, FiniteShoe):
        aces, tens, n = shoe.counts[ACE - 1], shoe.counts[TEN - 1], sum(shoe.counts)
        player = mpq(2 * aces * tens, n * (n - 1))
        dealer = mpq(2 * max(aces - 1, 0) * max(tens - 1, 0), (n - 2) * (n - 3)) if n >= 4 else mpq(0)
        return player * dealer
    total = sum(STANDARD_PROPORTIONS)
    one = mpq(2 * STANDARD_PROPORTIONS[ACE - 1] * STANDARD_PROPORTIONS[TEN - 1], total * total)
    return one * one


def _moved(distribution: Mapping[mpq, mpq], source: mpq, target: mpq, mass: mpq | None = None) -> dict[mpq, mpq]:
    out = dict(distribution)
    amount = out.get(source, mpq(0)) if mass is None else min(mass, out.get(source, mpq(0)))
    out[source] = out.get(source, mpq(0)) - amount
    out[target] = out.get(target, mpq(0)) + amount
    return {r: p for r, p in out.items() if p}


def _natural_not_pushed(rules: GameRules, exact: Mapping[mpq, mpq], solve, faulty) -> dict[mpq, mpq] | None:
    return _moved(exact, mpq(0), mpq(-1), _both_naturals(rules))


def _payout(payout: mpq) -> Callable[[GameRules, Mapping[mpq, mpq], object, object], dict[mpq, mpq] | None]:
    def build(rules: GameRules, exact: Mapping[mpq, mpq], solve, faulty) -> dict[mpq, mpq] | None:
        if rules.bj_pays == payout or rules.bj_pays == 1:  # paid 1:1 the natural's mass is not apart
            return None
        return _moved(exact, rules.bj_pays, payout)
    return build


def _surrender_as_loss(rules: GameRules, exact: Mapping[mpq, mpq], solve, faulty) -> dict[mpq, mpq] | None:
    return _moved(exact, mpq(-1, 2), mpq(-1)) if rules.surrender != "none" else None


def _rule(change: Callable[[GameRules], GameRules | None]):
    def build(rules: GameRules, exact: Mapping[mpq, mpq], solve, faulty) -> dict[mpq, mpq] | None:
        other = change(rules)
        return None if other is None else solve(other)
    return build


def _faulty(fault: str):
    def build(rules: GameRules, exact: Mapping[mpq, mpq], solve, faulty) -> dict[mpq, mpq] | None:
        return faulty(fault)
    return build


CANDIDATE_FAULTS: tuple[tuple[str, str, Callable], ...] = (
    ("natural-not-pushed", "a player natural loses to a dealer natural instead of pushing", _natural_not_pushed),
    ("h17-for-s17", "the dealer hits soft 17 where the rules say it stands, or stands where it hits",
     _rule(lambda r: replace(r, h17=not r.h17))),
    ("natural-paid-6:5", "a natural paid 6:5 instead of the rules' payout", _payout(mpq(6, 5))),
    ("natural-paid-1:1", "a natural paid 1:1 instead of the rules' payout", _payout(mpq(1))),
    ("natural-paid-3:2", "a natural paid 3:2 instead of the rules' payout", _payout(mpq(3, 2))),
    ("surrender-as-loss", "a surrendered hand loses the whole bet instead of half", _surrender_as_loss),
    ("das-refused", "no doubling after a split although the rules allow it",
     _rule(lambda r: replace(r, das=False) if r.das and r.split_hands >= 2 and r.double != "none" else None)),
    ("das-allowed", "doubling after a split although the rules refuse it",
     _rule(lambda r: replace(r, das=True) if not r.das and r.split_hands >= 2 and r.double != "none" else None)),
    ("dah-allowed", "doubling a hand of three or more cards (after hitting) although the rules allow two cards only",
     _rule(lambda r: replace(r, double_after_hit=True) if not r.double_after_hit and r.double != "none" else None)),
    ("split-aces-hit", "split aces are hit instead of taking one card each",
     _rule(lambda r: replace(r, hit_split_aces=True) if not r.hit_split_aces and r.split_hands >= 2 else None)),
    *((name, text, _faulty(name)) for name, text in ROUND_FAULTS.items()),
)

NOT_CANDIDATES = {
    "insurance-paid-wrong": "the round's net result excludes insurance (the round never takes insurance or even "
                            "money), so no count of net results can show it",
    "dealer-draws-after-busts": "the dealer drawing when every hand is bust changes no net result (each round "
                                "is dealt from a fresh shoe)",
}


def candidate_distributions(rules: GameRules, exact: Mapping[mpq, mpq], solve, faulty) -> tuple[
        dict[str, dict[mpq, mpq]], tuple[str, ...]]:
    """({candidate name: its distribution}, names left out because their distribution is not computed);
    ``solve(rules)`` is the exact distribution of a rule set, ``faulty(fault)`` that of a round with a
    fault of :data:`~bjexact.checks.round_faults.ROUND_FAULTS` (``None`` where the rules play it so);
    each an error when it is not computed."""
    found: dict[str, dict[mpq, mpq]] = {}
    missing: list[str] = []
    for name, _, build in CANDIDATE_FAULTS:
        try:
            distribution = build(rules, exact, solve, faulty)
        except BjexactError:
            missing.append(name)
            continue
        if distribution is not None and distribution != dict(exact):
            found[name] = distribution
    return found, tuple(missing)


def _log_likelihood(counts: Mapping[mpq, int], distribution: Mapping[mpq, mpq]) -> float:
    return sum(k * math.log(max(float(distribution.get(r, 0)), FLOOR)) for r, k in counts.items() if k)


def rank_causes(counts: Mapping[mpq, int], exact: Mapping[mpq, mpq],
                candidates: Mapping[str, Mapping[mpq, mpq]]) -> tuple[Cause, ...]:
    """The candidate faults (:func:`candidate_distributions`), likeliest first. ``counts``: rounds by
    net result (results no distribution knows get the floor probability under each)."""
    base = _log_likelihood(counts, exact)
    descriptions = {name: text for name, text, _ in CANDIDATE_FAULTS}
    causes = [Cause(name, descriptions[name], _log_likelihood(counts, d) - base) for name, d in candidates.items()]
    return tuple(sorted(causes, key=lambda c: -c.log_likelihood))


# --- directed tests: one per candidate, the most powerful test against that fault -------------------------


@dataclass(frozen=True)
class DirectedTest:
    """The likelihood-ratio test of the rules asked against one candidate fault (Neyman-Pearson: the most
    powerful test against that alternative). Its statistic is ``T = sum over rounds of w(result)`` with
    ``w = log(q / p)`` (``q`` the fault's probability, floored at 1e-15; ``p`` the exact one), tested
    one-sided by the normal approximation with its exact mean and spread per round under the rules."""

    name: str
    weights: Mapping[mpq, float]
    mean: float  # of w per round under the exact distribution
    spread: float  # standard deviation of w per round under it
    gain: float  # how much the fault raises the mean of w per round
    spread_under_fault: float = 0.0  # standard deviation of w per round under the fault's distribution
    weight: float = 1.0  # its weight in the family's weighted Holm procedure (the outcome tests' is 1)

    def p_value(self, counts: Mapping[mpq, int], rounds: int) -> float:
        """One-sided: the chance of a statistic this large under the rules asked (results the rules
        cannot produce are left out: they fail on their own)."""
        if self.spread == 0 or rounds == 0:
            return 1.0
        statistic = sum(k * self.weights[r] for r, k in counts.items() if r in self.weights)
        z = (statistic - rounds * self.mean) / (self.spread * math.sqrt(rounds))
        return 0.5 * math.erfc(z / math.sqrt(2))

    def rounds_to_catch(self, z_level: float, z_power: float) -> int:
        """The rounds after which the test, at the level of the normal quantile ``z_level``, catches the
        fault with the power of ``z_power``: ``((z_level s0 + z_power s1) / gain)**2`` with the spreads
        of the statistic per round under the rules (s0) and under the fault (s1)."""
        if self.gain <= 0:
            return 0
        return math.ceil(((z_level * self.spread + z_power * self.spread_under_fault) / self.gain) ** 2)


# A fault is "quick" when its directed test catches it with power 0.99 at the one-sided level 1e-6
# within 100,000 rounds: the level is below that of any test of the family at any look (alpha 0.01,
# the first look's 1/64 of it, shared among fewer than 150 tests), and 100,000 rounds are fewer than the
# default plan (a million rounds or more) or the look where a check of a few hundred thousand rounds has it.
QUICK_ROUNDS = 100_000
QUICK_LEVEL = 1e-6
QUICK_POWER = 0.99


def directed_tests(exact: Mapping[mpq, mpq], candidates: Mapping[str, Mapping[mpq, mpq]]) -> tuple[DirectedTest, ...]:
    """A :class:`DirectedTest` per candidate distribution, with its weight in the family.

    The weights (Holm's weighted step-down, :func:`bjexact.checks.stats.holm`): each test of the
    family weighs 1, but the directed tests of quick faults (caught with power 0.99 at level 1e-6
    within :data:`QUICK_ROUNDS` rounds: :data:`QUICK_LEVEL`, :data:`QUICK_POWER`) share one unit of
    weight among them, as one test (Bonferroni within it). The weights depend on the rules and the
    candidates only, never on the counts, so the family keeps its error rate (the chance that a correct
    simulator fails a look is at most that look's level). What it buys: a fault that needs millions of
    rounds (the dealer hitting soft 17, split aces hit) is tested at a level that does not fall as quick
    candidates are added (doubling after hitting, a natural paid 6:5, ...); those, tested at a smaller
    level, still need only a small fraction of the planned rounds."""
    tests = [_directed_test(name, exact, fault) for name, fault in candidates.items()]
    z_level, z_power = normal_quantile(1 - QUICK_LEVEL), normal_quantile(QUICK_POWER)
    quick = [t.name for t in tests if t.gain > 0 and t.rounds_to_catch(z_level, z_power) <= QUICK_ROUNDS]
    if len(quick) < 2:
        return tuple(tests)
    return tuple(replace(t, weight=1 / len(quick)) if t.name in quick else t for t in tests)


def _directed_test(name: str, exact: Mapping[mpq, mpq], fault: Mapping[mpq, mpq]) -> DirectedTest:
    weights = {r: math.log(max(float(fault.get(r, 0)), FLOOR) / float(p)) for r, p in exact.items() if p}
    mean = sum(float(p) * weights[r] for r, p in exact.items() if p)
    spread = math.sqrt(max(sum(float(p) * (weights[r] - mean) ** 2 for r, p in exact.items() if p), 0.0))
    gain = sum((float(fault.get(r, 0)) - float(p)) * weights[r] for r, p in exact.items() if p)
    shifted = mean + gain  # the mean of w under the fault (its mass on impossible results aside)
    under_fault = sum(float(fault.get(r, 0)) * (weights[r] - shifted) ** 2 for r, p in exact.items() if p)
    return DirectedTest(name, weights, mean, spread, gain, math.sqrt(max(under_fault, 0.0)))
