"""Solving for many clients at once: worker processes, one solve per question, answers kept.

A :class:`SolveService` answers questions (:class:`Question`: an answer function of
:mod:`bjexact.web.answers` and its arguments, the rule set first) in worker processes, one per core
by default, so that solves for different rule sets run side by side. Its conventions:

- **One solve per question.** A question asked while the same one is being solved waits for that
  solve; answered, it is kept for the life of the service and answered again from memory.
- **A rule set stays with one worker, unless another is less busy.** A question goes to the least
  loaded worker, its rule set's own (chosen by the rule set's hash) among equals; a worker keeps
  its recent solutions, so the chart, a cell's hands and the house edge of one rule set cost one
  solve there (a page asks for four answers of one rule set at once: they are spread over the
  cores, at the price of solving the rule set in both). Each worker solves one question at a
  time; the others wait in the service's queue for it.
- **A bound on the work of a question.** A solve that runs past ``max_seconds`` from its start is
  stopped (its worker process ends and a new one starts) and the question is answered with
  :func:`too_long`, which is kept like any answer. A worker process that ends for another reason
  (killed, out of memory) is replaced too, and its question tried once more.
- **A client that leaves does not stop the solve.** The answer is kept for the next one.
- **Progress.** Each worker tells the service how far its solve is (the engine's progress bars,
  :func:`bjexact.progress.listening`), per rule set: :meth:`SolveService.progress`.
- **Bad input is an answer too.** A question whose answer function raises
  :class:`~bjexact.errors.BjexactError` gets that one line back, kept like any answer. The
  server's own faults (``Answer.internal``) are not kept. The most recent ``remember`` answers
  are kept.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from ..core.rules import GameRules
from ..errors import BjexactError
from ..progress import listening

__all__ = ["Question", "Answer", "SolveService", "STOPPING", "DEFAULT_MAX_SECONDS", "too_long"]

DEFAULT_REMEMBERED = 4096
"""How many answers a server keeps by default (a chart's SVG is the largest, about 100 kB)."""

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
    the input's fault (or, ``internal``, the server's)."""

    value: Any = None
    error: str | None = None
    internal: bool = False
    """The error is the server's fault, not the input's (HTTP 500; not kept)."""


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

    def tell(label: str, done: int, total: int) -> None:
        if _progress_queue is not None:
            _progress_queue.put((question.rules, label, done, total))

    try:
        with listening(tell):
            value = question.function(question.rules, *question.arguments)
    except BjexactError as exc:
        return Answer(error=str(exc))
    return Answer(value=value)


# --- the server side ------------------------------------------------------------------------------------


@dataclass(eq=False)
class _Job:
    """A question on its way: the future its askers wait on, how often a worker took it, whether it
    passed the bound, and the timer that watches it while a worker solves it."""

    question: Question
    key: Any
    pending: asyncio.Future[Answer]
    attempts: int = 0
    past_bound: bool = False
    timer: asyncio.TimerHandle | None = None


@dataclass(eq=False)
class _Worker:
    """One worker process (a one-process pool), the job it is solving and the jobs queued for it.
    Only one job at a time is in the pool, so that a job's time is its solve's, not its wait's."""

    pool: ProcessPoolExecutor
    queue: deque[_Job] = field(default_factory=deque)
    running: _Job | None = None

    @property
    def load(self) -> int:
        return len(self.queue) + (self.running is not None)


