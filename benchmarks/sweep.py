"""Rule sweeps on Dask: the speed-up of 2 workers over 1, memory per worker, the 6-deck rule effects.

Run:  python benchmarks/sweep.py [--quick]

1. Speed-up: eight 1-deck rule sets (split once; H17 x DAS x surrender), each solved
   on a fresh local cluster of 1, then 2 worker processes (one thread each), with an
   empty results store, so nothing is reused. Goal on a 2-core machine: >= 1.8x.
   The results of the two runs must be equal exactly.
2. Memory: the resident memory of each worker process after the run.
3. The rule-effects table for 6 decks (S17, DAS, split once, 3:2, peek) on 2 workers:
   H17, 6:5, no DAS, late surrender, resplitting to 4 hands, one deck instead of six.
   Published figures people use: H17 costs about 0.2 %, 6:5 about 1.4 %.
``--quick`` skips part 3.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time

from bjexact.apps.sweep import ResultStore, RunStats, effects, grid_from_mapping, run_tasks, task_key

SPEED_GRID = {
    "base": {"decks": 1, "split_hands": 2},
    "grid": {"h17": [False, True], "das": [True, False], "surrender": ["none", "late"]},
}
EFFECTS_GRID = {
    "base": {"decks": 6},
    "grid": {"h17": [False, True], "bj_pays": ["3/2", "6/5"], "das": [True, False], "surrender": ["none", "late"],
             "split_hands": [2, 4]},
}


def timed_run(points, workers):
    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as tmp, \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        start = time.perf_counter()
        results = run_tasks(points, client=client, store=ResultStore(tmp), progress=False)
        elapsed = time.perf_counter() - start
        memory = client.run(_rss)
    return elapsed, results, memory


def _rss() -> int:
    import psutil

    return psutil.Process(os.getpid()).memory_info().rss


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    points, _ = grid_from_mapping(SPEED_GRID).points()
    one, results_one, _ = timed_run(points, 1)
    two, results_two, memory = timed_run(points, 2)
    assert results_one == results_two, "1 and 2 workers disagree"
    print(f"{len(points)} rule sets, 1 deck, split once: 1 worker {one:.1f} s, 2 workers {two:.1f} s, "
          f"speed-up {one / two:.2f}x (goal 1.8x)")
    print("memory per worker after the run: " + ", ".join(f"{m / 2**20:.0f} MiB" for m in memory.values()))
    if quick:
        return
    grid = grid_from_mapping(EFFECTS_GRID)
    base = grid.base_point()
    effect_points = grid.effect_points()
    one_deck = base | {"decks": 1}
    stats = RunStats()
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        results = run_tasks(effect_points + [grid_from_mapping({"base": one_deck}).base_point()], workers=2,
                            store=ResultStore(tmp), progress=False, stats=stats)
        elapsed = time.perf_counter() - start
    by_key = {task_key(p): r for p, r in zip(effect_points, results)}
    base_edge, rows = effects(grid, by_key)
    one_deck_edge = -_fraction(results[-1]["ev"])
    print(f"\n6 decks, rule effects ({len(results)} solves on {stats.workers} workers, {elapsed:.1f} s):")
    print(f"  base house edge {float(base_edge) * 100:+.4f}% = {base_edge}")
    for row in rows:
        print(f"  {row.label:18s} {float(row.effect) * 100:+.4f} points  (exact {row.effect})")
    print(f"  {'decks = 1':18s} {float(one_deck_edge - base_edge) * 100:+.4f} points")


def _fraction(text: str):
    from bjexact.core.numbers import parse_fraction

    return parse_fraction(text)


if __name__ == "__main__":
    main()
