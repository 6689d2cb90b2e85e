"""The chances of the deal, the one owner: the player's two cards and the dealer's up-card.

The cards are dealt from a well-shuffled shoe: on a finite shoe each is drawn without
replacement (the player's two cards after the up-card, by exchangeability the same chances as in
any order of dealing); on the infinite deck each independently with the probabilities ``p`` (of
any number type: ``mpq``, or dual numbers that carry a derivative). Two-card hands are unordered
pairs ``(a, b)`` with ``a <= b`` (ranks, 1 the ace, 10 a ten): their chance counts both orders.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from .cards import RANKS, FiniteShoe, Shoe
from .hand import natural_partner
from .numbers import mpq

__all__ = ["two_card_hands", "infinite_hands", "infinite_natural_chance"]


def two_card_hands(shoe: Shoe, upcard: int) -> Iterator[tuple[tuple[int, int], Any]]:
    """P(the player's two cards are ``(a, b)`` | the up-card ``upcard``), ``a <= b``: on a finite
    shoe (the up-card still in it, which must hold one) only the hands it can deal; on the infinite
    deck :func:`infinite_hands`.

    >>> dict(two_card_hands(Shoe.of_decks(1), 1))[(1, 10)]  # 2 orders x 3 aces x 16 tens / (51 x 50)
    mpq(16,425)
    """
    if not isinstance(shoe, FiniteShoe):
        yield from infinite_hands(shoe.draw_probabilities())
        return
    left = list(shoe.counts)
    left[upcard - 1] -= 1
    n = sum(left)
    for a in RANKS:
        for b in RANKS[a - 1:]:
            ways = left[a - 1] * (left[b - 1] - (a == b)) * (1 if a == b else 2)
            if ways > 0:
                yield (a, b), mpq(ways, n * (n - 1))


def infinite_hands(p: Sequence[Any]) -> Iterator[tuple[tuple[int, int], Any]]:
    """P(the player's two cards are ``(a, b)``), ``a <= b``, on the infinite deck of probabilities ``p``
    (A..T), whatever the up-card: ``p[a] p[b]``, twice that when ``a != b``.

    >>> dict(infinite_hands([mpq(1, 13)] * 9 + [mpq(4, 13)]))[(1, 10)]
    mpq(8,169)
    """
    for a in RANKS:
        for b in RANKS[a - 1:]:
            yield (a, b), p[a - 1] * p[b - 1] * (1 if a == b else 2)


def infinite_natural_chance(upcard: int, p: Sequence[Any]) -> Any:
    """P(the hole card makes a dealer natural with ``upcard``) on the infinite deck of probabilities
    ``p`` (A..T, any number type): P(ten) under an ace, P(ace) under a ten, else 0 (of ``p``'s type).

    >>> p = [mpq(1, 13)] * 9 + [mpq(4, 13)]
    >>> infinite_natural_chance(1, p), infinite_natural_chance(10, p), infinite_natural_chance(6, p)
    (mpq(4,13), mpq(1,13), mpq(0,1))
    """
    partner = natural_partner(upcard)
    return p[partner - 1] if partner else p[0] * 0
