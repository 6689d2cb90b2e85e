"""Counting: systems, simulated shoes, exact per-round values, the analysis and the command."""

from __future__ import annotations

import json
from math import floor

import pytest
from clirun import run

from bjexact.core.numbers import fraction_string, mpq, parse_fraction
from bjexact.core.rules import GameRules
from bjexact.counting.simulation import (
    DECISIONS,
    SYSTEMS,
    CountSystem,
    Round,
    analyse,
    basic_chart,
    chart_from_json,
    chart_to_json,
    deal_shoe,
    effects_of_removal,
    eor_betting_correlation,
    load_system,
    play_round,
    removal_shoes,
    round_task,
    round_tasks,
    running_count,
    true_count,
)
from bjexact.errors import BjexactError
from bjexact.player.game import hand_moves, solve_game
from bjexact.player.policy import ChartPolicy, ChartStrategy, evaluate_chart

HALF_DECK = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)
RULES = GameRules(shoe=HALF_DECK, split_hands=1)


def test_systems():
    assert load_system("hi-lo").balanced and load_system("hi-opt-2").balanced
    assert not load_system("ko").balanced
    assert set(SYSTEMS) == {"hi-lo", "ko", "hi-opt-1", "hi-opt-2", "omega-2", "zen"}
    assert all(load_system(name).balanced for name in SYSTEMS if name != "ko")
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
    # a name heads every table: printable text, not escape codes or new lines
    for name in ('"\\u001b[31mred"', '"two\\nlines"', '""', "5", '"' + "x" * 61 + '"'):
        (tmp_path / "named.toml").write_text(f"name = {name}\ntags = [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1]\n")
        with pytest.raises(BjexactError, match="name must be printable text"):
            load_system(str(tmp_path / "named.toml"))


def test_shoes_are_reproducible_and_dealt_to_the_cut_card():
    one = deal_shoe(HALF_DECK, 0, seed=7, penetration=mpq(3, 4), rules=RULES)
    assert one == deal_shoe(HALF_DECK, 0, seed=7, penetration=mpq(3, 4), rules=RULES)
    assert one != deal_shoe(HALF_DECK, 1, seed=7, penetration=mpq(3, 4), rules=RULES)
    assert one[0].unseen == HALF_DECK and [r.number for r in one] == list(range(1, len(one) + 1))
    for before, after in zip(one, one[1:]):
        taken = [b - a for b, a in zip(before.unseen, after.unseen)]
        assert min(taken) >= 0 and sum(taken) >= 4
    assert sum(HALF_DECK) - sum(one[-1].unseen) < 26 * 3 / 4  # the last round starts before the cut card


def chart_of(code, **cells):
    """A chart playing ``code`` everywhere but in ``cells`` (``hard16="H"``: hard 16 against every up-card)."""
    codes = {}
    for section, rows in (("hard", range(4, 21)), ("soft", range(12, 21)), ("pairs", "23456789TA")):
        for row in rows:
            for up in range(1, 11):
                codes[(section, str(row), up)] = cells.get(f"{section}{row}", code)
    return ChartPolicy(codes)


def dealt(cards, chart, **rules):
    """The cards one round takes from a shoe stacked as ``cards``, played by ``chart``."""
    game = GameRules(decks=1, **rules)
    deck, taken = iter(cards), []

    def draw():
        taken.append(next(deck))
        return taken[-1]

    play_round(draw, ChartStrategy(game, chart), game)
    return taken


