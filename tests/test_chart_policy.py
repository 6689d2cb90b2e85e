"""A fixed chart valued exactly over the whole round (bjexact.player.policy)."""

from __future__ import annotations

import random
import re
from itertools import combinations_with_replacement
from math import comb, prod

import chart_bruteforce as bf
import fullgame_bruteforce as fbf
import pytest
from brute_hand import value as brute_value
from clirun import run

from bjexact.core.numbers import mpq, parse_fraction
from bjexact.core.rules import GameRules
from bjexact.errors import BjexactError
from bjexact.player.game import solve_game
from bjexact.player.policy import POLICY_CODES, ChartPolicy, code_move, evaluate_chart, with_nearest_hard_rows

TINY = (2, 2, 0, 0, 2, 2, 0, 2, 0, 6)  # 16 cards: A A 2 2 5 5 6 6 8 8 and six tens
ALL = {"stand", "hit", "double", "split", "surrender"}
BASE = {"stand", "hit"}


def optimal_chart(**rules):
    return ChartPolicy.of_solution(solve_game(GameRules(decks="inf", **rules), with_distribution=False))


def test_codes_fall_back_as_printed():
    assert [code_move(c, ALL, das=True) for c in POLICY_CODES[:-1]] == [
        "hit", "stand", "double", "double", "double", "split", "split", "split",
        "surrender", "surrender", "surrender", "surrender"]
    assert [code_move(c, BASE, das=True) for c in POLICY_CODES[:-1]] == [
        "hit", "stand", "hit", "hit", "stand", "hit", "hit", "hit", "hit", "hit", "stand", "hit"]
    no_das = {"stand", "hit", "double", "split"}
    assert [code_move(c, no_das, das=False) for c in ("P", "Ph", "Pd", "Rp")] == ["split", "hit", "double", "split"]
    assert code_move("Pd", BASE | {"split"}, das=False) == "hit"
    with pytest.raises(BjexactError, match="not a chart code"):
        code_move("X", ALL, das=True)


@pytest.mark.parametrize("rules", [dict(split_hands=2), dict(split_hands=4, surrender="late", h17=True),
                                   dict(split_hands=3, das=False, hole_card="enhc")])
def test_the_engines_own_chart_on_the_infinite_deck_is_worth_at_most_the_optimum_and_close(rules):
    game = GameRules(decks="inf", **rules)
    optimal = solve_game(game)
    played = evaluate_chart(game, ChartPolicy.of_solution(optimal), progress=False)
    assert played.ev <= optimal.ev and optimal.ev - played.ev < mpq(1, 10**6)
    assert sum(played.distribution.values()) == 1
    assert sum(r * p for r, p in played.distribution.items()) == played.ev


def test_a_worse_chart_is_worth_less_exactly():
    game = GameRules(decks="inf", split_hands=2)
    chart = optimal_chart(split_hands=2)
    plain = {"D": "H", "Dh": "H", "Ds": "S"}
    never_double = ChartPolicy({k: plain.get(c, c) for k, c in chart.codes.items()})
    assert evaluate_chart(game, never_double).ev < evaluate_chart(game, chart).ev
    # hitting hard 12 v 4 instead of standing: the loss is that cell's alone
    changed = ChartPolicy(dict(chart.codes) | {("hard", "12", 4): "H"})
    assert evaluate_chart(game, changed).ev < evaluate_chart(game, chart).ev


def test_finite_shoes_the_chart_is_worth_less_than_composition_dependent_play():
    game = GameRules(decks=1, split_hands=1)
    optimal = solve_game(game, with_distribution=False)
    played = evaluate_chart(game, ChartPolicy.of_solution(optimal), progress=False)
    assert played.ev < optimal.ev and optimal.ev - played.ev < mpq(1, 1000)


BRUTE_RULES = [
    (dict(split_hands=3), dict(split_hands=3)),
    (dict(split_hands=3, surrender="late", h17=True, das=False),
     dict(split_hands=3, surrender=True, h17=True, das=False)),
    (dict(split_hands=2, hole_card="enhc"), dict(split_hands=2, hole_card="enhc")),
    (dict(split_hands=1), dict(split_hands=1)),
]


