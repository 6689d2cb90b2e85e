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
  bjexact hand T 9 --upcard A --decks 1                   # and the value of insurance
  bjexact hand A K --upcard A                             # a natural: even money or not
  bjexact hand T T --upcard T --shoe 1,0,0,0,0,0,0,0,0,9 --split-hands 2 --split-strategy optimal
  bjexact hand 8 8 --upcard T --decks 1 --split-hands 2 --split-strategy optimal   # a second

Values per unit initial bet, composition-dependent (the hand's cards and the up-card
have left the shoe). With the dealer peeking (the default) and a ten or ace up they
are conditioned on no dealer natural, as the player decides knowing there is none;
early surrender, decided before the check, is not. The cost of a move is what it
loses against the best. With an ace up the value of insurance is shown too (half
the stake, paid 2:1 if the hole card is a ten); a natural against an ace compares
even money with playing on. JSON: {"cards": ["T", "6"], "upcard": "T", "moves":
{"stand": "p/q", "hit": "p/q", ...}, "best": "hit", ...}.

--split-strategy optimal values a pair's split under perfect post-split play (every
split hand knowing every card seen in the round and the finished hands' totals) and
shows it beside CDZ-, CDP1 and CDP (JSON: "split_strategies"); --show-play lists
where it plays a split hand otherwise than CDZ-, e.g. on one deck 8,8 v T the second
hand 8,8 after a first hand 8,4,5 of 17 stands where CDZ- hits (JSON: "departures").
Exact: split once, one pair on one deck takes about a second (8,8) to two (2,2),
on two decks one to five; --show-play follows the optimum over the positions valued,
on one deck 8,8 in about three seconds, 2,2 in ten; resplits value the positions one
by one, and on a deck reach a bound on the work and are refused in one line, after
minutes.
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
    parser.add_argument("--show-play", action="store_true",
                        help="with --split-strategy optimal: where the optimum plays a split hand otherwise than "
                             "CDZ- (the largest gains; JSON: every one)")
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..core.cards import parse_rank
    from ..core.hand import is_natural
    from ..errors import BjexactError
    from ..player.optimal_split import optimal_split
    from ..render.game import hand_parts
    from ..render.tables import render

    rules = game_rules_from_args(args, optimal_splits=True)
    if args.show_play and rules.split_strategy != "optimal":
        raise BjexactError("--show-play shows perfect post-split play: it goes with --split-strategy optimal")
    cards = [parse_rank(c) for c in args.cards]
    upcard = parse_rank(args.upcard)
    style = number_style(args)
    split = None
    if args.show_play and len(cards) == 2 and rules.may_split(cards) and not is_natural(cards):
        split = optimal_split(rules, cards[0], upcard, departures=True)
    tables, document = hand_parts(rules, cards, upcard, style, split)
    write_output(render(tables, args.format, style, document), args.output)
    return 0
