"""check-strategy: a planted frozen-dealer engine is found exhaustively (checked against the tests' own
brute force), bjexact's own play is not faulted, and the solve-once decisions answer as hand_decision."""

from __future__ import annotations

import json
from fractions import Fraction
from functools import cache

from conftest import dealer_row
from player_reference import FiniteReference

from bjexact.checks.strategy import check_hit_stand_engine, depleted_shoes, format_strategy_check
from bjexact.cli import main
from bjexact.core.rules import Rules
from bjexact.player.decisions import ShoeDecisions
from bjexact.player.solver import hand_decision

HALF_DECK = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)
SUIT = (1, 1, 1, 1, 1, 1, 1, 1, 1, 4)  # one suit: small enough for the brute force
RULES = Rules(shoe=SUIT)


def _value(cards):
    hard = sum(cards)
    return (hard + 10, True) if 1 in cards and hard + 10 <= 21 else (hard, False)


@cache
def _frozen_dealer(unseen, upcard):
    return dealer_row(tuple(c + (r == upcard) for r, c in enumerate(unseen, start=1)), upcard)


@cache
def _frozen_values(cards, upcard, unseen, dealer_from):
    """(stand, hit) of a hand with the dealer's outcome probabilities those of ``dealer_from`` (the unseen
    cards before the player's draws): the planted fault."""
    dealer = _frozen_dealer(dealer_from, upcard)
    total = _value(cards)[0]
    stand = sum((q for k, q in dealer.items() if k == "bust" or int(k) < total), Fraction(0)) - \
        sum((q for k, q in dealer.items() if k != "bust" and int(k) > total), Fraction(0))
    n = sum(unseen) - 1  # the hole card is among the unseen: the player draws from the others
    if n <= 0:
        return stand, None
    hit = Fraction(0)
    for rank, left in enumerate(unseen, start=1):
        if left:
            new = tuple(sorted(cards + (rank,)))
            after = tuple(c - (r == rank) for r, c in enumerate(unseen, start=1))
            if _value(new)[0] > 21:
                hit -= Fraction(left, sum(unseen))
            else:
                s, h = _frozen_values(new, upcard, after, dealer_from)
                hit += Fraction(left, sum(unseen)) * (s if h is None else max(s, h))
    return stand, hit


def frozen_dealer_engine(cards, upcard, unseen):
    """A 'composition-dependent' engine that values hitting with the dealer frozen before the draws."""
    stand, hit = _frozen_values(tuple(sorted(cards)), upcard, tuple(unseen), tuple(unseen))
    return "hit" if hit is not None and hit > stand else "stand"


def test_the_frozen_dealer_engine_is_found_exhaustively_as_the_brute_force_finds_it():
    check = check_hit_stand_engine(frozen_dealer_engine, RULES)
    reference = FiniteReference(SUIT, False, "as21", "ev")
    table = ShoeDecisions.solve(RULES)
    wrong = set()
    for counts, upcard in table.hands():
        cards = tuple(r for r in range(1, 11) for _ in range(counts[r - 1]))
        stand, hit = reference.values(cards, upcard)
        assert table.values(cards, upcard) == ({"stand": stand} if hit is None else {"stand": stand, "hit": hit})
        if hit is not None:
            engine = frozen_dealer_engine(cards, upcard, tuple(
                s - c - (r == upcard) for r, s, c in zip(range(1, 11), SUIT, counts)))
            if {"stand": stand, "hit": hit}[engine] < max(stand, hit):
                wrong.add((cards, upcard))
    assert wrong and {(d.cards, d.upcard) for d in check.disagreements} == wrong
    assert all(d.cost > 0 and d.values[d.best] > d.values[d.engine] for d in check.disagreements)
    assert not check.passed and "Verdict: FAIL" in format_strategy_check(check)


def test_bjexacts_own_play_has_no_disagreement_also_on_depleted_shoes():
    def own(cards, upcard, unseen):
        return hand_decision(RULES, cards, upcard, unseen).best

    check = check_hit_stand_engine(own, RULES, shoes=2, seed=4)
    assert check.passed and check.decisions > 1000 and len(check.shoes) == 3
    assert "Verdict: PASS" in format_strategy_check(check)


def test_depleted_shoes_are_seeded_and_smaller():
    shoes = depleted_shoes(HALF_DECK, 3, seed=1)
    assert shoes == depleted_shoes(HALF_DECK, 3, seed=1) and shoes != depleted_shoes(HALF_DECK, 3, seed=2)
    assert all(all(a <= b for a, b in zip(s, HALF_DECK)) and 13 <= sum(s) <= 24 for s in shoes)