@pytest.mark.parametrize("rules, brute_rules", BRUTE_RULES)
def test_a_chart_on_a_tiny_shoe_is_valued_as_by_brute_force(rules, brute_rules):
    chart = optimal_chart(split_hands=4, surrender="late")
    exact = evaluate_chart(GameRules(shoe=TINY, **rules), chart, split_lines=True, progress=False)
    brute = bf.round_distribution(TINY, dict(chart.codes), bf.ChartRules(**brute_rules))
    assert exact.ev == sum(r * p for r, p in brute.items())
    if exact.distribution is not None:  # computed without splitting
        assert dict(exact.distribution) == {r: p for r, p in brute.items() if p}


def random_chart(seed):
    rng = random.Random(seed)
    totals = [("hard", str(t)) for t in range(4, 21)] + [("soft", str(t)) for t in range(12, 21)]
    pairs = [("pairs", s) for s in "23456789TA"]
    codes = {}
    for section, row in totals + pairs:
        for up in range(1, 11):
            options = POLICY_CODES if section == "pairs" else POLICY_CODES[:-1]
            codes[(section, row, up)] = rng.choice(options)
    return ChartPolicy(codes)


@pytest.mark.parametrize("seed, rules, brute_rules", [
    (1, dict(split_hands=3, surrender="late", das=False), dict(split_hands=3, surrender=True, das=False)),
    (2, dict(split_hands=3, surrender="late", rsa=True, hit_split_aces=True),
     dict(split_hands=3, surrender=True, rsa=True, hit_split_aces=True)),
])
def test_every_code_and_fallback_on_a_tiny_shoe_is_valued_as_by_brute_force(seed, rules, brute_rules):
    chart = random_chart(seed)
    exact = evaluate_chart(GameRules(shoe=TINY, **rules), chart, split_lines=True, progress=False)
    assert exact.ev == bf.round_value(TINY, dict(chart.codes), bf.ChartRules(**brute_rules))


def test_a_missing_cell_is_named():
    chart = ChartPolicy({k: c for k, c in optimal_chart(split_hands=2).codes.items() if k != ("hard", "16", 10)})
    with pytest.raises(BjexactError, match="no cell for hard 16 v T"):
        evaluate_chart(GameRules(decks="inf", split_hands=2), chart)
    with pytest.raises(BjexactError, match="not a chart cell"):
        ChartPolicy({("hard", "16", 10): "Q"})


# --- small shoes: totals that only hands of three or more cards make -------------------------------------------

SEVENTEEN = (1, 1, 1, 1, 1, 1, 1, 1, 1, 8)  # one A..9 each and eight tens: the 7 up, A,2,5 is soft 18


def test_the_chart_of_a_small_shoe_is_played_and_its_edge_is_the_brute_forces(capsys):
    status, out, err = run(capsys, "edge", "--shoe", ",".join(map(str, SEVENTEEN)), "--split-hands", "2",
                           "--strategy", "chart")
    assert status == 0, err
    assert "every hand played by the basic strategy chart" in out
    ev = parse_fraction(re.search(r"^  = (-?\d+/\d+) per unit initial bet$", out, re.M).group(1))
    assert re.search(r"^House edge: -7\.228719197%$", out, re.M)  # 694651/9609600: the player's edge
    chart = ChartPolicy.of_solution(solve_game(GameRules(shoe=SEVENTEEN, split_hands=2), with_distribution=False,
                                               progress=False))
    assert ev == bf.round_value(SEVENTEEN, dict(chart.codes), bf.ChartRules(split_hands=2)) == mpq(694651, 9609600)


