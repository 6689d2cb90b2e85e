"""Options shared by several commands: the rule set, output format and output file."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.cards import parse_shoe
from ..core.numbers import short
from ..errors import BjexactError
from ..files import check_distinct, check_writable, staged_files, text_bytes, write_files, write_stdout

RULES_HELP = """\
rules (defaults: 2 decks, dealer stands on soft 17, naturals as21):
  --decks N|inf   N standard decks drawn without replacement, or the infinite deck
  --shoe COUNTS   ten counts A,2,3,4,5,6,7,8,9,T instead of --decks
  --h17           the dealer hits soft 17 (default: stands on all 17s)
  --naturals as21      a dealer natural (A + ten-card) is a final 21 (default)
  --naturals separate  a two-card 21 is its own outcome 'blackjack'
  --naturals peek      conditioned on the dealer not holding a natural
"""


def add_shoe_options(group: argparse._ArgumentGroup) -> None:
    """--decks, --shoe and --h17: the shoe and the dealer's rule, common to every command."""
    group.add_argument("--decks", default=None, metavar="N|inf",
                       help="number of decks, or 'inf' for the infinite deck (default: 2)")
    group.add_argument("--shoe", default=None, metavar="COUNTS",
                       help="ten comma-separated counts of A,2,...,9,T (instead of --decks)")
    group.add_argument("--h17", action="store_true", help="the dealer hits soft 17")


def add_rule_options(parser: argparse.ArgumentParser, *, naturals_default: str | None = "as21") -> None:
    """--decks, --shoe, --h17 and --naturals (``naturals_default`` None: the command tells whether
    --naturals was given, and means as21 where it applies)."""
    group = parser.add_argument_group("rules")
    add_shoe_options(group)
    group.add_argument("--naturals", choices=("as21", "separate", "peek"), default=naturals_default,
                       help="how a natural is counted (default: as21)")


def add_bj_pays_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bj-pays", default="3/2", metavar="P/Q",
                        help="what a player's natural pays with --naturals separate or peek (default: 3/2)")


def shoe_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The shoe ``--decks`` or ``--shoe`` describe, as the keyword of :class:`bjexact.Rules` and
    :class:`bjexact.core.rules.GameRules`: ``{"shoe": counts}``, or ``{"decks": the text}``, which
    the rules read with :func:`bjexact.core.rules.parse_decks` (``None``: the default, 2 decks).
    Both options given is an error."""
    if args.shoe is not None and args.decks is not None:
        raise BjexactError("--decks and --shoe conflict: give one of them")
    if args.shoe is not None:
        return {"shoe": parse_shoe(args.shoe)}
    return {"decks": args.decks}


def rules_from_args(args: argparse.Namespace):
    """The :class:`bjexact.Rules` that the rule options describe."""
    from ..core.rules import Rules, parse_bj_pays

    shoe = shoe_from_args(args)
    options = dict(h17=args.h17, naturals=args.naturals)
    bj_pays = getattr(args, "bj_pays", None)
    if bj_pays is not None:
        options["bj_pays"] = parse_bj_pays(bj_pays)
    return Rules(**shoe, **options)


def require_a_round(rules) -> None:
    """The player's game needs a shoe that can deal a round: two cards to the player, two to the dealer."""
    if rules.shoe is not None and sum(rules.shoe) < 4:
        raise BjexactError(f"the shoe is too small to deal a round: the player and the dealer need two cards each, "
                           f"the shoe has {sum(rules.shoe)}")


def bounded_int(low: int, high: int, *, signed: bool = False):
    """An argparse type: a whole number from ``low`` to ``high`` (no 5,000-digit values, no '²')."""

    def convert(text: str) -> int:
        body = text.strip()
        sign = -1 if signed and body.startswith("-") else 1
        body = body[1:] if body[:1] in "+-" and (signed or body[:1] == "+") else body
        if body[:1] == "-" and body[1:].isascii() and body[1:].isdigit():  # negative where none is allowed
            raise argparse.ArgumentTypeError(f"must be between {low:,} and {high:,}, not {short(text)}")
        if not body.isascii() or not body.isdigit():
            raise argparse.ArgumentTypeError(f"a whole number is needed, not {short(text)!r}")
        if len(body.lstrip("0")) > max(len(str(abs(low))), len(str(abs(high)))) or not low <= sign * int(body) <= high:
            raise argparse.ArgumentTypeError(f"must be between {low:,} and {high:,}, not {short(text)}")
        return sign * int(body)

    convert.__name__ = "whole number"
    return convert


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
    add_units_options(group)
    group.add_argument("-o", "--output", default=None, metavar="FILE", help="write to FILE instead of standard output")


