"""verify --kind chart|edge and check-sim --game on the command line: exit statuses and JSON."""

from __future__ import annotations

import json
from pathlib import Path

from clirun import run

DATA = Path(__file__).parent / "data"
INF = ["--decks", "inf", "--split-hands", "2"]


def test_verify_chart_exit_statuses_and_json(capsys):
    status, out, _ = run(capsys, "verify", "--kind", "chart", str(DATA / "chart_inf_s17_das_ls.md"), *INF,
                         "--surrender", "late")
    assert status == 0 and "CONSISTENT" in out
    status, out, _ = run(capsys, "verify", "--kind", "chart", str(DATA / "chart_inf_s17_das_ls_wrong.csv"), *INF,
                         "--surrender", "late", "--format", "json")
    assert status == 1
    document = json.loads(out)
    (wrong,) = [c for c in document["cells"] if not c["consistent"]]
    assert {k: wrong[k] for k in ("row", "upcard", "printed", "best")} == {
        "row": "16", "upcard": "T", "printed": "S", "best": "surrender"}
    assert wrong["cost"] == "720552000/10604499373"


def test_verify_chart_refuses_what_it_cannot_read(capsys, tmp_path):
    chart = tmp_path / "chart.txt"
    chart.write_text("player 2 3 4 5 6 7 8 9 T A\n16 S S S S S H H H Q H\n")
    status, _, err = run(capsys, "verify", "--kind", "chart", str(chart), *INF)
    assert status == 2 and err.startswith("bjexact: error:") and "line 2" in err and len(err.splitlines()) == 1


def test_the_issues_six_deck_chart_is_wrong_where_every_sixteen_hits(capsys, tmp_path):
    chart = tmp_path / "chart.txt"
    chart.write_text("player 2 3 4 5 6 7 8 9 T A\nhard 16 S S S S S H H H S H\n")
    status, out, _ = run(capsys, "verify", "--kind", "chart", str(chart), "--decks", "6", "--split-hands", "2")
    assert status == 1 and "16 v T: printed S (stand), best hit" in out


def test_verify_chart_identify(capsys):
    status, out, _ = run(capsys, "verify", "--kind", "chart", str(DATA / "chart_inf_s17_das_ls.txt"), "--identify",
                         "--decks", "inf", "--hole-card", "peek")
    assert status == 0
    assert out.splitlines()[1].startswith("  1. infinite deck, S17") and "late surrender" in out.splitlines()[1]


def test_verify_edge(capsys):
    status, out, _ = run(capsys, "verify", "--kind", "edge", *INF, "--", "-0.57%")
    assert status == 0 and "CONSISTENT" in out
    status, out, _ = run(capsys, "verify", "--kind", "edge", *INF, "--format", "json", "--", "-0.46%")
    assert status == 1 and json.loads(out)["consistent"] is False
    status, out, _ = run(capsys, "verify", "--kind", "edge", "--decks", "inf", "--identify", "--", "-0.48%")
    assert status == 0 and "1 fit" in out and "late surrender" in out.splitlines()[4]


def test_check_sim_game(capsys, tmp_path):
    sim = tmp_path / "roundsim.py"
    sim.write_text("from bjexact.core.rules import GameRules\n"
                   "from bjexact.checks.rounds import round_simulator\n"
                   "RULES = GameRules(decks='inf', split_hands=2)\n"
                   "good = round_simulator(RULES)\n"
                   "six_to_five = round_simulator(RULES, bj_pays='6/5')\n")
    args = ["check-sim", "--game", *INF, "--rounds", "20000"]
    status, out, _ = run(capsys, *args, f"{sim}:good")
    assert status == 0 and "Verdict: PASS" in out
    status, out, _ = run(capsys, *args, f"{sim}:six_to_five", "--format", "json")
    assert status == 1 and json.loads(out)["impossible_outcomes_seen"] == ["1.2"]
    status, out, _ = run(capsys, *args[:-1], "10", f"{sim}:good")
    assert status == 1 and "NOT TESTED" in out
    status, out, _ = run(capsys, "check-sim", "--game", "bjexact.checks.rounds:exact_round_simulator", "--factory",
                         *INF, "--rounds", "20000")
    assert status == 0


def test_check_sim_game_with_a_chart(capsys, tmp_path):
    chart = DATA / "chart_inf_s17_das_ls.txt"
    base = ["check-sim", "--game", "bjexact.checks.rounds:exact_round_simulator", "--factory", *INF,
            "--surrender", "late", "--rounds", "20000"]
    status, out, _ = run(capsys, *base, "--chart", str(chart), "--format", "json")
    document = json.loads(out)
    assert status == 0 and document["strategy"] == f"the chart {chart}"
    # the printed chart is optimal play on the infinite deck: the same exact mean
    status, optimal, _ = run(capsys, *base, "--strategy", "optimal", "--format", "json")
    assert status == 0 and json.loads(optimal)["exact_mean"] == document["exact_mean"]
    # a chart that stands on 16 everywhere is worth less, and optimal play is not what it plays
    stiff = tmp_path / "stand16.txt"
    stiff.write_text(chart.read_text().replace("16       S   S   S   S   S   H   H   Rh  Rh  Rh",
                                               "16       S   S   S   S   S   S   S   S   S   S"))
    status, worse, _ = run(capsys, *base, "--chart", str(stiff), "--format", "json")
    assert status == 0 and json.loads(worse)["exact_mean_decimal"] < document["exact_mean_decimal"]
    status, out, _ = run(capsys, "check-sim", "--game", "bjexact.checks.rounds:exact_round_simulator", "--factory",
                         *INF, "--surrender", "late", "--rounds", "20000", "--chart", str(stiff), "--strategy",
                         "chart")
    assert status == 0 and "play by the chart" in out
    for argv, message in [(["--strategy", "chart"], "needs the chart"),
                          (["--strategy", "optimal", "--chart", str(chart)], "--chart is the strategy"),
                          (["--chart", str(tmp_path / "nope.txt")], "no chart file")]:
        status, _, err = run(capsys, *base, *argv)
        assert status == 2 and message in err and len(err.strip().splitlines()) == 1
    status, _, err = run(capsys, "check-sim", "bjexact.checks.simcheck:exact_dealer_simulator", "--chart", str(chart))
    assert status == 2 and "go with --game" in err


def test_verify_edge_file(capsys, tmp_path):
    edges = tmp_path / "edges.txt"
    edges.write_text("# edges\ninfinite deck, S17, DAS, split once: -0.57%\ninf deck, H17, split once, no DAS: 0.5%\n")
    status, out, _ = run(capsys, "verify", "--kind", "edge", str(edges))
    assert status == 1 and "line 3: 0.5%: NOT CONSISTENT" in out and "line 2: -0.57%: consistent" in out
    status, _, err = run(capsys, "verify", "--kind", "edge", str(edges), "--identify")
    assert status == 2 and "--identify takes one house edge" in err
