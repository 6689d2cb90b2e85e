"""Shoes at given true counts along one path of compositions: the shoes ``count betting`` values.

From the *neutral remainder* (a share ``remaining`` of every rank: true count 0), the shoe at true
count ``t > 0`` follows the count (:func:`count_path`): one card the count tags positive taken out,
one of the dealt cards it tags negative brought back, and so on, each kind in the count's own
proportions (rank ``r`` in proportion to its cards in the full shoe times the size of its tag);
``t < 0`` the reverse. The shoe for an integer target ``t`` is the first along the path whose true
count reaches ``t``. The true count is the running count of the cards dealt per deck left (52
cards), less for an unbalanced count what that many dealt cards count on average.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import floor
from typing import Any

from ..apps.sweep import canonical_rules, rules_from_json
from ..core.cards import rank_symbol
from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules
from ..errors import BjexactError
from ..player.game import solve_game
from .systems import CountSystem

__all__ = ["CountShoe", "neutral_remainder", "count_path", "count_true_count", "count_shoes", "shoe_tasks",
           "REMOVAL_KIND", "removal_task"]

REMOVAL_KIND = "count_index/1"


@dataclass(frozen=True)
class CountShoe:
    """The shoe for the integer true count ``target``: ``removed`` cards taken from the full shoe
    (``steps`` > 0 cards the count tags positive, < 0 negative), ``shoe`` what is left (A..T),
    ``true_count`` its exact true count (running count of the removed cards per deck unseen)."""

    target: int
    steps: int
    shoe: tuple[int, ...]
    true_count: mpq


def neutral_remainder(full: Sequence[int], remaining: mpq) -> tuple[int, ...]:
    """The cards left when a share ``1 - remaining`` of the shoe has been dealt in the shoe's own
    proportions: ``remaining x full[r]`` of each rank, rounded by largest remainders (ties to the
    lower rank) so that they add up to ``remaining x cards``, rounded down."""
    target = int(floor(remaining * sum(full)))
    exact = [remaining * n for n in full]
    shoe = [int(floor(x)) for x in exact]
    order = sorted(range(10), key=lambda r: (-(exact[r] - shoe[r]), r))
    for r in order[:target - sum(shoe)]:
        shoe[r] += 1
    return tuple(shoe)


def _allot(weights: Sequence[int], limits: Sequence[int], cards: int, tags: Sequence[int]) -> list[int]:
    """``cards`` cards shared among ranks in proportion to ``weights``, one at a time, each to the
    rank furthest behind its share (ties to the larger tag, then the lower rank), none past its
    limit. A prefix of the sequence is the allotment of fewer cards."""
    total = sum(weights)
    taken = [0] * 10
    for step in range(1, cards + 1):
        open_ranks = [r for r in range(10) if weights[r] and taken[r] < limits[r]]
        if not open_ranks:
            raise BjexactError("the shoe runs out of the cards the count needs")
        r = max(open_ranks, key=lambda i: (mpq(step * weights[i], total) - taken[i], abs(tags[i]), -i))
        taken[r] += 1
    return taken


def count_path(system: CountSystem, full: Sequence[int], remaining: mpq, steps: int) -> tuple[int, ...]:
    """The shoe ``steps`` along the count's path from the neutral remainder (:func:`neutral_remainder`):
    for ``steps > 0`` the odd steps take out a card the count tags positive, the even ones bring
    back one of the dealt cards it tags negative (so the shoe's size stays within a card of the
    remainder's; when none is left to bring back, every step takes one out); ``steps < 0`` the
    reverse. Each kind goes in the count's proportions: rank ``r``
    in proportion to ``full[r] x |tag[r]|`` (:func:`_allot`)."""
    base = neutral_remainder(full, remaining)
    sign = 1 if steps >= 0 else -1
    out_weights = [n * abs(t) if t * sign > 0 else 0 for n, t in zip(full, system.tags)]
    in_weights = [n * abs(t) if t * sign < 0 else 0 for n, t in zip(full, system.tags)]
    k = abs(steps)
    dealt = [f - b for f, b in zip(full, base)]
    back = min(k // 2, sum(d for d, w in zip(dealt, in_weights) if w))  # once none is left to bring back, only out
    taken = _allot(out_weights, base, k - back, system.tags)
    returned = _allot(in_weights, dealt, back, system.tags)
    return tuple(b - t + r for b, t, r in zip(base, taken, returned))


def count_true_count(system: CountSystem, full: Sequence[int], shoe: Sequence[int]) -> mpq:
    """The true count of the cards ``shoe`` left: the running count of the cards dealt, less what
    that many cards count on average (0 for a balanced count), per deck left (52 cards); exact.
    For a balanced count this is the running count per deck unseen."""
    dealt = [f - n for f, n in zip(full, shoe)]
    return system.balanced_true_count(full, system.running(dealt), sum(dealt))


HALF = mpq(1, 2)


def count_shoes(system: CountSystem, full: Sequence[int], span: int, remaining: mpq = HALF) -> list[CountShoe]:
    """The shoes for the true counts ``-span .. +span`` (:class:`CountShoe`), in order of count: for
    each integer target the first shoe along :func:`count_path` whose true count reaches it. Counts
    the path cannot reach (it runs out of cards) are left out."""
    if not 0 < remaining <= 1:
        raise BjexactError(f"the share of the shoe left must be more than 0 and at most 1, not {remaining}")
    if not any(system.tags):
        raise BjexactError(f"{system.name} tags no card")
    if len({t for t, n in zip(system.tags, full) if n}) < 2:
        raise BjexactError(f"{system.name} cannot move the count of this shoe (every card has the same tag)")
    base = neutral_remainder(full, remaining)
    if sum(base) < 10:
        raise BjexactError(f"{sum(base)} cards left are too few to deal a round from: a larger shoe or share")
    shoes = [CountShoe(0, 0, base, count_true_count(system, full, base))]
    for sign in (1, -1):
        steps = 0
        for target in range(1, span + 1):
            shoe: tuple[int, ...] = ()
            while True:
                steps += 1
                try:
                    shoe = count_path(system, full, remaining, sign * steps)
                except BjexactError:
                    shoe = ()
                    break
                tc = count_true_count(system, full, shoe)
                if tc * sign >= target:
                    break
            if not shoe:
                break
            shoes.append(CountShoe(sign * target, sign * steps, shoe, tc))
    if len(shoes) == 1:
        raise BjexactError(f"{system.name} cannot move the count of this shoe (no tagged cards to move)")
    return sorted(shoes, key=lambda s: s.target)


def shoe_tasks(rules: GameRules, shoes: Sequence[CountShoe]) -> list[dict[str, Any]]:
    """One task per shoe: the canonical rules with the shoe's composition (the content the
    results store keys on: a composition met again is solved once)."""
    base = {k: v for k, v in rules.to_json().items() if k != "decks"}
    return [canonical_rules(base | {"shoe": list(s.shoe)}) for s in shoes]


def removal_task(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The exact values of every chart cell for one composition: ``{"ev", "cells"}``, ``cells``:
    ``"section row up"`` -> move -> "p/q" (the total-dependent cell values of
    :meth:`~bjexact.player.game.GameSolution.chart`). Pure: a function of ``rules`` only."""
    solution = solve_game(rules_from_json(rules), with_distribution=False, progress=False)
    cells = {}
    for section, rows in solution.chart().items():
        for row, ups in rows.items():
            for up, cell in ups.items():
                cells[f"{section} {row} {rank_symbol(up)}"] = {m: fraction_string(v) for m, v in cell.values.items()}
    return {"ev": fraction_string(solution.ev), "cells": cells}
