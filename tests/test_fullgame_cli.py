"""The full game's commands: edge, hand, chart (JSON contracts, formats, refused rules)."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from clirun import run

from bjexact.player.game import GameRules, solve_game


def test_edge_json_is_exact_and_consistent(capsys):
    status, out, _ = run(capsys, "edge", "--decks", "inf", "--format", "json")
    assert status == 0
    document = json.loads(out)
    assert set(document) >= {"rules", "ev", "by_upcard", "distribution", "variance"}
    assert document["rules"]["decks"] == "inf" and document["rules"]["split_hands"] == 4
    ev = Fraction(document["ev"])
    assert ev == Fraction(str(solve_game(GameRules(decks="inf"), with_distribution=False).ev))
    assert list(document["by_upcard"]) == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    chances = [Fraction(1, 13)] * 8 + [Fraction(4, 13), Fraction(1, 13)]
    assert sum(c * Fraction(v) for c, v in zip(chances, document["by_upcard"].values())) == ev
    distribution = {Fraction(r): Fraction(p) for r, p in document["distribution"].items()}
    assert sum(distribution.values()) == 1
    assert sum(r * p for r, p in distribution.items()) == ev
    assert Fraction(3, 2) in distribution and Fraction(-8) in distribution
    mean_square = sum(r * r * p for r, p in distribution.items())
    assert Fraction(document["variance"]) == mean_square - ev * ev


def test_edge_text_quotes_the_house_edge(capsys):
    status, out, _ = run(capsys, "edge", "--decks", "inf", "--split-hands", "2", "--h17")
    assert status == 0
    assert "House edge:" in out and "up-card" in out and "net result" in out


def test_hand_json_matches_the_published_sixteen(capsys):
    status, out, _ = run(capsys, "hand", "T", "6", "--upcard", "K", "--decks", "6", "--split-hands", "2",
                         "--surrender", "late", "--format", "json")
    assert status == 0
    document = json.loads(out)
    assert document["cards"] == ["T", "6"] and document["upcard"] == "T"
    moves = {m: Fraction(v) for m, v in document["moves"].items()}
    assert set(moves) == {"stand", "hit", "double", "surrender"}
    assert f"{float(moves['stand'] * 100):.9f}" == "-54.095443902"
    assert f"{float(moves['hit'] * 100):.9f}" == "-53.467556245"
    assert moves["surrender"] == Fraction(-1, 2) and document["best"] == "surrender"
    assert document["conditioned_on_no_dealer_natural"] is True


def test_hand_text_shows_costs(capsys):
    status, out, _ = run(capsys, "hand", "8", "8", "--upcard", "6", "--decks", "inf")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("8,8 v 6: infinite deck")
    assert any(line.startswith("split") and line.endswith("best") for line in lines)


def test_chart_json_is_the_classic_infinite_deck_chart(capsys):
    status, out, _ = run(capsys, "chart", "--decks", "inf", "--surrender", "late", "--format", "json")
    assert status == 0
    chart = json.loads(out)
    assert set(chart) == {"rules", "hard", "soft", "pairs"}
    assert chart["hard"]["16"] == {"2": "S", "3": "S", "4": "S", "5": "S", "6": "S", "7": "H", "8": "H",
                                   "9": "Rh", "T": "Rh", "A": "Rh"}
    assert chart["hard"]["11"]["T"] == "Dh" and chart["hard"]["11"]["A"] == "H"
    assert chart["soft"]["18"] == {"2": "S", "3": "Ds", "4": "Ds", "5": "Ds", "6": "Ds", "7": "S", "8": "S",
                                   "9": "H", "T": "H", "A": "H"}
    assert set(chart["pairs"]["A"].values()) == {"P"} and set(chart["pairs"]["8"].values()) == {"P"}
    assert set(chart["pairs"]["T"].values()) == {"S"}
    # splits worth it only thanks to doubling after splitting: without DAS, hit
    assert chart["pairs"]["4"]["5"] == "Ph" and chart["pairs"]["2"]["2"] == "Ph" and chart["pairs"]["2"]["4"] == "P"
    status, out, _ = run(capsys, "chart", "--decks", "inf", "--no-das", "--format", "json")
    assert json.loads(out)["pairs"]["4"]["5"] == "H"


@pytest.mark.parametrize("fmt", ["text", "csv", "md", "latex"])
def test_chart_formats(capsys, fmt):
    status, out, _ = run(capsys, "chart", "--decks", "inf", "--format", fmt)
    assert status == 0 and "16" in out


def test_chart_by_hand_lists_hands(capsys):
    status, out, _ = run(capsys, "chart", "--decks", "inf", "--by", "hand", "--split-hands", "2")
    assert status == 0
    assert "T,6" in out and "(none)" in out  # on the infinite deck no hand differs from its cell


@pytest.mark.parametrize("argv, message", [
    (["edge", "--decks", "inf", "--obo"], "--obo"),
    (["edge", "--decks", "inf", "--rsa", "--split-hands", "2"], "--rsa"),
    (["edge", "--decks", "inf", "--hole-card", "enhc", "--surrender", "late"], "late surrender"),
    (["hand", "A", "K", "--upcard", "5", "--decks", "inf"], "natural"),
    (["hand", "T", "6", "5", "2", "--upcard", "5", "--decks", "inf"], "bust"),
    (["hand", "T", "X", "--upcard", "5"], "unknown card"),
    (["edge", "--shoe", "0,0,0,0,0,0,0,0,0,2"], "too small"),
])
def test_bad_rules_and_hands_are_one_line_errors(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_edge_says_how_rounds_go(capsys):
    status, out, _ = run(capsys, "edge", "--decks", "inf", "--surrender", "early", "--format", "json")
    assert status == 0
    moves = {what: Fraction(p) for what, p in json.loads(out)["moves"].items()}
    assert sum(moves.values()) == 1
    assert moves["player natural"] == 2 * Fraction(1, 13) * Fraction(4, 13)
    assert set(moves) == {"player natural", "dealer natural", "stand", "hit", "double", "split", "surrender"}


def test_hand_against_an_ace_shows_insurance(capsys):
    # one deck, T,9 v A: 15 tens among the 49 unseen cards, insurance (3 * 15/49 - 1) / 2
    status, out, _ = run(capsys, "hand", "T", "9", "--upcard", "A", "--decks", "1", "--format", "json")
    assert status == 0
    assert Fraction(json.loads(out)["insurance"]) == Fraction(-2, 49)


def test_a_natural_against_an_ace_compares_even_money(capsys):
    status, out, _ = run(capsys, "hand", "A", "K", "--upcard", "A", "--decks", "1", "--format", "json")
    assert status == 0
    document = json.loads(out)
    assert Fraction(document["moves"]["even money"]) == 1
    assert Fraction(document["moves"]["no insurance"]) == Fraction(34, 49) * Fraction(3, 2)
    assert document["best"] == "no insurance"


def test_cdp1_and_cdp_are_split_strategies_of_the_command_line(capsys):
    values = {}
    for strategy in ("cdz", "cdp1", "cdp"):
        status, out, _ = run(capsys, "hand", "2", "2", "--upcard", "4", "--decks", "1", "--split-hands", "2",
                             "--split-strategy", strategy, "--format", "json")
        assert status == 0
        document = json.loads(out)
        values[strategy] = Fraction(document["moves"]["split"])
    assert values["cdp"] == values["cdp1"] >= values["cdz"]
    assert document["rules"]["split_strategy"] == "cdp"


def test_cdp_with_resplits_names_its_rules(capsys):
    status, out, _ = run(capsys, "hand", "7", "7", "--upcard", "9", "--shoe", "1,0,0,0,0,2,3,3,3,7",
                         "--split-strategy", "cdp", "--format", "json")
    assert status == 0
    document = json.loads(out)
    # the brute force of tests/fullgame_bruteforce.py, independently
    assert Fraction(document["moves"]["split"]) == Fraction(-14601, 14560)
    status, out, _ = run(capsys, "hand", "7", "7", "--upcard", "9", "--shoe", "1,0,0,0,0,2,3,3,3,7",
                         "--split-strategy", "cdp")
    assert status == 0 and out.splitlines()[0].endswith("CDP")


# --- bjexact player: the full game by default ---------------------------------------------------

SMALL_SHOE = (1, 0, 0, 0, 0, 2, 3, 3, 3, 7)  # 19 cards: A, 6..9, T


def test_player_full_json_values_equal_the_brute_force(capsys):
    """Every move of every two-card hand, and the round's value, from the independent brute force."""
    import fullgame_bruteforce as bf

    status, out, _ = run(capsys, "player", "--shoe", ",".join(map(str, SMALL_SHOE)), "--split-hands", "2",
                         "--surrender", "late", "--format", "json", "--quiet")
    assert status == 0
    document = json.loads(out)
    assert document["moves"] == "full" and document["rules"]["split_hands"] == 2
    reference = bf.BFRules(split_hands=2, surrender="late")
    assert Fraction(document["ev"]) == bf.round_value(SMALL_SHOE, reference) == -Fraction(document["house_edge"])
    assert document["hands"]
    for hand in document["hands"]:
        cards = ["A23456789T".index(c) + 1 for c in hand["cards"]]
        upcard = "A23456789T".index(hand["upcard"]) + 1
        expected = bf.move_values(SMALL_SHOE, cards, upcard, reference)
        assert {m: Fraction(v) for m, v in hand["moves"].items()} == expected, hand
        assert hand["best"] == max(expected, key=lambda m: (expected[m], -list(expected).index(m)))


