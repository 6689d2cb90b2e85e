"""Timings of the symbolic dealer tables, effects of removal and decision boundaries.

Targets: the full symbolic dealer table in QQ[p_A..p_T] under 1 s, in QQ[t] under 0.3 s.
Run: python benchmarks/symbolic.py [--game]   (--game adds the finite-shoe game values: minutes)

With --game also the full game's effects of removal for one deck (S17, double any two, no
DAS, split to 4 hands), printed next to Griffin's (Theory of Blackjack), which hold the
full-deck basic strategy fixed: ours re-optimise the play for every shoe, so they are
compared after subtracting their card-weighted mean (measured: within 0.035).
"""

from __future__ import annotations

import sys
import time


def timed(label, function, repeat=5, target=None):
    start = time.perf_counter()
    result = function()
    first = time.perf_counter() - start
    best = first
    for _ in range(repeat - 1):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    verdict = "" if target is None else f"  (target < {target:.1f} s: {'met' if first < target else 'MISSED'})"
    print(f"{label:<58} first {first:7.3f} s   best {best:7.3f} s{verdict}")
    return result


def main() -> None:
    start = time.perf_counter()
    import sympy  # noqa: F401

    print(f"{'import sympy (paid once, not in the figures below)':<58} {time.perf_counter() - start:7.3f} s")

    from bjexact.core.rules import Rules
    from bjexact.symbolic import decision_boundaries, per_rank_model, symbolic_dealer_table, ten_density_model
    from bjexact.symbolic.removal import dealer_removal_effects, game_removal_effects

    print("\nSymbolic dealer tables (infinite deck, every up-card); 'first' includes building the graph")
    for h17, naturals in ((False, "as21"), (True, "as21"), (False, "separate"), (False, "peek")):
        rules = Rules(decks="inf", h17=h17, naturals=naturals)
        name = f"{'H17' if h17 else 'S17'} {naturals}"
        timed(f"QQ[p_A..p_T], {name}", lambda r=rules: symbolic_dealer_table(r, per_rank_model()), repeat=3,
              target=1.0)
        timed(f"QQ[t], {name}", lambda r=rules: symbolic_dealer_table(r, ten_density_model()), repeat=3,
              target=0.3)

    print("\nEffects of removal (S17, naturals as21), averaged over the up-card")
    for decks in (1, 6, "inf"):
        effects = timed(f"{decks} deck(s)", lambda d=decks: dealer_removal_effects(Rules(decks=d)), repeat=2)
        scale = "D_r f / 52" if decks == "inf" else "exact change"
        print(f"  {scale}, percentage points:")
        print("    removed " + "".join(f"{o:>9}" for o in effects.outcomes))
        for rank, row in effects.effects.items():
            values = [row[o] / (52 if decks == "inf" else 1) * 100 for o in effects.outcomes]
            print(f"    {'A23456789T'[rank - 1]:>7} " + "".join(f"{float(v):+9.4f}" for v in values))

    print("\nEffects of removal on the hit/stand game's value (ev), percentage points of the bet")
    games = [("inf", "as21"), ("inf", "peek")] + ([(1, "as21"), (6, "as21")] if "--game" in sys.argv else [])
    for decks, naturals in games:
        game = timed(f"{decks} deck(s), naturals {naturals}",
                     lambda d=decks, n=naturals: game_removal_effects(Rules(decks=d, naturals=n)), repeat=1)
        scale = 52 if decks == "inf" else 1
        print("    " + "".join(f"{'A23456789T'[r - 1]:>8}" for r in game.effects))
        print("    " + "".join(f"{float(v / scale * 100):+8.4f}" for v in game.effects.values())
              + ("   (D_r V / 52)" if decks == "inf" else "   (exact change)"))
    if "--game" not in sys.argv:
        print("    (finite shoes: python benchmarks/symbolic.py --game; one exact solve per rank, about 15 s a deck)")
    else:
        full_game_against_griffin()

    print("\nDecision boundaries in t (S17, as21)")
    for total, upcard in ((16, 10), (12, 2), (12, 4)):
        result = timed(f"hard {total} v {'A23456789T'[upcard - 1]}",
                       lambda a=total, u=upcard: decision_boundaries(Rules(decks="inf"), a, False, u), repeat=2)
        for x, below, above in result.boundaries:
            print(f"    {below} -> {above} at t = {x.decimals(12)}...")


GRIFFIN_ONE_DECK = (-0.61, 0.38, 0.44, 0.55, 0.69, 0.46, 0.28, 0.00, -0.18, -0.51)  # A, 2, ..., 9, T; per cent


def full_game_against_griffin() -> None:
    from bjexact.core.rules import GameRules
    from bjexact.symbolic.removal import full_game_removal_effects

    print("\nEffects of removal on the full game's value, 1 deck, S17, double any two, no DAS, percentage points")
    game = timed("1 deck, full game (11 exact solves)",
                 lambda: full_game_removal_effects(GameRules(decks=1, das=False), progress=False), repeat=1)
    ours = [float(v) * 100 for v in game.effects.values()]
    mean = (sum(ours[:9]) + 4 * ours[9]) / 13
    print("    " + "".join(f"{'A23456789T'[r]:>8}" for r in range(10)))
    print("    " + "".join(f"{v:+8.4f}" for v in ours) + "   (exact change, play re-optimised)")
    print("    " + "".join(f"{v - mean:+8.4f}" for v in ours) + f"   (less their mean {mean:+.4f})")
    print("    " + "".join(f"{v:+8.2f}" for v in GRIFFIN_ONE_DECK) + "   (Griffin, fixed basic strategy)")
    gap = max(abs(v - mean - g) for v, g in zip(ours, GRIFFIN_ONE_DECK))
    print(f"    largest gap after centring: {gap:.4f}")


if __name__ == "__main__":
    main()
