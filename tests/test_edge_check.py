"""Published house edges against the exact value of the full game."""

from __future__ import annotations

import pytest

from bjexact import BjexactError
from bjexact.checks.charts import chart_rule_sets
from bjexact.checks.edges import (
    check_edge,
    check_edge_file,
    fit_edge,
    format_edge_check,
    format_edge_file_check,
    rules_of_text,
)
from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules

INF = GameRules(decks="inf", split_hands=2)  # exact expectation -0.570388...%


@pytest.mark.parametrize("text, readings", [
    ("-0.57%", ["player expectation"]), ("0.57%", ["house edge"]), ("0.570%", ["house edge"]),
    ("-0.5704%", ["player expectation"]), ("0.57", ["house edge"]), ("-0.6%", ["player expectation"]),
])
def test_an_edge_that_rounds_to_the_exact_value_is_consistent(text, readings):
    check = check_edge(text, INF)
    assert check.consistent and check.readings == readings
    assert "CONSISTENT" in format_edge_check(check)


@pytest.mark.parametrize("text", ["-0.46%", "0.5%", "-0.571%", "-0.57040%", "57%"])
def test_an_edge_off_by_more_than_its_precision_is_not(text):
    check = check_edge(text, INF)
    assert not check.consistent
    assert "NOT CONSISTENT" in format_edge_check(check)
    assert abs(check.nearest_error) > check.allowed


def test_a_fraction_without_percent_sign_reads_as_a_fraction_when_asked():
    assert check_edge("-0.0057", INF, scale="fraction").consistent
    assert not check_edge("-0.0057", INF).consistent
    assert check_edge("-0.0057", INF, scale="fraction").allowed == mpq(1, 200)


def test_what_an_edge_fits_otherwise():
    candidates = chart_rule_sets(GameRules(split_hands=2), decks=["inf"], hole_card=["peek"])
    fit = fit_edge("-0.48%", candidates)
    assert [c.rules.surrender for c in fit.matches] == ["late"] and fit.matches[0].rules.das
    assert not check_edge("-0.48%", INF).consistent
    text = format_edge_check(check_edge("-0.48%", INF), fit)
    assert "1 fit" in text and "late surrender" in text
    assert fit.to_json()["candidates"][0]["consistent"]


def test_the_published_six_deck_edge():
    # 6 decks, S17, DAS, split once, 3:2, peek: -0.456886297% (README, docs/guides/edge-and-chart.md)
    rules = GameRules(decks=6, split_hands=2)
    assert check_edge("-0.46%", rules).consistent
    assert check_edge("-0.456886297%", rules).consistent
    assert not check_edge("-0.456886296%", rules).consistent


def test_unreadable_edges():
    with pytest.raises(BjexactError, match="cannot read 'about half a percent'"):
        check_edge("about half a percent", INF)


def test_a_file_of_rule_sets_and_edges():
    text = ("# published edges, infinite deck\n"
            "infinite deck, S17, DAS, split once, 3:2: -0.57%\n"
            "inf decks, S17, DAS, late surrender, split to 2 hands = 0.48%\n"
            "infinite deck, H17, no DAS, split once: 0.50%\n")
    check = check_edge_file(text, source="edges.txt")
    assert [e.check.consistent for e in check.lines] == [True, True, False]
    assert [e.line for e in check.lines] == [2, 3, 4]
    assert check.lines[1].check.rules == GameRules(decks="inf", split_hands=2, surrender="late")
    assert check.lines[2].check.rules == GameRules(decks="inf", split_hands=2, h17=True, das=False)
    assert not check.consistent and "NOT CONSISTENT: 1 of 3" in format_edge_file_check(check)
    assert check.to_json()["lines"][2]["line"] == 4


def test_rule_descriptions():
    rules, unread = rules_of_text("6 decks, H17, no DAS, early surrender, ENHC, 6:5, RSA, double 10-11 only, "
                                  "wonky")
    assert rules == GameRules(decks=6, h17=True, das=False, surrender="early", hole_card="enhc",
                              bj_pays=mpq(6, 5), rsa=True, split_hands=4, double="10-11")
    assert unread == ["wonky"]
    with pytest.raises(BjexactError, match="line 1: no house edge"):
        check_edge_file("6 decks, S17\n")


def test_doubling_split_aces_is_read_and_kept_only_with_das():
    rules, unread = rules_of_text("6 decks, H17, DAS, RSA, DSA")
    assert rules.double_split_aces and rules.hit_split_aces and not unread
    assert rules_of_text("6 decks, hit split aces")[0].double_split_aces is False
    assert rules_of_text("6 decks, no DAS, DSA")[0].double_split_aces is False
    base = GameRules(split_hands=2, hit_split_aces=True, double_split_aces=True)
    candidates = chart_rule_sets(base, decks=["inf"], hole_card=["peek"])
    assert {(c.das, c.double_split_aces) for c in candidates} == {(True, True), (False, False)}
