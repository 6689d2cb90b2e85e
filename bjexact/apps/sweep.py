"""Many exact solves at once: rule grids, a content-addressed results store, Dask execution.

A *task* is a pure function of a rule set (shoe composition included): the exact
value of the round under optimal play, per up-card, and its variance, returned as
``"p/q"`` strings so that it crosses process and machine boundaries unchanged.
Tasks run on a Dask cluster (a local cluster of processes unless a scheduler is
given) or serially; each finished result is stored under the hash of its task
(the rules, the kind of task, the bjexact version) as soon as it arrives, so an
interrupted sweep resumes where it stopped and a repeated one costs nothing.
Aggregation (rule effects) subtracts exact fractions; only the report rounds.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import math
import os
import re
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from .. import __version__
from ..core.cards import FiniteShoe, Shoe
from ..core.numbers import fraction_string, mpq, parse_fraction, short
from ..core.rules import INFINITE, GameRules, parse_bj_pays, parse_decks, refuse_split_rules_without_splitting
from ..dealer.batch import MAX_ENGINE_CARDS
from ..errors import BjexactError
from ..files import read_bounded, write_atomically
from ..player.game import solve_game
from ..progress import Progress
from ..render.tables import NumberStyle

__all__ = [
    "RULE_KEYS", "RuleGrid", "load_grid", "grid_from_mapping", "rules_from_json", "solve_task", "task_key",
    "ResultStore", "run_tasks", "effects", "Effect", "result_rows", "ROW_UPCARDS", "write_whole",
]

TASK_KIND = "solve_game/1"
# GameRules fields a grid may set: every rule of the full game (plain naturals are the hit/stand game's)
RULE_KEYS = tuple(f.name for f in fields(GameRules) if f.name != "plain_naturals")
_DEFAULT_RULES = GameRules()
ROW_UPCARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
RANK_SYMBOLS = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "T"}


# --- rule sets as plain data --------------------------------------------------------------------


def _normal_value(key: str, value: Any, where: str) -> Any:
    """A TOML value for a rule, in the form ``GameRules.to_json`` uses."""
    if key == "bj_pays":  # read as --bj-pays reads it
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise BjexactError(f"{where}: bj_pays must be a fraction such as \"3/2\", not {_shown(value)}")
        return fraction_string(parse_bj_pays(str(value), where))
    if key == "decks":  # read as --decks reads it
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise BjexactError(f"{where} must be a whole number or \"inf\", not {_shown(value)}")
        decks = parse_decks(str(value), where)
        return "inf" if decks == INFINITE else decks
    if key == "shoe":  # bounded as --shoe is
        if not isinstance(value, list) or len(value) != 10 or not all(isinstance(c, int) for c in value):
            raise BjexactError(f"{where}: shoe must be a list of ten counts (A,2,...,9,T), not {_shown(value)}")
        try:
            Shoe.of_counts(value)
        except BjexactError as exc:
            raise BjexactError(f"{where}: {exc}") from None
        return list(value)
    if key == "charlie" and value is False:  # TOML has no null: false is no Charlie
        return None
    return value


def _shown(value: Any) -> str:
    """A grid file's value for a message, cut short (a list of 5,000 numbers is not repeated)."""
    return short(repr(value), 60)


def rules_from_json(rules: Mapping[str, Any]):
    """The :class:`~bjexact.core.rules.GameRules` of a plain mapping (``GameRules.to_json`` or a grid
    point): :meth:`GameRules.from_json <bjexact.core.rules.GameRules.from_json>`."""
    return GameRules.from_json(rules)


# the most rule sets one sweep solves: each is an exact solve of up to seconds
MAX_RULE_SETS = 10_000


