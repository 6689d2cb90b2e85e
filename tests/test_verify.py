"""Reading printed dealer tables, judging them cell by cell, and naming their conventions."""

from __future__ import annotations

import json
from decimal import ROUND_HALF_EVEN, Decimal, localcontext
from fractions import Fraction
from pathlib import Path

import pytest

from bjexact import BjexactError, Rules, dealer_table
from bjexact.checks.verify import (
    KNOWN_SLIPS,
    TOTAL,
    Tolerance,
    check_dealer_table,
    conventions,
    dealer_table_from_values,
    exact_cell,
    format_check,
    identify,
    parse_number,
    read_dealer_table,
    slipped_dealer_table,
    soft_ace_becomes_hard,
)
from bjexact.cli import main
from bjexact.core.hand import HandValue
from bjexact.core.numbers import mpq
from bjexact.render.tables import NumberStyle, dealer_tables, render

DATA = Path(__file__).parent / "data"
INF = Rules(decks="inf")
TWO = Rules(decks=2)


def rounded(value, places: int, percent: bool) -> str:
    """An exact rational rounded half-even with Decimal, independently of bjexact's own rounding."""
    with localcontext() as ctx:
        ctx.prec = 80
        d = Decimal(int(value.numerator)) / Decimal(int(value.denominator)) * (100 if percent else 1)
        return str(d.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN))


def csv_table(rules: Rules, places: int = 4, percent: bool = False, table=None) -> str:
    table = table or dealer_table(rules)
    lines = ["upcard," + ",".join(table.outcomes)]
    for u, row in table.rows.items():
        label = "A" if u == 1 else str(u)
        lines.append(label + "," + ",".join(rounded(row[o], places, percent) for o in table.outcomes))
    return "\n".join(lines) + "\n"


# --- printed numbers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, value, unit, kind", [
    ("0.1398", Fraction(1398, 10000), Fraction(1, 10000), "rounded"),
    ("13.98%", Fraction(1398, 100), Fraction(1, 100), "rounded"),
    ("14", Fraction(14), Fraction(1), "rounded"),
    (".5", Fraction(1, 2), Fraction(1, 10), "rounded"),
    ("1.398e-01", Fraction(1398, 10000), Fraction(1, 10000), "rounded"),
    ("0.13980913622711244", Fraction(13980913622711244, 10**17), Fraction(1, 10**17), "long"),
    ("7/26", Fraction(7, 26), Fraction(0), "fraction"),
    ("-", Fraction(0), Fraction(0), "fraction"),
    ("**0.25**", Fraction(1, 4), Fraction(1, 100), "rounded"),
])
def test_parse_number_infers_the_printed_precision(text, value, unit, kind):
    number = parse_number(text)
    assert (Fraction(number.value), Fraction(number.unit), number.kind) == (value, unit, kind)


def test_parse_number_refuses_words_and_reads_decimal_commas_only_when_asked():
    assert parse_number("bust") is None
    assert parse_number("13,98") is None
    assert Fraction(parse_number("13,98", decimal_comma=True).value) == Fraction(1398, 100)


def test_a_cell_is_consistent_within_half_a_unit_and_exact_halves_go_either_way():
    # shoe A, 2, T: with up-card T the dealer's only draws are A (21) or 2 then the shoe runs out
    rules = Rules(shoe=(1, 1, 0, 0, 0, 0, 0, 0, 0, 1))
    assert dealer_table(rules)[10]["21"] == mpq(1, 2)
    for printed, ok in (("0", True), ("1", True), ("0.5", True), ("0.4", False), ("0.6", False),
                        ("0.50", True), ("0.49", False), ("1/2", True), ("0.499999", False)):
        table = dealer_table_from_values({"T": {"21": printed}}, columns=["21"])
        assert check_dealer_table(table, rules).consistent is ok, printed


# --- reading real layouts -------------------------------------------------------------------------------

