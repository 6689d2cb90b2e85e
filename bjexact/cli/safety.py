"""Keeping the command line's promises in a hostile world: one-line errors, Ctrl-C, closed or full output.

Shared by every command: the SIGINT handler (which also tells the user's Ctrl-C from
a ``KeyboardInterrupt`` raised by code the user gave us), standard output that is
closed, full or a broken pipe, values starting with '-' (``--decks -inf``), and
unknown options named with the command whose ``--help`` lists the valid ones.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence

from ..files import os_error_message

_interrupted = False


def user_interrupted() -> bool:
    """Whether the user pressed Ctrl-C (SIGINT) during this run, as opposed to code raising KeyboardInterrupt."""
    return _interrupted


def _on_sigint(signum, frame) -> None:
    global _interrupted
    _interrupted = True
    raise KeyboardInterrupt


@contextlib.contextmanager
def interrupt_handler() -> Iterator[None]:
    """Ctrl-C raises ``KeyboardInterrupt`` and is remembered (:func:`user_interrupted`) while inside."""
    global _interrupted
    _interrupted = False
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, _on_sigint)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def one_line(message: object) -> str:
    """``message`` as one line: whitespace runs (newlines too) become one space; a failing ``str`` is named."""
    try:
        text = str(message)
    except Exception:  # an exception whose __str__ fails
        text = f"<{type(message).__name__} whose message cannot be shown>"
    return " ".join(text.split())


def fail(message: str) -> int:
    """Print ``bjexact: error: MESSAGE`` on one line of standard error; the exit status 2."""
    stream = sys.stderr
    if stream is not None:
        with contextlib.suppress(OSError, ValueError):
            stream.write(f"bjexact: error: {one_line(message)}\n")
            stream.flush()
    return 2


def describe_os_error(exc: OSError) -> str:
    """An ``OSError`` that no command turned into a message: its reason and file, in one line."""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        what = f"cannot write {exc.filename}" if exc.filename else "cannot write"
        return f"{what}: {os_error_message(exc)}"
    where = f" ({exc.filename})" if exc.filename else ""
    return f"{os_error_message(exc)}{where}"


def flush_stdout() -> None:
    """Flush standard output now, so that a full or closed one is reported (and not at interpreter exit)."""
    if sys.stdout is None:
        return
    from ..files import write_stdout

    write_stdout("")


def silence_stdout() -> None:
    """After a broken pipe: point standard output at /dev/null so that the exit's flush stays quiet."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    with contextlib.suppress(OSError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)


def is_top_level_option(parser: argparse.ArgumentParser, token: str) -> bool:
    """Whether ``token`` is (an abbreviation of) one of ``bjexact``'s own options (--help, --version)."""
    if token in ("-", "--"):
        return False
    name = token.split("=", 1)[0]
    options = parser._option_string_actions
    return name in options or (name.startswith("--") and any(o.startswith(name) for o in options))


def subparser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of ``command`` (whose errors point to ``bjexact COMMAND --help``)."""
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            return action.choices[command]
    return parser


def command_names(parser: argparse.ArgumentParser) -> list[str]:
    """The names of ``bjexact``'s commands."""
    return [name for action in parser._subparsers._group_actions  # type: ignore[union-attr]
            if isinstance(action, argparse._SubParsersAction) for name in action.choices]


def did_you_mean(word: str, names: Sequence[str]) -> str:
    """`` (did you mean 'edge'?)`` for a mistyped name: the same name in other case, else the
    closest by spelling; empty when nothing is close."""
    from difflib import get_close_matches

    key = word.split("=", 1)[0]
    same = [n for n in names if n.lower() == key.lower()]
    close = same or get_close_matches(key, names, n=1, cutoff=0.75)
    return f" (did you mean {close[0]!r}?)" if close else ""


