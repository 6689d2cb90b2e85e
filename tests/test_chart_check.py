"""Reading printed basic strategy charts and judging them against the exact full game."""

from __future__ import annotations

from pathlib import Path

import pytest

from bjexact import BjexactError
from bjexact.checks.charts import (
    chart_rule_sets,
    check_chart,
    format_chart_check,
    format_chart_identification,
    identify_chart,
    parse_code,
    read_chart,
    row_keys,
)
from bjexact.core.numbers import fraction_string, mpq
from bjexact.core.rules import GameRules
from bjexact.render.game import chart_json

DATA = Path(__file__).parent / "data"
INF = GameRules(decks="inf", split_hands=2, surrender="late")
ONE_DECK_NO_SPLIT = GameRules(decks=1, split_hands=1)


@pytest.mark.parametrize("text, code", [
    ("H", "H"), ("hit", "H"), ("S", "S"), ("Stand", "S"), ("D", "D"), ("Dbl", "D"), ("DD", "D"), ("Dh", "Dh"),
    ("D/H", "Dh"), ("Dbl/Stand", "Ds"), ("Ds", "Ds"), ("P", "P"), ("SP", "P"), ("Split", "P"), ("Y", "P"),
    ("Ph", "Ph"), ("P/D", "Pd"), ("R", "R"), ("Sur", "R"), ("Rh", "Rh"), ("Rs", "Rs"), ("Rp", "Rp"),
    ("Sur/Split", "Rp"), ("N", "N"), ("**Ds**", "Ds"),
])
def test_codes_and_their_spellings(text, code):
    assert parse_code(text) == code


@pytest.mark.parametrize("text", ["X", "0.5", "Hx", "Stand/Hit/Split", ""])
def test_what_is_not_a_code(text):
    assert parse_code(text) is None


@pytest.mark.parametrize("label, section, keys", [
    ("16", None, ("hard", ["16"])), ("hard 16", None, ("hard", ["16"])), ("A,7", None, ("soft", ["18"])),
    ("A7", None, ("soft", ["18"])), ("soft 18", None, ("soft", ["18"])), ("8,8", None, ("pairs", ["8"])),
    ("88", None, ("pairs", ["8"])), ("T,T", None, ("pairs", ["T"])), ("10,10", None, ("pairs", ["T"])),
    ("AA", None, ("pairs", ["A"])), ("8", "pairs", ("pairs", ["8"])), ("18", "soft", ("soft", ["18"])),
    ("5-8", None, ("hard", ["5", "6", "7", "8"])), ("17+", None, ("hard", ["17", "18", "19", "20", "21"])),
    ("8 or less", None, ("hard", ["4", "5", "6", "7", "8"])), ("A,2-A,3", None, ("soft", ["13", "14"])),
])
def test_row_labels(label, section, keys):
    assert row_keys(label, section) == keys


@pytest.mark.parametrize("name", ["chart_inf_s17_das_ls.txt", "chart_inf_s17_das_ls.md"])
def test_a_right_chart_in_aligned_text_and_markdown_is_consistent(name):
    chart = read_chart((DATA / name).read_text(), source=name)
    check = check_chart(chart, INF)
    assert check.consistent, format_chart_check(check)
    assert len(check.cells) == 330
    assert {c.cell.section for c in check.cells} == {"hard", "soft", "pairs"}
    assert check.total_cost == 0
    # read back the way bjexact prints it too: every section, every code
    printed = chart_json(check_chart.__globals__["cached_solution"](INF))
    lines = ["player 2 3 4 5 6 7 8 9 T A"]
    for section in ("hard", "soft", "pairs"):
        lines.append(section.title())
        for row, cells in printed[section].items():
            label = {"soft": f"soft {row}", "pairs": f"{row},{row}"}.get(section, row)
            lines.append(f"{label} " + " ".join(cells[u] for u in "23456789TA"))
    assert check_chart(read_chart("\n".join(lines)), INF).consistent


