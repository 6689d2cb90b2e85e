"""Rendering tables for people and programs: text, CSV, JSON, Markdown, LaTeX.

The format machinery is :mod:`bjexact.core.text`, the dealer's table :mod:`bjexact.dealer.text`;
both are re-exported here beside the player's tables.
"""

from __future__ import annotations

from typing import Any

from ..core.cards import UPCARD_ORDER, rank_symbol
from ..core.hand import hand_value
from ..core.numbers import fraction_string
from ..core.text import FORMATS, NumberStyle, Table, decimal_string, latex_escape, render, tidy_table, with_floats
from ..dealer.text import dealer_tables, dealer_text
from ..player.outcomes import RESULTS
from ..player.solver import InfiniteSolution, majority_move
from ..player.states import PlayerState

__all__ = [
    "FORMATS", "PLAYER_VIEWS", "Table", "NumberStyle", "render", "dealer_text", "dealer_tables",
    "player_tables", "game_lines", "latex_escape", "decimal_string", "tidy_table", "with_floats",
]

# --- the player's tables ----------------------------------------------------

PLAYER_VIEWS = ("policy", "values", "hands")
_UPCARD_COLUMNS = UPCARD_ORDER
_MOVE = {"hit": "H", "stand": "S"}


def _upcard_header(first: str) -> list[str]:
    return [first] + [rank_symbol(u) for u in _UPCARD_COLUMNS]


def player_tables(solution: Any, style: NumberStyle, view: str = "policy") -> list[Table]:
    """Tables of a player solution (:mod:`bjexact.player`) for people.

    ``policy``: the best move (H hit, S stand) by hand total and up-card, hard and
    soft blocks; for finite shoes the move of the two-card
    hands, starred where hands of one total disagree (the exceptions follow).
    ``values``: the values of standing and of hitting. ``hands``: every two-card
    hand against every up-card.
    """
    if view not in PLAYER_VIEWS:
        raise ValueError(f"unknown view {view!r}")

    if isinstance(solution, InfiniteSolution):
        return _infinite_tables(solution, style, view)
    return _finite_tables(solution, style, view)


def _objective_note(solution: Any) -> str:
    if solution.objective == "win":
        return "Values are the chance of winning, a push counted as half a win."
    return "Values are expected results of the bet: +1 win, 0 push, -1 loss."


def _value_title(solution: Any, action: str, style: NumberStyle) -> str:
    """"Value of standing (% of bet)": the units of the objective's values stated."""
    units = style.chance_units if solution.objective == "win" else style.value_units
    return f"Value of {'standing' if action == 'stand' else 'hitting'} ({units})"


def _infinite_tables(solution: Any, style: NumberStyle, view: str) -> list[Table]:
    rules = solution.rules.describe()
    blocks = (("hard", False, range(4, 22)), ("soft", True, range(12, 22)))
    if view == "hands":
        rows = []
        for first in range(1, 11):
            for second in range(first, 11):

                hand = hand_value((first, second))
                label = f"{rank_symbol(first)},{rank_symbol(second)}"
                rows.append([label] + [_MOVE[solution.best(hand.total, hand.soft, u)] for u in _UPCARD_COLUMNS])
        return [Table(f"Best move by two-card hand (infinite deck): {rules}", _upcard_header("hand"), rows,
                      ["H: hit, S: stand. On the infinite deck a hand's value depends only on its total."])]
    tables = []
    if view == "policy":
        for name, soft, totals in blocks:
            rows = [[f"{name} {t}"] + [_MOVE[solution.best(t, soft, u)] for u in _UPCARD_COLUMNS] for t in totals]
            tables.append(Table(f"Best move, {name} totals: {rules}", _upcard_header("player"), rows,
                                ["H: hit, S: stand; ties go to standing."], section=name))
        return tables
    for action in ("stand", "hit"):
        rows = []
        for name, soft, totals in blocks:
            for t in totals:
                rows.append([f"{name} {t}"] + [
                    getattr(solution[PlayerState(t, soft, u)], action) for u in _UPCARD_COLUMNS
                ])
        tables.append(Table(f"{_value_title(solution, action, style)}: {rules}",
                            _upcard_header("player"), rows, [_objective_note(solution)], section=action))
    return tables


