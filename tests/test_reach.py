"""The hands of three or more cards a player comes to hold, against every deal played out card by card."""

from __future__ import annotations

import pytest

from bjexact.core.cards import counts_of
from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules
from bjexact.player.game import solve_with
from bjexact.player.reach import later_hands
from bjexact.player.states import counts_value
from bjexact.player.values import EngineSolver, add_card, solver_for

SHOE = (2, 1, 1, 2, 1, 1, 1, 1, 1, 4)  # 15 cards


def _played_out(solver, solution):
    """(hand counts, up-card) -> chance, by dealing every sequence of ranks in order: the up-card,
    the hole card (withheld from the player's draws; the play goes on whatever it is: the chances
    are marginal over it), the player's two cards, then a card while the play says hit."""
    held: dict = {}
    shoe = list(solver.cards.counts)

    def draw(left, chance):
        n = sum(left)
        for rank, k in enumerate(left, start=1):
            if k:
                rest = list(left)
                rest[rank - 1] -= 1
                yield rank, rest, chance * mpq(k, n)

    def hit_on(hand, up, left, chance):
        if not sum(left):
            return
        for rank, rest, p in draw(left, chance):
            new = add_card(hand, rank)
            if counts_value(new).bust:
                continue
            held[(new, up)] = held.get((new, up), mpq(0)) + p
            if solver.later_move(new, up) == "hit":
                hit_on(new, up, rest, p)

    for up, after_up, p_up in draw(shoe, mpq(1)):
        for _, after_hole, p_hole in draw(after_up, p_up):
            for a, after_a, p_a in draw(after_hole, p_hole):
                for b, left, p_b in draw(after_a, p_a):
                    moves = solution.hands.get((min(a, b), max(a, b), up))
                    if moves is not None and moves.best == "hit":  # a natural is not in ``hands``
                        hit_on(counts_of((a, b)), up, left, p_b)
    return held


@pytest.mark.parametrize("rules", [
    GameRules(shoe=SHOE, split_hands=1),
    GameRules(shoe=SHOE, split_hands=1, h17=True, surrender="late"),
    GameRules(shoe=SHOE, split_hands=1, double_after_hit=True),  # a hand that doubles is not held on
], ids=["s17", "h17-surrender", "double-after-hit"])
def test_the_hands_held_are_every_deal_played_out(rules):
    solver = solver_for(rules)
    solution = solve_with(solver, with_distribution=False, progress=False)
    found = {(hand, up): chance for hand, up, chance, _ in later_hands(solver, solution)}
    assert found == _played_out(solver, solution)
    assert len(found) > 100


def test_a_hands_moves_are_its_stand_and_hit_and_the_filter_keeps_totals():
    rules = GameRules(shoe=SHOE, split_hands=1)
    solver = EngineSolver(rules)
    solution = solve_with(solver, with_distribution=False, progress=False)
    sixteens = list(later_hands(solver, solution, lambda v: not v.soft and v.total == 16))
    assert sixteens and all(counts_value(h).total == 16 and sum(h) >= 3 for h, _, _, _ in sixteens)
    for hand, up, _, moves in sixteens:
        stand, hit = solver.continuation(hand, up)
        assert moves.w["stand"] == stand and moves.w.get("hit") == hit
