"""The exact distribution's set-up cost: `bjexact edge --decks 6 --split-hands 2 --distribution`, timed.

Run:  python benchmarks/distribution.py [--decks 6]

The command is run as a process (start-up included), as `check-sim --game` on 6 decks split once
pays it before its first round: every line of the split hands followed and settled exactly. Its
processor time (user + sys, the fair measure on a busy machine) and peak memory (the largest
resident set) are printed beside the targets: a few seconds and at most 300 MB. Measured on a busy
2-core machine: about 4.5 s and 225 MB for 6 decks (7.2 to 9 s and 288 MB before the split lines were
paired once and summed modulo only the primes each size needs), 2.7 s and 125 MB for 1 deck.
"""

from __future__ import annotations

import argparse
import sys

from measured import run_measured

TARGET_SECONDS = 5.0
TARGET_MB = 300


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", default="6")
    args = parser.parse_args()
    command = [sys.executable, "-m", "bjexact", "edge", "--decks", args.decks, "--split-hands", "2",
               "--distribution", "--format", "json"]
    measured = run_measured(command)
    done, wall, cpu, peak = measured.done, measured.wall, measured.cpu, measured.peak_mb
    if done.returncode:
        print(done.stderr, file=sys.stderr)
        return done.returncode
    print(f"bjexact edge --decks {args.decks} --split-hands 2 --distribution")
    print(f"  processor time {cpu:6.1f} s   target {TARGET_SECONDS:g} s   {'ok' if cpu <= TARGET_SECONDS else 'over'}"
          f"   (wall {wall:.1f} s)")
    print(f"  peak memory    {peak:6.0f} MB  target {TARGET_MB} MB  {'ok' if peak <= TARGET_MB else 'over'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
