"""The mutation suite of ``check-sim --game`` at its default settings, timed.

Run:  python benchmarks/mutation.py [--seed 1] [--faults natural-not-pushed,...]

The reference round simulator (infinite deck, S17, DAS, split to 2 hands, late surrender,
peek) is run correct and with each planted fault of ``bjexact.checks.rounds.PLANTED_FAULTS``
(and a natural paid 6:5), at the default rounds and looks of ``check-sim --game``. Targets:
every faulty simulator FAILs with its fault first or second among the likely causes, and the
correct one passes at the 1 % level. Each line gives the verdict, the rounds played (a failing
run stops at the first look that fails), the two likeliest causes and the time.
"""

from __future__ import annotations

import argparse
import time

from bjexact.checks.rounds import PLANTED_FAULTS, check_round_simulator, round_simulator
from bjexact.core.rules import GameRules

RULES = GameRules(decks="inf", split_hands=2, surrender="late")
CAUSE_OF = {"6:5": "natural-paid-6:5"}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--faults", default=",".join(["correct", *PLANTED_FAULTS, "6:5"]))
    args = parser.parse_args()
    print(f"rules: {RULES.describe()}")
    misses = 0
    started = time.perf_counter()
    for fault in args.faults.split(","):
        t = time.perf_counter()
        if fault == "correct":
            simulator = round_simulator(RULES)
        elif fault == "6:5":
            simulator = round_simulator(RULES, bj_pays="6/5")
        else:
            simulator = round_simulator(RULES, fault=fault)
        check = check_round_simulator(simulator, RULES, seed=args.seed)
        named = [c.name for c in check.causes[:2]]
        if fault == "correct":
            ok = check.passed
        else:
            ok = check.verdict == "fail" and CAUSE_OF.get(fault, fault) in named
        misses += not ok
        print(f"{fault:>20}: {check.verdict:<5} after {check.rounds:>8} of {check.planned} rounds; "
              f"likeliest: {', '.join(named) or '-'}; {time.perf_counter() - t:6.1f} s  {'ok' if ok else 'MISSED'}",
              flush=True)
    print(f"total {time.perf_counter() - started:.1f} s; {misses} missed")
    return 1 if misses else 0


if __name__ == "__main__":
    raise SystemExit(main())
