"""Composition-dependent hit/stand values for finite shoes, against an independent recursion.

``player_reference.FiniteReference`` deals the hole card right after the up-card and
weighs it by its posterior given every card the player has seen; bjexact instead
draws the player's cards from the unseen cards (hole card included) and conditions
by division under peek. The two must agree exactly.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from player_reference import ONE_DECK, FiniteReference, ShoeRunsOut, value

from bjexact import Rules
from bjexact.errors import BjexactError
from bjexact.player import PlayerState, hand_decision, solve_finite

SMALL_SHOE = (1, 1, 1, 1, 1, 1, 1, 1, 1, 5)  # 14 cards: the dealer can never run out


def F(x) -> Fraction:
    return Fraction(int(x.numerator), int(x.denominator))


@cache
def reference(shoe, h17, naturals, objective) -> FiniteReference:
    return FiniteReference(shoe, h17, naturals, objective)


def deck(decks: int):
    return tuple(decks * c for c in ONE_DECK)


# (decks, h17, naturals, objective, cards, up-card)
CASES = [
    (1, False, "as21", "ev", (10, 6), 10),
    (1, False, "as21", "ev", (9, 7), 10),
    (1, False, "as21", "ev", (4, 4, 8), 10),
    (1, False, "as21", "ev", (5, 6), 10),
    (1, False, "as21", "ev", (1, 10), 10),
    (1, True, "peek", "ev", (10, 6), 1),
    (1, False, "peek", "win", (9, 7), 10),
    (1, True, "separate", "ev", (10, 5), 10),
    (2, False, "as21", "ev", (10, 6), 10),
    (2, True, "as21", "win", (10, 7), 10),
    (2, False, "peek", "ev", (10, 6), 10),
    (2, True, "peek", "ev", (8, 8), 1),
    (2, False, "separate", "ev", (9, 7), 10),
    (2, True, "separate", "win", (10, 7), 1),
    (1, False, "as21", "ev", (1, 2, 1, 10), 7),
]


def case_id(case) -> str:
    decks, h17, naturals, objective, cards, up = case
    return f"{decks}d-{'H17' if h17 else 'S17'}-{naturals}-{objective}-{''.join(map(str, cards))}v{up}"


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_hand_values_agree_with_the_reference(case):
    decks, h17, naturals, objective, cards, up = case
    rules = Rules(decks=decks, h17=h17, naturals=naturals)
    decision = hand_decision(rules, cards, up, objective=objective)
    stand, hit = reference(deck(decks), h17, naturals, objective).values(cards, up)
    assert (F(decision.stand), F(decision.hit)) == (stand, hit)
    assert decision.best == ("hit" if hit > stand else "stand")


def test_soft_hand_drawing_an_ace_stays_soft_in_a_finite_shoe():
    """A,2 then an ace: soft 14, valued from the shoe less A, A, 2 and the up-card."""
    up = 10
    decision = hand_decision(Rules(decks=1), (1, 2, 1), up)
    assert (decision.hand.total, decision.hand.soft) == (14, True) == value((1, 2, 1))
    stand, hit = reference(deck(1), False, "as21", "ev").values((1, 2, 1), up)
    assert (F(decision.stand), F(decision.hit)) == (stand, hit)
    assert decision.best == "hit"


def test_no_hit_when_no_card_is_left():
    """Four tens: once T,T, the up-card T and the hole card are dealt the shoe is empty, so the
    player cannot hit (``hit`` is None where no card can be drawn); standing pushes."""
    shoe = (0,) * 9 + (4,)
    assert reference(shoe, False, "as21", "ev").values((10, 10), 10) == (0, None)
    decision = hand_decision(Rules(shoe=shoe), (10, 10), 10)
    assert decision.stand == 0
    assert decision.hit is None


PEEK_SHOE = (1, 0, 0, 1, 1, 0, 0, 1, 0, 2)  # A, 4, 5, 8, T, T


def test_peek_hand_whose_draw_can_only_be_the_hole_card():
    """4,5 v A under peek, shoe A,4,5,8,T,T: the hole card is the 8 (no natural), so a hit draws a
    ten (19, which pushes A,8) and standing on 9 loses. Drawing the 8 has probability 0 given no
    natural; it must not break the values (P(no natural | 4,5,8, A) = 0)."""
    assert reference(PEEK_SHOE, False, "peek", "ev").values((4, 5), 1) == (-1, 0)
    decision = hand_decision(Rules(shoe=PEEK_SHOE, naturals="peek"), (4, 5), 1)
    assert (decision.stand, decision.hit) == (-1, 0)


def test_peek_game_on_a_tiny_shoe_agrees_with_brute_force():
    ref = reference(PEEK_SHOE, False, "peek", "ev")
    results = ref.game()
    assert results == (Fraction(2, 15), Fraction(23, 60), Fraction(11, 90), Fraction(13, 36))
    solution = solve_finite(Rules(shoe=PEEK_SHOE, naturals="peek"), progress=False)
    assert tuple(F(x) for x in solution.game.results) == results
    assert F(solution.game.value) == Fraction(2, 9)


def test_explicit_unseen_cards_equal_the_default_shoe():
    """``unseen`` = the full shoe less the player's cards and the up-card gives the same values."""
    unseen = list(deck(2))
    for r in (10, 6, 10):
        unseen[r - 1] -= 1
    default = hand_decision(Rules(decks=2), (10, 6), 10)
    explicit = hand_decision(Rules(decks=2), (10, 6), 10, unseen=tuple(unseen))
    assert (default.stand, default.hit) == (explicit.stand, explicit.hit)


