"""Index charts on Dask: the exact solves of ``count indices`` on 1 and 2 workers, and what 64 would take.

Run:  python benchmarks/count_indices.py [--decks N] [--span N] [--split-hands N]

The shoes of the true counts -span .. +span (Hi-Lo, half the shoe left) are solved on a
fresh local cluster of 1, then 2 worker processes (one thread each), with an empty
results store each time, so nothing is reused; the results of the two runs must be equal
exactly. Reported: the wall time of each run, the speed-up of 2 workers, the processor
time of a solve in its worker, and an estimate for a full chart (true counts -10 .. +10,
21 solves) on 64 idle workers: the solves are independent, so 21 of them on 64 workers
take the longest single solve (its processor time) plus the cluster's start. On a shared
machine 2 workers gain only what idle cores there are: the load average is printed.
Defaults: 6 decks, S17, DAS, split once, 3:2, peek; span 3 (7 solves).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import tempfile
import time

from bjexact.apps.counting import load_system
from bjexact.apps.indices import INDEX_KIND, count_shoes, index_task, shoe_tasks
from bjexact.apps.sweep import ResultStore, run_tasks
from bjexact.core.rules import GameRules


def cpu_timed(task):
    """The index task, and the processor time it took in its worker."""
    start = time.process_time()
    result = index_task(task)
    return result | {"cpu_seconds": time.process_time() - start}


def timed_run(tasks, workers):
    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as tmp, \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        start = time.perf_counter()
        results = run_tasks(tasks, client=client, store=ResultStore(tmp, kind=INDEX_KIND), kind=INDEX_KIND,
                            function=cpu_timed, progress=False)
        elapsed = time.perf_counter() - start
    cpu = [r["cpu_seconds"] for r in results]
    return elapsed, [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in results], cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=6)
    parser.add_argument("--span", type=int, default=3)
    parser.add_argument("--split-hands", type=int, default=2)
    args = parser.parse_args()
    rules = GameRules(decks=args.decks, split_hands=args.split_hands)
    shoes = count_shoes(load_system("hi-lo"), rules.make_shoe().counts, args.span)
    tasks = shoe_tasks(rules, shoes)
    print(f"{rules.describe()}: Hi-Lo, {len(tasks)} shoes (true counts -{args.span} .. +{args.span})")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} (2 workers need 2 idle cores)")
    one, results_one, cpu_one = timed_run(tasks, 1)
    two, results_two, cpu_two = timed_run(tasks, 2)
    assert json.dumps(results_one) == json.dumps(results_two), "1 and 2 workers disagree"
    mean = sum(cpu_one) / len(cpu_one)
    print(f"1 worker:  {one:.1f} s ({one / len(tasks):.1f} s a solve; processor time {mean:.1f} s a solve, "
          f"longest {max(cpu_one):.1f} s)")
    print(f"2 workers: {two:.1f} s; speed-up {one / two:.2f}x")
    full = 21
    longest = max(cpu_one + cpu_two)
    print(f"full chart (21 solves) on 64 idle workers: about {math.ceil(full / 64) * longest:.0f} s of solving "
          f"(one round of solves: the longest, {longest:.1f} s of processor time) plus the cluster's start; "
          f"on 1 idle worker about {full * mean:.0f} s")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")

if __name__ == "__main__":
    main()