def test_one_wrong_cell_fails_with_its_exact_cost():
    name = "chart_inf_s17_das_ls_wrong.csv"
    check = check_chart(read_chart((DATA / name).read_text(), source=name), INF)
    assert not check.consistent
    (wrong,) = check.wrong
    assert (wrong.cell.label, wrong.cell.upcard, wrong.printed_move, wrong.best) == ("16", 10, "stand", "surrender")
    solution = check_chart.__globals__["cached_solution"](INF)
    cell = solution.chart()["hard"]["16"][10]
    expected = 100 * solution.upcard_chance[10] * (cell.values["surrender"] - cell.values["stand"])
    assert wrong.cost == expected and wrong.cost > 0
    document = check.to_json()
    (json_cell,) = [c for c in document["cells"] if not c["consistent"]]
    assert json_cell["row"] == "16" and json_cell["upcard"] == "T" and json_cell["printed"] == "S"
    assert json_cell["best"] == "surrender" and json_cell["cost"] == fraction_string(expected)
    text = format_chart_check(check)
    assert "NOT CONSISTENT" in text and "16 v T" in text and fraction_string(expected) in text


def test_codes_are_read_under_the_rules():
    # without surrender Rh is a hit; without DAS Ph is a hit and P a split
    chart = read_chart("player 2 3 4 5 6 7 8 9 T A\n16 S S S S S H H Rh Rh Rh\n"
                       "Pairs\n2,2 Ph Ph P P P P H H H H\n")
    assert check_chart(chart, GameRules(decks="inf", split_hands=2, das=False)).consistent
    wrong = check_chart(chart, GameRules(decks="inf", split_hands=2, das=False, surrender="none"))
    assert wrong.consistent
    bad = read_chart("player 2 3 4 5 6 7 8 9 T A\nPairs\n2,2 P P P P P P H H H H\n")
    check = check_chart(bad, GameRules(decks="inf", split_hands=2, das=False))
    assert [(c.cell.upcard, c.best) for c in check.wrong] == [(2, "hit"), (3, "hit")]


def test_a_wrong_second_choice_is_reported():
    chart = read_chart("player 2 3 4 5 6 7 8 9 T A\nA,7 S Dh Ds Ds Ds S S H H H\n")
    check = check_chart(chart, INF)
    (wrong,) = check.wrong
    assert wrong.status == "second" and wrong.cell.upcard == 3 and wrong.exact_code == "Ds" and wrong.cost > 0


def test_a_cell_that_depends_on_composition_is_not_called_wrong():
    text = ("Hard totals\n| | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | A |\n"
            "| 12 | H | S | H | S | S | H | H | H | H | H |\n"
            "| 11 | D | D | D | D | H | D | D | D | D | D |\n")
    check = check_chart(read_chart(text), ONE_DECK_NO_SPLIT)
    by_cell = {(c.cell.row, c.cell.upcard): c for c in check.cells}
    for upcard in (3, 4):  # 12 v 3 hits and 12 v 4 stands as a total, but some of their hands do the other
        assert by_cell[("12", upcard)].status == "composition"
        assert by_cell[("12", upcard)].consistent and by_cell[("12", upcard)].cost > 0
        assert by_cell[("12", upcard)].to_json()["depends_on_composition"]
    assert [(c.cell.row, c.cell.upcard) for c in check.wrong] == [("11", 6)]
    text = format_chart_check(check)
    assert "depends on composition" in text and "11 v 6" in text


def test_unreadable_charts_name_the_line():
    with pytest.raises(BjexactError, match="line 2: 'Q' is not a strategy code"):
        read_chart("player 2 3 4 5 6 7 8 9 T A\n16 S S S S S H H H Q H\n")
    with pytest.raises(BjexactError, match="no strategy chart"):
        read_chart("nothing here\n")
    with pytest.raises(BjexactError, match="printed twice"):
        read_chart("player 2 3 4 5 6 7 8 9 T A\n16 S S S S S H H H H H\n16 S S S S S H H H S H\n")


