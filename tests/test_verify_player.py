"""Hit/stand policy grids and value tables checked against the exact infinite-deck solution."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from functools import cache

import pytest

from bjexact import BjexactError, Rules
from bjexact.checks.verify import check_player_table, format_player_check, read_player_table
from bjexact.cli import main
from bjexact.player import solve_infinite
from bjexact.render.tables import NumberStyle, player_tables, render

INF = Rules(decks="inf")
UPCARDS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
P = {r: Fraction(4 if r == 10 else 1, 13) for r in range(1, 11)}


# an independent solution: exact recursions over (total, soft) with Fractions, written here
def add(total: int, soft: bool, rank: int) -> tuple[int, bool]:
    hard = total - (10 if soft else 0) + rank
    if (soft or rank == 1) and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


@cache
def dealer(total: int, soft: bool, first: bool) -> dict[int, Fraction]:
    """S17 dealer, infinite deck: P(final total), 22 for a bust."""
    if total > 21:
        return {22: Fraction(1)}
    if total >= 17 and not first:
        return {total: Fraction(1)}
    out: dict[int, Fraction] = {}
    for rank, p in P.items():
        for final, q in dealer(*add(total, soft, rank), False).items():
            out[final] = out.get(final, 0) + p * q
    return out


def stand(total: int, upcard: int) -> Fraction:
    start = (11, True) if upcard == 1 else (upcard, False)
    return sum(q * ((total > d) - (total < d) if d <= 21 else 1) for d, q in dealer(*start, True).items())


@cache
def best(total: int, soft: bool, upcard: int) -> Fraction:
    return max(stand(total, upcard), hit(total, soft, upcard))


def hit(total: int, soft: bool, upcard: int) -> Fraction:
    value = Fraction(0)
    for rank, p in P.items():
        t, s = add(total, soft, rank)
        value += p * (-1 if t > 21 else best(t, s, upcard))
    return value


def rendered(kind: str, fmt: str, decimals: int = 6) -> str:
    style = NumberStyle(decimals=decimals, percent=False)
    tables = player_tables(solve_infinite(INF), style, "policy" if kind == "policy" else "values")
    return render(tables, fmt, style)


def test_the_exact_solution_agrees_with_an_independent_recursion():
    solution = solve_infinite(INF)
    from bjexact.player import PlayerState

    for total, soft in [(12, False), (16, False), (18, True), (13, True), (21, False), (4, False)]:
        for u in UPCARDS:
            position = solution[PlayerState(total, soft, u)]
            assert Fraction(position.stand) == stand(total, u)
            assert Fraction(position.hit) == hit(total, soft, u)


@pytest.mark.parametrize("fmt", ["text", "csv", "md"])
def test_policy_grids_printed_by_the_player_command_pass(fmt):
    table = read_player_table(rendered("policy", fmt), "policy")
    assert len(table.cells) == (18 + 10) * 10
    assert check_player_table(table, INF).consistent


HAND_WRITTEN = """\
Hit/stand only, infinite deck, dealer stands on soft 17

Hard | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | A
-----+---+---+---+---+---+---+---+---+----+--
12   | H | H | S | S | S | H | H | H | H  | H
13   | S | S | S | S | S | H | H | H | H  | H
16   | S | S | S | S | S | H | H | H | H  | H
17   | S | S | S | S | S | S | S | S | S  | S

