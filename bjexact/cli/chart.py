"""``bjexact chart``: the exact basic strategy chart of the full game."""

from __future__ import annotations

import argparse

from ..errors import BjexactError
from ..render.svg import FIGURE_FORMATS
from .common import is_stdout, write_outputs
from .figures import FIGURE_HELP
from .game_options import GAME_RULES_HELP, add_game_rule_options, game_rules_from_args

EXAMPLES = """\
examples:
  bjexact chart --decks 6                      # hard, soft and pair sections
  bjexact chart --decks inf --h17 --surrender late
  bjexact chart --decks 1 --by hand            # every two-card hand, and the hands that differ
  bjexact chart --decks 6 --format json -o chart.json
  bjexact chart --decks 6 --split-hands 2 -o chart.svg         # the colour-coded chart (also .png, .pdf)
  bjexact chart --decks 6 --heatmap ev.svg                     # the best move's value per cell
  bjexact chart --decks 6 --heatmap double.svg --move double   # doubling's value per cell

Codes: H hit, S stand, Dh double else hit, Ds double else stand, P split, Rh/Rs/Rp
surrender else hit/stand/split. Total-dependent (the default): a cell's move has the
largest expected value summed over the two-card hands of that row, each weighted by
its chance of being dealt (so 12 v 4 with 6 decks is S although T,2 alone hits); a *
marks cells whose hands disagree. --by hand: the composition-dependent move of every
two-card hand and the hands that play differently from their cell. JSON: {"rules",
"hard": {"16": {"2": "S", ..., "A": "Rh"}, ...}, "soft": {"13": ...}, "pairs": {"8": ...}}
(soft rows keyed by total, pairs by rank).

Figures: -o FILE.svg (or --format svg) draws the chart as a colour-coded grid: stand
yellow, hit white, double blue, split green, surrender vermillion (Okabe-Ito colours,
told apart with the common colour-vision deficiencies); hovering a cell shows every
move's exact value. --heatmap FILE draws the value of the best move (--move: of one
move) for every row and up-card: per unit initial bet, given a hand of the row, with
the dealer peeking with a ten or ace up given no dealer natural. .svg needs nothing;
.png and .pdf need matplotlib (pip install 'bjexact[plot]') and have no hover text.
"""


# render.figures.HEATMAP_MOVES, without loading the solver to parse the command line
HEATMAP_MOVES = ("best", "stand", "hit", "double", "split", "surrender")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "chart", help="the exact basic strategy chart (hard, soft, pairs)",
        description="The basic strategy chart of the full game, from exact values.",
        epilog=GAME_RULES_HELP + "\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_rule_options(parser)
    parser.add_argument("--by", choices=("total", "hand"), default="total",
                        help="total: the total-dependent chart (default); hand: every two-card hand")
    parser.add_argument("--format", choices=("text", "csv", "json", "md", "latex", "svg", "png", "pdf"), default=None,
                        help="output format (default: by the ending of -o FILE: .svg, .png, .pdf draw the chart; "
                             "otherwise text)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("-o", "--output", default=None, metavar="FILE", help="write to FILE instead of standard output")
    parser.add_argument("--heatmap", default=None, metavar="FILE",
                        help=f"also draw each cell's value as a heat map to FILE {FIGURE_HELP}")
    parser.add_argument("--move", choices=HEATMAP_MOVES, default=None,
                        help="with --heatmap: the move whose value is drawn (default: best, each cell's best move)")
    parser.set_defaults(run=run, output_options=(("output", "-o"), ("heatmap", "--heatmap")))


def _output_ending(args: argparse.Namespace) -> str:
    """The ending of the -o FILE name, lower case ("" for standard output or no ending)."""
    if args.output is None or is_stdout(args.output) or "." not in args.output:
        return ""
    return str(args.output.rsplit(".", 1)[-1].lower())


def chart_format(args: argparse.Namespace) -> str:
    """--format, else the figure format -o FILE ends with, else text."""
    if args.format is not None:
        return str(args.format)
    ending = _output_ending(args)
    return ending if ending in FIGURE_FORMATS else "text"


def run(args: argparse.Namespace) -> int:
    from ..files import write_files
    from ..player.game import solve_game
    from ..render.game import chart_json, chart_tables
    from ..render.tables import NumberStyle, render
    from .figures import figure_file, rendered

    fmt = chart_format(args)
    if args.move is not None and args.heatmap is None:
        raise BjexactError("--move chooses the move of --heatmap FILE: add --heatmap")
    if fmt in FIGURE_FORMATS and args.by == "hand":
        raise BjexactError(f"--format {fmt} draws the total-dependent chart: --by hand is a table (text, csv, json, "
                           "md, latex)")
    if fmt in ("png", "pdf") and is_stdout(args.output):
        raise BjexactError(f"--format {fmt} writes a file: add -o FILE.{fmt}")
    chart_figure = figure_file(args.output, "-o") if fmt in FIGURE_FORMATS and not is_stdout(args.output) else None
    if chart_figure is not None and chart_figure.fmt != fmt:
        raise BjexactError(f"--format {fmt} and -o {args.output[:40]} disagree: name the file .{fmt}")
    named_ending = _output_ending(args)
    if fmt not in FIGURE_FORMATS and named_ending in FIGURE_FORMATS:
        raise BjexactError(f"--format {fmt} and -o {args.output[:40]} disagree: a .{named_ending} file is a figure "
                           f"(leave out --format, or name the file for {fmt})")
    heatmap = figure_file(args.heatmap, "--heatmap") if args.heatmap is not None else None
    rules = game_rules_from_args(args, optimal_splits=True)
    if args.move == "surrender" and rules.surrender == "none":
        raise BjexactError("--move surrender: these rules allow no surrender (add --surrender late or early)")
    if args.move == "split" and rules.split_hands < 2:
        raise BjexactError("--move split: these rules allow no splitting (--split-hands 1)")
    solution = solve_game(rules, with_distribution=False, progress=False if args.quiet else None)
    figures = []
    chart = solution.chart(das_codes=True) if fmt in FIGURE_FORMATS else None  # once, for both figures
    if heatmap is not None:
        from ..render.figures import ev_heatmap_figure

        figures.append((heatmap, ev_heatmap_figure(solution, args.move or "best", chart)))
    if fmt in FIGURE_FORMATS:
        from ..render.figures import strategy_chart_figure

        drawing = strategy_chart_figure(solution, chart)
        if chart_figure is None:  # svg to standard output
            write_outputs(drawing.svg(), args.output, rendered(figures))
            return 0
        figures.append((chart_figure, drawing))
        write_files(rendered(figures))
        return 0
    text = render(chart_tables(solution, by_hand=args.by == "hand"), fmt, NumberStyle(), chart_json(solution))
    write_outputs(text, args.output, rendered(figures))
    return 0
