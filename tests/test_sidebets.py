"""Side bets: exact agreement with a brute force over tiny suited shoes, properties, published figures.

The brute force (:mod:`sidebets_bruteforce`) deals every card order of a shoe as at the table (the
player's cards first) and reads every event from the cards itself; the package counts classes of
cards and follows the dealer's chain. Every event of the vocabulary is compared, before the deal
and after the up-card (with and without peek), and every built-in bet's whole distribution of
results.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction
from pathlib import Path

import pytest
import sidebets_bruteforce as brute

from bjexact import Rules, dealer_table
from bjexact.core.cards import Shoe
from bjexact.core.numbers import mpq
from bjexact.dealer import average_row
from bjexact.errors import BjexactError
from bjexact.sidebets import BUILT_IN, LOSES, Settled, SideBet, SuitedShoe, analyse, built_in, pay_line
from bjexact.sidebets.dealer import dealer_hands
from bjexact.sidebets.events import FEATURES
from bjexact.sidebets.suits import FACE_SYMBOLS, SUIT_NAMES, Card

# one card of each of the 13 ranks, all spades; 16 cards with repeated cards (two queens of hearts,
# four eights, two of them the eight of spades) so that Q-hearts pairs, identical cards and 8-8-8 can be dealt
ONE_SUIT = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS".split()
REPEATS = "8S 8S 8C 8H 6D 7S 9C 10H JS QH QH KC AS AD 2H 5C".split()
SHOES = {"one-suit-s17": (ONE_SUIT, False), "repeats-h17": (REPEATS, True)}


@pytest.fixture(scope="module", params=sorted(SHOES))
def shoe_case(request):
    cards, h17 = SHOES[request.param]
    found = brute.rounds(cards, h17)
    assert not any(r.exhausted for r in found.weights), "a test shoe must not run out (see the analysis's docstring)"
    rows = [(brute.features(r), r, w) for r, w in found.weights.items()]
    return SuitedShoe.of_cards(cards), h17, found, rows


@pytest.fixture(scope="module")
def feature_rows(shoe_case):
    """The brute force's rounds summed by what the event tests read of them: every event's value, a
    dealer natural, the up-card's value (some 20,000-35,000 rows instead of 80,000-120,000 rounds;
    each weight is the integer sum of its rounds', so every sum over them is the same)."""
    summed: dict[tuple, int] = {}
    for f, r, w in shoe_case[3]:
        key = (tuple(f.items()), brute.dealer_natural(r), brute.value(r.upcard))
        summed[key] = summed.get(key, 0) + w
    return [(dict(items), natural, upcard, w) for (items, natural, upcard), w in summed.items()]


def values_of(name: str, shoe_cards: SuitedShoe) -> list[tuple[object, object]]:
    """(the value as a bet file writes it, the value the brute force reads) for every value of a feature."""
    feature = FEATURES[name]
    if feature.kind == "bool":
        return [(True, True), (False, False)]
    if feature.kind == "choice":
        pairs = [(c, c) for c in feature.choices]
        return pairs + [(False, None)] if name == "hand.pair" else pairs
    if feature.kind in ("number", "value"):
        return [(n, n) for n in feature.numbers]
    if feature.kind == "rank":
        return [(symbol, face) for face, symbol in enumerate(FACE_SYMBOLS, start=1)]
    if feature.kind == "suit":
        return [(word, suit) for suit, word in enumerate(SUIT_NAMES)]
    if feature.kind == "colour":
        return [("red", True), ("black", False)]
    raise AssertionError(feature.kind)


def one_line_per_value(name: str, values, settled: Settled) -> SideBet:
    """A bet paying 1 on each value of one feature, a line per value: the values exclude each other,
    so each line's chance is that of its value."""
    lines = tuple(pay_line(f"{name} = {shown}", 1, {name: shown}) for shown, _ in values)
    return SideBet(f"test {name}", name, settled, lines)


CARD_FEATURES = ("hand.each_card", "hand.has_card")
SCALAR_FEATURES = [name for name in FEATURES if name not in CARD_FEATURES]


