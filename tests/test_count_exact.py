"""Index numbers and betting figures of a count from exact solves at given true counts."""

from __future__ import annotations

import itertools
import json
from functools import cache
from math import exp, floor, sqrt

import pytest
from clirun import run

from bjexact.core.cards import rank_symbol
from bjexact.core.numbers import fraction_string, mpq, parse_fraction
from bjexact.core.rules import GameRules
from bjexact.counting.betting import (
    bet_at,
    count_frequencies,
    griffin_figures,
    kelly_ramp,
    normal_gain,
    parse_ramp,
    ramp_figures,
    values_by_count,
    weighted_correlation,
)
from bjexact.counting.indices import (
    cell_changes,
    count_path,
    count_shoes,
    count_true_count,
    index_chart,
    index_task,
    insurance_value,
    neutral_remainder,
    shoe_tasks,
)
from bjexact.counting.simulation import CountSystem, load_system
from bjexact.errors import BjexactError

HI_LO = load_system("hi-lo")
SIX = (24,) * 9 + (96,)
SMALL = (3, 3, 3, 3, 3, 3, 3, 3, 3, 12)  # three quarters of a deck: quick to solve
SMALL_RULES = GameRules(shoe=SMALL, split_hands=1, surrender="late")


@pytest.fixture(scope="module")
def small_solves():
    """The Hi-Lo shoes of true counts -2 .. +2 of the whole small shoe, each solved exactly (once for the module)."""
    shoes = count_shoes(HI_LO, SMALL, 2, remaining=mpq(1))
    return shoes, [index_task(task) for task in shoe_tasks(SMALL_RULES, shoes)]


def test_the_path_follows_the_count_in_its_own_proportions():
    assert neutral_remainder(SIX, mpq(1, 2)) == (12,) * 9 + (48,)
    assert neutral_remainder((1, 2, 3, 0, 0, 0, 0, 0, 0, 5), mpq(1, 2)) == (1, 1, 1, 0, 0, 0, 0, 0, 0, 2)
    ten = count_path(HI_LO, SIX, mpq(1, 2), 10)  # five low cards out (one of each), five high cards back (4:1)
    assert ten == (13, 11, 11, 11, 11, 11, 12, 12, 12, 52)
    assert count_path(HI_LO, SIX, mpq(1, 2), -10) == (11, 13, 13, 13, 13, 13, 12, 12, 12, 44)
    for steps in range(1, 12):  # a step moves the running count of the cards dealt by one
        shoe = count_path(HI_LO, SIX, mpq(1, 2), steps)
        assert count_true_count(HI_LO, SIX, shoe) == mpq(steps * 52, sum(shoe))
    # an unbalanced count is read as its balanced equivalent: the neutral remainder is at 0
    ko = load_system("ko")
    assert count_true_count(ko, SIX, neutral_remainder(SIX, mpq(1, 2))) == 0
    shoes = count_shoes(HI_LO, SIX, 4)
    assert [s.target for s in shoes] == list(range(-4, 5))
    for s in shoes:  # the first shoe along the path to reach its target
        assert abs(s.true_count) >= abs(s.target) and s.true_count == count_true_count(HI_LO, SIX, s.shoe)
        if s.target:
            before = count_path(HI_LO, SIX, mpq(1, 2), s.steps - (1 if s.steps > 0 else -1))
            assert abs(count_true_count(HI_LO, SIX, before)) < abs(s.target)
    with pytest.raises(BjexactError, match="tags no card"):
        count_shoes(CountSystem("none", (0,) * 10), SIX, 3)


