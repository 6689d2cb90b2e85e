"""Hit/stand decisions for a simulator's loop: solve a shoe once, then answer each hand by a look-up.

:class:`ShoeDecisions` values every hand the player can hold (two or more cards, hard total 21 or
less) against every up-card of one shoe, composition-dependent and exact, in one solve
(:func:`~bjexact.player.solver.solve_positions`, the dealer's outcomes batched); afterwards
:meth:`ShoeDecisions.decide` is a dictionary look-up. ``shoe``: the ten counts A..T before the
player's cards and the up-card are dealt (a depleted shoe is just other counts). The values are
those of :func:`~bjexact.player.solver.hand_decision`; exact ties go to standing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from ..core.cards import Counts, FiniteShoe, Shoe, counts_of, rank_symbol
from ..core.hand import player_hand
from ..core.numbers import mpq
from ..core.rules import Rules
from ..errors import BjexactError
from .solver import PositionValues, solve_positions

__all__ = ["ShoeDecisions"]


@dataclass(frozen=True)
class ShoeDecisions:
    """Every hit/stand decision of one shoe, solved once (see the module docstring)."""

    rules: Rules
    shoe: Counts
    positions: dict[tuple[Counts, int], PositionValues] = field(repr=False)
    moves: dict[tuple[Counts, int], str] = field(repr=False)

    @classmethod
    def solve(cls, rules: Rules, shoe: Counts | None = None) -> ShoeDecisions:
        """Solve ``shoe`` (default: the full shoe of ``rules``) for every hand and up-card; a shoe solved
        lately under the same rules is not solved again (checks put several engines to the same shoes)."""
        start = rules.make_shoe() if shoe is None else Shoe.of_counts(shoe)
        if not isinstance(start, FiniteShoe):
            raise BjexactError("ShoeDecisions solves a finite shoe: give --decks N or ten counts")
        return _solved(rules, tuple(start.counts))

    def position(self, cards: Iterable[int | str], upcard: int | str) -> PositionValues:
        """The stand and hit values of ``cards`` against ``upcard``: ranks 1..10 (11 for an ace) or
        card symbols such as ``"A"``, ``"K"``, as :func:`~bjexact.player.solver.hand_decision` reads them."""
        ranks, up = player_hand(cards, upcard)
        key = (counts_of(ranks), up)
        found = self.positions.get(key)
        if found is None:
            raise BjexactError(f"the shoe {self.shoe} cannot deal that hand against {rank_symbol(up)}")
        return found

    def decide(self, cards: Iterable[int | str], upcard: int | str) -> str:
        """``"hit"`` or ``"stand"``: the better move (standing on an exact tie). Ranks 1..10 are
        looked up at once; symbols and 11 for an ace are read first (:meth:`position`)."""
        try:
            found = self.moves.get((counts_of(cards), upcard))  # type: ignore[arg-type]
        except (TypeError, IndexError):
            found = None
        return self.position(cards, upcard).best if found is None else found

    def values(self, cards: Iterable[int | str], upcard: int | str) -> dict[str, mpq]:
        """The exact values of the moves open to the hand (standing, and hitting while a card is left)."""
        found = self.position(cards, upcard)
        out = {"stand": found.stand}
        if found.hit is not None:
            out["hit"] = found.hit
        return {move: value for move, value in out.items() if value is not None}

    def hands(self) -> Iterator[tuple[Counts, int]]:
        """Every (hand counts, up-card) solved."""
        return iter(self.positions)


@lru_cache(maxsize=8)
def _solved(rules: Rules, counts: Counts) -> ShoeDecisions:
    """:meth:`ShoeDecisions.solve` of the finite shoe ``counts``, the last few remembered (the tables are
    read only)."""
    positions = solve_positions(rules, Shoe.of_counts(counts))
    return ShoeDecisions(rules, counts, positions, {key: p.best for key, p in positions.items()})
