"""The split lines' distribution on finite shoes computed the ways the code may take: combined in int64
arrays or, where a count could pass 2^62, in Python integers; the dealer's residues in one walk or in
chunks; residues carried to other primes without the integers. Each way against the other and against
plain integer arithmetic (the values themselves are pinned by the brute force in test_fullgame.py)."""

from __future__ import annotations

import random

import numpy as np

from bjexact.core.rules import GameRules
from bjexact.player import distribution, seen
from bjexact.player.game import solve_game

SHOE = (1, 0, 0, 0, 0, 2, 3, 3, 3, 7)  # 19 cards: A, 6..9, T; pairs split up to four hands


def _distribution(rules):
    return solve_game(rules, split_lines=True, progress=False).distribution


def test_lines_combined_with_python_integers_give_the_same_distribution(monkeypatch):
    rules = GameRules(shoe=SHOE, split_hands=4)
    in_arrays = _distribution(rules)
    monkeypatch.setattr(distribution._LineTable, "combined", classmethod(lambda cls, *args: None))
    assert _distribution(rules) == in_arrays and in_arrays is not None


def test_the_dealers_residues_in_chunks_give_the_same_distribution(monkeypatch):
    rules = GameRules(decks=1, split_hands=2, double="10-11")
    whole = _distribution(rules)
    monkeypatch.setattr(seen, "_DEALER_CHUNK", 7)
    assert _distribution(rules) == whole and whole is not None


def test_residues_carried_to_other_primes_are_those_of_the_integers():
    primes = [2_147_483_647, 2_147_483_629, 2_147_483_587]
    wanted = [2_147_483_563, 2_147_483_549, 97]
    rng = random.Random(4)
    values = [rng.randrange(0, primes[0] * primes[1] * primes[2]) for _ in range(200)] + [0, 1]
    residues = np.array([[v % p for v in values] for p in primes], dtype=np.int64)
    carried = distribution._extend_residues(residues, primes, wanted)
    assert carried.tolist() == [[v % q for v in values] for q in wanted]