def test_identify_puts_the_charts_own_rules_first_and_names_the_separating_cells():
    chart = read_chart((DATA / "chart_inf_s17_das_ls.txt").read_text(), source="chart")
    candidates = chart_rule_sets(GameRules(split_hands=2), decks=["inf"], hole_card=["peek"])
    identification = identify_chart(chart, candidates)
    best = identification.checks[0]
    assert best.consistent and best.rules == INF
    # read without surrender its R cells are hits, and right: consistent, but ranked after
    assert [c.rules.surrender for c in identification.matches] == ["late", "none"]
    assert identification.checks[1].unplayable == 4
    assert identification.separating()
    text = format_chart_identification(identification)
    assert "consistent with 2 of 8 rule sets" in text and "separate" in text
    assert "4 printed moves these rules do not allow" in text
    assert identification.to_json()["candidates"][0]["cost"] == "0"


def test_cost_is_zero_for_the_best_move_and_exact():
    check = check_chart(read_chart("player 2 3 4 5 6 7 8 9 T A\n16 S S S S S H H Rh Rh Rh\n"), INF)
    assert all(c.cost == mpq(0) for c in check.cells)


def test_a_title_that_mentions_splitting_does_not_open_the_pair_section():
    text = ("Basic strategy, double after split allowed\nplayer 2 3 4 5 6 7 8 9 T A\n"
            "9 H Dh Dh Dh Dh H H H H H\nPair splitting\n9 P P P P P S P P S S\n")
    assert [(c.section, c.row) for c in read_chart(text).cells[::10]] == [("hard", "9"), ("pairs", "9")]


# --- every chart bjexact prints is read back ------------------------------------------------------------------

ROUND_TRIP_RULES = [
    GameRules(decks="inf", split_hands=1),
    GameRules(decks="inf", h17=True, das=False, split_hands=2, surrender="late"),
    GameRules(decks="inf", hole_card="enhc", double="10-11", surrender="early"),
    GameRules(decks=1, split_hands=1, h17=True),
]


@pytest.mark.parametrize("rules", ROUND_TRIP_RULES, ids=lambda r: r.describe())
def test_every_chart_bjexact_prints_is_read_back_by_verify_and_check_sim(rules):
    from bjexact.checks.charts import cached_solution, chart_policy
    from bjexact.player.policy import ChartPolicy
    from bjexact.render.game import chart_tables
    from bjexact.render.tables import NumberStyle, render

    solution = cached_solution(rules, None)
    engine = ChartPolicy.of_solution(solution)
    for fmt in ("text", "csv", "md", "latex", "json"):
        text = render(chart_tables(solution, by_hand=False), fmt, NumberStyle(), chart_json(solution))
        chart = read_chart(text, source=fmt)
        check = check_chart(chart, rules, solution)
        assert check.consistent and not check.wrong, (fmt, format_chart_check(check))
        printed = {(c.section, c.row, c.upcard): c.code for c in chart.cells}
        assert printed == {k: v for k, v in engine.codes.items() if k in printed}, fmt
        assert chart_policy(chart).codes == engine.codes, fmt  # what check-sim --chart plays


def test_check_sim_plays_bjexacts_own_chart(tmp_path, capsys):
    from bjexact.cli import main

    assert main(["chart", "--decks", "inf", "--split-hands", "1", "--quiet", "-o", str(tmp_path / "c.txt")]) == 0
    assert main(["verify", str(tmp_path / "c.txt"), "--kind", "chart", "--decks", "inf", "--split-hands", "1"]) == 0
    assert main(["check-sim", "--game", "bjexact.checks.rounds:exact_round_simulator", "--factory", "--decks", "inf",
                 "--split-hands", "1", "--chart", str(tmp_path / "c.txt"), "--rounds", "3000"]) == 0
    assert "Verdict: PASS" in capsys.readouterr().out


def test_a_section_title_is_named_by_its_first_section_word():
    text = ("Basic strategy, hard totals: infinite deck, no splitting\nplayer 2 3 4 5 6 7 8 9 T A\n"
            "5 H H H H H H H H H H\n")
    assert {c.section for c in read_chart(text).cells} == {"hard"}


UPCARD_COLUMNS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)


