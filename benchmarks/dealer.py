"""Timings of the exact dealer engine.

Run:  python benchmarks/dealer.py

Measures, in this process:
  * building the dealer graph (finite shoes, and the infinite deck), from scratch;
  * the exact dealer table, all up-cards, for the infinite deck and 1, 2, 6, 8 decks,
    once the graph exists (best of 5);
and, as a whole process, ``bjexact dealer --decks 8`` (best of 5).

Targets: graph building < 0.5 s; 8 decks, all up-cards < 0.05 s once the
graph exists; ``bjexact dealer --decks 8`` < 1 s as a whole process.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time

from bjexact import Rules, dealer_table
from bjexact.dealer import dealer_graph

REPEATS = 5


def best_of(fn, repeats: int = REPEATS) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def build_graph(finite: bool) -> float:
    """Seconds to build (and compile to arrays) the S17/as21 graph, without the cache."""
    start = time.perf_counter()
    graph = dealer_graph.__wrapped__(False, "as21", finite)
    graph.chain  # noqa: B018 -- compiling the chain is part of building
    return time.perf_counter() - start


def whole_process() -> float:
    command = [shutil.which("bjexact") or "", "dealer", "--decks", "8"]
    if not command[0]:
        command = [sys.executable, "-m", "bjexact", "dealer", "--decks", "8"]

    def once():
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)

    return best_of(once)


def main() -> None:
    rows = [
        ("build dealer graph, finite shoes", build_graph(True), 0.5),
        ("build dealer graph, infinite deck", build_graph(False), 0.5),
    ]
    for decks in ("inf", 1, 2, 6, 8):
        rules = Rules(decks=decks)
        dealer_table(rules)  # the graph exists from here on
        shoe = "infinite deck" if decks == "inf" else f"{decks} deck{'s' if decks != 1 else ''}"
        label = f"dealer table, {shoe}, all up-cards"
        rows.append((label, best_of(lambda rules=rules: dealer_table(rules)), 0.05 if decks == 8 else None))
    rows.append(("bjexact dealer --decks 8 (whole process)", whole_process(), 1.0))

    width = max(len(label) for label, _, _ in rows)
    print(f"{'measure'.ljust(width)}  {'seconds':>9}  target")
    print(f"{'-' * width}  {'-' * 9}  ------")
    for label, seconds, target in rows:
        verdict = "" if target is None else f"< {target} {'ok' if seconds < target else 'MISSED'}"
        print(f"{label.ljust(width)}  {seconds:9.4f}  {verdict}")


if __name__ == "__main__":
    main()
