"""The full game (double, split, surrender, hole-card rules): exact values checked independently.

* A combinatorial analyzer's published figures, to every printed digit.
* The independent brute force of tests/fullgame_bruteforce.py (real order of play, the
  hole card dealt first, every split hand played card by card) on tiny shoes: every move
  of every two-card hand and the round's value, exactly.
* Properties: the distribution of the round's net result sums to 1 and its mean is the
  expected result (two computations); on the infinite deck a split is worth twice one
  split hand played CDZ-; the batched dealer equals the dealer graph's solution.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction
from itertools import combinations_with_replacement

import fullgame_bruteforce as bf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bjexact.core.cards import ACE, RANKS, TEN, add_counts, counts_of
from bjexact.core.numbers import mpq
from bjexact.core.rules import Rules
from bjexact.dealer.batch import OUTCOMES, DealerOracle
from bjexact.dealer.distributions import dealer_distributions
from bjexact.errors import BjexactError
from bjexact.player.game import GameRules, hand_moves, insurance_value, solve_game


def fraction(value: mpq) -> Fraction:
    return Fraction(int(value.numerator), int(value.denominator))


def percent(value: mpq, places: int) -> str:
    return f"{float(value * 100):.{places}f}"


# --- a published reference --------------------------------------------------------

SIX_DECKS_SPLIT_ONCE = GameRules(decks=6, split_hands=2)


@pytest.fixture(scope="module")
def six_decks():
    return solve_game(SIX_DECKS_SPLIT_ONCE, with_distribution=False)


def test_six_decks_house_edge_matches_the_combinatorial_analyzer(six_decks):
    # 6 decks, S17, double any two, DAS, no resplit, CDZ-, no surrender, 3:2, peek
    assert percent(six_decks.ev, 9) == "-0.456886297"


def test_six_decks_sixteen_against_a_ten_matches_the_combinatorial_analyzer(six_decks):
    moves = six_decks.hands[(6, 10, 10)]
    assert percent(moves.value("stand"), 9) == "-54.095443902"
    assert percent(moves.value("hit"), 9) == "-53.467556245"
    assert moves.best == "hit"
    assert hand_moves(SIX_DECKS_SPLIT_ONCE, ["T", "6"], "T").values == moves.values


def test_resplits_on_a_small_shoe_match_the_combinatorial_analyzer():
    # a 19-card shoe (2,2,2,2,3,3,3,3,4,4,7,7, seven tens), S17, DAS, resplit to 4 hands, CDZ-:
    # 2,2 v 7 as a combinatorial analyzer printed it
    rules = GameRules(shoe=(0, 4, 4, 2, 0, 0, 2, 0, 0, 7), split_hands=4)
    values = {m: percent(v, 9) for m, v in hand_moves(rules, ["2", "2"], "7").values.items()}
    assert values == {"stand": "-61.639194139", "hit": "-13.266733267", "double": "-123.278388278",
                      "split": "-76.210220335"}


def test_by_upcard_values_average_to_the_round_value(six_decks):
    assert sum(six_decks.upcard_chance[u] * v for u, v in six_decks.by_upcard.items()) == six_decks.ev
    assert sum(six_decks.upcard_chance.values()) == 1


def test_total_dependent_chart_weighs_hands_by_their_chance(six_decks):
    # 12 v 4 with 6 decks: T,2 alone hits, but the total-dependent cell stands
    chart = six_decks.chart()
    cell = chart["hard"]["12"][4]
    assert cell.hands[(2, 10)] == "hit"
    assert cell.code == "S" and cell.depends_on_composition
    assert chart["hard"]["16"][10].code == "H"
    assert chart["pairs"]["8"][6].code == "P"
    assert chart["hard"]["11"][6].code == "Dh"


# --- the brute force on tiny shoes --------------------------------------------------

SMALL = (1, 0, 0, 0, 0, 2, 3, 3, 3, 7)  # 19 cards: A, 6..9, T
ACES = (2, 0, 0, 2, 0, 2, 0, 3, 0, 8)  # 17 cards with a pair of aces
CASES = [
    (SMALL, dict(split_hands=2)),
    (SMALL, dict(split_hands=4, surrender="late")),
    (SMALL, dict(split_hands=2, hole_card="enhc")),
    (SMALL, dict(split_hands=2, hole_card="enhc", obo=True, surrender="early")),
    (SMALL, dict(split_hands=3, h17=True, das=False, double="10-11")),
    (ACES, dict(split_hands=4, rsa=True, hole_card="enhc")),
    (ACES, dict(split_hands=3, hit_split_aces=True, double_soft=False, surrender="early")),
]


def _two_card_hands(shoe):
    ranks = [r for r in RANKS if shoe[r - 1]]
    for upcard in ranks:
        for a, b in combinations_with_replacement(ranks, 2):
            needed = counts_of((a, b, upcard))
            if all(n <= c for n, c in zip(needed, shoe)) and {a, b} != {1, 10}:
                yield (a, b), upcard


@pytest.mark.parametrize("shoe, options", CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
                         if isinstance(o, dict) else "aces" if o == ACES else "small")
def test_every_move_of_every_hand_equals_the_brute_force(shoe, options):
    rules = GameRules(shoe=shoe, **options)
    reference = bf.BFRules(**options)
    for cards, upcard in _two_card_hands(shoe):
        moves = hand_moves(rules, cards, upcard)
        expected = bf.move_values(shoe, cards, upcard, reference)
        assert {m: fraction(v) for m, v in moves.values.items()} == expected, (cards, upcard)


@pytest.mark.parametrize("options", [dict(split_hands=2), dict(split_hands=4, surrender="late", hole_card="peek"),
                                     dict(split_hands=2, hole_card="enhc")],
                         ids=["split once", "split to 4, late surrender", "enhc"])
def test_round_value_equals_the_brute_force(options):
    shoe = (1, 0, 0, 0, 0, 2, 3, 3, 3, 7)
    solution = solve_game(GameRules(shoe=shoe, **options), with_distribution=False)
    assert fraction(solution.ev) == bf.round_value(shoe, bf.BFRules(**options))


def test_round_distribution_without_splits_equals_the_brute_force():
    shoe = (1, 0, 0, 0, 0, 2, 3, 3, 3, 7)
    options = dict(split_hands=1, surrender="late")
    solution = solve_game(GameRules(shoe=shoe, **options))
    expected = bf.round_distribution(shoe, bf.BFRules(**options))
    assert {fraction(r): fraction(p) for r, p in solution.distribution.items()} == expected


SPLIT_CASES = [*CASES, (ACES, dict(split_hands=4, das=False))]


@pytest.mark.parametrize("shoe, options", SPLIT_CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
                         if isinstance(o, dict) else "aces" if o == ACES else "small")
def test_round_distribution_with_splits_equals_the_brute_force(shoe, options):
    """Finite shoes where pairs are split: the split hands share the cards and the dealer's outcome;
    the brute force plays every card in real order."""
    solution = solve_game(GameRules(shoe=shoe, **options), split_lines=True, progress=False)
    assert any(moves.best == "split" for moves in solution.hands.values())
    expected = bf.round_distribution(shoe, bf.BFRules(**options))
    assert {fraction(r): fraction(p) for r, p in solution.distribution.items()} == expected
    assert sum(solution.distribution.values()) == 1
    assert sum(r * p for r, p in solution.distribution.items()) == solution.ev


def test_one_deck_split_once_distribution_is_exact_and_consistent():
    solution = solve_game(GameRules(decks=1, split_hands=2), split_lines=True, progress=False)
    distribution = solution.distribution
    assert sum(distribution.values()) == 1
    assert sum(r * p for r, p in distribution.items()) == solution.ev
    assert min(distribution) == -4 and max(distribution) == 4  # two hands, each doubled at most
    assert solution.distribution_missing == ""


def test_split_lines_are_followed_on_request_only():
    shoe, options = SPLIT_CASES[0]
    solution = solve_game(GameRules(shoe=shoe, **options), progress=False)
    assert solution.distribution is None and "bjexact edge --distribution" in solution.distribution_missing
    followed = solve_game(GameRules(shoe=shoe, **options), split_lines=True, progress=False)
    assert followed.distribution is not None and followed.ev == solution.ev
    # without splitting, or on the infinite deck, the distribution needs no lines followed
    assert solve_game(GameRules(shoe=shoe, split_hands=1), progress=False).distribution is not None
    assert solve_game(GameRules(decks="inf", split_hands=2), progress=False).distribution is not None


def test_the_distribution_is_given_up_beyond_the_work_limit(monkeypatch):
    import bjexact.player.game as game

    monkeypatch.setattr(game, "SPLIT_WORK_LIMIT", 1000)
    solution = solve_game(GameRules(decks=1, split_hands=2), split_lines=True, progress=False)
    assert solution.distribution is None and solution.variance is None
    assert "1,000 combinations" in solution.distribution_missing
    assert solution.ev == solve_game(GameRules(decks=1, split_hands=2), with_distribution=False).ev


# --- properties ------------------------------------------------------------------

@pytest.mark.parametrize("options", [dict(), dict(hole_card="enhc"), dict(h17=True, surrender="late", rsa=True),
                                     dict(hole_card="enhc", obo=True, surrender="early", das=False)])
def test_infinite_deck_distribution_sums_to_one_and_its_mean_is_the_value(options):
    solution = solve_game(GameRules(decks="inf", **options))
    distribution = solution.distribution
    assert sum(distribution.values()) == 1
    assert sum(r * p for r, p in distribution.items()) == solution.ev
    assert min(distribution) >= -8 and max(distribution) <= 8
    assert 1 < solution.variance < 1.5


def test_infinite_deck_split_is_twice_one_split_hand():
    """No resplits: a split is worth twice one hand holding the pair card and a random
    second card, played by the unsplit hand's best allowed move (CDZ-)."""
    rules = GameRules(decks="inf", split_hands=2)
    p = [Fraction(1, 13)] * 9 + [Fraction(4, 13)]
    for pair in range(2, 11):
        for upcard in (2, 6, 10, 1):
            one_hand = Fraction(0)
            for x in RANKS:
                cards = (pair, x)
                if sorted(cards) == [1, 10]:  # a split 21: stands
                    moves = {"stand": hand_moves(rules, (10, 5, 6), upcard).w["stand"]}
                else:
                    moves = hand_moves(rules, cards, upcard).w
                allowed = {m: v for m, v in moves.items() if m in ("stand", "hit", "double")}
                one_hand += p[x - 1] * fraction(max(allowed.values()))
            split = hand_moves(rules, (pair, pair), upcard).w["split"]
            assert fraction(split) == 2 * one_hand, (pair, upcard)