@pytest.mark.parametrize(
    "h17,naturals,objective", [(False, "as21", "ev"), (True, "separate", "win"), (False, "peek", "ev")]
)
def test_small_shoe_game_and_every_hand_agree_with_brute_force(h17, naturals, objective):
    """The whole game from the deal on a small custom shoe, and every two-card hand vs every up-card."""
    solution = solve_finite(Rules(shoe=SMALL_SHOE, h17=h17, naturals=naturals), objective, progress=False)
    ref = reference(SMALL_SHOE, h17, naturals, objective)
    results = ref.game()
    assert tuple(F(x) for x in solution.game.results) == results
    assert F(solution.game.value) == ref.score(results)
    assert sum(results) == 1
    if (h17, naturals, objective) == (False, "as21", "ev"):
        assert ref.score(results) == Fraction(-4033, 288288)  # the constant of test_player_cli.py
    for (first, second, up), decision in solution.hands.items():
        if naturals != "as21" and sorted((first, second)) == [1, 10]:
            continue  # a natural is not played
        stand, hit = ref.values((first, second), up)
        assert (F(decision.stand), F(decision.hit)) == (stand, hit), (first, second, up)


def test_small_shoe_deals_only_what_the_shoe_holds():
    solution = solve_finite(Rules(shoe=SMALL_SHOE), progress=False)
    for first, second, up in solution.hands:
        assert first <= second
        need = [0] * 10
        for r in (first, second, up):
            need[r - 1] += 1
        assert all(n <= c for n, c in zip(need, SMALL_SHOE))
    assert (10, 10, 10) in solution.hands and (2, 2, 5) not in solution.hands


@settings(max_examples=15, deadline=None, derandomize=True)
@given(
    shoe=st.lists(st.sampled_from(tuple(range(10)) + (9, 9, 9)), min_size=6, max_size=11).map(
        lambda picks: tuple(picks.count(i) for i in range(10))),
    h17=st.booleans(),
    naturals=st.sampled_from(("as21", "separate", "peek")),
    objective=st.sampled_from(("ev", "win")),
)
def test_random_tiny_shoes_agree_with_brute_force(shoe, h17, naturals, objective):
    """Any small shoe: the same game, or both find that the dealer can run out of cards."""
    ref = FiniteReference(shoe, h17, naturals, objective)
    try:
        results = ref.game()
    except ShoeRunsOut:
        results = None
    try:
        solution = solve_finite(Rules(shoe=shoe, h17=h17, naturals=naturals), objective, progress=False)
    except BjexactError as error:
        assert results is None, error
        return
    assert results is not None
    assert tuple(F(x) for x in solution.game.results) == results


@pytest.fixture(scope="module")
def one_deck():
    return solve_finite(Rules(decks=1), progress=False)


def test_one_deck_three_card_16_stands_against_a_ten(one_deck):
    """The reference finds 4,4,8 v T standing while every two-card 16 hits; the engine lists it."""
    ref = reference(deck(1), False, "as21", "ev")
    stand, hit = ref.values((4, 4, 8), 10)
    assert stand > hit
    for cards in ((10, 6), (9, 7), (8, 8)):
        stand, hit = ref.values(cards, 10)
        assert hit > stand
        assert one_deck.hands[(*sorted(cards), 10)].best == "hit"
    listed = {
        (state, best): hands for state, best, hands in one_deck.exceptions
    }
    assert (4, 4, 8) in listed[(PlayerState(16, False, 10), "stand")]
    assert (4, 5, 7) in listed[(PlayerState(16, False, 10), "stand")]
    assert all(len(cards) >= 3 for cards in listed[(PlayerState(16, False, 10), "stand")])
    assert (PlayerState(16, False, 10), "hit") not in listed


def test_one_deck_exceptions_are_real(one_deck):
    """Every listed exception of hard 16 v T is a hand the reference says stands."""
    ref = reference(deck(1), False, "as21", "ev")
    for state, best, hands in one_deck.exceptions:
        if state == PlayerState(16, False, 10):
            for cards in hands[:6]:
                stand, hit = ref.values(cards, 10)
                assert (stand >= hit) == (best == "stand"), cards


def test_one_deck_game_value_is_the_deal_weighted_hand_values(one_deck):
    """as21: the game value is the sum over deals of P(deal) * the best value of the hand."""
    shoe, n = deck(1), 52
    total = Fraction(0)
    for (first, second, up), decision in one_deck.hands.items():
        ways = shoe[first - 1] * (shoe[second - 1] - (first == second))
        if first != second:
            ways *= 2
        left_up = shoe[up - 1] - (first == up) - (second == up)
        total += Fraction(ways * left_up, n * (n - 1) * (n - 2)) * F(decision.value)
    assert total == F(one_deck.game.value)
    natural, win, push, loss = (F(x) for x in one_deck.game.results)
    assert natural == 0 and natural + win + push + loss == 1
    assert F(one_deck.game.value) == win - loss


def test_one_deck_hands_agree_with_the_reference(one_deck):
    ref = reference(deck(1), False, "as21", "ev")
    for key in ((10, 10, 6), (7, 10, 10), (6, 10, 10), (9, 9, 10)):
        decision = one_deck.hands[key]
        stand, hit = ref.values(key[:2], key[2])
        assert (F(decision.stand), F(decision.hit)) == (stand, hit), key
