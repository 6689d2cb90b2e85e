"""The exact engine (bjexact.player.engine) against the fraction arithmetic it replaced.

``solve_game(rules)`` takes its values from the engine (integers over known denominators,
the dealer in batches modulo primes); ``solve_game(rules, engine=False)`` computes every value
in fractions, the code path the engine replaced. They must agree exactly, hand by hand and
move by move, on every kind of rule: S17/H17, DAS or not, one split or resplits (RSA,
hitting split aces), surrender, ENHC/OBO, 6:5, CDZ-/CDP1/CDP, custom small shoes. The
brute-force comparisons of test_fullgame.py check both against the real order of play.
The fraction arithmetic's values are recorded (RECORDED below), live comparisons kept where it
is quick.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bjexact.core.numbers import mpq
from bjexact.dealer.batch import DealerOracle
from bjexact.errors import BjexactError
from bjexact.player.game import GameRules, solve_game

SMALL = (4, 2, 2, 2, 2, 2, 2, 2, 2, 9)  # 29 cards
TINY = (2, 1, 1, 2, 3, 1, 1, 1, 1, 6)  # 19 cards

RULE_SETS = [
    dict(shoe=SMALL, split_hands=2, double="10-11", double_soft=False, split_strategy="cdp1"),
    dict(shoe=TINY, split_hands=2),
    dict(shoe=SMALL, split_hands=2, hit_split_aces=True, split_strategy="cdp"),
    dict(shoe=SMALL, split_hands=4),
    dict(shoe=TINY, split_hands=4, rsa=True, hit_split_aces=True, split_strategy="cdp", h17=True),
    dict(shoe=SMALL, split_hands=3, split_strategy="cdp1", surrender="late", das=False),
    dict(shoe=SMALL, split_hands=4, hole_card="enhc", rsa=True, surrender="early"),
    dict(shoe=TINY, split_hands=4, hole_card="enhc", obo=True, split_strategy="cdp"),
    dict(shoe=TINY, split_hands=4, rsa=True, double="9-11"),
]
# rule sets solved after their twin that differs in doubling after splitting
DAS_TWINS = [
    dict(shoe=SMALL, split_hands=2),
    dict(shoe=SMALL, split_hands=2, split_strategy="cdp1", hit_split_aces=True, double_split_aces=True),
    dict(shoe=SMALL, split_hands=4, rsa=True),
    dict(shoe=TINY, split_hands=4, split_strategy="cdp", hole_card="enhc"),
]


def name_of(options: dict) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


def das_twin(options: dict) -> dict:
    """``options`` with doubling after splitting the other way round (and split aces not doubled)."""
    return options | {"das": not GameRules(**options).das, "double_split_aces": False}


# Where the fraction arithmetic takes seconds (up to 25 s on a whole deck), its values are
# recorded in RECORDED (a digest of every hand's every move, the natural's chance, each up-card's
# value and the edge, with the edge in clear), and the engine is compared with the record, as
# exactly. `python tests/test_engine.py --record` solves every recorded rule set in fractions
# again (about two minutes) and rewrites the file: `git diff` shows any change.
DECK_RULE_SETS = {
    "deck, split once": dict(decks=1, split_hands=2),
    "deck, split once, H17, no DAS, late surrender": dict(decks=1, split_hands=2, h17=True, das=False,
                                                           surrender="late"),
    "deck, split once, ENHC": dict(decks=1, split_hands=2, hole_card="enhc"),
    "deck, split once, ENHC, OBO, early surrender, 6:5": dict(decks=1, split_hands=2, hole_card="enhc", obo=True,
                                                              surrender="early", bj_pays=mpq(6, 5)),
    "deck, no split": dict(decks=1, split_hands=1),
    "deck, split to 4 hands": dict(decks=1, split_hands=4),
    "deck less a six, split to 4 hands, CDP": dict(shoe=(4, 4, 4, 4, 4, 3, 4, 4, 4, 16), split_hands=4,
                                                   split_strategy="cdp"),
}
RECORDED = Path(__file__).parent / "data" / "fraction_arithmetic.json"
RECORDED_RULE_SETS = DECK_RULE_SETS | {name_of(o): o for o in RULE_SETS + DAS_TWINS + [das_twin(o) for o in DAS_TWINS]}


def values_record(solution) -> dict[str, str]:
    """The edge and a digest of every value of ``solution`` (each hand's moves and natural chance,
    each up-card's value), in a canonical text."""
    lines = [f"{key} natural={solution.hands[key].natural} "
             + " ".join(f"{move}={value}" for move, value in sorted(solution.hands[key].w.items()))
             for key in sorted(solution.hands)]
    lines += [f"up {upcard} {value}" for upcard, value in sorted(solution.by_upcard.items())]
    lines.append(f"ev {solution.ev}")
    return {"ev": str(solution.ev), "digest": hashlib.sha256("\n".join(lines).encode()).hexdigest()}


def assert_as_recorded(name: str, solution) -> None:
    """The engine's ``solution`` of RECORDED_RULE_SETS[name] has the fraction arithmetic's recorded values."""
    assert GameRules(**RECORDED_RULE_SETS[name]) == solution.rules
    assert values_record(solution) == json.loads(RECORDED.read_text())[name], name


def assert_same(rules: GameRules) -> None:
    new = solve_game(rules, with_distribution=False, progress=False)
    old = solve_game(rules, with_distribution=False, progress=False, engine=False)
    assert set(new.hands) == set(old.hands)
    for key, moves in old.hands.items():
        assert dict(new.hands[key].w) == dict(moves.w), key
        assert new.hands[key].natural == moves.natural, key
    assert dict(new.by_upcard) == dict(old.by_upcard)
    assert new.ev == old.ev


@pytest.mark.parametrize("options", RULE_SETS, ids=name_of)
def test_the_engine_equals_the_fraction_arithmetic(options):
    assert_as_recorded(name_of(options), solve_game(GameRules(**options), with_distribution=False, progress=False))


def test_the_engine_equals_the_fraction_arithmetic_solved_now():
    """The record's source, live: the fraction arithmetic solved in this run (where it is quick)."""
    assert_same(GameRules(shoe=TINY, split_hands=2))
    assert_same(GameRules(shoe=TINY, split_hands=4, rsa=True, double="9-11"))


@pytest.mark.parametrize("name", [n for n in DECK_RULE_SETS if "CDP" not in n])
def test_the_engine_equals_the_fraction_arithmetic_on_a_deck(name):
    assert_as_recorded(name, solve_game(GameRules(**DECK_RULE_SETS[name]), with_distribution=False, progress=False))


def test_the_engine_gives_the_same_distribution_without_splits():
    """On TINY, which takes every line (and way between lines) of the engine, the solver, the dealer's
    batches and the distribution that SMALL takes here, in a third of the time."""
    rules = GameRules(shoe=TINY, split_hands=1, surrender="late")
    new = solve_game(rules, progress=False)
    assert new.distribution == solve_game(rules, progress=False, engine=False).distribution


def test_a_shoe_too_small_for_the_split_hands_is_refused_as_before():
    rules = GameRules(shoe=(0, 0, 0, 0, 0, 0, 0, 2, 0, 4), split_hands=4)
    with pytest.raises(BjexactError) as new:
        solve_game(rules, with_distribution=False, progress=False)
    with pytest.raises(BjexactError) as old:
        solve_game(rules, with_distribution=False, progress=False, engine=False)
    assert str(new.value) == str(old.value)


def test_dealer_rows_recovered_from_fewer_primes_sum_to_their_denominator():
    """The float64 walk modulo primes: rows of a six-deck shoe come back exact (each sums to
    its denominator, which is checked against the residues too)."""
    oracle = DealerOracle((24,) * 9 + (96,), h17=True)
    removed = [(0,) * 10, (3, 0, 0, 0, 0, 0, 0, 0, 0, 4), (0, 4, 4, 4, 0, 0, 0, 0, 0, 0)]
    for upcard in (1, 2, 6, 10):
        for numerators, denominator in oracle.numerators(removed, upcard):
            assert sum(numerators) == denominator
            assert all(n >= 0 for n in numerators)


def test_dealer_rows_walked_once_per_shoe_are_reused_by_a_second_oracle(monkeypatch):
    """A second oracle of the same shoe (a second solution, such as the chart's without DAS)
    walks only the removed sets not walked before; every row stays the exact distribution of
    the dealer graph's fraction arithmetic."""
    from bjexact.core.rules import Rules
    from bjexact.dealer import batch
    from bjexact.dealer.distributions import dealer_distributions

    shoe = (4, 4, 4, 4, 4, 4, 3, 4, 4, 16)  # a deck less a seven: a shoe no other test walks
    first = [(1, 0, 0, 0, 0, 0, 0, 0, 0, 1), (0, 2, 0, 0, 0, 0, 0, 0, 0, 0)]
    second = [(0, 2, 0, 0, 0, 0, 0, 0, 0, 0), (0, 0, 1, 0, 0, 0, 0, 1, 0, 1), (1, 0, 0, 0, 0, 0, 0, 0, 0, 1),
              (0, 0, 1, 0, 0, 0, 0, 1, 0, 1)]
    walked = _count_walks(monkeypatch)
    DealerOracle(shoe, h17=False).numerators(first, 6)
    rows = DealerOracle(shoe, h17=False).numerators(second, 6)
    assert walked == [2, 1]
    rules = Rules(shoe=shoe, naturals="separate")
    for removed, (values, denominator) in zip(second, rows):
        expected = dealer_distributions(rules, removed, [6])[6]
        assert [mpq(v, denominator) for v in values] == [expected[o] for o in batch.OUTCOMES]


def test_dealer_rows_walked_without_keeping_are_exact_and_leave_the_store_as_it_was(monkeypatch):
    """``keep=False`` (rows used once, such as the lines of split hands): rows already kept are
    reused, the others are walked, returned in the order asked (repeats included) and not kept,
    so a second request walks them again; every row is the dealer graph's exact distribution."""
    from bjexact.core.rules import Rules
    from bjexact.dealer import batch
    from bjexact.dealer.distributions import dealer_distributions

    shoe = (4, 4, 4, 4, 4, 3, 4, 4, 4, 16)  # a deck less a six: a shoe no other test walks
    kept = [(1, 0, 0, 0, 0, 0, 0, 0, 0, 1), (0, 2, 0, 0, 0, 0, 0, 0, 0, 0)]
    once = [(0, 0, 1, 0, 0, 0, 0, 1, 0, 1), (0, 2, 0, 0, 0, 0, 0, 0, 0, 0), (0, 0, 0, 2, 0, 0, 0, 0, 0, 2),
            (0, 0, 1, 0, 0, 0, 0, 1, 0, 1), (1, 0, 0, 0, 0, 0, 0, 0, 0, 1)]
    walked = _count_walks(monkeypatch)
    DealerOracle(shoe, h17=False).residues(kept, 5)
    oracle = DealerOracle(shoe, h17=False)
    first = oracle.residues(once, 5, keep=False)
    second = oracle.residues(once, 5, keep=False)
    assert walked == [2, 2, 2]  # the two kept rows reused; the two others walked each time
    rules = Rules(shoe=shoe, naturals="separate")
    for column, removed in enumerate(once):
        expected = dealer_distributions(rules, removed, [5])[5]
        for residues in (first, second):
            values, denominator = batch.row_of(residues, column)
            assert [mpq(v, denominator) for v in values] == [expected[o] for o in batch.OUTCOMES]
    assert oracle.residues(kept, 5) is not None and walked == [2, 2, 2]
    oracle.residues(once, 5)
    assert walked == [2, 2, 2, 2]  # kept this time
    oracle.residues(once, 5, keep=False)
    assert walked == [2, 2, 2, 2]


def test_the_distribution_of_split_lines_keeps_no_dealer_rows(monkeypatch):
    """The lines of split hands (walked once, for the exact distribution) leave the dealer's
    store with only the rows the solution itself walked: they are not kept in memory. On TINY the
    solution walks 5,564 rows and the lines some 1,000 more, which a store that kept them would hold."""
    from bjexact.dealer import batch

    def stored_rows() -> int:
        return sum(len(store.where) for stores in batch._STORES.values() for store in stores.values())

    rules = GameRules(shoe=TINY, split_hands=2)
    monkeypatch.setattr(batch, "_STORES", {})
    solve_game(rules, with_distribution=False, progress=False)
    solved = stored_rows()
    solution = solve_game(rules, progress=False, split_lines=True)
    assert solution.distribution is not None and sum(solution.distribution.values()) == 1
    assert solved > 0 and stored_rows() == solved


@pytest.mark.parametrize("options", DAS_TWINS, ids=name_of)
@pytest.mark.parametrize("first_das", [True, False], ids=["das-first", "no-das-first"])
def test_a_rule_set_solved_after_its_twin_differing_in_das_equals_the_fraction_arithmetic(options, first_das):
    """The engines of a rule set that differs only in doubling after splitting share their
    positions (chart's Ph/Pd cells): the split hands must still double by their own rules."""
    first, second = (options, das_twin(options)) if first_das else (das_twin(options), options)
    solve_game(GameRules(**first), with_distribution=False, progress=False)
    assert_as_recorded(name_of(second), solve_game(GameRules(**second), with_distribution=False, progress=False))


def test_a_rule_set_solved_after_its_das_twin_values_no_stand_again(monkeypatch):
    """Without DAS after DAS (CDP1, one split): every stand and optimum is the twin's, so the
    second solve weighs no dealer row; a rule set differing in anything else shares nothing. On TINY
    with a second nine (a shoe no other test solves: every rank, so a weighing per up-card), as on a deck
    less a two, in a third of the time."""
    from bjexact.player import engine

    rules = GameRules(shoe=(2, 1, 1, 2, 3, 1, 1, 1, 2, 6), split_hands=2, split_strategy="cdp1")
    solve_game(rules, with_distribution=False, progress=False)
    weighed: list[int] = []
    weighted = engine.weighted

    def counted(batch, columns, weights):
        weighed.append(len(columns))
        return weighted(batch, columns, weights)

    monkeypatch.setattr(engine, "weighted", counted)
    solve_game(replace(rules, das=False), with_distribution=False, progress=False)
    assert weighed == []
    solve_game(replace(rules, das=False, hit_split_aces=True), with_distribution=False, progress=False)
    assert len(weighed) == 10


def test_the_optima_of_resplit_hands_come_from_one_batch_of_dealer_rows_per_upcard(monkeypatch):
    """CDP with resplits: the optima that choose the split hands' moves (every pair, one to three
    pair cards gone) are valued from one walk of the dealer per up-card, not one each; the
    values stay those of the fraction arithmetic."""
    from bjexact.dealer import batch

    name = "deck less a six, split to 4 hands, CDP"
    rules = GameRules(**DECK_RULE_SETS[name])
    plain: list[int] = []
    numerators = batch._numerators

    def counted(walk, left, sizes, others, p, upcard, pair, j):
        if not pair:
            plain.append(upcard)
        return numerators(walk, left, sizes, others, p, upcard, pair, j)

    monkeypatch.setattr(batch, "_numerators", counted)
    new = solve_game(rules, with_distribution=False, progress=False)
    monkeypatch.undo()
    # per up-card: the unsplit hands, the optima with pair cards gone, the split hands' stands (not 26)
    assert max(plain.count(u) for u in range(1, 11)) <= 3
    assert_as_recorded(name, new)


# Charlie rule sets, compared live with the fraction arithmetic (each a second or less): a hand of the
# Charlie's count is finished, worth P(no dealer natural) under peek and OBO and 1 - 2 P(natural) under
# ENHC, reached by hits of unsplit and split hands, and (resplits) with hidden non-pair cards gone.
CHARLIE_RULE_SETS = [
    dict(shoe=TINY, split_hands=2, charlie=4, surrender="late"),
    dict(shoe=TINY, split_hands=4, rsa=True, hit_split_aces=True, split_strategy="cdp", h17=True, charlie=4),
    dict(shoe=TINY, split_hands=4, hole_card="enhc", split_strategy="cdp1", charlie=4),
    dict(shoe=TINY, split_hands=4, hole_card="enhc", charlie=4, double="10-11", das=False),
    dict(shoe=TINY, split_hands=3, hole_card="enhc", obo=True, charlie=5, bj_pays=mpq(6, 5), surrender="early"),
    dict(shoe=SMALL, split_hands=2, charlie=5, split_strategy="cdp1", h17=True),
    dict(shoe=SMALL, split_hands=1, hole_card="enhc", charlie=6),
]


@pytest.mark.parametrize("options", CHARLIE_RULE_SETS, ids=name_of)
def test_the_engine_equals_the_fraction_arithmetic_under_a_charlie(options):
    assert_same(GameRules(**options))


def test_the_engine_under_a_charlie_gives_each_hand_the_moves_of_hand_moves():
    """Every two-card hand's moves from the engine are those :func:`hand_moves` computes for that hand
    alone (fraction arithmetic), and a hand of the Charlie's count asked later (a simulator's
    question) is answered as the fraction arithmetic answers it."""
    from bjexact.player.game import hand_moves
    from bjexact.player.values import EngineSolver, FractionSolver

    rules = GameRules(shoe=TINY, split_hands=3, hole_card="enhc", charlie=4, split_strategy="cdp")
    solution = solve_game(rules, with_distribution=False, progress=False)
    for (a, b, upcard), moves in solution.hands.items():
        assert dict(hand_moves(rules, (a, b), upcard).w) == dict(moves.w), (a, b, upcard)
    engine, fractions = EngineSolver(rules), FractionSolver(rules)
    for upcard in (1, 5, 10):
        engine.prefetch(upcard)
        for hand in [(1, 1, 1, 0, 0, 0, 0, 0, 0, 0), (1, 1, 0, 1, 0, 0, 0, 0, 0, 1), (0, 1, 1, 1, 1, 0, 0, 0, 0, 0)]:
            assert engine.continuation(hand, upcard) == fractions.continuation(hand, upcard), (hand, upcard)
            assert engine.continues_hitting(hand, upcard) == fractions.continues_hitting(hand, upcard)


def test_the_engine_gives_the_same_distribution_under_a_charlie():
    """The net result's distribution follows the engine's play: a Charlie ends the hand as a win."""
    rules = GameRules(shoe=TINY, split_hands=1, charlie=4, hole_card="enhc", surrender="early")
    new = solve_game(rules, progress=False)
    assert new.distribution is not None
    assert new.distribution == solve_game(rules, progress=False, engine=False).distribution


def test_a_charlie_rule_set_solved_after_its_das_twin_equals_the_fraction_arithmetic():
    options = dict(shoe=TINY, split_hands=4, rsa=True, charlie=4)
    solve_game(GameRules(**das_twin(options)), with_distribution=False, progress=False)
    assert_same(GameRules(**options))


def _count_walks(monkeypatch) -> list[int]:
    """The number of dealer rows each batch walk computes, appended as the walks happen."""
    from bjexact.dealer import batch

    walked: list[int] = []
    numerators = batch._numerators

    def counted(walk, left, *rest):
        walked.append(left.shape[0])
        return numerators(walk, left, *rest)

    monkeypatch.setattr(batch, "_numerators", counted)
    return walked


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    RECORDED.write_text(json.dumps({
        name: values_record(solve_game(GameRules(**options), with_distribution=False, progress=False, engine=False))
        for name, options in RECORDED_RULE_SETS.items()}, indent=1) + "\n")