def always_hit(cards, upcard, unseen):
    return "H"


def test_the_command_reports_and_exits_by_the_verdict(tmp_path, capsys):
    shoe = ",".join(map(str, SUIT))
    assert main(["check-strategy", "tests/test_check_strategy.py:always_hit", "--shoe", shoe,
                 "--format", "json"]) == 1
    document = json.loads(capsys.readouterr().out)
    assert not document["passed"] and document["disagreements"][0]["engine"] == "hit"
    assert main(["check-strategy", "tests/test_check_strategy.py:frozen_dealer_engine", "--shoe", shoe]) == 1
    assert "Verdict: FAIL" in capsys.readouterr().out
    (tmp_path / "bad.py").write_text("def decide(cards, upcard, unseen):\n    return 42\n")
    assert main(["check-strategy", f"{tmp_path / 'bad.py'}:decide", "--shoe", shoe]) == 2
    assert "answered 42, not a move" in capsys.readouterr().err
    (tmp_path / "raises.py").write_text("def decide(cards, upcard, unseen):\n    raise ValueError('no tables')\n")
    assert main(["check-strategy", f"{tmp_path / 'raises.py'}:decide", "--shoe", shoe]) == 2
    assert "the engine raises.decide refused these rules (its first call for" in capsys.readouterr().err
    assert main(["check-strategy", "tests/test_check_strategy.py:always_hit", "--decks", "inf"]) == 2
    assert main(["check-strategy", "tests/test_check_strategy.py:always_hit", "--shoe", shoe, "--surrender",
                 "late"]) == 2
    assert "go with --game" in capsys.readouterr().err


def test_solve_once_decisions_answer_as_hand_decision():
    rules = Rules(decks=1)
    table = ShoeDecisions.solve(rules)
    for cards, upcard in [((10, 6), 10), ((7, 7), 10), ((1, 6), 9), ((2, 3, 4, 5), 6)]:
        single = hand_decision(rules, cards, upcard)
        assert table.decide(cards, upcard) == single.best
        assert table.values(cards, upcard) == {"stand": single.stand, "hit": single.hit}


def test_a_full_game_engine_that_never_doubles_is_caught_and_optimal_play_is_not():
    from bjexact.checks.strategy import check_game_engine
    from bjexact.core.rules import GameRules
    from bjexact.player.game import solve_game

    rules = GameRules(shoe=HALF_DECK, split_hands=2, surrender="late")
    solution = solve_game(rules, with_distribution=False, progress=False)
    table = ShoeDecisions.solve(Rules(shoe=HALF_DECK, naturals="peek"))

    def optimal(cards, upcard, unseen):
        if len(cards) == 2:
            return solution.hands[(min(cards), max(cards), upcard)].best
        return table.decide(cards, upcard)

    def never_doubles(cards, upcard, unseen):
        move = optimal(cards, upcard, unseen)
        return "hit" if move == "double" else move

    assert check_game_engine(optimal, rules).passed
    check = check_game_engine(never_doubles, rules)
    doubled = {(a, b, u) for (a, b, u), m in solution.hands.items() if m.best == "double" and {a, b} != {1, 10}}
    assert doubled and {(*d.cards, d.upcard) for d in check.disagreements} == doubled
    assert all(d.engine == "hit" and d.best == "double" and d.cost > 0 for d in check.disagreements)
    assert "double +" in format_strategy_check(check)


