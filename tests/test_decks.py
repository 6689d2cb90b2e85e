"""--decks has one parser (bjexact.core.rules.parse_decks): the hit/stand commands, the full game's
commands, Rules, GameRules and grid files read a number of decks alike and refuse it in the same line."""

import math

import pytest
from clirun import run

from bjexact.core.rules import GameRules, Rules, parse_decks
from bjexact.errors import BjexactError


@pytest.mark.parametrize("text, decks", [("1", 1), ("6", 6), (" 8 ", 8), ("06", 6), ("1000000", 10**6),
                                         ("inf", math.inf), ("Infinite", math.inf), (" INFINITY", math.inf)])
def test_numbers_of_decks_people_write(text, decks):
    assert parse_decks(text) == decks
    assert Rules(decks=text).decks == decks and GameRules(decks=text).decks == decks


@pytest.mark.parametrize("text, message", [
    ("0", "--decks must be a whole number >= 1 or 'inf', not '0'"),
    ("000", "--decks must be a whole number >= 1 or 'inf', not '000'"),
    ("-1", "--decks must be a whole number >= 1 or 'inf', not '-1'"),
    ("+inf", "--decks must be a whole number >= 1 or 'inf', not '+inf'"),
    ("6.5", "--decks must be a whole number >= 1 or 'inf', not '6.5'"),
    ("\u00b2", "--decks must be a whole number >= 1 or 'inf', not '\u00b2'"),
    ("1000001", "--decks is too large: at most 1,000,000, not 1000001"),
    ("99999999", "--decks is too large: at most 1,000,000, not 99999999"),
])
def test_one_line_for_each_bad_number_wherever_it_is_given(capsys, text, message):
    with pytest.raises(BjexactError) as found:
        parse_decks(text)
    assert str(found.value) == message
    for make in (Rules, GameRules):
        with pytest.raises(BjexactError) as found:
            make(decks=text)
        assert str(found.value) == message, make
    for command in (["dealer"], ["player", "--moves", "hit-stand"], ["edge"], ["hand", "T", "6", "--upcard", "T"]):
        status, out, err = run(capsys, *command, "--decks", text)
        assert (status, out, err) == (2, "", f"bjexact: error: {message}\n"), command


def test_the_option_named_is_the_one_given():
    with pytest.raises(BjexactError, match="^decks must be a whole number >= 1 or 'inf', not 'x'$"):
        parse_decks("x", "decks")
