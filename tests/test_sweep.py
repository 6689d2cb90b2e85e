"""Rule sweeps: grids, the results store, Dask runs equal to serial runs, rule effects."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time

import pytest
from clirun import run

from bjexact.apps.sweep import (
    ResultStore,
    RunStats,
    canonical_rules,
    effects,
    grid_from_mapping,
    result_rows,
    run_tasks,
    solve_task,
    task_key,
)
from bjexact.core.numbers import mpq, parse_fraction
from bjexact.core.rules import GameRules
from bjexact.errors import BjexactError
from bjexact.player.game import solve_game

distributed = pytest.importorskip("distributed")

TINY = [1, 0, 0, 0, 0, 2, 3, 3, 3, 7]
TINY_GRID = {
    "base": {"shoe": TINY, "split_hands": 2},
    "grid": {"h17": [False, True], "bj_pays": ["3/2", "6/5"], "das": [True, False]},
}
INF_GRID = {
    "base": {"decks": "inf", "split_hands": 2},
    "grid": {"h17": [False, True], "bj_pays": ["3/2", "6/5"], "surrender": ["none", "late"]},
}


def _exact(results):
    """Results with every value as mpq: equality means equality of the fractions."""
    def conv(v):
        if isinstance(v, dict):
            return {k: conv(x) for k, x in v.items()}
        return None if v is None else parse_fraction(v)
    return [conv(r) for r in results]


def slow_solve(rules):
    """A task that takes long enough for a worker to be killed while it runs it."""
    time.sleep(0.6)
    return solve_task(rules)


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as dask_client:
        yield dask_client


# --- grids ---------------------------------------------------------------------------------------


def test_grid_points_and_single_changes():
    grid = grid_from_mapping(TINY_GRID)
    points, refused = grid.points()
    assert len(points) == 8 and not refused
    assert len({task_key(p) for p in points}) == 8
    assert grid.changes() == [("h17", True), ("bj_pays", "6/5"), ("das", False)]
    effect_points = grid.effect_points()
    assert effect_points[0] == canonical_rules({"shoe": TINY, "split_hands": 2})
    assert all(p in points for p in effect_points)


def test_grid_skips_what_the_engine_refuses():
    grid = grid_from_mapping({"base": {"decks": "inf"},
                              "grid": {"hole_card": ["peek", "enhc"], "surrender": ["none", "late"]}})
    points, refused = grid.points()
    assert len(points) == 3 and len(refused) == 1
    assert "late surrender" in refused[0][1]
    from_late = grid_from_mapping({"base": {"decks": "inf", "surrender": "late"},
                                   "grid": {"hole_card": ["peek", "enhc"]}})
    with pytest.raises(BjexactError, match="the change hole_card = enhc from the base rules is refused"):
        from_late.effect_points()
    assert from_late.effect_points(strict=False) == [canonical_rules({"decks": "inf", "surrender": "late"})]


@pytest.mark.parametrize("document, message", [
    ({"base": {"decks": 6}, "grid": {"hit17": [False, True]}}, "unknown rule 'hit17'"),
    ({"base": {"decks": 6}, "grid": {"h17": []}}, "non-empty list"),
    ({"base": {"decks": 6, "h17": True}, "grid": {"h17": [False]}}, "both in [base] and in [grid]"),
    ({"base": {"decks": 6}, "grid": {"bj_pays": [1.5]}}, "bj_pays must be a fraction"),
    ({"base": {"decks": 6}, "rules": {}}, "unknown table"),
    ({"base": {"decks": 6, "obo": True}}, "--obo"),
])
def test_bad_grids_are_refused(document, message):
    with pytest.raises(BjexactError, match=message.replace("[", r"\[").replace("]", r"\]")):
        grid_from_mapping(document)


# --- exactness on Dask ---------------------------------------------------------------------------


def test_dask_run_equals_serial_run_exactly(client):
    points, _ = grid_from_mapping(TINY_GRID).points()
    serial = run_tasks(points, executor="serial")
    stats = RunStats()
    parallel = run_tasks(points, client=client, stats=stats)
    assert stats.computed == 8 and stats.workers == 2
    assert parallel == serial
    assert _exact(parallel) == _exact(serial)
    # the task is the engine's answer, unchanged
    solution = solve_game(GameRules(shoe=tuple(TINY), split_hands=2, h17=True, das=False), progress=False)
    index = points.index(canonical_rules({"shoe": TINY, "split_hands": 2, "h17": True, "das": False}))
    assert parse_fraction(parallel[index]["ev"]) == solution.ev


def test_a_worker_killed_mid_sweep_loses_nothing(tmp_path):
    import cloudpickle
    from distributed import Client, LocalCluster

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    # the tiny shoe's eight rule sets: slow_solve's sleep keeps each task running while a worker is killed,
    # and the serial run they are compared with takes a fifth of a second (the infinite deck's, two seconds)
    points, _ = grid_from_mapping(TINY_GRID).points()
    killed = []

    def kill_a_busy_worker(done, dask_client):
        if killed:
            return
        busy = [addr for addr, keys in dask_client.processing().items() if keys]
        pids = dask_client.run(os.getpid)
        os.kill(pids[busy[0]], signal.SIGKILL)
        killed.append(pids[busy[0]])

    store = ResultStore(tmp_path / "store")
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as dask_client:
        results = run_tasks(points, client=dask_client, store=store, function=slow_solve,
                            on_result=kill_a_busy_worker)
        assert killed and killed[0] not in dask_client.run(os.getpid).values()
    assert len(store) == len(points) == 8
    assert _exact(results) == _exact(run_tasks(points, executor="serial"))


@pytest.mark.skipif(os.name != "posix", reason="the workers' launcher is a POSIX shell script")
def test_the_resource_tracker_of_the_workers_does_not_warn_of_what_a_killed_worker_left():
    """A worker killed as Ctrl-C stops a starting cluster may leave a semaphore registered: the
    resource tracker (started through the workers' launcher) releases it without a warning, which
    would follow the command's one line on standard error."""
    script = ("import time\nfrom multiprocessing import resource_tracker\n"
              "from bjexact.apps.sweep import workers_ignoring_sigint\n"
              "with workers_ignoring_sigint():\n"
              "    resource_tracker.ensure_running()\n"
              "    resource_tracker.register('/bjexact-test-left-behind', 'semaphore')\n"
              "    time.sleep(1)  # the tracker reads its launcher before the launcher's folder goes\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr


# --- the store -----------------------------------------------------------------------------------


def test_a_resumed_sweep_skips_stored_results(tmp_path):
    points, _ = grid_from_mapping(TINY_GRID).points()
    store = ResultStore(tmp_path)
    first = run_tasks(points[:3], executor="serial", store=store)
    assert len(store) == 3
    calls = []

    def counting_solve(rules):
        calls.append(task_key(rules))
        return solve_task(rules)

    stats = RunStats()
    resumed = run_tasks(points, executor="serial", store=store, function=counting_solve, stats=stats)
    assert (stats.stored, stats.computed) == (3, 5)
    assert set(calls) == {task_key(p) for p in points[3:]}
    assert resumed[:3] == first
    again = RunStats()
    assert run_tasks(points, store=store, function=counting_solve, stats=again) == resumed  # no cluster needed
    assert (again.stored, again.computed, len(calls)) == (8, 0, 5)


def test_a_damaged_stored_result_is_computed_again(tmp_path):
    rules = canonical_rules({"shoe": TINY, "split_hands": 2})
    store = ResultStore(tmp_path)
    run_tasks([rules], executor="serial", store=store)
    path = next(tmp_path.glob("??/*.json"))
    document = json.loads(path.read_text())
    document["rules"]["h17"] = True  # a file that does not hold the task it is named for
    path.write_text(json.dumps(document))
    assert store.get(rules) is None
    path.write_text("{not json")
    stats = RunStats()
    assert run_tasks([rules], executor="serial", store=store, stats=stats) == [solve_task(rules)]
    assert stats.computed == 1 and store.get(rules) == solve_task(rules)


@pytest.mark.parametrize("altered", [{"ev": "banana"}, ["a", "list"], "text", None])
def test_an_altered_stored_result_counts_as_missing_and_is_solved_again(tmp_path, altered):
    rules = canonical_rules({"shoe": TINY, "split_hands": 2})
    store = ResultStore(tmp_path)
    run_tasks([rules], executor="serial", store=store)
    path = next(tmp_path.glob("??/*.json"))
    document = json.loads(path.read_text())
    document["result"] = altered  # the task it is named for, with another result
    path.write_text(json.dumps(document))
    assert store.get(rules) is None
    stats = RunStats()
    assert run_tasks([rules], executor="serial", store=store, stats=stats) == [solve_task(rules)]
    assert stats.computed == 1 and store.get(rules) == solve_task(rules)


# --- rule effects --------------------------------------------------------------------------------


def test_rule_effects_are_differences_of_two_solves_exactly():
    grid = grid_from_mapping(INF_GRID)
    points = grid.effect_points()
    results = run_tasks(points, executor="serial")
    base_edge, rows = effects(grid, {task_key(p): r for p, r in zip(points, results)})
    base = solve_game(GameRules(decks="inf", split_hands=2), progress=False)
    h17 = solve_game(GameRules(decks="inf", split_hands=2, h17=True), progress=False)
    six_five = solve_game(GameRules(decks="inf", split_hands=2, bj_pays=mpq(6, 5)), progress=False)
    assert base_edge == -base.ev
    by_rule = {row.rule: row for row in rows}
    assert by_rule["h17"].effect == base.ev - h17.ev
    assert by_rule["bj_pays"].effect == base.ev - six_five.ev
    # the published magnitudes: H17 costs about 0.2 %, 6:5 about 1.4 % (infinite deck: 0.22 and 1.35)
    assert mpq(18, 10000) < by_rule["h17"].effect < mpq(25, 10000)
    assert mpq(130, 10000) < by_rule["bj_pays"].effect < mpq(145, 10000)
    assert by_rule["surrender"].effect < 0


def test_every_rule_of_the_game_can_be_swept():
    """The later rules too: a Charlie (false: none, as TOML has no null), doubling after hitting, the
    post-split strategy; each effect the difference of two exact solves, and each row shows its rules."""
    grid = grid_from_mapping({"base": {"shoe": TINY, "split_hands": 2},
                              "grid": {"charlie": [False, 5], "double_after_hit": [False, True],
                                       "split_strategy": ["cdz", "cdp1"]}})
    points = grid.effect_points()
    results = run_tasks(points, executor="serial")
    _, rows = effects(grid, {task_key(p): r for p, r in zip(points, results)})
    base = GameRules(shoe=tuple(TINY), split_hands=2)
    for row in rows:
        changed = solve_game(GameRules.from_json(base.to_json() | {row.rule: row.value}), progress=False)
        assert row.effect == solve_game(base, progress=False).ev - changed.ev
    assert {(row.rule, row.value) for row in rows} == {("charlie", 5), ("double_after_hit", True),
                                                        ("split_strategy", "cdp1")}
    table = result_rows(points, results)
    assert [(r["charlie"], r["double_after_hit"], r["split_strategy"]) for r in table] == [
        ("", "false", "cdz"), ("5", "false", "cdz"), ("", "true", "cdz"), ("", "false", "cdp1")]


# --- the command ---------------------------------------------------------------------------------


def _write_grid(path, document):
    lines = []
    for table, values in document.items():
        lines.append(f"[{table}]")
        for key, value in values.items():
            lines.append(f"{key} = {json.dumps(value)}")
    path.write_text("\n".join(lines) + "\n")


def test_sweep_command_serial_rows_and_effects(tmp_path, capsys):
    grid = tmp_path / "tiny.toml"
    _write_grid(grid, TINY_GRID)
    status, out, err = run(capsys, "sweep", str(grid), "--serial", "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    assert document["rule_sets"] == 8 and document["computed"] == 8 and document["stored"] == 0
    with open(tmp_path / "tiny.csv") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == 8
    for row in rows:
        rules = canonical_rules({"shoe": TINY, "split_hands": 2, "h17": row["h17"] == "true",
                                 "bj_pays": row["bj_pays"], "das": row["das"] == "true"})
        assert row["ev"] == solve_task(rules)["ev"] and row["key"] == task_key(rules)
    base = parse_fraction(document["base_house_edge"])
    for effect in document["effects"]:
        assert parse_fraction(effect["house_edge"]) - base == parse_fraction(effect["effect"])
    status, out, err = run(capsys, "sweep", str(grid), "--serial", "--effects-only")
    assert status == 0 and "4 rule sets: 0 solved on 0 worker(s), 4 from the store" in out
    assert "bj_pays = 6/5" in out and "h17 = true" in out


def test_sweep_command_on_a_local_cluster(tmp_path, capsys):
    grid = tmp_path / "inf.toml"
    _write_grid(grid, {"base": {"decks": "inf", "split_hands": 2}, "grid": {"h17": [False, True]}})
    status, out, err = run(capsys, "sweep", str(grid), "--workers", "2", "--rows", str(tmp_path / "r.csv"))
    assert status == 0, err
    assert "2 rule sets: 2 solved on 2 worker(s)" in out
    assert (tmp_path / "r.csv").read_text().count("\n") == 3


@pytest.mark.parametrize("args, message", [
    (["missing.toml"], "missing.toml: no such file"),
    (["{grid}", "--serial", "--workers", "2"], "--serial runs without Dask"),
    (["{bad}"], "not valid TOML"),
    (["{grid}", "--serial", "--rows", "/no/such/dir/rows.csv"], "the directory /no/such/dir does not exist"),
    (["{grid}", "--workers", "{too_many}"], "a local cluster here has at most"),  # as count and count indices
    (["{grid}", "--workers", "1000000"], "--workers 1,000,000: a local cluster here has at most"),
])
def test_sweep_command_errors_are_one_line(tmp_path, capsys, args, message):
    (tmp_path / "g.toml").write_text("[base]\ndecks = 1\n")
    (tmp_path / "bad.toml").write_text("[base\n")
    from bjexact.cli.common import max_local_workers

    args = [a.format(grid=tmp_path / "g.toml", bad=tmp_path / "bad.toml", too_many=max_local_workers() + 1)
            for a in args]
    status, out, err = run(capsys, "sweep", *args)
    assert status == 2 and message in err and err.count("\n") == 1


def test_progress_bar_shows_tasks_done_and_time_left(capsys):
    points, _ = grid_from_mapping(TINY_GRID).points()
    run_tasks(points[:3], executor="serial", progress=True)
    err = capsys.readouterr().err
    assert "solving rule sets [" in err and "3/3" in err and "s left" in err


def test_rows_as_parquet(tmp_path, capsys):
    pq = pytest.importorskip("pyarrow.parquet")
    grid = tmp_path / "tiny.toml"
    _write_grid(grid, {"base": {"shoe": TINY, "split_hands": 2}, "grid": {"h17": [False, True]}})
    status, out, err = run(capsys, "sweep", str(grid), "--serial", "--rows", str(tmp_path / "rows.parquet"))
    assert status == 0, err
    table = pq.read_table(tmp_path / "rows.parquet").to_pylist()
    expected = [solve_task(canonical_rules({"shoe": TINY, "split_hands": 2, "h17": h}))["ev"] for h in (False, True)]
    assert [row["ev"] for row in table] == expected


def test_sweep_command_on_an_existing_cluster(tmp_path, capsys, client):
    grid = tmp_path / "tiny.toml"
    _write_grid(grid, TINY_GRID)
    address = client.scheduler.address
    status, out, err = run(capsys, "sweep", str(grid), "--effects-only", "--scheduler", address, "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    assert (document["rule_sets"], document["computed"]) == (4, 4)
    assert len(client.scheduler_info(n_workers=-1)["workers"]) == 2  # the cluster is still up: not ours to close


@pytest.mark.parametrize("document, words", [
    ({"base": 5}, "base must be a table"),
    ({"grid": ["decks", 1]}, "grid must be a table"),
    ({"base": {"decks": 1}, "grid": "h17"}, "grid must be a table"),
])
def test_a_grid_whose_base_or_grid_is_not_a_table_is_refused_in_one_line(document, words):
    with pytest.raises(BjexactError) as error:
        grid_from_mapping(document)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_a_grid_is_counted_before_it_is_expanded_and_shoes_beyond_the_engine_skipped_up_front():
    from bjexact.apps.sweep import MAX_RULE_SETS

    axes = {"decks": list(range(1, 101)), "bj_pays": [f"{p}/2" for p in range(1, 101)],
            "surrender": ["none", "late"]}
    with pytest.raises(BjexactError, match=f"more than the bound of {MAX_RULE_SETS:,}"):
        grid_from_mapping({"base": {"h17": False}, "grid": axes}).points()
    valid, refused = grid_from_mapping({"base": {"split_hands": 2}, "grid": {"decks": [1, 6000]}}).points()
    assert [v["decks"] for v in valid] == [1]
    assert len(refused) == 1 and "the engine solves at most 262,143" in refused[0][1]
    grid = grid_from_mapping({"base": {"split_hands": 2}, "grid": {"decks": [1, 6000]}})
    assert [p["decks"] for p in grid.effect_points(strict=False)] == [1]
    with pytest.raises(BjexactError, match="the change decks = 6000 from the base rules is refused"):
        grid.effect_points()
