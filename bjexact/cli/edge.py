"""``bjexact edge``: the exact expected result of a round of the full game, and the house edge."""

from __future__ import annotations

import argparse

from ..errors import BjexactError
from .common import add_output_options, number_style, write_outputs
from .figures import FIGURE_HELP, figure_file, rendered
from .game_options import GAME_RULES_HELP, add_game_rule_options, game_rules_from_args

EXAMPLES = """\
examples:
  bjexact edge                                  # 2 decks, the default rules
  bjexact edge --decks 6 --split-hands 2        # 6 decks, split once: -0.456886297%
  bjexact edge --decks inf --h17 --surrender late --format json
  bjexact edge --decks 6 --hole-card enhc --no-das
  bjexact edge --decks 1 --exact
  bjexact edge --decks 6 --h17 --strategy chart # playing the basic strategy chart, not the optimum
  bjexact edge --decks 6 --chart my-chart.txt   # playing a printed chart
  bjexact edge --decks 6 --split-hands 2 --distribution   # the distribution too (about 33 s)
  bjexact edge --decks inf --plot dist.svg      # and the net result's distribution as bars (.png, .pdf:
                                                # matplotlib, pip install 'bjexact[plot]')

Optimal composition-dependent play: each hand's moves depend on its own cards and
the up-card. --strategy chart: every hand played by the total-dependent basic strategy
chart (bjexact chart), as published house edges assume; --chart FILE: by a printed
chart. Numbers in % (--units per-unit: per unit initial bet; --exact: fractions); the
house edge is minus the expected result, by up-card with dealer naturals included. The
distribution of the round's net result (-8 .. +8 units and the natural's payout) and
its variance are exact. On finite shoes where pairs are split they need every line of
the split hands followed (the hands share the cards and the dealer's outcome): with
--distribution only (one to eight decks when pairs are split once: 14 s for one deck,
33 s for six; small shoes with resplits; beyond 30 million combinations of lines it is
not computed), and the output says when it is not computed and why. CSV: one table, a
first column "section" (summary, by up-card, how rounds go, net result). JSON: {"rules",
"ev", "house_edge", "by_upcard": {"2": ..., "A": ...}, "strategy": "optimal" or
"chart", "distribution": {"-2": ..., "3/2": ...} or null, "variance",
"distribution_missing": why it is null, or null}, values exact "p/q" strings per unit
initial bet, each with a float beside it ("ev_float", "by_upcard_float", ...).
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "edge", help="the exact house edge of the full game (double, split, surrender)",
        description="The exact expected result of a round of blackjack under optimal play, and the house edge.",
        epilog=GAME_RULES_HELP + "\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_rule_options(parser)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_output_options(parser)
    parser.add_argument("--distribution", action="store_true",
                        help="the exact distribution of the net result on a finite shoe where pairs are split "
                             "too (every line of the split hands: seconds to minutes; always computed for the "
                             "infinite deck and without splitting)")
    parser.add_argument("--plot", default=None, metavar="FILE",
                        help=f"also draw the distribution of the round's net result to FILE {FIGURE_HELP}; "
                             "implies --distribution")
    parser.add_argument("--strategy", choices=("optimal", "chart"), default=None,
                        help="optimal: composition-dependent optimal play (default); chart: the total-dependent "
                             "basic strategy chart of these rules (bjexact chart), the edge published tables quote")
    parser.add_argument("--chart", default=None, metavar="FILE",
                        help="play a printed chart (rows like '16 S S S S S H H H H H' under a header of up-cards "
                             "2..9, T, A; sections hard, soft, pairs); implies --strategy chart")
    parser.set_defaults(run=run, output_options=(("output", "-o"), ("plot", "--plot")))


def run(args: argparse.Namespace) -> int:
    from ..player.game import solve_game
    from ..render.game import edge_output

    figure = figure_file(args.plot, "--plot") if args.plot is not None else None
    strategy = "chart" if args.chart is not None else args.strategy or "optimal"
    if args.chart is not None and args.strategy == "optimal":
        raise BjexactError("--chart FILE plays the chart: it does not go with --strategy optimal")
    rules = game_rules_from_args(args, optimal_splits=True)
    split_lines = args.distribution or figure is not None
    if rules.split_strategy == "optimal" and (strategy == "chart" or split_lines):
        raise BjexactError("--split-strategy optimal gives the round's value under perfect post-split play only: "
                           "not with --strategy chart, --chart, --distribution or --plot")
    progress = False if args.quiet else None
    chart_source = None
    if strategy == "chart":
        from ..checks.charts import chart_policy
        from ..player.policy import ChartPolicy, evaluate_chart

        # a printed chart is read (and a bad one refused) before any work
        chart = chart_policy(args.chart).with_every_hard_row() if args.chart is not None else None
        chart_source = args.chart if args.chart is not None else "bjexact chart"
        optimal = solve_game(rules, with_distribution=False, progress=progress)
        played = evaluate_chart(rules, chart or ChartPolicy.of_solution(optimal), split_lines=split_lines,
                                progress=progress)
        solution = played
    else:
        solution = optimal = solve_game(rules, split_lines=split_lines, progress=progress)
    text = edge_output(solution, optimal, args.format, number_style(args), strategy, chart_source)
    figures = []
    if figure is not None:
        from ..render.figures import result_distribution_figure

        figures.append((figure, result_distribution_figure(solution)))
    write_outputs(text, args.output, rendered(figures))
    return 0

