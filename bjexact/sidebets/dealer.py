"""The dealer's final hand, card by card: how it ends, how many cards, their values, their suits.

The dealer's drawing is the chain of :mod:`bjexact.dealer.graph` (one topology per soft-17 rule, its
hands the multisets of the dealer's values), followed one step further: instead of summing the
hands that end on each outcome, every final hand is kept with its chance, as a
:class:`DealerHand`: the up-card, the values of all its cards, the last card drawn (for a bust,
the card that busted it). Chances are exact: for a finite shoe each hand's chance is its number of
ordered ways to be drawn (products of card counts) over the falling factorial of the shoe's size;
for the infinite deck, products of one deck's proportions over powers of 13. Card orders are
never enumerated: paths into a hand of the graph are summed as they meet.

Suits (:func:`with_suits`): the drawing rule sees values only, so given the values drawn, the
cards of each value are a uniform draw from that value's cards, and P(all of suit s | values) is
a product of falling factorials (:meth:`~bjexact.sidebets.suits.SuitedShoe.all_of_suits_chance`).
Each hand splits into :class:`DealerSuits`: every card of one suit (that is, of the up-card's
suit), of one colour in two suits or more, or of both colours.

Conventions: the chances are those of the dealer's cards drawn from ``shoe`` (the cards other
hands take unseen change none of them: see :mod:`bjexact.sidebets.analysis`); a natural is a
final hand of two cards (an ace and a ten-valued card), never a bust; nothing is conditioned on
the hole card (:mod:`bjexact.sidebets.analysis` conditions where a bet asks for it). A small
custom shoe can run out before the dealer stands: that hand is *exhausted*, neither a bust nor a
total, and has no last card.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cache, cached_property, lru_cache

from ..core.cards import STANDARD_PROPORTIONS, Counts, FiniteShoe, InfiniteShoe, add_counts, counts_of, rank_symbol
from ..core.hand import HandValue, hand_value, two_cards_natural
from ..core.numbers import mpq
from ..dealer.graph import dealer_graph
from .suits import RED_SUITS, SUITS, SuitedShoe

__all__ = ["DealerSuits", "DealerHand", "DealerHands", "dealer_hands", "suit_chances", "with_suits",
           "deepest_drawing_hand"]


class DealerSuits(StrEnum):
    """The suits of the dealer's final hand: ``suited`` (every card of one suit, the up-card's),
    ``one-colour`` (one colour, two suits or more), ``mixed`` (red and black cards)."""

    SUITED = "suited"
    ONE_COLOUR = "one-colour"
    MIXED = "mixed"


@dataclass(frozen=True, slots=True)
class DealerHand:
    """The dealer's final hand: ``upcard`` (its value), ``cards`` (the count of each value A..T among
    all its cards, the up-card's included), ``last`` (the value of the last card drawn; ``None``
    when ``exhausted``: the shoe ran out) and, where a bet sees them, ``suits``."""

    upcard: int
    cards: Counts
    last: int | None
    exhausted: bool = False
    suits: DealerSuits | None = None

    @property
    def size(self) -> int:
        return sum(self.cards)

    @property
    def value(self) -> HandValue:
        return _value_of(self.cards)

    @property
    def natural(self) -> bool:
        return self.size == 2 and two_cards_natural(self.value)

    @property
    def bust(self) -> bool:
        return self.value.bust

    @property
    def total(self) -> int | None:
        """The final total of a hand that stands (a natural's is 21); ``None`` for a bust or an exhausted shoe."""
        return None if self.bust or self.exhausted else self.value.total

    def __str__(self) -> str:
        cards = ",".join(rank_symbol(r) for r in range(1, 11) for _ in range(self.cards[r - 1]))
        return f"{rank_symbol(self.upcard)} up: {cards}" + (f" ({self.suits})" if self.suits else "")


@cache
def _value_of(cards: Counts) -> HandValue:
    return hand_value(r for r in range(1, 11) for _ in range(cards[r - 1]))


_ONE = {r: counts_of([r]) for r in range(1, 11)}


@dataclass(frozen=True)
class _Topology:
    """The dealer graph's transient hands in topological order: their cards, and per hand its moves
    (the index of a transient target, or -1 for a final outcome, and the values that take it);
    per up-card and transient hand, the final hands one more card makes, as (value, the hand's
    number in ``hands``, every final hand once)."""

    cards: tuple[Counts, ...]
    moves: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...]
    finals: tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
    starts: Mapping[int, int]
    hands: tuple[DealerHand, ...]


@cache
def _topology(h17: bool) -> _Topology:
    """Also, per up-card and transient hand, the final hands one more card makes (value, hand): they
    do not depend on the shoe."""
    graph = dealer_graph(h17, "as21", True)
    chain = graph.chain
    n = chain.n_transient
    cards = tuple(graph.graph.nodes[node]["cards"] for node in chain.transient)
    moves = tuple(tuple((target, tuple(data["ranks"]))
                        for target, data in zip(chain.targets[i], chain.edge_data[i]) if data["ranks"] and target < n)
                  for i in range(n))
    ending = [tuple(r for target, data in zip(chain.targets[i], chain.edge_data[i]) if target >= n
                    for r in data["ranks"]) for i in range(n)]
    numbers: dict[DealerHand, int] = {}  # each final hand's number: its ways are added in a list, not hashed
    finals = tuple(tuple(tuple((r, numbers.setdefault(DealerHand(upcard, add_counts(cards[i], _ONE[r]), r),
                                                      len(numbers))) for r in ending[i])
                         for i in range(n)) for upcard in range(1, 11))
    starts = {u: chain.index[graph.start(u)] for u in range(1, 11)}
    return _Topology(cards, moves, finals, starts, tuple(numbers))


