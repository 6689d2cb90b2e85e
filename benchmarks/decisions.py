"""Timings of the per-hand decision API that simulator authors call in their loops.

Run:  python benchmarks/decisions.py [--decks 1] [--seed 1]

``ShoeDecisions.solve`` values every hit/stand decision of a shoe once (every hand of two or more
cards against every up-card); ``decide`` then answers a hand by a look-up (target: microseconds).
For a depleted composition the same solve is timed on a shoe less a random third of its cards,
and compared with ``hand_decision``, which values one hand from scratch.
"""

from __future__ import annotations

import argparse
import time

from bjexact.checks.strategy import depleted_shoes
from bjexact.core.rules import Rules
from bjexact.player import solver
from bjexact.player.decisions import ShoeDecisions
from bjexact.player.solver import hand_decision

HANDS = [((10, 6), 10), ((7, 7), 10), ((1, 6), 9), ((2, 3, 4, 5), 6), ((10, 2), 4), ((9, 3), 2)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = Rules(decks=args.decks)
    started = time.perf_counter()
    table = ShoeDecisions.solve(rules)
    solve = time.perf_counter() - started
    print(f"{args.decks} deck(s): ShoeDecisions.solve {solve:.2f} s for {len(table.positions)} decisions")
    calls = 200_000
    started = time.perf_counter()
    for i in range(calls):
        cards, upcard = HANDS[i % len(HANDS)]
        table.decide(cards, upcard)
    per = (time.perf_counter() - started) / calls
    print(f"decide: {per * 1e6:.2f} microseconds a hand ({calls} calls)")
    shoe = depleted_shoes(table.shoe, 1, args.seed)[0]
    started = time.perf_counter()
    depleted = ShoeDecisions.solve(rules, shoe)
    print(f"a depleted shoe ({sum(shoe)} cards): ShoeDecisions.solve {time.perf_counter() - started:.2f} s "
          f"for {len(depleted.positions)} decisions")
    times = []
    for cards, upcard in HANDS:
        unseen = list(shoe)
        for rank in (*cards, upcard):
            unseen[rank - 1] -= 1
        if min(unseen) < 0:
            continue

        solver.clear_hand_decision_cache()  # each hand from scratch, as a loop over new shoes does
        started = time.perf_counter()
        hand_decision(rules, cards, upcard, tuple(unseen))
        times.append(time.perf_counter() - started)
    print(f"hand_decision on the depleted shoe, each hand from scratch: {sum(times) / len(times) * 1e3:.1f} ms "
          f"a hand (mean of {len(times)})")


if __name__ == "__main__":
    main()
