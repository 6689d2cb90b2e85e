"""Counting side bets: effects of removal against the brute force, their sum, the symmetry shortcut, the
value by true count against an exhaustive average over the cards seen, and the command's outputs.

The brute force (:mod:`sidebets_bruteforce`, which imports nothing from bjexact) deals every card order
of a tiny suited shoe with one card taken out; the package analyses the shoe less the card (dealer
bets) or reads every deal's cards once (first-card bets, by exchangeability). The value by count is
checked against a direct average: every set of cards seen, with its exact chance, and the package's
analysis of the cards left (already checked against the brute force in tests/test_sidebets.py).
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb, floor

import pytest
import sidebets_bruteforce as brute

from bjexact.cli import main
from bjexact.core.numbers import fraction_string, mpq
from bjexact.counting.sidebets import parse_depth, removal_effects, value_by_count
from bjexact.counting.systems import load_system
from bjexact.errors import BjexactError
from bjexact.sidebets import SuitedShoe, analyse, built_in
from bjexact.sidebets.suits import parse_card

# ten cards: a queen-of-hearts pair, an identical 8-8, an ace for naturals; the dealer cannot run out
# whichever card is taken out
TINY = "AS 2H 5D 6H 7C 8S 8S 9H QH QH".split()


@pytest.fixture(scope="module")
def brute_less_each_card():
    """The brute force's rounds of the tiny shoe, whole and less each distinct card."""
    found = {None: brute.rounds(TINY, False)}
    for text in dict.fromkeys(TINY):
        rest = list(TINY)
        rest.remove(text)
        found[text] = brute.rounds(rest, False)
    assert not any(r.exhausted for rounds in found.values() for r in rounds.weights)
    return found


def as_mpq(value: Fraction) -> mpq:
    return mpq(value.numerator, value.denominator)


@pytest.mark.parametrize("name", ["21+3", "perfect-pairs", "buster", "bust-it", "lucky-ladies"])
def test_each_cards_effect_of_removal_equals_the_brute_force(brute_less_each_card, name):
    shoe = SuitedShoe.of_cards(TINY)
    pays = brute.PAY_TABLES[name]
    full = brute.expected(brute_less_each_card[None], pays)
    effects = removal_effects(built_in(name), shoe, symmetry=False)
    found = {str(c.card): c.effect for c in effects.cards} if effects.cards else None
    for text in dict.fromkeys(TINY):
        expected = as_mpq(brute.expected(brute_less_each_card[text], pays) - full)
        card = parse_card(text)
        if found is not None:
            assert found[str(card)] == expected, (name, text)
        rank = min(card.face, 10) if not effects.faces else card.face
        if not effects.suits:  # a rank's effect is that of any of its cards
            assert next(r.effect for r in effects.ranks if r.rank == rank) == expected, (name, text)
    assert effects.weighted_sum == 0


@pytest.mark.parametrize("name", ["buster", "under-13", "bust-it"])
def test_effects_sum_to_zero_weighted_by_the_cards(name):
    # the average over a removed card of the value without it is the full shoe's (exchangeability)
    effects = removal_effects(built_in(name), SuitedShoe.of_decks(1))
    assert sum(r.cards * r.effect for r in effects.ranks) == 0
    assert effects.weighted_sum == 0 and any(r.effect for r in effects.ranks)


def test_a_bet_after_the_upcard_under_peek_is_a_ratio_whose_effects_do_not_sum_to_zero():
    bet = built_in("bet-the-bust")
    peek = removal_effects(bet, SuitedShoe.of_decks(1))
    assert not peek.sums_to_zero and peek.weighted_sum != 0
    no_peek = removal_effects(bet, SuitedShoe.of_decks(1), peek=False)
    assert no_peek.sums_to_zero and no_peek.weighted_sum == 0


def test_the_cards_a_bet_cannot_tell_apart_are_analysed_once_with_the_same_effects():
    for name in ("lucky-ladies", "bust-it"):
        bet = built_in(name)
        shoe = SuitedShoe.of_cards("AS AH AD AC 8S 8H 8D 8C 8S 8H 8D 8C 7S 7H 7D 7C 6S 6H 6D 6C QS QH QD QC KS "
                                   "KH KD KC 5S 5H 5D 5C 2S 2H 2D 2C".split())
        fast, slow = removal_effects(bet, shoe), removal_effects(bet, shoe, symmetry=False)
        assert fast.cards == slow.cards and fast.ranks == slow.ranks, name


def test_a_first_card_bet_that_treats_every_rank_alike_has_no_effect_of_removal():
    # Perfect Pairs pays the same on a pair of any rank: in whole decks removing any card does the same,
    # and the effects average to zero, so every one is zero
    effects = removal_effects(built_in("perfect-pairs"), SuitedShoe.of_decks(6))
    assert all(r.effect == 0 for r in effects.ranks)
    assert all(c.over_ranks is None for c in effects.correlations)


def test_correlations_of_the_best_count_the_signs_and_hi_lo():
    effects = removal_effects(built_in("buster"), SuitedShoe.of_decks(1))
    by_name = {c.name: c for c in effects.correlations}
    assert by_name["the effects themselves (best linear count)"].over_ranks == 1.0
    signs = by_name["signs of the effects, by rank"]
    assert signs.tags == tuple((r.effect > 0) - (r.effect < 0) for r in effects.ranks)
    assert 0 < signs.over_ranks < 1
    assert -1 <= by_name["hi-lo"].over_ranks <= 1
    assert not effects.faces and [r.symbol for r in effects.ranks] == list("A23456789T")


