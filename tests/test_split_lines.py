"""The split lines' distribution on finite shoes computed the ways the code may take: combined in int64
arrays or, where a count could pass 2^62, in Python integers; two alike hands paired once or in every
order; pairs checked against the shoe or not where it holds them all; the dealer's residues in one walk
or in chunks, walked once or kept; residues carried to other primes without the integers; the lines'
weights in int64 or rank by rank. Each way against the other and against plain integer arithmetic (the
values themselves are pinned by the brute force in test_fullgame.py)."""

from __future__ import annotations

import random
from math import prod

import numpy as np

from bjexact.core.rules import GameRules
from bjexact.player import distribution, seen
from bjexact.player.game import solve_game

SHOE = (1, 0, 0, 0, 0, 2, 3, 3, 3, 7)  # 19 cards: A, 6..9, T; pairs split up to four hands
SHORT_DECK = (4, 0, 0, 0, 0, 4, 4, 4, 4, 16)  # a deck less its 2s to 5s: 36 cards


def _distribution(rules):
    return solve_game(rules, split_lines=True, progress=False).distribution


def test_lines_combined_with_python_integers_give_the_same_distribution(monkeypatch):
    rules = GameRules(shoe=SHOE, split_hands=4)
    in_arrays = _distribution(rules)
    monkeypatch.setattr(distribution._LineTable, "combined", classmethod(lambda cls, *args: None))
    assert _distribution(rules) == in_arrays and in_arrays is not None


def test_the_dealers_residues_in_chunks_give_the_same_distribution(monkeypatch):
    """A deck less its 2s to 5s, split to three hands: walks of up to 682 sets (21 walks, 2,956 sets)
    cut in chunks of 20, dozens in the largest walk and a remainder in most, as the chunks of 100 of
    walks of up to 4,800 sets on a larger shoe were, in a third of the time."""
    rules = GameRules(shoe=SHORT_DECK, split_hands=3)
    whole = _distribution(rules)
    monkeypatch.setattr(seen, "_DEALER_CHUNK", 20)
    assert _distribution(rules) == whole and whole is not None


def test_residues_carried_to_other_primes_are_those_of_the_integers():
    primes = [2_147_483_647, 2_147_483_629, 2_147_483_587]
    wanted = [2_147_483_563, 2_147_483_549, 97]
    rng = random.Random(4)
    values = [rng.randrange(0, primes[0] * primes[1] * primes[2]) for _ in range(200)] + [0, 1]
    residues = np.array([[v % p for v in values] for p in primes], dtype=np.int64)
    carried = distribution._extend_residues(residues, primes, wanted)
    assert carried.tolist() == [[v % q for v in values] for q in wanted]


def _ordered_pairs(codes, done, ways, hand, room, place):
    """Every ordered pair of the two alike hands' lines, as a third hand after the first is combined."""
    return distribution._combine_arrays(codes, done, ways, hand, room, place)


def _every_pair_checked(codes, done, ways, hand, room, place, alike):
    """Each pair checked against the shoe and merged on two keys, whatever the shoe."""
    return distribution._combine_checked(codes, done, ways, distribution._digits(codes, room, place), hand, room,
                                         place, alike)


def test_two_alike_hands_paired_once_give_the_distribution_of_every_ordered_pair(monkeypatch):
    rules = GameRules(shoe=SHOE, split_hands=4)
    paired_once = _distribution(rules)
    monkeypatch.setattr(distribution, "_pair_arrays", _ordered_pairs)
    assert _distribution(rules) == paired_once and paired_once is not None


def test_pairs_left_unchecked_where_the_shoe_holds_them_give_the_checked_distribution(monkeypatch):
    """A deck less its 2s to 5s split to three hands: some pairs' lines always fit the shoe (not checked),
    some do not, both where two alike hands are paired once (24 joins unchecked, 12 checked) and where a
    hand joins the lines combined before it (22 and 38): every way one deck split once took (17 and 39,
    alike hands only), and the other, in a tenth of the time."""
    rules = GameRules(shoe=SHORT_DECK, split_hands=3)
    fast = _distribution(rules)
    monkeypatch.setattr(distribution, "_joined_arrays", _every_pair_checked)
    assert _distribution(rules) == fast and fast is not None


def test_falling_weights_modulo_a_prime_are_those_of_the_integers():
    """prod_r ff(left_r, M_r) mod p, computed once in int64 where it fits and rank by rank where
    it could not (many tens drawn from a large shoe), against Python integers."""
    from math import perm

    left = [24, 22, 24, 24, 24, 24, 23, 24, 24, 96]
    rng = random.Random(7)
    drawn = [[rng.randrange(0, 4) for _ in range(9)] + [rng.randrange(0, 12)] for _ in range(300)]
    drawn += [[0] * 9 + [10], [0] * 9 + [9], [12] * 9 + [0], [0] * 10]
    weights = distribution._FallingWeights(left, np.array(drawn, dtype=np.int64))
    assert len(weights.slow) and len(weights.slow) < len(drawn)  # both ways taken
    for p in (67108859, 67108837, 97):
        for first in (0, 150):
            expected = [prod(perm(n, k) for n, k in zip(left, counts)) % p for counts in drawn[first:]]
            assert weights.modulo(p, first).tolist() == expected


def test_dealer_rows_walked_once_are_those_of_the_kept_rows():
    """The split lines' one-use rows (walked from an array, nothing looked up or kept) equal the
    rows the oracle walks and keeps, residues and denominators, and the denominator by cards left."""
    from bjexact.dealer.batch import DealerOracle

    shoe = (4, 4, 4, 4, 4, 4, 4, 3, 4, 16)
    sets = [(0, 2, 0, 0, 0, 0, 0, 0, 0, 0), (1, 2, 0, 1, 0, 0, 0, 0, 0, 2), (0, 2, 3, 0, 1, 0, 0, 0, 0, 1)]
    oracle = DealerOracle(shoe, h17=True)
    once = oracle.walked_once(np.array(sets, dtype=np.int64), 7)
    kept = DealerOracle(shoe, h17=True).residues(sets, 7)
    assert once.primes == kept.primes and once.denominators == kept.denominators
    assert (once.residues == kept.residues).all()
    assert once.denominators == [oracle.denominator(sum(shoe) - 1 - sum(s), 7) for s in sets]
