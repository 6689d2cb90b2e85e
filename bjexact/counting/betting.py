"""A count's betting figures: exact EV and variance by true count, exact true-count frequencies,
and from them win rate, SD, N0, SCORE and risk of ruin for a bet ramp; Griffin's betting
correlation, insurance correlation and playing efficiency from exact effects of removal.

Conventions
    *Value at a true count*: the round's exact value and variance for the shoes of the true
    counts (:func:`~bjexact.counting.paths.count_shoes`), under the play best for each shoe's
    cards (what a player using every index approaches); at an integer true count between two
    shoes' exact true counts, the straight line between their exact values.
    *Frequencies*: a round begins at each depth ``n = 0 .. cut - 1`` (``cut`` = the cards dealt
    before the cut card, ``floor(penetration x cards)``) with equal weight; the running count of
    the ``n`` cards seen is hypergeometric (exact, by the cards' tags); the true count is the
    running count per deck unseen (52 cards), floored; counts beyond ``span`` are pooled at
    ``-span`` and ``+span``.
    *A ramp* maps true counts to bets (units): the bet of the largest listed count at or below
    the true count, below the first the first bet.
    *Figures* (per round, in units): win rate ``W = sum f b EV``; variance
    ``V = sum f b^2 (var + EV^2) - W^2``; ``N0 = V / W^2``; ``SCORE = 10^6 / N0`` (the win per 100
    rounds of a bank of 10,000 bet by Kelly); risk of ruin of a bank ``B`` (the diffusion
    formula) ``exp(-2 W B / V)``. Everything but the square root and the exponential is exact.
    *Griffin's figures* use the effects of removal ``e[r]``: the exact change of a value when one
    card of rank ``r`` leaves the full shoe. Betting correlation: tags against ``e`` of the round's
    value over the 13 cards of a deck; insurance correlation: tags against ``e`` of insurance;
    playing efficiency: for every chart cell (basic move against the runner-up, full shoe), the
    gain of acting on an estimate of the value difference that correlates ``rho`` with the
    ideal linear one, ``G(rho s)`` with ``G(s) = s phi(m/s) - m (1 - Phi(m/s))`` (``m`` the
    basic move's margin, ``s`` the standard deviation of the ideal estimate after ``n`` cards:
    ``sqrt(n (N - n) / (N - 1))`` times that of ``e`` over the shoe's cards), summed over
    the depths and the cells (weighted by the up-card's chance; cell values carry the hands'),
    as a share of the same with ``rho = 1`` — the normal approximation Griffin uses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import erf, exp, floor, pi, sqrt
from typing import Any

from ..apps.sweep import rules_from_json
from ..core.numbers import fraction_string, mpq, parse_fraction
from ..core.rules import GameRules
from ..errors import BjexactError
from ..player.game import solve_game
from .compositions import tag_groups
from .simulation import effects_of_removal, eor_betting_correlation
from .systems import CountSystem

__all__ = ["BETTING_KIND", "MAX_UNITS", "betting_task", "variance_within_reach", "count_frequencies", "parse_ramp",
           "bet_at", "kelly_ramp",
           "values_by_count", "CountRow", "BettingFigures", "ramp_figures", "GriffinFigures", "griffin_figures",
           "weighted_correlation", "normal_gain"]

BETTING_KIND = "count_betting/1"
# the largest bet or bank, in units: beyond it the risk of ruin's exponent leaves floating point
MAX_UNITS = 10**9


def variance_within_reach(rules: GameRules) -> bool:
    """Whether the round's variance is computed: not with resplits on a finite shoe (the split
    hands' joint law needs too many lines), known before any solve."""
    return rules.infinite or rules.split_hands <= 2