def _grid_rows() -> dict[str, list[tuple[str, list[str]]]]:
    """The chart of tests/data/chart_inf_s17_das_ls.txt by section (rows hard 5-21, soft 13-21, pairs 2-A;
    unprinted all-stand rows as S, a pair that is not split as N)."""
    chart = read_chart((DATA / "chart_inf_s17_das_ls.txt").read_text())
    codes = {(c.section, c.row, c.upcard): c.code for c in chart.cells}
    rows: dict[str, list[tuple[str, list[str]]]] = {"hard": [], "soft": [], "pairs": []}
    for section, labels in (("hard", [str(t) for t in range(5, 22)]), ("soft", [str(t) for t in range(13, 22)]),
                            ("pairs", ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"])):
        for row in labels:
            default = "N" if section == "pairs" else "S"
            rows[section].append((row, [codes.get((section, row, u), default) for u in UPCARD_COLUMNS]))
    return rows


def _grid(label_of) -> str:
    lines = []
    for section, rows in _grid_rows().items():
        lines.append(",2,3,4,5,6,7,8,9,10,A")
        lines += [f"{label_of(section, '10' if row == 'T' else row)},{','.join(codes)}" for row, codes in rows]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("label_of", [
    lambda section, row: str(row),  # three untitled blocks, bare numbers
    lambda section, row: {"hard": "H", "soft": "S", "pairs": "P"}[section] + str(row),  # H5, S13, P8, PA
    lambda section, row: f"{section} {row}" if section != "pairs" else f"{row},{row}",
], ids=["bare", "prefixed", "named"])
def test_common_csv_grids_are_read(label_of):
    chart = read_chart(_grid(label_of), source="grid.csv")
    sections = {(c.section, c.row) for c in chart.cells}
    assert {r for s, r in sections if s == "hard"} == {str(t) for t in range(5, 22)}
    assert {r for s, r in sections if s == "soft"} == {str(t) for t in range(13, 22)}
    assert {r for s, r in sections if s == "pairs"} == {"2", "3", "4", "5", "6", "7", "8", "9", "T", "A"}
    check = check_chart(chart, INF)
    assert check.consistent, format_chart_check(check)


def test_every_cell_that_cannot_be_read_is_listed():
    lines = _grid(lambda section, row: str(row)).splitlines()
    soft13 = [i for i, line in enumerate(lines) if line.startswith("13,")][1]
    pair8 = [i for i, line in enumerate(lines) if line.startswith("8,")][1]
    lines[soft13] = "13,H,X," + lines[soft13].split(",", 3)[3]
    lines[pair8] = lines[pair8].rsplit(",", 1)[0] + ",??"
    with pytest.raises(BjexactError, match=r"2 cells cannot be read: line \d+: 'X' is not a strategy code "
                                           r"\(13 v 3\); line \d+: '\?\?' is not a strategy code \(8 v A\)"):
        read_chart("\n".join(lines), source="grid.csv")


def test_the_adapter_example_of_the_help_is_complete_short_and_passes(tmp_path, capsys):
    from bjexact.cli import main

    example = Path(__file__).parent.parent / "examples" / "round_adapter.py"
    assert len(example.read_text().splitlines()) <= 30
    assert main(["chart", "--decks", "inf", "--split-hands", "1", "--quiet", "-o", str(tmp_path / "c.csv")]) == 0
    assert main(["check-sim", "--game", f"{example}:make", "--factory", "--decks", "inf", "--split-hands", "1",
                 "--chart", str(tmp_path / "c.csv"), "--rounds", "20000"]) == 0
    assert "Verdict: PASS" in capsys.readouterr().out


def test_the_docs_show_the_adapter_example_as_it_is():
    root = Path(__file__).parent.parent
    page = root / "docs" / "guides" / "verifying.md"
    assert (root / "examples" / "round_adapter.py").read_text() in page.read_text()


@pytest.mark.parametrize("row", ["5-999999999", "<= 999999999", "soft 13-999999999", "4-22"])
def test_a_row_of_totals_beyond_21_is_refused_before_it_is_listed(row):
    text = f"hard  2 3 4 5 6 7 8 9 T A\n{row}  H H H H H H H H H H\n"
    with pytest.raises(BjexactError) as error:
        read_chart(text)
    assert "names totals outside" in str(error.value) and "\n" not in str(error.value)