def deepest_drawing_hand(h17: bool) -> int:
    """The most cards a dealer hand can hold and still draw: a shoe of more than one card beyond
    it cannot run out while the dealer draws."""
    return max(sum(cards) for cards in _topology(h17).cards)


@dataclass(frozen=True, eq=False)
class DealerHands:
    """The dealer's final hands from a shoe, every up-card included: ``ways[hand]`` ordered ways to draw
    the hand's cards (products of card counts), over :meth:`denominator` of its size. For a finite
    shoe of ``total`` cards that is the falling factorial; for the infinite deck, drawn in one
    deck's proportions of ``total`` 13, its power."""

    ways: Mapping[DealerHand, int]
    total: int
    finite: bool

    def denominator(self, size: int) -> int:
        return math.perm(self.total, size) if self.finite else self.total**size

    def chance(self, hand: DealerHand) -> mpq:
        return mpq(self.ways[hand], self.denominator(hand.size))

    @cached_property
    def chances(self) -> dict[DealerHand, mpq]:
        """P(the dealer's final hand is this one); they sum to one."""
        return {hand: mpq(w, self.denominator(hand.size)) for hand, w in self.ways.items()}


@lru_cache(maxsize=256)
def dealer_hands(shoe: FiniteShoe | InfiniteShoe, h17: bool) -> DealerHands:
    """The dealer's final hands for cards drawn from ``shoe``, every up-card included (:class:`DealerHands`).

    Within a hand of k cards each ordered way to draw it has the same chance (a product of counts
    over the falling factorial of the shoe's size), so the ways reaching a hand of the graph are
    added as integers and divided once.
    """
    topology = _topology(h17)
    finite = isinstance(shoe, FiniteShoe)
    left = shoe.counts if isinstance(shoe, FiniteShoe) else STANDARD_PROPORTIONS
    found = [0] * len(topology.hands)  # ways per final hand, by its number
    exhausted: dict[DealerHand, int] = {}
    order: list[int | DealerHand] = []  # the hands as first reached (the order of ``ways``)
    for upcard, start in topology.starts.items():
        if not left[upcard - 1]:
            continue
        reach = {start: left[upcard - 1]}
        finals = topology.finals[upcard - 1]
        for i in range(start, len(topology.cards)):
            here = reach.pop(i, 0)
            if not here:
                continue
            cards = topology.cards[i]
            drawable = [c - d for c, d in zip(left, cards)] if finite else list(left)
            if not any(drawable):
                hand = DealerHand(upcard, cards, None, exhausted=True)
                if hand not in exhausted:
                    order.append(hand)
                exhausted[hand] = exhausted.get(hand, 0) + here
                continue
            for target, ranks in topology.moves[i]:
                count = sum(drawable[r - 1] for r in ranks)
                if count:
                    reach[target] = reach.get(target, 0) + here * count
            for r, number in finals[i]:
                if drawable[r - 1]:
                    if not found[number]:
                        order.append(number)
                    found[number] += here * drawable[r - 1]
    ways: dict[DealerHand, int] = {}
    for h in order:
        if isinstance(h, int):
            ways[topology.hands[h]] = found[h]
        else:
            ways[h] = exhausted[h]
    return DealerHands(ways, sum(left), finite)



@lru_cache(maxsize=65536)
def suit_chances(shoe: SuitedShoe, cards: Counts) -> tuple[tuple[DealerSuits, mpq], ...]:
    """P(each :class:`DealerSuits` | the dealer's cards have the values ``cards``), drawn from ``shoe``;
    the suits that cannot happen are left out."""
    colours = (RED_SUITS, frozenset(SUITS) - RED_SUITS)
    suited = sum((shoe.all_of_suits_chance(cards, frozenset({s})) for s in SUITS), mpq(0))
    one_colour = sum((shoe.all_of_suits_chance(cards, c) for c in colours), mpq(0))
    found = ((DealerSuits.SUITED, suited), (DealerSuits.ONE_COLOUR, one_colour - suited),
             (DealerSuits.MIXED, 1 - one_colour))
    return tuple((suits, p) for suits, p in found if p)


def with_suits(hands: Mapping[DealerHand, mpq], shoe: SuitedShoe) -> dict[DealerHand, mpq]:
    """Each hand split by its :class:`DealerSuits`, the cards drawn from ``shoe`` (chances sum as before)."""
    split: dict[DealerHand, mpq] = {}
    for hand, chance in hands.items():
        for suits, part in suit_chances(shoe, hand.cards):
            split[replace(hand, suits=suits)] = chance * part
    return split
