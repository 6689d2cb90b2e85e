"""The hands of three or more cards a player comes to hold, and how often, under a solution's play.

A two-card hand whose best move is to hit draws a card; the hand it makes is played on by the
same composition-dependent optimum (:meth:`~bjexact.player.values.FractionSolver.later_move`),
drawing again while that says hit. A hand of three or more cards is a multiset of ranks: the
chance of holding it is the sum over the orders in which its cards can arrive through hands that
hit, each order's chance the product of the draws' (which depend on the cards seen only, so the
orders are merged hand by hand, one card count at a time). Chances are unconditional like the
two-card hands' deal chances: the up-card's, the two cards', every draw's, marginal over the hole
card (under peek the dealer's natural, which ends the round first, is in a hand's values:
:meth:`~bjexact.player.values.MoveValues.unconditional`). Split hands are not followed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from math import lcm

from ..core.cards import RANKS, Counts, counts_of
from ..core.hand import HandValue
from ..core.numbers import mpq
from .game import later_moves
from .solution import GameSolution
from .states import counts_value
from .values import FractionSolver, MoveValues, add_card

__all__ = ["later_hands"]


Held = tuple[Counts, int, mpq, MoveValues]  # the cards, the up-card, the chance of holding them, their moves


def later_hands(solver: FractionSolver, solution: GameSolution,
                wanted: Callable[[HandValue], bool] = lambda value: True) -> Iterator[Held]:
    """Every unsplit hand of three or more cards the player holds with a decision to make under
    ``solution``'s play (``solver`` the one that solved it; a Charlie or a bust is not one), whose
    value ``wanted`` accepts: ``(counts, up-card, chance, moves)``, ``chance`` = P(up-card, and the
    player comes to hold these cards), ``moves`` the hand's stand and hit (and double where the
    rules allow it after hitting).

    >>> from bjexact.core.rules import GameRules
    >>> from bjexact.player.game import solve_with
    >>> solver = FractionSolver(GameRules(decks="inf", split_hands=1))
    >>> solution = solve_with(solver, with_distribution=False, progress=False)
    >>> hands = {(h, u): c for h, u, c, _ in later_hands(solver, solution)}
    >>> hands[((0, 2, 1, 0, 0, 0, 0, 0, 0, 0), 10)]  # 2, 2, 3: P(T up) x 3 orders x (1/13)^3
    mpq(12,28561)
    >>> ((0, 1, 0, 0, 0, 0, 1, 0, 0, 1), 6) in hands  # 2, 7, T v 6: 9 doubles, 12 and 17 stand
    False
    """
    for upcard, up_chance in solution.upcard_chance.items():
        draws = _Draws(solver, upcard)
        # each hand's chance given the up-card, as an integer weight over a common denominator
        denominator = draws.two_cards
        frontier: dict[Counts, int] = {}
        for (a, b, up), moves in solution.hands.items():
            if up == upcard and moves.best == "hit":
                hand = counts_of((a, b))
                weight = solution.deal_chance[(a, b, up)] * denominator
                assert weight.denominator == 1  # the deal's chances are over this denominator
                frontier[hand] = frontier.get(hand, 0) + int(weight)
        while frontier:
            reached: dict[Counts, int] = {}
            level = 0
            for hand, weight in frontier.items():
                ways, level = draws(hand)
                for rank, count in ways:
                    new = add_card(hand, rank)
                    reached[new] = reached.get(new, 0) + weight * count
            denominator *= level
            frontier = {}
            for hand, weight in reached.items():
                value = counts_value(hand)
                if value.bust or solver.rules.is_charlie(sum(hand), value):
                    continue
                if wanted(value):
                    cards = tuple(r for r, n in enumerate(hand, start=1) for _ in range(n))
                    yield hand, upcard, up_chance * mpq(weight, denominator), later_moves(solver, cards, upcard)
                if (solver.later_move(hand, upcard) == "hit" if solver.may_double(hand)
                        else solver.continues_hitting(hand, upcard)):
                    frontier[hand] = weight


class _Draws:
    """The player's next card given the hand and ``upcard``: ``(rank, ways)`` over one denominator
    per number of cards held (the cards unseen on a finite shoe; the deck's on the infinite one);
    ``two_cards`` the denominator of the two-card hands' chances."""

    def __init__(self, solver: FractionSolver, upcard: int):
        self.cards, self.upcard = solver.cards, upcard
        if self.cards.infinite:
            p = self.cards.shoe.draw_probabilities()
            self.denominator = lcm(*(q.denominator for q in p))
            self.fixed = [(r, int(q * self.denominator)) for r, q in zip(RANKS, p) if q]
            self.two_cards = self.denominator ** 2
        else:
            n = sum(self.cards.counts) - 1  # unseen besides the up-card
            self.two_cards = n * (n - 1)  # the two-card hands' deal chances are over this

    def __call__(self, hand: Counts) -> tuple[list[tuple[int, int]], int]:
        if self.cards.infinite:
            return self.fixed, self.denominator
        left = self.cards.unseen(hand, self.upcard)
        n = sum(left)
        if n <= 1:  # only the hole card is unseen: no card can be drawn
            return [], n
        return [(r, c) for r, c in zip(RANKS, left) if c], n