def test_a_change_is_found_where_the_better_move_flips():
    counts = [mpq(-2), mpq(-1), mpq(0), mpq(1), mpq(2)]
    values = [{"hit": mpq(0), "stand": mpq(x, 10)} for x in (-3, -2, -1, 1, 3)]
    basic, up, down = cell_changes(counts, values, 2)
    assert basic == "hit" and down is None
    assert (up.low, up.high, up.bracket, up.differences) == ("hit", "stand", (0, 1), (mpq(-1, 10), mpq(1, 10)))
    assert up.crossing == mpq(1, 2) and up.index == 1  # halves round up
    values = [{"hit": mpq(0), "stand": mpq(x, 10)} for x in (-3, -1, 1, 2, 3)]
    basic, up, down = cell_changes(counts, values, 2)
    assert basic == "stand" and up is None
    assert (down.low, down.high, down.bracket, down.crossing, down.index) == ("hit", "stand", (-1, 0), mpq(-1, 2), 0)


# --- an independent brute force: hit or stand on a hard total, on small shoes ---------------------


def _total(cards):
    total = sum(cards)
    return total + 10 if 1 in cards and total <= 11 else total


@cache
def _dealer(cards: tuple[int, ...], shoe: tuple[int, ...]) -> dict[int, mpq]:
    """The dealer's final total (22: bust) from ``cards`` (S17), drawing from ``shoe``."""
    total = _total(cards)
    if total >= 17:
        return {min(total, 22): mpq(1)}
    out: dict[int, mpq] = {}
    n = sum(shoe)
    for rank in range(1, 11):
        if shoe[rank - 1]:
            rest = tuple(c - (r == rank) for r, c in enumerate(shoe, 1))
            for final, p in _dealer(tuple(sorted(cards + (rank,))), rest).items():
                out[final] = out.get(final, 0) + p * mpq(shoe[rank - 1], n)
    return out


def _natural_hole(up: int) -> int | None:
    """The hole card that makes the dealer a natural (peek: the round never reaches a decision)."""
    return {10: 1, 1: 10}.get(up)


def _stand(player: tuple[int, ...], up: int, shoe: tuple[int, ...]) -> mpq:
    """E[payoff, no dealer natural] of standing against ``up``, the hole card among ``shoe``."""
    mine, value, n = _total(player), mpq(0), sum(shoe)
    for hole in range(1, 11):
        if shoe[hole - 1] and hole != _natural_hole(up):
            rest = tuple(c - (r == hole) for r, c in enumerate(shoe, 1))
            for final, p in _dealer(tuple(sorted((up, hole))), rest).items():
                value += mpq(shoe[hole - 1], n) * p * (1 if final == 22 or final < mine else -1 if final > mine else 0)
    return value


@cache
def _best(player: tuple[int, ...], up: int, shoe: tuple[int, ...]) -> mpq:
    return max(_stand(player, up, shoe), _hit(player, up, shoe))


@cache
def _hit(player: tuple[int, ...], up: int, shoe: tuple[int, ...]) -> mpq:
    value, n = mpq(0), sum(shoe)
    for rank in range(1, 11):
        if shoe[rank - 1] and n > 1:
            rest = tuple(c - (r == rank) for r, c in enumerate(shoe, 1))
            hand = tuple(sorted(player + (rank,)))
            hole = _natural_hole(up)  # busting loses the bet, unless the dealer had a natural
            no_natural = 1 - (mpq(rest[hole - 1], sum(rest)) if hole else 0)
            value += mpq(shoe[rank - 1], n) * (-no_natural if _total(hand) > 21 else _best(hand, up, rest))
    return value


def _brute_hard(total: int, up: int, shoe: tuple[int, ...]) -> mpq:
    """Stand minus hit, summed over the two-card hands of a hard total (two different cards, no ace)
    with their chances given the up-card."""
    left = [c - (r == up) for r, c in enumerate(shoe, 1)]
    n, difference = sum(left), mpq(0)
    for a in range(2, 10):
        b = total - a
        if a < b <= 10 and left[a - 1] and left[b - 1]:
            rest = tuple(c - (r in (a, b)) for r, c in enumerate(left, 1))
            chance = mpq(2 * left[a - 1] * left[b - 1], n * (n - 1))
            difference += chance * (_stand((a, b), up, rest) - _hit((a, b), up, rest))
    return difference