class SolveService:
    """Worker processes answering :class:`Question` s; see the module's conventions.

    ``workers``: the number of processes (default: one per core); ``max_seconds``: the bound on one
    question's solve (:func:`too_long`); ``remember``: how many answers are kept (the oldest go
    first). :meth:`answer` is a coroutine of the server's event loop; :meth:`close` stops the workers.
    """

    def __init__(self, workers: int | None = None, max_seconds: float = DEFAULT_MAX_SECONDS,
                 remember: int = DEFAULT_REMEMBERED):
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.max_seconds = max_seconds
        """The bound on one question's solve: past it, the solve is stopped and the question refused."""
        self.remember = remember
        self._context = multiprocessing.get_context("spawn")  # no copy of the server's threads and sockets
        self._queue = self._context.Queue()
        self._workers = [_Worker(self._new_pool()) for _ in range(self.workers)]
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._closing = False
        self._answers: OrderedDict[Any, Answer] = OrderedDict()
        self._pending: dict[Any, asyncio.Future[Answer]] = {}
        self._unanswered: Counter[GameRules] = Counter()  # questions of a rule set not answered yet
        self._progress: dict[GameRules, tuple[str, int, int]] = {}
        self.solves = 0
        """How many questions were sent to a worker (the rest came from memory or a pending solve)."""
        self._reader = threading.Thread(target=self._read_progress, name="bjexact-progress", daemon=True)
        self._reader.start()

    def _new_pool(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(1, mp_context=self._context, initializer=_start_worker, initargs=(self._queue,))

    def warm_up(self) -> None:
        """Start every worker now (each imports the engine, about a second), not at the first question."""
        for worker in self._workers:
            worker.pool.submit(int).result()

    # --- asking ---

    async def answer(self, question: Question) -> Answer:
        """The question's answer: from memory, from the solve already under way, or from a new one
        (:data:`STOPPING` when the server stops first)."""
        self._follow_loop(asyncio.get_running_loop())
        key = question.key()
        known = self._answers.get(key)
        if known is not None:
            self._answers.move_to_end(key)
            return known
        pending = self._pending.get(key)
        if pending is None:
            pending = self._submit(question, key)
        assert self._stopping is not None
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

    def _follow_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """The service serves the event loop that asks; a new loop (the service outlived a test
        client's) drops the questions waiting in the old one's futures (a solve under way goes on,
        and its answer is kept)."""
        if loop is self._loop:
            return
        self._loop, self._stopping = loop, asyncio.Event()
        for worker in self._workers:
            for job in worker.queue:
                self._forget(job)
            worker.queue.clear()
        self._pending.clear()

    def stop(self) -> None:
        """The server is stopping: questions still waiting for a solve are answered :data:`STOPPING`
        at once (callable from a signal handler or another thread)."""
        if self._loop is not None and self._stopping is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stopping.set)

    def _submit(self, question: Question, key: Any) -> asyncio.Future[Answer]:
        assert self._loop is not None
        self.solves += 1
        job = _Job(question, key, self._loop.create_future())
        self._pending[key] = job.pending
        self._unanswered[question.rules] += 1
        self._progress.setdefault(question.rules, ("waiting for a worker", 0, 0))
        index = self._worker_for(question.rules)
        self._workers[index].queue.append(job)
        self._start_next(index)
        return job.pending

    def _worker_for(self, rules: GameRules) -> int:
        """The least loaded worker, the rule set's own (by its hash) when it is among them."""
        own = hash(rules) % len(self._workers)
        return min(range(len(self._workers)), key=lambda w: (self._workers[w].load, w != own))

    # --- solving: every step below runs in the event loop's thread ---

    def _start_next(self, index: int) -> None:
        """Give worker ``index`` its next job if it is idle; the job's clock starts now."""
        worker = self._workers[index]
        if worker.running is not None or not worker.queue or self._closing:
            return
        job = worker.queue.popleft()
        job.attempts += 1
        try:
            solving = worker.pool.submit(_answer_in_worker, job.question)
        except (BrokenProcessPool, RuntimeError):  # its process is gone: a new one takes the job
            self._replace_pool(index)
            solving = self._workers[index].pool.submit(_answer_in_worker, job.question)
        worker.running = job
        assert self._loop is not None
        job.timer = self._loop.call_later(self.max_seconds, self._overtime, index, job)
        loop = self._loop
        solving.add_done_callback(lambda done: self._on_loop(loop, self._finished, index, job, done))

    def _on_loop(self, loop: asyncio.AbstractEventLoop, step: Callable[..., None], *arguments: Any) -> None:
        """Run ``step`` in the event loop's thread (a pool's callbacks run in its own thread)."""
        if not loop.is_closed():
            loop.call_soon_threadsafe(step, *arguments)

    def _finished(self, index: int, job: _Job, solving: Future[Answer]) -> None:
        worker = self._workers[index]
        if self._closing or worker.running is not job:
            return
        worker.running = None
        if job.timer is not None:
            job.timer.cancel()
        error = None if solving.cancelled() else solving.exception()
        if job.past_bound:
            self._settle(job, Answer(error=too_long(self.max_seconds)))
        elif solving.cancelled() or isinstance(error, BrokenProcessPool):
            # the worker process ended under the job (killed, out of memory): a new one, and one more try
            self._replace_pool(index)
            if job.attempts < 2:
                worker.queue.appendleft(job)
            else:
                self._settle(job, Answer(error="internal error: the worker process ended while solving these rules "
                                               "(out of memory?)", internal=True))
        elif error is not None:
            self._settle(job, Answer(error=f"internal error: {type(error).__name__} (please report it)",
                                     internal=True))
        else:
            self._settle(job, solving.result())
        self._start_next(index)

    def _overtime(self, index: int, job: _Job) -> None:
        """A solve past :attr:`max_seconds`: its worker process ends (the job is then refused, in
        :meth:`_finished`) and a new process takes its place."""
        if self._workers[index].running is job:
            job.past_bound = True
            self._replace_pool(index)

    def _replace_pool(self, index: int) -> None:
        worker = self._workers[index]
        old, worker.pool = worker.pool, self._new_pool()
        worker.pool.submit(int)  # the new process starts (and imports the engine) at once
        _end_pool(old)

    def _settle(self, job: _Job, answer: Answer) -> None:
        """Give ``job``'s askers its answer; keep it (the oldest kept go beyond :attr:`remember`),
        unless it is the server's fault."""
        self._forget(job)
        if not answer.internal:
            self._answers[job.key] = answer
            while len(self._answers) > self.remember:
                self._answers.popitem(last=False)
        if not job.pending.done() and not job.pending.get_loop().is_closed():
            job.pending.set_result(answer)

    def _forget(self, job: _Job) -> None:
        """``job`` is no longer waited for: its pending entry and its rule set's progress go."""
        if self._pending.get(job.key) is job.pending:
            del self._pending[job.key]
        rules = job.question.rules
        self._unanswered[rules] -= 1
        if self._unanswered[rules] <= 0:
            del self._unanswered[rules]
            self._progress.pop(rules, None)

    # --- progress ---

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
            if label and rules in self._unanswered:  # a message of a question answered since is late
                self._progress[rules] = (label, done, total)

    def close(self) -> None:
        """Stop the workers (a solve under way is abandoned)."""
        self._closing = True
        for worker in self._workers:
            _end_pool(worker.pool)
        self._queue.close()
        self._queue.join_thread()


def _end_pool(pool: ProcessPoolExecutor) -> None:
    """End ``pool`` now: its process is stopped, not waited for (the executor has no public way)."""
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