@pytest.mark.parametrize("name", SCALAR_FEATURES)
def test_every_event_before_the_deal_equals_the_brute_force(shoe_case, feature_rows, name):
    shoe, h17, found, _ = shoe_case
    values = values_of(name, shoe)
    analysis = analyse(one_line_per_value(name, values, Settled.BEFORE_DEAL), shoe, h17=h17)
    weights: dict[object, int] = {}  # the brute force's weight of each value of the feature
    for f, _, _, w in feature_rows:
        weights[f[name]] = weights.get(f[name], 0) + w
    for (shown, read), line in zip(values, analysis.lines):
        assert line.chance == Fraction(weights.get(read, 0), found.denominator), (name, shown)
    assert analysis.lines[-1].name == LOSES


@pytest.mark.parametrize("name", CARD_FEATURES)
def test_the_named_card_events_equal_the_brute_force(shoe_case, name):
    shoe, h17, found, rows = shoe_case
    for card in sorted(set(REPEATS + ONE_SUIT)):
        bet = SideBet("t", "t", Settled.BEFORE_DEAL, (pay_line("x", 1, {name: card}),))
        target = brute.card(card)
        if name == "hand.each_card":
            expected = sum(w for _, r, w in rows if r.player[0] == r.player[1] == target)
        else:
            expected = sum(w for _, r, w in rows if target in r.player)
        assert analyse(bet, shoe, h17=h17).lines[0].chance == Fraction(expected, found.denominator), card


AFTER_FEATURES = [n for n in SCALAR_FEATURES if n.startswith(("dealer.", "hand.")) or n == "upcard.value"]


# without peek nothing is conditioned: the events whose chances that changes most are enough
NO_PEEK = ("dealer.natural", "dealer.bust", "dealer.total", "dealer.cards", "upcard.value", "hand.natural")
AFTER_CASES = [(name, True) for name in AFTER_FEATURES] + [(name, False) for name in NO_PEEK]


@pytest.mark.parametrize("name, peek", AFTER_CASES, ids=[f"{n}-{'peek' if p else 'no-peek'}" for n, p in AFTER_CASES])
def test_every_event_after_the_upcard_equals_the_brute_force(shoe_case, feature_rows, name, peek):
    shoe, h17, _, _ = shoe_case
    values = values_of(name, shoe)
    analysis = analyse(one_line_per_value(name, values, Settled.AFTER_UPCARD), shoe, h17=h17, peek=peek)

    # the brute force's weight of each (up-card value, value of the feature), the rounds a peek ends left out
    weights: dict[tuple[int, object], int] = {}
    for f, natural, upcard, w in feature_rows:
        if not (peek and natural):
            key = (upcard, f[name])
            weights[key] = weights.get(key, 0) + w
    made = sum(weights.values())
    for (shown, read), line in zip(values, analysis.lines):
        expected = Fraction(sum(w for (_, value), w in weights.items() if value == read), made)
        assert line.chance == expected, (name, shown)
    # by up-card: the chance that the bet pays (some value's line holds: every deal but the losing ones)
    paying = {read for _, read in values}
    for row in analysis.by_upcard:
        given = {value: w for (u, value), w in weights.items() if u == row.upcard}
        paid = Fraction(sum(w for value, w in given.items() if value in paying), sum(given.values()))
        assert row.paid == paid, row.upcard


JOINT_LINES = [
    {"hand.natural": True, "dealer.bust": True},
    {"hand.each_card": "QH", "dealer.natural": True},
    {"hand.pair": True, "dealer.suited": True},
    {"hand.total": 20, "dealer.cards": "3-4", "upcard.value": "T"},
    {"hand.soft": False, "dealer.one_colour": True, "dealer.last_card": [8, 9, 10]},
]