def test_a_round_takes_the_cards_of_a_real_round_played_by_the_chart():
    rest = [9, 9, 9, 9, 9, 9]
    # deal order: player, up-card, player, hole card; the dealer draws from 16 to 25
    assert dealt([10, 10, 6, 6] + rest, chart_of("S")) == [10, 10, 6, 6, 9]
    # the player hits 16 and busts: the dealer does not draw
    assert dealt([10, 10, 6, 6, 10] + rest, chart_of("S", hard16="H")) == [10, 10, 6, 6, 10]
    # a double takes one card, whatever it makes; then the dealer draws
    assert dealt([5, 6, 6, 10, 2] + rest, chart_of("S", hard11="Dh")) == [5, 6, 6, 10, 2, 9]
    # a pair split: each hand gets its second card, a third eight is split again, 8,3 doubles
    cards = [8, 10, 8, 7, 8, 3, 5, 10, 10] + rest
    assert dealt(cards, chart_of("S", pairs8="P", hard11="Dh"), split_hands=3) == cards[:9]
    # with a hole card the dealer's natural ends the round; with none the hole card comes last
    assert dealt([10, 1, 6, 10] + rest, chart_of("H")) == [10, 1, 6, 10]
    assert dealt([10, 1, 6, 10] + rest, chart_of("S"), hole_card="enhc") == [10, 1, 6, 10]
    # a natural is paid at once; a surrender ends the hand and the dealer does not draw
    assert dealt([1, 5, 10, 10] + rest, chart_of("H")) == [1, 5, 10, 10]
    assert dealt([10, 10, 6, 5] + rest, chart_of("S", hard16="Rh"), surrender="late") == [10, 10, 6, 5]


def test_a_round_task_is_the_engine_exactly():
    unseen = (2, 1, 2, 2, 0, 1, 2, 2, 1, 6)
    result = round_task({"rules": RULES.to_json(), "unseen": list(unseen)})
    composition = GameRules(shoe=unseen, split_hands=1)
    assert parse_fraction(result["ev"]) == solve_game(composition, with_distribution=False, progress=False).ev
    # basic strategy: the full shoe's chart played on every decision, valued for the cards unseen
    chart = ChartPolicy.of_solution(solve_game(RULES, with_distribution=False, progress=False))
    assert basic_chart(RULES) == chart
    assert parse_fraction(result["ev_basic"]) == evaluate_chart(composition, chart, progress=False).ev
    assert parse_fraction(result["ev_basic"]) < parse_fraction(result["ev"])
    # the chart sent with the task (solved once by the client) gives the same result
    assert chart_from_json(json.loads(json.dumps(chart_to_json(chart)))) == chart
    (task,) = round_tasks(RULES, [Round(0, 1, unseen)])
    assert task["unseen"] == list(unseen) and round_task(task) == result
    decision = result["decisions"]["16 v T"]
    moves = hand_moves(composition, [10, 6], 10)
    assert {m: parse_fraction(v) for m, v in decision["values"].items()} == \
        {m: moves.unconditional(m) for m in moves.w}
    assert result["insurance"] == {"weight": "2/19", "value": fraction_string((3 * mpq(6, 18) - 1) / 2)}
    # on the full shoe too the chart is worth less than composition-dependent play, a little
    full = round_task({"rules": RULES.to_json(), "unseen": list(HALF_DECK)})
    gap = parse_fraction(full["ev"]) - parse_fraction(full["ev_basic"])
    assert 0 < gap < mpq(1, 100)


def _fake_result(stand_better: bool, ev: str = "0") -> dict:
    values = {"stand": "1/10", "hit": "0"} if stand_better else {"stand": "0", "hit": "1/10"}
    return {"ev": ev, "ev_basic": ev, "insurance": None,
            "decisions": {"16 v T": {"weight": "1/100", "basic": "hit", "values": values}}}


def test_index_numbers_are_where_the_exact_best_move_flips():
    system = CountSystem("test", (0, 4) + (0,) * 7 + (-1,))  # balanced; on a shoe of tens: minus the tens seen
    assert system.balanced
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
        members = [mpq(i, 7) for i, tc in enumerate(counts) if floor(tc) == b.count]
        assert b.ev == sum(members) / len(members)
    assert analysis.betting_correlation is not None and analysis.betting_correlation < -0.9
    with pytest.raises(BjexactError, match="no rounds"):
        analyse(system, full, [], [])