def exhaustive_by_count(bet, cards, system, seen, span=6):
    """The bet's value at each floored true count, by listing every set of ``seen`` cards of ``cards``."""
    shoe = SuitedShoe.of_cards(cards)
    size = shoe.size
    mean_tag = Fraction(sum(system.tags[parse_card(c).value - 1] for c in cards), size)
    by_bin: dict[int, list[Fraction]] = {}
    taken_sets = Counter(tuple(sorted(s)) for s in combinations(cards, seen))
    for taken, ways in taken_sets.items():
        rest = list(cards)
        for c in taken:
            rest.remove(c)
        running = sum(system.tags[parse_card(c).value - 1] for c in taken)
        t = max(-span, min(span, floor((running - mean_tag * seen) * 52 / Fraction(size - seen))))
        value = analyse(bet, SuitedShoe.of_cards(rest)).expected
        entry = by_bin.setdefault(t, [Fraction(0), Fraction(0)])
        entry[0] += ways
        entry[1] += ways * Fraction(int(value.numerator), int(value.denominator))
    total = comb(size, seen)
    return {t: (as_mpq(w / total), as_mpq(v / w)) for t, (w, v) in by_bin.items()}


@pytest.mark.parametrize("name,system,seen", [("perfect-pairs", "hi-lo", 3),
                                              ("buster", "hi-lo", 3), ("lucky-ladies", "ko", 3),
                                              ("bust-it", "zen", 3)])
def test_the_value_by_true_count_is_the_exact_average_over_every_set_of_cards_seen(name, system, seen):
    cards = "AS 2H 3D 5D 6H 7C 8S 8S 9H QH QH KC".split()
    counted = load_system(system)
    found = value_by_count(built_in(name), SuitedShoe.of_cards(cards), counted, seen)
    expected = exhaustive_by_count(built_in(name), cards, counted, seen)
    assert {r.true_count: (r.chance, r.expected) for r in found.rows} == expected


def test_value_by_count_averages_to_the_full_shoe_and_finds_where_it_turns_positive():
    found = value_by_count(built_in("over-13"), SuitedShoe.of_decks(2), load_system("hi-lo"), 52)
    assert sum(r.chance for r in found.rows) == 1
    assert sum(r.chance * r.expected for r in found.rows) == found.analysis.expected
    assert found.crossing is not None and 0 < found.crossing < 6
    values = [r.expected for r in found.rows]
    assert values == sorted(values)  # big cards left help a bet on 14 or more
    assert found.positive_from is not None and found.rows[-1].expected > 0


def test_the_depth_and_the_errors_of_counting():
    assert parse_depth("1/2", 312) == 156 and parse_depth("0.75", 104) == 78 and parse_depth("20", 52) == 20
    for bad in ("x", "1", "52", "-1", "1.5"):
        with pytest.raises(BjexactError):
            parse_depth(bad if bad != "1" else "1.0", 52)
    with pytest.raises(BjexactError, match="finite"):
        removal_effects(built_in("bust"), SuitedShoe.infinite())
    with pytest.raises(BjexactError, match="run out"):
        value_by_count(built_in("bust"), SuitedShoe.of_decks(1), load_system("hi-lo"), 45)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_prints_effects_and_correlations_in_every_format(capsys):
    code, out, _ = run(capsys, "sidebet", "buster", "--decks", "1", "--removal")
    assert code == 0 and "Effects of removal: Buster Blackjack, 1 deck, S17" in out and "Betting correlation" in out
    code, out, _ = run(capsys, "sidebet", "buster", "--decks", "1", "--removal", "--format", "json")
    document = json.loads(out)
    effects = removal_effects(built_in("buster"), SuitedShoe.of_decks(1))
    assert document["ranks"][0] == {"rank": "A", "cards": 4, "effect": fraction_string(effects.ranks[0].effect)}
    assert document["weighted_sum"] == "0" and document["cards"] == []
    code, out, _ = run(capsys, "sidebet", "buster", "--decks", "1", "--removal", "--format", "csv")
    assert code == 0 and out.startswith("section,") and "correlation" in out
    code, out, _ = run(capsys, "sidebet", "bust-it", "--decks", "1", "--removal", "--format", "md")
    assert code == 0 and "♥" in out and "| rank |" in out


def test_the_command_prints_the_value_by_count(capsys):
    code, out, _ = run(capsys, "sidebet", "bust", "--decks", "1", "--by-count", "hi-lo", "--depth", "26",
                       "--format", "json")
    document = json.loads(out)
    found = value_by_count(built_in("bust"), SuitedShoe.of_decks(1), load_system("hi-lo"), 26)
    assert code == 0 and document["seen"] == 26 and document["crossing"] == fraction_string(found.crossing)
    assert [r["expected"] for r in document["rows"]] == [fraction_string(r.expected) for r in found.rows]
    code, out, _ = run(capsys, "sidebet", "bust", "--decks", "1", "--by-count", "hi-lo")
    assert code == 0 and "26 cards seen before the round" in out


@pytest.mark.parametrize("argv,words", [
    (["--removal", "--decks", "inf"], "one finite shoe"),
    (["--removal", "--decks", "1,2"], "one finite shoe"),
    (["--removal", "--by-count", "hi-lo"], "not both"),
    (["--by-count", "hi-low", "--decks", "1"], "unknown count system"),
    (["--by-count", "hi-lo", "--decks", "1", "--depth", "half"], "--depth takes"),
    (["--depth", "10"], "--depth is for --by-count"),
    (["--by-count", "hi-lo", "--decks", "1", "--span", "0"], "--span"),
])
def test_bad_counting_options_get_one_line_errors(capsys, argv, words):
    code, out, err = run(capsys, "sidebet", "bust", *argv)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1
