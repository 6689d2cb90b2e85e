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
    mean with the exact mean by a z test with the exact variance. The two p-values are
    Holm-corrected. A result the rules cannot produce (1.2 from a 6:5 payout under 3:2)
    fails at once. When every expected count is below 5 nothing is tested: the verdict is
    NOT TESTED, never a pass, with the rounds a test needs.

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
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.cards import TEN
from ..core.hand import hand_value, is_natural
from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules
from ..errors import BjexactError
from ..player.game import GameSolution, Strategy, solve_game
from ..player.policy import ChartPolicy, ChartStrategy, evaluate_chart
from .charts import chart_policy
from .simulators import DEFAULT_ALPHA, MIN_EXPECTED, goodness_of_fit
from .stats import chi2_sf, holm

__all__ = [
    "DEFAULT_GAME_ROUNDS", "exact_round_distribution", "RoundCheck", "check_round_simulator",
    "format_round_check", "round_simulator", "exact_round_simulator", "rounds_for_a_round_test",
    "assert_round_simulator_matches",
]

DEFAULT_GAME_ROUNDS = 100_000
_GAME_SOLUTIONS: dict[Any, GameSolution] = {}


def _solution(rules: GameRules, strategy: ChartPolicy | None = None) -> GameSolution:
    key = (rules, None if strategy is None else frozenset(strategy.codes.items()))
    found = _GAME_SOLUTIONS.get(key)
    if found is None:
        found = _GAME_SOLUTIONS[key] = (
            solve_game(rules, with_distribution=True, split_lines=True, progress=False) if strategy is None
            else evaluate_chart(rules, strategy, with_distribution=True, split_lines=True, progress=False))
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
    if isinstance(value, bool) or not isinstance(value, (int, float, mpq)) and not hasattr(value, "__float__"):
        raise BjexactError(f"the simulator {where} returned {value!r}, not a number (the net result of the round)")
    number = float(value)
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
class RoundCheck:
    """The verdict on a round simulator: chi-square over outcomes and the mean, Holm-corrected."""

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

    @property
    def tested(self) -> bool:
        return self.df > 0 or bool(self.impossible)

    @property
    def failed(self) -> list[str]:
        names = ("distribution", "mean")
        return [n for n, p in zip(names, self.adjusted) if p < self.alpha] if self.tested else []

    @property
    def verdict(self) -> str:
        return "fail" if self.failed else "pass" if self.tested else "too few rounds"

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"

    def to_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed, "verdict": self.verdict, "rules": self.rules.to_json(), "strategy": self.strategy,
            "rounds": self.rounds,
            "seed": self.seed, "alpha": self.alpha, "rounds_needed": self.needed,
            "chi_square": self.statistic, "df": self.df, "p_value": self.chi2_p, "holm_p_value": self.adjusted[0],
            "impossible_outcomes_seen": list(self.impossible),
            "mean": self.mean, "exact_mean": fraction_string(self.exact_mean),
            "exact_mean_decimal": float(self.exact_mean), "exact_variance": fraction_string(self.exact_variance),
            "mean_p_value": self.mean_p, "mean_holm_p_value": self.adjusted[1], "failed": self.failed,
            "outcomes": {o: {"observed": self.counts.get(o, 0), "exact": fraction_string(p),
                             "exact_decimal": float(p)} for o, p in self.exact.items()}
                        | {o: {"observed": self.counts[o], "exact": "0", "exact_decimal": 0.0}
                           for o in self.impossible},
        }


