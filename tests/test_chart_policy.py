"""A fixed chart valued exactly over the whole round (bjexact.player.policy)."""

from __future__ import annotations

import random

import chart_bruteforce as bf
import pytest

from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules
from bjexact.errors import BjexactError
from bjexact.player.game import solve_game
from bjexact.player.policy import POLICY_CODES, ChartPolicy, code_move, evaluate_chart

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
