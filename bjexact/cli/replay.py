"""``bjexact replay``: with a stacked deck, can the player win, and with how many extra cards?"""

from __future__ import annotations

import argparse

from ..errors import BjexactError
from .common import write_output

EXAMPLES = """\
examples:
  bjexact replay Q 6 4 9 10            # the player wins by standing on 14 (no extra card)
  bjexact replay 10 3 4 K 3 5          # no number of extra cards wins
  bjexact replay QS,6h,4d,9c,10s       # suits and commas are fine
  bjexact replay --file decks.txt      # one deck per line ('#' comments, blank lines skipped)
  bjexact replay --ties push --h17 A 6 5 6 10 2 --format json
  bjexact replay --ties casino A K T A # two naturals push in a casino

Rules of the contest problem: cards 1 and 3 go to the player, 2 and 4 to the dealer;
the player takes k >= 0 more cards from the top (over 21 loses at once); the dealer
draws while under 17 and stands on 17 or more; a dealer over 21 loses; otherwise
the higher total wins and a tie goes to the player (the contest knows no naturals:
A K against T A is a tie of 21s, a win; --ties casino makes it a push). Every k is tried from the
original deck until the player busts or the deck runs out; an alternative where
the deck runs out before the dealer is done is 'unsettled', never a win.
JSON: one object per deck per line,
{"deck": [...], "can_win": bool, "hits": int|null, "tries": [...]}.
"""


# One deck a line: this is hundreds of thousands of decks, and far from /dev/zero.
MAX_DECKS_BYTES = 100 * 2**20


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "replay", help="stacked deck: can the player win, and by taking how many cards?",
        description="Replay a deck in a known order and find whether, and how, the player can win.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("cards", nargs="*", metavar="CARD",
                        help="the deck from the top: A, 2..10, T, J, Q, K (any case, optional suit letter)")
    parser.add_argument("--file", default=None, metavar="FILE",
                        help="read one deck per line from FILE ('-': stdin)")
    parser.add_argument("--ties", choices=("player", "dealer", "push", "casino"), default="player",
                        help="who a tie goes to (default: player, the contest's rule, even for two naturals); "
                             "push: equal totals push; casino: equal totals push, a natural beats any other 21, "
                             "two naturals push and a dealer natural ends the deal")
    parser.add_argument("--h17", action="store_true",
                        help="the dealer hits soft 17 (default: stands on all 17s)")
    parser.add_argument("--format", choices=("text", "json"), default="text",
                        help="output format (default: text)")
    parser.add_argument("-o", "--output", default=None, metavar="FILE",
                        help="write to FILE instead of standard output")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import json
    import sys

    from ..apps.replay import replay, replay_lines, replay_text

    if args.file is not None and args.cards:
        raise BjexactError("give the deck as arguments or with --file, not both")
    if args.file is None:
        if not args.cards:
            raise BjexactError("give a deck, e.g. 'bjexact replay Q 6 4 9 10', or --file FILE")
        for position, card in enumerate(args.cards, start=1):
            if not card.strip():
                raise BjexactError(f"card {position} is empty: give a card such as Q, 10 or 4 "
                                   "(an empty argument, '' or \"\", is not a card)")
        results = [replay(" ".join(args.cards), h17=args.h17, ties=args.ties)]
    elif args.file == "-":
        if sys.stdin is None:
            raise BjexactError("standard input is closed: give the decks with --file FILE")
        results = replay_lines(sys.stdin, source="stdin", h17=args.h17, ties=args.ties)
    else:
        from ..files import read_bounded

        lines = read_bounded(args.file, limit=MAX_DECKS_BYTES, what="file of decks").splitlines()
        results = replay_lines(lines, source=args.file, h17=args.h17, ties=args.ties)
    if args.file is not None and not results:
        raise BjexactError(f"{'standard input' if args.file == '-' else args.file} holds no deck: "
                           "one deck per line, such as 'Q 6 4 9 10' (blank lines and # comments are skipped)")
    if args.format == "json":
        text = "".join(json.dumps(r.to_json()) + "\n" for r in results)
    else:
        text = "\n".join(replay_text(r) for r in results)
    write_output(text, args.output)
    return 0
