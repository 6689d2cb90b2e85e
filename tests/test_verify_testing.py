"""bjexact.checks.testing: assertion helpers that pass on exact values and point at offending cells."""

from __future__ import annotations

import pytest

from bjexact import Rules, dealer_table
from bjexact.checks.simcheck import exact_dealer_simulator, slipped_dealer_simulator
from bjexact.checks.testing import (
    assert_dealer_table_matches,
    assert_gym_blackjack_matches,
    assert_policy_matches,
    assert_simulator_matches,
    assert_values_match,
)
from bjexact.player import solve_infinite
from bjexact.render.tables import NumberStyle, dealer_tables, render

SIX = Rules(decks=6)
INF = Rules(decks="inf")


def float_table(rules):
    exact = dealer_table(rules)
    return {u: {o: float(exact[u][o]) for o in exact.outcomes} for u in exact.rows}


def test_dealer_tables_in_memory_pass_and_a_wrong_cell_is_named():
    values = float_table(SIX)
    assert_dealer_table_matches(values, SIX)
    assert_dealer_table_matches(values, decks=6)
    rows = [[values[u][o] for o in ("17", "18", "19", "20", "21", "bust")] for u in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)]
    assert_dealer_table_matches(rows, decks=6)
    values[7]["18"] += 1e-7
    with pytest.raises(AssertionError) as info:
        assert_dealer_table_matches(values, SIX)
    message = str(info.value)
    assert "in 1 of 60 cells" in message and "row 7, column 18" in message and "6 decks" in message
    with pytest.raises(AssertionError, match="in 60 of 60 cells"):
        assert_dealer_table_matches(float_table(INF), SIX)


def test_dealer_tables_as_text_or_files(tmp_path):
    style = NumberStyle(decimals=3)
    text = render(dealer_tables(dealer_table(SIX), style), "md", style)
    assert_dealer_table_matches(text, SIX)
    path = tmp_path / "table.md"
    path.write_text(text)
    assert_dealer_table_matches(path, SIX)
    assert_dealer_table_matches(str(path), SIX)
    with pytest.raises(AssertionError, match="line"):
        assert_dealer_table_matches(text, Rules(decks=6, h17=True))
    with pytest.raises(AssertionError, match="cannot read the dealer table"):
        assert_dealer_table_matches("nothing here", SIX)


def test_numpy_arrays_are_accepted():
    np = pytest.importorskip("numpy")
    exact = dealer_table(INF)
    array = np.array([[float(exact[u][o]) for o in exact.outcomes] for u in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)])
    assert_dealer_table_matches(array, INF)
    array[9, 5] += 1e-3
    with pytest.raises(AssertionError, match="row A, column bust"):
        assert_dealer_table_matches(array, INF)


def test_policies_as_mappings_and_callables():
    solution = solve_infinite(INF)
    moves = {(s.total, s.soft, s.upcard): v.best for s, v in solution.positions.items()}
    assert_policy_matches(moves)
    assert_policy_matches(lambda total, soft, upcard: moves[(total, soft, upcard)])
    assert_policy_matches({(16, False, "T"): "H", (16, False, 6): "S", (18, True, "A"): True})
    with pytest.raises(AssertionError) as info:
        assert_policy_matches({(18, True, 9): "S", (12, False, 4): "S"})
    assert "in 1 of 2 cells" in str(info.value) and "soft 18 v 9: actual stand, best hit" in str(info.value)


def test_values_in_memory():
    solution = solve_infinite(INF)
    stand = {(s.total, s.soft, s.upcard): float(v.stand) for s, v in solution.positions.items()}
    assert_values_match(stand, block="stand")
    best = {(s.total, s.soft, s.upcard): float(v.value) for s, v in solution.positions.items()}
    assert_values_match(best)
    with pytest.raises(AssertionError, match="hard 16 v T"):
        assert_values_match({**best, (16, False, 10): best[(16, False, 10)] + 1e-6})
    with pytest.raises(AssertionError, match="hard 16 v T"):
        assert_values_match({(16, False, 10): stand[(16, False, 10)]})  # the value of hitting is higher


def test_simulators():
    assert_simulator_matches(exact_dealer_simulator(SIX), SIX, rounds=20_000)
    with pytest.raises(AssertionError, match="FAIL for up-card"):
        assert_simulator_matches(slipped_dealer_simulator(INF), INF, rounds=100_000)
    with pytest.raises(AssertionError, match="cannot be checked"):
        assert_simulator_matches(lambda upcard, rng: "sixteen", INF, rounds=100)


def test_gymnasium():
    pytest.importorskip("gymnasium")
    assert_gym_blackjack_matches(policy="optimal", episodes=3_000, seed=7)
