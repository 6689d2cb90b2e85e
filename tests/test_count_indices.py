"""Index numbers at the decision's count, on the shoes a count implies, over depths: exact against
brute force (every subset of the cards seen, enumerated card by card) and against values derived
by hand."""

from __future__ import annotations

import itertools
import json
from functools import cache
from math import comb

import pytest
from clirun import run

from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules
from bjexact.counting.compositions import (
    count_chances,
    exact_mixture,
    expected_unseen,
    integer_mixture,
    mixture_size,
)
from bjexact.counting.indices import (
    CONVENTIONS,
    CellSeries,
    CountConvention,
    Curve,
    cell_changes,
    cell_of,
    cell_series,
    depth_nodes,
    hands_task,
    index_chart,
    insurance_series,
    plan_indices,
)
from bjexact.counting.systems import load_system
from bjexact.errors import BjexactError

HI_LO = load_system("hi-lo")
ONE_DECK = (4,) * 9 + (16,)


def _subsets(full, seen):
    """Every subset of ``seen`` distinguishable cards of ``full``: its composition (counts A..T)."""
    cards = [rank for rank, n in enumerate(full, 1) for _ in range(n)]
    for chosen in itertools.combinations(range(len(cards)), seen):
        counts = [0] * 10
        for i in chosen:
            counts[cards[i] - 1] += 1
        yield tuple(counts)


def _running(counts):
    return sum(t * n for t, n in zip(HI_LO.tags, counts))


def test_count_chances_and_expected_cards_against_every_subset():
    full, seen = (2, 2, 1, 2, 1, 1, 2, 1, 1, 4), 5
    by_count: dict[int, list[tuple[int, ...]]] = {}
    for d in _subsets(full, seen):
        by_count.setdefault(_running(d), []).append(d)
    chances, means = count_chances(HI_LO, full, seen), expected_unseen(HI_LO, full, seen)
    total = comb(sum(full), seen)
    assert set(chances) == set(by_count) and sum(chances.values()) == 1
    for count, found in by_count.items():
        assert chances[count] == mpq(len(found), total)
        mean = tuple(n - mpq(sum(d[r] for d in found), len(found)) for r, n in enumerate(full))
        assert means[count] == mean
        assert exact_mixture(HI_LO, full, seen, count).mean == mean
    assert mixture_size(full, seen) == len(set(itertools.chain.from_iterable(by_count.values())))


@pytest.mark.parametrize("composition", [
    (mpq(9, 2), mpq(7, 3), mpq(7, 3), mpq(7, 3), mpq(1, 1), mpq(3), mpq(3), mpq(3), mpq(3), mpq(21, 2)),
    tuple(mpq(x) for x in (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)),
    expected_unseen(HI_LO, (24,) * 9 + (96,), 150)[12],
])
def test_an_integer_mixture_has_the_composition_as_its_mean(composition):
    mixture = integer_mixture(composition)
    assert mixture.mean == tuple(composition) and sum(mixture.weights) == 1
    assert all(w > 0 for w in mixture.weights) and len(mixture.shoes) <= 10
    for shoe in mixture.shoes:
        assert sum(shoe) == sum(composition)
        assert all(int(x) <= n <= int(x) + (x != int(x)) for x, n in zip(composition, shoe))
    if all(x == int(x) for x in composition):
        assert mixture.shoes == (tuple(int(x) for x in composition),)


def test_the_mixture_moves_continuously_with_the_composition():
    # as a fractional part goes to 1 the shoes rounding it down lose all their weight
    base = [mpq(3)] * 9 + [mpq(12)]
    for eps in (mpq(1, 10), mpq(1, 1000), mpq(1, 10**6)):
        composition = list(base)
        composition[1] += 1 - eps
        composition[9] -= 1 - eps
        mixture = integer_mixture(composition)
        down = sum(w for w, s in zip(mixture.weights, mixture.shoes) if s[1] == 3)
        assert down == eps


