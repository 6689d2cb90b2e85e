"""check-strategy --game under the rules that change the later decisions: doubling after hitting and a
Charlie. Every expected disagreement comes from the brute force of tests/fullgame_bruteforce.py on one
suit (13 cards), which shares no code with bjexact; the engines put to the check are the brute force's
own optimal play under one rule set or the other."""

from __future__ import annotations

from fractions import Fraction

import fullgame_bruteforce as bf
import pytest

from bjexact.checks.strategy import check_game_engine, format_strategy_check
from bjexact.cli import main
from bjexact.core.rules import GameRules

SUIT = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)  # one suit: small enough for the brute force
DAH = {"split_hands": 2, "double_after_hit": True}
CHARLIE = {"split_hands": 2, "charlie": 4}
BOTH_ENHC = {"split_hands": 2, "double_after_hit": True, "charlie": 4, "hole_card": "enhc"}  # a later double lost


def _hands(shoe, upcard, charlie=None):
    """Every hand of two or more cards (sorted ranks) the shoe less the up-card can deal, with a hard total
    of 21 or less, no natural and, under a Charlie, fewer cards than it: the hands the engine is asked
    (by number of cards, then in order)."""
    left = [c - (r == upcard) for r, c in enumerate(shoe, start=1)]
    most = sum(left) if charlie is None else charlie - 1
    found = []

    def extend(hand, total):  # ranks in order, each within the cards left, the hard total at most 21
        if len(hand) >= 2 and hand != (1, 10):
            found.append(hand)
        if len(hand) < most:
            for rank in range(hand[-1] if hand else 1, 11):
                if total + rank <= 21 and hand.count(rank) < left[rank - 1]:
                    extend(hand + (rank,), total + rank)

    extend((), 0)
    yield from sorted(found, key=lambda hand: (len(hand), hand))


def _positions(rules):
    """{(cards, up-card): the brute force's value of every move} under ``rules`` (BFRules) on one suit, where
    there is a choice."""
    out = {}
    for upcard in range(1, 11):
        for hand in _hands(SUIT, upcard, rules.charlie):
            values = bf.move_values(SUIT, hand, upcard, rules)
            if len(values) >= 2:
                out[(hand, upcard)] = values
    return out


def _best(values):
    """The move of largest value, the first of equal ones (stand, hit, double, split, surrender)."""
    return max(values, key=values.get)


def _engine(positions, asked=None):
    """An engine answering the best move of ``positions``; ``asked`` collects the positions put to it."""
    def decide(cards, upcard, unseen):
        key = (tuple(sorted(cards)), upcard)
        if asked is not None:
            asked.add(key)
        return _best(positions[key])
    return decide


def _disagreements(check):
    return {(d.cards, d.upcard): d for d in check.disagreements}


@pytest.mark.parametrize("rules", [DAH, CHARLIE, BOTH_ENHC], ids=["double-after-hit", "charlie", "both-enhc"])
def test_the_optimum_without_the_rule_is_caught_exactly_where_the_brute_force_says(rules):
    """An engine playing the optimum of the usual rules under doubling after hitting (a Charlie) is faulted
    at exactly the positions where, by the brute force under the new rule, its move is worth strictly less
    than the best; the values of the later hands are the brute force's to the last digit; the optimum under
    the new rule passes, and under a Charlie no hand of the Charlie's count is put to the engine."""
    game = GameRules(shoe=SUIT, **rules)
    usual = _positions(bf.BFRules(split_hands=2, hole_card=game.hole_card))
    new = _positions(bf.BFRules(**rules))
    asked: set = set()
    assert check_game_engine(_engine(new, asked), game).passed
    assert asked == set(new)
    if game.charlie:
        assert all(len(cards) < game.charlie for cards, _ in asked)
    check = check_game_engine(_engine(usual), game)
    expected = {key for key, values in new.items() if values[_best(usual[key])] < max(values.values())}
    found = _disagreements(check)
    assert expected and set(found) == expected
    assert check.decisions == len(new)
    later = [d for key, d in found.items() if len(key[0]) >= 3]
    assert later
    for d in later:
        assert {m: Fraction(int(v.numerator), int(v.denominator)) for m, v in d.values.items()} == \
            new[(d.cards, d.upcard)]
    if game.double_after_hit:
        assert any(d.best == "double" for d in later)
        assert "hit/stand/double after" in format_strategy_check(check)
    if game.charlie:
        assert "every hand of 2 to 3 cards" in format_strategy_check(check)


def test_an_engine_that_never_doubles_after_hitting_is_caught_where_doubling_is_strictly_best():
    """bjexact's best play under doubling after hitting, except that a hand of three or more cards takes
    the better of hit and stand instead of doubling: faulted exactly where the brute force's double is
    strictly worth more than both."""
    game = GameRules(shoe=SUIT, **DAH)
    new = _positions(bf.BFRules(**DAH))

    def never_doubles_later(cards, upcard, unseen):
        values = new[(tuple(sorted(cards)), upcard)]
        if len(cards) == 2:
            return _best(values)
        return _best({m: values[m] for m in ("stand", "hit") if m in values})

    check = check_game_engine(never_doubles_later, game)
    expected = {key for key, values in new.items()
                if len(key[0]) >= 3 and "double" in values and values["double"] > max(values["stand"], values["hit"])}
    assert expected and set(_disagreements(check)) == expected
    assert all(d.engine in ("stand", "hit") and d.best == "double" and d.cost > 0 for d in check.disagreements)


def test_a_later_double_is_refused_as_a_move_where_the_rules_do_not_allow_it(capsys, tmp_path, monkeypatch):
    """Doubling a hand of three or more cards is a move only under --double-after-hit (and the doubling
    totals rule); otherwise the answer is a one-line error, exit 2."""
    (tmp_path / "doubler.py").write_text("def decide(cards, upcard, unseen):\n"
                                         "    return 'double' if len(cards) > 2 else 'stand'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    shoe = ",".join(map(str, SUIT))
    assert main(["check-strategy", "doubler:decide", "--game", "--shoe", shoe, "--split-hands", "2"]) == 2
    assert "not a move (hit or stand)" in capsys.readouterr().err
    assert main(["check-strategy", "doubler:decide", "--game", "--shoe", shoe, "--split-hands", "2",
                 "--double-after-hit", "--double", "10-11"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "which these rules do not allow there (allowed: stand, hit)" in err
    status = main(["check-strategy", "doubler:decide", "--game", "--shoe", shoe, "--split-hands", "2",
                   "--double-after-hit"])
    out = capsys.readouterr().out
    assert status == 1 and "hit/stand/double after" in out and "engine double" in out