def betting_task(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The round's exact value and variance for ``rules`` (a composition), optimal play:
    ``{"ev", "variance"}`` ("p/q"; variance ``None`` where it is out of reach:
    :func:`variance_within_reach`, or where the engine gives the distribution up)."""
    game = rules_from_json(rules)
    wanted = variance_within_reach(game)
    solution = solve_game(game, with_distribution=wanted, split_lines=wanted, progress=False)
    variance = solution.variance if wanted else None
    return {"ev": fraction_string(solution.ev), "variance": None if variance is None else fraction_string(variance)}


def _binomials(n: int) -> list[int]:
    row = [1]
    for k in range(n):
        row.append(row[-1] * (n - k) // (k + 1))
    return row


def count_frequencies(system: CountSystem, full: Sequence[int], penetration: mpq, span: int) -> dict[int, mpq]:
    """P(a round begins at floored true count t), t = -span .. span (ends pooled), exact."""
    total = sum(full)
    cut = max(1, min(total - 1, int(floor(penetration * total))))
    ways: dict[tuple[int, int], int] = {(0, 0): 1}  # (cards seen, running count) -> ways
    for group in tag_groups(system, full):
        tag, cards = group.tag, group.cards
        choose = _binomials(cards)
        grown: dict[tuple[int, int], int] = {}
        for (n, rc), w in ways.items():
            for k in range(min(cards, cut - 1 - n) + 1):
                key = (n + k, rc + tag * k)
                grown[key] = grown.get(key, 0) + w * choose[k]
        ways = grown
    all_ways = _binomials(total)
    frequencies = {t: mpq(0) for t in range(-span, span + 1)}
    tagged = sum(t * n for t, n in zip(system.tags, full))  # 0 for a balanced count
    for (n, rc), w in ways.items():
        # the running count less what n cards count on average, per deck left, floored
        t = max(-span, min(span, ((rc * total - tagged * n) * 52) // (total * (total - n))))
        frequencies[t] += mpq(w, all_ways[n] * cut)
    return frequencies


def parse_ramp(text: str) -> dict[int, mpq]:
    """``"-1:1,1:2,2:4"`` -> {-1: 1, 1: 2, 2: 4}: true counts (whole, increasing) and bets (positive)."""
    ramp: dict[int, mpq] = {}
    for part in text.split(","):
        count, _, bet = part.strip().partition(":")
        try:
            t, b = int(count), parse_fraction(bet)
        except ValueError:
            raise BjexactError("--ramp takes true count:bet pairs such as -1:1,1:2,2:4, "
                               f"not {part.strip()!r}") from None
        if b <= 0 or b > MAX_UNITS or abs(t) > 99 or (ramp and t <= max(ramp)):
            raise BjexactError(f"--ramp: counts must increase (within +-99) and bets be positive, at most "
                               f"{MAX_UNITS:,} units, not {part.strip()!r}")
        ramp[t] = b
    return ramp


def bet_at(ramp: Mapping[int, mpq], count: int) -> mpq:
    """The bet of the largest ramp count at or below ``count``; below the first, the first bet."""
    keys = sorted(ramp)
    chosen = [k for k in keys if k <= count]
    return ramp[chosen[-1] if chosen else keys[0]]


def _value(result: Mapping[str, Any], name: str) -> mpq | None:
    value = result.get(name)
    return None if value is None else parse_fraction(value)


def values_by_count(points: Sequence[tuple[mpq, Mapping[str, Any]]],
                    span: int) -> dict[int, tuple[mpq, mpq | None]]:
    """true count t -> (EV, variance) for t = -span .. span, from solved shoes ``(true count, result)``:
    exact at a shoe's own true count, linear (exactly) between the two shoes around ``t``, and
    beyond the last shoe on either side that shoe's values; the variance ``None`` where a shoe's
    is not computed."""
    found = {tc: (parse_fraction(r["ev"]), _value(r, "variance")) for tc, r in points}
    if any(v is None for _, v in found.values()):
        found = {tc: (ev, mpq(0)) for tc, (ev, _) in found.items()}
        return {t: (ev, None) for t, (ev, _) in _interpolated(found, span).items()}
    return dict(_interpolated(found, span))


def _interpolated(found: Mapping[mpq, tuple[mpq, Any]], span: int) -> dict[int, tuple[mpq, Any]]:
    solved = sorted(found.items())
    table = {}
    for t in range(-span, span + 1):
        below = [p for p in solved if p[0] <= t]
        above = [p for p in solved if p[0] >= t]
        if not below or not above:
            table[t] = (above or below)[0 if above else -1][1]
            continue
        (a, (ev_a, var_a)), (b, (ev_b, var_b)) = below[-1], above[0]
        w = mpq(0) if a == b else (t - a) / (b - a)
        table[t] = (ev_a + w * (ev_b - ev_a), var_a + w * (var_b - var_a))
    return table


def kelly_ramp(values: Mapping[int, tuple[mpq, mpq | None]], bank: mpq, low: mpq, high: mpq) -> dict[int, mpq]:
    """At each true count: ``bank x EV / variance`` within ``[low, high]``; ``low`` where EV <= 0."""
    ramp = {}
    for t, (ev, variance) in sorted(values.items()):
        if variance is None:
            raise BjexactError("the Kelly ramp needs the round's variance, which is not computed here")
        ramp[t] = low if ev <= 0 else max(low, min(high, bank * ev / variance))
    return ramp


@dataclass(frozen=True)
class CountRow:
    count: int
    frequency: mpq
    ev: mpq
    variance: mpq | None
    bet: mpq


@dataclass(frozen=True)
class BettingFigures:
    """A ramp's figures (see the module's conventions); ``None`` where the win rate is not positive,
    and those that need the variance where it is not computed (``variance`` ``None``)."""

    rows: tuple[CountRow, ...]
    bank: mpq
    win_rate: mpq
    variance: mpq | None
    average_bet: mpq

    @property
    def sd(self) -> float | None:
        return None if self.variance is None else sqrt(self.variance)

    @property
    def n0(self) -> mpq | None:
        return self.variance / self.win_rate ** 2 if self.win_rate > 0 and self.variance is not None else None

    @property
    def score(self) -> mpq | None:
        return None if self.n0 is None else 10 ** 6 / self.n0

    @property
    def risk_of_ruin(self) -> float | None:
        if self.variance is None:
            return None
        return 1.0 if self.win_rate <= 0 else exp(-2 * float(self.win_rate * self.bank / self.variance))

    def to_json(self) -> dict[str, Any]:
        def exact(x: mpq | None) -> str | None:
            return None if x is None else fraction_string(x)

        return {
            "by_true_count": [{"true_count": r.count, "frequency": fraction_string(r.frequency),
                               "ev": fraction_string(r.ev), "variance": exact(r.variance),
                               "bet": fraction_string(r.bet)} for r in self.rows],
            "bank": fraction_string(self.bank), "win_rate": fraction_string(self.win_rate),
            "variance": exact(self.variance), "sd": self.sd, "average_bet": fraction_string(self.average_bet),
            "n0": exact(self.n0), "score": exact(self.score), "risk_of_ruin": self.risk_of_ruin,
        }


def ramp_figures(values: Mapping[int, tuple[mpq, mpq | None]], frequencies: Mapping[int, mpq],
                 ramp: Mapping[int, mpq], bank: mpq) -> BettingFigures:
    """Win rate, variance and the rest for ``ramp`` (see the module's conventions), from
    ``values`` (:func:`values_by_count`) and ``frequencies`` (:func:`count_frequencies`)."""
    rows = tuple(CountRow(t, f, *values[t], bet_at(ramp, t)) for t, f in sorted(frequencies.items()))
    win = sum((r.frequency * r.bet * r.ev for r in rows), mpq(0))
    average = sum((r.frequency * r.bet for r in rows), mpq(0))
    if any(r.variance is None for r in rows):
        return BettingFigures(rows, bank, win, None, average)
    second = sum((r.frequency * r.bet ** 2 * (r.variance + r.ev ** 2) for r in rows if r.variance is not None), mpq(0))
    return BettingFigures(rows, bank, win, second - win ** 2, average)


# --- Griffin's figures --------------------------------------------------------------------------


def weighted_correlation(xs: Sequence[mpq], ys: Sequence[mpq], weights: Sequence[mpq]) -> float | None:
    """The correlation of ``xs`` and ``ys`` with ``weights`` (``None`` if either does not vary)."""
    total = sum(weights, mpq(0))
    mx = sum((w * x for w, x in zip(weights, xs)), mpq(0)) / total
    my = sum((w * y for w, y in zip(weights, ys)), mpq(0)) / total
    sxy = sum((w * (x - mx) * (y - my) for w, x, y in zip(weights, xs, ys)), mpq(0))
    sxx = sum((w * (x - mx) ** 2 for w, x in zip(weights, xs)), mpq(0))
    syy = sum((w * (y - my) ** 2 for w, y in zip(weights, ys)), mpq(0))
    if not sxx or not syy:
        return None
    return float(sxy) / sqrt(float(sxx) * float(syy))


def normal_gain(margin: float, sd: float) -> float:
    """E[(X - margin)+] for X normal with mean 0 and standard deviation ``sd``."""
    if sd <= 0:
        return max(0.0, -margin)
    z = margin / sd
    return sd * exp(-z * z / 2) / sqrt(2 * pi) - margin * (1 - (1 + erf(z / sqrt(2))) / 2)


@dataclass(frozen=True)
class GriffinFigures:
    eor: dict[int, mpq]
    insurance_eor: dict[int, mpq]
    betting_correlation: float | None
    insurance_correlation: float | None
    playing_efficiency: float | None

    def to_json(self) -> dict[str, Any]:
        symbols = "A23456789T"
        return {"eor": {symbols[r - 1]: fraction_string(e) for r, e in self.eor.items()},
                "insurance_eor": {symbols[r - 1]: fraction_string(e) for r, e in self.insurance_eor.items()},
                "betting_correlation": self.betting_correlation,
                "insurance_correlation": self.insurance_correlation,
                "playing_efficiency": self.playing_efficiency}


def _insurance(shoe: Sequence[int]) -> mpq:
    """Insurance per unit stake for a shoe an ace up has come from: (3 tens / (cards - 1) - 1) / 2."""
    return (3 * mpq(shoe[9], sum(shoe) - 1) - 1) / 2


def griffin_figures(system: CountSystem, full: Sequence[int], results: Sequence[Mapping[str, Any]],
                    penetration: mpq) -> GriffinFigures:
    """Betting correlation, insurance correlation and playing efficiency from the
    :func:`~bjexact.counting.paths.removal_task` results of
    :func:`~bjexact.counting.simulation.removal_shoes` (the full shoe first)."""
    ranks = [r for r in range(1, 11) if full[r - 1]]
    eor = effects_of_removal(full, [parse_fraction(r["ev"]) for r in results])
    base = _insurance(full)
    insurance_eor = {r: _insurance([n - (i == r) for i, n in enumerate(full, 1)]) - base for r in ranks}
    total = sum(full)
    cut = max(1, min(total - 1, int(floor(penetration * total))))
    spreads = [sqrt(n * (total - n) / (total - 1)) for n in range(cut)]
    weights = [mpq(full[r - 1]) for r in ranks]
    tags = [mpq(system.tags[r - 1]) for r in ranks]
    cells = [{k: {m: parse_fraction(v) for m, v in moves.items() if m != "surrender"}
              for k, moves in r["cells"].items()} for r in results]
    gained = ideal = 0.0
    for key, values in cells[0].items():
        if len(values) < 2 or not all(key in c for c in cells[1:]):
            continue
        basic, second = sorted(values, key=lambda m: values[m], reverse=True)[:2]
        margin = values[basic] - values[second]
        effects = [(c[key][second] - c[key][basic]) - (values[second] - values[basic]) for c in cells[1:]]
        mean = sum((w * e for w, e in zip(weights, effects)), mpq(0)) / total
        sigma = sqrt(float(sum((w * (e - mean) ** 2 for w, e in zip(weights, effects)), mpq(0)) / total))
        rho = weighted_correlation(tags, effects, weights)
        up = key.split(" ")[2]
        chance = full["A23456789T".index(up)] / total
        for spread in spreads:
            ideal += chance * normal_gain(float(margin), spread * sigma)
            gained += chance * normal_gain(float(margin), spread * sigma * abs(rho or 0.0))
    return GriffinFigures(eor, insurance_eor, eor_betting_correlation(system, eor),
                          eor_betting_correlation(system, insurance_eor), gained / ideal if ideal else None)
