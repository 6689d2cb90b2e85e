"""``bjexact count``: a counting system measured by exact values of the rounds of simulated shoes."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import BjexactError
from .common import add_output_options, bounded_int, check_workers, default_store, number_style, write_outputs
from .game_options import GAME_RULES_HELP, add_game_rule_options, game_rules_from_args

EXAMPLES = """\
examples:
  bjexact count --system hi-lo --decks 6 --split-hands 2 --shoes 20 --penetration 0.75 --seed 1
  bjexact count --system ko --decks 1 --shoes 50 --workers 2
  bjexact count --system my-count.toml --decks 2 --scheduler tcp://10.0.0.5:8786
  bjexact count --system hi-opt-2 --decks 1 --shoes 5 --serial --format json
  bjexact count --decks 1 --shoes 20 --plot hi-lo.svg    # needs matplotlib: pip install 'bjexact[plot]'
  bjexact count --decks 1 --shoes 1 --eor               # betting correlation from effects of removal: 0.964
  bjexact count indices --system hi-lo --decks 6        # the index chart, exactly (count indices --help)
  bjexact count betting --decks 6 --ramp=-1:1,1:2,2:4  # win rate, SD, N0, SCORE, RoR (count betting --help)

Shoes are shuffled from --seed (shoe i is always the same shoe) and dealt heads-up to the
cut card (--penetration), every round played by the full shoe's basic strategy chart (its
cards are those of a real round: splits, doubles, the dealer drawing only against a hand
still standing). Before each round the unseen cards are known exactly and the round is
solved exactly for them: its value under the optimal strategy for those cards, and under
the full shoe's basic strategy chart on every decision. Reported: the mean exact value at
each true count (running count per deck unseen, floored; unbalanced systems such as KO:
at each running count from the initial running count, 4 - 4 x decks for KO, with the key
count) with the rounds behind it; the betting correlation (correlation of the count with
the round's exact value); index numbers: for 16 v T, 15 v T, 12 v 3, 12 v 2, 10 v T,
11 v A, 9 v 2 and insurance, the count from which the deviation from basic strategy gains
most on the simulated rounds (exact gains), with the share of rounds on which the index
plays the composition's best move; and the playing efficiency: what those indices gain
over basic strategy as a share of what perfect play gains. A count system file is TOML:
name = "Zen"  tags = [-1, 1, 1, 2, 2, 2, 1, 0, 0, -2]   (A, 2, ..., 9, T).
Each round's result is stored under its content hash in --store: an interrupted run
resumes. Every round is two exact solves on one set of dealer distributions (see
benchmarks/count.py for rounds per second).
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "count", help="a count system measured exactly on simulated shoes (EV by true count, indices)",
        description="Deal simulated shoes and solve every round exactly for the cards unseen: "
                    "EV by true count, betting correlation, playing efficiency, index numbers.",
        epilog=GAME_RULES_HELP + "\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--system", default="hi-lo", metavar="hi-lo|ko|hi-opt-1|hi-opt-2|omega-2|zen|FILE",
                        help="the count system (default: hi-lo)")
    parser.add_argument("--shoes", type=bounded_int(1, 10**6), default=10, metavar="N",
                        help="shoes to deal (default: 10)")
    parser.add_argument("--penetration", default="0.75", metavar="P",
                        help="share of the shoe dealt before the cut card (default: 0.75)")
    parser.add_argument("--seed", type=int, default=1, metavar="S", help="the shuffles' seed (default: 1)")
    parser.add_argument("--store", default=None, metavar="DIR",
                        help="the results store (default: bjexact/count.store in the user's cache directory, "
                             "$XDG_CACHE_HOME or else ~/.cache)")
    add_game_rule_options(parser)
    where = parser.add_argument_group("execution")
    where.add_argument("--workers", type=bounded_int(1, 10**6), default=None, metavar="N",
                       help="worker processes of the local cluster (default: one per core)")
    where.add_argument("--scheduler", default=None, metavar="ADDRESS", help="use the Dask cluster at ADDRESS")
    where.add_argument("--serial", action="store_true", help="solve in this process, without Dask")
    parser.add_argument("--eor", action="store_true",
                        help="also the classic betting correlation: the tags against the exact effects of "
                             "removal (11 more solves)")
    parser.add_argument("--plot", default=None, metavar="FILE.svg|.pdf|.png",
                        help="also draw EV by true count with the share of rounds at each (needs matplotlib)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_output_options(parser, formats=("text", "md", "json"))
    parser.set_defaults(run=run, output_options=(("output", "-o"), ("plot", "--plot")))
    from . import count_exact

    count_exact.register(parser.add_subparsers(dest="count_command", metavar="indices|betting",
                                               title="exact tables (each has its own --help)"))


def run(args: argparse.Namespace) -> int:
    if args.store is None:
        args.store = str(default_store())
    from ..apps.sweep import ResultStore, RunStats, run_tasks, scheduler_address
    from ..core.numbers import mpq, parse_fraction
    from ..counting.simulation import (
        ROUND_KIND,
        analyse,
        check_work,
        count_plot,
        deal_shoe,
        load_system,
        round_task,
        round_tasks,
    )
    from ..render.tables import NumberStyle, Table, render

    check_workers(args)
    if args.scheduler is not None:
        args.scheduler = scheduler_address(args.scheduler)
    try:
        penetration = parse_fraction(args.penetration)
    except ValueError:
        raise BjexactError(f"--penetration must be a number such as 0.75, not {args.penetration!r}") from None
    if not 0 < penetration <= 1:
        raise BjexactError(f"--penetration must be more than 0 and at most 1, not {args.penetration}")
    if args.plot and Path(args.plot).suffix not in (".svg", ".pdf", ".png"):
        raise BjexactError(f"a plot file must end in .svg, .pdf or .png, not {args.plot!r}")
    system = load_system(args.system)
    rules = game_rules_from_args(args)
    if rules.infinite:
        raise BjexactError("counting needs a finite shoe: --decks N or --shoe")
    full = rules.make_shoe().counts
    check_work(args.shoes, sum(full), penetration)
    rounds = [r for i in range(args.shoes) for r in deal_shoe(full, i, args.seed, penetration, rules)]
    rules_json = rules.to_json()
    tasks = round_tasks(rules, rounds)
    stats = RunStats()
    results = run_tasks(tasks, store=ResultStore(Path(args.store), kind=ROUND_KIND), kind=ROUND_KIND,
                        function=round_task, executor="serial" if args.serial else "dask",
                        scheduler=args.scheduler, workers=args.workers, progress=False if args.quiet else None,
                        stats=stats, label="solving rounds")
    analysis = analyse(system, full, rounds, results)
    eor_lines, eor_json = [], None
    if args.eor:
        eor_lines, eor_json = _removal(args, rules_json, full, system, number_style(args))
    style = number_style(args)
    signed = NumberStyle(style.decimals, style.percent, style.exact, signed=True)
    total = analysis.rounds
    share = NumberStyle(1, True)
    running = analysis.by == "running"
    count_notes = [f"{system.name} is unbalanced: rounds by running count, from the initial running count "
                   f"{analysis.initial_running_count:+d}; key count (from it up, the rounds at each count have a "
                   "positive mean value under basic strategy): "
                   + ("none" if analysis.key_count is None else f"{analysis.key_count:+d}")] if running else []
    by_count = Table(
        f"Expected result by {analysis.by} count ({signed.value_units}): {system.name}, {rules.describe()}",
        [f"{analysis.by} count", "rounds", "share (%)", "optimal", "basic"],
        [[f"{b.count:+d}", str(b.rounds), share.plain(mpq(b.rounds, total)), b.ev, b.ev_basic]
         for b in analysis.bins],
        [f"{total} rounds of {analysis.shoes} shoes (seed {args.seed}, penetration {args.penetration}); "
         f"{stats.computed} solved on {stats.workers} worker(s), {stats.stored} from the store {args.store}",
         "optimal: the best play for the cards unseen; basic: every decision by the full shoe's basic strategy "
         "chart (total-dependent), valued exactly for the cards unseen"] + count_notes + [
         f"all rounds: optimal {signed.value_text(analysis.ev)}, basic {signed.value_text(analysis.ev_basic)}",
         f"betting correlation ({analysis.by} count vs exact value): "
         + ("n/a" if analysis.betting_correlation is None else f"{analysis.betting_correlation:.3f}"),
         "playing efficiency (indices below / perfect play, gain over basic): "
         + ("n/a" if analysis.playing_efficiency is None
            else share.plain(analysis.playing_efficiency) + "%")] + eor_lines,
    )
    indices = Table(
        "Index numbers, estimated from the exact decisions of the simulated rounds",
        ["decision", "basic", "deviation", "index", "rounds", "agreement", "gain per 100 rounds"],
        [[i.decision, i.basic, i.move, _index_text(i), str(i.rounds), share.plain(i.agreement) + "%",
          i.gain] for i in analysis.indices],
        [f"index: play the deviation at {analysis.by} counts >= (or <=) the number; none: never on these rounds",
         "agreement: share of rounds meeting the decision where the index plays the best move; "
         "gain: exact, per 100 rounds, in units of the initial bet"],
    )
    document = analysis.to_json() | ({"effects_of_removal": eor_json} if eor_json is not None else {})
    text = render([by_count, indices], args.format, signed, document)
    write_outputs(text, args.output, [(Path(args.plot), count_plot(analysis, args.plot))] if args.plot else [])
    return 0


def _index_text(index) -> str:
    if index.threshold is None:
        return "none"
    return f"{'>=' if index.direction == '+' else '<='} {index.threshold:+d}"


def _removal(args, rules_json, full, system, shown):
    """The effects of removal of the full shoe (exact re-solves, stored like rule sets) and the
    betting correlation of the tags with them."""
    from ..apps.sweep import ResultStore, canonical_rules, run_tasks
    from ..core.numbers import fraction_string, parse_fraction
    from ..counting.simulation import effects_of_removal, eor_betting_correlation, removal_shoes
    from ..render.tables import NumberStyle

    base = {k: v for k, v in rules_json.items() if k != "decks"}
    tasks = [canonical_rules(base | {"shoe": list(shoe)}) for shoe in removal_shoes(full)]
    results = run_tasks(tasks, store=ResultStore(Path(args.store)), executor="serial" if args.serial else "dask",
                        scheduler=args.scheduler, workers=args.workers, progress=False if args.quiet else None,
                        label="effects of removal")
    eors = effects_of_removal(full, [parse_fraction(r["ev"]) for r in results])
    correlation = eor_betting_correlation(system, eors)
    style = NumberStyle(shown.decimals, shown.percent, shown.exact, signed=True)
    symbols = "A23456789T"
    shown_eors = "  ".join(f"{symbols[r - 1]} {style.plain(e)}" for r, e in eors.items())
    lines = [f"effects of removal ({style.value_units}): {shown_eors}",
             "betting correlation (tags vs effects of removal, 13 cards): "
             + ("n/a" if correlation is None else f"{correlation:.3f}")]
    document = {"eor": {symbols[r - 1]: fraction_string(e) for r, e in eors.items()},
                "betting_correlation": correlation}
    return lines, document