def test_cells_only_longer_hands_make_are_the_best_move_for_those_hands_by_brute_force():
    solution = solve_game(GameRules(shoe=SEVENTEEN, split_hands=2), with_distribution=False, progress=False)
    chart = solution.chart(das_codes=True)
    two_card = with_nearest_hard_rows({(section, row, up): cell.code for section, rows in chart.items()
                                       for row, cells in rows.items() for up, cell in cells.items()}, range(4, 21))
    codes = ChartPolicy.of_solution(solution).codes
    assert {k: codes[k] for k in two_card} == two_card  # only cells added
    added = {k: c for k, c in codes.items() if k not in two_card}
    assert set(added) == {("hard", "18", 8), ("hard", "19", 9), ("hard", "20", 9), ("soft", "16", 5),
                          ("soft", "17", 6), ("soft", "18", 7), ("soft", "19", 8), ("soft", "20", 9)}
    for (section, row, up), code in added.items():
        assert up not in (1, 10)  # no peek: the brute force's values are unconditional
        left = list(SEVENTEEN)
        left[up - 1] -= 1
        hands = [h for h in combinations_with_replacement(range(1, 11), 3)
                 if all(h.count(r) <= left[r - 1] for r in h) and brute_value(h) == (int(row), section == "soft")]
        assert hands, (section, row, up)
        values = {"stand": mpq(0), "hit": mpq(0)}
        for hand in hands:  # weighted by the ways to be dealt the hand (its chance times a common factor)
            ways = prod(comb(left[r - 1], hand.count(r)) for r in set(hand))
            for move, value in fbf.move_values(SEVENTEEN, hand, up).items():
                values[move] += ways * value
        assert code == ("S" if values["stand"] >= values["hit"] else "H"), (section, row, up, values)


def _dealable_hands(left):
    """Every hand of two or more of the cards ``left`` (counts beside the up-card) that leaves a hole card."""
    def grow(rank, hand):
        if rank > 10:
            if 2 <= len(hand) < sum(left) and brute_value(hand)[0] <= 20:
                yield hand
            return
        for k in range(left[rank - 1] + 1):
            if sum(hand) + k * rank > 20:
                break
            yield from grow(rank + 1, hand + (rank,) * k)
    yield from grow(1, ())


@pytest.mark.parametrize("shoe", [SEVENTEEN, (1, 1, 1, 1, 1, 1, 1, 1, 1, 4), (1, 2, 0, 0, 4, 4, 0, 1, 0, 3),
                                  (0, 2, 1, 1, 2, 4, 1, 0, 2, 1), (1, 0, 1, 0, 5, 3, 0, 3, 2, 1)])
def test_every_total_a_small_shoe_deals_has_a_cell(shoe):
    """Each hand the shoe can hold against each up-card finds its cell (a pair its pair row, as a split hand
    that may not split again does where its total has none), so the chart plays every round; the full shoe's
    chart then plays any shoe it depletes to (counting)."""
    rules = GameRules(shoe=shoe, split_hands=2)
    chart = ChartPolicy.of_solution(solve_game(rules, with_distribution=False, progress=False))
    for up in range(1, 11):
        if not shoe[up - 1]:
            continue
        left = list(shoe)
        left[up - 1] -= 1
        for hand in _dealable_hands(left):
            total, soft = brute_value(hand)
            cell = ("soft" if soft else "hard", str(total), up)
            pair = ("pairs", bf.SYMBOLS.get(hand[0], str(hand[0])), up) if len(hand) == 2 and hand[0] == hand[1] \
                else None
            assert cell in chart.codes or pair in chart.codes, (hand, up)
    evaluate_chart(rules, chart, with_distribution=False, progress=False)  # no cell missing


def test_the_chart_of_a_small_shoe_is_valued_as_by_brute_force_and_reaches_only_its_cells():
    shoe = (1, 0, 1, 0, 5, 3, 0, 3, 2, 1)  # hard 12 v 3 only as 6,6 or A,5,6: a cell missing before
    rules = GameRules(shoe=shoe, split_hands=2)
    chart = ChartPolicy.of_solution(solve_game(rules, with_distribution=False, progress=False))
    exact = evaluate_chart(rules, chart, split_lines=True, progress=False)
    # the brute force reads its cells itself and fails on any cell it reaches that the chart has not
    assert exact.ev == bf.round_value(shoe, dict(chart.codes), bf.ChartRules(split_hands=2))