@pytest.mark.parametrize("conditions", JOINT_LINES, ids=lambda c: ",".join(c))
def test_combinations_of_the_players_cards_and_the_dealers_hand_equal_the_brute_force(shoe_case, conditions):
    shoe, h17, found, rows = shoe_case
    bet = SideBet("t", "t", Settled.BEFORE_DEAL, (pay_line("joint", 1, conditions),))
    line = bet.lines[0]

    # the cards each hand.each_card condition allows, as the brute force's (face, suit) pairs: made once
    allowed = {id(c): {(x.face, x.suit) for x in c.allowed} for c in line.conditions
               if c.feature.name == "hand.each_card"}

    def holds(features, r) -> bool:
        for condition in line.conditions:
            name = condition.feature.name
            if name == "hand.each_card":
                if not all(c in allowed[id(condition)] for c in r.player):
                    return False
            elif not condition.accepts(features[name]):
                return False
        return True

    expected = Fraction(sum(w for f, r, w in rows if holds(f, r)), found.denominator)
    assert analyse(bet, shoe, h17=h17).lines[0].chance == expected


@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_every_built_in_bet_pays_as_the_brute_force_does(shoe_case, name):
    shoe, h17, found, rows = shoe_case
    bet = built_in(name)
    analysis = analyse(bet, shoe, h17=h17)
    pays = brute.PAY_TABLES[name]
    given = (lambda r: not brute.dealer_natural(r)) if bet.settled is Settled.AFTER_UPCARD else (lambda r: True)
    weights: dict[tuple[int, int], int] = {}  # result -> the rounds' weights, summed as integers
    for _, r, w in rows:
        if given(r):
            result = pays(r)
            key = result.numerator, result.denominator  # two integers hash faster than a Fraction
            weights[key] = weights.get(key, 0) + w
    total = sum(weights.values())
    expected = {Fraction(*result): Fraction(w, total) for result, w in weights.items()}
    found_results: dict[Fraction, Fraction] = {}
    for line in analysis.lines:
        result = Fraction(int(line.result.numerator), int(line.result.denominator))
        found_results[result] = found_results.get(result, Fraction(0)) + line.chance
    assert {k: v for k, v in found_results.items() if v} == {k: v for k, v in expected.items() if v}


def test_the_dealers_hand_is_unchanged_when_the_player_draws_first():
    # the brute force lets the player draw to 15 before the dealer: the dealer's events are those of
    # the dealer alone (the chance of any event of the dealer's draws is a martingale as cards are dealt)
    cards = "AS 2H 3S 4H 5S 6H 7S 8H 9S 10H JS QH".split()
    found = brute.rounds(cards, False, player_hits_below=14)
    shoe = SuitedShoe.of_cards(cards)
    for name in ("buster", "bust-it", "bust"):
        analysis = analyse(built_in(name), shoe)
        assert analysis.expected == brute.expected(found, brute.PAY_TABLES[name]), name


# --- properties --------------------------------------------------------------------------------------

@pytest.mark.parametrize("decks", [1, 2, 6, math.inf])
@pytest.mark.parametrize("name", sorted(BUILT_IN))
def test_line_chances_sum_to_exactly_one(name, decks):
    analysis = analyse(built_in(name), decks)
    assert sum((line.chance for line in analysis.lines), mpq(0)) == 1
    assert all(line.chance >= 0 for line in analysis.lines)
    assert analysis.house_edge == -analysis.expected == 1 - analysis.returned


@pytest.mark.parametrize("h17", [False, True], ids=["S17", "H17"])
@pytest.mark.parametrize("decks", [1, 2, 6, "inf"])
def test_the_dealer_busts_is_one_less_the_dealer_solvers_non_bust_chances(decks, h17):
    row = average_row(Rules(decks=decks, h17=h17))  # as21: a natural is a final 21, weighted by up-card
    standing = sum((row[t] for t in ("17", "18", "19", "20", "21")), mpq(0))
    assert analyse(built_in("bust"), decks, h17=h17).lines[0].chance == 1 - standing
    # after the up-card, under peek: the solver's peek table, up-card by up-card
    table = dealer_table(Rules(decks=decks, h17=h17, naturals="peek"))
    for result in analyse(built_in("bet-the-bust"), decks, h17=h17).by_upcard:
        assert result.paid == 1 - sum((table[result.upcard][t] for t in ("17", "18", "19", "20", "21")), mpq(0))