def check_round_simulator(
    play_round: Callable[[random.Random], Any],
    rules: GameRules | None = None,
    *,
    rounds: int = DEFAULT_GAME_ROUNDS,
    seed: int = 0,
    alpha: float = DEFAULT_ALPHA,
    strategy: ChartPolicy | None = None,
    strategy_name: str | None = None,
) -> RoundCheck:
    """Run ``rounds`` rounds of ``play_round`` with ``random.Random(seed)`` and test them against
    optimal play, or against the chart ``strategy`` (named ``strategy_name`` in the report)."""
    rules = rules or GameRules(decks="inf")
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise BjexactError(f"the number of rounds must be a whole number >= 1, not {rounds!r}")
    if not 0 < alpha < 1:
        raise BjexactError(f"alpha must be between 0 and 1, not {alpha!r}")
    distribution = exact_round_distribution(rules, strategy)
    outcomes = {r: _label(r) for r in distribution}
    exact = {outcomes[r]: p for r, p in distribution.items()}
    name = getattr(play_round, "__qualname__", None) or type(play_round).__name__
    rng = random.Random(seed)
    counts: Counter[str] = Counter()
    total = 0.0
    for _ in range(rounds):
        try:
            value = play_round(rng)
        except Exception as exc:  # the user's code failed: one line naming it
            raise BjexactError(f"the simulator {name} raised {type(exc).__name__}: {exc}") from None
        counts[_as_result(value, outcomes, name)] += 1
        total += float(value)
    statistic, df, impossible = goodness_of_fit(counts, exact)
    chi2_p = 0.0 if impossible else chi2_sf(statistic, df)
    ev = sum((r * p for r, p in distribution.items()), mpq(0))
    variance = sum((r * r * p for r, p in distribution.items()), mpq(0)) - ev * ev
    mean = total / rounds
    z = (mean - float(ev)) / math.sqrt(float(variance) / rounds) if variance else 0.0
    mean_p = math.erfc(abs(z) / math.sqrt(2))
    chi2_adjusted, mean_adjusted = holm([chi2_p, mean_p])
    adjusted = (chi2_adjusted, mean_adjusted)
    return RoundCheck(rules, rounds, seed, alpha, dict(counts), exact, statistic, df, impossible, chi2_p, mean, ev,
                      variance, mean_p, adjusted, rounds_for_a_round_test(exact),
                      "optimal" if strategy is None else strategy_name or "a chart")


def format_round_check(check: RoundCheck) -> str:
    played = "optimal play" if check.strategy == "optimal" else f"play by {check.strategy}"
    lines = [f"Round simulator checked against the exact distribution of net results for {check.rules.describe()}",
             f"strategy: {played}",
             f"{check.rounds} rounds (seed {check.seed}); chi-square over outcomes and a test of the mean, "
             f"Holm-corrected at level {check.alpha:g}", ""]
    lines.append("   result   observed     exact  residual")
    for outcome, p in sorted(check.exact.items(), key=lambda item: mpq(item[0])):
        observed = check.counts.get(outcome, 0) / check.rounds
        expected = float(p) * check.rounds
        residual = (check.counts.get(outcome, 0) - expected) / math.sqrt(expected) if expected else 0.0
        flag = "  <--" if abs(residual) > 4 else ""
        lines.append(f"{outcome:>9}  {observed:9.6f}  {float(p):8.6f}  {residual:+8.1f}{flag}")
    for outcome in check.impossible:
        lines.append(f"{outcome:>9}  {check.counts[outcome] / check.rounds:9.6f}  {0:8.6f}  impossible  <--")
    lines.append("")
    lines.append(f"distribution: chi-square {check.statistic:.2f}, df {check.df}, p {check.chi2_p:.2g}, "
                 f"Holm p {check.adjusted[0]:.2g}")
    lines.append(f"mean: {check.mean:+.6f} against exact {float(check.exact_mean):+.6f} "
                 f"(= {fraction_string(check.exact_mean)}), p {check.mean_p:.2g}, Holm p {check.adjusted[1]:.2g}")
    if check.impossible:
        lines.append("Results these rules cannot produce were returned: " + ", ".join(check.impossible)
                     + " (a payout or a stake the rules do not have).")
    if check.verdict == "too few rounds":
        lines.append(f"Verdict: NOT TESTED: too few rounds (every expected count is below {MIN_EXPECTED:g}). "
                     f"Run at least {check.needed} rounds.")
    elif check.passed:
        lines.append("Verdict: PASS. Neither the distribution nor the mean differs from the exact one at this "
                     "level; a pass is not a proof.")
    else:
        lines.append(f"Verdict: FAIL ({', '.join(check.failed)}). With a correct simulator this happens with "
                     f"probability below {check.alpha:g}.")
    return "\n".join(lines) + "\n"


