"""The chances of the deal (bjexact.core.deal) against a brute force: every order of dealing the
up-card and the player's two cards from a tiny shoe, card by card."""

from fractions import Fraction
from itertools import permutations

import pytest

from bjexact.core.cards import RANKS, Shoe
from bjexact.core.deal import infinite_hands, two_card_hands
from bjexact.core.numbers import mpq


def brute_force(counts):
    """P(up-card u, player's cards {a, b}) by listing every ordered deal of three distinct cards."""
    cards = [rank for rank in RANKS for _ in range(counts[rank - 1])]
    deals = list(permutations(range(len(cards)), 3))
    found: dict[tuple[int, tuple[int, int]], Fraction] = {}
    for up, first, second in deals:
        key = (cards[up], tuple(sorted((cards[first], cards[second]))))
        found[key] = found.get(key, Fraction(0)) + Fraction(1, len(deals))
    return found


@pytest.mark.parametrize("counts", [(1, 0, 0, 0, 0, 0, 0, 0, 0, 2), (2, 1, 0, 0, 0, 1, 0, 0, 0, 3),
                                    (0, 3, 0, 0, 0, 0, 0, 0, 0, 0), (1, 1, 1, 1, 1, 0, 0, 0, 0, 1)])
def test_a_finite_shoe_deals_as_card_by_card(counts):
    shoe = Shoe.of_counts(counts)
    joint = brute_force(counts)
    n = sum(counts)
    for upcard in RANKS:
        if not counts[upcard - 1]:
            continue
        given = dict(two_card_hands(shoe, upcard))
        p_up = Fraction(counts[upcard - 1], n)
        expected = {hand: p / p_up for (up, hand), p in joint.items() if up == upcard}
        assert {hand: Fraction(int(p.numerator), int(p.denominator)) for hand, p in given.items()} == expected
        assert all(a <= b for a, b in given) and sum(given.values()) == 1


def test_the_infinite_deck_counts_both_orders():
    p = Shoe.infinite().draw_probabilities()
    hands = dict(infinite_hands(p))
    assert sum(hands.values()) == 1 and len(hands) == 55
    assert hands[(1, 10)] == 2 * mpq(1, 13) * mpq(4, 13) and hands[(10, 10)] == mpq(16, 169)
    assert dict(two_card_hands(Shoe.infinite(), 6)) == hands


def test_the_hole_card_makes_a_natural_under_an_ace_or_a_ten_only():
    from bjexact.core.deal import infinite_natural_chance
    from bjexact.symbolic.removal import DUALS, DirectionDraws, Dual

    p = Shoe.infinite().draw_probabilities()
    assert [infinite_natural_chance(u, p) for u in RANKS] == [mpq(4, 13)] + [0] * 8 + [mpq(1, 13)]
    tangent = DirectionDraws(10).probabilities()  # removing a ten: P(ten) falls, P(ace) rises
    assert infinite_natural_chance(1, tangent) == Dual(mpq(4, 13), mpq(4, 13) - 1)
    assert infinite_natural_chance(10, tangent) == Dual(mpq(1, 13), mpq(1, 13))
    assert infinite_natural_chance(6, tangent) == DUALS.zero