@pytest.mark.parametrize("decks", [1, 2])
def test_pre_deal_dealer_bets_are_unchanged_when_the_players_two_unseen_cards_leave_first(decks):
    # exchangeability: the dealer's final hands of the whole shoe equal their average over the player's
    # two unseen cards removed first, hand by hand
    shoe = Shoe.of_decks(decks)
    whole = dealer_hands(shoe, False).chances
    counts = shoe.counts
    n = sum(counts)
    # summed as integers: every shoe less two cards has n - 2 cards, so a hand of k cards has the chance
    # (its ways) / (the falling factorial (n - 2)_k) in each, and the average is
    # (sum of pair ways x hand ways) / (C(n, 2) (n - 2)_k), one division per hand
    summed: dict = {}
    denominators: dict = {}
    for a in range(1, 11):
        for b in range(a, 11):
            ways = math.comb(counts[a - 1], 2) if a == b else counts[a - 1] * counts[b - 1]
            removed = tuple(int(r == a) + int(r == b) for r in range(1, 11))
            less = dealer_hands(shoe.less(removed), False)
            assert less.total == n - 2 and less.finite
            for hand, w in less.ways.items():
                summed[hand] = summed.get(hand, 0) + ways * w
                denominators.setdefault(hand, less.denominator(hand.size))
    averaged = {hand: mpq(w, math.comb(n, 2) * denominators[hand]) for hand, w in summed.items()}
    assert {h: p for h, p in averaged.items() if p} == whole
    # and so every pre-deal dealer bet, valued with the player's two cards removed first (a pair of
    # cards of each pair of values stands for all: these bets do not see suits)
    suited = SuitedShoe.of_decks(decks)
    for name in ("buster",):
        bet = built_in(name)
        removed_first = mpq(0)
        for a in range(1, 11):
            for b in range(a, 11):
                ways = math.comb(counts[a - 1], 2) if a == b else counts[a - 1] * counts[b - 1]
                less = suited.less([Card(a, 0), Card(b, 1)])
                removed_first += mpq(ways, math.comb(n, 2)) * analyse(bet, less).expected
        assert removed_first == analyse(bet, decks).expected, name


# --- published figures, within their printed rounding ----------------------------------------------

def near(value: mpq, printed: float, places: int) -> bool:
    return abs(float(value) - printed) <= 0.5 * 10**-places + 1e-12


@pytest.mark.parametrize("decks, edge", [(1, 13.30), (2, 7.26), (4, 4.24), (6, 3.24), (8, 2.74)])
def test_21_plus_3_house_edges_as_published(decks, edge):
    assert near(analyse(built_in("21+3"), decks).house_edge * 100, edge, 2)


def test_21_plus_3_six_deck_combinations_as_published():
    lines = {line.name: line.combinations for line in analyse(built_in("21+3-suited-trips"), 6).lines}
    assert lines == {"suited trips": 1040, "straight flush": 10368, "trips": 25272, "straight": 155520,
                     "flush": 292896, LOSES: 4528224}
    assert analyse(built_in("21+3"), 6).total_combinations == 5013320
    assert near(analyse(built_in("21+3-suited-trips"), 6).expected, -0.041427, 6)


def test_perfect_pairs_eight_decks_as_published():
    analysis = analyse(built_in("perfect-pairs"), 8)
    assert [line.combinations for line in analysis.lines] == [1456, 1664, 3328, 79872]
    assert near(analysis.expected, -0.040964, 6)


@pytest.mark.parametrize("decks, s17, h17", [(1, 8.77, 6.89), (2, 8.48, 6.51), (4, 8.31, 6.29), (6, 8.25, 6.21),
                                            (8, 8.22, 6.17)])
def test_buster_house_edges_as_published(decks, s17, h17):
    assert near(analyse(built_in("buster"), decks).house_edge * 100, s17, 2)
    assert near(analyse(built_in("buster"), decks, h17=True).house_edge * 100, h17, 2)