UNITS_HELP = ("how numbers are printed: percent (default: chances in %%, expected results in %% of the "
              "initial bet) or per-unit (chances from 0 to 1, results per unit initial bet); every "
              "header says which")


def add_units_options(group) -> None:
    """--units, --exact and --decimals: how the exact numbers are printed."""
    group.add_argument("--units", choices=("percent", "per-unit"), default=None, help=UNITS_HELP)
    group.add_argument("--exact", action="store_true", help="print exact fractions (per unit) instead of decimals")
    group.add_argument("--decimals", type=decimal_places, default=None, metavar="N",
                       help="decimal places of printed numbers (default: 4 for percent, 6 for per-unit)")


def number_style(args: argparse.Namespace, percent: bool = True):
    """The :class:`~bjexact.render.tables.NumberStyle` of --units, --exact and --decimals; without
    --units, ``percent`` (every command's default but those whose numbers are not chances or results)."""
    from ..render.tables import NumberStyle

    units = getattr(args, "units", None)
    percent = percent if units is None else units != "per-unit"
    decimals = args.decimals if args.decimals is not None else 4 if percent else 6
    return NumberStyle(decimals=decimals, percent=percent, exact=args.exact)


def write_output(text: str, output: str | None) -> None:
    """Print ``text``, or write it to ``output`` atomically (never half-written)."""
    write_outputs(text, output)


def write_outputs(text: str, output: str | None, files: Sequence[tuple[Path, bytes]] = ()) -> None:
    """A command's results, all written or none: ``text`` to ``-o FILE`` (or standard output) and
    each (path, data) of ``files`` (figures, ``--full``, ``--rows``).

    Every file is first written under a temporary name beside it; only when all are written
    (and the text printed) are they moved into place. A reader that leaves early (``| head``)
    does not undo the files.
    """
    if not is_stdout(output):
        assert output is not None
        write_files([*files, (output_path(output), text_bytes(text))])
        return
    broken: BrokenPipeError | None = None
    with staged_files(files):
        try:
            write_stdout(text)
        except BrokenPipeError as exc:
            broken = exc
    if broken is not None:
        raise broken


# The output options of a command: (the dest of its argparse value, the option), for
# ``parser.set_defaults(output_options=...)``; a command that writes one file has -o alone.
OUTPUT_OPTIONS: tuple[tuple[str, str], ...] = (("output", "-o"),)


def check_output_files(named: Sequence[tuple[str, str | None]]) -> None:
    """Refuse now, before any work, an output file that cannot be written, or that another output
    names too; ``named``: (the option, its value), None or standard output for no file."""
    files = [(option, output_path(value)) for option, value in named if value is not None and not is_stdout(value)]
    for _, path in files:
        check_writable(path)
    check_distinct(files)


STDOUT_NAMES = ("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1")


def is_stdout(output: str | None) -> bool:
    """Whether ``-o`` names standard output: no -o, '-', or /dev/stdout (written as a stream, not replaced)."""
    return output is None or output in STDOUT_NAMES


def output_path(output: str) -> Path:
    """The path of ``-o FILE``; an empty name is refused (``Path("")`` would be the current directory)."""
    if not output.strip():
        raise BjexactError("no output file named: give a file name after -o (or '-' for standard output)")
    return Path(output)


def default_store(name: str = "count.store") -> Path:
    """A results store in the user's cache directory (XDG): ``$XDG_CACHE_HOME/bjexact/NAME``,
    ``~/.cache/bjexact/NAME`` when that is unset or not an absolute path."""
    import os

    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "bjexact" / name


# the most worker processes a local cluster may start per core (a scheduler's cluster is its own)
LOCAL_WORKERS_PER_CORE = 4


def max_local_workers() -> int:
    """The most worker processes of a local cluster: 4 a core, at least 8."""
    import os

    return max(8, LOCAL_WORKERS_PER_CORE * (os.cpu_count() or 1))


def check_workers(args: argparse.Namespace) -> None:
    """Refuse a local cluster larger than :func:`max_local_workers` before starting anything."""
    if args.serial and (args.scheduler or args.workers):
        raise BjexactError("--serial runs without Dask: it takes neither --scheduler nor --workers")
    bound = max_local_workers()
    if args.workers is not None and args.workers > bound and args.scheduler is None:
        raise BjexactError(f"--workers {args.workers:,}: a local cluster here has at most {bound} worker processes "
                           f"({LOCAL_WORKERS_PER_CORE} a core); for more, start a Dask cluster and give --scheduler")
