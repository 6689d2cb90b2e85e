"""``bjexact edge``: the exact expected result of a round of the full game, and the house edge."""

from __future__ import annotations

import argparse

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
  bjexact edge --decks 6 --split-hands 2 --distribution   # the distribution too (about 33 s)
  bjexact edge --decks inf --plot dist.svg      # and the net result's distribution as bars (.png, .pdf:
                                                # matplotlib, pip install 'bjexact[plot]')

Optimal composition-dependent play: each hand's moves depend on its own cards and
the up-card. The expected result is per unit initial bet (the house edge is minus
it), by up-card with dealer naturals included. The distribution of the round's net
result (-8 .. +8 units and the natural's payout) and its variance are exact. On finite
shoes where pairs are split they need every line of the split hands followed (the hands
share the cards and the dealer's outcome): with --distribution only (one to eight decks
when pairs are split once: 14 s for one deck, 33 s for six; small shoes with resplits; beyond 30
million combinations of lines it is not computed), and the output says when it is not
computed and why. JSON: {"rules", "ev", "house_edge",
"by_upcard": {"2": ..., "T": ..., "A": ...}, "distribution": {"-2": ..., "3/2": ...}
or null, "variance", "distribution_missing": why it is null, or null}, values exact
"p/q" strings.
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
    parser.set_defaults(run=run, output_options=(("output", "-o"), ("plot", "--plot")))


def run(args: argparse.Namespace) -> int:
    from ..player.game import solve_game
    from ..render.game import edge_headline, edge_json, edge_tables
    from ..render.tables import render

    figure = figure_file(args.plot, "--plot") if args.plot is not None else None
    rules = game_rules_from_args(args)
    solution = solve_game(rules, split_lines=args.distribution or figure is not None,
                          progress=False if args.quiet else None)
    style = number_style(args, percent=True)
    text = render(edge_tables(solution, style), args.format, style, edge_json(solution))
    if args.format in ("text", "md"):
        text = "\n".join(edge_headline(solution)) + "\n\n" + text
    figures = []
    if figure is not None:
        from ..render.figures import result_distribution_figure

        figures.append((figure, result_distribution_figure(solution)))
    write_outputs(text, args.output, rendered(figures))
    return 0
