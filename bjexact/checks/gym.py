"""gymnasium's Blackjack-v1: its exact values and a check of the environment against them.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..core.deal import infinite_hands, infinite_natural_chance
from ..core.hand import HandValue, add_card, hand_value
from ..core.numbers import fraction_string, mpq
from ..core.rules import Rules
from ..dealer.distributions import dealer_table
from ..errors import BjexactError
from ..player.outcomes import stand_results
from ..player.solver import solve_infinite
from .simulators import DEFAULT_ALPHA, MIN_EXPECTED, goodness_of_fit, holm_tested, rounds_for_a_test
from .stats import chi2_sf, normal_quantile

__all__ = [
    "GYM_RULES", "stick_on_20", "optimal_gym_policy", "gym_observations", "gym_results", "gym_start_results",
    "gym_start_distribution", "gym_values", "gym_game_value", "GymCheck", "check_gym_blackjack",
    "format_gym_check", "gym_dealer_outcome",
]


# --- gymnasium's Blackjack-v1 ------------------------------------------------------------------------------
#
# Its rules: cards drawn with replacement (the infinite deck), the dealer stands on all 17s, no
# peek (a dealer natural is a 21 that pushes against any player 21), a player over 21 loses at
# once, ties push. Observations are (player sum, dealer up-card 1..10, usable ace 0/1); action 1
# hits, 0 sticks. Options: natural=True pays 1.5 when a starting natural wins (it pushes against
# any dealer 21); sab=True (Sutton and Barto) makes a starting natural win 1 unless the dealer
# also has a natural, which pushes. These are gymnasium's rules, not a GameRules game (a natural pushes
# against any 21), so they are settled here; the natural and the dealer's play are bjexact's own.

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

    rows = dealer_table(GYM_RULES).rows
    p = GYM_RULES.make_shoe().draw_probabilities()
    results: dict[Observation, dict[str, mpq]] = {}

    def stand(total: int, upcard: int) -> dict[str, mpq]:
        _, win, push, loss = stand_results(total, rows[upcard])  # no naturals under as21
        return {"win": win, "push": push, "loss": loss}

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

    in_play = gym_results(policy)
    start = dict(in_play)
    rows = dealer_table(GYM_RULES).rows
    p = GYM_RULES.make_shoe().draw_probabilities()
    for upcard in range(1, 11):
        key = (21, upcard, 1)
        if policy(key) == 1 or not (natural or sab):
            continue  # hitting a natural forfeits the bonus: the state plays as in play
        if sab:
            dealer_natural = infinite_natural_chance(upcard, p)
            start[key] = {"win": 1 - dealer_natural, "push": dealer_natural, "loss": mpq(0)}
        else:
            twenty_one = rows[upcard]["21"]
            start[key] = {"natural": 1 - twenty_one, "push": twenty_one, "loss": mpq(0)}
    return start


def gym_start_distribution() -> dict[Observation, mpq]:
    """P(starting observation): two player cards and the dealer's up-card, infinite deck."""

    p = GYM_RULES.make_shoe().draw_probabilities()
    out: dict[Observation, mpq] = {}
    for upcard in range(1, 11):
        for (a, b), chance in infinite_hands(p):
            hand = hand_value((a, b))
            key = (hand.total, upcard, int(hand.soft))
            out[key] = out.get(key, mpq(0)) + p[upcard - 1] * chance
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


def _observation(raw: Any) -> Observation:
    """The environment's observation (numpy integers) as a tuple of three ints."""
    total, upcard, soft = (int(x) for x in raw)
    return total, upcard, soft


def run_gym_episodes(env: Any, policy: GymPolicy, episodes: int, seed: int) -> list[tuple[Observation, str]]:
    """Play ``episodes`` episodes; the starting observation and the result of each."""
    out = []
    observation, _ = env.reset(seed=seed)
    for n in range(episodes):
        if n:
            observation, _ = env.reset()
        start = _observation(observation)
        done, reward = False, 0.0
        while not done:
            observation, reward, terminated, truncated, _ = env.step(policy(_observation(observation)))
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
    z_crit = normal_quantile(1 - alpha / 2)
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
    states = holm_tested(raw, lambda t, a: replace(t, adjusted_p=a))
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
