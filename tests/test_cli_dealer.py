"""The ``bjexact dealer`` and ``bjexact matrix`` commands: JSON contracts, formats and bad input."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import subprocess
import sys
from fractions import Fraction

import pytest
from clirun import run, run_process

from bjexact import Rules, dealer_table

FRACTION = re.compile(r"^(0|[1-9][0-9]*)(/[1-9][0-9]*)?$")
ONE_DECK_SHOE = "4,4,4,4,4,4,4,4,4,16"




def _lowest_terms(text):
    """The value of an exact fraction string "p/q" (or "p"), checked to be in lowest terms."""
    assert FRACTION.match(text), text
    if "/" in text:
        p, q = map(int, text.split("/"))
        assert math.gcd(p, q) == 1 and q > 1, text
    return Fraction(text)


def _probability(text):
    value = _lowest_terms(text)
    assert 0 <= value <= 1, text
    return value


# --- bjexact dealer --format json -------------------------------------------------


@pytest.mark.parametrize(
    "argv, rules, outcomes",
    [
        ([], Rules(), ["17", "18", "19", "20", "21", "bust"]),
        (["--decks", "inf", "--naturals", "separate"], Rules(decks="inf", naturals="separate"),
         ["17", "18", "19", "20", "21", "bust", "blackjack"]),
        (["--decks", "6", "--h17", "--naturals", "peek"], Rules(decks=6, h17=True, naturals="peek"),
         ["17", "18", "19", "20", "21", "bust"]),
        (["--shoe", ONE_DECK_SHOE], Rules(shoe=(4,) * 9 + (16,)), ["17", "18", "19", "20", "21", "bust"]),
    ],
)
def test_dealer_json_contract(capsys, argv, rules, outcomes):
    status, out, err = run(capsys, "dealer", "--format", "json", *argv)
    assert status == 0 and err == ""
    document = json.loads(out)
    # the exact table, and beside it the same chances as the nearest floats
    assert list(document) == ["rules", "outcomes", "table", "table_float"]
    assert set(document["rules"]) == {"decks", "h17", "naturals", "shoe"}
    assert document["rules"] == rules.to_json()
    assert document["outcomes"] == outcomes
    assert list(document["table"]) == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "A"]
    table = dealer_table(rules)
    for symbol, row in document["table"].items():
        assert list(row) == outcomes
        values = {o: _probability(v) for o, v in row.items()}
        assert sum(values.values()) == 1
        upcard = 1 if symbol == "A" else 10 if symbol == "T" else int(symbol)
        assert values == {o: Fraction(int(p.numerator), int(p.denominator)) for o, p in table[upcard].items()}
        assert document["table_float"][symbol] == {o: float(v) for o, v in values.items()}


def test_dealer_json_rules_block(capsys):
    document = json.loads(run(capsys, "dealer", "--format", "json")[1])
    assert document["rules"] == {"decks": 2, "h17": False, "naturals": "as21", "shoe": None}
    document = json.loads(run(capsys, "dealer", "--format", "json", "--decks", "inf")[1])
    assert document["rules"]["decks"] == "inf"
    document = json.loads(run(capsys, "dealer", "--format", "json", "--shoe", ONE_DECK_SHOE)[1])
    assert document["rules"]["decks"] is None and document["rules"]["shoe"] == [4] * 9 + [16]


def test_dealer_json_with_an_exhausting_shoe_omits_absent_upcards(capsys):
    status, out, _ = run(capsys, "dealer", "--format", "json", "--shoe", "1,1,0,0,0,0,0,0,0,1")
    document = json.loads(out)
    assert status == 0
    assert document["outcomes"][-1] == "exhausted"
    assert list(document["table"]) == ["2", "T", "A"]
    assert document["table"]["2"]["exhausted"] == "1"
    assert document["table"]["A"]["21"] == "1/2"


# --- formats --------------------------------------------------------------------------


@pytest.mark.parametrize("extra", [[], ["--exact"], ["--decks", "inf", "--naturals", "separate", "--h17"]])
@pytest.mark.parametrize("fmt", ["text", "csv", "json", "md", "latex"])
def test_dealer_every_format_runs(capsys, fmt, extra):
    status, out, err = run(capsys, "dealer", "--format", fmt, *extra)
    assert status == 0 and err == "" and out.strip()
    if fmt == "latex":
        assert "\\begin{tabular}" in out and "\\toprule" in out
        assert ("\\frac{" in out) == ("--exact" in extra)
    if fmt == "md":
        assert "| up-card |" in out
    if fmt == "csv":
        rows = list(csv.reader(io.StringIO(out)))
        assert rows[0][0] == "up-card" and len(rows) == 11


def test_dealer_text_default_shows_percentages(capsys):
    status, out, _ = run(capsys, "dealer", "--decks", "inf")
    assert status == 0
    line = next(line for line in out.splitlines() if line.startswith("6 "))
    assert line.split()[-1] == "42.3150"  # bust with up-card 6, infinite deck, 4 decimals (%)


def test_dealer_rows_ranks(capsys):
    status, out, _ = run(capsys, "dealer", "--rows", "ranks", "--format", "csv")
    assert status == 0
    rows = list(csv.reader(io.StringIO(out)))
    labels = [row[0] for row in rows[1:]]
    assert labels == ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    by_label = {row[0]: row[1:] for row in rows[1:]}
    assert by_label["10"] == by_label["J"] == by_label["Q"] == by_label["K"]


def test_dealer_rows_ranks_with_a_custom_shoe_omits_absent_rows(capsys):
    argv = ["dealer", "--rows", "ranks", "--format", "csv", "--shoe", "1,1,0,0,0,0,0,0,0,1"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert [row[0] for row in csv.reader(io.StringIO(out))][1:] == ["2", "10", "J", "Q", "K", "A"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--decks", "inf", "--upcard", "6"],
        ["--decks", "inf", "--upcard", "A", "--naturals", "separate"],
        ["--decks", "2", "--upcard", "T"],
        ["--shoe", "1,1,0,0,0,0,0,0,0,1", "--upcard", "A"],
    ],
)
def test_matrix_json_contract(capsys, argv):
    status, out, err = run(capsys, "matrix", "--format", "json", *argv)
    assert status == 0 and err == ""
    document = json.loads(out)
    keys = {"rules", "upcard", "transient", "absorbing", "start", "T", "R", "B", "N", "absorption"}
    assert set(document) == keys
    upcard = argv[argv.index("--upcard") + 1]
    assert document["upcard"] == upcard
    assert document["start"] == document["transient"][0] == upcard
    assert document["absorbing"][:6] == ["17", "18", "19", "20", "21", "bust"]
    n, m = len(document["transient"]), len(document["absorbing"])
    for name, width in (("T", n), ("R", m), ("N", n), ("absorption", m)):
        assert len(document[name]) == n and all(len(row) == width for row in document[name])
        for row in document[name]:
            for cell in row:
                _probability(cell)  # N too: an acyclic chain visits a state at most once
    assert len(document["B"]) == n
    bust = document["absorbing"].index("bust")
    assert document["B"] == [row[bust] for row in document["R"]]
    for t_row, r_row in zip(document["T"], document["R"], strict=True):
        assert sum(map(Fraction, t_row + r_row)) == 1
    # the start row of N R is the dealer-table row
    dealer_argv = [a for a in argv if a not in ("--upcard", upcard)]
    table = json.loads(run(capsys, "dealer", "--format", "json", *dealer_argv)[1])
    row = table["table"][upcard]
    assert dict(zip(document["absorbing"], document["absorption"][0], strict=True)) == {
        o: row[o] for o in document["absorbing"]
    }


def test_matrix_upcard_spellings(capsys):
    outputs = {u: run(capsys, "matrix", "--decks", "inf", "--format", "json", "--upcard", u)[1]
               for u in ("T", "10", "J", "q", "K")}
    assert len(set(outputs.values())) == 1


@pytest.mark.parametrize("fmt", ["text", "json", "csv", "latex"])
def test_matrix_every_format_runs(capsys, fmt):
    status, out, err = run(capsys, "matrix", "--decks", "inf", "--upcard", "6", "--format", fmt)
    assert status == 0 and err == "" and out.strip()
    if fmt == "latex":
        assert "\\begin{bmatrix}" in out and "\\frac{" in out
    if fmt == "csv":
        assert out.splitlines()[0] == "matrix,row,column,value"


def test_matrix_finite_csv_runs(capsys):
    status, out, _ = run(capsys, "matrix", "--decks", "1", "--upcard", "9", "--format", "csv")
    assert status == 0 and len(out.splitlines()) > 10


# --- bad input ------------------------------------------------------------------------------

BAD = {
    "unknown up-card": ["matrix", "--decks", "inf", "--upcard", "X"],
    "unknown up-card 11x": ["matrix", "--upcard", "11x"],
    "shoe with 9 counts": ["dealer", "--shoe", "4,4,4,4,4,4,4,4,16"],
    "negative count": ["dealer", "--shoe", "4,4,4,4,-4,4,4,4,4,16"],
    "non-integer count": ["dealer", "--shoe", "4,4,4,4,4,4,4,4,4,1.5"],
    "non-number count": ["dealer", "--shoe", "4,4,four,4,4,4,4,4,4,16"],
    "empty shoe": ["dealer", "--shoe", "0,0,0,0,0,0,0,0,0,0"],
    "zero decks": ["dealer", "--decks", "0"],
    "negative decks": ["dealer", "--decks", "-2"],
    "fractional decks": ["dealer", "--decks", "1.5"],
    "decks and shoe": ["dealer", "--decks", "2", "--shoe", ONE_DECK_SHOE],
    "absent up-card": ["matrix", "--shoe", "0,4,4,4,4,4,4,4,4,16", "--upcard", "A", "--format", "json"],
    "finite matrix as text": ["matrix", "--decks", "2", "--upcard", "6"],
    "unknown format": ["dealer", "--format", "xml"],
    "peek impossible": ["dealer", "--shoe", "1,0,0,0,0,0,0,0,0,3", "--naturals", "peek"],
}


@pytest.mark.parametrize("argv", list(BAD.values()), ids=list(BAD))
def test_bad_input_is_one_line_and_exit_2(argv):
    result = run_process(*argv)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "error" in lines[0] and "Traceback" not in result.stderr


def test_bad_input_in_process(capsys):
    status, out, err = run(capsys, "dealer", "--shoe", "4,4,4")
    assert status == 2 and out == "" and err.count("\n") == 1 and "10 counts" in err


# --- output files ----------------------------------------------------------------------------


def test_output_into_a_missing_directory_leaves_nothing(tmp_path, capsys):
    target = tmp_path / "missing" / "table.json"
    status, out, err = run(capsys, "dealer", "--format", "json", "-o", str(target))
    assert status == 2 and out == "" and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_output_file_is_written_whole(tmp_path, capsys):
    target = tmp_path / "table.csv"
    assert run(capsys, "dealer", "--format", "csv", "-o", str(target))[0] == 0
    status, out, _ = run(capsys, "dealer", "--format", "csv")
    assert target.read_text() == out
    assert [p.name for p in tmp_path.iterdir()] == ["table.csv"]  # no temporary file left


def test_whole_process_default_table():
    result = run_process("dealer")
    assert result.returncode == 0 and result.stderr == ""
    assert "2 decks, S17, naturals as21" in result.stdout


def test_dealer_command_does_not_import_heavy_libraries():
    code = (
        "import contextlib, io, sys\n"
        "from bjexact.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['dealer', '--decks', '8'])\n"
        "print(sorted(m for m in ('sympy', 'scipy', 'matplotlib', 'pydot') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