def test_buster_six_deck_h17_lines_and_the_second_table_as_published():
    chances = [line.chance for line in analyse(built_in("buster"), 6, h17=True).lines]
    for chance, printed in zip(chances, [0.000012, 0.000214, 0.002638, 0.020473, 0.089392 + 0.173032, 0.714241]):
        assert near(chance, printed, 6) or near(chance, printed, 5)
    assert near(analyse(built_in("buster-natural"), 6).house_edge * 100, 6.20, 2)


@pytest.mark.parametrize("decks, s17, h17", [(1, 0.283585, 0.287485), (2, 0.282582, 0.286446),
                                            (4, 0.282086, 0.285931), (6, 0.281921, 0.285760), (8, 0.281839, 0.285675)])
def test_bust_chances_as_published(decks, s17, h17):
    assert near(analyse(built_in("bust"), decks).lines[0].chance, s17, 6)
    assert near(analyse(built_in("bust"), decks, h17=True).lines[0].chance, h17, 6)


@pytest.mark.parametrize("decks, edge", [(2, 7.568), (6, 6.912)])
def test_bust_it_house_edges_as_published(decks, edge):
    assert near(analyse(built_in("bust-it"), decks).house_edge * 100, edge, 3)


# P(bust | up-card, no natural), S17, as a published Bet the Bust table prints them under the headings
# 1, 2, 4, 6 and 8 decks. Its last three columns are those of 3, 4 and 5 decks: every row agrees with
# them to the six places printed (and with 4, 6, 8 decks in none), so the headings are mislabelled.
BET_THE_BUST_S17 = {
    1: (0.169815, 0.168096, 0.167557, 0.167293, 0.167136),
    2: (0.352973, 0.353291, 0.353398, 0.353451, 0.353483),
    5: (0.428905, 0.422505, 0.420440, 0.419419, 0.418810),
    10: (0.232499, 0.231144, 0.230692, 0.230465, 0.230329),
}


@pytest.mark.parametrize("index, decks", list(enumerate([1, 2, 3, 4, 5])))
def test_bet_the_bust_by_upcard_as_published(index, decks):
    rows = {row.upcard: row for row in analyse(built_in("bet-the-bust"), decks).by_upcard}
    for upcard, printed in BET_THE_BUST_S17.items():
        assert near(rows[upcard].paid, printed[index], 6), upcard
    assert decks != 1 or near(rows[1].expected, -0.235833, 6)


@pytest.mark.parametrize("decks, edge", [(1, 38.16), (6, 24.71), (8, 24.05)])
def test_lucky_ladies_house_edges_as_published(decks, edge):
    assert near(analyse(built_in("lucky-ladies"), decks).house_edge * 100, edge, 2)


def test_lucky_ladies_six_deck_lines_as_published():
    chances = [line.chance for line in analyse(built_in("lucky-ladies"), 6).lines]
    assert chances[0] == mpq(135360, 312 * 311 * 310 * 309)  # Q-hearts pair and a dealer natural, of 4 ordered cards
    for chance, printed in zip(chances[1:], [0.000295, 0.004638, 0.020777, 0.080139, 0.894138]):
        assert near(chance, printed, 6)


def test_match_the_dealer_two_decks_as_published():
    analysis = analyse(built_in("match-the-dealer"), 2)
    assert near(analysis.expected, -0.033124, 6)
    printed = [0.0, 0.001142, 0.002856, 0.018275, 0.109652, 0.868075]
    assert all(near(line.chance, p, 6) for line, p in zip(analysis.lines, printed))


# --- files --------------------------------------------------------------------------------------------

BUSTER_NATURAL = """
title = "Buster Blackjack, bonus table"
sees = ["hand", "dealer"]

[[line]]
name = "8+ and natural"
pays = 2000
dealer.bust = true
dealer.cards = "8+"
hand.natural = true

[[line]]
name = "8+"
pays = 250
dealer = { bust = true, cards = "8+" }

[[line]]
name = "7 and natural"
pays = 800
dealer.bust = true
dealer.cards = 7
hand.natural = true

[[line]]
name = "7"
pays = 50.0
dealer.bust = true
dealer.cards = [7]

[[line]]
name = "6"
pays = "18"
dealer.bust = true
dealer.cards = 6

[[line]]
name = "5"
pays = "4/1"
dealer.bust = true
dealer.cards = 5

[[line]]
name = "3-4"
pays = 2
dealer.bust = true
dealer.cards = [3, 4]
"""

