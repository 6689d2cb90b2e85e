"""Rules real simulators offer: doubling after hitting, more than four split hands, N-card Charlie,
and no doubling at all.

The solver's exact values are compared with the independent brute force of
tests/fullgame_bruteforce.py (which shares no solver code) on tiny shoes and the infinite deck;
properties that must hold whatever the shoe; the rules' validation, JSON and options; and
``check-sim --game`` with each rule against the reference round simulator.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import fullgame_bruteforce as bf
import pytest
from clirun import run

from bjexact.checks.rounds import check_round_simulator, round_simulator
from bjexact.core.rules import GameRules
from bjexact.errors import BjexactError
from bjexact.player.game import engine_covers, hand_moves, solve_game

SHOES = [(2, 1, 1, 1, 1, 1, 1, 1, 1, 4), (1, 2, 2, 2, 0, 0, 0, 0, 1, 5), (2, 0, 3, 0, 2, 0, 0, 2, 0, 6)]
RESPLIT_SHOE = (1, 0, 0, 0, 0, 2, 3, 3, 3, 7)  # 19 cards: 7,7 and 8,8 resplit
HALF_DECK = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)
# 17 cards, two aces and two deuces: a hand of seven cards (A,A,2,2,3,4,5) is dealt, so every Charlie of
# five to seven cards is reached, as on the half deck, at a third of the half deck's solve
SEVEN_CARD_SHOE = (2, 2, 1, 1, 1, 1, 1, 1, 1, 4)
RULE_SETS = [
    dict(split_hands=2, charlie=4),
    dict(split_hands=2, double_after_hit=True),
    dict(split_hands=2, charlie=4, hole_card="enhc"),
    dict(split_hands=2, charlie=4, hole_card="enhc", obo=True, double_after_hit=True, double="9-11"),
    dict(split_hands=2, double_after_hit=True, das=False, h17=True, surrender="late"),
    dict(split_hands=1, double="none"),
]


def exact(value) -> Fraction:
    return Fraction(int(value.numerator), int(value.denominator))


def game_rules(shoe, options) -> GameRules:
    return GameRules(decks="inf", **options) if shoe == "inf" else GameRules(shoe=shoe, **options)


# --- the solver against the brute force ---------------------------------------------------


@pytest.mark.parametrize("shoe", SHOES)
@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_round_value_equals_the_brute_force(shoe, options):
    solution = solve_game(game_rules(shoe, options), with_distribution=False, engine=False)
    assert exact(solution.ev) == bf.round_value(shoe, bf.BFRules(**options))


@pytest.mark.parametrize("options", [
    dict(split_hands=3, charlie=5, double_after_hit=True),
    dict(split_hands=4, charlie=4, double_after_hit=True, split_strategy="cdp"),
    dict(split_hands=4, double_after_hit=True, split_strategy="cdp1", hit_split_aces=True, rsa=True),
])
def test_resplits_with_the_new_rules_equal_the_brute_force(options):
    solution = solve_game(GameRules(shoe=RESPLIT_SHOE, **options), with_distribution=False)
    assert exact(solution.ev) == bf.round_value(RESPLIT_SHOE, bf.BFRules(**options))


@pytest.mark.parametrize("shoe, split_hands", [((0, 0, 0, 0, 0, 0, 5, 0, 0, 10), 5),
                                               ((0, 0, 0, 0, 0, 0, 7, 0, 0, 12), 8),
                                               ((0, 0, 0, 0, 0, 0, 7, 0, 0, 12), 6)])
def test_more_than_four_split_hands_equal_the_brute_force(shoe, split_hands):
    """Sevens among tens: 7,7 splits to as many hands as the sevens allow, with the engine and without."""
    expected = bf.round_value(shoe, bf.BFRules(split_hands=split_hands))
    for engine in (True, False):
        solution = solve_game(GameRules(shoe=shoe, split_hands=split_hands), with_distribution=False, engine=engine)
        assert exact(solution.ev) == expected
    assert expected > bf.round_value(shoe, bf.BFRules(split_hands=4))


@pytest.mark.parametrize("shoe", ["inf", HALF_DECK, (1, 2, 2, 1, 1, 1, 0, 0, 1, 6)])
@pytest.mark.parametrize("cards, upcard", [((2, 3, 4), 10), ((2, 2, 3, 3), 6), ((1, 2, 5), 9), ((3, 4, 2), 1)])
def test_hands_of_three_or_more_cards_equal_the_brute_force(shoe, cards, upcard):
    """Every move of a hand after hitting, doubling included, with a Charlie of 5 (ENHC: dealer naturals too)."""
    for options in (dict(charlie=5, double_after_hit=True), dict(charlie=5, double_after_hit=True, hole_card="enhc"),
                    dict(double_after_hit=True, double="10-11")):
        expected = bf.move_values(shoe, cards, upcard, bf.BFRules(**options))
        assert ("double" in expected) == (options.get("double") != "10-11" or sum(cards) in (10, 11, 20, 21))
        moves = hand_moves(game_rules(shoe, options), list(cards), upcard)
        assert {m: exact(v) for m, v in moves.values.items()} == expected, options


@pytest.mark.parametrize("shoe", ["inf", RESPLIT_SHOE])
@pytest.mark.parametrize("pair, upcard", [(8, 10), (7, 9), (8, 6)])
def test_splits_with_a_charlie_and_doubling_after_hitting_equal_the_brute_force(shoe, pair, upcard):
    for options in (dict(split_hands=2, charlie=5, double_after_hit=True),
                    dict(split_hands=2, charlie=4, double_after_hit=True, split_strategy="cdp1", hole_card="enhc")):
        expected = bf.move_values(shoe, (pair, pair), upcard, bf.BFRules(**options))
        moves = hand_moves(game_rules(shoe, options), [pair, pair], upcard)
        assert {m: exact(v) for m, v in moves.values.items()} == expected, options


@pytest.mark.parametrize("shoe, options", [
    ("inf", dict(split_hands=1, charlie=5, double_after_hit=True)),
    ("inf", dict(split_hands=1, charlie=5, hole_card="enhc")),
    (SHOES[0], dict(split_hands=1, charlie=4, double_after_hit=True)),
    (SHOES[1], dict(split_hands=1, charlie=4, hole_card="enhc", obo=True)),
])
def test_the_distribution_of_the_net_result_equals_the_brute_force(shoe, options):
    solution = solve_game(game_rules(shoe, options))
    distribution = {exact(r): exact(p) for r, p in solution.distribution.items()}
    assert distribution == bf.round_distribution(shoe, bf.BFRules(**options))


def test_the_infinite_decks_split_distribution_covers_the_new_rules():
    """Split once on the infinite deck (the brute force plays the hands jointly against one dealer):
    the distribution is exact; a finite shoe's split hands say in one line that it is not computed."""
    options = dict(split_hands=2, charlie=4, hole_card="enhc")
    solution = solve_game(GameRules(decks="inf", **options))
    distribution = {exact(r): exact(p) for r, p in solution.distribution.items()}
    assert distribution == bf.round_distribution("inf", bf.BFRules(**options))
    assert solution.variance is not None and max(distribution) == 4  # two doubled hands won
    eight = solve_game(GameRules(decks="inf", split_hands=8, double_after_hit=True))
    assert max(eight.distribution) == 16 and sum(eight.distribution.values()) == 1
    assert sum(r * p for r, p in eight.distribution.items()) == eight.ev
    finite = solve_game(GameRules(shoe=SHOES[0], split_hands=2, charlie=4), split_lines=True)
    assert finite.distribution is None
    assert finite.distribution_missing == ("on a finite shoe the split hands' lines are not followed with doubling "
                                           "after hitting, a Charlie or eight split hands")


