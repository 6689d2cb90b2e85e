"""Perfect post-split play: one pair against one up-card, `bjexact hand P P --split-strategy optimal`, timed.

Run:  python benchmarks/optimal_split.py [--decks 1] [--pair 8] [--upcard T] [--split-hands 2]

The command is run as a process (start-up included); its processor time (user + sys, the fair
measure on a busy machine) and peak memory (the largest resident set) are printed beside the targets
of one pair and up-card split once: one deck at most 3 s and 1 GB, two decks at most 20 s and 2 GB.
The command also values CDZ-, CDP1 and CDP (a few tenths of a second on one deck). Measured on a
2-core machine, split once, positions valued in batches (bjexact.player.split_batch):

    one deck,  8,8 v T   1.1 s    76 MB     (28.7 s and 316 MB valued one by one, recursively)
    one deck,  2,2 v 6   2.6 s   190 MB     (the most positions; about 150 s and 1 GB recursively)
    two decks, 8,8 v T   1.4 s    98 MB
    two decks, 2,2 v 6   7.2 s   389 MB

Every pair and up-card of one deck split once: 95 s in one process (the slowest pair, 2,2 v 3, 3.0 s).
"""

from __future__ import annotations

import argparse
import json
import sys

from measured import run_measured

TARGETS = {"1": (3.0, 1024), "2": (20.0, 2048)}  # decks -> (processor seconds, peak MB), split once


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", default="1")
    parser.add_argument("--pair", default="8")
    parser.add_argument("--upcard", default="T")
    parser.add_argument("--split-hands", default="2")
    args = parser.parse_args()
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
    seconds, megabytes = target or (None, None)
    print(f"  processor time {cpu:7.1f} s" + (f"   target {seconds:g} s   {'ok' if cpu <= seconds else 'over'}"
                                              if seconds else "") + f"   (wall {wall:.1f} s)")
    print(f"  peak memory    {peak:7.0f} MB" + (f"  target {megabytes} MB  {'ok' if peak <= megabytes else 'over'}"
                                                if megabytes else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
