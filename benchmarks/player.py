"""Timings of the player's exact hit/stand analysis.

Run:  python benchmarks/player.py [--skip-two-decks]

Measures, in this process:
  * the infinite-deck tables: every (total, soft, up-card) state, both objectives
    (ev and win), with the game value from the deal, solved from scratch each time
    (the dealer table included; the dealer graph built once beforehand; best of 5);
  * the composition-dependent tables for 1 and 2 decks: every two-card hand
    against every up-card, with the game value and the composition exceptions
    (objective ev, S17, once each: they take seconds).

Targets: infinite deck, both objectives < 0.3 s; 2 decks < 2 s (the dealer batched over every
hand, see bjexact.dealer.batch).
"""

from __future__ import annotations

import sys
import time

from bjexact import Rules, dealer_table
from bjexact.player import solve_finite, solve_infinite

REPEATS = 5


def infinite_both_objectives(h17: bool) -> float:
    """Best of REPEATS: all states, ev and win, game values included; each solution from scratch
    (the dealer table included), the dealer graph already built as it is after first use."""
    rules = Rules(decks="inf", h17=h17)
    dealer_table(rules)  # builds the dealer graph once
    best = float("inf")
    for _ in range(REPEATS):
        solve_infinite.cache_clear()
        start = time.perf_counter()
        for objective in ("ev", "win"):
            solution = solve_infinite(rules, objective)
            solution.game  # noqa: B018 -- the game value is part of the tables
        best = min(best, time.perf_counter() - start)
    return best


def finite(decks: int) -> tuple[float, int, str]:
    """Seconds for every two-card hand x up-card, the number of hands and the game value."""
    start = time.perf_counter()
    solution = solve_finite(Rules(decks=decks), "ev", progress=False)
    seconds = time.perf_counter() - start
    return seconds, len(solution.hands), f"{float(solution.game.value):+.6%}"


def main() -> None:
    rows = [
        ("infinite deck S17, all states, ev + win", infinite_both_objectives(False), 0.3, ""),
        ("infinite deck H17, all states, ev + win", infinite_both_objectives(True), 0.3, ""),
    ]
    decks = (1,) if "--skip-two-decks" in sys.argv else (1, 2)
    for n in decks:
        seconds, hands, game = finite(n)
        rows.append((f"{n} deck{'s' if n > 1 else ''} S17, {hands} hands x up-cards", seconds,
                     2.0 if n == 2 else None, f"game {game}"))
    width = max(len(r[0]) for r in rows)
    for name, seconds, target, note in rows:
        verdict = "" if target is None else ("ok" if seconds < target else f"SLOW (target {target:g} s)")
        print(f"{name.ljust(width)}  {seconds:9.3f} s  {verdict:<22} {note}".rstrip())


if __name__ == "__main__":
    main()
