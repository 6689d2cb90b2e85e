"""``bjexact sidebet``: a side bet's exact analysis, for a built-in bet or a bet file (TOML)."""

from __future__ import annotations

import argparse

from ..errors import BjexactError
from .common import add_output_options, number_style, write_output

EXAMPLES = """\
examples:
  bjexact sidebet --list                          # the built-in bets
  bjexact sidebet 21+3 --decks 6                  # every line's combinations, chance, return and share
  bjexact sidebet buster --decks 1,2,4,6,8 --h17  # one table by decks
  bjexact sidebet bet-the-bust --decks 8 --exact  # after the up-card: also a table by up-card; fractions
  bjexact sidebet lucky-ladies --format json      # exact "p/q" strings
  bjexact sidebet my-bet.toml --decks 6,8         # a bet of your own (see --events)
  bjexact sidebet --events                        # the events a bet file can pay on
  bjexact sidebet lucky-ladies --decks 6 --removal          # effects of removal, betting correlations
  bjexact sidebet lucky-ladies --decks 6 --by-count hi-lo --depth 1/2   # exact value by true count

Counting a side bet. --removal: the exact change of the bet's expected result when one card
leaves the full shoe, by rank (A..K where the bet tells faces apart, else A..T) and, where the
bet sees suits, by card (rank and suit); then the betting correlation of each built-in count
(the correlation of its tags with the effects, weighted by the cards), of the count that tags
each rank by the sign of its effect, and of the best linear count (the effects themselves: 1).
--by-count SYSTEM: the bet's exact value at each true count after --depth cards (default half
the shoe): averaged over every composition of the cards seen with that true count, each with its
exact chance, computed by exchangeability (the cards the bet is settled on dealt first, the cards
seen after them); the true count is the running count per deck unseen, floored (unbalanced
counts read as balanced), counts beyond --span pooled; the true count from which the bet is
positive, and where its value crosses zero. Both need one finite shoe (--decks N). They belong to
this command, not to 'bjexact count', because they are a side bet's figures: one exact analysis per
card removed, no simulated shoe and no play of the hand.

Conventions, stated under every table: a bet placed before the deal that pays on the
dealer's hand assumes the dealer always plays out its hand (even when every player
busted or has a natural), a dealer natural is not a bust, no other card is known;
a bet placed after the up-card (settled = after-upcard) knows only the up-card, and
under peek (--hole-card peek, the default) with an ace or ten up is conditioned on
no dealer natural; a bet on the player's cards and the dealer's hand together takes
the player's two cards out of the shoe before the dealer draws. Each deal is paid by
the first line it matches; pays are "to 1". Over/Under 13 is two bets, under-13 and
over-13. Decks: 2 by default, as every command; --decks inf is the infinite deck.

A bet file (TOML; nothing in it is evaluated):
  title = "My bet"
  settled = "before-deal"           # or "after-upcard"
  sees = ["hand", "dealer"]         # any of hand, upcard, dealer
  [[line]]                          # best first; all conditions of a line must hold
  name = "dealer busts with 5 cards or more, player natural"
  pays = 50                         # to 1: 50, 2.5 or "5/2"
  dealer.bust = true
  dealer.cards = "5+"               # a number, a list [5, 6] or a range "5-7", "5+"
  hand.natural = true

JSON: {"bet": NAME, "analyses": [{"bet", "title", "settled", "sees", "decks", "h17",
"peek", "lines": [{"name", "pays", "chance", "combinations", "contribution",
"share"}, ...], "total_combinations", "return", "expected", "house_edge",
"hit_frequency", "variance", "standard_deviation", "by_upcard": {"2": {"chance",
"paid", "expected"}, ...}, "conventions"}, ...]}: exact values as "p/q" strings
("pays" null on the last line, "loses"; "combinations" null but for bets on the
first cards in a finite shoe; "standard_deviation" a decimal string, the square root
of the exact "variance"; "peek" null and "by_upcard" empty but for bets after the
up-card). --list and --events print {"bets": [...]} and {"events": [...]}.
--removal: {"bet", "decks", "h17", "peek", "expected", "ranks_are" (faces or values), "ranks":
[{"rank", "cards", "effect"}], "cards": [{"card", "count", "effect"}] (bets that see suits; else
empty), "weighted_sum", "correlations": [{"count", "tags", "over_ranks", "over_cards"}]}
(correlations are floats, null where a count's tags or the effects do not vary). --by-count:
{"bet", "system", "tags", "decks", "h17", "peek", "seen", "unseen", "span", "expected_full_shoe",
"rows": [{"true_count", "chance", "made", "expected"}], "positive_from", "crossing"}.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "sidebet", help="a side bet's exact pay-line chances, return, house edge and variance",
        description="The exact analysis of a side bet, built-in (NAME) or of a bet file (FILE.toml): every pay "
                    "line's chance (and combinations, for bets on the first cards), what it pays and its share of "
                    "the return; the return, house edge, hit frequency and standard deviation.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("bet", nargs="?", metavar="NAME|FILE",
                        help="a built-in bet (--list names them) or a bet file (.toml)")
    parser.add_argument("--list", action="store_true", help="list the built-in bets")
    parser.add_argument("--events", action="store_true", help="list the events a bet file can pay on")
    group = parser.add_argument_group("rules")
    group.add_argument("--decks", default="2", metavar="N,N,...",
                       help="numbers of decks, comma-separated, or 'inf' (default: 2); several give one table by decks")
    group.add_argument("--h17", action="store_true", help="the dealer hits soft 17 (default: stands on all 17s)")
    group.add_argument("--hole-card", choices=("peek", "enhc"), default="peek",
                       help="bets after the up-card: peek (default; with an ace or ten up, conditioned on no dealer "
                            "natural) or enhc (no hole card: a dealer natural is a hand that does not bust)")
    counting = parser.add_argument_group("counting the bet (one finite shoe)")
    counting.add_argument("--removal", action="store_true",
                          help="the exact effect of removing each card, and the counts' betting correlations")
    counting.add_argument("--by-count", metavar="hi-lo|ko|...|FILE", default=None,
                          help="the bet's exact value by true count of this count system")
    counting.add_argument("--depth", default=None, metavar="CARDS|SHARE",
                          help="--by-count: the cards seen before the round, 156, or a share of the shoe, 1/2 "
                               "(default: half the shoe)")
    counting.add_argument("--span", type=int, default=6, metavar="T",
                          help="--by-count: true counts from -T to +T, those beyond pooled at the ends (default: 6)")
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..render.sidebets import sidebet_json, sidebet_list_json, sidebet_list_table, sidebet_tables
    from ..render.tables import render

    style = number_style(args)
    if args.list or args.events:
        if args.bet is not None:
            raise BjexactError("--list and --events take no bet")
        tables = [_events_table() if args.events else sidebet_list_table(_built_in_bets())]
        document = _events_json() if args.events else sidebet_list_json(_built_in_bets())
        write_output(render(tables, args.format, style, document), args.output)
        return 0
    if args.bet is None:
        raise BjexactError("name a bet (bjexact sidebet --list names them) or give a bet file (.toml)")
    from ..sidebets.analysis import analyse, parse_deck_list

    bet = bet_from_text(args.bet)
    decks = parse_deck_list(args.decks)
    if args.removal or args.by_count is not None:
        return _counting(args, bet, decks, style)
    if args.depth is not None:
        raise BjexactError("--depth is for --by-count")
    analyses = [analyse(bet, d, h17=args.h17, peek=args.hole_card == "peek") for d in decks]
    write_output(render(sidebet_tables(analyses, style), args.format, style, sidebet_json(analyses)), args.output)
    return 0


def _built_in_bets():
    from ..sidebets.bets import BUILT_IN

    return list(BUILT_IN.values())


def bet_from_text(text: str):
    """A built-in bet by name, or a bet file (.toml)."""
    from pathlib import Path

    from ..sidebets.bets import BUILT_IN, built_in

    if text.strip().lower() in BUILT_IN:
        return built_in(text)
    if text.endswith(".toml") or Path(text).exists():
        from ..sidebets.files import read_bet_file

        return read_bet_file(text)
    return built_in(text)


def _events_table():
    from ..core.text import Table
    from ..sidebets.events import FEATURES

    rows = [[f.name, f.kind if f.kind != "choice" else " | ".join(f.choices), f.description] for f in FEATURES.values()]
    return Table("Events a bet file can pay on", ["event", "takes", "meaning"], rows,
                 ["Numbers: a number, a list [3, 4] or a range \"3-4\", \"8+\". Values of cards: 1 or A the ace, "
                  "10 or T any ten-valued card. Cards: \"QH\" (rank and suit)."], section="events")


def _events_json():
    from ..sidebets.events import FEATURES

    return {"events": [{"name": f.name, "takes": f.kind, "choices": list(f.choices), "meaning": f.description}
                       for f in FEATURES.values()]}


def _counting(args: argparse.Namespace, bet, decks, style) -> int:
    """--removal and --by-count: a side bet counted, for one finite shoe."""
    from ..counting.sidebets import parse_depth, removal_effects, value_by_count
    from ..counting.systems import load_system
    from ..render.tables import render
    from ..sidebets.analysis import suited_shoe
    from .sidebet_tables import by_count_tables, removal_tables

    if args.removal and args.by_count is not None:
        raise BjexactError("give --removal or --by-count, not both")
    if len(decks) != 1 or decks[0] == float("inf"):
        raise BjexactError("counting a side bet needs one finite shoe: --decks N (such as --decks 6)")
    shoe = suited_shoe(decks[0])
    peek = args.hole_card == "peek"
    if args.removal:
        if args.depth is not None:
            raise BjexactError("--depth is for --by-count")
        effects = removal_effects(bet, shoe, h17=args.h17, peek=peek)
        write_output(render(removal_tables(effects, style), args.format, style, effects.to_json()), args.output)
        return 0
    system = load_system(args.by_count)
    seen = parse_depth(args.depth, shoe.size) if args.depth is not None else shoe.size // 2
    found = value_by_count(bet, shoe, system, seen, h17=args.h17, peek=peek, span=args.span)
    write_output(render(by_count_tables(found, style), args.format, style, found.to_json()), args.output)
    return 0