SAMPLES = [
    ("quiz_2decks_separate_percent.txt", Rules(decks=2, naturals="separate"), "whitespace", "percent", 13),
    ("inf_s17_probabilities.tsv", INF, "tsv", "probability", 11),
    ("six_decks_h17_peek.md", Rules(decks=6, h17=True, naturals="peek"), "pipe", "percent", 10),
    ("eight_decks_box.txt", Rules(decks=8), "pipe", "probability", 10),
    ("one_deck_semicolon.csv", Rules(decks=1), "semicolon", "percent", 10),
    ("float_repr_inf_h17.csv", Rules(decks="inf", h17=True), "csv", "probability", 10),
]


@pytest.mark.parametrize("name, rules, layout, scale, nrows", SAMPLES)
def test_sample_tables_in_real_layouts_are_read_and_consistent(name, rules, layout, scale, nrows):
    table = read_dealer_table((DATA / name).read_text(), source=name)
    assert (table.layout, table.scale, len(table.rows)) == (layout, scale, nrows)
    assert check_dealer_table(table, rules).consistent


@pytest.mark.parametrize("name, rules, layout, scale, nrows", SAMPLES)
def test_identify_puts_the_sample_tables_own_convention_among_the_matches(name, rules, layout, scale, nrows):
    table = read_dealer_table((DATA / name).read_text())
    found = identify(table)
    assert rules in [c.rules for c in found.matches]
    assert found.best.consistent


def test_the_sample_tables_read_their_labels_and_columns():
    quiz = read_dealer_table((DATA / "quiz_2decks_separate_percent.txt").read_text())
    assert quiz.columns == ("17", "18", "19", "20", "21", "blackjack", "bust")
    assert [r.label for r in quiz.rows][-4:] == ["J", "Q", "K", "A"]
    assert [r.upcard for r in quiz.rows][-4:] == [10, 10, 10, 1]
    tsv = read_dealer_table((DATA / "inf_s17_probabilities.tsv").read_text())
    assert tsv.columns[0] == "bust" and tsv.rows[-1].upcard == TOTAL and tsv.rows[-2].label == "Ace"
    semicolon = read_dealer_table((DATA / "one_deck_semicolon.csv").read_text())
    assert semicolon.rows[-1].upcard == 1  # labelled 11


def test_the_total_row_is_the_upcard_weighted_average():
    text = (DATA / "inf_s17_probabilities.tsv").read_text()
    check = check_dealer_table(read_dealer_table(text), INF)
    total = check.rows[-1]
    assert total.row.upcard == TOTAL and total.consistent
    exact = dealer_table(INF)
    weights = {u: Fraction(4 if u == 10 else 1, 13) for u in range(1, 11)}
    bust = sum(w * Fraction(exact[u]["bust"]) for u, w in weights.items())
    assert Fraction(total.cells[0].exact) == bust
    # the unweighted mean of the ten rows is a different number, and is caught
    mean = sum(Fraction(exact[u]["bust"]) for u in range(1, 11)) / 10
    lines = text.splitlines()
    lines[-1] = "Total\t" + rounded(mean, 6, False) + "\t" + "\t".join(lines[-1].split("\t")[2:])
    bad = check_dealer_table(read_dealer_table("\n".join(lines)), INF)
    assert [(r.row.label, c.column) for r, c in bad.inconsistent_cells] == [("Total", "bust")]


# --- every format of `bjexact dealer` --------------------------------------------------------------------


@pytest.mark.parametrize("rules", [INF, TWO, Rules(decks=6, h17=True, naturals="separate"),
                                   Rules(decks=1, naturals="peek")])
@pytest.mark.parametrize("fmt", ["text", "csv", "md"])
@pytest.mark.parametrize("decimals", [0, 1, 2, 4, 7])
def test_a_table_rendered_from_exact_values_passes_in_every_format(rules, fmt, decimals):
    style = NumberStyle(decimals=decimals)
    exact = dealer_table(rules)
    for rank_rows in (False, True):
        text = render(dealer_tables(exact, style, rank_rows=rank_rows), fmt, style)
        table = read_dealer_table(text)
        assert len(table.rows) == (13 if rank_rows else 10)
        assert check_dealer_table(table, rules).consistent


