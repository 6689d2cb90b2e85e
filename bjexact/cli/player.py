"""``bjexact player``: the player's exact values and optimal play, in the full game or the hit/stand game."""

from __future__ import annotations

import argparse

from ..errors import BjexactError
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
from .game_options import GAME_RULES_HELP, add_game_rule_options, game_rules_from_args, refuse_options

EXAMPLES = """\
examples:
  bjexact player --decks inf                       # the full game: chart and house edge
  bjexact player --decks 6 --split-hands 2 --values    # and every move's value, hand by hand
  bjexact player --decks 1 --by hand               # the composition-dependent move of every hand
  bjexact player --decks inf --moves hit-stand     # the classic hit/stand policy tables, exactly
  bjexact player --decks inf --moves hit-stand --values      # and the values of standing and hitting
  bjexact player --decks inf --moves hit-stand --h17 --objective win   # chance of winning, push = 1/2
  bjexact player --decks 1 --moves hit-stand --format json -o one-deck.json

--moves full (the default): stand, hit, double, split, surrender as the full game's
rules allow (the options of 'bjexact edge'), optimal composition-dependent play,
split hands played CDZ-. The chart is that of 'bjexact chart' (--by state: by total;
--by hand: every two-card hand), the round's value that of 'bjexact edge'; --values
adds every move's value per unit initial bet for every two-card hand and up-card
(conditioned on no dealer natural where the dealer has peeked). JSON: {"rules",
"moves": "full", "ev", "house_edge", "chart": {"hard", "soft", "pairs"}, "hands":
[{"cards", "upcard", "moves": {...}, "best"}, ...]}.

--moves hit-stand: the player may only hit or stand (the game of the classic Markov-chain treatments
and of the gym environment). Objective ev: +1 win, 0 push, -1 loss (a player natural
pays --bj-pays under --naturals separate/peek); win: the chance of winning. Ties
between hitting and standing go to standing. Finite shoes are solved
composition-dependently. JSON {"rules", "objective", "states": [{"total", "soft",
"upcard", "stand", "hit", "best"}, ...], "game": {...}}; for finite shoes each state
is a two-card hand with "cards", and "exceptions" lists hands of one total that play
differently. --naturals and --objective are hit/stand options (refused with --moves
full); the full game's rule options are refused with --moves hit-stand. Values are
exact "p/q" strings.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "player", help="the player's exact values and optimal play (full game, or --moves hit-stand)",
        description="The player's exact move values and optimal play: the full game's chart and house edge, "
                    "or with --moves hit-stand the hit/stand game's policy tables.",
        epilog=GAME_RULES_HELP + "\n" + RULES_HELP + "\n" + EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--moves", choices=("full", "hit-stand"), default="full",
                        help="full: stand, hit, double, split, surrender (default); hit-stand: hit or stand only")
    add_rule_options(parser, naturals_default=None)
    add_bj_pays_option(parser)
    add_game_rule_options(parser, title="full game rules (--moves full)")
    parser.add_argument("--objective", choices=("ev", "win"), default=None,
                        help="--moves hit-stand: ev: expected result; win: chance of winning, push = 1/2 "
                             "(default: ev). The moves are the same: no decision involves a natural, so the "
                             "chance of winning is 1/2 + EV/2 at each; win changes the values shown, and under "
                             "separate/peek the game's value counts a natural as one win")
    parser.add_argument("--by", choices=("state", "total", "hand"), default="state",
                        help="state (or total, as in 'bjexact chart'): chart or policy by total (default); "
                             "hand: every two-card hand")
    parser.add_argument("--values", action="store_true", help="also print the values of the moves")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.moves == "full":
        return _run_full(args)
    refuse_options(args, "with --moves hit-stand")
    args.naturals = args.naturals or "as21"
    args.objective = args.objective or "ev"
    from ..player.solver import solve
    from ..render.tables import game_lines, player_tables, render

    rules = rules_from_args(args)
    require_a_round(rules)
    style = number_style(args)
    solution = solve(rules, args.objective, progress=False if args.quiet else None)
    views = ["hands" if args.by == "hand" else "policy"] + (["values"] if args.values else [])
    tables = [t for view in views for t in player_tables(solution, style, view)]
    text = render(tables, args.format, style, solution.to_json())
    if args.format in ("text", "md"):
        text += "\n" + "\n".join(game_lines(solution.game, args.objective, rules.naturals)) + "\n"
    write_output(text, args.output)
    return 0


def _run_full(args: argparse.Namespace) -> int:
    for option, given in (("--naturals", args.naturals), ("--objective win", args.objective == "win")):
        if given:
            raise BjexactError(f"{option} is an option of the hit/stand game: add --moves hit-stand")
    from ..player.game import solve_game
    from ..render.game import edge_headline, player_game_json, player_game_tables
    from ..render.tables import render

    rules = game_rules_from_args(args)
    solution = solve_game(rules, with_distribution=False, progress=False if args.quiet else None)
    style = number_style(args)
    tables = player_game_tables(solution, style, by_hand=args.by == "hand", values=args.values)
    text = render(tables, args.format, style, player_game_json(solution))
    if args.format in ("text", "md"):
        text = "\n".join(edge_headline(solution, style)) + "\n\n" + text
    write_output(text, args.output)
    return 0