def test_a_full_game_engine_is_checked_on_depleted_shoes_too():
    """An engine that plays the full shoe's chart whatever the cards gone is caught on the depleted shoes
    exactly where their own optimal first move is strictly better; one that solves the cards it is told
    are unseen is not."""
    from dataclasses import replace

    from bjexact.checks.strategy import check_game_engine
    from bjexact.core.rules import GameRules
    from bjexact.player.game import solve_game

    rules = GameRules(shoe=HALF_DECK, split_hands=2)

    @cache
    def solved(shoe):
        return solve_game(replace(rules, shoe=shoe), with_distribution=False, progress=False)

    @cache
    def hit_stand(shoe):
        return ShoeDecisions.solve(Rules(shoe=shoe, naturals="peek"), shoe)

    def shoe_of(cards, upcard, unseen):
        return tuple(u + cards.count(r) + (r == upcard) for r, u in enumerate(unseen, start=1))

    def knows_the_shoe(cards, upcard, unseen):
        shoe = shoe_of(cards, upcard, unseen)
        if len(cards) == 2:
            return solved(shoe).hands[(min(cards), max(cards), upcard)].best
        return hit_stand(shoe).decide(cards, upcard)

    def full_shoe_chart(cards, upcard, unseen):
        return knows_the_shoe(cards, upcard, tuple(s - cards.count(r) - (r == upcard)
                                                    for r, s in enumerate(HALF_DECK, start=1)))

    check = check_game_engine(knows_the_shoe, rules, shoes=2, seed=5)
    assert check.passed and len(check.shoes) == 3 and check.shoes[1:] == tuple(depleted_shoes(HALF_DECK, 2, 5))
    frozen = check_game_engine(full_shoe_chart, rules, shoes=2, seed=5)
    expected = set()
    for index, shoe in enumerate(frozen.shoes[1:], start=1):
        full, here = solved(HALF_DECK).hands, solved(shoe).hands
        for key, moves in here.items():
            if {key[0], key[1]} == {1, 10} or len(moves.w) < 2 or key not in full:
                continue
            played = full[key].best
            if played in moves.w and moves.unconditional(played) < moves.unconditional(moves.best):
                expected.add((index, key))
    first_moves = {(d.shoe, (*d.cards, d.upcard)) for d in frozen.disagreements if len(d.cards) == 2}
    assert expected and first_moves == expected
    assert {d.shoe for d in frozen.disagreements} <= {1, 2}


def test_a_depleted_shoe_too_small_to_deal_is_named(capsys, tmp_path, monkeypatch):
    (tmp_path / "stands.py").write_text("def decide(cards, upcard, unseen):\n    return 'stand'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    status = main(["check-strategy", "stands:decide", "--game", "--shoe", "2,1,1,1,1,1,1,1,1,4", "--shoes", "3",
                   "--seed", "2", "--split-hands", "2"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert "depleted shoe 1 (2,1,0,1,1,0,0,0,0,2): the shoe is too small" in err


def test_shoe_decisions_read_card_symbols_and_ranks_as_hand_decision_does():
    import pytest

    from bjexact.errors import BjexactError

    rules = Rules(shoe=HALF_DECK, naturals="peek")
    table = ShoeDecisions.solve(rules)
    for cards, up in (((10, 6), 10), ((1, 6), 7), ((2, 3, 4), 5)):
        by_symbol = tuple("A23456789T"[c - 1] for c in cards)
        expected = hand_decision(rules, cards, up, unseen=None)
        assert table.decide(by_symbol, "A23456789T"[up - 1]) == table.decide(cards, up) == expected.best
        assert table.values(by_symbol, "K" if up == 10 else str(up)) == table.values(cards, up)
    assert table.decide((11, 6), 7) == table.decide(("A", "6"), 7)  # 11 for an ace
    for cards, up, words in ((("A", "X"), "T", "unknown card 'X'"), ((10,), 10, "at least two cards"),
                             ((10, 10, 5), 10, "already bust")):
        with pytest.raises(BjexactError, match=words):
            table.decide(cards, up)


def test_a_shoe_that_deals_no_decision_is_not_a_pass(tmp_path, capsys):
    report = tmp_path / "report.txt"
    status = main(["check-strategy", "tests/test_check_strategy.py:always_hit", "--shoe", "0,0,0,0,0,0,0,0,0,2",
                   "-o", str(report)])
    err = capsys.readouterr().err
    assert status == 2 and "deals no decision to check" in err and err.count("\n") == 1
    assert not report.exists()
    from bjexact.checks.strategy import StrategyCheck

    assert not StrategyCheck(Rules(decks=1), ((4,) * 9 + (16,),), 0, 0, ()).passed  # nothing tested


def test_an_engines_answer_is_read_by_the_built_in_types_methods():
    import pytest

    from bjexact.checks.strategy import engine_move
    from bjexact.errors import BjexactError

    class Hostile(str):
        def strip(self, *args):
            raise RuntimeError("no strip")

        def lower(self):
            raise RuntimeError("no lower")

        def __repr__(self):
            raise RuntimeError("no repr")

    class HostileInt(int):
        def __repr__(self):
            raise RuntimeError("no repr")

    assert engine_move(Hostile(" Hit "), "e") == "hit"
    for answer, shown in ((Hostile("fold"), "'fold'"), (HostileInt(3), "3"), (None, "None"), ([1], "a list")):
        with pytest.raises(BjexactError) as error:
            engine_move(answer, "e")
        assert f"the engine e answered {shown}, not a move" in str(error.value)