def test_the_dealer_command_output_passes_through_the_verify_command(tmp_path, capsys):
    for fmt in ("text", "csv", "md"):
        path = tmp_path / f"table.{fmt}"
        command = ["dealer", "--decks", "4", "--h17", "--format", fmt, "--decimals", "3", "-o", str(path)]
        assert main(command) == 0
        assert main(["verify", str(path), "--decks", "4", "--h17"]) == 0
        assert "Verdict: CONSISTENT" in capsys.readouterr().out


def test_the_json_of_the_dealer_command_is_read_as_exact_fractions():
    rules = Rules(decks=3, h17=True, naturals="separate")
    text = json.dumps(dealer_table(rules).to_json())
    table = read_dealer_table(text)
    assert table.layout == "json" and all(c.kind == "fraction" for r in table.rows for c in r.cells)
    assert check_dealer_table(table, rules).consistent
    assert [c.rules for c in identify(table).matches] == [rules]
    with pytest.raises(BjexactError, match="not a dealer table in JSON"):
        read_dealer_table('{"table": 3}')


def test_probabilities_printed_with_many_places_pass():
    style = NumberStyle(decimals=12, percent=False)
    text = render(dealer_tables(dealer_table(TWO), style), "csv", style)
    table = read_dealer_table(text)
    assert table.scale == "probability" and table.rows[0].cells[0].decimals == 12
    assert check_dealer_table(table, TWO).consistent


# --- one unit off in the last digit ----------------------------------------------------------------------


@pytest.mark.parametrize("rules, places, percent", [(TWO, 4, True), (INF, 6, False)])
def test_perturbing_one_cell_by_one_unit_fails_on_that_cell_only(rules, places, percent):
    text = csv_table(rules, places, percent)
    lines = text.splitlines()
    unit = Decimal(1).scaleb(-places)
    for line_no in range(1, len(lines)):
        cells = lines[line_no].split(",")
        for col in range(1, len(cells)):
            for step in (unit, -unit):
                value = Decimal(cells[col]) + step
                if value < 0:
                    continue
                changed = cells[:col] + [str(value)] + cells[col + 1:]
                bad_lines = lines[:line_no] + [",".join(changed)] + lines[line_no + 1:]
                check = check_dealer_table(read_dealer_table("\n".join(bad_lines)), rules)
                where = [(r.row.line, c.column) for r, c in check.inconsistent_cells]
                assert where == [(line_no + 1, lines[0].split(",")[col])]


def test_the_report_names_the_offending_cell():
    lines = csv_table(TWO, 4, True).splitlines()
    cells = lines[6].split(",")  # up-card 7, on line 7
    cells[2] = str(Decimal(cells[2]) + Decimal("0.0001"))
    lines[6] = ",".join(cells)
    check = check_dealer_table(read_dealer_table("\n".join(lines), source="t.csv"), TWO)
    report = format_check(check)
    assert "line 7, row 7, column 18: printed " + cells[2] in report
    assert "1 of 60 cells inconsistent" in report and "Verdict: INCONSISTENT" in report
    data = check.to_json()
    assert data["consistent"] is False
    row = data["rows"][5]
    assert (row["row"], row["upcard"], row["consistent"]) == ("7", "7", False)
    cell = row["cells"][1]
    assert cell["column"] == "18" and cell["printed"] == cells[2] and cell["consistent"] is False
    exact = Fraction(dealer_table(TWO)[7]["18"])
    assert Fraction(cell["exact"]) == exact
    assert cell["error"] == float(Fraction(cells[2]) - 100 * exact)  # percentage points
    assert 0.00005 < cell["error"] < 0.00015 and cell["allowed"] == 0.00005
    assert data["max_abs_error"] == cell["error"]


# --- conventions -----------------------------------------------------------------------------------------