def test_indices_match_an_independent_brute_force(small_solves):
    shoes, results = small_solves
    chart = index_chart(HI_LO, SMALL_RULES, shoes, results)
    counts = [s.true_count for s in shoes]
    zero = [s.target for s in shoes].index(0)
    for total, up in ((12, 4), (16, 10)):
        brute = [_brute_hard(total, up, s.shoe) for s in shoes]
        for r, difference in zip(results, brute):
            cell = {m: parse_fraction(v) for m, v in r["cells"][f"hard {total} {rank_symbol(up)}"].items()}
            assert cell["stand"] - cell["hit"] == difference
        cell = chart.cell("hard", str(total), up)
        expected = cell_changes(counts, [{"hit": mpq(0), "stand": d} for d in brute], zero)
        assert (cell.basic, cell.up, cell.down) == expected
    assert chart.cell("hard", "12", 4).down is not None  # these shoes straddle 12 v 4's change
    # insurance: exact, from the tens left
    insurance = chart.cell("insurance", "A", 1)
    values = [insurance_value(s.shoe) for s in shoes]
    assert values == [(3 * mpq(s.shoe[9], sum(s.shoe) - 1) - 1) / 2 for s in shoes]
    assert insurance.basic == "no insurance" and insurance.down is None
    assert [v > 0 for v in values] == [insurance.up is not None and s.true_count >= insurance.up.bracket[1]
                                       for s in shoes]


def test_every_index_is_where_the_exact_difference_changes_sign(small_solves):
    shoes, results = small_solves
    chart = index_chart(HI_LO, SMALL_RULES, shoes, results)
    changes = 0
    for cell in chart.cells:
        if cell.section not in ("hard", "soft", "pairs"):
            continue
        key = f"{cell.section} {cell.row} {rank_symbol(cell.upcard)}"
        values = [{m: parse_fraction(v) for m, v in r["cells"][key].items() if m != "surrender"} for r in results]
        zero = [s.target for s in shoes].index(0)
        assert cell.basic == max(values[zero], key=lambda m: values[zero][m])
        for change in (cell.up, cell.down):
            if change is None:
                continue
            changes += 1
            lo, hi = (next(i for i, s in enumerate(shoes) if s.true_count == x) for x in change.bracket)
            assert hi == lo + 1
            difference = [v[change.high] - v[change.low] for v in values]
            assert difference[lo] <= 0 <= difference[hi] and difference[lo] != difference[hi]
            assert (difference[lo], difference[hi]) == change.differences
            assert change.bracket[0] <= change.crossing <= change.bracket[1]
            # on the basic move's side of the bracket, back to count 0, the basic move stays best
            between = range(hi, zero + 1) if change.high == cell.basic else range(zero, lo + 1)
            assert all(max(values[i], key=lambda m: values[i][m]) == cell.basic for i in between)
    assert changes >= 10
    published = {name: change for name, _, _, change in chart.published()}
    assert set(published) >= {"16 v T", "insurance", "surrender 15 v T"}


