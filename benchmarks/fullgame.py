"""Timings of the full game's exact values (``bjexact edge``, ``bjexact chart``), as whole processes.

Run:  python benchmarks/fullgame.py [--quick]

Each case runs ``python -m bjexact ...`` once and reports the wall time of the whole
process, start-up included, its CPU time (user + system: on a shared machine the wall time
also counts the waits for a core), its peak memory (maximum resident set) and, for ``edge``,
the house edge it printed and whether the distribution of the net result was computed. On
finite shoes where pairs are split the distribution follows every line of the split hands,
which ``edge`` does on request (``--distribution``); the cases marked so time it.

Targets, whole process on a 2-core machine: 6 decks split once <= 1.0 s, 1 deck
split once <= 0.6 s, infinite deck <= 0.3 s (S17, double any two, DAS, peek, 3:2); 6 decks
split to 4 hands <= 3 s; CDP with the default rules (2 decks, split to 4 hands) <= 5 s;
``chart`` with the default rules <= 3 s; memory <= 500 MB; every value exact. The other cases
are timed without targets; ``--quick`` skips them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from fractions import Fraction

MEMORY_TARGET_MB = 500

CASES = [
    ("6 decks, split once", ["edge", "--decks", "6", "--split-hands", "2"], 1.0),
    ("1 deck, split once", ["edge", "--decks", "1", "--split-hands", "2"], 0.6),
    ("infinite deck, split once", ["edge", "--decks", "inf", "--split-hands", "2"], 0.3),
    ("6 decks, split to 4 hands", ["edge", "--decks", "6"], 3.0),
    ("default rules (2 decks, 4 hands), CDP", ["edge", "--split-strategy", "cdp"], 5.0),
    ("chart, default rules", ["chart"], 3.0),
    ("infinite deck, default rules", ["edge", "--decks", "inf"], None),
    ("1 deck, default rules", ["edge", "--decks", "1"], None),
    ("default rules (2 decks, 4 hands)", ["edge"], None),
    ("6 decks, split once, CDP", ["edge", "--decks", "6", "--split-hands", "2", "--split-strategy", "cdp"], None),
    ("6 decks, default rules, CDP", ["edge", "--decks", "6", "--split-strategy", "cdp"], None),
    ("1 deck, split once, with --distribution", ["edge", "--decks", "1", "--split-hands", "2", "--distribution"], None),
    ("6 decks, split once, with --distribution", ["edge", "--decks", "6", "--split-hands", "2", "--distribution"],
     None),
]


def run(options: list[str]) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak memory in MB, what it printed: for ``edge`` the house
    edge and whether the distribution was computed)."""
    command = [sys.executable, "-m", "bjexact", *options, "--quiet"]
    if options[0] == "edge":
        command += ["--format", "json"]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert process.stdout is not None
    out = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    if status:
        raise SystemExit(f"{' '.join(command)} failed")
    return elapsed, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, _printed(options, out)


def _printed(options: list[str], out: str) -> str:
    if options[0] != "edge":
        return ""
    document = json.loads(out)
    edge = -Fraction(document["ev"])
    distribution = "exact" if document["distribution"] is not None else "not computed"
    return f"house edge {float(edge) * 100:.9f}%  distribution: {distribution}"


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    print(f"{'case':40s} {'wall':>8s} {'CPU':>8s} {'target':>8s} {'memory':>9s}")
    for label, options, target in CASES:
        if quick and target is None:
            continue
        elapsed, cpu, memory, printed = run(options)
        goal = f"{target:g} s" if target else ""
        flag = "" if memory <= MEMORY_TARGET_MB else " (over 500 MB)"
        print(f"{label:40s} {elapsed:6.2f} s {cpu:6.2f} s {goal:>8s} {memory:6.0f} MB{flag}  {printed}", flush=True)


if __name__ == "__main__":
    main()