def test_an_infinite_deck_table_checked_as_two_decks_fails_and_identify_names_the_infinite_deck():
    table = read_dealer_table(csv_table(INF, 4, True))
    assert not check_dealer_table(table, TWO).consistent
    found = identify(table)
    assert found.matches and found.best.rules == INF
    assert all(c.rules.infinite for c in found.matches)


def test_identify_tells_the_naturals_conventions_apart():
    for naturals in ("as21", "separate", "peek"):
        rules = Rules(decks=6, naturals=naturals)
        found = identify(read_dealer_table(csv_table(rules, 6, False)))
        assert [c.rules for c in found.matches] == [rules]


def test_identify_explains_rows_that_follow_another_convention():
    # every row from S17 but the ace row from H17 (only rows 2..6 and A can reach soft 17)
    s17, h17 = dealer_table(TWO), dealer_table(Rules(decks=2, h17=True))
    assert all(s17.rows[u] == h17.rows[u] for u in (7, 8, 9, 10))
    rows = {u: (h17 if u == 1 else s17).rows[u] for u in s17.rows}
    mixed = type(s17)(TWO, s17.outcomes, rows)
    found = identify(read_dealer_table(csv_table(TWO, 4, True, table=mixed)))
    assert not found.matches and found.best.rules == TWO
    text = " ".join(found.explanations)
    assert "Row A does not match 2 decks, S17, naturals as21 but matches 2 decks, H17, naturals as21" in text


def test_identify_explains_swapped_columns():
    text = csv_table(Rules(decks=6), 4, True)
    text = text.replace("upcard,17,18,19,20,21,bust", "upcard,17,18,20,19,21,bust")
    found = identify(read_dealer_table(text))
    assert not found.matches
    assert any("Swapped columns" in e and "headed 20 holds the exact 19" in e for e in found.explanations)


def test_identify_explains_rows_that_do_not_sum_to_one():
    lines = csv_table(INF, 4, False).splitlines()
    cells = lines[3].split(",")  # up-card 4
    cells[6] = str(Decimal(cells[6]) + Decimal("0.0100"))
    lines[3] = ",".join(cells)
    found = identify(read_dealer_table("\n".join(lines)))
    assert not found.matches
    assert any(e.startswith("Rows that do not sum to 1") and "4 (1.01" in e for e in found.explanations)


def test_identify_recognises_the_soft_ace_slip():
    found = identify(read_dealer_table((DATA / "soft_ace_slip_inf_s17.csv").read_text()))
    assert not found.matches
    assert found.best.rules == INF
    assert any("Known slip" in e and "soft-ace-becomes-hard" in e and "infinite deck, S17" in e
               for e in found.explanations)


# --- the known slip and the independent evaluator --------------------------------------------------------


def test_the_soft_ace_slip_differs_from_the_rule_only_on_a_soft_hand_drawing_an_ace():
    assert soft_ace_becomes_hard(HandValue(13, True), 1) == HandValue(14, False)
    assert soft_ace_becomes_hard(HandValue(11, True), 1) == HandValue(12, False)
    assert soft_ace_becomes_hard(HandValue(13, True), 10) == HandValue(13, False)
    assert soft_ace_becomes_hard(HandValue(9, False), 1) == HandValue(20, True)


@pytest.mark.parametrize("rules", [
    INF, Rules(decks=1, h17=True, naturals="separate"), Rules(decks=2, naturals="peek"),
    Rules(shoe=(1, 1, 0, 0, 0, 0, 0, 0, 0, 1)),
])
def test_the_independent_evaluator_reproduces_the_dealer_graph_exactly(rules):
    graph, direct = dealer_table(rules), slipped_dealer_table(rules)
    assert graph.outcomes == direct.outcomes
    assert {u: dict(r) for u, r in graph.rows.items()} == {u: dict(r) for u, r in direct.rows.items()}