class _Simulator:
    """Deals random infinite-deck rounds and settles them, independently of the engine: only the
    player's moves come from the solution (they are the strategy whose results are counted)."""

    def __init__(self, rules: GameRules):
        self.rules = rules
        self.solution = solve_game(rules, with_distribution=False)
        self._hits: dict = {}

    @staticmethod
    def card(rng: random.Random) -> int:
        return min(rng.randrange(13) + 1, 10)

    @staticmethod
    def total(cards) -> int:
        hard = sum(cards)
        return hard + 10 if 1 in cards and hard + 10 <= 21 else hard

    def keeps_hitting(self, cards, upcard) -> bool:
        key = (self.total(cards), 1 in cards and sum(cards) + 10 <= 21, upcard)
        if key not in self._hits:
            moves = hand_moves(self.rules, cards, upcard)
            self._hits[key] = moves.best == "hit"
        return self._hits[key]

    def play_out(self, cards, upcard, rng, stake):
        while self.total(cards) < 21 and self.keeps_hitting(cards, upcard):
            cards = cards + [self.card(rng)]
        return self.total(cards), stake

    def split_hand(self, pair, upcard, rng):
        cards = [pair, self.card(rng)]
        if pair == 1 or self.total(cards) == 21:
            return self.total(cards), 1
        moves = self.solution.hands[(min(cards), max(cards), upcard)].w
        allowed = {m: v for m, v in moves.items() if m in ("stand", "hit", "double")}
        move = max(allowed, key=lambda m: (allowed[m], -("stand", "hit", "double").index(m)))
        if move == "double":
            return self.total(cards + [self.card(rng)]), 2
        return self.play_out(cards, upcard, rng, 1) if move == "hit" else (self.total(cards), 1)

    def round(self, rng) -> Fraction:
        player = [self.card(rng), self.card(rng)]
        upcard = self.card(rng)
        hole = self.card(rng)
        dealer_natural = self.total([upcard, hole]) == 21
        if self.total(player) == 21:
            return Fraction(0) if dealer_natural else Fraction(3, 2)
        if dealer_natural:  # the dealer peeks
            return Fraction(-1)
        best = self.solution.hands[(min(player), max(player), upcard)].best
        if best == "split":
            hands = [self.split_hand(player[0], upcard, rng) for _ in range(2)]
        elif best == "double":
            hands = [(self.total(player + [self.card(rng)]), 2)]
        elif best == "hit":
            hands = [self.play_out(player, upcard, rng, 1)]
        else:
            hands = [(self.total(player), 1)]
        dealer = [upcard, hole]
        while self.total(dealer) < 17:
            dealer.append(self.card(rng))
        dealer_total = self.total(dealer)
        result = 0
        for total, stake in hands:
            if total > 21:
                result -= stake
            elif dealer_total > 21 or total > dealer_total:
                result += stake
            elif total < dealer_total:
                result -= stake
        return Fraction(result)


