"""The index chart of a count, from an empty store: processor time, memory and the published indices.

Run:  python benchmarks/indices.py [--decks N] [--surrender late] [--depths N] [--span N] [--quick]

Solves ``bjexact count indices --system hi-lo --decks N`` (default 6 decks, S17, DAS, split once,
peek; count read at the decision, exact decks, the crossing rounded; 75 % penetration, 4 depths,
true counts -10 .. +10, a shoe mixture every two true counts; two-card hands and the hands of
three or more cards of hard 12 to 17) in this process (no Dask: the processor time is the run's own), with an
empty results store. Reported: the integer shoes solved, the processor time of the solves and
of the whole run, the peak resident memory, and for Hi-Lo the Illustrious 18 (and, with
``--surrender late``, the Fab 4) that equal the published numbers. ``--quick``: one depth (half
the shoe left), span 3 -- a smoke run. Target: the 6-deck chart in at most 10 minutes of
processor time on a 2-core machine.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

from bjexact.apps.sweep import ResultStore, run_tasks
from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules
from bjexact.counting.indices import INDEX_KIND, depth_nodes, hands_task, index_chart, plan_indices
from bjexact.counting.systems import load_system


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decks", type=int, default=6)
    parser.add_argument("--surrender", default="none")
    parser.add_argument("--depths", type=int, default=4)
    parser.add_argument("--span", type=int, default=10)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    start = time.process_time()
    rules = GameRules(decks=args.decks, split_hands=2, surrender=args.surrender)
    cards = 52 * args.decks
    if args.quick:
        depths, span = (cards // 2,), 3
        insurance = depths
    else:
        depths, span = depth_nodes(cards, mpq(3, 4), args.depths), args.span
        insurance = depth_nodes(cards, mpq(3, 4), 64)
    plan = plan_indices(load_system("hi-lo"), rules, depths, span, insurance_depths=insurance)
    print(f"{rules.describe()}: Hi-Lo, cards seen {depths}, true counts -{span} .. +{span}: "
          f"{len(plan.shoes())} integer shoes")
    with tempfile.TemporaryDirectory() as folder:
        solving = time.process_time()
        results = run_tasks(plan.tasks(), store=ResultStore(Path(folder), kind=INDEX_KIND), kind=INDEX_KIND,
                            function=hands_task, executor="serial", progress=False)
        solved = time.process_time() - solving
    chart = index_chart(plan, results)
    total = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"solves: {solved:.0f} s of processor time ({solved / len(results):.2f} s a shoe); whole run "
          f"{total:.0f} s ({total / 60:.1f} min); peak memory {peak:.0f} MB")
    published = chart.published()
    equal = [name for name, pub, _, change in published if change is not None and change.index == pub[0]]
    print(f"published Hi-Lo indices equal: {len(equal)} of {len(published)}")
    for name, pub, _, change in published:
        if change is None or change.index != pub[0]:
            found = "none" if change is None else f"{change.index:+d} (crossing {float(change.crossing):+.2f})"
            print(f"  {name}: published {pub[0]:+d}, exact {found}")


if __name__ == "__main__":
    main()