def test_the_slip_changes_only_rows_where_a_soft_hand_can_draw_an_ace():
    # hand-derived: up-card A, hole card A (1/13) is soft 12 under the rule and hard 12 under the slip;
    # from 5 up a soft hand that draws an ace is soft 17 or more and stands either way
    exact, slipped = dealer_table(INF), slipped_dealer_table(INF, KNOWN_SLIPS["soft-ace-becomes-hard"])
    changed = {u for u in exact.rows if exact.rows[u] != slipped.rows[u]}
    assert changed == {1, 2, 3, 4}
    for u in changed:
        assert slipped[u]["bust"] > exact[u]["bust"]
        assert sum(slipped[u].values()) == 1


# --- malformed input -------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, message", [
    ("hello\nworld\n", "no header line"),
    ("up,17,18,19,20,21,bust\n2,0.1,0.1,0.1,0.1,0.1\n", "line 2: row '2' has 5 values, the header has 6"),
    ("up,17,18,19,20,21,bust\n2,0.1,0.1,x,0.1,0.1,0.5\n", "line 2: row '2', column 19: 'x' is not a number"),
    ("up,17,18,19,20,21,bust\n2,0.1,0.1,,0.1,0.1,0.5\n", "line 2: row '2', column 19: an empty cell"),
    ("up,17,18,19,20,21,bust\nZ,0.1,0.1,0.1,0.1,0.1,0.5\n", "line 2: unknown row label 'Z'"),
    ("title\n\nup,17,18,19,20,21,foo\n", "line 3: unknown column 'foo'"),
    ("up,17,18,18,20,21,bust\n", "line 1: the column '18' appears twice"),
    ("up,17,18,19,20,21,bust\n", "no rows labelled by up-card"),
    ("up,17,18,19,20,21,bust\n2,0.1,0.1,0.1,0.1,0.1,-0.5\n", "line 2: row '2', column bust: negative value"),
])
def test_malformed_tables_are_refused_with_the_line_and_reason(text, message):
    with pytest.raises(BjexactError, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_dealer_table(text)


def test_the_command_exits_2_on_malformed_input_naming_the_line(tmp_path, capsys):
    path = tmp_path / "bad.csv"
    path.write_text("upcard,17,18,19,20,21,bust\n2,0.14,0.13,0.13,0.12,0.12,0.35\n3,0.14,oops,0.13,0.12,0.11,0.37\n")
    assert main(["verify", str(path), "--decks", "inf"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 3" in err and "'oops' is not a number" in err
    assert main(["verify", str(tmp_path / "missing.csv")]) == 2
    assert main(["verify", str(path), "--identify", "--decks", "2"]) == 2


def test_the_command_exit_codes_and_json_contract(tmp_path, capsys):
    good = tmp_path / "good.csv"
    good.write_text(csv_table(INF, 4, True))
    assert main(["verify", str(good), "--decks", "inf", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) >= {"consistent", "rules", "rows", "max_abs_error"}
    assert data["rules"]["decks"] == "inf" and data["consistent"] is True
    assert set(data["rows"][0]) >= {"row", "upcard", "consistent", "cells"}
    assert set(data["rows"][0]["cells"][0]) >= {"column", "printed", "exact", "error", "consistent"}
    assert main(["verify", str(good), "--decks", "2"]) == 1
    capsys.readouterr()
    assert main(["verify", str(good), "--identify", "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["matches"][0]["rules"]["decks"] == "inf" and found["matches"][0]["consistent"] is True
    assert found["matches"][0]["inconsistent_cells"] == 0
    slip = str(DATA / "soft_ace_slip_inf_s17.csv")
    assert main(["verify", slip, "--identify"]) == 1
    assert "Known slip" in capsys.readouterr().out


# --- long floats -----------------------------------------------------------------------------------------


def test_long_floats_are_compared_by_relative_error_and_ulps():
    text = (DATA / "float_repr_inf_h17.csv").read_text()
    rules = Rules(decks="inf", h17=True)
    check = check_dealer_table(read_dealer_table(text), rules)
    assert check.consistent
    long = [c for c in check.cells if c.printed.kind == "long"]  # a float's shortest repr may be shorter
    assert len(long) >= 50 and max(c.ulps for c in long) < 8
    assert check_dealer_table(read_dealer_table(text), rules, Tolerance(max_ulps=8)).consistent
    assert not check_dealer_table(read_dealer_table(text), rules, Tolerance(max_ulps=0)).consistent
    off = text.replace("0.3567278495798525", "0.3567278595798525")  # 1e-8 off: beyond rtol 1e-9
    check = check_dealer_table(read_dealer_table(off), rules)
    assert [(r.row.label, c.column) for r, c in check.inconsistent_cells] == [("2", "bust")]
    assert check_dealer_table(read_dealer_table(off), rules, Tolerance(rtol=1e-7)).consistent


def test_floats_in_memory_are_checked_with_a_tolerance():
    exact = dealer_table(TWO)
    values = {u: {o: float(exact[u][o]) for o in exact.outcomes} for u in exact.rows}
    assert check_dealer_table(dealer_table_from_values(values), TWO).consistent
    values[6]["bust"] += 1e-6
    check = check_dealer_table(dealer_table_from_values(values), TWO)
    assert [(r.row.upcard, c.column) for r, c in check.inconsistent_cells] == [(6, "bust")]


def test_exact_fractions_in_memory_must_be_equal():
    exact = dealer_table(INF)
    values = {u: {o: Fraction(int(exact[u][o].numerator), int(exact[u][o].denominator)) for o in exact.outcomes}
              for u in exact.rows}
    assert check_dealer_table(dealer_table_from_values(values), INF).consistent
    values[9]["20"] += Fraction(1, 10**30)
    check = check_dealer_table(dealer_table_from_values(values), INF)
    assert [(r.row.label, c.column) for r, c in check.inconsistent_cells] == [("9", "20")]


# --- the Total row under peek, slips, tolerances, duplicate rows, --identify ------------------------------


@pytest.mark.parametrize("rules", [Rules(decks="inf", naturals="peek"), Rules(decks=1, naturals="peek"),
                                   Rules(decks=2, h17=True, naturals="peek")])
def test_under_peek_the_total_row_is_the_distribution_given_no_natural(rules):
    # independently, from the unconditioned rows of 'separate': P(o, no natural | u) = separate_u[o]
    from dataclasses import replace

    separate = dealer_table(replace(rules, naturals="separate"))
    counts = (1,) * 9 + (4,) if rules.infinite else rules.make_shoe().counts
    chance = {u: Fraction(counts[u - 1], sum(counts)) for u in range(1, 11)}
    no_natural = 1 - sum(chance[u] * Fraction(separate[u]["blackjack"]) for u in chance)
    table = dealer_table(rules)
    for outcome in ("17", "18", "19", "20", "21", "bust"):
        expected = sum(chance[u] * Fraction(separate[u][outcome]) for u in chance) / no_natural
        assert Fraction(exact_cell(table, TOTAL, outcome)) == expected
        assert Fraction(dealer_outcomes_average(rules)[outcome]) == expected
    assert exact_cell(table, TOTAL, "sum") == 1


def dealer_outcomes_average(rules):
    from bjexact.dealer import average_row

    return average_row(rules)


def test_a_peek_total_row_weighted_by_the_plain_upcard_chances_is_caught():
    peek = Rules(decks="inf", naturals="peek")
    table = dealer_table(peek)
    weights = {u: Fraction(4 if u == 10 else 1, 13) for u in range(1, 11)}
    plain = {o: sum(w * Fraction(table[u][o]) for u, w in weights.items()) for o in table.outcomes}
    text = csv_table(peek, 6) + "Total," + ",".join(rounded(plain[o], 6, False) for o in table.outcomes) + "\n"
    check = check_dealer_table(read_dealer_table(text), peek)
    assert [r.row.label for r in check.rows if not r.consistent] == ["Total"]


def test_the_slipped_evaluator_refuses_peek_when_every_card_left_makes_a_natural():
    rules = Rules(shoe=(1, 0, 0, 0, 0, 0, 0, 0, 0, 1), naturals="peek")
    with pytest.raises(BjexactError, match="every card left makes a natural"):
        dealer_table(rules)
    with pytest.raises(BjexactError, match="every card left makes a natural"):
        slipped_dealer_table(rules)


@pytest.mark.parametrize("flag, value", [("--rtol", "nan"), ("--rtol", "inf"), ("--atol", "nan"),
                                         ("--atol", "-inf"), ("--rtol", "-1")])
def test_non_finite_tolerances_are_one_line_errors(tmp_path, capsys, flag, value):
    path = tmp_path / "t.csv"
    path.write_text(csv_table(TWO))
    assert main(["verify", str(path), f"{flag}={value}"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and flag in err
    with pytest.raises(BjexactError):
        Tolerance(**{flag[2:]: float(value)})


def test_duplicate_upcard_rows_are_refused_naming_both_lines():
    lines = csv_table(TWO).splitlines()
    text = "\n".join(lines + [lines[1]])  # the row of 2 again, on line 12
    with pytest.raises(BjexactError, match=r"lines 2 \('2'\) and 12 \('2'\)"):
        read_dealer_table(text)
    with pytest.raises(BjexactError, match="Total"):
        read_dealer_table("\n".join(lines + ["Total,0,0,0,0,0,1", "all,0,0,0,0,0,1"]))
    with pytest.raises(BjexactError, match="up-card A"):
        dealer_table_from_values({1: [0.1] * 6, "A": [0.1] * 6})
    # rows 10, J, Q, K (as `bjexact dealer --rows ranks` prints them) are one up-card, not duplicates
    ranks = render(dealer_tables(dealer_table(TWO), NumberStyle(decimals=4), rank_rows=True), "csv",
                   NumberStyle(decimals=4), {})
    assert check_dealer_table(read_dealer_table(ranks), TWO).consistent


def test_upcard_keys_in_memory_are_parsed_as_cards():
    exact = dealer_table(INF)
    values = {key: {o: exact[u][o] for o in exact.outcomes}
              for key, u in [(11, 1), ("J", 10), ("2", 2), (3, 3)]}
    table = dealer_table_from_values(values, exact.outcomes)
    assert [r.upcard for r in table.rows] == [1, 10, 2, 3]
    with pytest.raises(BjexactError):
        dealer_table_from_values({True: [0.1] * 6})


def test_identify_with_a_known_slip_says_nothing_more_about_the_rows_it_explains(capsys):
    text = (DATA / "soft_ace_slip_inf_s17.csv").read_text()
    found = identify(read_dealer_table(text))
    assert any(e.startswith("Known slip:") for e in found.explanations)
    assert not any("match no convention" in e for e in found.explanations)
    assert main(["verify", str(DATA / "soft_ace_slip_inf_s17.csv"), "--identify"]) == 1
    out = capsys.readouterr().out
    assert "INCONSISTENT" in out and "try --identify" not in out and "no convention tried" in out
    assert main(["verify", str(DATA / "soft_ace_slip_inf_s17.csv"), "--decks", "inf"]) == 1
    assert "(or try --identify)" in capsys.readouterr().out


def test_identify_takes_rule_options_as_a_restriction(capsys):
    path = str(DATA / "quiz_2decks_separate_percent.txt")
    assert main(["verify", path, "--identify", "--decks", "2", "--format", "json"]) == 0
    matches = json.loads(capsys.readouterr().out)["matches"]
    assert [m["description"] for m in matches] == ["2 decks, S17, naturals separate"]
    assert main(["verify", path, "--identify", "--naturals", "peek"]) == 1
    out = capsys.readouterr().out
    assert "(14: decks inf/1/2/3/4/6/8, S17/H17, naturals peek)" in out
    assert main(["verify", path, "--identify", "--decks", "2", "--h17"]) == 1
    assert "(3: decks 2, H17, naturals as21/separate/peek)" in capsys.readouterr().out
    assert len(conventions()) == 42 and conventions(TWO, naturals="peek") == (
        Rules(decks=2, naturals="peek"), Rules(decks=2, h17=True, naturals="peek"))