def canonical_rules(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The complete, validated form of a rule set, a task to solve: ``GameRules.to_json`` of it;
    refused at once if its shoe holds more cards than the engine can solve. (Under perfect post-split
    play a task has no variance: :func:`solve_task`.)"""
    game = refuse_split_rules_without_splitting(rules_from_json(rules))
    shoe = game.make_shoe()
    if isinstance(shoe, FiniteShoe) and sum(shoe.counts) > MAX_ENGINE_CARDS:
        raise BjexactError(f"a shoe of {sum(shoe.counts):,} cards: the engine solves at most {MAX_ENGINE_CARDS:,} "
                           f"({MAX_ENGINE_CARDS // 52:,} decks)")
    return game.to_json()


@dataclass(frozen=True)
class RuleGrid:
    """``base``: rules every rule set shares; ``axes``: rule -> values, the first value the base's.

    ``points()`` is the Cartesian product; ``effect_points()`` the base and every single change from it.
    """

    base: Mapping[str, Any]
    axes: Mapping[str, Sequence[Any]] = field(default_factory=dict)

    def base_point(self) -> dict[str, Any]:
        return dict(self.base) | {k: values[0] for k, values in self.axes.items()}

    def points(self) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], str]]]:
        """(valid rule sets, [(refused rule set, reason)]) of the whole grid, in a fixed order."""
        keys = list(self.axes)
        size = math.prod(len(self.axes[k]) for k in keys)
        if size > MAX_RULE_SETS:
            raise BjexactError(f"the grid holds {size:,} rule sets, more than the bound of {MAX_RULE_SETS:,} a run "
                               "(each one exact solve): fewer values, or several grids")
        valid, refused = [], []
        for combo in itertools.product(*(self.axes[k] for k in keys)):
            point = dict(self.base) | dict(zip(keys, combo))
            try:
                valid.append(canonical_rules(point))
            except BjexactError as exc:
                refused.append((point, str(exc)))
        return valid, refused

    def changes(self) -> list[tuple[str, Any]]:
        """Every single change from the base: (rule, value)."""
        return [(k, v) for k, values in self.axes.items() for v in values[1:]]

    def effect_points(self, strict: bool = True) -> list[dict[str, Any]]:
        """The base and each single change from it; a change the engine refuses is an error
        (``strict``) or left out."""
        base = self.base_point()
        points = [canonical_rules(base)]
        for key, value in self.changes():
            try:
                points.append(canonical_rules(base | {key: value}))
            except BjexactError as exc:
                if strict:
                    raise BjexactError(
                        f"the change {key} = {_show(value)} from the base rules is refused: {exc}") from None
        return points


def grid_from_mapping(document: Mapping[str, Any], where: str = "grid") -> RuleGrid:
    """A grid from a parsed TOML document: tables ``[base]`` (fixed rules) and ``[grid]`` (rule -> list)."""
    unknown = set(document) - {"base", "grid"}
    if unknown:
        raise BjexactError(f"{where}: unknown table(s) {', '.join(sorted(unknown))}; expected [base] and [grid]")

    def key_of(name: str) -> str:
        key = name.replace("-", "_")
        if key not in RULE_KEYS:
            raise BjexactError(f"{where}: unknown rule {name!r}; rules: {', '.join(RULE_KEYS)}")
        return key

    for table in ("base", "grid"):
        if not isinstance(document.get(table, {}), Mapping):
            raise BjexactError(f"{where}: {table} must be a table ([{table}] with one rule a line), "
                               f"not {type(document[table]).__name__}")
    base = {key_of(k): _normal_value(key_of(k), v, f"{where} [base] {k}")
            for k, v in document.get("base", {}).items()}
    axes: dict[str, list[Any]] = {}
    for name, values in document.get("grid", {}).items():
        key = key_of(name)
        if not isinstance(values, list) or not values:
            raise BjexactError(f"{where}: [grid] {name} must be a non-empty list of values")
        if key in base:
            raise BjexactError(f"{where}: {name} is both in [base] and in [grid]")
        normal = [_normal_value(key, v, f"{where} [grid] {name}") for v in values]
        if len({json.dumps(v) for v in normal}) != len(normal):
            raise BjexactError(f"{where}: [grid] {name} lists a value twice")
        axes[key] = normal
    if "decks" in base and "shoe" in base:
        raise BjexactError(f"{where}: give decks or shoe, not both")
    grid = RuleGrid(base, axes)
    canonical_rules(grid.base_point())  # the base itself must be a valid rule set
    return grid


# A grid file is a few lines of TOML: a larger file is refused after reading this much.
MAX_TOML_BYTES = 2**20


def read_toml(path: str | Path, what: str) -> dict[str, Any]:
    """A small TOML file (a grid, a count system), read with a bound: ``/dev/zero`` or a file of
    gigabytes is refused in one line, as is a file that is not TOML."""
    if not os.path.lexists(path):
        raise BjexactError(f"{path}: no such file")
    text = read_bounded(str(path), limit=MAX_TOML_BYTES, what=what)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BjexactError(f"{path}: not valid TOML: {exc}") from None


def load_grid(path: str | Path) -> RuleGrid:
    path = Path(path)
    return grid_from_mapping(read_toml(path, "grid of rule sets"), str(path))


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return ",".join(map(str, value))
    return str(value)


# --- the task -----------------------------------------------------------------------------------


def task_key(rules: Mapping[str, Any], kind: str = TASK_KIND) -> str:
    """The content hash of a task: its data (the canonical rules), the kind of task, the bjexact version."""
    text = json.dumps({"kind": kind, "version": __version__, "rules": dict(rules)}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def solve_task(rules: Mapping[str, Any]) -> dict[str, Any]:
    """Solve one rule set exactly: {"ev", "by_upcard", "upcard_chance", "variance"} as "p/q" strings.

    A pure function of ``rules`` (a ``GameRules.to_json`` mapping): what a worker runs.
    """
    solution = solve_game(rules_from_json(rules), progress=False)
    variance = solution.variance
    return {
        "ev": fraction_string(solution.ev),
        "by_upcard": {RANK_SYMBOLS[u]: fraction_string(v) for u, v in solution.by_upcard.items()},
        "upcard_chance": {RANK_SYMBOLS[u]: fraction_string(v) for u, v in solution.upcard_chance.items()},
        "variance": None if variance is None else fraction_string(variance),
    }


# --- the results store --------------------------------------------------------------------------


def result_digest(result: Mapping[str, Any]) -> str:
    """The SHA-256 of a result's canonical JSON: a stored result that no longer matches was altered."""
    return hashlib.sha256(json.dumps(result, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class ResultStore:
    """Finished results, one JSON file per task named by its content hash (``ab/abcdef....json``).

    Files are written whole or not at all; a file that does not hold the task it is named
    for, whose result is not the one written (each carries its result's digest), or that is
    unreadable counts as missing and is computed again.
    """

    def __init__(self, directory: str | Path, kind: str = TASK_KIND):
        self.directory = Path(directory)
        self.kind = kind

    def _path(self, key: str) -> Path:
        return self.directory / key[:2] / f"{key}.json"

    def get(self, rules: Mapping[str, Any]) -> dict[str, Any] | None:
        key = task_key(rules, self.kind)
        try:
            document = json.loads(self._path(key).read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(document, dict) or document.get("key") != key or document.get("rules") != dict(rules):
            return None
        result = document.get("result")
        if not isinstance(result, dict) or document.get("digest") != result_digest(result):
            return None  # altered since it was written
        return result

    def put(self, rules: Mapping[str, Any], result: Mapping[str, Any], seconds: float | None = None) -> None:
        key = task_key(rules, self.kind)
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BjexactError(f"cannot create the results store {self.directory}: {exc}") from None
        document = {"key": key, "kind": self.kind, "rules": dict(rules), "result": dict(result),
                    "digest": result_digest(result), "seconds": seconds}
        write_whole(path, json.dumps(document, indent=1) + "\n")

    def __len__(self) -> int:
        return sum(1 for _ in self.directory.glob("??/*.json")) if self.directory.is_dir() else 0


def write_whole(path: Path, text: str) -> None:
    """Write a file under a temporary name, then rename it: never half-written
    (:func:`bjexact.files.write_atomically`)."""
    write_atomically(path, text.encode())


# --- execution ----------------------------------------------------------------------------------


class _Bar(Progress):
    """bjexact's progress bar with the estimated time left."""

    def draw(self) -> None:
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.started
        left = ""
        if 0 < self.done < self.total:
            left = f", about {elapsed / self.done * (self.total - self.done):.0f}s left"
        filled = 30 * min(self.done, self.total) // self.total
        self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total} "
                          f"{elapsed:5.1f}s{left}   ")
        self.stream.flush()


@dataclass
class RunStats:
    """What a run did: tasks found in the store, tasks computed, and where."""

    stored: int = 0
    computed: int = 0
    workers: int = 0
    seconds: float = 0.0


def run_tasks(
    tasks: Iterable[Mapping[str, Any]],
    *,
    store: ResultStore | None = None,
    executor: str = "dask",
    scheduler: str | None = None,
    workers: int | None = None,
    client: Any = None,
    progress: bool | None = None,
    function: Callable[[Mapping[str, Any]], dict[str, Any]] = solve_task,
    on_result: Callable[[int, Any], None] | None = None,
    stats: RunStats | None = None,
    kind: str = TASK_KIND,
    label: str = "solving rule sets",
) -> list[dict[str, Any]]:
    """The result of every task, in order; stored results are reused, new ones stored as they arrive.

    ``executor``: ``"dask"`` (an existing ``client``, else a cluster at ``scheduler``, else a
    local cluster of ``workers`` processes, one thread each) or ``"serial"`` (this process).
    ``on_result(done, client)`` is called after each computed result (tests use it to kill a worker).
    """
    if store is not None and store.kind != kind:
        raise ValueError(f"a store of {store.kind} results cannot hold {kind} results")
    tasks = [dict(t) for t in tasks]
    stats = stats if stats is not None else RunStats()
    start = time.monotonic()
    results: list[dict[str, Any] | None] = [None] * len(tasks)
    todo: dict[str, list[int]] = {}
    for i, rules in enumerate(tasks):
        found = store.get(rules) if store is not None else None
        if found is not None:
            results[i] = found
            stats.stored += 1
        else:
            todo.setdefault(task_key(rules, kind), []).append(i)

    def finish(key: str, result: dict[str, Any], seconds: float | None) -> None:
        first = todo[key][0]
        if store is not None:
            store.put(tasks[first], result, seconds)
        for i in todo[key]:
            results[i] = result
        stats.computed += 1

    with _Bar(len(todo), label, enabled=progress if todo else False) as bar:
        if todo and executor == "serial":
            stats.workers = 1
            for key, indices in todo.items():
                t0 = time.monotonic()
                result = function(tasks[indices[0]])
                finish(key, result, time.monotonic() - t0)
                bar.advance()
                if on_result is not None:
                    on_result(stats.computed, None)
        elif todo and executor == "dask":
            with _dask_client(client, scheduler, workers) as dask_client:
                stats.workers = len(dask_client.scheduler_info(n_workers=-1)["workers"])
                _run_on_dask(dask_client, todo, tasks, function, finish, bar, on_result, stats)
        elif executor not in ("dask", "serial"):
            raise BjexactError(f"unknown executor {executor!r}: dask or serial")
    stats.seconds = time.monotonic() - start
    return results  # type: ignore[return-value]


def _timed(function: Callable[[Mapping[str, Any]], dict[str, Any]], rules: Mapping[str, Any]):
    t0 = time.perf_counter()
    result = function(rules)
    return result, time.perf_counter() - t0


def _run_on_dask(client, todo, tasks, function, finish, bar, on_result, stats) -> None:
    from distributed import as_completed

    futures = {}
    for key, indices in todo.items():
        # the key is the content hash: two clients asking for one task share it
        future = client.submit(_timed, function, tasks[indices[0]], key=f"bjexact-{key}", pure=False, retries=2)
        futures[future] = key
    for future in as_completed(list(futures)):
        result, seconds = future.result()
        finish(futures[future], result, seconds)
        bar.advance()
        if on_result is not None:
            on_result(stats.computed, client)


SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
_ADDRESS = re.compile(r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
                      r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?)"
                      r":(?P<port>[0-9]{1,5})")


def scheduler_address(text: str) -> str:
    """A Dask scheduler's address, ``[tcp://]HOST:PORT``, checked for its form (not that a
    scheduler answers there): one line naming the problem for anything else (``garbage``, an
    empty address, ``http://...``), before any work."""
    shown = short(repr(text), 60)
    hint = "give tcp://HOST:PORT, e.g. tcp://10.0.0.5:8786"
    match = _ADDRESS.fullmatch(text.strip())
    if match is None:
        raise BjexactError(f"--scheduler {shown} is not a Dask scheduler address: {hint}")
    scheme = (match.group("scheme") or "tcp").lower()
    if scheme not in SCHEDULER_SCHEMES:
        raise BjexactError(f"--scheduler {shown}: {scheme}:// is not a Dask protocol "
                           f"({', '.join(SCHEDULER_SCHEMES)}): {hint}")
    if not 1 <= int(match.group("port")) <= 65535:
        raise BjexactError(f"--scheduler {shown}: the port must be from 1 to 65535: {hint}")
    return f"{scheme}://{match.group('host')}:{int(match.group('port'))}"


class _dask_client:
    """A context manager for a Dask client: the caller's, one connected to ``scheduler``, or a local cluster."""

    def __init__(self, client, scheduler, workers):
        self.given, self.scheduler, self.workers = client, scheduler, workers
        self.own: list[Any] = []
        self.launcher = contextlib.ExitStack()

    def __enter__(self):
        if self.given is not None:
            return self.given
        try:
            return self._connect()
        except BaseException as exc:  # a failed or interrupted start leaves no cluster running
            self.__exit__(type(exc), exc, exc.__traceback__)
            _close_half_started_clusters()
            _kill_spawned_workers()
            raise

    def _connect(self):
        try:
            import logging

            from distributed import Client, LocalCluster
        except ImportError:
            raise BjexactError("Dask is needed: pip install 'bjexact[dask]' (or use --serial)") from None
        if self.scheduler is not None:
            address = scheduler_address(self.scheduler)
            try:
                client = Client(address, timeout="20s")
            except Exception as exc:  # noqa: BLE001 - refused, unreachable, a TLS address without certificates
                raise BjexactError(f"cannot reach the Dask scheduler at {address}: {type(exc).__name__}: "
                                   f"{exc}") from None
            self.own.append(client)
            return client
        workers = self.workers or os.cpu_count() or 1
        self.launcher.enter_context(workers_ignoring_sigint())
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=logging.ERROR)
        self.own.append(cluster)
        client = Client(cluster)
        self.own.append(client)
        return client

    def __exit__(self, *exc: object) -> None:
        failed = bool(exc and exc[0] is not None)
        if failed:  # stopping the workers of a failed or interrupted run is no news
            _quiet_dask_logs()
        try:
            for thing in reversed(self.own):
                thing.close()
        finally:
            self.launcher.close()
            if failed:  # closing the cluster restores the levels it silenced: silence them again, to the exit
                _quiet_dask_logs()
                _kill_spawned_workers()


