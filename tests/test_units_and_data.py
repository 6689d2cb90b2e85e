"""One convention for numbers (percent or per unit, said in every header), tidy CSV that data tools
load, JSON floats beside the exact fractions, and the basic strategy chart's edge (``edge --strategy``)."""

from __future__ import annotations

import io
import json
import re
from fractions import Fraction

import pytest
from clirun import run

pandas = pytest.importorskip("pandas")

INF = ["--decks", "inf", "--quiet"]


def test_edge_csv_is_one_table_pandas_loads_with_the_house_edge(capsys):
    status, out, _ = run(capsys, "edge", *INF, "--format", "csv")
    assert status == 0
    frame = pandas.read_csv(io.StringIO(out))
    assert list(frame.columns[:3]) == ["section", "quantity", "value (% of bet)"]
    assert set(frame["section"]) == {"summary", "by up-card", "how rounds go", "net result"}
    summary = frame[frame["section"] == "summary"].set_index("quantity")["value (% of bet)"]
    assert summary["house edge"] == pytest.approx(0.5117, abs=1e-4)
    assert len(frame[frame["section"] == "by up-card"]) == 10


def test_chart_csv_has_a_section_column(capsys):
    status, out, _ = run(capsys, "chart", "--decks", "inf", "--format", "csv")
    frame = pandas.read_csv(io.StringIO(out), dtype=str)
    assert status == 0 and list(frame.columns) == ["section", "player", *"23456789TA"]
    assert frame.groupby("section", sort=False).size().to_dict() == {"hard": 15, "soft": 8, "pairs": 10}
    hard16 = frame[(frame["section"] == "hard") & (frame["player"] == "16")]
    assert list(hard16.iloc[0, 2:]) == list("SSSSSHHHHH")


def test_units_switch_and_every_header_says_which(capsys):
    argv = ["hand", "8", "8", "--upcard", "A", "--decks", "6"]
    _, percent, _ = run(capsys, *argv)
    _, unit, _ = run(capsys, *argv, "--units", "per-unit")
    assert "value (% of bet)" in percent and re.search(r"split +-36\.4252 ", percent)
    assert "value (per unit bet)" in unit and re.search(r"split +-0\.364252 ", unit)
    assert "per unit" not in percent.split("Insurance")[0]  # no header claims per unit over percentages
    _, exact, _ = run(capsys, *argv, "--exact")
    assert "value (exact, per unit bet)" in exact


def test_json_has_a_float_beside_each_exact_value(capsys):
    status, out, _ = run(capsys, "edge", *INF, "--format", "json")
    document = json.loads(out)
    assert status == 0 and document["strategy"] == "optimal"
    assert document["ev_float"] == float(Fraction(document["ev"])) and document["house_edge_float"] > 0
    assert document["by_upcard_float"]["A"] == float(Fraction(document["by_upcard"]["A"]))
    assert document["distribution_float"]["-1"] == float(Fraction(document["distribution"]["-1"]))
    _, out, _ = run(capsys, "hand", "T", "6", "--upcard", "T", "--format", "json")
    hand = json.loads(out)
    assert hand["moves_float"] == {m: float(Fraction(v)) for m, v in hand["moves"].items()}


def test_edge_of_the_basic_strategy_chart(capsys, tmp_path):
    rules = ["--decks", "1", "--split-hands", "1", "--quiet", "--format", "json"]
    status, out, _ = run(capsys, "edge", *rules, "--strategy", "chart")
    played = json.loads(out)
    assert status == 0 and played["strategy"] == "chart" and played["chart"] == "bjexact chart"
    # one deck: the total-dependent chart gives up about 0.04% against composition-dependent play
    assert Fraction(played["ev"]) < Fraction(played["optimal_ev"])
    assert Fraction(played["optimal_ev"]) - Fraction(played["ev"]) == pytest.approx(Fraction(3.7612e-4), rel=1e-3)
    status, chart, _ = run(capsys, "chart", *INF)
    (tmp_path / "chart.txt").write_text(chart)
    status, out, _ = run(capsys, "edge", *INF, "--format", "json", "--chart", str(tmp_path / "chart.txt"))
    printed = json.loads(out)
    # the infinite deck: the printed chart is the optimal play (composition does not matter)
    assert status == 0 and printed["chart"].endswith("chart.txt") and printed["ev"] == printed["optimal_ev"]
    status, _, err = run(capsys, "edge", *INF, "--chart", str(tmp_path / "chart.txt"), "--strategy", "optimal")
    assert status == 2 and err.count("\n") == 1


@pytest.mark.parametrize("argv, words", [
    (["edg"], "unknown command 'edg' (did you mean 'edge'?)"),
    (["edge", "--H17"], "unrecognized arguments: --H17 (did you mean '--h17'?)"),
    (["chart", "--surender", "late"], "(did you mean '--surrender'?)"),
])
def test_typos_are_answered_with_the_closest_name(capsys, argv, words):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and words in err and err.count("\n") == 1


def test_play_and_bj_pays_odds_as_every_command(capsys):
    from bjexact.cli import build_parser
    from bjexact.cli.game_options import game_rules_from_args

    edge = game_rules_from_args(build_parser().parse_args(["edge"]))
    assert build_parser().parse_args(["play"]).decks == edge.decks == 2
    status, out, _ = run(capsys, "hand", "T", "6", "--upcard", "T", "--decks", "inf", "--bj-pays", "6:5")
    assert status == 0 and "blackjack pays 6/5" in out
