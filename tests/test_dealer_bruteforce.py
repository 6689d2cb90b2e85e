"""The dealer tables agree EXACTLY with a brute-force enumeration of draw sequences (see conftest.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from bjexact import BjexactError, Rules, dealer_distributions, dealer_table

SHOES = {1: (4,) * 9 + (16,), 2: (8,) * 9 + (32,), "inf": None}


def _nonzero(row, bf):
    return {o: bf.as_fraction(p) for o, p in row.items() if p}


@pytest.mark.parametrize("naturals", ["as21", "separate", "peek"])
@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
@pytest.mark.parametrize("decks", [1, 2, "inf"])
def test_table_equals_brute_force(decks, h17, naturals, bf):
    table = dealer_table(Rules(decks=decks, h17=h17, naturals=naturals))
    expected_columns = ("17", "18", "19", "20", "21", "bust")
    if naturals == "separate":
        expected_columns += ("blackjack",)
    assert table.outcomes == expected_columns
    assert table.upcards == (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
    for upcard in range(1, 11):
        row = table[upcard]
        assert tuple(row) == expected_columns
        assert _nonzero(row, bf) == bf.dealer_row(SHOES[decks], upcard, h17, naturals), upcard


def test_brute_force_model_sanity(bf):
    # the model itself, against counts done by hand: P(blackjack) is the chance of the
    # matching hole card (1/13 for an ace from the infinite deck, 16/51 tens in one deck)
    assert bf.dealer_row(None, 10, False, "separate")["blackjack"] == Fraction(1, 13)
    assert bf.dealer_row(SHOES[1], 1, False, "separate")["blackjack"] == Fraction(16, 51)
    # three 7s and two tens, up-card 7: the hole card is a ten (2 of 4) -> 17; or a 7 (2 of 4) -> 14,
    # which then draws the last 7 (1 of 3) -> 21 or a ten (2 of 3) -> bust
    three_sevens_two_tens = (0, 0, 0, 0, 0, 0, 3, 0, 0, 2)
    assert bf.dealer_row(three_sevens_two_tens, 7, False, "as21") == {
        "17": Fraction(1, 2), "21": Fraction(1, 6), "bust": Fraction(1, 3)}
    assert sum(bf.dealer_row(SHOES[2], 5, True, "peek").values()) == 1


@pytest.mark.parametrize(
    "removed",
    [
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 2),  # the player holds two ten-valued cards
        (1, 0, 0, 0, 0, 1, 0, 0, 0, 0),  # A, 6
        (0, 1, 1, 1, 1, 0, 0, 0, 0, 0),  # 2, 3, 4, 5
    ],
)
@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
def test_distributions_with_cards_removed(removed, h17, bf):
    rules = Rules(decks=1, h17=h17, naturals="separate")
    rows = dealer_distributions(rules, removed=removed)
    shoe = tuple(c - r for c, r in zip(SHOES[1], removed, strict=True))
    for upcard, row in rows.items():
        assert _nonzero(row, bf) == bf.dealer_row(shoe, upcard, h17, "separate")


@pytest.mark.parametrize(
    "shoe",
    [
        (1, 1, 0, 0, 0, 0, 0, 0, 0, 1),  # A, 2, T: the 2 row always runs out
        (0, 2, 2, 2, 0, 0, 0, 0, 0, 0),  # small cards only: never reaches 17 from some up-cards
        (2, 0, 0, 0, 0, 3, 0, 0, 0, 2),  # soft 17s, naturals and exhaustion mixed
        (1, 0, 0, 0, 0, 0, 0, 0, 0, 1),  # A and T only
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 3),  # ten-valued only: 20 every time
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 1),  # one card: the up-card, and nothing to draw
    ],
)
@pytest.mark.parametrize("naturals", ["as21", "separate", "peek"])
@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
def test_small_custom_shoes(shoe, h17, naturals, bf):
    rules = Rules(shoe=shoe, h17=h17, naturals=naturals)
    expected = {}
    for upcard in range(1, 11):
        if shoe[upcard - 1]:
            try:
                expected[upcard] = bf.dealer_row(shoe, upcard, h17, naturals)
            except bf.Undefined:
                with pytest.raises(BjexactError):
                    dealer_table(rules)
                return
    table = dealer_table(rules)
    assert set(table.upcards) == set(expected)
    for upcard, row in expected.items():
        assert _nonzero(table[upcard], bf) == row
    assert ("exhausted" in table.outcomes) == any("exhausted" in row for row in expected.values())


def test_exhausted_example_by_hand():
    # shoe A, 2, T. Up-card 2: A then T gives soft 13 -> hard 13, or T then A -> hard 13:
    # the dealer must draw with an empty shoe either way.
    table = dealer_table(Rules(shoe=(1, 1, 0, 0, 0, 0, 0, 0, 0, 1)))
    assert table.outcomes[-1] == "exhausted"
    assert table[2]["exhausted"] == 1
    # Up-card A: hole card T (natural, 21) or 2 (soft 13, then T: hard 13, then empty)
    assert table[1]["21"] == Fraction(1, 2) and table[1]["exhausted"] == Fraction(1, 2)
    assert set(table.upcards) == {1, 2, 10}