def join_dash_values(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """``--decks -inf`` as ``--decks=-inf``: a value that starts with '-' and is no option of the command.

    argparse would say "expected one argument"; joined, the value reaches the command,
    which says what is wrong with it (or takes it: ``--output -x.txt``).
    """
    command = next((i for i, token in enumerate(argv) if not token.startswith("-")), None)
    if command is None:
        return argv
    sub = subparser(parser, argv[command])
    if sub is parser:
        return argv
    options = sub._option_string_actions
    out = argv[:command + 1]
    i = command + 1
    while i < len(argv):
        token = argv[i]
        if token == "--":
            out += argv[i:]
            break
        action = options.get(token)
        following = argv[i + 1] if i + 1 < len(argv) else None
        if (action is not None and token.startswith("--") and action.nargs is None and following is not None
                and len(following) > 1 and following.startswith("-") and not following.startswith("--")
                and following not in options):
            out.append(f"{token}={following}")
            i += 2
            continue
        out.append(token)
        i += 1
    return out


# --- running code the user gave us (check-sim) ------------------------------------------------------------


class Abort(BaseException):
    """Stop the run with a one-line message: passes through handlers of ``Exception`` in the library."""


def safe_repr(value: object, limit: int = 60) -> str:
    """``repr(value)`` cut to ``limit`` characters; a ``repr`` that fails is named, not raised."""
    try:
        text = repr(value)
    except BaseException:  # noqa: BLE001 - the user's __repr__ may do anything
        text = f"<{type(value).__name__} object whose repr fails>"
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def callable_name(function: object) -> str:
    """``module.qualname`` of a user's callable, for messages."""
    try:
        name = getattr(function, "__qualname__", None) or type(function).__name__
        module = getattr(function, "__module__", None)
    except BaseException:  # noqa: BLE001
        return type(function).__name__
    if not isinstance(name, str):
        name = type(function).__name__
    return f"{module}.{name}" if isinstance(module, str) and module not in ("__main__", "builtins") else name


def call_user_code(function, *args, what: str, refused: str | None = None):
    """``function(*args)``; whatever it raises (``sys.exit`` and ``KeyboardInterrupt`` too) is one line.

    The user's own Ctrl-C (SIGINT) still interrupts the run. ``refused``: the words for an
    ordinary exception, read as the user's code refusing the rules (``REFUSED: Error: message``).
    """
    from ..errors import OutOfTime

    try:
        return function(*args)
    except (Abort, OutOfTime):
        raise
    except KeyboardInterrupt:
        if user_interrupted():
            raise
        raise Abort(f"{what} raised KeyboardInterrupt (not a Ctrl-C)") from None
    except SystemExit as exc:
        raise Abort(f"{what} called sys.exit({safe_repr(exc.code)}): it must return, not end the program") from None
    except BaseException as exc:  # noqa: BLE001 - the user's code failed: say so in one line
        if refused is not None and isinstance(exc, Exception):
            raise Abort(f"{refused}: {type(exc).__name__}: {one_line(exc)}") from None
        raise Abort(f"{what} raised {type(exc).__name__}: {one_line(exc)}") from None


# after a time limit's first alarm, the next ones this often: user code that swallowed the first
# (``except BaseException``) and runs on is ended by the second
_ALARM_REPEAT = 0.5


def _end_process(message: str) -> None:
    """The user's code swallowed a time limit and ran on: say so in one line and end at once (exit 2;
    nothing is being written: outputs are written after the user's code, and atomically)."""
    fail(f"{message} (and ran on after being stopped)")
    os._exit(2)


@contextlib.contextmanager
def time_limit(seconds: float, message: str) -> Iterator[None]:
    """Run the block (the user's module imported, a factory called) within ``seconds``: past them
    ``Abort(message)`` is raised in it (SIGALRM, main thread); should the user's code swallow that
    and run on, the next alarm ends the process with the message, and should it swallow it and
    return, the block still ends with it."""
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return
    fired: list[bool] = []

    def on_alarm(signum, frame) -> None:
        if fired:
            _end_process(message)
        fired.append(True)
        raise Abort(message)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 1e-3), _ALARM_REPEAT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    if fired:
        raise Abort(message)


class GuardedCalls:
    """A user's simulator with time limits, a progress bar and its failures made one line.

    Each call must answer within ``call_timeout`` seconds and the whole run end within
    ``timeout`` seconds (SIGALRM, in the main thread). Exceptions, ``sys.exit`` and a
    ``KeyboardInterrupt`` that is not the user's Ctrl-C stop the run with one line (:class:`Abort`)
    naming the simulator; an exception in the very first call is reported as the simulator
    refusing the rules. With ``stop_at_deadline`` the end of ``timeout`` raises ``stop`` (an
    exception the check catches to report on the rounds done) instead of aborting.
    Subclasses define ``__call__`` with the protocol's arguments and answers, and may name what
    they guard (``kind``) and the command that runs it (``command``) for the messages.
    """

    kind = "simulator"
    command = "check-sim"
    too_slow = "is too slow for the rounds asked; lower --rounds"

    def __init__(self, simulator, *, call_timeout: float, timeout: float, progress=None,
                 stop: type[BaseException] | None = None, started: float | None = None):
        import time

        self.simulator = simulator
        self.name = callable_name(simulator)
        self.__qualname__ = self.name
        self.__module__ = "__main__"
        self.call_timeout = call_timeout
        self.timeout = timeout
        self.deadline = (time.monotonic() if started is None else started) + timeout  # started: the command's clock
        self.progress = progress
        self.stop = stop
        self.calls = 0
        self._where = ""
        self._clock = time.monotonic
        self._alarm = hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
        self._fired: BaseException | None = None  # the stop raised by this call's alarm

    def __enter__(self):
        if self._alarm:
            self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._previous)

    def _on_alarm(self, signum, frame) -> None:
        if self._fired is not None and signum is not None:  # the first alarm of this call was swallowed
            _end_process(str(self._fired))
        stopped: BaseException
        if self._clock() >= self.deadline:
            if self.stop is not None:
                stopped = self.stop(f"--timeout {self.timeout:g} s reached")
            else:
                stopped = Abort(f"{self.command} took longer than --timeout {self.timeout:g} s in all "
                                f"(the {self.kind} {self.name} {self.too_slow})")
        else:
            stopped = Abort(f"the {self.kind} {self.name} gave no answer within --call-timeout "
                            f"{self.call_timeout:g} s{self._where}")
        if signum is not None:
            self._fired = stopped
        raise stopped

    def call(self, *args, where: str = ""):
        """The simulator's raw answer to ``args`` (``where``: ' for up-card 7', for messages)."""
        self._where = where
        remaining = self.deadline - self._clock()
        if remaining <= 0:
            self._on_alarm(None, None)
        self.calls += 1
        what = f"the {self.kind} {self.name}{where}"
        refused = f"the {self.kind} {self.name} refused these rules (its first call{where} raised)" \
            if self.calls == 1 else None
        self._fired = None
        if self._alarm:
            signal.setitimer(signal.ITIMER_REAL, max(min(self.call_timeout, remaining), 1e-3), _ALARM_REPEAT)
        try:
            answer = call_user_code(self.simulator, *args, what=what, refused=refused)
        finally:
            if self._alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
        if self._fired is not None:  # the user's code swallowed the time limit and answered late
            raise self._fired
        if self.progress is not None:
            self.progress.advance()
        return answer


