"""Timings of the full game's exact house edge (``bjexact edge``), as whole processes.

Run:  python benchmarks/fullgame.py [--quick]

Each case runs ``python -m bjexact edge ... --format json`` once (exact values, the
distribution of the net result where it is computed) and reports the wall time of
the whole process, start-up included, its CPU time, the house edge it printed and
whether the distribution was computed. On finite shoes where pairs are split the
distribution follows every line of the split hands, which ``edge`` does on request
(``--distribution``): the cases marked so time it (exact for one to six decks when pairs
are split once; with resplits given up beyond ``bjexact.player.game.SPLIT_WORK_LIMIT``
combinations).

Targets, for the rule set a combinatorial analyzer published (S17, double any two,
DAS, split once, peek, 3:2): infinite deck <= 1 s; 1 deck <= 10 s; 6 decks <= 20 s,
goal 2 s. The default rules
(resplitting to 4 hands) are timed too, without targets: each possible number of hands
adds an exact re-valuation of the split hands. So are the CDP post-split strategy's
(``--split-strategy cdp``): with resplits its split hands are valued once per strategy
(the number of hands on the table when a hand is played).
``--quick`` skips the cases without a target.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import time
from fractions import Fraction

CASES = [
    ("infinite deck, split once", ["--decks", "inf", "--split-hands", "2"], 1.0),
    ("1 deck, split once", ["--decks", "1", "--split-hands", "2"], 10.0),
    ("6 decks, split once", ["--decks", "6", "--split-hands", "2"], 20.0),
    ("infinite deck, default rules (split to 4 hands)", ["--decks", "inf"], None),
    ("1 deck, default rules", ["--decks", "1"], None),
    ("6 decks, default rules", ["--decks", "6"], None),
    ("1 deck, split once, with --distribution", ["--decks", "1", "--split-hands", "2", "--distribution"], None),
    ("6 decks, split once, with --distribution", ["--decks", "6", "--split-hands", "2", "--distribution"], None),
    ("6 decks, split once, CDP", ["--decks", "6", "--split-hands", "2", "--split-strategy", "cdp"], None),
    ("1 deck, default rules, CDP", ["--decks", "1", "--split-strategy", "cdp"], None),
    ("6 decks, default rules, CDP", ["--decks", "6", "--split-strategy", "cdp"], None),
]


def run(options: list[str]) -> tuple[float, float, Fraction, bool]:
    """(wall seconds, CPU seconds, house edge, whether the distribution was computed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "bjexact", "edge", *options, "--format", "json", "--quiet"],
                          capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    document = json.loads(done.stdout)
    return elapsed, cpu, -Fraction(document["ev"]), document["distribution"] is not None


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    for label, options, target in CASES:
        if quick and target is None:
            continue
        elapsed, cpu, edge, distribution = run(options)
        goal = f"(target {target:g} s)" if target else ""
        print(f"{label:48s} {elapsed:7.2f} s (CPU {cpu:6.2f} s) {goal:16s} house edge {float(edge) * 100:.9f}%"
              f"  distribution: {'exact' if distribution else 'not computed'}", flush=True)


if __name__ == "__main__":
    main()
