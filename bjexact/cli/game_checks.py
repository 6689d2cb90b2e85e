"""The full game's checks on the command line: ``verify --kind chart|edge`` and ``check-sim --game``.

``verify`` and ``check-sim`` call :func:`add_game_check_options` when they build their parsers and
hand over to :func:`run_verify_game` / :func:`run_check_sim_game`; only the options they lack are
added (``--decks``, ``--shoe``, ``--h17`` are theirs).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..errors import BjexactError
from .common import write_output

GAME_CHECKS_HELP = """\
full game (verify --kind chart|edge, check-sim --game): the rules of `bjexact edge`
(--double, --no-double-soft, --das/--no-das, --split-hands, --rsa, --hit-split-aces,
--surrender, --hole-card, --obo, --bj-pays).
  verify --kind chart FILE   a basic strategy chart (hard, soft, pairs; H S D Dh Ds P Ph Pd R Rh Rs Rp,
                             Hit/Stand/Dbl/SP/Sur); each wrong cell with its exact cost per 100 units bet;
                             cells whose two-card hands disagree are 'depends on composition', not wrong.
                             Layouts: aligned text, Markdown, LaTeX, bjexact's JSON, CSV grids (columns 2..A;
                             rows 16, hard 16, H16, soft 18, S18, A,7, 8,8, P8, PA; untitled blocks of bare
                             numbers hard 5-21, soft 13-21, pairs 2-A follow one another); every cell that
                             cannot be read is listed. Every chart `bjexact chart` prints is read back.
                             --identify: decks 1/2/4/6/8/inf x S17/H17 x DAS x surrender x hole card
                             (--decks restricts; split to 2 hands unless --split-hands is given), best first.
  verify --kind edge -- -0.46%   a published edge (player expectation or house edge, to its printed
                             precision); --identify: which rule sets it fits. --scale probability: 0.0046.
                             FILE of lines 'RULES  EDGE' ("6 decks, H17, DAS, late surrender: 0.42%"):
                             each line's rules read from its words, the others from the options.
  check-sim --game MODULE:NAME  play_round(rng) -> net result per unit bet, against the exact
                             distribution (infinite deck, no splitting, or finite shoes whose split
                             hands' lines can be followed); the reference simulator is
                             bjexact.checks.rounds:exact_round_simulator with --factory.
                             --chart FILE: the rounds play that basic strategy chart (codes and layouts as
                             in verify --kind chart; after the first two cards the hard/soft rows; hard 4
                             and 20, when not printed, play as the nearest printed hard row).
"""


def add_game_check_options(parser: argparse.ArgumentParser, *, simulator: bool = False) -> None:
    """Add the full game's rule options ``parser`` lacks (and ``--game`` for check-sim)."""
    from .game_options import add_game_rule_options

    if simulator:
        parser.add_argument("--game", action="store_true",
                            help="MODULE:NAME plays whole rounds: play_round(rng) -> net result per unit bet")
        parser.add_argument("--strategy", choices=("optimal", "chart"), default=None,
                            help="with --game, the play the rounds follow: bjexact's optimal play (default) or "
                                 "the basic strategy chart of --chart")
        parser.add_argument("--chart", default=None, metavar="FILE",
                            help="with --game, the chart the rounds are played by (implies --strategy chart; "
                                 "with --factory NAME is called with the rules and the chart)")
    if simulator:
        add_game_rule_options(parser, title="full game rules (--game)")
    else:
        add_game_rule_options(parser, title="full game rules (--kind chart|edge)",
                              split_hands_help="(default: 4; with --identify 2)")


def game_rules(args: argparse.Namespace, *, identify: bool = False):
    """The :class:`bjexact.core.rules.GameRules` of the options (split once by default with --identify)."""
    from .game_options import game_rules_from_args

    return game_rules_from_args(args, split_hands=2 if identify else 4)


def _candidates(args: argparse.Namespace):
    from ..checks.charts import chart_rule_sets

    base = game_rules(args, identify=True)
    decks = [base.decks] if args.decks is not None else None
    if args.shoe is not None:
        raise BjexactError("--identify tries numbers of decks: give --decks N or nothing, not --shoe")
    return chart_rule_sets(base, decks=decks, h17=(True,) if args.h17 else (False, True))


def _emit(args, result, text: str, consistent: bool) -> int:
    write_output(json.dumps(result.to_json(), indent=2) + "\n" if args.format == "json" else text, args.output)
    return 0 if consistent else 1


def run_verify_game(args: argparse.Namespace, text_of_file) -> int:
    """``verify --kind chart|edge``; ``text_of_file(path)`` reads FILE ('-': standard input)."""
    from ..checks import charts as chart_check
    from ..checks import edges as edge_check

    if args.kind == "edge":
        printed = args.file
        scale = "fraction" if args.scale == "probability" else "auto"
        if args.file == "-" or not _is_edge(printed):  # '-' is standard input, as for every FILE
            printed = text_of_file(args.file).strip()
            if not _is_edge(printed):  # a file of lines 'RULES  EDGE'
                if args.identify:
                    raise BjexactError("--identify takes one house edge, not a file of rule sets and edges")
                source = "<stdin>" if args.file == "-" else args.file
                checks = edge_check.check_edge_file(printed, game_rules(args), source=source, scale=scale,
                                                    progress=None)
                return _emit(args, checks, edge_check.format_edge_file_check(checks), checks.consistent)
        if args.identify:
            fit = edge_check.fit_edge(printed, _candidates(args), scale=scale, progress=None)
            best = fit.checks[0]
            return _emit(args, fit, edge_check.format_edge_check(best, fit), bool(fit.matches))
        check = edge_check.check_edge(printed, game_rules(args), scale=scale, progress=None)
        return _emit(args, check, edge_check.format_edge_check(check), check.consistent)
    source = "<stdin>" if args.file == "-" else args.file
    chart = chart_check.read_chart(text_of_file(args.file), source=source)
    if args.identify:
        identification = chart_check.identify_chart(chart, _candidates(args), progress=None)
        return _emit(args, identification, chart_check.format_chart_identification(identification),
                     bool(identification.matches))
    chart_result = chart_check.check_chart(chart, game_rules(args), chart_check.cached_solution(game_rules(args), None))
    return _emit(args, chart_result, chart_check.format_chart_check(chart_result, show_all=args.all),
                 chart_result.consistent)


def _is_edge(text: str) -> bool:
    from ..checks.edges import parse_edge

    try:
        parse_edge(text)
    except BjexactError:
        return False
    return True


def run_check_sim_game(args: argparse.Namespace, load_user_code, check_run_options) -> int:
    """``check-sim --game MODULE:NAME``: a whole-round simulator against the exact distribution
    (``load_user_code``, ``check_run_options``: check-sim's, shared with the dealer check)."""
    from ..checks import rounds as round_check

    if args.gym:
        raise BjexactError("--game and --gym are two different checks: give one")
    if args.simulator is None:
        raise BjexactError("name the round simulator as MODULE:NAME")
    from ..progress import Progress
    from . import safety

    rules = game_rules(args)
    chart = _chart_strategy(args)
    from ..errors import OutOfTime

    alpha = round_check.DEFAULT_ALPHA if args.alpha is None else args.alpha
    check_run_options(args, alpha)
    shift = round_check.DEFAULT_SHIFT if args.bias is None else args.bias
    if not 0 < shift < 0.5:
        raise BjexactError(f"--bias with --game: the shift of an outcome's probability to detect, above 0 and "
                           f"below 0.5, not {shift!r}")
    rounds = args.rounds
    if rounds is None:  # solved here, before the simulator is imported
        rounds = round_check.planned_game_rounds(rules, chart, shift, alpha)
    factory_args = (rules, *(() if chart is None else (chart,))) if args.factory else None
    simulator, started = load_user_code(args.simulator, args.timeout, factory_args)
    try:
        with Progress(rounds, "check-sim") as bar, safety.GuardedRoundSimulator(
                simulator, call_timeout=args.call_timeout, timeout=args.timeout, progress=bar,
                stop=OutOfTime, started=started) as guarded:
            check = round_check.check_round_simulator(guarded, rules, rounds=rounds, seed=args.seed, alpha=alpha,
                                                      strategy=chart, strategy_name=f"the chart {args.chart}",
                                                      shift=shift)
    except safety.Abort as exc:
        raise BjexactError(str(exc)) from None
    return _emit(args, check, round_check.format_round_check(check), check.passed)


def _chart_strategy(args: argparse.Namespace):
    """The chart of ``--strategy chart --chart FILE`` as a policy, ``None`` for optimal play."""
    from ..checks.charts import chart_policy

    if args.strategy == "chart" and args.chart is None:
        raise BjexactError("--strategy chart needs the chart: --chart FILE")
    if args.strategy == "optimal" and args.chart is not None:
        raise BjexactError("--chart is the strategy: give --strategy chart or leave --strategy out")
    if args.chart is None:
        return None
    path = Path(args.chart)
    if not path.is_file():
        raise BjexactError(f"no chart file {args.chart!r}")
    return chart_policy(path)