def test_infinite_deck_distribution_matches_a_simulation():
    """Chi-square of simulated net results against the exact distribution (99.9 % level)."""
    rules = GameRules(decks="inf", split_hands=2)
    distribution = {fraction(r): fraction(p) for r, p in solve_game(rules).distribution.items()}
    simulator = _Simulator(rules)
    rng = random.Random(20261123)
    rounds = 40000
    counts: dict[Fraction, int] = {}
    for _ in range(rounds):
        result = simulator.round(rng)
        counts[result] = counts.get(result, 0) + 1
    assert set(counts) <= set(distribution)
    groups = [r for r in distribution if distribution[r] * rounds >= 5]
    rest = [r for r in distribution if r not in groups]
    chi2 = sum((counts.get(r, 0) - rounds * distribution[r]) ** 2 / (rounds * distribution[r]) for r in groups)
    expected_rest = rounds * sum(distribution[r] for r in rest)
    observed_rest = sum(counts.get(r, 0) for r in rest)
    if expected_rest:
        chi2 += (observed_rest - expected_rest) ** 2 / expected_rest
    assert float(chi2) < 32.9  # chi-square 99.9 % point, 11 degrees of freedom (12 groups)
    assert len(groups) <= 12


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from(RANKS), min_size=2, max_size=6), st.sampled_from(RANKS), st.booleans())
def test_batched_dealer_equals_the_dealer_graph(cards, upcard, h17):
    shoe = (8,) * 9 + (32,)
    removed = counts_of(cards)
    got = DealerOracle(shoe, h17).distributions([removed], upcard)[0]
    rules = Rules(shoe=shoe, h17=h17, naturals="separate")
    expected = dealer_distributions(rules, removed, [upcard])[upcard]
    assert list(got) == [expected[o] for o in OUTCOMES]


