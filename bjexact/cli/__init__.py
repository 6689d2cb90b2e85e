"""The ``bjexact`` command: a thin layer over the importable API.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``; the module imports heavy libraries only when its
command runs, so that ``bjexact --help`` and quick commands start fast.
Bad input ends with a one-line ``bjexact: error: ...`` and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from ..errors import BjexactError

# Subcommand modules, in the order ``--help`` lists them.
COMMANDS = ("dealer", "matrix", "player", "edge", "hand", "chart", "graph", "report", "replay", "verify", "check_sim",
            "eor", "symbolic", "play", "sweep", "count")


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="bjexact",
        description="Exact blackjack probabilities and expected values, as fractions.",
        epilog="Run 'bjexact COMMAND --help' for a command's options and examples.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"bjexact {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except BjexactError as exc:
        print(f"bjexact: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bjexact: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
