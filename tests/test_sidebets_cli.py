"""``bjexact sidebet``: bad bet files and command lines get one-line errors (exit 2); the outputs."""

from __future__ import annotations

import json

import pytest

from bjexact.cli import main
from bjexact.core.numbers import fraction_string
from bjexact.sidebets import analyse, built_in

BAD_FILES = {
    "not toml": ("sees = [\n", "not valid TOML"),
    "unknown key": ('sees = ["dealer"]\ncolour = 1\n[[line]]\nname="a"\npays=1\ndealer.bust=true\n', "unknown key"),
    "unknown event": ('sees = ["dealer"]\n[[line]]\nname="a"\npays=1\ndealer.busted=true\n',
                      "did you mean dealer.bust"),
    "bad value": ('sees = ["dealer"]\n[[line]]\nname="a"\npays=1\ndealer.cards=30\n', "dealer.cards is never 30"),
    "no sees": ('[[line]]\nname="a"\npays=1\ndealer.bust=true\n', 'no "sees"'),
    "unseen": ('sees = ["hand"]\n[[line]]\nname="a"\npays=1\ndealer.bust=true\n', "the bet sees only hand"),
    "contradiction": ('sees = ["dealer"]\n[[line]]\nname="a"\npays=1\ndealer.bust=true\ndealer.total=20\n',
                      "can never happen"),
    "shadowed": ('sees = ["dealer"]\n[[line]]\nname="a"\npays=1\ndealer.bust=true\n'
                 '[[line]]\nname="b"\npays=9\ndealer.bust=true\ndealer.cards=3\n', "is never paid"),
    "negative": ('sees = ["dealer"]\n[[line]]\nname="a"\npays=-1\ndealer.bust=true\n', "negative"),
    "no lines": ('sees = ["dealer"]\n', "no pay line"),
    "no condition": ('sees = ["dealer"]\n[[line]]\nname="a"\npays=1\n', "no condition"),
    "pays text": ('sees = ["dealer"]\n[[line]]\nname="a"\npays="lots"\ndealer.bust=true\n', "pays must be a number"),
    "two names": ('sees = ["dealer"]\n[[line]]\nname="a"\npays=1\ndealer.bust=true\n'
                  '[[line]]\nname="a"\npays=1\ndealer.cards=2\n', "two lines named"),
    "up-card suit with the dealer": ('sees = ["upcard", "dealer"]\n[[line]]\nname="a"\npays=1\n'
                                     'upcard.suit="hearts"\ndealer.bust=true\n', "by its value"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_malformed_or_contradictory_bet_files_get_one_line_errors_and_exit_2(tmp_path, capsys, case):
    text, words = BAD_FILES[case]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["sidebet", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bjexact: error: ") and words in err, err


@pytest.mark.parametrize("argv, words", [
    (["sidebet", "bust-ti"], "did you mean bust-it"),
    (["sidebet", "buster", "--decks", "0"], "--decks must be a whole number"),
    (["sidebet", "buster", "--decks", "2,,6"], "separated by commas"),
    (["sidebet", "missing.toml"], "no such bet file"),
])
def test_bad_command_lines_get_one_line_errors_and_exit_2(capsys, argv, words):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err, err


def test_the_command_prints_json_with_exact_fractions(capsys):
    assert main(["sidebet", "bust", "--decks", "6,8", "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert [a["decks"] for a in document["analyses"]] == [6, 8]
    first = document["analyses"][0]
    assert first["lines"][0]["chance"] == fraction_string(analyse(built_in("bust"), 6).lines[0].chance)
    assert set(first) >= {"bet", "settled", "sees", "lines", "return", "house_edge", "hit_frequency", "variance",
                          "standard_deviation", "conventions"}
