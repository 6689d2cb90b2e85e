"""Perfect post-split play: one pair against one up-card, `bjexact hand P P --split-strategy optimal`, timed.

Run:  python benchmarks/optimal_split.py [--decks 1] [--pair 8] [--upcard T] [--split-hands 2]
      python benchmarks/optimal_split.py --edge [--decks 1]    # the round: bjexact edge, every pair

The command is run as a process (start-up included); its processor time (user + sys, the fair
measure on a busy machine) and peak memory (the largest resident set) are printed beside the targets
of one pair and up-card split once: one deck at most 3 s and 1 GB, two decks at most 20 s and 2 GB.
The command also values CDZ-, CDP1 and CDP (a few tenths of a second on one deck). Measured on a
2-core machine, split once, positions valued in batches (bjexact.player.split_batch):

    one deck,  8,8 v T   0.7 s    67 MB     (17.2 s and 248 MB valued one by one, recursively: 28.7 s
                                             and 316 MB before its first pass stopped doing arithmetic)
    one deck,  2,2 v 6   2.0 s   107 MB     (the most positions; about 150 s and 1 GB recursively)
    two decks, 8,8 v T   1.1 s    87 MB
    two decks, 2,2 v 6   4.6 s   251 MB

Every pair and up-card of one deck split once: 63 s in one process (the slowest pair, 2,2 v A, 2.0 s).
The round (``--edge``: `bjexact edge --split-hands 2 --split-strategy optimal`, every pair's split),
target 5 minutes for one deck: one deck 65 s and 155 MB, house edge -0.15497 % (CDZ- -0.15312 %);
two decks two and a half minutes and 304 MB, 0.22259 % (CDZ- 0.22317 %); measured while other work
shared the machine.
"""

from __future__ import annotations

import argparse
import json
import sys

from measured import run_measured

TARGETS = {"1": (3.0, 1024), "2": (20.0, 2048)}  # decks -> (processor seconds, peak MB), split once
EDGE_TARGETS = {"1": (300.0, None)}  # the round, split once: decks -> (processor seconds, peak MB)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", default="1")
    parser.add_argument("--pair", default="8")
    parser.add_argument("--upcard", default="T")
    parser.add_argument("--split-hands", default="2")
    parser.add_argument("--edge", action="store_true", help="the round's house edge (every pair) instead of one pair")
    args = parser.parse_args()
    if args.edge:
        return _edge(args.decks, args.split_hands)
    command = [sys.executable, "-m", "bjexact", "hand", args.pair, args.pair, "--upcard", args.upcard,
               "--decks", args.decks, "--split-hands", args.split_hands, "--split-strategy", "optimal",
               "--format", "json"]
    measured = run_measured(command)
    done, wall, cpu, peak = measured.done, measured.wall, measured.cpu, measured.peak_mb
    if done.returncode:
        print(done.stderr, file=sys.stderr)
        return done.returncode
    values = json.loads(done.stdout)["split_strategies_float"]
    print(" ".join(command[3:-2]))
    print("  split: " + ", ".join(f"{name} {value * 100:.4f} %" for name, value in values.items()))
    target = TARGETS.get(args.decks) if args.split_hands == "2" else None
    _print_costs(cpu, wall, peak, target)
    return 0


def _edge(decks: str, split_hands: str) -> int:
    """The round's house edge under perfect post-split play beside CDZ-'s, and the cost of the optimum's."""
    edges = {}
    for strategy in ("cdz", "optimal"):
        command = [sys.executable, "-m", "bjexact", "edge", "--decks", decks, "--split-hands", split_hands,
                   "--split-strategy", strategy, "--format", "json", "--quiet"]
        measured = run_measured(command)
        if measured.done.returncode:
            print(measured.done.stderr, file=sys.stderr)
            return measured.done.returncode
        edges[strategy] = json.loads(measured.done.stdout)["house_edge_float"]
    print(" ".join(command[3:-3]))
    print("  house edge: " + ", ".join(f"{name} {value * 100:.5f} %" for name, value in edges.items()))
    _print_costs(measured.cpu, measured.wall, measured.peak_mb, EDGE_TARGETS.get(decks) if split_hands == "2" else None)
    return 0


def _print_costs(cpu: float, wall: float, peak: float, target: tuple[float, int | None] | None) -> None:
    seconds, megabytes = target or (None, None)
    print(f"  processor time {cpu:7.1f} s" + (f"   target {seconds:g} s   {'ok' if cpu <= seconds else 'over'}"
                                              if seconds else "") + f"   (wall {wall:.1f} s)")
    print(f"  peak memory    {peak:7.0f} MB" + (f"  target {megabytes} MB  {'ok' if peak <= megabytes else 'over'}"
                                                if megabytes else ""))


if __name__ == "__main__":
    raise SystemExit(main())