# --- properties ---------------------------------------------------------------------------


@pytest.mark.parametrize("shoe", ["inf", SEVEN_CARD_SHOE])
def test_a_charlie_raises_the_value_and_fewer_cards_raise_it_more(shoe):
    values = [solve_game(game_rules(shoe, dict(split_hands=2, charlie=c)), with_distribution=False).ev
              for c in (None, 7, 6, 5)]
    assert values == sorted(values) and len(set(values)) == 4


@pytest.mark.parametrize("shoe", ["inf", HALF_DECK])
def test_doubling_after_hitting_never_lowers_a_value(shoe):
    plain = solve_game(game_rules(shoe, dict(split_hands=2)), with_distribution=False)
    more = solve_game(game_rules(shoe, dict(split_hands=2, double_after_hit=True)), with_distribution=False)
    assert more.ev > plain.ev
    for key, moves in plain.hands.items():
        for move, value in moves.w.items():
            assert more.hands[key].w[move] >= value, (key, move)


def test_more_split_hands_never_lower_the_value_and_change_nothing_the_shoe_cannot_split():
    """The round's value (a pair's split value resplits whenever it may, which can cost: T,T)."""
    four = solve_game(GameRules(decks="inf", split_hands=4), with_distribution=False)
    eight = solve_game(GameRules(decks="inf", split_hands=8), with_distribution=False)
    assert eight.ev > four.ev
    assert all(eight.hands[(8, 8, u)].w["split"] > four.hands[(8, 8, u)].w["split"] for u in range(1, 11))
    # no rank can make a fifth hand, but aces, eights and tens make a fourth: three hands are worth less, four
    # and eight the same (19 cards: as strong as four of every rank, which took six times as long)
    at_most_four = (4, 1, 1, 1, 1, 1, 1, 4, 1, 4)
    values = [solve_game(GameRules(shoe=at_most_four, split_hands=n), with_distribution=False).ev for n in (3, 4, 8)]
    assert values[2] == values[1] != values[0]


