"""Shared test helpers: an independent brute-force model of the dealer.

Nothing here uses bjexact's ace rule, graph or solver. A hand is valued from
scratch (all aces count 1, then one ace is raised to 11 if that does not bust),
and the dealer's play is enumerated card by card over every draw sequence with
``fractions.Fraction`` probabilities. Sequences reaching the same multiset of
dealer cards share their future (the shoe left and the hand value depend only on
the multiset), so the recursion is memoised on the sorted hand.

Conventions mirrored from the issue, not from the code:
  * ``as21``: a dealer natural (two-card 21) is the outcome "21";
  * ``separate``: it is the outcome "blackjack";
  * ``peek``: the hole card is drawn conditioned on not making a natural;
  * a finite shoe that runs out while the dealer must still draw gives "exhausted".
"""

from __future__ import annotations

import os
import sys
from fractions import Fraction
from functools import cache
from types import SimpleNamespace

import pytest
from brute_hand import value

# The suite starts two workers and a few hundred ``python -m bjexact`` processes: each compiles
# the package and (in the workers) the rewritten test modules again unless bytecode is cached.
# Where the environment asks Python not to write bytecode (PYTHONDONTWRITEBYTECODE), the suite
# caches it anyway, in the __pycache__ folders git ignores (measured: a worker collects in 4.5 s
# instead of 9.5 s, and a command starts 0.1 s sooner).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# How the workers share the suite (pytest-xdist, ``--dist loadgroup``): a module's tests run on one
# worker, so that its fixtures and its brute-force helpers' caches are made once; the modules by most
# tests first. The tests of the modules below stand alone (a command each) and are handed out one at a
# time after the modules: they fill both workers to the end instead of one module's last tests
# running on one worker while the other waits.
SPREAD_MODULES = frozenset({"test_fuzz_cli.py", "test_docs.py"})


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own, which reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name not in SPREAD_MODULES:
            item.add_marker(pytest.mark.xdist_group(item.path.name))


ONE_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)  # A, 2, ..., 9, ten-valued
INFINITE_DRAW = tuple(Fraction(4 if rank == 10 else 1, 13) for rank in range(1, 11))


class Undefined(Exception):
    """Conditioning on 'no natural' is impossible: every card left makes one."""


def dealer_row(shoe, upcard, h17=False, naturals="as21"):
    """P(outcome | up-card) by enumerating draw sequences; ``shoe`` is ten counts or None (infinite)."""
    if shoe is not None:
        shoe = list(shoe)
        assert shoe[upcard - 1] > 0, "the up-card must be in the shoe"
        shoe[upcard - 1] -= 1
        shoe = tuple(shoe)

    def draws(hand):
        """[(rank, probability)] for the next card, given the dealer's hand so far."""
        if shoe is None:
            return [(rank, INFINITE_DRAW[rank - 1]) for rank in range(1, 11)]
        # ``shoe`` already lacks the up-card, which is one of the hand's cards
        left = [shoe[r - 1] - hand.count(r) + (r == upcard) for r in range(1, 11)]
        total = sum(left)
        return [(r, Fraction(left[r - 1], total)) for r in range(1, 11) if left[r - 1]]

    @cache
    def finish(hand):
        total, soft = value(hand)
        if len(hand) == 2 and total == 21:
            return {"blackjack" if naturals == "separate" else "21": Fraction(1)}
        if total > 21:
            return {"bust": Fraction(1)}
        if total >= 18 or (total == 17 and not (h17 and soft)):
            return {str(total): Fraction(1)}
        options = draws(hand)
        if not options:
            return {"exhausted": Fraction(1)}
        if naturals == "peek" and len(hand) == 1:
            options = [(r, p) for r, p in options if value(hand + (r,))[0] != 21]
            if not options:
                raise Undefined(upcard)
            rest = sum(p for _, p in options)
            options = [(r, p / rest) for r, p in options]
        result: dict[str, Fraction] = {}
        for rank, p in options:
            for outcome, q in finish(tuple(sorted(hand + (rank,)))).items():
                result[outcome] = result.get(outcome, Fraction(0)) + p * q
        return result

    return finish((upcard,))


def soft17_reachable(shoe, upcard):
    """Whether a dealer who stands on soft 17 can reach a soft 17 with ``upcard`` (own enumeration)."""
    found = []
    seen = set()

    def walk(hand, left):
        if hand in seen:
            return
        seen.add(hand)
        total, soft = value(hand)
        if total >= 17:
            if total == 17 and soft:
                found.append(hand)
            return
        for rank in range(1, 11):
            if left is None or left[rank - 1] > 0:
                rest = None if left is None else tuple(c - (r == rank) for r, c in enumerate(left, start=1))
                walk(tuple(sorted(hand + (rank,))), rest)

    start = None if shoe is None else tuple(c - (r == upcard) for r, c in enumerate(shoe, start=1))
    walk((upcard,), start)
    return bool(found)


def as_fraction(x) -> Fraction:
    """An exact bjexact number (gmpy2 mpq) as a Fraction."""
    return Fraction(int(x.numerator), int(x.denominator))


@pytest.fixture(scope="session")
def bf():
    """The brute-force helpers of this module (see its docstring)."""
    return SimpleNamespace(
        dealer_row=dealer_row, value=value, soft17_reachable=soft17_reachable,
        as_fraction=as_fraction, Undefined=Undefined, ONE_DECK=ONE_DECK,
    )
