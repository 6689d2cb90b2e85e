"""Solving for many clients at once: worker processes, one solve per question, answers kept.

A :class:`SolveService` answers questions (:class:`Question`: an answer function of
:mod:`bjexact.web.answers` and its arguments, the rule set first) in worker processes, one per core
by default, so that solves for different rule sets run side by side. Its conventions:

- **One solve per question.** A question asked while the same one is being solved waits for that
  solve; answered, it is kept for the life of the service and answered again from memory.
- **A rule set stays with one worker, unless another is idle.** A question goes to its rule set's
  worker (chosen by the rule set's hash), which keeps its recent solutions: the chart, a cell's
  hands and the house edge of one rule set cost one solve. When that worker is busy and another
  is idle, the idle one takes it (a page asks for four answers of one rule set at once: they are
  spread over the cores, at the price of solving the rule set in both).
- **A bound on the work of a question.** A solve that runs past ``max_seconds`` is stopped (its
  worker process ends and a new one starts) and the question is answered with :func:`too_long`,
  which is kept like any answer; questions queued behind it go to the new worker.
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
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from ..core.rules import GameRules
from ..errors import BjexactError
from ..progress import listening

__all__ = ["Question", "Answer", "SolveService", "STOPPING", "DEFAULT_MAX_SECONDS", "too_long"]

DEFAULT_MAX_SECONDS = 60.0
"""The default bound on one question's solve, in seconds (``bjexact serve --max-seconds``)."""

STOPPING = "the server is stopping: ask again when it is back"
"""The answer of a question still being solved when the server stops."""


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


def too_long(max_seconds: float) -> str:
    """The refusal of a rule set whose solve passed the bound on one request's work."""
    return (f"these rules take more than {max_seconds:g} s to solve, the bound on one request's work "
            "(bjexact serve --max-seconds): the command line computes them (bjexact edge, chart, hand)")


# --- the worker side: these run in the worker processes ---------------------------------------------------

_progress_queue: Any = None


def _start_worker(queue: Any) -> None:
    """A worker's set-up: where it tells its progress; and it ends when the server does, however the
    server ended (a killed server cannot stop its workers)."""
    global _progress_queue
    _progress_queue = queue
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C at the terminal is the server's to handle
    threading.Thread(target=_end_with_parent, args=(os.getppid(),), name="bjexact-parent", daemon=True).start()


def _end_with_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)


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

    ``workers``: the number of processes (default: one per core); ``max_seconds``: the bound on one
    question's solve (:func:`too_long`). :meth:`answer` is a coroutine of the server's event loop;
    :meth:`close` stops the workers.
    """

    def __init__(self, workers: int | None = None, max_seconds: float = DEFAULT_MAX_SECONDS):
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.max_seconds = max_seconds
        """The bound on one question's solve: past it, the solve is stopped and the question refused."""
        context = multiprocessing.get_context("spawn")  # no copy of the server's threads and sockets
        self._queue = context.Queue()
        self._context = context
        self._pools = [self._new_pool() for _ in range(self.workers)]
        self._past_bound: set[Any] = set()  # the questions whose solve passed max_seconds
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._load = [0] * self.workers  # questions under way, per worker
        self._answers: dict[Any, Answer] = {}
        self._pending: dict[Any, asyncio.Future[Answer]] = {}
        self._progress: dict[GameRules, tuple[str, int, int]] = {}
        self.solves = 0
        """How many questions were sent to a worker (the rest came from memory or a pending solve)."""
        self._reader = threading.Thread(target=self._read_progress, name="bjexact-progress", daemon=True)
        self._reader.start()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(1, mp_context=self._context, initializer=_start_worker, initargs=(self._queue,))

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
        if self._stopping is None:
            self._loop, self._stopping = asyncio.get_running_loop(), asyncio.Event()
        stopped: asyncio.Future[Any] = asyncio.ensure_future(self._stopping.wait())
        waits: set[asyncio.Future[Any]] = {pending, stopped}
        try:
            # a client that leaves cancels its wait (asyncio.wait cancels neither), not the solve
            # that others may wait for too
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            stopped.cancel()
        if not pending.done():
            return Answer(error=STOPPING)
        return pending.result()

    def stop(self) -> None:
        """The server is stopping: questions still waiting for a solve are answered :data:`STOPPING`
        at once (callable from a signal handler or another thread)."""
        if self._loop is not None and self._stopping is not None:
            self._loop.call_soon_threadsafe(self._stopping.set)

    def _submit(self, question: Question, key: Any) -> asyncio.Future[Answer]:
        self.solves += 1
        pending: asyncio.Future[Answer] = asyncio.get_running_loop().create_future()
        self._pending[key] = pending
        self._progress.setdefault(question.rules, ("waiting for a worker", 0, 0))
        self._dispatch(question, key, pending)
        return pending

    def _dispatch(self, question: Question, key: Any, pending: asyncio.Future[Answer]) -> None:
        """Send ``question`` to a worker; ``pending`` gets its answer (or the refusal of a solve
        that took longer than :attr:`max_seconds`)."""
        loop = asyncio.get_running_loop()
        worker = self._worker_for(question.rules)
        self._load[worker] += 1
        solving = asyncio.wrap_future(self._pools[worker].submit(_answer_in_worker, question), loop=loop)
        timer = loop.call_later(self.max_seconds, self._overtime, worker, solving, key)

        def finished(future: asyncio.Future[Answer]) -> None:
            timer.cancel()
            self._load[worker] -= 1
            if key in self._past_bound:
                answer = Answer(error=too_long(self.max_seconds))
                self._progress.pop(question.rules, None)  # its worker ended without saying so
            elif future.cancelled() or isinstance(future.exception(), BrokenProcessPool):
                # a worker ended under it (another question's overtime): ask again, on a live worker
                self._dispatch(question, key, pending)
                return
            elif future.exception() is not None:
                error = future.exception()
                answer = Answer(error=f"internal error: {type(error).__name__} (please report it)")
            else:
                answer = future.result()
            self._pending.pop(key, None)
            self._answers[key] = answer
            if not pending.done():
                pending.set_result(answer)

        solving.add_done_callback(finished)

    def _overtime(self, worker: int, solving: asyncio.Future[Answer], key: Any) -> None:
        """A solve past :attr:`max_seconds`: its worker process ends and a new one takes its place."""
        if solving.done():
            return
        self._past_bound.add(key)
        pool, self._pools[worker] = self._pools[worker], self._new_pool()
        self._pools[worker].submit(int)  # the new worker starts (and imports the engine) at once
        for process in list(getattr(pool, "_processes", {}).values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)

    def _worker_for(self, rules: GameRules) -> int:
        """The rule set's own worker, or an idle one when its own is busy."""
        own = hash(rules) % len(self._pools)
        if self._load[own] == 0:
            return own
        idle = [w for w, load in enumerate(self._load) if load == 0]
        return idle[0] if idle else own

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
            # a solve under way is not waited for: its process ends now (the executor has no public way)
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            pool.shutdown(wait=True, cancel_futures=True)
        self._queue.close()
        self._queue.join_thread()