def test_depth_nodes_are_the_midpoints_and_every_depth_when_asked():
    assert depth_nodes(312, mpq(3, 4), 4) == (29, 87, 146, 204)
    assert depth_nodes(52, mpq(2, 3), 64) == tuple(range(34))


def test_a_convention_reads_true_counts_as_the_player_does():
    exact, published = CONVENTIONS["exact"], CONVENTIONS["published"]
    assert exact.true_count(6, 156) == 2 and published.true_count(6, 156) == 2
    assert published.decks(130) == mpq(5, 2) and published.decks(10) == mpq(1, 2)  # 2.5 decks; at least a step
    assert [exact.bin(mpq(x, 10)) for x in (-15, -5, 4, 5, 15)] == [-1, 0, 0, 1, 2]
    floor = CountConvention(rounding="floor")
    assert [floor.bin(mpq(x, 10)) for x in (-15, -5, 4, 5, 15)] == [-2, -1, 0, 0, 1]
    assert published.rounding == "round"  # what reproduces the published tables (18 of 22 against 12 floored)
    truncate = CountConvention(rounding="truncate")
    assert [truncate.bin(mpq(x, 10)) for x in (-15, -5, 4, 5, 15)] == [-1, 0, 0, 0, 1]
    with pytest.raises(BjexactError):
        CountConvention(at="end")


def _series(points_by_curve, moves=("hit", "stand")):
    curves = []
    for points in points_by_curve:
        curves.append(Curve(tuple(mpq(x) for x, _, _ in points), tuple(mpq(w) for _, w, _ in points),
                            {m: tuple(mpq(v[i]) for _, _, v in points) for i, m in enumerate(moves)}))
    return CellSeries(tuple(curves), moves)


def test_every_change_of_a_cell_is_reported_with_its_exact_crossing():
    # one curve, two changes: stand - hit = (2x - 7) / 4 (zero at 3.5), double - stand = (2x - 15) / 4 (at 7.5)
    xs = range(-3, 11)
    series = _series([[(x, 1, (0, mpq(2 * x - 7, 4), mpq(4 * x - 22, 4))) for x in xs]],
                     moves=("hit", "stand", "double"))
    basic, changes, counts = cell_changes(series, CONVENTIONS["exact"], 10)
    assert basic == "hit" and counts == tuple(range(-3, 11))
    assert [(c.low, c.high, c.bracket, c.crossing, c.index) for c in changes] == [
        ("hit", "stand", (3, 4), mpq(7, 2), 4), ("stand", "double", (7, 8), mpq(15, 2), 8)]
    # the crossing falls between the counts; floored, the index is 2
    series = _series([[(x, 1, (0, mpq(2 * x - 5, 4))) for x in xs]])
    (change,) = cell_changes(series, CountConvention(rounding="floor"), 10)[1]
    assert change.crossing == mpq(5, 2) and change.index == 2 and change.bracket == (2, 3)
    assert cell_changes(series, CONVENTIONS["exact"], 10)[1][0].index == 3
    # differences far below floating point's reach (values 1 + 1e-30 ...) are decided exactly
    tiny = mpq(1, 10**30)
    series = _series([[(x, 1, (1, 1 + tiny * (2 * x - 7), 1 + tiny * (4 * x - 22))) for x in xs]],
                     moves=("hit", "stand", "double"))
    assert [(c.low, c.high, c.crossing) for c in cell_changes(series, CONVENTIONS["exact"], 10)[1]] == [
        ("hit", "stand", mpq(7, 2)), ("stand", "double", mpq(15, 2))]
    # two depths: where only one is met, its values alone
    series = _series([[(0, 1, (0, -1)), (2, 1, (0, -1))], [(1, 3, (0, 1)), (4, 3, (0, 1))]])
    assert series.values_at(mpq(1)) == {"hit": 0, "stand": mpq(1, 2)}  # (1 x -1 + 3 x 1) / 4
    assert series.values_at(mpq(3)) == {"hit": 0, "stand": 1} and series.values_at(mpq(5)) is None


# --- brute force: every subset of the cards seen, solved -------------------------------------------

