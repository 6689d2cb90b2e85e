"""``bjexact hand``: the exact value of every move of one hand."""

from __future__ import annotations

import argparse

from .common import add_output_options, number_style, write_output
from .game_options import GAME_RULES_HELP, add_game_rule_options, game_rules_from_args

EXAMPLES = """\
examples:
  bjexact hand T 6 --upcard T --decks 6 --split-hands 2   # stand -54.095443902%, hit -53.467556245%
  bjexact hand 8 8 --upcard A --surrender late
  bjexact hand A 7 --upcard 9 --decks inf --format json
  bjexact hand 5 4 3 --upcard 2 --decks 1                 # three cards: stand or hit

Values per unit initial bet, composition-dependent (the hand's cards and the up-card
have left the shoe). With the dealer peeking (the default) and a ten or ace up they
are conditioned on no dealer natural, as the player decides knowing there is none;
early surrender, decided before the check, is not. The cost of a move is what it
loses against the best. JSON: {"cards": ["T", "6"], "upcard": "T", "moves":
{"stand": "p/q", "hit": "p/q", ...}, "best": "hit", ...}.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "hand", help="the exact value of every move of one hand (stand, hit, double, split, surrender)",
        description="The exact value of every allowed move of one hand against an up-card.",
        epilog=GAME_RULES_HELP + "\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("cards", nargs="+", metavar="CARD", help="the player's cards: A, 2..9, T/10/J/Q/K")
    parser.add_argument("--upcard", required=True, metavar="U", help="the dealer's up-card")
    add_game_rule_options(parser)
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..cards import parse_rank
    from ..fullgame import hand_moves
    from ..fullgame_render import hand_json, hand_tables
    from ..tables import render

    rules = game_rules_from_args(args)
    cards = [parse_rank(c) for c in args.cards]
    moves = hand_moves(rules, cards, parse_rank(args.upcard))
    style = number_style(args, percent=True)
    text = render(hand_tables(moves, rules.describe(), style), args.format, style, hand_json(moves, rules))
    write_output(text, args.output)
    return 0
