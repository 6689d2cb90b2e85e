"""A minimal progress bar for long runs: shown on a terminal, silent otherwise."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO

Listener = Callable[[str, int, int], None]
"""Told ``(label, done, total)`` as a bar starts, moves (at most ten times a second) and ends."""

_listeners: list[Listener] = []


@contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Within the block, every :class:`Progress` also tells ``listener`` how far it is, drawn or not
    (the web application shows a solve's progress this way)."""
    _listeners.append(listener)
    try:
        yield
    finally:
        _listeners.remove(listener)


class Progress:
    """``with Progress(total, "label") as bar: ... bar.advance()`` draws on stderr when it is a terminal."""

    def __init__(self, total: int, label: str, *, enabled: bool | None = None, stream: TextIO | None = None):
        self.total = max(total, 1)
        self.label = label
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.done = 0
        self.started = time.monotonic()
        self._last = 0.0

    def __enter__(self) -> Progress:
        self.draw()
        self._tell()
        return self

    def advance(self, steps: int = 1) -> None:
        self.done += steps
        now = time.monotonic()
        if now - self._last > 0.1 or self.done >= self.total:
            self._last = now
            self.draw()
            self._tell()

    def _tell(self) -> None:
        for listener in _listeners:
            listener(self.label, min(self.done, self.total), self.total)

    def draw(self) -> None:
        """Redraw the bar (nothing when not enabled); subclasses override it to change its look,
        reading :attr:`done`, :attr:`total`, :attr:`label` and :attr:`started` (``time.monotonic()``
        when the bar was made)."""
        if not self.enabled:
            return
        width = 30
        filled = width * min(self.done, self.total) // self.total
        elapsed = time.monotonic() - self.started
        self.stream.write(
            f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} {elapsed:5.1f}s"
        )
        self.stream.flush()

    def __exit__(self, *exc: object) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * (len(self.label) + 60) + "\r")
            self.stream.flush()
