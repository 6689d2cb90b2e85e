"""Timing of the side bets: every built-in bet for 1, 2, 4, 6 and 8 decks, S17 and H17.

Run:  python benchmarks/sidebets.py

Measures, as one fresh process (nothing cached: the dealer graph is built, every first-card
configuration classified, every dealer hand drawn): the exact analysis of each of the 12 built-in
bets for 1, 2, 4, 6 and 8 decks, the dealer standing and hitting soft 17 (120 analyses; the
first-card bets are the same under both rules, and are valued again). Prints each bet's time in
that process, then the process's wall time, processor time and peak memory; and, as a whole
command, ``bjexact sidebet buster-natural --decks 1,2,4,6,8 --h17``.

Target: all 120 analyses in under 10 s of processor time in all.
"""

from __future__ import annotations

import sys
import time

from measured import run_measured

TARGET_SECONDS = 10.0
DECKS = (1, 2, 4, 6, 8)


def child() -> None:
    """Every built-in bet, every number of decks, both soft-17 rules: one line per bet with its seconds."""
    from bjexact.sidebets import BUILT_IN, analyse

    for name, bet in BUILT_IN.items():
        start = time.perf_counter()
        for h17 in (False, True):
            for decks in DECKS:
                analyse(bet, decks, h17=h17)
        print(f"{name}\t{time.perf_counter() - start:.3f}")


def main() -> int:
    if "--child" in sys.argv[1:]:
        child()
        return 0
    run = run_measured([sys.executable, __file__, "--child"])
    if run.done.returncode:
        print(run.done.stderr)
        return 1
    print(f"{'bet (10 analyses: 1, 2, 4, 6, 8 decks x S17, H17)':52}  seconds")
    print(f"{'-' * 52}  -------")
    for line in run.done.stdout.splitlines():
        name, seconds = line.split("\t")
        print(f"{name:52}  {float(seconds):7.3f}")
    verdict = "ok" if run.cpu < TARGET_SECONDS else "MISSED"
    print(f"\nall 120 analyses, one fresh process: wall {run.wall:.2f} s, processor {run.cpu:.2f} s, "
          f"peak {run.peak_mb:.0f} MB (target < {TARGET_SECONDS:.0f} s: {verdict})")
    command = [sys.executable, "-m", "bjexact", "sidebet", "buster-natural", "--decks", "1,2,4,6,8", "--h17"]
    whole = run_measured(command)
    print(f"bjexact sidebet buster-natural --decks 1,2,4,6,8 --h17 (whole process): wall {whole.wall:.2f} s, "
          f"processor {whole.cpu:.2f} s, peak {whole.peak_mb:.0f} MB")
    return 0 if run.cpu < TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