def test_the_engine_is_kept_where_it_covers_the_rules():
    assert engine_covers(GameRules(decks=6, split_hands=8)) and engine_covers(GameRules(decks=6, charlie=5))
    assert not engine_covers(GameRules(double_after_hit=True))


def test_charlie_six_decks_against_the_published_rule_set():
    """6 decks, S17, DAS, split once, peek: five-card Charlie is worth 1.52 % of the bet here, within the
    1.4-1.6 % that rule-effect tables quote, and six-card Charlie a tenth of that."""
    base = solve_game(GameRules(decks=6, split_hands=2), with_distribution=False).ev
    five = solve_game(GameRules(decks=6, split_hands=2, charlie=5), with_distribution=False).ev
    six = solve_game(GameRules(decks=6, split_hands=2, charlie=6), with_distribution=False).ev
    assert 0.014 < float(five - base) < 0.016 and 0.001 < float(six - base) < 0.0025


# --- rules, JSON, options -----------------------------------------------------------------


@pytest.mark.parametrize("options, words", [
    (dict(charlie=3), "--charlie must be a number of cards from 4 to 10"),
    (dict(charlie=11), "--charlie must be"),
    (dict(charlie=True), "--charlie must be"),
    (dict(split_hands=9), "--split-hands must be 1 (no splitting) to 8, not 9"),
    (dict(split_hands=2.0), "--split-hands must be 1 (no splitting) to 8, not 2.0"),  # a float, though equal
    (dict(decks="inf", split_hands=2.0), "--split-hands must be"),
    (dict(charlie=5.0), "--charlie must be a number of cards from 4 to 10"),
    (dict(double="none", double_after_hit=True), "--double-after-hit (doubling a hand of three or more cards) needs"),
    (dict(double_after_hit=1), "double_after_hit must be True or False"),
])
def test_contradictions_are_refused_in_one_line(options, words):
    with pytest.raises(BjexactError) as error:
        GameRules(**options)
    assert words in str(error.value) and "\n" not in str(error.value)


def test_the_new_rules_round_trip_through_json_and_old_json_is_unchanged():
    rules = GameRules(decks=6, split_hands=8, rsa=True, double_after_hit=True, charlie=5)
    document = rules.to_json()
    assert document["charlie"] == 5 and document["double_after_hit"] is True
    assert GameRules.from_json(json.loads(json.dumps(document))) == rules
    assert "charlie" not in GameRules().to_json() and "double_after_hit" not in GameRules().to_json()
    assert rules.describe() == ("6 decks, S17, blackjack pays 3/2, double any two, DAS, split to 8 hands, RSA, "
                                "double after hitting, 5-card Charlie, peek, CDZ-")