class GuardedSimulator(GuardedCalls):
    """A user's ``dealer_outcome(upcard, rng)`` guarded (:class:`GuardedCalls`); answers that are not
    an outcome (or whose ``repr`` fails) stop the run with one line naming the up-card."""

    def __init__(self, simulator, *, call_timeout: float, timeout: float, rounds: int = 0, progress=None,
                 started: float | None = None):
        super().__init__(simulator, call_timeout=call_timeout, timeout=timeout, progress=progress, started=started)

    def __call__(self, upcard: int, rng):
        from ..core.cards import rank_symbol

        where = f" for up-card {rank_symbol(upcard)}"
        return _plain_answer(self.call(upcard, rng, where=where), f"the simulator {self.name}{where}")


class GuardedRoundSimulator(GuardedCalls):
    """A user's ``play_round(rng)`` guarded (:class:`GuardedCalls`): its answer made a plain ``float``;
    one that is no finite real number (or whose ``__float__`` fails) stops the run with one line."""

    def __call__(self, rng):
        where = f" in round {self.calls + 1}"
        return _plain_number(self.call(rng, where=where), f"the simulator {self.name}{where}")


class GuardedEngine(GuardedCalls):
    """A user's strategy engine ``decide(cards, upcard, unseen)`` guarded (:class:`GuardedCalls`)."""

    kind = "engine"
    command = "check-strategy"
    too_slow = "is too slow for the hands checked; lower --shoes"

    def __call__(self, cards, upcard, unseen):
        from ..core.cards import rank_symbol

        where = f" for {'-'.join(map(rank_symbol, cards))} v {rank_symbol(upcard)}"
        return self.call(cards, upcard, unseen, where=where)


def _plain_number(answer, what: str) -> float:
    """A finite ``float`` of a net result, or a one-line refusal naming the simulator's fault."""
    import math

    if isinstance(answer, (bool, str, bytes)) or answer is None:
        raise Abort(f"{what} returned {safe_repr(answer)}, not a number (the net result of the round)")
    if isinstance(answer, int) and abs(answer) > 10**12:
        digits = int(int.bit_length(answer) * 0.30103) + 1
        raise Abort(f"{what} returned an integer of about {digits} digits, not a net result per unit bet")
    number = call_user_code(float, answer, what=f"{what}: converting its answer {safe_repr(answer)} to a number")
    if not isinstance(number, float) or not math.isfinite(number):
        raise Abort(f"{what} returned {safe_repr(answer)}, not a finite number (the net result of the round)")
    return float.__float__(number)


def _plain_answer(answer, what: str):
    """A str or int with no surprises (subclasses, numpy integers), or a one-line refusal."""
    import operator

    if isinstance(answer, bool):
        return answer
    if isinstance(answer, str):
        text = str.__str__(answer)
        if len(text) <= 20:
            return text
    elif isinstance(answer, int) or (hasattr(type(answer), "__index__") and not isinstance(answer, str)):
        try:
            return int.__index__(operator.index(answer))
        except BaseException:  # noqa: BLE001 - a user's __index__ may do anything
            pass
    raise Abort(f"{what} answered {safe_repr(answer)}, not an outcome (17..21, bust, blackjack, or a total)")