def test_batched_dealer_with_hidden_cards_averages_over_them():
    """j unseen cards known not to be of the pair's rank: the average of the plain distributions."""
    shoe = (8,) * 9 + (32,)
    pair, removed = 8, counts_of((8, 8, 3))
    oracle = DealerOracle(shoe, True)
    rules = Rules(shoe=shoe, h17=True, naturals="separate")
    for upcard in (1, 8, 10):
        left = [c - r for c, r in zip(shoe, removed)]
        left[upcard - 1] -= 1
        for j in (1, 2):
            average = [Fraction(0)] * len(OUTCOMES)

            def walk(hidden, chance, left, j=j, upcard=upcard, average=average):
                if len(hidden) == j:
                    row = dealer_distributions(rules, add_counts(removed, counts_of(hidden)), [upcard])[upcard]
                    for i, o in enumerate(OUTCOMES):
                        average[i] += chance * fraction(row[o])
                    return
                others = sum(n for r, n in zip(RANKS, left) if r != pair)
                for r in RANKS:
                    if r != pair and left[r - 1]:
                        rest = list(left)
                        rest[r - 1] -= 1
                        walk(hidden + [r], chance * Fraction(left[r - 1], others), rest)

            walk([], Fraction(1), left)
            got = oracle.distributions([removed], upcard, (pair, j))[0]
            assert [fraction(g) for g in got] == average


