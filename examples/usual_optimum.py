"""A full-game engine for `check-strategy --game` that plays bjexact's exact optimum of the usual rules
(S17, double any two cards on two cards only, DAS, split to 2 hands, peek, no Charlie) on the shoe it is
dealt from, whatever rules the table has: put it to a table that allows doubling after hitting
(--double-after-hit) or pays a Charlie (--charlie N) and it misses what those rules are worth."""
from functools import cache

from bjexact import GameRules, solve_game
from bjexact.player.game import later_moves
from bjexact.player.values import FractionSolver


@cache
def usual_rules(shoe):
    return GameRules(shoe=shoe, split_hands=2)


@cache
def solved(shoe):  # the two-card hands' moves, and a solver for the later ones
    return solve_game(usual_rules(shoe), with_distribution=False, progress=False), FractionSolver(usual_rules(shoe))


def decide(cards, upcard, unseen):
    shoe = tuple(u + cards.count(r) + (r == upcard) for r, u in enumerate(unseen, 1))  # the shoe dealt from
    solution, solver = solved(shoe)
    if len(cards) == 2:
        return solution.hands[(min(cards), max(cards), upcard)].best
    return later_moves(solver, tuple(sorted(cards)), upcard).best
