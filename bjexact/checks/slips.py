"""Known slips of dealer programs, evaluated exactly so that a table can be matched to one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..core.cards import ACE, RANKS, TEN, UPCARD_ORDER, Counts, add_counts, counts_of, rank_symbol
from ..core.hand import EMPTY_HAND, HandValue, add_card, natural_partner, two_cards_natural
from ..core.numbers import mpq
from ..core.rules import Rules
from ..dealer.distributions import DealerTable
from ..dealer.graph import BLACKJACK, BUST, EXHAUSTED, FINAL_TOTALS
from ..errors import BjexactError

__all__ = ["Slip", "KNOWN_SLIPS", "soft_ace_becomes_hard", "slipped_dealer_table"]


# --- known slips -------------------------------------------------------------------------------------------

AddCard = Callable[[HandValue, int], HandValue]


def soft_ace_becomes_hard(hand: HandValue, rank: int) -> HandValue:
    """A known slip: a soft hand that draws an ace becomes *hard*, its total one higher.

    This is what a recursion over (total, usable ace) produces when it clears the
    usable-ace flag on every ace drawn: soft 13 (A,2) + A gives hard 14 instead of
    soft 14, so a later ten busts a hand that should have fallen back to hard 14.
    Every other card follows the real rule, :func:`bjexact.core.hand.add_card`.
    """
    if hand.soft and rank == ACE:
        return HandValue(hand.total + 1, False)
    return add_card(hand, rank)


@dataclass(frozen=True)
class Slip:
    """A named mistake in a dealer evaluator, as an alternative ``add_card``."""

    name: str
    description: str
    add_card: AddCard = field(compare=False)


KNOWN_SLIPS: dict[str, Slip] = {
    "soft-ace-becomes-hard": Slip(
        "soft-ace-becomes-hard",
        "a soft hand that draws an ace is counted as hard (A,2 + A = hard 14 instead of soft 14)",
        soft_ace_becomes_hard,
    ),
}


def slipped_dealer_table(rules: Rules, slip: Slip | AddCard | None = None):
    """The dealer table that an evaluator with ``slip`` in its ace rule would print.

    A direct recursion over (hand value, cards drawn), independent of the dealer
    graph: with ``slip=None`` it uses the real rule and reproduces
    :func:`bjexact.dealer.dealer_table` exactly, which the tests check. It is kept
    apart from the graph on purpose: a slip such as :func:`soft_ace_becomes_hard` makes
    a hand's value depend on the *order* of its cards (A,2,A is hard 14, A,A,2 soft 14),
    which the graph, whose finite-shoe nodes are multisets of cards, cannot express.
    Conventions (up-card removed from finite shoes, naturals, peek, ``exhausted``, and
    the error when under ``peek`` every card left makes a natural) are those of
    :mod:`bjexact.dealer`.
    """
    add = add_card if slip is None else (slip.add_card if isinstance(slip, Slip) else slip)
    return _slipped_table(rules, add)


@cache
def _slipped_table(rules: Rules, add: AddCard):
    shoe = rules.make_shoe()
    outcomes = FINAL_TOTALS + (BUST,) + ((BLACKJACK,) if rules.naturals == "separate" else ())
    zero = (0,) * 10

    @cache
    def play(hand: HandValue, drawn: Counts, first: bool) -> tuple[tuple[str, mpq], ...]:
        """P(outcome) from ``hand`` with ``drawn`` gone from the shoe; ``first``: the hole card is next."""
        p = list(shoe.draw_probabilities(drawn))
        if not any(p):
            return ((EXHAUSTED, mpq(1)),)
        natural = natural_partner(ACE if hand.soft else hand.total) if first and rules.naturals == "peek" else None
        if natural is not None:  # peek: the hole card is conditioned not to make a natural
            rest = 1 - p[natural - 1]
            if not rest:  # as the dealer graph does: nothing to condition on
                raise BjexactError(f"up-card {rank_symbol(ACE if natural == TEN else TEN)}: "
                                   "every card left makes a natural, so nothing can be conditioned on no natural")
            p = [mpq(0) if r == natural - 1 else q / rest for r, q in enumerate(p)]
        result: dict[str, mpq] = {}
        for rank, q in zip(RANKS, p, strict=True):
            if not q:
                continue
            new = add(hand, rank)
            after = drawn if shoe.is_infinite else add_counts(drawn, counts_of([rank]))
            branch: tuple[tuple[str, Any], ...]
            if first and two_cards_natural(new):  # a natural (never drawn under peek: its chance is 0)
                branch = ((BLACKJACK if rules.naturals == "separate" else "21", mpq(1)),)
            elif new.bust:
                branch = ((BUST, mpq(1)),)
            elif rules.dealer_stands(new):
                branch = ((str(new.total), mpq(1)),)
            else:
                branch = play(new, after, False)
            for outcome, r in branch:
                result[outcome] = result.get(outcome, mpq(0)) + q * r
        return tuple(result.items())

    rows = {}
    for upcard in UPCARD_ORDER:
        if not shoe.has(upcard):
            continue
        drawn = zero if shoe.is_infinite else counts_of([upcard])
        dist = dict(play(add(EMPTY_HAND, upcard), drawn, True))
        rows[upcard] = dist
    has_exhausted = any(row.get(EXHAUSTED) for row in rows.values())
    columns = outcomes + ((EXHAUSTED,) if has_exhausted else ())
    rows = {u: {o: row.get(o, mpq(0)) for o in columns} for u, row in rows.items()}
    return DealerTable(rules, columns, rows)