def test_insurance_is_worth_three_tens_less_one_over_two():
    rules = GameRules(decks=1)
    # one deck, player T,T, ace up: 14 tens among 49 unseen cards
    assert fraction(insurance_value(rules, ["T", "T"])) == (3 * Fraction(14, 49) - 1) / 2
    assert insurance_value(GameRules(decks="inf"), [5, 6]) == (3 * mpq(4, 13) - 1) / 2


# --- rules and errors -------------------------------------------------------------

@pytest.mark.parametrize("options, message", [
    (dict(obo=True), "--obo"),
    (dict(rsa=True, split_hands=2), "--rsa"),
    (dict(surrender="late", hole_card="enhc"), "late surrender"),
    (dict(double="9-10"), "--double"),
    (dict(split_hands=9), "--split-hands"),  # up to 8 hands, as simulators offer
    (dict(split_hands=0), "--split-hands"),
    (dict(charlie=2), "--charlie"),
    (dict(double="none", double_after_hit=True), "--double-after-hit"),
])
def test_contradictory_rules_are_refused(options, message):
    with pytest.raises(BjexactError, match=message):
        GameRules(decks=6, **options)


def test_a_natural_has_no_moves():
    with pytest.raises(BjexactError, match="natural"):
        hand_moves(GameRules(decks=6), ["A", "K"], 5)


def test_rules_json_round_trip():
    rules = GameRules(decks=6, h17=True, bj_pays="6/5", surrender="early", hole_card="enhc", obo=True)
    document = rules.to_json()
    assert document["bj_pays"] == "6/5" and document["decks"] == 6 and document["obo"] is True
    options = {k: v for k, v in document.items() if k not in ("decks", "shoe")}
    assert GameRules(decks=document["decks"], **options) == rules


SPLIT_CASES = [
    (SMALL, dict(split_hands=2)),
    (SMALL, dict(split_hands=3, das=False, h17=True)),
    (SMALL, dict(split_hands=4, surrender="late")),
    (ACES, dict(split_hands=4, rsa=True, hit_split_aces=True, hole_card="enhc")),
    (ACES, dict(split_hands=3, rsa=True)),
]


@pytest.mark.parametrize("strategy", ["cdp1", "cdp"])
@pytest.mark.parametrize("shoe, options", SPLIT_CASES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items())
                         if isinstance(o, dict) else "aces" if o == ACES else "small")
def test_post_split_strategies_split_values_equal_the_brute_force(shoe, options, strategy):
    """CDP1 and CDP against the brute force, which plays each split hand in the real order, by the
    unsplit values of its cards with 1 (CDP1) or as many pair cards as there are other split hands
    on the table (CDP) gone too."""
    rules = GameRules(shoe=shoe, split_strategy=strategy, **options)
    reference = bf.BFRules(split_strategy=strategy, **options)
    pairs = [(cards, upcard) for cards, upcard in _two_card_hands(shoe) if cards[0] == cards[1]]
    assert pairs
    for cards, upcard in pairs:
        expected = bf.move_values(shoe, cards, upcard, reference)["split"]
        assert fraction(hand_moves(rules, cards, upcard).values["split"]) == expected, (cards, upcard)


def test_cdp_differs_from_cdp1_only_with_resplits():
    """7,7 v 9 in SMALL: with resplits CDP plays a split hand by the pair cards actually on the
    table and is worth more than CDP1 (brute force, independently: -1.0028159..., -1.0054487...);
    splitting once both take the one other pair card as gone, so they are the same strategy."""
    def split(strategy, hands):
        rules = GameRules(shoe=SMALL, split_hands=hands, split_strategy=strategy)
        return fraction(hand_moves(rules, [7, 7], 9).values["split"])

    assert split("cdp", 4) == bf.move_values(SMALL, (7, 7), 9, bf.BFRules(split_strategy="cdp"))["split"]
    assert split("cdp", 4) > split("cdp1", 4) == split("cdz", 4)
    assert split("cdp", 2) == split("cdp1", 2) > split("cdz", 2)