def test_may_double_owns_doubling_after_hitting():
    from bjexact.core.hand import hand_value

    ten = hand_value([2, 3, 5])
    assert not GameRules().may_double(ten, cards=3)
    assert GameRules(double_after_hit=True).may_double(ten, cards=3)
    assert not GameRules(double_after_hit=True, double="9-11").may_double(hand_value([2, 3, 2, 5]), cards=4)
    assert not GameRules(double_after_hit=True, das=False).may_double(ten, split_pair=5, cards=3)


@pytest.mark.parametrize("argv, words", [
    (["edge", "--decks", "inf", "--charlie", "3"], "--charlie must be a number of cards from 4 to 10"),
    (["edge", "--decks", "inf", "--double", "none", "--double-after-hit"], "--double-after-hit"),
    (["edge", "--decks", "inf", "--split-hands", "9"], "--split-hands"),
    (["hand", "2", "3", "2", "4", "5", "--upcard", "T", "--decks", "inf", "--charlie", "5"], "Charlie: it has won"),
])
def test_bad_rules_on_the_command_line_exit_2_in_one_line(capsys, argv, words):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and words in err and err.count("\n") == 1


def test_a_three_card_hand_may_double_on_the_command_line(capsys):
    status, out, _ = run(capsys, "hand", "2", "3", "5", "--upcard", "6", "--decks", "inf", "--double-after-hit")
    assert status == 0
    moves = hand_moves(GameRules(decks="inf", double_after_hit=True), [2, 3, 5], 6)
    assert moves.best == "double" and "double" in out


# --- check-sim --game ---------------------------------------------------------------------


@pytest.mark.parametrize("options", [
    dict(double="none"), dict(double="none", split_hands=1), dict(charlie=5, split_hands=2),
    dict(double_after_hit=True, split_hands=2), dict(charlie=6, double_after_hit=True, hole_card="enhc"),
    dict(split_hands=5, rsa=True),  # more than four hands (eight: a third as fast, checked exactly elsewhere)
])
def test_the_reference_round_simulator_passes_with_each_rule(options):
    rules = GameRules(decks="inf", **options)
    check = check_round_simulator(round_simulator(rules), rules, rounds=20000, seed=3)
    assert check.passed


def test_a_charlie_paid_as_a_plain_hand_fails_and_the_faults_are_ranked_under_no_doubling():
    rules = GameRules(decks="inf", charlie=5, split_hands=2)
    check = check_round_simulator(round_simulator(GameRules(decks="inf", split_hands=2)), rules, rounds=40000, seed=4)
    assert not check.passed
    no_double = GameRules(decks="inf", double="none", split_hands=2, surrender="late")
    check = check_round_simulator(round_simulator(no_double, fault="surrender-as-loss"), no_double, rounds=100_000,
                                  seed=1)
    assert check.verdict == "fail" and check.causes[0].name == "surrender-as-loss"
    assert "das-refused" not in [c.name for c in check.causes]  # no doubling: no fault of doubling after a split


def test_check_sim_game_accepts_the_new_rules_and_no_doubling(capsys):
    """The command builds the rule sets of test_the_reference_round_simulator_passes_with_each_rule's first and
    fifth options (no doubling; a Charlie with doubling after hitting, ENHC), whose exact distributions and
    candidate faults this process has then computed already."""
    for extra in (["--double", "none"], ["--charlie", "6", "--double-after-hit", "--hole-card", "enhc"]):
        status, out, err = run(capsys, "check-sim", "bjexact.checks.rounds:exact_round_simulator", "--factory",
                               "--game", "--decks", "inf", "--rounds", "20000", "--seed", "1", *extra)
        assert status == 0, err
        assert "Verdict: PASS" in out


def test_the_brute_forces_own_simulation_agrees_with_its_distribution():
    rules = bf.BFRules(split_hands=2, charlie=4, double_after_hit=True)
    rng = random.Random(7)
    results = [bf.simulate_round(SHOES[0], rules, rng) for _ in range(3000)]
    assert set(results) <= set(bf.round_distribution(SHOES[0], rules))