SMALL = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)  # 13 cards, balanced for Hi-Lo
SMALL_RULES = GameRules(shoe=SMALL, split_hands=1)


@cache
def _solved(shoe):
    rules = {k: v for k, v in SMALL_RULES.to_json().items() if k != "decks"} | {"shoe": list(shoe)}
    return hands_task(rules | {"count_tags": list(HI_LO.tags)})


def test_the_exhaustive_method_is_the_average_over_every_subset_seen():
    seen = 2
    plan = plan_indices(HI_LO, SMALL_RULES, [seen], 30, method="exhaustive", min_chance=mpq(0))
    results = [_solved(s) for s in plan.shoes()]
    series = cell_series(plan, results, later=False)  # two-card hands (three or more: below)
    # brute force: (hand, count at the decision) -> [chance, chance x (stand - hit)]
    brute: dict[tuple, list] = {}
    subsets = list(_subsets(SMALL, seen))
    for d in subsets:
        unseen = tuple(n - x for n, x in zip(SMALL, d))
        for key, entry in _solved(unseen)["hands"].items():
            a, b, up = (int(x) for x in key.split())
            if a == b or 1 in (a, b) or "stand" not in entry["values"]:
                continue
            chance = mpq(entry["chance"]) / len(subsets)
            running = _running(d) + HI_LO.tags[a - 1] + HI_LO.tags[b - 1] + HI_LO.tags[up - 1]
            row = brute.setdefault((a + b, up, running), [mpq(0), mpq(0)])
            row[0] += chance
            row[1] += chance * (mpq(entry["values"]["stand"]) - mpq(entry["values"]["hit"]))
    checked = 0
    unseen_cards = sum(SMALL) - seen - 3
    for (total, up, running), (chance, gain) in brute.items():
        x = mpq(52 * running, unseen_cards)
        found = series[("hard", str(total), up)]
        weights, sums = found.sums_at(x)
        # every curve is met at its own counts only: at x the weights are the hands' exact chances
        assert weights["stand"] * mpq(52, unseen_cards) == chance  # per unit true count: one count is 52 / unseen
        assert (sums["stand"] - sums["hit"]) * mpq(52, unseen_cards) == gain
        checked += 1
    assert checked > 40


# --- insurance: the ten density's conditional mean, by hand -----------------------------------------


def _tens_unseen_one_deck(seen_besides_ace):
    """(running count of the cards seen besides the ace) -> (chance, expected tens unseen): one deck
    less the ace up, ``seen_besides_ace`` cards seen, enumerated as low / neutral / high cards
    (Hi-Lo's 2-6, 7-9, T and A) by hand."""
    low, neutral, tens, aces = 20, 12, 16, 3
    total = comb(51, seen_besides_ace)
    out = {}
    for lo in range(low + 1):
        for z in range(neutral + 1):
            hi = seen_besides_ace - lo - z
            if not 0 <= hi <= tens + aces:
                continue
            ways = comb(low, lo) * comb(neutral, z) * comb(tens + aces, hi)
            chance, mean = out.get(lo - hi, (mpq(0), mpq(0)))
            out[lo - hi] = (chance + mpq(ways, total), mean + mpq(ways, total) * (tens - mpq(hi * tens, tens + aces)))
    return {c: (p, m / p) for c, (p, m) in out.items() if p}


def test_single_deck_insurance_is_the_exact_figure():
    plan = plan_indices(HI_LO, GameRules(decks=1), [20], 10, insurance_depths=range(34))
    series = insurance_series(plan)
    # every point of every depth's curve: the tens unseen given the count, derived by hand
    for depth, curve in zip(range(34), series.curves):
        by_hand = _tens_unseen_one_deck(depth + 2)
        unseen = 52 - depth - 3
        for x, w, value in zip(curve.xs, curve.weights, curve.values["insure"]):
            running = x * unseen / 52
            chance, tens = by_hand[int(running) + 1]  # the ace counts -1
            assert w == chance * mpq(unseen, 52) and value == (3 * tens / unseen - 1) / 2
    basic, (change,), _ = cell_changes(series, plan.convention, 10)
    assert basic == "no insurance" and (change.low, change.high) == ("no insurance", "insure")
    assert abs(change.crossing - mpq(141, 100)) < mpq(1, 10)  # the single-deck figure: about +1.4
    # the count read before the deal does not count the ace: a different, larger index
    deal = plan_indices(HI_LO, GameRules(decks=1), [20], 10, convention=CountConvention(at="deal"),
                        insurance_depths=range(34))
    assert cell_changes(insurance_series(deal), deal.convention, 10)[1][0].crossing > change.crossing