def test_player_full_chart_is_the_chart_command(capsys):
    status, out, _ = run(capsys, "player", "--decks", "inf", "--h17", "--surrender", "late", "--format", "json")
    assert status == 0
    player = json.loads(out)
    status, out, _ = run(capsys, "chart", "--decks", "inf", "--h17", "--surrender", "late", "--format", "json")
    chart = json.loads(out)
    assert player["chart"] == {k: v for k, v in chart.items() if k != "rules"} and player["rules"] == chart["rules"]
    assert Fraction(player["ev"]) == Fraction(str(solve_game(GameRules(decks="inf", h17=True, surrender="late"),
                                                             with_distribution=False).ev))


def test_player_full_text_has_the_house_edge_the_chart_and_the_values(capsys):
    status, out, _ = run(capsys, "player", "--decks", "inf", "--split-hands", "2", "--values")
    assert status == 0
    assert out.startswith("Expected result of a round: -0.570388012% of the initial bet") and "House edge:" in out
    assert "Basic strategy, pairs:" in out and "Values of the moves v A (% of bet):" in out
    assert sum(line.startswith("Values of the moves v ") for line in out.splitlines()) == 10


@pytest.mark.parametrize("argv, words", [
    (["--naturals", "separate"], "--naturals is an option of the hit/stand game"),
    (["--objective", "win"], "--objective win is an option of the hit/stand game"),
    (["--moves", "hit-stand", "--rsa"], "--rsa is a rule of the full game"),
    (["--moves", "hit-stand", "--hole-card", "enhc"], "--hole-card is a rule of the full game"),
])
def test_player_options_of_the_other_game_are_refused(capsys, argv, words):
    status, out, err = run(capsys, "player", "--decks", "inf", *argv)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and words in err, err


def test_edge_on_the_infinite_deck_imports_neither_the_graph_library_nor_xml():
    """Start-up pays only for what the command uses: the infinite deck's dealer rows come
    from its totals, not from a networkx graph, and no figure is drawn."""
    import subprocess
    import sys

    code = (
        "import contextlib, io, sys\n"
        "from bjexact.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['edge', '--decks', 'inf', '--split-hands', '2'])\n"
        "print(sorted(m for m in ('networkx', 'numpy', 'xml.sax.saxutils') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