def _finite_tables(solution: Any, style: NumberStyle, view: str) -> list[Table]:
    rules = solution.rules.describe()
    hands = sorted({(a, b) for a, b, _ in solution.hands}, key=lambda h: (hand_value(h).soft, hand_value(h), h))

    def cell(first: int, second: int, upcard: int, action: str) -> Any:
        decision = solution.hands.get((first, second, upcard))
        if decision is None:
            return ""
        if action == "best":
            return _MOVE[decision.best]
        value = getattr(decision, action)
        return "" if value is None else value

    def hand_label(h: tuple[int, int]) -> str:
        return f"{rank_symbol(h[0])},{rank_symbol(h[1])}"

    if view == "hands":
        rows = [[hand_label(h)] + [cell(*h, u, "best") for u in _UPCARD_COLUMNS] for h in hands]
        return [Table(f"Best move by two-card hand: {rules}", _upcard_header("hand"), rows,
                      ["H: hit, S: stand; composition-dependent: the hand's own cards have left the shoe."])]
    if view == "values":
        return [
            Table(f"{_value_title(solution, action, style)} by two-card hand: {rules}",
                  _upcard_header("hand"),
                  [[hand_label(h)] + [cell(*h, u, action) for u in _UPCARD_COLUMNS] for h in hands],
                  [_objective_note(solution)], section=action)
            for action in ("stand", "hit")
        ]

    starred = {(s.total, s.soft, s.upcard) for s, _, _ in solution.exceptions}
    votes = {(s.total, s.soft, s.upcard): tally for s, tally in solution.two_card_moves.items()}
    tables = []
    for name, soft in (("hard", False), ("soft", True)):
        totals = sorted({t for t, s, _ in votes if s == soft})
        rows = []
        for t in totals:
            row = [f"{name} {t}"]
            for u in _UPCARD_COLUMNS:
                tally = votes.get((t, soft, u))
                if not tally:
                    row.append("")
                    continue
                best = majority_move(tally)
                mixed = len(tally) > 1 or (t, soft, u) in starred
                row.append(_MOVE[best] + ("*" if mixed else ""))
            rows.append(row)
        tables.append(Table(f"Best move of two-card hands, {name} totals: {rules}", _upcard_header("player"),
                            rows, ["H: hit, S: stand; * some hands of this total (two cards or more) "
                                   "play the other way: see the exceptions."], section=name))
    rows = [[f"{s.hand} v {rank_symbol(s.upcard)}", _MOVE[best],
             " ".join("".join(rank_symbol(r) for r in cards) for cards in found[:8])
             + (f" (+{len(found) - 8} more)" if len(found) > 8 else "")]
            for s, best, found in solution.exceptions]
    tables.append(Table(f"Composition exceptions: {rules}", ["state", "best", "hands"], rows,
                        ["Hands whose best move differs from the majority of the two-card hands of their total."],
                        section="exceptions"))
    return tables


def game_lines(game: Any, objective: str, naturals: str | None = None) -> list[str]:
    """One paragraph on the value of the whole hit/stand game from the deal.

    With ``naturals`` (the rules' convention) the paragraph leaves out what cannot happen (under
    ``as21`` a natural is a 21 like any other: no separate share) and, for the objective ``win``,
    says that the moves are those of ``ev``: no decision involves a natural, so at every decision
    the chance of winning (a push half a win) is ``1/2 + EV/2``, an increasing function of the EV.
    """

    shown = [(name, p) for name, p in zip(RESULTS, game.results) if not (name == "natural" and naturals == "as21")]
    shares = ", ".join(f"{name} {decimal_string(p * 100, 4)}%" for name, p in shown)
    what = "expected result per unit bet" if objective == "ev" else "chance of winning (push = 1/2)"
    lines = [
        f"Game value from the deal ({what}): {fraction_string(game.value)}",
        f"  = {decimal_string(game.value * 100, 6, signed=objective == 'ev')}%; results: {shares}",
    ]
    if naturals == "as21":
        lines.append("  (under as21 a player natural is a 21 like any other: its wins are among the wins)")
    if objective == "win" and naturals is not None:
        lines += ["The moves are those of --objective ev: no decision involves a natural, so the chance",
                  "of winning is 1/2 + EV/2 at every decision" + (
                      " and from the deal." if naturals == "as21" else
                      "; from the deal it counts a natural as one win, not --bj-pays.")]
    return lines