def test_index_command_serial_store_and_json(tmp_path, capsys):
    args = ["count", "indices", "--shoe", ",".join(map(str, SMALL)), "--split-hands", "1", "--span", "1",
            "--left", "1", "--store", str(tmp_path), "--quiet"]
    status, out, err = run(capsys, *args, "--serial")
    assert status == 0, err
    assert "Index numbers, hard total" in out and "Illustrious 18" in out and "16 v T" in out
    assert "3 solved on 1 worker(s) in " in out and "0 from the store" in out
    status, out, err = run(capsys, *args, "--serial", "--format", "md")
    assert status == 0 and "0 solved on 0 worker(s)" in out and "3 from the store" in out  # resumed from the store
    status, out, err = run(capsys, *args, "--serial", "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    assert [s["target"] for s in document["shoes"]] == [-1, 0, 1]
    sixteen = next(c for c in document["cells"] if (c["section"], c["row"], c["upcard"]) == ("hard", "16", "T"))
    assert sixteen["basic"] in ("hit", "stand")
    assert {p["decision"] for p in document["published"]} >= {"insurance", "16 v T", "12 v 4"}
    # on a local Dask cluster, from an empty store: the same exact chart
    pytest.importorskip("distributed")
    dask_args = [a if a != str(tmp_path) else str(tmp_path / "dask") for a in args]
    status, out, err = run(capsys, *dask_args, "--workers", "2", "--format", "json")
    assert status == 0, err
    assert json.loads(out) == document


# --- betting --------------------------------------------------------------------------------------


def test_true_count_frequencies_against_every_order_of_a_tiny_shoe():
    shoe = (1, 1, 0, 0, 0, 1, 0, 0, 0, 2)  # A, 2, 6, T, T
    system = HI_LO
    cards = [1, 2, 6, 10, 10]
    cut = 3  # penetration 3/5: rounds begin after 0, 1 or 2 cards
    expected: dict[int, mpq] = {}
    orders = list(itertools.permutations(cards))
    for order in orders:
        for n in range(cut):
            rc = sum(system.tags[c - 1] for c in order[:n])
            mean = mpq(-1, 5)  # the shoe's cards count -1 in all: less n / 5 of that for n cards seen
            t = max(-30, min(30, int(floor((rc - mean * n) * 52 / (5 - n)))))
            expected[t] = expected.get(t, 0) + mpq(1, len(orders) * cut)
    found = count_frequencies(system, shoe, mpq(3, 5), 30)
    assert {t: p for t, p in found.items() if p} == expected
    assert sum(found.values()) == 1
    pooled = count_frequencies(system, shoe, mpq(3, 5), 2)
    assert pooled[2] == sum(p for t, p in expected.items() if t >= 2)


def test_ramp_figures_solved_by_hand():
    assert parse_ramp("-1:1, 1:2,2:4") == {-1: 1, 1: 2, 2: 4}
    for bad in ("1:1,1:2", "a:1", "1:0", "2:1,1:2"):
        with pytest.raises(BjexactError, match="--ramp"):
            parse_ramp(bad)
    ramp = {-1: mpq(1), 1: mpq(2), 2: mpq(4)}
    assert [bet_at(ramp, t) for t in (-3, -1, 0, 1, 5)] == [1, 1, 1, 2, 4]
    # between two solved shoes (true counts 0 and 2) the values at +1 lie on the straight line
    solved = [(mpq(0), {"ev": "-1/100", "variance": "1"}), (mpq(2), {"ev": "7/100", "variance": "3"})]
    values = values_by_count(solved, 2)
    assert values[1] == (mpq(3, 100), mpq(2)) and values[-2] == (mpq(-1, 100), 1) and values[2] == (mpq(7, 100), 3)
    # two counts, half the rounds each: EV -1/100 var 1 at 0, EV +3/100 var 1 at +1; bets 1 and 2
    values = {0: (mpq(-1, 100), mpq(1)), 1: (mpq(3, 100), mpq(1))}
    figures = ramp_figures(values, {0: mpq(1, 2), 1: mpq(1, 2)}, {0: mpq(1), 1: mpq(2)}, mpq(100))
    # W = 1/2 (-1/100) + 1/2 (2 x 3/100) = 1/40; E[X^2] = 1/2 (1 + 1/10^4) + 1/2 4 (1 + 9/10^4) = 5/2 + 37/20000
    assert figures.win_rate == mpq(1, 40)
    assert figures.variance == mpq(5, 2) + mpq(37, 20000) - mpq(1, 1600)
    assert figures.average_bet == mpq(3, 2)
    assert figures.n0 == figures.variance * 1600 and figures.score == 10 ** 6 / figures.n0
    assert figures.sd == pytest.approx(sqrt(float(figures.variance)))
    assert figures.risk_of_ruin == pytest.approx(exp(-2 * (1 / 40) * 100 / float(figures.variance)))
    losing = ramp_figures(values, {0: mpq(1), 1: mpq(0)}, {0: mpq(1)}, mpq(100))
    assert losing.n0 is None and losing.risk_of_ruin == 1
    # Kelly: bank x EV / variance within the limits, the minimum where EV <= 0
    kelly = kelly_ramp({0: (mpq(-1, 100), mpq(1)), 1: (mpq(1, 100), mpq(1)), 2: (mpq(1, 10), mpq(1))},
                       mpq(1000), mpq(1), mpq(50))
    assert kelly == {0: 1, 1: 10, 2: 50}


def test_griffin_figures_on_made_up_effects():
    assert weighted_correlation([mpq(1), mpq(2)], [mpq(3), mpq(5)], [mpq(1), mpq(4)]) == pytest.approx(1)
    assert normal_gain(0.0, 1.0) == pytest.approx(1 / sqrt(2 * 3.141592653589793))
    assert normal_gain(5.0, 1e-9) == 0 and normal_gain(1.0, 1.0) == pytest.approx(0.0833155, abs=1e-6)
    full = (4,) * 9 + (16,)
    tags = (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1)

    def result(removed):  # a game whose values move exactly with the tags of the cards removed
        shift = mpq(tags[removed - 1], 1000) if removed else mpq(0)
        stand = fraction_string(shift - mpq(1, 1000))
        return {"ev": fraction_string(shift), "cells": {"hard 16 T": {"hit": "0", "stand": stand}}}

    results = [result(0)] + [result(r) for r in range(1, 11)]
    griffin = griffin_figures(CountSystem("hi-lo", tags), full, results, mpq(3, 4))
    assert griffin.betting_correlation == pytest.approx(1) and griffin.playing_efficiency == pytest.approx(1)
    assert griffin.insurance_eor[10] < 0 < griffin.insurance_eor[5]
    assert griffin.insurance_correlation == pytest.approx(
        weighted_correlation([mpq(t) for t in tags], [griffin.insurance_eor[r] for r in range(1, 11)],
                             [mpq(n) for n in full]))
    flat = griffin_figures(CountSystem("flat", (0, 0, 0, 0, 0, 0, 0, 0, 1, -1)), full, results, mpq(3, 4))
    assert flat.playing_efficiency < 0.5


def test_betting_command(tmp_path, capsys):
    shoe = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)
    args = ["count", "betting", "--shoe", ",".join(map(str, shoe)), "--split-hands", "1", "--span", "2",
            "--left", "1", "--serial", "--quiet", "--store", str(tmp_path), "--ramp", "0:1,1:4", "--no-griffin"]
    status, out, err = run(capsys, *args, "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    rows = document["by_true_count"]
    assert [r["true_count"] for r in rows] == [-2, -1, 0, 1, 2]
    assert sum(parse_fraction(r["frequency"]) for r in rows) == 1
    win = sum(parse_fraction(r["frequency"]) * parse_fraction(r["bet"]) * parse_fraction(r["ev"]) for r in rows)
    assert parse_fraction(document["win_rate"]) == win
    status, out, err = run(capsys, *args)
    assert status == 0 and "N0" in out and "risk of ruin" in out


@pytest.mark.parametrize("args, message", [
    (["indices", "--workers", "1000000"], "--workers 1,000,000: a local cluster here has at most"),
    (["betting", "--ramp", "1:x"], "--ramp takes"),
    (["betting", "--kelly", "--ramp", "1:1"], "--kelly makes the ramp"),
    (["indices", "--decks", "inf"], "counting needs a finite shoe"),
    (["indices", "--left", "0"], "--left must be"),
])
def test_exact_count_commands_refuse_bad_input(capsys, args, message):
    status, out, err = run(capsys, "count", *args)
    assert status == 2 and message in err and err.count("\n") == 1 and out == ""
