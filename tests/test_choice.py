"""The optimal choice's one owner (bjexact.core.choice): the largest value, ties to the earlier move,
for any exact number type; and the solvers that choose by it agree with it."""

from fractions import Fraction
from itertools import permutations

import pytest

from bjexact.core.choice import MOVES, best_move, hit_or_stand, hits, optimal_value
from bjexact.core.numbers import mpq


def test_ties_go_to_the_earlier_move_whatever_the_order_given():
    values = {"surrender": Fraction(-1, 2), "split": Fraction(0), "double": Fraction(0), "hit": Fraction(0),
              "stand": Fraction(-1)}
    for order in permutations(values):
        assert best_move({move: values[move] for move in order}) == "hit"
    assert best_move({"hit": 0, "stand": 0}) == "stand"
    assert best_move({"split": 1, "double": 1}) == "double"
    assert best_move({"surrender": mpq(-1, 2), "stand": mpq(-1, 2)}) == "stand"


def test_the_largest_value_is_chosen_by_exact_comparison():
    # 1/3 and 0.333...3 (as a float they are equal): only the exact values decide
    near = Fraction(3333333333333333, 10**16)
    assert best_move({"stand": Fraction(1, 3), "hit": near}) == "stand"
    assert best_move({"stand": near, "hit": Fraction(1, 3)}) == "hit"
    assert optimal_value(near, Fraction(1, 3)) == Fraction(1, 3)


@pytest.mark.parametrize("number", [int, Fraction, mpq])
def test_hit_or_stand_over_any_number_type(number):
    assert hits(number(-1), number(0)) and hit_or_stand(number(-1), number(0)) == "hit"
    assert not hits(number(0), number(0)) and hit_or_stand(number(0), number(0)) == "stand"
    assert not hits(number(0), None) and optimal_value(number(0), None) == 0
    assert optimal_value(number(-2), number(-1)) == -1 and optimal_value(number(2), number(1)) == 2


def test_sympy_rationals_too():
    sympy = pytest.importorskip("sympy")
    third = sympy.Rational(1, 3)
    assert hit_or_stand(third, sympy.Rational(2, 5)) == "hit"
    assert hit_or_stand(third, third) == "stand"


def test_an_unknown_move_is_refused():
    with pytest.raises(ValueError):
        best_move({"stand": 0, "insurance": 1})
    assert MOVES == ("stand", "hit", "double", "split", "surrender")


def test_the_full_games_moves_choose_by_it():
    from bjexact.core.rules import GameRules
    from bjexact.player.game import solve_game

    solution = solve_game(GameRules(decks="inf", split_hands=2, surrender="late"), with_distribution=False,
                          progress=False)
    for moves in solution.hands.values():
        assert moves.best == best_move({move: moves.unconditional(move) for move in moves.w})
    for rows in solution.chart().values():
        for cells in rows.values():
            for cell in cells.values():
                assert cell.best == best_move(cell.values)


def test_the_hit_stand_solver_chooses_by_it():
    from bjexact.core.rules import Rules
    from bjexact.player.solver import solve

    solution = solve(Rules(decks="inf"))
    for position in solution.positions.values():
        assert position.best == hit_or_stand(position.stand, position.hit)