def test_indices_move_continuously_with_the_depth():
    crossings = []
    for left in range(200, 120, -4):  # six decks, from 200 cards left to 124, one depth each
        plan = plan_indices(HI_LO, GameRules(decks=6), [312 - left], 10)
        crossings.append(cell_changes(insurance_series(plan), plan.convention, 10)[1][0].crossing)
    assert all(abs(a - b) < mpq(1, 5) for a, b in zip(crossings, crossings[1:]))
    assert 2 < min(crossings) and max(crossings) < 4


def test_the_count_at_the_decision_counts_the_rounds_cards():
    plan = plan_indices(HI_LO, SMALL_RULES, [2], 30, method="exhaustive", min_chance=mpq(0))
    results = [_solved(s) for s in plan.shoes()]
    twelve = cell_series(plan, results, later=False)[("hard", "12", 10)]
    deal = plan_indices(HI_LO, SMALL_RULES, [2], 30, method="exhaustive", min_chance=mpq(0),
                        convention=CountConvention(at="deal"))
    twelve_deal = cell_series(deal, results, later=False)[("hard", "12", 10)]
    # a hand of k cards (3 or more, held after hitting) is counted with every card, over 13 - 2 - k - 1
    with_later = cell_series(plan, results)[("hard", "12", 10)]
    later = {x for c in with_later.curves for x in c.xs} - {x for c in twelve.curves for x in c.xs}
    assert later and later <= {mpq(52 * r, 10 - k) for k in (3, 4, 5) for r in range(-8, 9)}
    # at the decision the round's three cards are counted, over the 8 cards unseen then; at the deal
    # the 2 cards seen, over the 11 unseen
    assert {x for c in twelve.curves for x in c.xs} <= {mpq(52 * r, 8) for r in range(-5, 6)}
    assert {x for c in twelve_deal.curves for x in c.xs} <= {mpq(52 * r, 11) for r in range(-2, 3)}
    # the same shoes: at the decision a hand's count moves by its cards' tags (T,2 v T: -1; 9,3 v T: 0)
    assert len({x for c in twelve.curves for x in c.xs}) > len({x for c in twelve_deal.curves for x in c.xs})


def test_a_cell_is_followed_where_it_can_be_dealt_and_never_dropped():
    """The quarter deck two cards deep: 28 shoes of 11 cards, whose sparse mixtures leave many cells the
    shoe before the round deals out of reach of some count (a chart made of the hands dealt at every
    count, not at some, drops four of them here; on half a deck at span 6, in 28 shoes of 24 cards and
    three times the time, none). Span 8: at span 6 a few cells are met only at counts beyond it."""
    rules = SMALL_RULES
    plan = plan_indices(HI_LO, rules, [2], 8)
    chart = index_chart(plan, [hands_task(t) for t in plan.tasks()])
    keys = {c.key for c in chart.cells}
    # every cell the shoe before the round can deal is in the chart, even where some count cannot deal it
    dealt = plan.depths[0].grid[0].shoes[0] if 0 in plan.depths[0].grid else None
    assert dealt is not None
    full = {tuple(int(x) for x in k.split()) for k in hands_task(
        {k: v for k, v in rules.to_json().items() if k != "decks"} | {"shoe": list(dealt), "count_tags": [0] * 10}
    )["hands"]}
    assert {cell_of(h) for h in full} <= keys
    assert all(set(c.counts) <= set(range(-8, 9)) for c in chart.cells)


