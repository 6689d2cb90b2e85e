"""Timings of the full game's exact house edge (``bjexact edge``), as whole processes.

Run:  python benchmarks/fullgame.py [--quick]

Each case runs ``python -m bjexact edge ... --format json`` once (exact values, the
distribution of the net result where it is computed) and reports the wall time of
the whole process, start-up included, and the house edge it printed.

Targets: infinite deck <= 1 s; 1 deck <= 10 s; 6 decks, the published rule set
(S17, double any two, DAS, split once, peek, 3:2) <= 20 s, goal 2 s.
``--quick`` skips the 6-deck default rules (split to 4 hands).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from fractions import Fraction

CASES = [
    ("infinite deck, default rules", ["--decks", "inf"], 1.0),
    ("1 deck, default rules", ["--decks", "1"], 10.0),
    ("6 decks, split once (published rule set)", ["--decks", "6", "--split-hands", "2"], 20.0),
    ("6 decks, default rules (split to 4 hands)", ["--decks", "6"], None),
]


def run(options: list[str]) -> tuple[float, Fraction]:
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bjexact", "edge", *options, "--format", "json", "--quiet"],
                          capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - start
    return elapsed, -Fraction(json.loads(done.stdout)["ev"])


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    for label, options, target in CASES:
        if quick and target is None:
            continue
        elapsed, edge = run(options)
        goal = f"(target {target:g} s)" if target else ""
        print(f"{label:45s} {elapsed:7.2f} s {goal:16s} house edge {float(edge) * 100:.9f}%")


if __name__ == "__main__":
    main()
