"""Counting: systems, simulated shoes, exact per-round values, the analysis and the command."""

from __future__ import annotations

import json
from math import floor

import pytest
from clirun import run

from bjexact.apps.counting import (
    DECISIONS,
    SYSTEMS,
    CountSystem,
    Round,
    analyse,
    deal_shoe,
    effects_of_removal,
    eor_betting_correlation,
    load_system,
    removal_shoes,
    round_task,
    true_count,
)
from bjexact.core.numbers import fraction_string, mpq, parse_fraction
from bjexact.core.rules import GameRules
from bjexact.errors import BjexactError
from bjexact.player.game import hand_moves, solve_game

HALF_DECK = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)
RULES = GameRules(shoe=HALF_DECK, split_hands=1)


def test_systems():
    assert load_system("hi-lo").balanced and load_system("hi-opt-2").balanced
    assert not load_system("ko").balanced
    assert set(SYSTEMS) == {"hi-lo", "ko", "hi-opt-2"}
    hi_lo = load_system("hi-lo")
    assert hi_lo.running((4, 4, 4, 4, 4, 4, 4, 4, 4, 16)) == 0
    assert true_count(hi_lo, (8,) * 9 + (32,), (8, 7, 7, 7, 7, 7, 8, 8, 8, 32)) == mpq(5 * 52, 99)


def test_system_files(tmp_path):
    path = tmp_path / "zen.toml"
    path.write_text('name = "Zen"\ntags = [-1, 1, 1, 2, 2, 2, 1, 0, 0, -2]\n')
    assert load_system(str(path)) == CountSystem("Zen", (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2))
    (tmp_path / "bad.toml").write_text("tags = [1, 2]\n")
    with pytest.raises(BjexactError, match="ten whole numbers"):
        load_system(str(tmp_path / "bad.toml"))
    with pytest.raises(BjexactError, match="unknown count system 'wong'"):
        load_system("wong")


def test_shoes_are_reproducible_and_dealt_to_the_cut_card():
    one = deal_shoe(HALF_DECK, 0, seed=7, penetration=mpq(3, 4))
    assert one == deal_shoe(HALF_DECK, 0, seed=7, penetration=mpq(3, 4))
    assert one != deal_shoe(HALF_DECK, 1, seed=7, penetration=mpq(3, 4))
    assert one[0].unseen == HALF_DECK and [r.number for r in one] == list(range(1, len(one) + 1))
    for before, after in zip(one, one[1:]):
        taken = [b - a for b, a in zip(before.unseen, after.unseen)]
        assert min(taken) >= 0 and sum(taken) >= 4
    assert sum(HALF_DECK) - sum(one[-1].unseen) < 26 * 3 / 4  # the last round starts before the cut card


def test_a_round_task_is_the_engine_exactly():
    unseen = (2, 1, 2, 2, 0, 1, 2, 2, 1, 6)
    result = round_task({"rules": RULES.to_json(), "unseen": list(unseen)})
    composition = GameRules(shoe=unseen, split_hands=1)
    assert parse_fraction(result["ev"]) == solve_game(composition, with_distribution=False, progress=False).ev
    assert parse_fraction(result["ev_basic"]) <= parse_fraction(result["ev"])
    decision = result["decisions"]["16 v T"]
    moves = hand_moves(composition, [10, 6], 10)
    assert {m: parse_fraction(v) for m, v in decision["values"].items()} == \
        {m: moves.unconditional(m) for m in moves.w}
    assert result["insurance"] == {"weight": "2/19", "value": fraction_string((3 * mpq(6, 18) - 1) / 2)}
    # on the full shoe basic strategy is the optimal strategy
    full = round_task({"rules": RULES.to_json(), "unseen": list(HALF_DECK)})
    assert full["ev"] == full["ev_basic"]


def _fake_result(stand_better: bool, ev: str = "0") -> dict:
    values = {"stand": "1/10", "hit": "0"} if stand_better else {"stand": "0", "hit": "1/10"}
    return {"ev": ev, "ev_basic": ev, "insurance": None,
            "decisions": {"16 v T": {"weight": "1/100", "basic": "hit", "values": values}}}


