"""Options shared by several commands: the rule set, output format and output file."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..errors import BjexactError
from ..files import write_atomically

RULES_HELP = """\
rules (defaults: 2 decks, dealer stands on soft 17, naturals as21):
  --decks N|inf   N standard decks drawn without replacement, or the infinite deck
  --shoe COUNTS   ten counts A,2,3,4,5,6,7,8,9,T instead of --decks
  --h17           the dealer hits soft 17 (default: stands on all 17s)
  --naturals as21      a dealer natural (A + ten-card) is a final 21 (default)
  --naturals separate  a two-card 21 is its own outcome 'blackjack'
  --naturals peek      conditioned on the dealer not holding a natural
"""


def add_rule_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rules")
    group.add_argument("--decks", default=None, metavar="N|inf",
                       help="number of decks, or 'inf' for the infinite deck (default: 2)")
    group.add_argument("--shoe", default=None, metavar="COUNTS",
                       help="ten comma-separated counts of A,2,...,9,T (instead of --decks)")
    group.add_argument("--h17", action="store_true", help="the dealer hits soft 17")
    group.add_argument("--naturals", choices=("as21", "separate", "peek"), default="as21",
                       help="how a natural is counted (default: as21)")


def add_bj_pays_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bj-pays", default="3/2", metavar="P/Q",
                        help="what a player's natural pays with --naturals separate or peek (default: 3/2)")


def parse_shoe(text: str) -> tuple[int, ...]:
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    counts = []
    for symbol, part in zip("A23456789T", parts):
        try:
            counts.append(int(part))
        except ValueError:
            raise BjexactError(f"--shoe: the count of {symbol} must be a whole number, not {part!r}") from None
    if len(parts) != 10:
        raise BjexactError(f"--shoe needs 10 counts (A,2,3,4,5,6,7,8,9,T), got {len(parts)}")
    return tuple(counts)


def rules_from_args(args: argparse.Namespace):
    """The :class:`bjexact.Rules` that the rule options describe."""
    from ..core.numbers import parse_fraction
    from ..core.rules import Rules

    if args.shoe is not None and args.decks is not None:
        raise BjexactError("--decks and --shoe conflict: give one of them")
    options = dict(h17=args.h17, naturals=args.naturals)
    bj_pays = getattr(args, "bj_pays", None)
    if bj_pays is not None:
        try:
            options["bj_pays"] = parse_fraction(bj_pays)
        except ValueError:
            raise BjexactError(f"--bj-pays must be a fraction such as 3/2, not {bj_pays!r}") from None
    if args.shoe is not None:
        return Rules(shoe=parse_shoe(args.shoe), **options)
    return Rules(decks=args.decks if args.decks is not None else 2, **options)


def decimal_places(text: str) -> int:
    """``--decimals``: a whole number of places from 0 to 60 (argparse reports anything else)."""
    try:
        places = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of places is needed, not {text!r}") from None
    if not 0 <= places <= 60:
        raise argparse.ArgumentTypeError(f"places must be between 0 and 60, not {places}")
    return places


def add_output_options(parser: argparse.ArgumentParser, formats=("text", "csv", "json", "md", "latex")) -> None:
    group = parser.add_argument_group("output")
    group.add_argument("--format", choices=formats, default=formats[0], help=f"output format (default: {formats[0]})")
    group.add_argument("--exact", action="store_true", help="print exact fractions instead of decimals")
    group.add_argument("--decimals", type=decimal_places, default=4, metavar="N",
                       help="decimal places of printed numbers, percentages for probabilities (default: 4)")
    group.add_argument("-o", "--output", default=None, metavar="FILE", help="write to FILE instead of standard output")


def number_style(args: argparse.Namespace, percent: bool = True):
    from ..render.tables import NumberStyle

    return NumberStyle(decimals=args.decimals, percent=percent, exact=args.exact)


def write_output(text: str, output: str | None) -> None:
    """Print ``text``, or write it to ``output`` atomically (never half-written)."""
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    write_atomically(Path(output), text.encode())
