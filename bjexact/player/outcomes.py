"""The hit/stand game's results, payoffs and objectives, over the settlement of
:mod:`bjexact.core.settlement` (the one owner of what a hand wins).

A hand ends in one of :data:`RESULTS` (``natural`` win, ``win``, ``push``, ``loss``); an objective
weights them (:func:`payoffs`). :func:`stand_results` settles a standing total against the dealer's
final distribution, :func:`settle_deal` the naturals of a dealt hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from ..core.numbers import RATIONALS, mpq
from ..core.rules import Rules
from ..core.settlement import EXHAUSTED, RESULTS, stand_result
from ..errors import BjexactError

__all__ = ["RESULTS", "OBJECTIVES", "Objective", "Results", "payoffs", "stand_results", "settle_deal", "settle_value"]


OBJECTIVES = ("ev", "win")
Objective = Literal["ev", "win"]
Results = tuple[mpq, mpq, mpq, mpq]  # probabilities of RESULTS

ZERO = RATIONALS.zero
ONE = RATIONALS.one
NO_RESULTS: Results = (ZERO, ZERO, ZERO, ZERO)


def payoffs(rules: Rules, objective: str) -> Results:
    """The weight of each result in :data:`RESULTS` under ``objective``.

    Examples
    --------
    >>> [str(w) for w in payoffs(Rules(), "ev")], [str(w) for w in payoffs(Rules(), "win")]
    (['3/2', '1', '0', '-1'], ['1', '1', '1/2', '0'])
    """
    if objective == "ev":
        return (rules.bj_pays, ONE, ZERO, -ONE)
    if objective == "win":
        return (ONE, ONE, mpq(1, 2), ZERO)
    raise BjexactError(f"unknown objective {objective!r} (use ev or win)")


def score(weights: Results, results: Results) -> mpq:
    return sum((w * r for w, r in zip(weights, results) if r), ZERO)


def add_results(a: Results, b: Results, scale: mpq) -> Results:
    return tuple(x + scale * y for x, y in zip(a, b))


def loss_results(p: mpq) -> Results:
    return (ZERO, ZERO, ZERO, p)


def result_of(outcome: str, total: int, blackjack_loses: bool) -> str | None:
    """What a dealer ``outcome`` means for a player standing on ``total``:
    :func:`bjexact.core.settlement.stand_result`."""
    return stand_result(total, outcome, blackjack_loses=blackjack_loses)


def stand_sums(sums: Mapping[str, mpq]) -> Results:
    if sums.get(EXHAUSTED):
        raise BjexactError("the shoe is too small: the dealer can run out of cards before finishing")
    return (ZERO, sums.get("win", ZERO), sums.get("push", ZERO), sums.get("loss", ZERO))


def stand_results(total: int, dealer: Mapping[str, mpq], *, blackjack_loses: bool = True) -> Results:
    """The results of standing on ``total`` against a dealer outcome distribution.

    A dealer ``blackjack`` beats the player when ``blackjack_loses``; otherwise it is
    left out (used to compute E[result, no dealer natural]). ``exhausted`` with a
    non-zero probability is an error: the round could not be finished.
    """
    sums: dict[str, mpq] = {}
    for outcome, p in dealer.items():
        result = result_of(outcome, total, blackjack_loses)
        if result is not None:
            sums[result] = sums.get(result, ZERO) + p
    return stand_sums(sums)


def settle_deal(naturals: str, player_natural: bool, dealer_natural: Any, played: Results) -> Results:
    """The unconditional results of a dealt hand, naturals settled first.

    ``dealer_natural``: P(the dealer has a natural | the cards dealt). ``played``:
    the results of playing the hand optimally; under ``peek`` as E[result, no dealer
    natural], since the hand is only played when the dealer has none. Under ``as21``
    naturals are plain 21s, already in ``played``; under ``separate`` a dealer natural
    is already a loss in ``played``. The numbers may be of any domain with ``0 * x`` and
    ``x + 1`` (the infinite deck's dual numbers too).
    """
    if naturals == "as21":
        return played
    zero = dealer_natural * 0
    if player_natural:
        return (zero + 1 - dealer_natural, zero, dealer_natural, zero)
    if naturals == "separate":
        return played
    return add_results(played, (zero, zero, zero, dealer_natural), zero + 1)  # peek: a dealer natural beats the hand


def settle_value(naturals: str, player_natural: bool, dealer_natural: Any, played: Any, weights: Results) -> Any:
    """The value, under the objective's ``weights``, of :func:`settle_deal` for a hand whose play is
    worth ``played`` (under ``peek`` E[value, no dealer natural]): settlement is linear in the play."""
    zero = dealer_natural * 0
    naturals_only = settle_deal(naturals, player_natural, dealer_natural, (zero, zero, zero, zero))
    value = sum((w * r for w, r in zip(weights, naturals_only, strict=True)), zero)
    return value if player_natural and naturals != "as21" else value + played