def test_check_strategy_game_checks_the_rules_that_change_later_decisions(capsys):
    """A Charlie and doubling after hitting are checked, not refused (the exact disagreements:
    tests/test_check_strategy_rules.py): an engine that always hits fails with the rules in its report."""
    for extra, named in ((["--charlie", "4"], "4-card Charlie"), (["--double-after-hit"], "double after hitting")):
        status, out, err = run(capsys, "check-strategy", "tests/test_check_strategy.py:always_hit", "--game",
                               "--shoe", "1,1,1,1,1,1,1,1,1,4", "--split-hands", "2", *extra)
        assert status == 1 and not err, err
        assert named in out and "Verdict: FAIL" in out


@pytest.mark.parametrize("shoe", ["inf", HALF_DECK])
def test_the_das_codes_of_a_charlie_chart_come_from_charlie_values(shoe):
    """Ph/Pd: the pair is split only thanks to DAS, judged by the values without DAS under the same Charlie
    (on a finite shoe the integer engine, which knows no Charlie, must not be asked)."""
    rules = game_rules(shoe, dict(split_hands=2, charlie=4))
    pairs = solve_game(rules, with_distribution=False).chart(das_codes=True)["pairs"]
    coded = {(row, up): cell.code for row, cells in pairs.items() for up, cell in cells.items()
             if cell.code in ("Ph", "Pd")}
    assert coded  # a Charlie of four makes hitting 4,4 and 6,6 worth more than without it
    without = game_rules(shoe, dict(split_hands=2, charlie=4, das=False))
    for (row, up), code in coded.items():
        moves = hand_moves(without, [row, row], up)
        assert moves.best == {"Ph": "hit", "Pd": "double"}[code], (row, up)


def test_a_chart_played_under_a_charlie_and_doubling_after_hitting_passes():
    """The chart's rounds: a Charlie stops the hand; a hand of three or more cards doubles where the
    chart's row for its total says D."""
    from bjexact.checks.charts import chart_policy

    rules = GameRules(decks="inf", split_hands=2, surrender="late", charlie=5, double_after_hit=True)
    chart = chart_policy(Path(__file__).parent / "data" / "chart_inf_s17_das_ls.txt")
    check = check_round_simulator(round_simulator(rules, strategy=chart), rules, rounds=20000, seed=2, strategy=chart)
    assert check.passed


def test_a_chart_doubles_after_hitting_where_its_row_says_so():
    """On the infinite deck a hand's values depend on its total alone, so the chart of the optimal play,
    read by total for hands of any number of cards, plays exactly as well as the optimum: doubling a
    hand of three cards where its total's row says D, as the chart's two-card values assumed."""
    from bjexact.player.policy import ChartPolicy, evaluate_chart

    for split_hands in (2, 4):
        rules = GameRules(decks="inf", double_after_hit=True, split_hands=split_hands)
        optimal = solve_game(rules, with_distribution=False)
        played = evaluate_chart(rules, ChartPolicy.of_solution(optimal), with_distribution=False)
        assert played.ev == optimal.ev
    without = GameRules(decks="inf", split_hands=2)
    assert optimal.ev > solve_game(without, with_distribution=False).ev  # the rule is worth something


def test_reports_name_the_new_rules():
    from bjexact.render.report import rules_in_words

    assert rules_in_words(GameRules(decks=6, charlie=5, double_after_hit=True, split_hands=8)) == \
        "6 decks, S17, 3:2, peek, DAS, split to 8 hands, double after hitting, 5-card Charlie"


def test_faulty_rounds_are_ranked_under_the_new_rules():
    """The enumerated faulty rounds know a Charlie, doubling after hitting and resplits (their exactness, up
    to 8 hands: tests/test_round_causes.py): every candidate is ranked, none left out."""
    from bjexact.checks.rounds import fault_candidates

    # the rules of tests/test_round_causes.py's NEW_RULES: their candidates are computed once per process
    found, missing = fault_candidates(GameRules(decks="inf", split_hands=4, rsa=True, charlie=5,
                                                double_after_hit=True, h17=True))
    assert not missing
    assert {"split-hand-dropped", "split-21-as-settled", "dealer-hits-soft-18-21", "h17-for-s17",
            "dealer-stands-after-soft-17"} <= set(found)