Soft totals
Player | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | A
A,6    | H | H | H | H | H | H | H | H | H  | H
A,7    | S | S | S | S | S | S | S | H | H  | H
19     | S | S | S | S | S | S | S | S | S  | S
"""


def test_a_hand_written_chart_with_ace_labels_and_titled_blocks():
    table = read_player_table(HAND_WRITTEN, "policy")
    states = {(c.total, c.soft) for c in table.cells}
    assert states == {(12, False), (13, False), (16, False), (17, False), (17, True), (18, True), (19, True)}
    check = check_player_table(table, INF)
    assert check.consistent
    # by the independent recursion too: soft 18 stands against 8 and hits against 9
    assert stand(18, 8) > hit(18, True, 8) and stand(18, 9) < hit(18, True, 9)


def test_one_wrong_move_fails_on_that_cell_only():
    text = HAND_WRITTEN.replace("A,7    | S | S | S | S | S | S | S | H", "A,7    | S | S | S | S | S | S | H | H")
    check = check_player_table(read_player_table(text, "policy"), INF)
    bad = check.inconsistent_cells
    assert [(c.cell.total, c.cell.soft, c.cell.upcard, c.cell.line) for c in bad] == [(18, True, 8, 13)]
    report = format_player_check(check)
    assert "line 13, A,7 v 8: printed H, best S" in report and "Verdict: INCONSISTENT" in report


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_value_tables_printed_by_the_player_command_pass(fmt):
    table = read_player_table(rendered("values", fmt), "values")
    assert {c.block for c in table.cells} == {"stand", "hit"} and len(table.cells) == 560
    assert check_player_table(table, INF).consistent


def test_csv_value_blocks_are_named_by_their_section_column():
    table = read_player_table(rendered("values", "csv"), "values")
    assert {c.block for c in table.cells} == {"stand", "hit"} and check_player_table(table, INF).consistent


def untitled_csv_values() -> str:
    """The value tables as CSV blocks one after another, untitled (not bjexact's one table)."""
    style = NumberStyle(decimals=6, percent=False)
    return "\n".join(render([table], "csv", style) for table in player_tables(solve_infinite(INF), style, "values"))


def test_untitled_csv_value_blocks_need_their_names():
    text = untitled_csv_values()
    with pytest.raises(BjexactError, match="standing, hitting or the best move"):
        read_player_table(text, "values")
    table = read_player_table(text, "values", blocks=["stand", "hit"])
    assert check_player_table(table, INF).consistent
    swapped = read_player_table(text, "values", blocks=["hit", "stand"])
    assert not check_player_table(swapped, INF).consistent


def test_a_value_one_unit_off_fails_on_that_cell_only():
    lines = rendered("values", "csv", 4).splitlines()
    row = next(i for i, line in enumerate(lines) if line.startswith("stand,hard 16,"))  # section: standing
    cells = lines[row].split(",")
    cells[7] = str(Decimal(cells[7]) + Decimal("0.0001"))  # up-card 7
    lines[row] = ",".join(cells)
    check = check_player_table(read_player_table("\n".join(lines), "values", blocks=["stand", "hit"]), INF)
    assert [(c.cell.total, c.cell.upcard, c.cell.block) for c in check.inconsistent_cells] == [(16, 7, "stand")]
    assert Fraction(check.inconsistent_cells[0].exact) == stand(16, 7)


def test_values_as_percentages():
    text = "Value of standing (%)\nplayer,2,3,4,5,6,7,8,9,T,A\nhard 20," + ",".join(
        f"{float(stand(20, u) * 100):.2f}%" for u in UPCARDS) + "\n"
    assert check_player_table(read_player_table(text, "values"), INF).consistent
    plain = text.replace("%", "")
    assert check_player_table(read_player_table(plain, "values", scale="percent"), INF).consistent
    assert not check_player_table(read_player_table(plain, "values"), INF).consistent


@pytest.mark.parametrize("text, message", [
    ("player,2,3,4,5,6,7,8,9,T,A\nhard 12,H,H,S,S,D,H,H,H,H,H\n",
     "line 2: row 'hard 12', up-card 6: 'D' is not H or S"),
    ("player,2,3,4,5,6,7,8,9,T,A\nhard 12,H,H,S,S,S,H,H,H,H\n", "line 2: row 'hard 12' has 9 cells"),
    ("player,2,3,4,5,6,7,8,9,T,A\nhard 25,H,H,S,S,S,H,H,H,H,H\n", "line 2: unknown row label 'hard 25'"),
    ("no grid here\n", "no policy grid found"),
])
def test_malformed_player_tables(text, message):
    with pytest.raises(BjexactError, match=message):
        read_player_table(text, "policy")


def test_the_command_checks_player_tables(tmp_path, capsys):
    path = tmp_path / "policy.md"
    path.write_text(HAND_WRITTEN)
    assert main(["verify", str(path), "--kind", "policy", "--decks", "inf"]) == 0
    assert main(["verify", str(path), "--kind", "policy", "--decks", "inf", "--format", "json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out[out.index("{"):])
    assert data["consistent"] is True and data["kind"] == "policy" and len(data["cells"]) == 70
    cell = data["cells"][0]
    assert (cell["row"], cell["column"], cell["printed"], cell["exact"]) == ("12", "2", "H", "H")
    values = tmp_path / "values.csv"
    values.write_text(untitled_csv_values())
    assert main(["verify", str(values), "--kind", "values", "--decks", "inf", "--blocks", "stand,hit"]) == 0
    assert main(["verify", str(values), "--kind", "values", "--decks", "inf", "--blocks", "hit,stand"]) == 1
    assert main(["verify", str(values), "--kind", "values", "--decks", "2", "--blocks", "stand,hit"]) == 2


def test_a_policy_by_total_on_a_finite_shoe_is_judged_by_the_hands_of_that_total():
    from bjexact.player import hand_decision

    one = Rules(decks=1)
    # every two-card hard 13 stands against a 3 on one deck, each hand solved on its own
    assert {hand_decision(one, h, 3).best for h in [(10, 3), (9, 4), (8, 5), (7, 6)]} == {"stand"}
    text = rendered("policy", "csv")  # the infinite-deck policy, by total
    check = check_player_table(read_player_table(text, "policy"), one)
    assert check.consistent
    mixed = [c for c in check.cells if c.note.startswith("composition-dependent")]
    assert mixed and all(c.consistent for c in mixed)
    wrong = text.replace("hard 13,S,S,S,S,S,H", "hard 13,S,H,S,S,S,H")
    check = check_player_table(read_player_table(wrong, "policy"), one)
    assert [(c.cell.total, c.cell.upcard) for c in check.inconsistent_cells] == [(13, 3)]
    with pytest.raises(BjexactError, match="infinite deck only"):
        check_player_table(read_player_table(rendered("values", "md"), "values"), one)


def test_sutton_and_barto_style_blocks():
    text = "Usable ace\n  | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | A\n18 | S | S | S | S | S | S | S | H | H | H\n" \
           "\nNo usable ace\n  | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | A\n18 | S | S | S | S | S | S | S | S | S | S\n"
    table = read_player_table(text, "policy")
    assert [(c.total, c.soft) for c in table.cells[::10]] == [(18, True), (18, False)]
    assert check_player_table(table, INF).consistent


def test_the_report_names_what_was_read_in_plain_english():
    values = format_player_check(check_player_table(read_player_table(rendered("values", "text"), "values"), INF))
    policy = format_player_check(check_player_table(read_player_table(rendered("policy", "text"), "policy"), INF))
    assert "560 cells of value tables read" in values and "cells of a policy grid read" in policy


def test_a_finite_shoe_policy_cell_is_judged_by_its_two_card_hands():
    # every two-card 16 hits against a ten with 6 decks; three-card 16s that stand do not excuse an S
    table = read_player_table("player 2 3 4 5 6 7 8 9 T A\nhard 16 S S S S S H H H S H\n", "policy")
    check = check_player_table(table, Rules(decks=6))
    assert [(c.cell.upcard, c.exact_move) for c in check.cells if not c.consistent] == [(10, "hit")]
