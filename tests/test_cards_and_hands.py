"""Card parsing, shoes, rule validation and the ace rule (including on the dealer's graph)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bjexact import BjexactError, HandValue, Rules, Shoe, add_card, hand_value, parse_cards, parse_rank
from bjexact.dealer import dealer_graph

# --- card parsing -------------------------------------------------------------

ACE_SPELLINGS = ["A", "a", "1", "11", "Ace", "ace", "ACE", "aCe", " A "]
TEN_SPELLINGS = ["T", "t", "10", "J", "j", "Q", "q", "K", "k"]


@pytest.mark.parametrize("text", ACE_SPELLINGS)
def test_ace_spellings(text):
    assert parse_rank(text) == 1


@pytest.mark.parametrize("text", TEN_SPELLINGS)
def test_ten_valued_spellings_are_one_rank(text):
    assert parse_rank(text) == 10


@pytest.mark.parametrize("rank", range(2, 10))
def test_pip_cards(rank):
    assert parse_rank(str(rank)) == rank


@pytest.mark.parametrize("text", ["0", "12", "13", "X", "", " ", "1.5", "B", "AA", "joker", "-2", "10x", "Z"])
def test_unknown_cards_raise(text):
    with pytest.raises(BjexactError) as info:
        parse_rank(text)
    assert "\n" not in str(info.value)


def test_bjexact_error_is_a_value_error():
    assert issubclass(BjexactError, ValueError)


def test_parse_cards_mixed_separators():
    assert parse_cards("A, 10 q,K  7") == (1, 10, 10, 10, 7)
    assert parse_cards("") == ()


def test_parse_cards_names_the_bad_position():
    with pytest.raises(BjexactError, match="position 3"):
        parse_cards("A 2 X 4")


# --- shoes and rules ----------------------------------------------------------


def test_one_deck_counts():
    assert Shoe.of_decks(1).counts == (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
    assert Shoe.of_decks(6).counts == (24,) * 9 + (96,)
    assert sum(Shoe.of_decks(2).counts) == 104


@pytest.mark.parametrize(
    "counts",
    [
        (4,) * 9,  # nine counts
        (4,) * 11,
        (4,) * 9 + (-1,),
        (4,) * 9 + (1.5,),
        (4,) * 9 + ("16",),
        (4,) * 9 + (True,),
        (0,) * 10,
    ],
)
def test_bad_shoes_raise(counts):
    with pytest.raises(BjexactError):
        Rules(shoe=counts)


@pytest.mark.parametrize("decks", [0, -1, 1.5, "x", "0", "", True, "2.5"])
def test_bad_decks_raise(decks):
    with pytest.raises(BjexactError):
        Rules(decks=decks)


@pytest.mark.parametrize("decks", ["inf", "INF", "infinite", math.inf])
def test_infinite_deck_spellings(decks):
    assert Rules(decks=decks).infinite


def test_bad_naturals_raise():
    with pytest.raises(BjexactError):
        Rules(naturals="sometimes")


def test_shoe_rules_drop_decks():
    rules = Rules(shoe=(4,) * 9 + (16,))
    assert rules.decks is None and rules.shoe == (4,) * 9 + (16,)


# --- the ace rule -------------------------------------------------------------


def test_seed_case_soft_17_then_ten_is_hard_17():
    assert hand_value([1, 6]) == HandValue(17, True)
    assert hand_value([1, 6, 10]) == HandValue(17, False)


def test_seed_case_ace_revalued_after_every_card():
    assert hand_value([3, 1]) == HandValue(14, True)
    assert hand_value([3, 1, 2]) == HandValue(16, True)
    assert hand_value([3, 1, 2, 6]) == HandValue(12, False)
    assert hand_value([3, 1, 2, 6, 1]) == HandValue(13, False)  # not a bust
    assert not hand_value([3, 1, 2, 6, 1]).bust


def test_seed_case_soft_hand_drawing_an_ace_stays_soft():
    assert hand_value([1, 2]) == HandValue(13, True)
    assert add_card(HandValue(13, True), 1) == HandValue(14, True)
    assert hand_value([1, 2, 1]) == HandValue(14, True)


def test_more_ace_cases():
    assert hand_value([1, 1]) == HandValue(12, True)
    assert hand_value([1] * 11) == HandValue(21, True)
    assert hand_value([1] * 12) == HandValue(12, False)
    assert hand_value([1, 10]) == HandValue(21, True)
    assert hand_value([10, 10, 2]).bust
    assert hand_value([]) == HandValue(0, False)


def _own_value(ranks):
    hard = sum(ranks)
    if 1 in ranks and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


@given(st.lists(st.integers(1, 10), max_size=12))
def test_hand_value_matches_an_evaluation_from_scratch(ranks):
    # stop at the first bust: after it the hand is dead
    for n in range(len(ranks) + 1):
        total, soft = _own_value(ranks[:n])
        got = hand_value(ranks[:n])
        assert (got.total, got.soft) == (total, soft)
        if total > 21:
            break


@given(st.lists(st.integers(1, 10), max_size=8))
def test_hand_value_does_not_depend_on_card_order(ranks):
    got = hand_value(ranks)
    if not got.bust:
        assert hand_value(sorted(ranks)) == got == hand_value(sorted(ranks, reverse=True))


# --- the ace rule on the dealer's side ----------------------------------------


def test_dealer_infinite_graph_soft_13_plus_ace_is_soft_14():
    graph = dealer_graph(False, "as21", False).graph
    assert graph.has_edge("A", "soft 13") and 2 in graph.edges["A", "soft 13"]["ranks"]
    assert graph.has_edge("soft 13", "soft 14")
    assert 1 in graph.edges["soft 13", "soft 14"]["ranks"]
    assert graph.nodes["soft 14"]["total"] == 14 and graph.nodes["soft 14"]["soft"] is True


def test_dealer_finite_graph_ace_two_plus_ace_is_soft_14():
    graph = dealer_graph(False, "as21", True).graph
    assert graph.has_edge("A", "A+2")
    assert graph.edges["A+2", "A+A+2"]["ranks"] == (1,)
    node = graph.nodes["A+A+2"]
    assert (node["total"], node["soft"]) == (14, True)


def test_dealer_graph_seed_hands():
    graph = dealer_graph(False, "as21", True).graph
    # 3, A, 2 is soft 16; a 6 makes hard 12 (still drawing); another ace makes hard 13
    assert graph.edges["A+2+3", "A+2+3+6"]["ranks"] == (6,)
    node = graph.nodes["A+2+3+6"]
    assert (node["total"], node["soft"]) == (12, False)
    node = graph.nodes["A+A+2+3+6"]
    assert (node["total"], node["soft"]) == (13, False)
    # A, 6 is soft 17: the dealer stands under S17 and draws under H17
    assert 6 in graph.edges["A", "17"]["ranks"]
    h17 = dealer_graph(True, "as21", True).graph
    assert not h17.has_edge("A", "17") or 6 not in h17.edges["A", "17"]["ranks"]
    assert h17.nodes["A+6"]["soft"] is True and h17.nodes["A+6"]["total"] == 17
    # ... and soft 17 + ten is a hard 17, where the H17 dealer stands
    assert 10 in h17.edges["A+6", "17"]["ranks"]


def test_removing_cards_from_a_shoe():
    """Shoe.remove takes cards out one by one; the infinite deck is unchanged; a missing card is an error."""
    shoe = Shoe.of_decks(1).remove([10, 10, 1])
    assert shoe.counts == (3,) + (4,) * 8 + (14,)
    assert Shoe.infinite().remove([10]) == Shoe.infinite()
    with pytest.raises(BjexactError, match="no A left"):
        Shoe.of_counts((0,) * 9 + (1,)).remove([1])