def test_index_numbers_are_where_the_exact_best_move_flips():
    system = CountSystem("test", (0,) * 9 + (-1,))  # counts tens: running count = tens seen
    full = (0,) * 9 + (52,)
    rounds = [Round(0, i, (0,) * 9 + (52 - seen,)) for i, seen in enumerate(range(0, 10))]
    counts = [true_count(system, full, r.unseen) for r in rounds]
    results = [_fake_result(tc <= -3, ev=f"{i}/7") for i, tc in enumerate(counts)]
    analysis = analyse(system, full, rounds, results)
    (index,) = [i for i in analysis.indices if i.decision == "16 v T"]
    assert (index.move, index.direction, index.agreement) == ("stand", "-", 1)
    assert index.threshold == -4  # floored true counts: -4 and below (-3.18 ...), not -3 (-2.08)
    assert analysis.ev == sum(mpq(i, 7) for i in range(10)) / 10
    assert sum(b.rounds for b in analysis.bins) == 10
    for b in analysis.bins:
        members = [mpq(i, 7) for i, tc in enumerate(counts) if floor(tc) == b.true_count]
        assert b.ev == sum(members) / len(members)
    assert analysis.betting_correlation is not None and analysis.betting_correlation < -0.9
    with pytest.raises(BjexactError, match="no rounds"):
        analyse(system, full, [], [])


def test_count_command_dask_equals_serial(tmp_path, capsys):
    pytest.importorskip("distributed")
    common = ["count", "--shoe", ",".join(map(str, HALF_DECK)), "--split-hands", "1", "--shoes", "2",
              "--seed", "3", "--format", "json", "--quiet"]
    status, out, err = run(capsys, *common, "--serial", "--store", str(tmp_path / "a"))
    assert status == 0, err
    serial = json.loads(out)
    status, out, err = run(capsys, *common, "--workers", "2", "--store", str(tmp_path / "b"))
    assert status == 0, err
    assert json.loads(out) == serial
    assert serial["rounds"] >= 4 and {i["decision"] for i in serial["indices"]} <= set(DECISIONS) | {"insurance"}
    # resumed: every round from the store
    plot = tmp_path / "count.svg"
    status, out, err = run(capsys, *common[:-3], "--serial", "--store", str(tmp_path / "a"), "--plot", str(plot))
    assert status == 0 and "0 solved on 0 worker(s)" in out and "Index numbers" in out
    assert "<svg" in plot.read_text()


@pytest.mark.parametrize("args, message", [
    (["--decks", "inf"], "counting needs a finite shoe"),
    (["--penetration", "1.5"], "--penetration must be more than 0"),
    (["--system", "nope"], "unknown count system"),
    (["--plot", "x.gif"], "must end in .svg, .pdf or .png"),
])
def test_count_command_errors(capsys, args, message):
    status, out, err = run(capsys, "count", "--serial", *args)
    assert status == 2 and message in err and err.count("\n") == 1


def test_betting_correlation_from_effects_of_removal(tmp_path, capsys):
    shoes = removal_shoes(HALF_DECK)
    assert len(shoes) == 11 and sum(shoes[1]) == sum(HALF_DECK) - 1 and shoes[1][0] == 1
    evs = [mpq(0)] + [mpq(r, 100) for r in range(1, 11)]
    eors = effects_of_removal(HALF_DECK, evs)
    assert eors == {r: mpq(r, 100) for r in range(1, 11)}
    assert eor_betting_correlation(CountSystem("rank", tuple(range(1, 11))), eors) == pytest.approx(1)
    assert eor_betting_correlation(CountSystem("minus", tuple(-r for r in range(1, 11))), eors) == pytest.approx(-1)
    tiny = (2, 0, 0, 0, 0, 2, 3, 3, 3, 7)  # quick to solve: the ranks it holds are A, 6, 7, 8, 9, T
    status, out, err = run(capsys, "count", "--shoe", ",".join(map(str, tiny)), "--split-hands", "1",
                           "--shoes", "1", "--serial", "--eor", "--format", "json", "--store", str(tmp_path))
    assert status == 0, err
    document = json.loads(out)["effects_of_removal"]
    assert set(document["eor"]) == {"A", "6", "7", "8", "9", "T"}
    full = solve_game(GameRules(shoe=tiny, split_hands=1), with_distribution=False, progress=False).ev
    less_ace = solve_game(GameRules(shoe=(1,) + tiny[1:], split_hands=1), with_distribution=False,
                          progress=False).ev
    assert parse_fraction(document["eor"]["A"]) == less_ace - full
    eors = {r: parse_fraction(document["eor"][s]) for r, s in zip((1, 6, 7, 8, 9, 10), "A6789T")}
    assert document["betting_correlation"] == pytest.approx(eor_betting_correlation(load_system("hi-lo"), eors))
