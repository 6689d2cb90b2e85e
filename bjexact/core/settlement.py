"""The settlement of a finished hand, the one owner: what a hand wins or loses against the dealer.

A hand ends in one of :data:`RESULTS`: ``natural`` (the player's natural wins the blackjack
payout), ``win``, ``push`` or ``loss``, each per unit of the hand's stake. The order of the rules:

1. a bust player loses, whatever the dealer holds;
2. a natural (:func:`~bjexact.core.hand.is_natural`, never a split hand's) against a natural pushes;
3. the player's natural wins the payout, the dealer's takes the stake;
4. a Charlie (a hand of the rules' number of cards, not bust:
   :meth:`bjexact.core.rules.GameRules.is_charlie`) wins its stake 1:1;
5. a dealer bust loses to every standing hand; otherwise the higher total wins and equal totals push.

Dealer outcomes are named as the dealer's tables name them: a final total ``"17"`` .. ``"21"``
(or the number), ``"bust"``, ``"blackjack"`` (a dealer natural), ``"exhausted"`` (a shoe that ran
out before the dealer finished). How much a dealer natural found after play takes under ENHC
(every bet, or the original one only with OBO) is a rule of the round:
:meth:`bjexact.core.rules.GameRules.dealer_natural_loss`.
"""

from __future__ import annotations

from typing import Any, Literal, cast

from .hand import HandValue
from .numbers import mpq

__all__ = ["RESULTS", "Result", "BUST", "BLACKJACK", "EXHAUSTED", "stand_result", "hand_result", "payout"]

RESULTS = ("natural", "win", "push", "loss")
Result = Literal["natural", "win", "push", "loss"]
BUST = "bust"
BLACKJACK = "blackjack"
EXHAUSTED = "exhausted"


def stand_result(total: int, dealer: str | int, *, blackjack_loses: bool = True) -> str | None:
    """What the dealer's outcome ``dealer`` means for a player standing on ``total`` (21 or
    less, not a natural): ``"win"``, ``"push"``, ``"loss"``, ``"exhausted"`` (the round cannot be
    finished), or ``None`` for a dealer ``"blackjack"`` that is left out (``blackjack_loses``
    false: used to compute E[result, no dealer natural]).

    Examples
    --------
    >>> stand_result(18, "17"), stand_result(18, 18), stand_result(12, "bust"), stand_result(21, "blackjack")
    ('win', 'push', 'win', 'loss')
    """
    if dealer == BUST:
        return "win"
    if dealer == BLACKJACK:
        return "loss" if blackjack_loses else None
    if dealer == EXHAUSTED:
        return EXHAUSTED
    dealer_total = int(dealer)
    return "win" if dealer_total < total else "push" if dealer_total == total else "loss"


def hand_result(player: HandValue, dealer: HandValue, *, player_natural: bool, dealer_natural: bool,
                charlie: bool = False) -> Result:
    """The result of a finished hand of value ``player`` against the dealer's final hand
    ``dealer``, naturals and a Charlie (``charlie``: the hand is one) as told (see the module
    docstring for the order of the rules).

    Examples
    --------
    >>> from bjexact.core.hand import hand_value
    >>> hand_result(hand_value([10, 1]), hand_value([10, 1]), player_natural=True, dealer_natural=True)
    'push'
    >>> hand_result(hand_value([10, 6, 9]), hand_value([10, 1]), player_natural=False, dealer_natural=True)
    'loss'
    >>> hand_result(hand_value([10, 9]), hand_value([10, 6, 8]), player_natural=False, dealer_natural=False)
    'win'
    >>> hand_result(hand_value([2, 2, 3, 2, 4]), hand_value([10, 9]), player_natural=False, dealer_natural=False,
    ...             charlie=True)
    'win'
    """
    if player.bust:
        return "loss"
    if player_natural:
        return "push" if dealer_natural else "natural"
    if dealer_natural:
        return "loss"
    if charlie:
        return "win"
    return cast(Result, stand_result(player.total, BUST if dealer.bust else dealer.total))


def payout(result: str, bj_pays: Any) -> mpq:
    """The net result of a hand per unit of its stake: ``natural`` pays ``bj_pays``, ``win`` 1,
    ``push`` 0, ``loss`` -1.

    Examples
    --------
    >>> [str(payout(r, mpq(3, 2))) for r in RESULTS]
    ['3/2', '1', '0', '-1']
    """
    return mpq(bj_pays) if result == "natural" else mpq({"win": 1, "push": 0, "loss": -1}[result])
