"""The mutation suite of ``check-sim --game`` at its default settings, timed.

Run:  python benchmarks/mutation.py [--seed 1] [--faults natural-not-pushed,...]

The reference round simulator (infinite deck, S17, DAS, split to 2 hands, late surrender,
peek) is run correct and with each planted fault of ``bjexact.checks.rounds.PLANTED_FAULTS``
(and a natural paid 6:5), at the default rounds and looks of ``check-sim --game``; a fault of
H17 games only (the dealer standing after hitting soft 17) under the same rules with H17.
Targets: every faulty simulator FAILs with its fault first or second among the likely causes,
and the correct one passes at the 1 % level. Each line gives the verdict, the rounds played (a
failing run stops at the first look that fails), the two likeliest causes and the time (CPU).
A fault whose directed test needs more rounds than the defaults plan for (the dealer not drawing
against split 21s: hundreds of millions) is reported as beyond them, with the rounds it needs.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace

from bjexact.checks import sequential
from bjexact.checks.round_causes import directed_tests
from bjexact.checks.rounds import (
    MAX_DEFAULT_ROUNDS,
    PLANTED_FAULTS,
    check_round_simulator,
    exact_round_distribution,
    family_weight,
    fault_candidates,
    round_simulator,
)
from bjexact.checks.stats import normal_quantile
from bjexact.core.rules import GameRules

RULES = GameRules(decks="inf", split_hands=2, surrender="late")
RULES_OF = {"dealer-stands-after-soft-17": replace(RULES, h17=True)}
CAUSE_OF = {"6:5": "natural-paid-6:5"}


def rounds_to_catch(rules: GameRules, fault: str) -> int:
    """The rounds the fault's directed test needs at the defaults' last look (power 0.9), at its weighted
    level (the directed tests of quick faults share one unit of Holm's weight)."""
    exact = exact_round_distribution(rules)
    directed = directed_tests(exact, fault_candidates(rules)[0])
    test = next(t for t in directed if t.name == fault)
    labels = {str(r): p for r, p in exact.items()}
    tests = family_weight(labels, sequential.rounds_for_shift(labels, 0.002, alpha=0.01), directed)
    return test.rounds_to_catch(normal_quantile(1 - sequential.look_levels(0.01)[-1] * test.weight / tests),
                                normal_quantile(sequential.DEFAULT_POWER))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--faults", default=",".join(["correct", *PLANTED_FAULTS, "6:5"]))
    args = parser.parse_args()
    print(f"rules: {RULES.describe()}")
    misses = 0
    started = time.process_time()
    for fault in args.faults.split(","):
        t = time.process_time()
        rules = RULES_OF.get(fault, RULES)
        if fault not in ("correct", "6:5"):
            needed = rounds_to_catch(rules, fault)
            if needed > MAX_DEFAULT_ROUNDS:
                print(f"{fault:>28}: beyond the defaults: its directed test needs {needed:,} rounds "
                      f"(more than {MAX_DEFAULT_ROUNDS:,}); not run", flush=True)
                continue
        if fault == "correct":
            simulator = round_simulator(rules)
        elif fault == "6:5":
            simulator = round_simulator(rules, bj_pays="6/5")
        else:
            simulator = round_simulator(rules, fault=fault)
        check = check_round_simulator(simulator, rules, seed=args.seed)
        named = [c.name for c in check.causes[:2]]
        if fault == "correct":
            ok = check.passed
        else:
            ok = check.verdict == "fail" and CAUSE_OF.get(fault, fault) in named
        misses += not ok
        h17 = " (H17)" if rules.h17 else ""
        print(f"{fault + h17:>28}: {check.verdict:<5} after {check.rounds:>8} of {check.planned} rounds; "
              f"likeliest: {', '.join(named) or '-'}; {time.process_time() - t:6.1f} s CPU  "
              f"{'ok' if ok else 'MISSED'}", flush=True)
    print(f"total {time.process_time() - started:.1f} s CPU; {misses} missed")
    return 1 if misses else 0


if __name__ == "__main__":
    raise SystemExit(main())
