"""Finite shoes approach the infinite deck: the composition-dependent values converge as decks grow."""

from __future__ import annotations

import pytest

from bjexact import Rules
from bjexact.player import hand_decision

HANDS = [((10, 6), 10), ((10, 2), 4), ((1, 7), 9)]


@pytest.mark.parametrize("cards,upcard", HANDS)
def test_a_thousand_decks_are_within_1e_4_of_the_infinite_deck(cards, upcard):
    infinite = hand_decision(Rules(decks="inf"), cards, upcard)
    huge = hand_decision(Rules(decks=1000), cards, upcard)
    assert abs(infinite.stand - huge.stand) < 1e-4
    assert abs(infinite.hit - huge.hit) < 1e-4


@pytest.mark.parametrize("cards,upcard", HANDS)
def test_the_distance_to_the_infinite_deck_shrinks_with_more_decks(cards, upcard):
    infinite = hand_decision(Rules(decks="inf"), cards, upcard)
    distances = [abs(hand_decision(Rules(decks=d), cards, upcard).hit - infinite.hit) for d in (1, 8, 1000)]
    assert distances[0] > distances[1] > distances[2]