@pytest.mark.parametrize("options", [dict(split_hands=4), dict(split_hands=3, das=False, hole_card="enhc")],
                         ids=["split to 4", "split to 3, no DAS, enhc"])
def test_cdp_round_value_equals_the_brute_force(options):
    rules = GameRules(shoe=SMALL, split_strategy="cdp", **options)
    solution = solve_game(rules, with_distribution=False)
    assert fraction(solution.ev) == bf.round_value(SMALL, bf.BFRules(split_strategy="cdp", **options))


def test_six_decks_cdp_split_once_is_the_published_cdp1_edge():
    # 6 decks, S17, DAS, split once: CDP plays exactly as CDP1 (published -0.456884645 %)
    solution = solve_game(GameRules(decks=6, split_hands=2, split_strategy="cdp"), with_distribution=False)
    assert percent(solution.ev, 9) == "-0.456884645"


def test_infinite_deck_split_strategies_are_one():
    """On the infinite deck removed cards change nothing, so the three strategies are one (resplits too)."""
    values = {s: solve_game(GameRules(decks="inf", split_strategy=s), with_distribution=False).ev
              for s in ("cdz", "cdp1", "cdp")}
    assert values["cdz"] == values["cdp1"] == values["cdp"]


@pytest.mark.parametrize("shoe", [SMALL, ACES])
def test_split_once_cdp_is_cdp1_and_never_worth_less_than_cdz(shoe):
    """Split once, CDP1 plays each split hand as the first split hand's optimum, which no other
    strategy of the hand's own cards beats; CDP is then the same strategy; on the infinite deck
    the three are the same."""
    cdz = solve_game(GameRules(shoe=shoe, split_hands=2), with_distribution=False)
    cdp1 = solve_game(GameRules(shoe=shoe, split_hands=2, split_strategy="cdp1"), with_distribution=False)
    cdp = solve_game(GameRules(shoe=shoe, split_hands=2, split_strategy="cdp"), with_distribution=False)
    splits = [key for key, moves in cdz.hands.items() if "split" in moves.w]
    assert splits
    assert all(cdp1.hands[key].w["split"] >= cdz.hands[key].w["split"] for key in splits)
    assert all(cdp.hands[key].w == cdp1.hands[key].w for key in splits)
    assert cdp.ev == cdp1.ev >= cdz.ev
    infinite = [solve_game(GameRules(decks="inf", split_hands=2, split_strategy=s), with_distribution=False).ev
                for s in ("cdz", "cdp1")]
    assert infinite[0] == infinite[1]


# --- doubling split aces: a rule of its own --------------------------------------------------------

DOUBLE_ACES_SHOE = (2, 0, 0, 2, 0, 2, 0, 3, 0, 8)  # 17 cards: two aces, 4s, 6s, 8s, tens


@pytest.mark.parametrize("upcard, without, with_", [
    (6, Fraction(4897, 3003), Fraction(6290, 3003)),
    (4, Fraction(4733, 3003), Fraction(5770, 3003)),
    (10, Fraction(1019, 1365), Fraction(1019, 1365)),
])
def test_split_aces_double_only_with_double_split_aces(upcard, without, with_):
    """A,A on a tiny shoe, split once, split aces hit: by default a split ace may not double (A,4
    v 6 would), with ``double_split_aces`` it may; both equal the brute force."""
    for allowed, value in ((False, without), (True, with_)):
        rules = GameRules(shoe=DOUBLE_ACES_SHOE, split_hands=2, hit_split_aces=True, double_split_aces=allowed)
        split = fraction(hand_moves(rules, ["A", "A"], upcard).values["split"])
        reference = bf.BFRules(split_hands=2, hit_split_aces=True, double_split_aces=allowed)
        assert split == value == bf.move_values(DOUBLE_ACES_SHOE, (1, 1), upcard, reference)["split"]


