"""Solving for many clients at once: worker processes, one solve per question, answers kept.

A :class:`SolveService` answers questions (:class:`Question`: an answer function of
:mod:`bjexact.web.answers` and its arguments, the rule set first) in worker processes, one per core
by default, so that solves for different rule sets run side by side. Its conventions:

- **One solve per question.** A question asked while the same one is being solved waits for that
  solve; answered, it is kept for the life of the service and answered again from memory.
- **A rule set stays with one worker.** Every question of a rule set goes to the same worker
  (chosen by the rule set's hash), which keeps its recent solutions: the chart, a cell's hands and
  the house edge of one rule set cost one solve.
- **A client that leaves does not stop the solve.** The answer is kept for the next one.
- **Progress.** Each worker tells the service how far its solve is (the engine's progress bars,
  :func:`bjexact.progress.listening`), per rule set: :meth:`SolveService.progress`.
- **Bad input is an answer too.** A question whose answer function raises
  :class:`~bjexact.errors.BjexactError` gets that one line back (and it is kept like any answer).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from ..core.rules import GameRules
from ..errors import BjexactError
from ..progress import listening

__all__ = ["Question", "Answer", "SolveService"]


@dataclass(frozen=True)
class Question:
    """An answer function (a module-level function, so that it reaches a worker by name) and its
    arguments, the rule set first; equal questions have equal answers."""

    function: Callable[..., Any]
    rules: GameRules
    arguments: tuple[Any, ...] = ()

    def key(self) -> tuple[str, GameRules, tuple[Any, ...]]:
        return (self.function.__qualname__, self.rules, self.arguments)


@dataclass(frozen=True)
class Answer:
    """What a question got: ``value`` (the answer function's result), or ``error``, the one line of
    the input's fault; ``seconds``: how long the solve took in the worker."""

    value: Any = None
    error: str | None = None
    seconds: float = 0.0


# --- the worker side: these run in the worker processes ---------------------------------------------------

_progress_queue: Any = None


def _start_worker(queue: Any) -> None:
    """A worker's set-up: where it tells its progress."""
    global _progress_queue
    _progress_queue = queue


def _answer_in_worker(question: Question) -> Answer:
    """Answer ``question`` in a worker, telling its progress under the rule set."""
    started = time.monotonic()

    def tell(label: str, done: int, total: int) -> None:
        if _progress_queue is not None:
            _progress_queue.put((question.rules, label, done, total))

    try:
        with listening(tell):
            value = question.function(question.rules, *question.arguments)
    except BjexactError as exc:
        return Answer(error=str(exc), seconds=time.monotonic() - started)
    finally:
        tell("", 0, 0)  # the rule set's solve is over
    return Answer(value=value, seconds=time.monotonic() - started)


# --- the server side ------------------------------------------------------------------------------------


class SolveService:
    """Worker processes answering :class:`Question` s; see the module's conventions.

    ``workers``: the number of processes (default: one per core). Use it as an async context
    manager, or :meth:`close` it; :meth:`answer` is a coroutine of the server's event loop.
    """

    def __init__(self, workers: int | None = None):
        self.workers = max(1, workers or os.cpu_count() or 1)
        context = multiprocessing.get_context("spawn")  # no copy of the server's threads and sockets
        self._queue = context.Queue()
        self._pools = [ProcessPoolExecutor(1, mp_context=context, initializer=_start_worker,
                                           initargs=(self._queue,)) for _ in range(self.workers)]
        self._answers: dict[Any, Answer] = {}
        self._pending: dict[Any, asyncio.Future[Answer]] = {}
        self._progress: dict[GameRules, tuple[str, int, int]] = {}
        self.solves = 0
        """How many questions were sent to a worker (the rest came from memory or a pending solve)."""
        self._reader = threading.Thread(target=self._read_progress, name="bjexact-progress", daemon=True)
        self._reader.start()

    async def __aenter__(self) -> SolveService:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()

    def warm_up(self) -> None:
        """Start every worker now (each imports the engine, about a second), not at the first question."""
        for pool in self._pools:
            pool.submit(int).result()

    async def answer(self, question: Question) -> Answer:
        """The question's answer: from memory, from the solve already under way, or from a new one."""
        key = question.key()
        known = self._answers.get(key)
        if known is not None:
            return known
        pending = self._pending.get(key)
        if pending is None:
            pending = self._submit(question, key)
        # a client that leaves cancels its wait, not the solve the others wait for too
        return await asyncio.shield(pending)

    def _submit(self, question: Question, key: Any) -> asyncio.Future[Answer]:
        self.solves += 1
        pool = self._pools[hash(question.rules) % len(self._pools)]
        self._progress.setdefault(question.rules, ("waiting for a worker", 0, 0))
        pending = asyncio.wrap_future(pool.submit(_answer_in_worker, question))
        self._pending[key] = pending

        def done(future: asyncio.Future[Answer]) -> None:
            self._pending.pop(key, None)
            if not future.cancelled() and future.exception() is None:
                self._answers[key] = future.result()

        pending.add_done_callback(done)
        return pending

    def known(self, question: Question) -> Answer | None:
        """The question's answer if it is in memory, without solving."""
        return self._answers.get(question.key())

    def progress(self, rules: GameRules) -> dict[str, Any]:
        """How far the solves of ``rules`` are: ``{"solving": bool, "stage", "done", "total"}``."""
        stage, done, total = self._progress.get(rules, ("", 0, 0))
        return {"solving": bool(stage), "stage": stage, "done": done, "total": total}

    def _read_progress(self) -> None:
        while True:
            try:
                rules, label, done, total = self._queue.get()
            except (EOFError, OSError, ValueError):  # the service is closing
                return
            if label:
                self._progress[rules] = (label, done, total)
            else:
                self._progress.pop(rules, None)

    def close(self) -> None:
        """Stop the workers (a solve under way is abandoned)."""
        for pool in self._pools:
            pool.shutdown(wait=False, cancel_futures=True)
        self._queue.close()


def run_now(question: Question) -> Answer:
    """Answer ``question`` in this process (tests, and tools that need no server)."""
    return _answer_in_worker(question)
