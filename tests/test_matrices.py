"""The absorbing-chain canonical form: T, R, B, N = (I - T)^-1 and N R, against sympy and the tables."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy

from bjexact import BjexactError, Rules, dealer_matrices, dealer_table, parse_rank
from bjexact.core.cards import rank_symbol

INFINITE_RULES = [
    Rules(decks="inf"),
    Rules(decks="inf", h17=True, naturals="separate"),
    Rules(decks="inf", naturals="peek"),
]


def _frac(x) -> Fraction:
    return Fraction(int(x.numerator), int(x.denominator))


def _grid(g):
    return [[_frac(x) for x in row] for row in g]


def _check_canonical_form(chain):
    T, R = _grid(chain.T), _grid(chain.R)
    n = len(chain.transient)
    assert len(T) == n and all(len(row) == n for row in T)
    assert len(R) == n and all(len(row) == len(chain.absorbing) for row in R)
    for i in range(n):
        assert all(T[i][j] == 0 for j in range(i + 1)), "T must be strictly upper triangular"
        assert sum(T[i]) + sum(R[i]) == 1, chain.transient[i]
        assert all(x >= 0 for x in T[i] + R[i])
    bust = chain.absorbing.index("bust")
    assert [_frac(b) for b in chain.B] == [row[bust] for row in R]


@pytest.mark.parametrize("upcard", range(1, 11), ids=rank_symbol)
@pytest.mark.parametrize("rules", INFINITE_RULES, ids=lambda r: r.describe())
def test_infinite_deck_matrices_against_sympy(rules, upcard):
    chain = dealer_matrices(rules, upcard)
    assert chain.start == rank_symbol(upcard) == chain.transient[0]
    _check_canonical_form(chain)
    T = chain.sympy("T")
    n = T.shape[0]
    N = (sympy.eye(n) - T).inv()
    assert chain.sympy("N") == N
    NR = N * chain.sympy("R")
    assert chain.sympy("absorption") == NR
    row = dealer_table(rules)[upcard]
    assert list(chain.absorbing) == [o for o in row]
    assert [NR[0, k] for k in range(NR.shape[1])] == [sympy.Rational(str(_frac(row[o]))) for o in row]
    assert chain.sympy("B").shape == (n, 1)


def test_infinite_deck_six_by_hand():
    # Up-card 6 under S17: one draw from "6" gives 7..16 (2..T), soft 17 (A) -> stands.
    chain = dealer_matrices(Rules(decks="inf"), "6")
    R = dict(zip(chain.absorbing, (_frac(x) for x in chain.R[0]), strict=True))
    assert R == {"17": Fraction(1, 13), "18": 0, "19": 0, "20": 0, "21": 0, "bust": 0}
    assert sum(_frac(x) for x in chain.T[0]) == Fraction(12, 13)
    assert "soft 17" not in chain.transient


def _solve_upper_triangular(T, R):
    """x = (I - T)^-1 R by back substitution, rows from the last (T strictly upper triangular)."""
    n = len(T)
    x = [None] * n
    for i in reversed(range(n)):
        later = [j for j in range(i + 1, n) if T[i][j]]
        x[i] = [R[i][k] + sum(T[i][j] * x[j][k] for j in later) for k in range(len(R[i]))]
    return x


@pytest.mark.parametrize("upcard", ["6", "T"])
def test_two_decks_matrices(upcard):
    rules = Rules(decks=2)
    chain = dealer_matrices(rules, upcard)
    _check_canonical_form(chain)
    assert "exhausted" not in chain.absorbing  # two decks cannot run out
    row = dealer_table(rules)[parse_rank(upcard)]
    expected = [_frac(row[o]) for o in chain.absorbing]
    assert [_frac(x) for x in chain.absorption[0]] == expected
    assert _solve_upper_triangular(_grid(chain.T), _grid(chain.R))[0] == expected
    # N: the start state is visited exactly once
    assert _frac(chain.N[0][0]) == 1


def test_tiny_shoe_matrix_has_an_exhausted_column():
    rules = Rules(shoe=(1, 1, 0, 0, 0, 0, 0, 0, 0, 1))
    chain = dealer_matrices(rules, "A")
    assert "exhausted" in chain.absorbing
    _check_canonical_form(chain)
    table = dealer_table(rules)
    assert [_frac(x) for x in chain.absorption[0]] == [_frac(table[1][o]) for o in chain.absorbing]


def test_ten_valued_upcards_give_the_same_matrices():
    rules = Rules(decks="inf")
    assert dealer_matrices(rules, "K").to_json() == dealer_matrices(rules, "T").to_json()
    assert dealer_matrices(rules, "j").to_json() == dealer_matrices(rules, 10).to_json()


def test_absent_upcard_is_an_error():
    with pytest.raises(BjexactError):
        dealer_matrices(Rules(shoe=(0, 4, 4, 4, 4, 4, 4, 4, 4, 16)), "A")
    with pytest.raises(BjexactError):
        dealer_matrices(Rules(decks="inf"), "X")


def test_json_contract_of_the_chain():
    document = dealer_matrices(Rules(decks="inf"), "6").to_json()
    assert set(document) == {"transient", "absorbing", "start", "T", "R", "B", "N", "absorption"}
    assert document["start"] == "6"
    for name in ("T", "R", "N", "absorption"):
        for row in document[name]:
            for cell in row:
                assert Fraction(cell) >= 0 and str(Fraction(cell)) == cell
