"""``bjexact player``: the player's exact hit/stand values and optimal policy."""

from __future__ import annotations

import argparse

from .common import (
    RULES_HELP,
    add_bj_pays_option,
    add_output_options,
    add_rule_options,
    number_style,
    require_a_round,
    rules_from_args,
    write_output,
)

EXAMPLES = """\
examples:
  bjexact player                                   # 2 decks, S17: composition-dependent (~3 s)
  bjexact player --decks inf                       # the classic hit/stand policy tables, exactly
  bjexact player --decks inf --values              # and the values of standing and hitting
  bjexact player --decks inf --h17 --objective win # chance of winning, a push = 1/2
  bjexact player --decks inf --by hand             # every two-card hand vs every up-card
  bjexact player --decks 1 --format json -o one-deck.json

Objective ev: +1 win, 0 push, -1 loss (a player natural pays --bj-pays under
--naturals separate/peek). Ties between hitting and standing go to standing.
Finite shoes are solved composition-dependently: every hand's own cards and the
up-card have left the shoe. The JSON document is
{"rules": {...}, "objective": "ev", "states": [{"total", "soft", "upcard",
"stand", "hit", "best"}, ...], "game": {...}}; for finite shoes each state is a
two-card hand with "cards", and "exceptions" lists hands of one total that play
differently. Values are exact "p/q" strings.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "player", help="the player's exact hit/stand values and optimal policy",
        description="The player's exact hit/stand values and optimal policy tables.",
        epilog=RULES_HELP + "\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(parser)
    add_bj_pays_option(parser)
    parser.add_argument("--objective", choices=("ev", "win"), default="ev",
                        help="ev: expected result; win: chance of winning, push = 1/2 (default: ev). The moves "
                             "are the same: no decision involves a natural, so the chance of winning is 1/2 + EV/2 "
                             "at each; win changes the values shown, and under separate/peek the game's value "
                             "counts a natural as one win")
    parser.add_argument("--by", choices=("state", "hand"), default="state",
                        help="state: policy by total (default); hand: every two-card hand")
    parser.add_argument("--values", action="store_true", help="also print the values of standing and hitting")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..player.solver import solve
    from ..render.tables import game_lines, player_tables, render

    rules = rules_from_args(args)
    require_a_round(rules)
    style = number_style(args, percent=False)
    solution = solve(rules, args.objective, progress=False if args.quiet else None)
    views = ["hands" if args.by == "hand" else "policy"] + (["values"] if args.values else [])
    tables = [t for view in views for t in player_tables(solution, style, view)]
    text = render(tables, args.format, style, solution.to_json())
    if args.format in ("text", "md"):
        text += "\n" + "\n".join(game_lines(solution.game, args.objective, rules.naturals)) + "\n"
    write_output(text, args.output)
    return 0
