"""``bjexact chart``: the exact basic strategy chart of the full game."""

from __future__ import annotations

import argparse

from .common import write_output
from .game_options import GAME_RULES_HELP, add_game_rule_options, game_rules_from_args

EXAMPLES = """\
examples:
  bjexact chart --decks 6                      # hard, soft and pair sections
  bjexact chart --decks inf --h17 --surrender late
  bjexact chart --decks 1 --by hand            # every two-card hand, and the hands that differ
  bjexact chart --decks 6 --format json -o chart.json

Codes: H hit, S stand, Dh double else hit, Ds double else stand, P split, Rh/Rs/Rp
surrender else hit/stand/split. Total-dependent (the default): a cell's move has the
largest expected value summed over the two-card hands of that row, each weighted by
its chance of being dealt (so 12 v 4 with 6 decks is S although T,2 alone hits); a *
marks cells whose hands disagree. --by hand: the composition-dependent move of every
two-card hand and the hands that play differently from their cell. JSON: {"rules",
"hard": {"16": {"2": "S", ..., "A": "Rh"}, ...}, "soft": {"13": ...}, "pairs": {"8": ...}}
(soft rows keyed by total, pairs by rank).
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "chart", help="the exact basic strategy chart (hard, soft, pairs)",
        description="The basic strategy chart of the full game, from exact values.",
        epilog=GAME_RULES_HELP + "\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_game_rule_options(parser)
    parser.add_argument("--by", choices=("total", "hand"), default="total",
                        help="total: the total-dependent chart (default); hand: every two-card hand")
    parser.add_argument("--format", choices=("text", "csv", "json", "md", "latex"), default="text",
                        help="output format (default: text)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.add_argument("-o", "--output", default=None, metavar="FILE", help="write to FILE instead of standard output")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..player.game import solve_game
    from ..render.game import chart_json, chart_tables
    from ..render.tables import NumberStyle, render

    rules = game_rules_from_args(args)
    solution = solve_game(rules, with_distribution=False, progress=False if args.quiet else None)
    text = render(chart_tables(solution, by_hand=args.by == "hand"), args.format, NumberStyle(),
                  chart_json(solution))
    write_output(text, args.output)
    return 0