# --- a reference simulator ---------------------------------------------------------------------------------


def round_simulator(rules: GameRules | None = None, *, bj_pays: Any = None, split_bug: bool = False,
                    strategy: ChartPolicy | None = None) -> Callable[[random.Random], float]:
    """A simulator of whole rounds on the infinite deck playing bjexact's optimal strategy, or the
    chart ``strategy``.

    ``bj_pays`` and ``split_bug`` make it wrong on purpose (for testing the checker): a natural
    paid otherwise than the rules say, or split hands that all receive the first hand's
    second card."""
    rules = rules or GameRules(decks="inf")
    if not rules.infinite:
        raise BjexactError("the reference round simulator deals from the infinite deck: use --decks inf")
    solver: Strategy | ChartStrategy
    if strategy is None:
        solution = _solution(rules)
        solver = Strategy(rules)

        def first_move(a: int, b: int, up: int) -> str:
            return solution.hands[(min(a, b), max(a, b), up)].best
    else:
        solver = chart = ChartStrategy(rules, strategy)

        def first_move(a: int, b: int, up: int) -> str:
            return chart.first_move((min(a, b), max(a, b)), up)
    pays = float(rules.bj_pays if bj_pays is None else mpq(bj_pays))
    ranks = list(range(1, 11))
    weights = [4 if r == TEN else 1 for r in ranks]
    peek = rules.hole_card == "peek"
    limit_of = {pair: rules.split_limit(pair) for pair in ranks}

    def counts(cards: list[int]) -> tuple[int, ...]:
        out = [0] * 10
        for c in cards:
            out[c - 1] += 1
        return tuple(out)

    def play_round(rng: random.Random) -> float:
        def draw() -> int:
            return rng.choices(ranks, weights)[0]

        a, b, up = draw(), draw(), draw()
        hole = draw() if peek else None
        player_natural = is_natural((a, b))
        if hole is not None and is_natural((up, hole)):
            if player_natural:
                return 0.0
            return -0.5 if rules.surrender == "early" and first_move(a, b, up) == "surrender" else -1.0
        if player_natural:
            if hole is None:
                hole = draw()
            return 0.0 if is_natural((up, hole)) else pays
        best = first_move(a, b, up)
        if best == "surrender":
            return -0.5
        hands: list[tuple[list[int], int]] = []  # cards, stake
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
                if move == "double":
                    hands.append((cards + [draw()], 2))
                    continue
                if move == "hit":
                    cards = cards + [draw()]
                    while hand_value(cards).total < 21 and solver.split_hits(counts(cards), up, pair, table):
                        cards.append(draw())
                hands.append((cards, 1))
        elif best == "double":
            hands.append(([a, b, draw()], 2))
        else:
            cards = [a, b]
            if best == "hit":
                cards.append(draw())
                while hand_value(cards).total < 21 and solver.continues_hitting(counts(cards), up):
                    cards.append(draw())
            hands.append((cards, 1))
        dealer = [up, hole if hole is not None else draw()]
        if is_natural(dealer):  # no hole card: a dealer natural takes the bets (OBO: the original one)
            return float(rules.dealer_natural_loss([stake for _, stake in hands]))
        while not rules.dealer_stands(hand_value(dealer)):
            dealer.append(draw())
        split_hands = best == "split"
        return float(sum(rules.settle(cards, dealer, stake, split=split_hands) for cards, stake in hands))

    return play_round


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
        check = check_round_simulator(play_round, rules, rounds=rounds or DEFAULT_GAME_ROUNDS, seed=seed,
                                      alpha=DEFAULT_ALPHA if alpha is None else alpha, strategy=chart)
    except BjexactError as exc:
        raise AssertionError(f"the simulator cannot be checked: {exc}") from None
    if not check.passed:
        raise AssertionError("the simulator's rounds disagree with the exact distribution of net results:\n"
                             + format_round_check(check))