def test_an_unbalanced_count_is_read_by_running_count_from_its_initial_running_count():
    ko = load_system("ko")
    assert ko.imbalance == 4 and [ko.initial_running_count(52 * d) for d in (1, 2, 6, 8)] == [0, -4, -20, -28]
    six = (24,) * 9 + (96,)
    assert running_count(ko, six, six) == -20
    assert running_count(ko, six, (24, 20) + (24,) * 7 + (96,)) == -16  # four deuces seen
    assert running_count(load_system("hi-lo"), six, six) == 0
    full = (4,) * 9 + (16,)
    rounds = [Round(0, i, (4, 4 - i) + (4,) * 7 + (16,)) for i in range(4)]  # i deuces seen
    results = [_fake_result(True, ev=ev) for ev in ("-5/100", "-2/100", "1/100", "3/100")]
    analysis = analyse(ko, full, rounds, results)
    assert analysis.by == "running" and analysis.initial_running_count == 0
    assert [b.count for b in analysis.bins] == [0, 1, 2, 3]
    assert analysis.key_count == 2  # the rounds at +2 and at +3 are worth more than nothing; at +1 less
    document = analysis.to_json()
    assert document["count"] == "running" and document["key_count"] == 2 and "by_running_count" in document
    hi_lo = analyse(load_system("hi-lo"), full, rounds, results)
    assert hi_lo.by == "true" and hi_lo.key_count is None and "by_true_count" in hi_lo.to_json()


def test_count_plays_the_full_shoes_chart_on_a_quarter_deck(tmp_path, capsys):
    # soft 17 v 6 is no two-card hand of one suit (its 6 is up): the chart's cell is A,2,4's best move
    status, out, err = run(capsys, "count", "--shoe", "1,1,1,1,1,1,1,1,1,4", "--split-hands", "1", "--shoes", "1",
                           "--serial", "--quiet", "--format", "json", "--store", str(tmp_path))
    assert status == 0, err
    document = json.loads(out)
    assert document["rounds"] >= 1
    assert all(parse_fraction(r["ev_basic"]) <= parse_fraction(r["ev"]) for r in document["by_true_count"])


def test_count_command_dask_equals_serial(tmp_path, capsys):
    pytest.importorskip("distributed")
    # one shoe: its four rounds are four tasks for the two workers, as two shoes' eight were
    common = ["count", "--shoe", ",".join(map(str, HALF_DECK)), "--split-hands", "1", "--shoes", "1",
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


def test_the_count_store_defaults_to_the_users_cache_directory(monkeypatch, tmp_path):
    from bjexact.cli.count import default_store

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert default_store() == tmp_path / "cache" / "bjexact" / "count.store"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")  # not absolute: ignored, as the spec says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_store() == tmp_path / "home" / ".cache" / "bjexact" / "count.store"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_store() == tmp_path / "home" / ".cache" / "bjexact" / "count.store"


def test_with_no_round_favouring_a_deviation_the_index_names_the_runner_up_not_stand():
    # 11 v A: double on every round, hit second, standing far behind; no round favours a deviation
    values = {"stand": "-1/2", "hit": "1/10", "double": "1/5"}
    result = {"ev": "0", "ev_basic": "0", "insurance": None,
              "decisions": {"11 v A": {"weight": "1/100", "basic": "double", "values": values}}}
    full = (4,) * 9 + (16,)
    rounds = [Round(0, i, (4, 4 - i) + (4,) * 7 + (16,)) for i in range(3)]
    (index,) = analyse(load_system("hi-lo"), full, rounds, [result] * 3).indices
    assert (index.decision, index.basic, index.move, index.threshold) == ("11 v A", "double", "hit", None)
    assert index.agreement == 1 and index.gain == 0


@pytest.mark.parametrize("args, message", [
    (["--shoes", "1000000", "--decks", "6"], "--shoes 1,000,000: about 47,000,000 rounds to solve exactly"),
    (["--shoes", "5000", "--decks", "8", "--penetration", "1"], "more than the bound of 200,000 rounds"),
    (["--workers", "1000000"], "--workers 1,000,000: a local cluster here has at most"),
])
def test_count_refuses_what_cannot_finish_before_starting(capsys, args, message):
    status, out, err = run(capsys, "count", *args)
    assert status == 2 and message in err and err.count("\n") == 1 and out == ""
