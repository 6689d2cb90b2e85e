"""The ``bjexact`` command: a thin layer over the importable API.

Each subcommand lives in its own module of this package and exposes
``register(subparsers)``; the module imports heavy libraries only when its
command runs, so that ``bjexact --help`` and quick commands start fast.
Bad input ends with a one-line ``bjexact: error: ...`` and exit status 2.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from typing import Any

from ..errors import BjexactError

# One BLAS thread, set before numpy is first imported (every command imports it lazily, after this):
# the engine's arrays are small, and starting (and contending for) a thread pool on a shared machine
# costs more than it gives. Here, so that the installed ``bjexact`` script and ``python -m bjexact``
# both run with it; a library user's own setting is kept.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

# Subcommand modules, in the order ``--help`` lists them.
COMMANDS = ("dealer", "matrix", "player", "edge", "hand", "chart", "graph", "report", "replay", "verify", "check_sim",
            "check_strategy",
            "eor", "symbolic", "play", "sweep", "count", "sidebet", "serve")


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose usage errors are one line and exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class _Unused:
    """The parser of a command that is not run: takes every call (options, groups, defaults) and keeps
    nothing; it has no options (``_actions``, ``_option_string_actions``, read by some commands' set-up)."""

    _actions: list[Any] = []
    _option_string_actions: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Callable[..., _Unused]:
        return lambda *args, **kwargs: self


class _OnlyCommand:
    """The subcommands of ``bjexact`` as the command modules register them, where only ``command``
    gets its options: the others keep their names and one-line help (the listing, 'did you mean')."""

    def __init__(self, subparsers: Any, command: str):
        self.subparsers, self.command = subparsers, command

    def add_parser(self, name: str, **options: Any) -> Any:
        if name == self.command:
            return self.subparsers.add_parser(name, **options)
        self.subparsers.add_parser(name, help=options.get("help"))
        return _Unused()


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of the ``bjexact`` command line; with ``command``, one that knows the options of that
    command only (a run parses one command: building the others' options costs more than the parse)."""
    parser = _Parser(
        prog="bjexact",
        description="Exact blackjack probabilities and expected values, as fractions.",
        epilog="Run 'bjexact COMMAND --help' for a command's options and examples.",
    )
    from .. import __version__

    parser.add_argument("--version", action="version", version=f"bjexact {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    registered = subparsers if command is None else _OnlyCommand(subparsers, command)
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").register(registered)
    return parser


@functools.lru_cache(maxsize=8)
def _parser_of(command: str) -> argparse.ArgumentParser:
    """:func:`build_parser` of ``command``, built once for the runs of a process (a parse leaves
    its parser as it was)."""
    return build_parser(command)


def console_main() -> None:
    """The ``bjexact`` program: :func:`main`, then the exit, without waiting for threads that code
    the user gave (``check-sim``, ``check-strategy``) started and left running: the report is out.
    (Its modules are imported with this package: a Ctrl-C while they load is one line, see
    ``bjexact.__main__``.)"""
    # The last exit handler (the first registered): past it the interpreter restores the default
    # disposition of Ctrl-C, which would kill a process whose output is complete.
    atexit.register(signal.signal, signal.SIGINT, signal.SIG_IGN)
    status = main()

    def finished(signum: int, frame: Any) -> None:
        # a Ctrl-C while the process winds down (a local Dask cluster closing, exit handlers): the
        # output is complete, so the command ends at once, with its own status
        _flush_standard_streams()
        os._exit(status)

    signal.signal(signal.SIGINT, finished)
    lingering = [t for t in threading.enumerate()
                 if t is not threading.main_thread() and t.is_alive() and not t.daemon]
    if lingering:
        _flush_standard_streams()
        os._exit(status)
    sys.exit(status)


def _flush_standard_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):
            pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; every failure is one line on standard error (exit 2, 130 for Ctrl-C)."""
    try:
        from . import safety

        with safety.interrupt_handler():
            return _run(argv)
    except KeyboardInterrupt:  # also a Ctrl-C before the handler is in place
        if sys.stderr is not None:
            print("bjexact: interrupted", file=sys.stderr)
        return 130


def _run(argv: Sequence[str] | None) -> int:
    from . import safety

    try:
        return _main(argv)
    except BjexactError as exc:
        return safety.fail(str(exc))
    except KeyboardInterrupt:
        raise
    except BrokenPipeError:
        safety.silence_stdout()
        return 0
    except RecursionError:
        return safety.fail("the input is nested too deeply to be read")
    except MemoryError:
        return safety.fail("out of memory: the input is too large")
    except OSError as exc:
        return safety.fail(safety.describe_os_error(exc))
    except Exception as exc:  # a bug, not bad input: still one line, and saying so
        if os.environ.get("BJEXACT_DEBUG"):
            raise
        return safety.fail(f"internal error: {type(exc).__name__}: {safety.one_line(exc)} "
                           "(please report it; BJEXACT_DEBUG=1 shows the traceback)")


def _main(argv: Sequence[str] | None) -> int:
    from . import safety
    from .common import short

    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser_of(argv[0] if argv and not argv[0].startswith("-") else "")
    if argv and argv[0].startswith("-") and not safety.is_top_level_option(parser, argv[0]):
        parser.error(f"unrecognized option {argv[0]!r}: options come after the command, "
                     "e.g. 'bjexact dealer --decks 6'")
    if argv and not argv[0].startswith("-") and argv[0] not in safety.command_names(parser):
        parser.error(f"unknown command {short(argv[0])!r}"
                     f"{safety.did_you_mean(argv[0], safety.command_names(parser))}")
    argv = safety.join_dash_values(parser, argv)
    try:
        args, extras = parser.parse_known_args(argv)
    except SystemExit:  # --help, --version or a usage error: report a full or closed output
        safety.flush_stdout()
        raise
    sub = safety.subparser(parser, args.command)
    if extras:
        options = [o for o in sub._option_string_actions if o.startswith("--")]
        hint = safety.did_you_mean(extras[0], options) if extras[0].startswith("--") else ""
        sub.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
    for action in sub._actions:  # "--decks=--": argparse drops the "--" and leaves an empty list
        if action.option_strings and action.nargs is None and isinstance(getattr(args, action.dest, None), list):
            sub.error(f"argument {action.option_strings[-1]}: expected one value, not '--'")
    if args.command != "report":  # refuse unwritable output files before any work (report -o is a directory)
        from .common import OUTPUT_OPTIONS, check_output_files

        check_output_files([(option, getattr(args, dest, None))
                            for dest, option in getattr(args, "output_options", OUTPUT_OPTIONS)])
    status = int(args.run(args) or 0)
    safety.flush_stdout()
    return status
