"""Card counting on Dask: exact rounds per second, or the solves of an index chart, on 1 and 2 workers.

Run:  python benchmarks/count.py [--quick] [--decks N] [--split-hands N] [--shoes N]
      python benchmarks/count.py --indices [--decks N] [--span N] [--split-hands N]

The rounds of simulated shoes (seed 1, penetration 0.75, dealt by the full shoe's basic
strategy) are solved on a fresh local cluster of 1, then 2 worker processes (one thread
each), with an empty results store, so nothing is reused. Each round is two exact solves
for the cards unseen (the optimal play and the full shoe's basic strategy chart, sharing
the dealer's distributions; the full shoe's basic strategy chart is solved once, by the
client, and sent with the tasks). Reported: rounds per second and the speed-up of 2 workers;
the results of the two runs must be equal exactly. The processor time the tasks took
in their workers is reported too: on a shared machine, 2 workers gain only what idle
cores there are. Defaults: 1 deck, S17, DAS, split
once, 3:2, peek, 1 shoe; ``--quick``: the first 4 rounds only.

``--indices``: the integer shoes of ``count indices --left 1/2`` for the true counts -span ..
+span (Hi-Lo; default span 3) instead, one exact solve each, timed the same way, with an
estimate for the full default chart (``benchmarks/indices.py`` counts its shoes) on 64 idle
workers: the solves are independent, so N of them on 64 workers take about N / 64 solves'
processor time plus the cluster's start.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from functools import partial

from bjexact.apps.sweep import ResultStore, run_tasks
from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules
from bjexact.counting.indices import INDEX_KIND, depth_nodes, hands_task, plan_indices
from bjexact.counting.simulation import ROUND_KIND, basic_chart, deal_shoe, load_system, round_task, round_tasks


def cpu_timed(function, task):
    """The task's result, and the processor time it took in its worker."""
    start = time.process_time()
    result = function(task)
    return result | {"cpu_seconds": time.process_time() - start}


def timed_run(tasks, workers, function=round_task, kind=ROUND_KIND):
    from distributed import Client, LocalCluster

    with tempfile.TemporaryDirectory() as tmp, \
            LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0") as cluster, \
            Client(cluster) as client:
        start = time.perf_counter()
        results = run_tasks(tasks, client=client, store=ResultStore(tmp, kind=kind), kind=kind,
                            function=partial(cpu_timed, function), progress=False)
        elapsed = time.perf_counter() - start
    distinct = {id(r): r for r in results}.values()  # a composition dealt twice is solved once
    cpu = sum(r["cpu_seconds"] for r in distinct)
    return elapsed, [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in results], cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--decks", type=int, default=1)
    parser.add_argument("--split-hands", type=int, default=2)
    parser.add_argument("--shoes", type=int, default=1)
    parser.add_argument("--indices", action="store_true")
    parser.add_argument("--span", type=int, default=3)
    args = parser.parse_args()
    if args.indices:
        indices(args)
        return
    rules = GameRules(decks=args.decks, split_hands=args.split_hands)
    full = rules.make_shoe().counts
    start = time.perf_counter()
    basic_chart(rules)
    chart_seconds = time.perf_counter() - start
    rounds = [r for i in range(args.shoes) for r in deal_shoe(full, i, 1, mpq(3, 4), rules)]
    if args.quick:
        rounds = rounds[:4]
    tasks = round_tasks(rules, rounds)
    print(f"{rules.describe()}: {len(tasks)} rounds of {args.shoes} shoe(s); "
          f"the full shoe's basic strategy chart in {chart_seconds:.1f} s (once per process)")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} (2 workers need 2 idle cores)")
    one, results_one, cpu_one = timed_run(tasks, 1)
    two, results_two, cpu_two = timed_run(tasks, 2)
    assert json.dumps(results_one) == json.dumps(results_two), "1 and 2 workers disagree"
    print(f"1 worker:  {one:.1f} s, {len(tasks) / one:.3f} rounds/s ({one / len(tasks):.1f} s a round, "
          f"{cpu_one / len(tasks):.1f} s of processor time)")
    print(f"2 workers: {two:.1f} s, {len(tasks) / two:.3f} rounds/s ({cpu_two / len(tasks):.1f} s of processor "
          f"time a round); speed-up {one / two:.2f}x")


def indices(args: argparse.Namespace) -> None:
    rules = GameRules(decks=args.decks, split_hands=args.split_hands)
    cards = sum(rules.make_shoe().counts)
    hi_lo = load_system("hi-lo")
    tasks = plan_indices(hi_lo, rules, [cards // 2], args.span).tasks()
    chart = len(plan_indices(hi_lo, rules, depth_nodes(cards, mpq(3, 4), 4), 10).shoes())
    print(f"{rules.describe()}: Hi-Lo, {len(tasks)} shoes (half the shoe left, true counts up to {args.span})")
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())} (2 workers need 2 idle cores)")
    one, results_one, cpu_one = timed_run(tasks, 1, hands_task, INDEX_KIND)
    two, results_two, cpu_two = timed_run(tasks, 2, hands_task, INDEX_KIND)
    assert json.dumps(results_one) == json.dumps(results_two), "1 and 2 workers disagree"
    mean = cpu_one / len(tasks)
    print(f"1 worker:  {one:.1f} s ({one / len(tasks):.1f} s a solve; processor time {mean:.1f} s a solve)")
    print(f"2 workers: {two:.1f} s; speed-up {one / two:.2f}x")
    print(f"the default chart ({chart} solves) on 64 idle workers: about {chart * mean / 64:.0f} s of solving plus "
          f"the cluster's start; on 1 idle worker about {chart * mean:.0f} s")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
