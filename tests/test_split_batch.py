"""Perfect play after splitting once, valued in batches (bjexact.player.split_batch), against the
recursive solver it replaces for two hands on a finite shoe (``optimal_split(..., batched=False)``,
itself checked against a brute force in test_optimal_split.py): the same exact values, and the
same refusals where a tiny shoe cannot complete the round."""

from __future__ import annotations

import random

import pytest

from bjexact.core.cards import counts_of
from bjexact.core.numbers import mpq
from bjexact.core.rules import GameRules
from bjexact.errors import BjexactError
from bjexact.player import split_batch
from bjexact.player.optimal_split import optimal_split

RANKS = range(1, 11)

# rule sets of a split once: S17/H17, DAS or not, the doubling rules, hitting and doubling split aces,
# peek, ENHC and OBO (aces split once where other pairs resplit: below)
RULE_SETS = [{}, {"das": False}, {"h17": True}, {"hole_card": "enhc"}, {"hole_card": "enhc", "obo": True},
             {"double": "9-11"}, {"double": "10-11", "double_soft": False}, {"hit_split_aces": True},
             {"hit_split_aces": True, "double_split_aces": True, "h17": True}, {"double_after_hit": True},
             {"hole_card": "enhc", "das": False, "double": "10-11"}, {"double": "none", "h17": True}]


def both(rules: GameRules, pair: int, upcard: int) -> tuple[mpq, mpq]:
    """W of the split (batched, recursive)."""
    return optimal_split(rules, pair, upcard).w, optimal_split(rules, pair, upcard, batched=False).w


def shoe_for(pair: int, upcard: int, size: int) -> tuple[int, ...]:
    """The pair, the up-card and ``size`` - 3 more cards, a ten-rich mix that varies with the pair and
    the up-card (every round completes)."""
    others = [(pair * upcard + i * 7) % 10 + 1 for i in range(size - 3)]
    others[: (size - 3) // 2] = [10] * ((size - 3) // 2)
    return counts_of([pair, pair, upcard, *others])


@pytest.mark.parametrize("pair", RANKS)
def test_every_pair_and_upcard_equals_the_recursive_solver(pair):
    """Fourteen cards, each up-card under one of the rule sets in turn (every rule set meets every pair)."""
    for upcard in RANKS:
        rules = RULE_SETS[(pair + 3 * upcard) % len(RULE_SETS)]
        game = GameRules(shoe=shoe_for(pair, upcard, 14), split_hands=2, **rules)  # type: ignore[arg-type]
        fast, recursive = both(game, pair, upcard)
        assert fast == recursive, (pair, upcard, rules)


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_rule_set_equals_the_recursive_solver(rules):
    """A shoe of sixteen cards, three pairs against three up-cards. It holds no six: under each rule set
    the two solvers take every line (and way between lines) of their code that they take on the same
    shoe with a six and a fifth ten, in half the time."""
    shoe = (2, 1, 1, 2, 1, 0, 1, 2, 1, 4)
    for pair, upcard in ((1, 10), (4, 5), (8, 9)):
        fast, recursive = both(GameRules(shoe=shoe, split_hands=2, **rules), pair, upcard)  # type: ignore[arg-type]
        assert fast == recursive, (pair, upcard)


def test_aces_split_once_where_other_pairs_resplit_are_batched():
    """Aces without RSA split to two hands even where other pairs split to four."""
    rules = GameRules(shoe=(3, 2, 1, 1, 2, 1, 1, 1, 1, 6), split_hands=4, hit_split_aces=True)
    assert rules.split_limit(1) == 2
    fast, recursive = both(rules, 1, 6)
    assert fast == recursive


def test_tiny_shoes_are_refused_alike():
    """Shoes of seven to thirteen cards: the same value, or the same refusal (the shoe cannot give the second
    hand its second card, or the dealer runs out), whichever move would meet it."""
    generator = random.Random(33)
    refused = 0
    for _ in range(150):
        pair, upcard = generator.choice(RANKS), generator.choice(RANKS)
        others = (generator.choice([1, 2, 3, 5, 7, 10, 10, 10]) for _ in range(generator.randint(4, 10)))
        cards = [pair, pair, upcard, *others]
        rules = GameRules(shoe=counts_of(cards), split_hands=2, **generator.choice(RULE_SETS))  # type: ignore[arg-type]
        outcomes = []
        for batched in (True, False):
            try:
                outcomes.append(optimal_split(rules, pair, upcard, batched=batched).w)
            except BjexactError as error:
                outcomes.append(str(error))
        assert outcomes[0] == outcomes[1], (cards, rules)
        refused += isinstance(outcomes[0], str)
    assert 10 < refused < 140  # both kinds of shoe were met


@pytest.mark.parametrize(("rules", "pair", "upcard", "w"), [
    ({}, 8, 10, "-441188603663002597/1064580491218444200"),
    ({"h17": True, "hole_card": "enhc", "das": False}, 7, 10, "-521773259270466773/709720327478962800")])
def test_one_deck_as_the_recursive_solver_gave_it(rules, pair, upcard, w):
    """One deck, split once: the values the recursive solver gives in half a minute each (recorded; 2,2
    against a 6, A,A against a 5 with hit split aces and 9,9 against an ace under ENHC and OBO were
    found equal too, in minutes)."""
    split = optimal_split(GameRules(decks=1, split_hands=2, **rules), pair, upcard)
    assert str(split.w) == w


def test_small_pieces_give_the_same_values(monkeypatch):
    """The second hand valued a few positions at a time and the dealer walked a few sets at a time, its
    batches running on across the levels: the same values as in one piece each. Pieces of 20 positions
    and 30 sets cut every kind of piece that pieces of 5 and 3 cut, in a fifth of the time: over the
    three splits' 28 levels they split the second hand's positions at 20 and a move's rows at the first
    hand (up to 36 positions); 16 levels take the dealer's rows of several walks, 18 rows left over from
    a walk begun for a level before."""
    cases = [(GameRules(shoe=(2, 1, 1, 2, 1, 1, 1, 2, 1, 5), split_hands=2, **rules), pair, upcard)  # type: ignore[arg-type]
             for rules, pair, upcard in (({}, 8, 9), ({"hole_card": "enhc"}, 4, 5), ({"h17": True}, 10, 6))]
    whole = [optimal_split(rules, pair, upcard).w for rules, pair, upcard in cases]
    monkeypatch.setattr(split_batch, "_CHUNK", 20)
    monkeypatch.setattr(split_batch, "_DEALER_CHUNK", 30)
    assert [optimal_split(rules, pair, upcard).w for rules, pair, upcard in cases] == whole


@pytest.mark.parametrize("rules", RULE_SETS[:6])
def test_departures_over_the_batches_are_the_recursive_solvers(rules):
    """The departures from CDZ- (``--show-play``) walked over the play the batches keep: the same, in the
    same order, as over the recursive solver's values."""
    found = 0
    for pair, upcard in ((2, 6), (8, 10), (9, 1), (1, 5), (7, 7)):
        game = GameRules(shoe=shoe_for(pair, upcard, 16), split_hands=2, **rules)  # type: ignore[arg-type]
        fast = optimal_split(game, pair, upcard, departures=True)
        recursive = optimal_split(game, pair, upcard, departures=True, batched=False)
        assert (fast.w, fast.departures) == (recursive.w, recursive.departures), (pair, upcard)
        found += len(fast.departures or ())
    assert found