BET_THE_BUST = """
settled = "after-upcard"
sees = ["upcard", "dealer"]
[[line]]
name = "A"
pays = 3.5
upcard.value = "A"
dealer.bust = true
[[line]]
name = "2-3"
pays = "3/2"
upcard.value = "2-3"
dealer.bust = true
[[line]]
name = "4-6"
pays = 1
upcard.value = [4, 5, 6]
dealer.bust = true
[[line]]
name = "7"
pays = 2.5
upcard.value = 7
dealer.bust = true
[[line]]
name = "8-T"
pays = 3
upcard.value = "8+"
dealer.bust = true
"""

TWENTY_ONE_PLUS_THREE = """
sees = ["hand", "upcard"]
[[line]]
name = "any"
pays = 9
three.hand = ["straight-flush", "suited-trips", "trips", "straight", "flush"]
"""


@pytest.mark.parametrize("text, name", [(BUSTER_NATURAL, "buster-natural"), (BET_THE_BUST, "bet-the-bust"),
                                        (TWENTY_ONE_PLUS_THREE, "21+3")])
def test_a_bet_file_equal_to_a_built_in_bet_gives_the_same_fractions(tmp_path, text, name):
    from bjexact.sidebets.files import read_bet_file

    path = tmp_path / "mine.toml"
    path.write_text(text)
    mine = read_bet_file(path)
    for decks, h17 in ((1, False), (6, True)):
        ours, theirs = analyse(mine, decks, h17=h17), analyse(built_in(name), decks, h17=h17)
        assert [line.chance for line in ours.lines] == [line.chance for line in theirs.lines]
        assert ours.by_upcard == theirs.by_upcard


def test_the_suited_view_and_the_errors_of_shoes():
    assert SuitedShoe.of_decks(6).value_counts == (24,) * 9 + (96,)
    with pytest.raises(BjexactError):
        SuitedShoe.of_decks(0)
    with pytest.raises(BjexactError):
        SuitedShoe.of_cards(["XX"])
    with pytest.raises(BjexactError, match="too small"):
        analyse(built_in("21+3"), SuitedShoe.of_cards(["AS", "2S"]))


def test_first_card_bets_on_the_infinite_deck():
    # every card 1/52 at every draw: the second card is the first's twin with 1/52, of its colour in the
    # other suit with 1/52, of its rank in the other colour with 2/52
    chances = [line.chance for line in analyse(built_in("perfect-pairs"), math.inf).lines]
    assert chances == [mpq(1, 52), mpq(1, 52), mpq(2, 52), mpq(48, 52)]
    # a flush of three cards: the second and the up-card of the first's suit, (13/52)^2; of those, 3 ways in
    # 13 x 13 are trips of one card, and 12 x 3 x 2 / (13 x 13) ... the straight flushes: 12 runs, 3! orders
    flushes = analyse(SideBet("f", "f", Settled.BEFORE_DEAL, (pay_line("flush", 1, {
        "three.hand": ["flush", "straight-flush", "suited-trips"]}),)), math.inf).lines[0].chance
    assert flushes == mpq(1, 16)


def test_the_readmes_table_of_house_edges_is_the_one_computed():
    """The README's side-bet table: every house edge, rounded to its printed digits, is the analysis's."""
    text = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    rows = re.findall(r"^\| `([^`]+)` \| [^|]+ \|((?: [\d.]+ \|){5})$", text, flags=re.M)
    assert [name for name, _ in rows] == ["buster", "bust-it", "21+3", "perfect-pairs"]
    for name, cells in rows:
        printed = [cell.strip() for cell in cells.strip(" |").split("|")]
        computed = [f"{float(analyse(built_in(name), decks).house_edge) * 100:.4f}" for decks in (1, 2, 4, 6, 8)]
        assert printed == computed, name
