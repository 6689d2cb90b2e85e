"""``bjexact check-sim``: a statistical check of a user's dealer simulator against the exact values."""

from __future__ import annotations

import argparse
from typing import Any

from .common import RULES_HELP, add_rule_options, bounded_int, rules_from_args, write_output
from .game_checks import GAME_CHECKS_HELP, add_game_check_options, run_check_sim_game

MAX_ROUNDS = 10**9
DEALER_ROUNDS = 200_000  # bjexact.checks.simulators.DEFAULT_ROUNDS (checked by the tests)
DEALER_BIAS = 0.005
GAME_SHIFT = 0.002  # bjexact.checks.sequential.DEFAULT_SHIFT (checked by the tests)
DEFAULT_CALL_TIMEOUT = 10.0
DEFAULT_TIMEOUT = 1800.0

EXAMPLES = """\
examples:
  bjexact check-sim mypkg.sim:dealer_outcome --decks 6 --rounds 200000
  bjexact check-sim ./mysim.py:dealer_outcome --decks inf --h17 --format json
  bjexact check-sim bjexact.checks.simcheck:exact_dealer_simulator --factory --decks 6   # the reference
  bjexact check-sim --gym --policy stick20 --episodes 50000   # gymnasium's Blackjack-v1
  bjexact check-sim --gym --policy optimal --no-sab --natural --format json

The dealer contract: the simulator is a callable dealer_outcome(upcard, rng) -> outcome:
  upcard  an int rank: 1 for the ace, 2..9, 10 for any ten-valued card;
  rng     a seeded random.Random: draw every random number from it (numpy users:
          numpy.random.default_rng(rng.getrandbits(64)));
  result  "17".."21", "bust" or "blackjack" (a natural), or a total (17..21, above 21
          for a bust; a total below 17 is an impossible outcome and fails its up-card).
  Each call plays one round from a fresh full shoe less the up-card.
With --factory, NAME is called with the rules, a bjexact.Rules: decks (int, or
float('inf')), shoe (ten ints A,2..9,T, or None), h17 (bool), naturals (str: as21,
separate, peek), bj_pays (a Fraction-like mpq); it returns the simulator.

The --game contract: the simulator is a callable play_round(rng) -> net result:
  rng     as above: every random number from it;
  round   one player hand (one box) against the dealer, from a fresh full shoe (no
          cut card, no cards carried over), played by bjexact's optimal strategy
          (or by --chart), never taking insurance or even money;
  result  a number: the net result per unit initial bet, summed over split hands
          (+1.5 for a natural at 3:2, -2 for a lost double, -0.5 for a surrender).
          A finite number the rules cannot produce (-16, 1.2 under 3:2) is counted as
          an impossible result (FAIL); NaN, infinities and non-numbers stop the run.
With --factory, NAME is called with the rules, a bjexact.GameRules: decks (int, or
float('inf')), shoe (ten ints A,2..9,T, or None), h17 (bool), bj_pays (mpq), double
(str: any, 9-11, 10-11, none), double_soft (bool), das (bool), split_hands (int 1..8),
rsa (bool), hit_split_aces (bool), surrender (str: none, late, early), hole_card (str:
peek, enhc), obo (bool), split_strategy (str: cdz, cdp1, cdp), double_split_aces (bool),
double_after_hit (bool: a hand of any number of cards may double), charlie (None, or
the number of cards of a Charlie: it wins 1:1 at once); with --chart it also
gets the chart, a bjexact.player.policy.ChartPolicy whose .codes maps (section, row,
up-card) to a code: section hard|soft|pairs, row a total ('16') or a pair's card ('8',
'T', 'A'), up-card an int 1..10. An exception from the factory or from the first round
is reported as the simulator refusing the rules (exit 2). A complete adapter, under
30 lines: examples/round_adapter.py in bjexact's repository.

Rounds are split evenly over the up-cards; each up-card's outcomes get a chi-square
goodness-of-fit test, Holm-corrected across up-cards at level --alpha.
--gym runs gymnasium's Blackjack-v1 (infinite deck, S17, no peek; note that it is
registered with sab=True) under a policy and compares each starting observation's
results and the mean return with the exact values; JSON adds the exact state values.

An up-card whose expected counts are all below 5 cannot be tested (no degree of
freedom is left): the verdict is then NOT TESTED, never a pass, and names the rounds
a test needs. --gym counts episodes (--episodes), not --rounds.

Time limits: each call of the simulator must answer within --call-timeout seconds
(default 10) and the whole run end within --timeout seconds (default 1800), importing
the module and calling the factory included; --rounds is at most 1,000,000,000. Code that
swallows the stop and runs on is ended at the next alarm (half a second later); threads it
leaves running do not hold the exit. What cannot be stopped: code stuck inside one C call
that ignores signals, or code that ends the process itself (os._exit). A progress bar is
drawn on a terminal.

Exit status: 0 pass, 1 fail or too few rounds to test, 2 bad input (a simulator that
cannot be imported, raises an exception, or answers something that is not an outcome).
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "check-sim",
        help="test a dealer simulator, or a whole-round one (--game), statistically against the exact values",
        description="Run a dealer simulator (or, with --game, a simulator of whole rounds) and test its results "
                    "against the exact probabilities.",
        epilog=RULES_HELP + "\n" + EXAMPLES + "\n" + GAME_CHECKS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("simulator", metavar="MODULE:NAME", nargs="?",
                        help="the simulator: an importable module (or a .py file) and a callable in it")
    gym = parser.add_argument_group("gymnasium's Blackjack-v1 (instead of MODULE:NAME)")
    gym.add_argument("--gym", action="store_true", help="check gymnasium's Blackjack-v1 environment")
    gym.add_argument("--policy", choices=("stick20", "optimal"), default=None,
                     help="the player's policy: stick only on 20 or 21, or the exact optimum (default: stick20)")
    gym.add_argument("--natural", action=argparse.BooleanOptionalAction, default=None,
                     help="the environment's natural option (default: as registered)")
    gym.add_argument("--sab", action=argparse.BooleanOptionalAction, default=None,
                     help="the environment's sab option (default: as registered, True)")
    gym.add_argument("--episodes", type=bounded_int(0, MAX_ROUNDS), default=None, metavar="N",
                     help="episodes (default: 20000)")
    parser.add_argument("--factory", action="store_true", help="NAME takes the rules and returns the simulator")
    add_rule_options(parser)
    group = parser.add_argument_group("test")
    group.add_argument("--rounds", type=bounded_int(1, MAX_ROUNDS), default=None, metavar="N",
                       help=f"rounds in all (default: {DEALER_ROUNDS}; with --game, the rounds whose last look "
                            "catches a shift of --bias in any outcome's probability with power 0.9, about 1.4 "
                            "million on common rules; the run stops at an earlier look that fails)")
    group.add_argument("--seed", type=bounded_int(-(2**63), 2**63 - 1, signed=True), default=0,
                       help="seed of the random numbers (default: 0)")
    group.add_argument("--alpha", type=float, default=None, help="significance level (default: 0.01)")
    group.add_argument("--bias", type=float, default=None, metavar="P",
                       help=f"report the rounds that detect a probability shift P (default: {DEALER_BIAS}); with "
                            f"--game, the shift of any outcome's probability the default --rounds detect "
                            f"(default: {GAME_SHIFT})")
    group.add_argument("--call-timeout", type=float, default=DEFAULT_CALL_TIMEOUT, metavar="S",
                       help=f"seconds one call of the simulator may take (default: {DEFAULT_CALL_TIMEOUT:g})")
    group.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S",
                       help=f"seconds the whole run may take (default: {DEFAULT_TIMEOUT:g})")
    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=("text", "json"), default="text", help="report format (default: text)")
    out.add_argument("-o", "--output", default=None, metavar="FILE", help="write the report to FILE")
    add_game_check_options(parser, simulator=True)
    parser.set_defaults(run=run)


def load_callable(spec: str):
    """Import ``module:name`` (``module`` may be a dotted name or a path to a .py file)."""
    import importlib
    import importlib.util
    import os
    import sys
    from pathlib import Path

    from ..errors import BjexactError
    from . import safety

    module_name, sep, attr = spec.rpartition(":")
    if not sep or not module_name or not attr:
        raise BjexactError(f"name the simulator as MODULE:NAME, not {spec!r}")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            if not path.is_file():
                raise BjexactError(f"no such file: {module_name}")
            module_spec = importlib.util.spec_from_file_location(path.stem, path)
            if module_spec is None or module_spec.loader is None:
                raise BjexactError(f"cannot load {module_name} as a Python module")
            module = importlib.util.module_from_spec(module_spec)
            module_spec.loader.exec_module(module)
        else:
            if os.getcwd() not in sys.path:
                sys.path.insert(0, os.getcwd())
            module = importlib.import_module(module_name)
    except (BjexactError, safety.Abort):
        raise
    except KeyboardInterrupt:
        if safety.user_interrupted():
            raise
        raise BjexactError(f"cannot import {module_name}: it raised KeyboardInterrupt") from None
    except SystemExit as exc:
        raise BjexactError(f"cannot import {module_name}: it called sys.exit({safety.safe_repr(exc.code)})") from None
    except BaseException as exc:  # the user's module failed to import: say so in one line
        raise BjexactError(f"cannot import {module_name}: {type(exc).__name__}: {safety.one_line(exc)}") from None
    try:
        target = safety.call_user_code(getattr, module, attr, what=f"getting {attr!r} from {module_name}")
    except safety.Abort as exc:
        if "AttributeError" in str(exc):
            raise BjexactError(f"{module_name} has no attribute {attr!r}") from None
        raise BjexactError(str(exc)) from None
    if not callable(target):
        raise BjexactError(f"{spec} is not callable")
    return target


def run(args: argparse.Namespace) -> int:
    import json

    from ..checks import simcheck
    from ..errors import BjexactError
    from ..progress import Progress
    from . import safety

    if args.game:
        return run_check_sim_game(args, load_user_code, check_run_options)
    if args.strategy is not None or args.chart is not None:
        raise BjexactError("--strategy and --chart choose the play of whole rounds: they go with --game")
    if args.gym:
        return _run_gym(args)
    if args.simulator is None:
        raise BjexactError("name the simulator as MODULE:NAME (or use --gym)")
    if args.episodes is not None or args.policy is not None or args.natural is not None or args.sab is not None:
        raise BjexactError("--episodes, --policy, --natural and --sab are for --gym; a simulator runs --rounds")
    rules = rules_from_args(args)
    rounds = simcheck.DEFAULT_ROUNDS if args.rounds is None else args.rounds
    alpha = simcheck.DEFAULT_ALPHA if args.alpha is None else args.alpha
    _check_test_options(args, rules, alpha)
    simulator, started = load_user_code(args.simulator, args.timeout, (rules,) if args.factory else None)
    try:
        with Progress(rounds, "check-sim") as bar, safety.GuardedSimulator(
                simulator, call_timeout=args.call_timeout, timeout=args.timeout, rounds=rounds,
                progress=bar, started=started) as guarded:
            check = simcheck.check_dealer_simulator(guarded, rules, rounds=rounds, seed=args.seed, alpha=alpha)
    except safety.Abort as exc:
        raise BjexactError(str(exc)) from None
    if args.format == "json":
        report = json.dumps(check.to_json(), indent=2) + "\n"
    else:
        report = simcheck.format_simulator_check(check, shift=args.bias or None)
    write_output(report, args.output)
    return 0 if check.passed else 1


def load_user_code(spec: str, timeout: float, factory_args: tuple | None = None) -> tuple[Any, float]:
    """:func:`load_callable` of ``spec`` and, with ``factory_args``, :func:`from_factory` of it, within
    ``timeout`` seconds (the user's module may sleep while imported, its factory while called); the
    callable and the clock (``time.monotonic``) when this began, from which --timeout counts."""
    import time

    from ..errors import BjexactError
    from . import safety

    started = time.monotonic()
    doing = f"importing {spec}" + (" and calling its factory" if factory_args is not None else "")
    try:
        with safety.time_limit(timeout, f"{doing} took longer than --timeout {timeout:g} s"):
            target = load_callable(spec)
            if factory_args is not None:
                target = from_factory(target, spec, *factory_args)
    except safety.Abort as exc:
        raise BjexactError(str(exc)) from None
    return target, started


def from_factory(factory, spec: str, rules, *extra):
    """The simulator ``factory(rules, *extra)`` returns; a factory that raises has refused the rules,
    and one that exits or returns no callable is named, in one line."""
    from ..errors import BjexactError
    from . import safety

    called = f"{spec}(rules{', chart' if extra else ''})"
    try:
        simulator = safety.call_user_code(factory, rules, *extra, what=f"the factory {called}",
                                          refused=f"the factory {called} refused these rules ({rules.describe()})")
    except safety.Abort as exc:
        raise BjexactError(str(exc)) from None
    if not callable(simulator):
        raise BjexactError(f"{called} did not return a callable but {safety.safe_repr(simulator)}")
    return simulator


def check_run_options(args: argparse.Namespace, alpha: float) -> None:
    """--alpha and the time limits, checked before any round runs (the dealer check and --game)."""
    import math

    from ..errors import BjexactError

    if not 0 < alpha < 1:
        raise BjexactError(f"--alpha must be between 0 and 1, not {alpha!r}")
    for flag, value in (("--call-timeout", args.call_timeout), ("--timeout", args.timeout)):
        if not math.isfinite(value) or value <= 0:
            raise BjexactError(f"{flag} must be a number of seconds > 0, not {value!r}")


def _check_test_options(args: argparse.Namespace, rules, alpha: float) -> None:
    """--alpha, --bias and the time limits, checked before any round runs."""
    import math

    from ..checks import simcheck
    from ..errors import BjexactError

    check_run_options(args, alpha)
    if args.bias is None:
        args.bias = DEALER_BIAS
    if not math.isfinite(args.bias) or not 0 <= args.bias < 1:
        raise BjexactError(f"--bias must be a probability shift from 0 (no power report) to below 1, "
                           f"not {args.bias!r}")
    if args.bias:
        rows = simcheck.exact_rows(rules)
        for row in rows.values():
            if sum(1 for p in row.values() if p) < 2:
                continue
            try:
                simcheck.rounds_to_detect_shift(row, args.bias, alpha=alpha, tests=len(rows))
            except BjexactError as exc:
                raise BjexactError(f"--bias {args.bias:g}: {exc}") from None


def _run_gym(args: argparse.Namespace) -> int:
    import json

    from ..checks import simcheck
    from ..core.numbers import fraction_string
    from ..errors import BjexactError

    if args.simulator is not None:
        raise BjexactError("--gym checks gymnasium's environment: drop MODULE:NAME")
    if args.rounds is not None:
        raise BjexactError("--gym counts episodes, not rounds: use --episodes N instead of --rounds")
    if args.factory:
        raise BjexactError("--factory is for MODULE:NAME simulators, not --gym")
    if args.decks is not None or args.shoe is not None or args.h17 or args.naturals != "as21":
        raise BjexactError("--gym uses the environment's own rules (infinite deck, S17, no peek): "
                           "drop the rule options")
    episodes = 20_000 if args.episodes is None else args.episodes
    policy_name = args.policy or "stick20"
    if episodes < 1:
        raise BjexactError("--episodes must be at least 1")
    try:
        import gymnasium  # noqa: F401
    except ImportError:
        raise BjexactError("--gym needs gymnasium: pip install gymnasium") from None
    alpha = simcheck.DEFAULT_ALPHA if args.alpha is None else args.alpha
    check = simcheck.check_gym_blackjack(policy_name, episodes=episodes, seed=args.seed,
                                         natural=args.natural, sab=args.sab, alpha=alpha)
    if args.format == "json":
        document = check.to_json()
        policy = simcheck.stick_on_20 if policy_name == "stick20" else simcheck.optimal_gym_policy()
        values = simcheck.gym_values(policy, natural=check.natural, sab=check.sab)
        document["policy"] = policy_name
        document["exact_values"] = [{"observation": list(o), "value": fraction_string(v), "action": policy(o)}
                                    for o, v in values.items()]
        report = json.dumps(document, indent=2) + "\n"
    else:
        report = simcheck.format_gym_check(check)
    write_output(report, args.output)
    return 0 if check.passed else 1
