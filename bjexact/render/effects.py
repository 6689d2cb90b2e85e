"""The effect of each rule: a rule set's house edge beside those of the rule sets that differ from it
in one common rule, each solved exactly.

A :class:`RuleChange` is one rule changed and nothing else (``H17 instead of S17``, ``no DAS``,
``6:5 instead of 3:2``, ``6 decks instead of 2``, ...), in both directions: a rule the rule set has is
taken away, one it lacks is added. :func:`rule_changes` lists those that apply to a rule set (a rule
that cannot be combined with the others, such as late surrender without a peek, is left out and
:func:`rule_changes` says nothing of it). :func:`rule_effects` solves each changed rule set once
(:func:`bjexact.player.game.solve_game`, the best composition-dependent play, CDZ- after splits as
the rule set says) and returns the exact house edges; a change that cannot be solved (a small shoe
that cannot deal it) is listed apart with the reason.

Conventions: the house edge is minus the expected net result of a round per unit initial bet; the
change is the changed rule set's edge minus the base's, so a positive change is the house's gain.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules
from ..errors import BjexactError
from ..player.game import solve_game
from .memory import Memory

__all__ = ["RuleChange", "RuleEffect", "RuleEffects", "rule_changes", "rule_effects", "house_edge",
           "remember_house_edge", "COMMON_DECKS"]

COMMON_DECKS = (1, 2, 6, 8)
"""The shoes a rule set is compared with: the deck counts casinos deal."""


@dataclass(frozen=True)
class RuleChange:
    """One rule changed from a rule set, and nothing else: ``label`` in players' words, ``rules`` the result."""

    label: str
    rules: GameRules


@dataclass(frozen=True)
class RuleEffect:
    """A changed rule set's exact house edge beside the base's (per unit initial bet)."""

    change: RuleChange
    house_edge: mpq
    base_edge: mpq

    @property
    def change_in_edge(self) -> mpq:
        """The changed edge minus the base edge: positive when the change favours the house."""
        return self.house_edge - self.base_edge

    def to_json(self) -> dict[str, Any]:
        return {"rule": self.change.label, "rules": self.change.rules.to_json(),
                "house_edge": fraction_string(self.house_edge), "house_edge_float": float(self.house_edge),
                "change": fraction_string(self.change_in_edge), "change_float": float(self.change_in_edge)}


@dataclass(frozen=True)
class RuleEffects:
    """The base rule set's house edge and the effect of each :class:`RuleChange` of it."""

    rules: GameRules
    house_edge: mpq
    effects: tuple[RuleEffect, ...]
    unsolved: tuple[tuple[RuleChange, str], ...] = ()
    """The changes that could not be solved (a small shoe that cannot deal them), each with the reason."""

    def to_json(self) -> dict[str, Any]:
        """``{"rules", "house_edge", "house_edge_float", "changes": [{"rule", "rules", "house_edge", "change",
        ...}]}``: exact ``"p/q"`` strings per unit initial bet, a float beside each."""
        return {"rules": self.rules.to_json(), "house_edge": fraction_string(self.house_edge),
                "house_edge_float": float(self.house_edge), "changes": [e.to_json() for e in self.effects],
                "unsolved": [{"rule": change.label, "reason": reason} for change, reason in self.unsolved]}


def _decks_words(decks: int) -> str:
    return "1 deck" if decks == 1 else f"{decks} decks"


def rule_changes(rules: GameRules) -> tuple[RuleChange, ...]:
    """The common rules changed one at a time: S17/H17, DAS, splitting once or to 4 hands, RSA, surrender
    (late with a peek, early without), 3:2/6:5, peek/ENHC and the shoe (1, 2, 6 or 8 decks), in that order.

    >>> [change.label for change in rule_changes(GameRules(decks=6))][:4]
    ['H17 instead of S17', 'no DAS', 'split once (2 hands) instead of to 4', 'RSA']
    """
    changes = [RuleChange("S17 instead of H17" if rules.h17 else "H17 instead of S17",
                          replace(rules, h17=not rules.h17))]
    if rules.double != "none" and rules.split_hands > 1 and not rules.double_split_aces:
        changes.append(RuleChange("DAS" if not rules.das else "no DAS", replace(rules, das=not rules.das)))
    if rules.split_hands > 2:
        changes.append(RuleChange(f"split once (2 hands) instead of to {rules.split_hands}",
                                  replace(rules, split_hands=2, rsa=False)))
    elif rules.split_hands == 2:
        changes.append(RuleChange("split to 4 hands instead of once", replace(rules, split_hands=4)))
    if rules.split_hands > 2:
        changes.append(RuleChange("no RSA" if rules.rsa else "RSA", replace(rules, rsa=not rules.rsa)))
    if rules.surrender != "none":
        changes.append(RuleChange(f"no surrender instead of {rules.surrender}", replace(rules, surrender="none")))
    elif rules.hole_card == "peek":
        changes.append(RuleChange("late surrender", replace(rules, surrender="late")))
    else:
        changes.append(RuleChange("early surrender", replace(rules, surrender="early")))
    payout = mpq(6, 5) if rules.bj_pays == mpq(3, 2) else mpq(3, 2)
    changes.append(RuleChange(f"blackjack pays {_ratio(payout)} instead of {_ratio(rules.bj_pays)}",
                              replace(rules, bj_pays=payout)))
    if rules.hole_card == "peek" and rules.surrender != "late":
        changes.append(RuleChange("ENHC (no hole card) instead of peek", replace(rules, hole_card="enhc")))
    elif rules.hole_card == "enhc":
        changes.append(RuleChange("peek instead of ENHC", replace(rules, hole_card="peek", obo=False)))
    current = "the shoe" if rules.shoe is not None else "the infinite deck" if rules.infinite else \
        _decks_words(int(str(rules.decks)))
    for decks in COMMON_DECKS:
        if rules.shoe is None and not rules.infinite and rules.decks == decks:
            continue
        changes.append(RuleChange(f"{_decks_words(decks)} instead of {current}",
                                  replace(rules, shoe=None, decks=decks)))
    return tuple(changes)


def _ratio(payout: mpq) -> str:
    return fraction_string(payout).replace("/", ":")


def rule_effects(rules: GameRules, *, base_edge: mpq | None = None, progress: bool | None = None) -> RuleEffects:
    """The house edge of ``rules`` and of each of its :func:`rule_changes`, one exact solve each
    (``base_edge``: the base's edge when already solved)."""
    if base_edge is None:
        base_edge = house_edge(rules, progress=progress)
    effects, unsolved = [], []
    for change in rule_changes(rules):
        try:
            effects.append(RuleEffect(change, house_edge(change.rules, progress=progress), base_edge))
        except BjexactError as exc:
            unsolved.append((change, str(exc)))
    return RuleEffects(rules, base_edge, tuple(effects), tuple(unsolved))


def house_edge(rules: GameRules, *, progress: bool | None = None) -> mpq:
    """The exact house edge of ``rules`` under the best play (one solve, remembered for the next report
    of the process: reports of neighbouring rule sets share most of their changed rule sets)."""
    return _REMEMBERED.recall(rules, lambda: -solve_game(rules, with_distribution=False, progress=progress).ev)


def remember_house_edge(rules: GameRules, edge: mpq) -> None:
    """Note ``edge`` as the house edge of ``rules`` under the best play, solved elsewhere (a solution at
    hand), so that :func:`house_edge` does not solve it again (the latest 64 are remembered)."""
    _REMEMBERED.remember(rules, edge)


_REMEMBERED: Memory[GameRules, mpq] = Memory(64)
