"""``bjexact verify``: check a printed table against the exact values, or find its conventions."""

from __future__ import annotations

import argparse

from .common import (
    RULES_HELP,
    add_bj_pays_option,
    add_rule_options,
    require_a_round,
    rules_from_args,
    write_output,
)
from .game_checks import GAME_CHECKS_HELP, add_game_check_options, run_verify_game

EXAMPLES = """\
examples:
  bjexact verify their_table.txt --decks 2          # is this dealer table right?
  bjexact verify their_table.csv --decks inf --h17 --naturals peek
  bjexact verify their_table.md --identify          # which rules and conventions does it follow?
  bjexact dealer --decks 6 --format md | bjexact verify - --decks 6 --format json
  bjexact verify policy.csv --kind policy --decks inf      # a hit/stand grid (H/S)
  bjexact verify values.csv --kind values --decks inf      # values of standing/hitting

Tables may be CSV, TSV, semicolon-separated, whitespace-aligned text, Markdown, or
text with '|' separators and '-----' rules; a header row of outcomes (17..21, bust,
blackjack/bj/natural) in any order; rows 2..10, T, J, Q, K, A, Ace, 11 and Total (the
up-card-weighted average); probabilities or percentages. A cell is consistent when
the exact value rounds to what is printed (within half a unit of its last digit);
long floats (15+ digits) are compared with --rtol/--atol or --max-ulps.

--identify tries 42 conventions; --decks N (or --shoe), --h17 and --naturals X given
with it restrict them (e.g. --identify --decks 6 tries the 6 of six decks).
A "Total" row is the average of the rows weighted by P(up-card); under --naturals peek
by P(up-card) * P(no natural | up-card), renormalised: P(outcome | no dealer natural).

Files larger than 10 MB or with lines over 10,000 characters are refused; so are cells
of more than 100 characters or beyond 10^+-300.

Exit status: 0 consistent (--identify: some convention fits), 1 inconsistent,
2 the input cannot be read (the message names the line and the reason).
JSON: {"consistent", "rules", "scale", "rows": [{"row", "line", "upcard", "consistent",
"cells": [{"column", "printed", "exact", "exact_decimal", "error", "allowed",
"consistent"}]}], "max_abs_error", "summary"}; errors are in the table's units.
With --identify: {"consistent", "matches": [{"rules", "consistent",
"inconsistent_cells", ...}], "explanations", "nearest"}.

Player tables (--kind policy|values): grids with a header row of
up-cards (2..9, T, A) and rows 'hard 12', 'soft 18', 'A,7' or bare totals, in hard and
soft blocks; value tables say in a title or the first header cell whether a block holds
the values of standing, hitting or the best move. A policy cell is consistent when its
move is optimal (either move where they tie exactly). On a finite shoe (policy only;
slow: the whole composition-dependent solution) a cell must be the move of the hands
of that total, either move where they differ. JSON: {"consistent", "rules",
"kind", "objective", "cells": [{"line", "row", "column", "total", "soft", "upcard",
"block", "printed", "exact", "consistent", ...}], "inconsistent_cells", "max_abs_error"}.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "verify", help="check a printed table against the exact values (or --identify its conventions)",
        description="Check a dealer table (or a player table) printed elsewhere against the exact values.",
        epilog=RULES_HELP + "\n" + EXAMPLES + "\n" + GAME_CHECKS_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", metavar="FILE", help="the table to check ('-' for standard input)")
    parser.add_argument("--kind", choices=("dealer", "policy", "values", "chart", "edge"), default="dealer",
                        help="what the table holds (default: dealer)")
    parser.add_argument("--identify", action="store_true",
                        help="try every convention (decks inf/1/2/3/4/6/8, S17/H17, naturals) instead of one; "
                             "--decks/--shoe, --h17 and --naturals given with it restrict the conventions tried")
    add_rule_options(parser)
    parser.set_defaults(naturals=None)  # None: not given (as21 when checking one rule set; any with --identify)
    add_bj_pays_option(parser)
    parser.add_argument("--objective", choices=("ev", "win"), default="ev",
                        help="player tables: ev (+1/0/-1) or win (chance of winning, push = 1/2)")
    group = parser.add_argument_group("reading and comparing")
    group.add_argument("--blocks", default=None, metavar="LIST",
                       help="value tables without titles: what each block holds, e.g. stand,hit")
    group.add_argument("--scale", choices=("auto", "percent", "probability"), default="auto",
                       help="how values are printed (default: auto, percentages if any has %% or exceeds 1)")
    group.add_argument("--rtol", type=float, default=1e-9,
                       help="relative tolerance for long floats (default: 1e-9)")
    group.add_argument("--atol", type=float, default=1e-15,
                       help="absolute tolerance for long floats, in the table's units (default: 1e-15)")
    group.add_argument("--max-ulps", type=int, default=None, metavar="N",
                       help="long floats: allow N float64 units in the last place instead of --rtol/--atol")
    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=("text", "json"), default="text",
                     help="report format (default: text)")
    out.add_argument("--all", action="store_true", help="list every cell, not only the inconsistent ones")
    out.add_argument("-o", "--output", default=None, metavar="FILE", help="write the report to FILE")
    add_game_check_options(parser)
    parser.set_defaults(run=run)


# Tables people print are a few kilobytes; a larger file is refused before it is read.
MAX_INPUT_BYTES = 10 * 2**20
MAX_LINE_CHARS = 10_000


def read_input(path: str) -> str:
    """The text of ``path`` ('-': standard input), at most :data:`MAX_INPUT_BYTES` of UTF-8."""
    from ..errors import BjexactError
    from ..files import read_bounded

    name = "standard input" if path == "-" else path
    text = read_bounded(path, limit=MAX_INPUT_BYTES, what="table")
    for number, line in enumerate(text.splitlines(), start=1):
        if len(line) > MAX_LINE_CHARS:
            raise BjexactError(f"{name} line {number}: {len(line):,} characters, more than any table's line "
                               f"(at most {MAX_LINE_CHARS:,})")
    return text


def run(args: argparse.Namespace) -> int:
    import math

    from ..checks import verify
    from ..errors import BjexactError

    for flag, value in (("--rtol", args.rtol), ("--atol", args.atol)):
        if not math.isfinite(value) or value < 0:
            raise BjexactError(f"{flag} must be a finite number >= 0, not {value}")
    if args.max_ulps is not None and args.max_ulps < 0:
        raise BjexactError(f"--max-ulps must be a whole number >= 0, not {args.max_ulps}")
    if args.kind in ("chart", "edge"):
        return run_verify_game(args, read_input)
    if args.identify and args.kind != "dealer":
        raise BjexactError("--identify works on dealer tables only")
    restrict_naturals = args.naturals
    if args.naturals is None:
        args.naturals = "as21"
    tolerance = verify.Tolerance(rtol=args.rtol, atol=args.atol, max_ulps=args.max_ulps)
    text = read_input(args.file)
    source = "<stdin>" if args.file == "-" else args.file
    if args.kind != "dealer":
        return _run_player(args, text, source, tolerance)
    table = verify.read_dealer_table(text, source=source, scale=args.scale)
    if args.identify:
        shoe = rules_from_args(args) if args.decks is not None or args.shoe is not None else None
        conventions = verify.conventions(shoe, h17=True if args.h17 else None, naturals=restrict_naturals)
        identification = verify.identify(table, conventions, tolerance=tolerance)
        return _emit(args, identification, lambda: verify.format_identification(identification),
                     bool(identification.matches))
    check = verify.check_dealer_table(table, rules_from_args(args), tolerance)
    return _emit(args, check, lambda: verify.format_check(check, show_all=args.all), check.consistent)


def _emit(args, result, text, consistent: bool) -> int:
    """Write ``result`` as JSON or as ``text()`` for people; exit 0 when consistent, else 1."""
    import json

    write_output(json.dumps(result.to_json(), indent=2) + "\n" if args.format == "json" else text(), args.output)
    return 0 if consistent else 1


def _run_player(args, text: str, source: str, tolerance) -> int:

    from ..checks import verify

    blocks = [b.strip() for b in args.blocks.split(",") if b.strip()] if args.blocks else []
    table = verify.read_player_table(text, args.kind, source=source, blocks=blocks,
                                     scale="percent" if args.scale == "percent" else "auto")
    rules = rules_from_args(args)
    require_a_round(rules)
    check = verify.check_player_table(table, rules, objective=args.objective, tolerance=tolerance)
    return _emit(args, check, lambda: verify.format_player_check(check, show_all=args.all), check.consistent)