def _quiet_dask_logs() -> None:
    """Nothing from Dask's loggers in this process from now on: the command's one line says what happened."""
    import logging

    for name in ("distributed", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


def _close_half_started_clusters() -> None:
    """Close, quietly, a local cluster whose start was interrupted (Ctrl-C while its workers
    start): Dask's own closing at exit would fail on the workers not yet started, with a traceback."""
    import atexit

    try:
        from distributed.deploy import spec
    except Exception:  # noqa: BLE001 - not installed, or half-imported by a Ctrl-C during its import (an
        return  # AttributeError: module 'dask' has no attribute 'utils'): no cluster was started
    for cluster in list(getattr(spec.SpecCluster, "_instances", ())):
        with contextlib.suppress(Exception):
            cluster.close(timeout=5)
    atexit.unregister(spec.close_clusters)


def _kill_spawned_workers() -> None:
    """Kill (SIGKILL: they print nothing) the worker processes this process spawned that are still
    alive once their cluster is closed after a failure or a Ctrl-C: a worker still starting when this
    process ends cannot find the start-up state its parent shared with it and prints a traceback."""
    try:
        import psutil  # a dependency of Dask's distributed
    except ImportError:  # pragma: no cover
        return
    for child in psutil.Process().children(recursive=True):
        with contextlib.suppress(psutil.Error):
            if "--multiprocessing-fork" in child.cmdline():
                child.kill()


@contextlib.contextmanager
def workers_ignoring_sigint() -> Iterator[None]:
    """Worker processes started inside (spawned by multiprocessing, as Dask's nanny starts them)
    ignore Ctrl-C (SIGINT) from their first instruction.

    A terminal sends Ctrl-C to every process of its group, the workers too: each would print a
    traceback. Spawned through a small launcher (``trap '' INT``, Dask's logs at errors only,
    then ``exec`` Python; an ignored signal stays ignored through ``exec``), the workers leave
    Ctrl-C to this process, which stops them quietly; this process keeps its own Ctrl-C all along.
    multiprocessing's resource tracker starts through the same launcher: it is told not to warn
    of the semaphores a worker killed while it started could not release (it releases them).
    Where no launcher can run (not POSIX, a temporary directory mounted noexec), workers start as
    before.
    """
    import multiprocessing.spawn as spawn
    import shlex
    import subprocess

    previous = spawn.get_executable()
    if os.name != "posix" or previous is None:
        yield
        return
    with tempfile.TemporaryDirectory(prefix="bjexact-workers-") as folder:
        launcher = Path(folder) / "python"
        # the workers' own logs at errors only from their first line (Dask silences them once started)
        quiet_tracker = "ignore::UserWarning:multiprocessing.resource_tracker"
        launcher.write_text(f"#!/bin/sh\ntrap '' INT\nexport DASK_LOGGING__DISTRIBUTED=error\n"
                            f"export PYTHONWARNINGS=\"${{PYTHONWARNINGS:+$PYTHONWARNINGS,}}{quiet_tracker}\"\n"
                            f"exec {shlex.quote(os.fsdecode(previous))} \"$@\"\n")
        launcher.chmod(0o700)
        try:
            subprocess.run([str(launcher), "-c", "pass"], check=True, timeout=60, capture_output=True)
        except (OSError, subprocess.SubprocessError):
            yield
            return
        spawn.set_executable(str(launcher))
        try:
            yield
        finally:
            spawn.set_executable(os.fsdecode(previous))


# --- reports ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Effect:
    """One rule change from the base: its exact house edge and the change it makes to it."""

    rule: str
    value: Any
    rules: Mapping[str, Any]
    house_edge: mpq
    effect: mpq  # house edge with the change minus the base's: positive favours the house

    @property
    def label(self) -> str:
        return f"{self.rule} = {_show(self.value)}"


def effects(grid: RuleGrid, results: Mapping[str, Mapping[str, Any]]) -> tuple[mpq, list[Effect]]:
    """(the base's house edge, one :class:`Effect` per single change), from results by task key."""
    base = canonical_rules(grid.base_point())
    base_edge = -parse_fraction(results[task_key(base)]["ev"])
    rows = []
    for key, value in grid.changes():
        try:
            rules = canonical_rules(grid.base_point() | {key: value})
        except BjexactError:
            continue  # a change the engine refuses from this base has no effect to report
        edge = -parse_fraction(results[task_key(rules)]["ev"])
        rows.append(Effect(key, value, rules, edge, edge - base_edge))
    return base_edge, rows


def result_rows(points: Sequence[Mapping[str, Any]], results: Sequence[Mapping[str, Any]],
                decimals: int = 6) -> list[dict[str, Any]]:
    """One flat row per rule set: the rules, then exact values ("p/q") each followed by a decimal."""
    percent = NumberStyle(decimals=decimals, percent=True)
    plain = NumberStyle(decimals=decimals, percent=False)
    rows = []
    for rules, result in zip(points, results):
        row: dict[str, Any] = {}
        for key in RULE_KEYS:
            value = rules.get(key, getattr(_DEFAULT_RULES, key))  # a later rule at its default is not in the JSON
            row[key] = "" if value is None else _show(value)
        ev = parse_fraction(result["ev"])
        row["ev"] = result["ev"]
        row["ev_percent"] = percent.plain(ev)
        row["house_edge_percent"] = percent.plain(-ev)
        for up in ROW_UPCARDS:
            value = result["by_upcard"].get(up)
            row[f"ev_{up}"] = value or ""
            row[f"ev_{up}_percent"] = "" if value is None else percent.plain(parse_fraction(value))
        variance = result.get("variance")
        row["variance"] = variance or ""
        row["variance_decimal"] = "" if variance is None else plain.plain(parse_fraction(variance))
        row["key"] = task_key(rules)
        rows.append(row)
    return rows