def test_double_split_aces_is_off_by_default_and_needs_hit_split_aces_and_das():
    from bjexact.core.hand import hand_value

    soft_15 = hand_value([1, 4])
    assert not GameRules(hit_split_aces=True).may_double(soft_15, split_pair=1)
    assert GameRules(hit_split_aces=True).may_double(soft_15, split_pair=4)
    assert GameRules(hit_split_aces=True, double_split_aces=True).may_double(soft_15, split_pair=1)
    assert not GameRules(das=False).may_double(soft_15, split_pair=4) and GameRules(das=False).may_double(soft_15)
    for options in (dict(), dict(hit_split_aces=True, das=False)):
        with pytest.raises(BjexactError, match="--double-split-aces needs --hit-split-aces"):
            GameRules(double_split_aces=True, **options)
    assert "double_split_aces" not in GameRules().to_json()  # the JSON of earlier rule sets is unchanged
    rules = GameRules(hit_split_aces=True, double_split_aces=True)
    assert rules.to_json()["double_split_aces"] is True and GameRules.from_json(rules.to_json()) == rules
    assert "double split aces" in rules.describe()


def test_double_split_aces_on_the_command_line(capsys):
    from bjexact.cli import main

    with pytest.raises(SystemExit):
        main(["edge", "--help"])
    assert "--double-split-aces" in capsys.readouterr().out
    assert main(["edge", "--decks", "1", "--double-split-aces"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--hit-split-aces" in err
    argv = ["hand", "A", "A", "--upcard", "6", "--shoe", ",".join(map(str, DOUBLE_ACES_SHOE)), "--split-hands", "2",
            "--hit-split-aces", "--format", "json"]
    values = []
    for extra in ([], ["--double-split-aces"]):
        assert main(argv + extra) == 0
        document = json.loads(capsys.readouterr().out)
        values.append(document["moves"]["split"])
    assert values == ["4897/3003", "6290/3003"]


# --- the hit/stand game is a rule set of the full game ---------------------------------------------


@pytest.mark.parametrize("decks", ["inf", 1])
def test_no_doubling_and_no_splitting_is_the_hit_stand_game(decks):
    """``double="none"``, ``split_hands=1``: the full game's value from the deal is the hit/stand
    game's, exactly, under peek (naturals ``peek``), under ENHC (naturals ``separate``) and with
    naturals as plain 21s (``as21``: the player's A,T is a soft 21 that may hit): two solvers, one value."""
    from bjexact import Rules, solve

    for options, naturals in (({"hole_card": "peek"}, "peek"), ({"hole_card": "enhc"}, "separate"),
                              ({"plain_naturals": True}, "as21")):
        rules = GameRules(decks=decks, double="none", split_hands=1, **options)
        assert Rules(decks=decks, naturals=naturals).game_rules() == rules
        game = solve_game(rules, progress=False)
        assert game.ev == solve(Rules(decks=decks, naturals=naturals)).game.value
        # the hit/stand solver takes the one rule set too: as the Rules it reads (solve is a function of them)
        assert Rules.hit_stand(rules) == Rules(decks=decks, naturals=naturals)
        assert all(set(h.values) <= {"stand", "hit"} for h in game.hands.values())
        assert sum(game.distribution.values()) == 1
        assert sum(r * p for r, p in game.distribution.items()) == game.ev
        assert ((ACE, TEN, 6) in game.hands) == (naturals == "as21")  # a plain natural is played
    with pytest.raises(BjexactError, match="hit/stand game's convention"):
        GameRules(decks=decks, plain_naturals=True)  # doubling and splitting with plain naturals: not a rule set


def test_the_hit_stand_rules_are_a_view_of_the_one_rule_set():
    """``Rules`` checks nothing itself: its rule set is a ``GameRules`` (the hit/stand game), whose
    naturals convention, shoe and dealer rule it shows; every ``GameRules`` has such a view."""
    from bjexact import Rules

    for naturals, hole_card, plain in (("as21", "peek", True), ("peek", "peek", False), ("separate", "enhc", False)):
        rules = Rules(decks="6", h17=True, naturals=naturals, bj_pays="6:5")
        assert rules.game == GameRules(decks=6, h17=True, bj_pays=mpq(6, 5), double="none", split_hands=1,
                                       hole_card=hole_card, plain_naturals=plain)
        assert rules.decks == 6 and rules.bj_pays == mpq(6, 5) and rules.game.naturals == naturals
        assert Rules.of(rules.game) == rules == Rules.hit_stand(rules.game)
    # the full game's own rules view as its dealer and hit/stand game
    assert Rules.of(GameRules(shoe=(4,) * 9 + (16,), hole_card="enhc", surrender="early", split_hands=2)) == \
        Rules(shoe=(4,) * 9 + (16,), naturals="separate")
    for bad, words in ((GameRules(), "no doubling"), (GameRules(double="none"), "no splitting"),
                       (GameRules(double="none", split_hands=1, surrender="late"), "no surrender"),
                       (GameRules(double="none", split_hands=1, charlie=5), "no Charlie")):
        with pytest.raises(BjexactError, match=words):
            Rules.hit_stand(bad)
    # one validation: the errors of the rule set
    with pytest.raises(BjexactError, match="not both"):
        Rules(decks=2, shoe=(4,) * 9 + (16,))
    with pytest.raises(BjexactError, match="h17 must be True or False"):
        Rules(h17="yes")
    with pytest.raises(BjexactError, match="plain 21"):
        GameRules(plain_naturals=True, hole_card="enhc")
    # a rule added later: in the JSON only when set, and read back
    assert "plain_naturals" not in GameRules().to_json()
    document = GameRules(decks="inf", double="none", split_hands=1, plain_naturals=True).to_json()
    assert document["plain_naturals"] is True and GameRules.from_json(document).plain_naturals
    assert GameRules.from_json(document).describe().endswith("naturals as plain 21s, CDZ-")


def test_the_hit_stand_entry_points_take_the_one_rule_set():
    """``hand_decision`` and ``solve`` value a hit/stand ``GameRules`` as its ``Rules`` view, on finite
    shoes too, and settle a two-card 21 by the one settlement: plain under as21."""
    from bjexact import Rules, hand_decision, solve

    game = GameRules(decks=1, double="none", split_hands=1, hole_card="enhc")
    assert hand_decision(game, (10, 6), 10) == hand_decision(Rules(decks=1, naturals="separate"), (10, 6), 10)
    assert solve(replace(game, decks="inf", hole_card="peek", plain_naturals=True)).game.value == \
        solve(Rules(decks="inf")).game.value
    plain = Rules(decks=1).game
    assert plain.settle([1, 10], [10, 7]) == 1 and plain.settle([10, 9], [1, 10]) == -1
    assert GameRules().settle([1, 10], [10, 7]) == mpq(3, 2) and GameRules().settle([10, 9], [1, 10]) == -1
    assert plain.settle([1, 10], [1, 10]) == 0 == GameRules().settle([1, 10], [1, 10])
    assert plain.settle([10, 5, 6], [1, 10]) == 0 and GameRules().settle([10, 5, 6], [1, 10]) == -1


@pytest.mark.parametrize("naturals", ["as21", "peek", "separate"])
def test_one_hands_values_agree_between_the_hit_stand_solver_and_the_full_game(naturals):
    """``hand_decision`` (the hit/stand solver) and ``hand_moves`` (the full game's, on the same rule set)
    give each hand the same exact stand and hit values, conditioned alike, on the infinite deck and one deck;
    under as21 the player's A,T is a hand like any other."""
    from bjexact import Rules, hand_decision

    for decks in ("inf", 1):
        rules = Rules(decks=decks, naturals=naturals)
        hands = [((10, 6), 10), ((5, 6, 2), ACE), ((ACE, 7), 9), ((9, 2, ACE, 3), 6)]
        for cards, upcard in hands + ([((ACE, TEN), 6)] if naturals == "as21" else []):
            decision, moves = hand_decision(rules, cards, upcard), hand_moves(rules.game, list(cards), upcard)
            assert (decision.stand, decision.hit, decision.best) == (moves.values["stand"], moves.values["hit"],
                                                                     moves.best)