def test_indices_command_json_store_in_the_cache(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    args = ["count", "indices", "--shoe", "2,2,2,2,2,2,2,2,2,8", "--split-hands", "1", "--span", "1",
            "--left", "1/2", "--quiet", "--serial"]
    status, out, err = run(capsys, *args, "--format", "json")
    assert status == 0, err
    document = json.loads(out)
    assert document["convention"] == {"at": "decision", "rounding": "round", "deck_step": None}
    assert document["method"] == "expectation" and document["depths"][0]["seen"] == 13
    assert (tmp_path / "bjexact" / "count-indices.store").is_dir()
    sixteen = next(c for c in document["cells"] if (c["section"], c["row"], c["upcard"]) == ("hard", "16", "T"))
    assert sixteen["basic"] in ("hit", "stand") and isinstance(sixteen["changes"], list)
    status, out, err = run(capsys, *args, "--convention", "published")
    assert status == 0 and "decks to the nearest 1/2 deck; an index is the crossing rounded (halves up)" in out
    assert "from the store" in out


def test_a_count_that_cannot_move_is_refused_before_any_work():
    from bjexact.counting.systems import CountSystem

    for system, rules in ((CountSystem("ones", (1,) * 10), GameRules(decks=1)),
                          (HI_LO, GameRules(shoe=(0,) * 9 + (40,))),
                          (CountSystem("none", (0,) * 10), GameRules(decks=1))):
        with pytest.raises(BjexactError, match="cannot move"):
            plan_indices(system, rules, [10], 3)
    with pytest.raises(BjexactError, match="at most 8 decks"):
        plan_indices(HI_LO, GameRules(decks=1000), [10], 3)


def test_the_published_multi_deck_numbers_are_compared_on_four_decks_or_more():
    from bjexact.counting.indices import IndexChart

    for decks, system, compared in ((6, HI_LO, True), (4, HI_LO, True), (2, HI_LO, False),
                                    (6, load_system("zen"), False)):
        plan = plan_indices(system, GameRules(decks=decks), [52], 2)
        assert IndexChart(plan, ()).compared_with_published is compared


def test_an_unbalanced_count_is_read_as_its_balanced_equivalent():
    # KO tags the 7 +1 besides Hi-Lo's: raw, its running count would drift by +4 a deck seen (+4 true
    # counts at half of six decks); read as its balanced equivalent its insurance index is Hi-Lo's, near +3
    crossings = {}
    for name in ("hi-lo", "ko"):
        plan = plan_indices(load_system(name), GameRules(decks=6), [156], 10)
        crossings[name] = cell_changes(insurance_series(plan), plan.convention, 10)[1][0].crossing
    assert 2 < crossings["ko"] < 4 and abs(crossings["ko"] - crossings["hi-lo"]) < 1


def test_the_hands_held_after_hitting_join_their_cells_grouped_by_cards_and_tags():
    from bjexact.player.game import solve_with
    from bjexact.player.reach import later_hands
    from bjexact.player.states import counts_value
    from bjexact.player.values import EngineSolver

    result = _solved(SMALL)
    solver = EngineSolver(SMALL_RULES)
    solution = solve_with(solver, with_distribution=False, progress=False)
    groups: dict[str, list] = {}
    for hand, up, chance, moves in later_hands(solver, solution):
        value = counts_value(hand)
        if value.soft or not 12 <= value.total <= 17:
            continue
        key = f"{value.total} {up} {sum(hand)} {_running(hand)}"
        row = groups.setdefault(key, [mpq(0), mpq(0), mpq(0)])
        row[0] += chance
        row[1] += chance * moves.unconditional("stand")
        row[2] += chance * moves.unconditional("hit")
    assert len(groups) > 20 and set(groups) == set(result["later"])
    for key, (chance, stand, hit) in groups.items():
        entry = result["later"][key]
        assert mpq(entry["chance"]) == chance
        assert mpq(entry["values"]["stand"]) == stand / chance and mpq(entry["values"]["hit"]) == hit / chance
