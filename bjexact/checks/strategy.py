"""Checking a strategy engine's decisions exhaustively against the exact values.

The engine protocol
    ``decide(cards, upcard, unseen) -> move``: ``cards`` the player's hand as a tuple of ranks
    (1 for the ace, 2..9, 10 for any ten-valued card; two or more cards), ``upcard`` the dealer's
    up-card rank, ``unseen`` the ten counts A,2..9,T of the cards the player has not seen (the shoe
    left plus the dealer's hole card). The answer: ``"hit"`` or ``"stand"`` (also ``h``, ``s``,
    any case).

The check
    Every hand the player can hold (two or more cards, a hard total of 21 or less) against every
    up-card of the full shoe, and of ``shoes`` random depleted shoes (seeded: a random 10 to 50 %
    of the cards dealt away), is put to the engine and compared with the exact values of standing
    and hitting (:class:`~bjexact.player.decisions.ShoeDecisions`; under peek, given that the dealer
    has no natural). An exact tie is agreement. A disagreement is reported with both values and
    its cost (the better value less the engine's), grouped by hand.

The full game (:func:`check_game_engine`)
    The engine also answers ``"double"``, ``"split"`` or ``"surrender"`` (``d``, ``p``, ``r``) on
    two-card hands, and, with ``double_after_hit``, ``"double"`` on hands of three or more cards;
    under a Charlie a hand of the Charlie's count has won and is never put to it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, TypeVar

from ..core.cards import RANKS, Counts, FiniteShoe, counts_of, rank_symbol, ranks_in
from ..core.choice import best_move
from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules, Rules
from ..errors import BjexactError
from ..player.decisions import ShoeDecisions
from ..player.game import GameSolution, later_moves, solve_game, solve_with
from ..player.states import hands_up_to_21
from ..player.values import FractionSolver, engine_covers, solver_for

__all__ = ["Disagreement", "StrategyCheck", "check_hit_stand_engine", "check_game_engine", "format_strategy_check",
           "depleted_shoes", "engine_move"]

_T = TypeVar("_T")
_MOVES = {"hit": "hit", "h": "hit", "stand": "stand", "s": "stand", "stay": "stand", "stick": "stand"}
_GAME_MOVES = {**_MOVES, "double": "double", "d": "double", "split": "split", "p": "split",
               "surrender": "surrender", "r": "surrender"}


def engine_move(answer: Any, where: str, moves: dict[str, str] = _MOVES) -> str:
    """The canonical move of an engine's answer, or an error naming it."""
    # the built-in types' own methods: a subclass's strip, lower or repr may raise or lie
    if isinstance(answer, str) and str.lower(str.strip(answer)) in moves:
        return moves[str.lower(str.strip(answer))]
    base = next((kind for kind in (bool, str, int, float) if isinstance(answer, kind)), None)
    shown = "None" if answer is None else base.__repr__(answer) if base else f"a {type(answer).__name__}"
    known = "hit or stand" if moves is _MOVES else "hit, stand, double, split or surrender"
    raise BjexactError(f"the engine {where} answered {shown[:40]}, not a move ({known})")


@dataclass(frozen=True)
class Disagreement:
    """The engine's move differs from the better one: the exact value of each and the cost."""

    shoe: int  # 0: the full shoe; k: the k-th depleted shoe
    cards: tuple[int, ...]
    upcard: int
    unseen: Counts
    engine: str
    best: str
    values: dict[str, mpq]

    @property
    def cost(self) -> mpq:
        return self.values[self.best] - self.values[self.engine]

    def to_json(self) -> dict[str, Any]:
        return {"shoe": self.shoe, "cards": [rank_symbol(c) for c in self.cards], "upcard": rank_symbol(self.upcard),
                "unseen": list(self.unseen), "engine": self.engine, "best": self.best,
                "values": {m: fraction_string(v) for m, v in self.values.items()},
                "cost": fraction_string(self.cost), "cost_decimal": float(self.cost)}


@dataclass(frozen=True)
class StrategyCheck:
    rules: Rules
    shoes: tuple[Counts, ...]
    seed: int
    decisions: int
    disagreements: tuple[Disagreement, ...]
    game: str = ""  # the full game's rules, for a full-game engine
    game_rules: GameRules | None = None  # the same rules themselves

    @property
    def passed(self) -> bool:
        """No disagreement in at least one decision: nothing tested is not a pass."""
        return not self.disagreements and self.decisions > 0

    def to_json(self) -> dict[str, Any]:
        return {"passed": self.passed, "rules": self.rules.to_json(), "game": self.game or None, "seed": self.seed,
                "shoes": [list(s) for s in self.shoes], "decisions": self.decisions,
                "disagreements": [d.to_json() for d in self.disagreements]}


def _on_shoe(solve: Callable[[], _T], index: int, shoe: Counts) -> _T:
    """``solve()`` for shoe ``index`` (0 the full shoe), a refusal naming the depleted shoe it was for."""
    try:
        return solve()
    except BjexactError as exc:
        if index == 0:
            raise
        raise BjexactError(f"depleted shoe {index} ({','.join(map(str, shoe))}): {exc}") from None


def depleted_shoes(full: Counts, count: int, seed: int) -> list[Counts]:
    """``count`` shoes, each ``full`` less a random 10 to 50 % of its cards (``random.Random(seed)``)."""
    rng = random.Random(seed)
    cards = list(ranks_in(full))
    out = []
    for _ in range(count):
        left = rng.sample(cards, len(cards) - rng.randint(len(cards) // 10, len(cards) // 2))
        out.append(tuple(left.count(r) for r in RANKS))
    return out


def check_hit_stand_engine(engine: Callable[[tuple[int, ...], int, Counts], Any], rules: Rules, *,
                           shoes: int = 0, seed: int = 0, progress: Any = None) -> StrategyCheck:
    """Put every hand of the full shoe of ``rules`` and of ``shoes`` depleted ones to ``engine`` (see the
    module docstring); ``progress``: an object with ``advance()``, called once per shoe solved."""
    full = rules.make_shoe()
    if not isinstance(full, FiniteShoe):
        raise BjexactError("check-strategy enumerates the hands of a finite shoe: give --decks N or --shoe")
    all_shoes = [tuple(full.counts), *depleted_shoes(tuple(full.counts), shoes, seed)]
    found: list[Disagreement] = []
    decisions = 0
    name = getattr(engine, "__qualname__", None) or type(engine).__name__
    for index, shoe in enumerate(all_shoes):
        table = _on_shoe(partial(ShoeDecisions.solve, rules, shoe), index, shoe)
        for counts, upcard in table.hands():
            cards = ranks_in(counts)
            unseen = tuple(s - c - (r == upcard) for r, s, c in zip(RANKS, shoe, counts))
            values = table.values(cards, upcard)
            if len(values) < 2:
                continue  # nothing to choose: no card left to draw
            decisions += 1
            move = engine_move(engine(cards, upcard, unseen), f"{name} for {'-'.join(map(rank_symbol, cards))} "
                                                               f"v {rank_symbol(upcard)}")
            best = best_move(values)
            if values[move] < values[best]:
                found.append(Disagreement(index, cards, upcard, unseen, move, best, values))
        if progress is not None:
            progress.advance()
    return StrategyCheck(rules, tuple(all_shoes), seed, decisions, tuple(found))


def _unseen(shoe: Counts, counts: Counts, upcard: int) -> Counts:
    return tuple(s - c - (r == upcard) for r, s, c in zip(RANKS, shoe, counts))


def check_game_engine(engine: Callable[[tuple[int, ...], int, Counts], Any], rules: GameRules, *,
                      shoes: int = 0, seed: int = 0, progress: Any = None) -> StrategyCheck:
    """A full-game engine, on the full shoe of ``rules`` and ``shoes`` depleted ones (seeded as for
    hit/stand engines, each solved exactly under the same rules): its first decision on every
    two-card hand against every up-card (stand, hit, double, split, surrender, as the rules allow:
    the values of :func:`~bjexact.player.game.solve_game` for that shoe, dealer naturals included),
    and its decisions on every hand of three or more cards: hit or stand
    (:class:`~bjexact.player.decisions.ShoeDecisions`; under ENHC a dealer natural beats the hand),
    or, under a Charlie or doubling after hitting (which the hit/stand game does not know), the moves
    of :func:`~bjexact.player.game.later_moves` from the solver that solved the shoe: double too where
    ``double_after_hit`` allows it, hitting valued with the Charlie, and a hand that has reached the
    Charlie's count never asked (it has won).
    ``progress``: an object with ``advance()``, called once per shoe solved."""
    full = rules.make_shoe()
    if not isinstance(full, FiniteShoe):
        raise BjexactError("check-strategy enumerates the hands of a finite shoe: give --decks N or --shoe")
    all_shoes = [tuple(full.counts), *depleted_shoes(tuple(full.counts), shoes, seed)]
    name = getattr(engine, "__qualname__", None) or type(engine).__name__
    found: list[Disagreement] = []
    decisions = 0
    answers = _GAME_MOVES if rules.double_after_hit else _MOVES
    for index, shoe in enumerate(all_shoes):
        shoe_rules = rules if index == 0 else replace(rules, decks=None, shoe=shoe)
        solution, later = _on_shoe(partial(_solve_shoe, shoe_rules, shoe), index, shoe)
        put, disagreements = _first_moves(engine, name, solution, shoe, index)
        decisions += put
        found += disagreements
        put, disagreements = _later_moves(engine, name, later, shoe, index, answers)
        decisions += put
        found += disagreements
        if progress is not None:
            progress.advance()
    return StrategyCheck(_hit_stand_rules(rules, all_shoes[0]), tuple(all_shoes), seed, decisions, tuple(found),
                         rules.describe(), rules)


# One later decision: the hand's cards, the up-card, the exact value of each move open to it.
_Position = tuple[tuple[int, ...], int, dict[str, mpq]]


def _solve_shoe(rules: GameRules, shoe: Counts) -> tuple[GameSolution, list[_Position]]:
    """The full game solved on ``shoe`` and the decisions of every hand of three or more cards with
    more than one move: by :class:`ShoeDecisions` where the integer engine covers the rules and they
    have no Charlie, else by the solver that solved the round (its values reused)."""
    if engine_covers(rules) and rules.charlie is None:
        solution = solve_game(rules, with_distribution=False, progress=False)
        table = ShoeDecisions.solve(_hit_stand_rules(rules, shoe), shoe)
        later = [(cards, upcard, table.values(cards, upcard))
                 for cards, upcard in map(_cards_up, table.hands()) if len(cards) >= 3]
    else:
        solver = solver_for(rules)
        solution = solve_with(solver, with_distribution=False, progress=False)
        later = _later_positions(solver, shoe)
    return solution, [(cards, upcard, values) for cards, upcard, values in later if len(values) >= 2]


def _cards_up(hand: tuple[Counts, int]) -> tuple[tuple[int, ...], int]:
    """(cards as ranks, up-card) of (counts, up-card)."""
    counts, upcard = hand
    return ranks_in(counts), upcard


def _later_positions(solver: FractionSolver, shoe: Counts) -> list[_Position]:
    """Every hand of three or more cards ``shoe`` can deal against every up-card, with the values
    of its moves (:func:`~bjexact.player.game.later_moves`): Charlies left out (they have won), and
    positions the dealer's peek always ends (the hole card surely makes a natural)."""
    out = []
    for upcard in RANKS:
        if not shoe[upcard - 1]:
            continue
        for counts in hands_up_to_21(shoe, upcard):
            if sum(counts) < 3 or solver.is_charlie(counts):
                continue
            cards, _ = _cards_up((counts, upcard))
            moves = later_moves(solver, cards, upcard)
            if moves.peek and moves.natural == 1:
                continue
            out.append((cards, upcard, moves.values))
    return out


def _hit_stand_rules(rules: GameRules, shoe: Counts) -> Rules:
    """The hit/stand game on ``shoe`` with the dealer rules and hole-card rule of ``rules``."""
    return Rules(shoe=shoe, h17=rules.h17, naturals="peek" if rules.hole_card == "peek" else "separate")


def _first_moves(engine: Callable[..., Any], name: str, solution: GameSolution, shoe: Counts,
                 index: int) -> tuple[int, list[Disagreement]]:
    """(decisions put, disagreements) for the first move of every two-card hand of ``shoe``."""
    found: list[Disagreement] = []
    decisions = 0
    for (a, b, upcard), moves in solution.hands.items():
        if {a, b} == {1, 10} or len(moves.w) < 2:
            continue  # a natural, or nothing to choose
        values = {m: moves.unconditional(m) for m in moves.w}
        decisions += 1
        counts = counts_of((a, b))
        unseen = _unseen(shoe, counts, upcard)
        where = f"{name} for {rank_symbol(a)}-{rank_symbol(b)} v {rank_symbol(upcard)}"
        move = _allowed(engine_move(engine((a, b), upcard, unseen), where, _GAME_MOVES), values, where)
        if values[move] < values[moves.best]:
            found.append(Disagreement(index, (a, b), upcard, unseen, move, moves.best, values))
    return decisions, found


def _allowed(move: str, values: dict[str, mpq], where: str) -> str:
    """``move`` if the position allows it (it has a value), else an error naming the moves it allows."""
    if move not in values:
        raise BjexactError(f"the engine {where} answered {move}, which these rules do not allow there "
                           f"(allowed: {', '.join(values)})")
    return move


def _later_moves(engine: Callable[..., Any], name: str, positions: list[_Position], shoe: Counts, index: int,
                 answers: dict[str, str]) -> tuple[int, list[Disagreement]]:
    """(decisions put, disagreements) for the moves of every hand of three or more cards; ``answers``:
    the engine answers understood (hit or stand, or any move where a later hand may double)."""
    found: list[Disagreement] = []
    for cards, upcard, values in positions:
        unseen = _unseen(shoe, counts_of(cards), upcard)
        where = f"{name} for {'-'.join(map(rank_symbol, cards))} v {rank_symbol(upcard)}"
        move = _allowed(engine_move(engine(cards, upcard, unseen), where, answers), values, where)
        best = best_move(values)
        if values[move] < values[best]:
            found.append(Disagreement(index, cards, upcard, unseen, move, best, values))
    return len(positions), found


def format_strategy_check(check: StrategyCheck, *, limit: int = 40) -> str:
    """A report: the decisions put, then the disagreements grouped by hand (full shoe first)."""
    described = f"{check.game or check.rules.describe()}; the full shoe"
    if len(check.shoes) > 1:
        described += f" and {len(check.shoes) - 1} depleted shoes (seed {check.seed})"
    game = check.game_rules
    later = "hit/stand/double" if game is not None and game.double_after_hit else "hit/stand"
    kind = f"the first move of every two-card hand and {later} after" if check.game else "hit/stand"
    hands, won = "two or more cards", ""
    if game is not None and game.charlie:
        hands, won = f"2 to {game.charlie - 1} cards", f"; {game.charlie} cards make a Charlie, which has won"
    lines = [f"Strategy engine checked against the exact values ({kind}) for {described}",
             f"{check.decisions} decisions (every hand of {hands} with a total of 21 or less, against every "
             f"up-card{won}); exact ties count as agreement", ""]
    if check.passed:
        lines.append("Verdict: PASS. Every decision is a best move.")
        return "\n".join(lines) + "\n"
    groups: dict[tuple[int, tuple[int, ...]], list[Disagreement]] = {}
    for d in check.disagreements:
        groups.setdefault((d.shoe, d.cards), []).append(d)
    shown = 0
    for (shoe, cards), items in groups.items():
        if shown >= limit:
            break
        where = "" if shoe == 0 else f" (depleted shoe {shoe})"
        lines.append(f"{'-'.join(map(rank_symbol, cards))}{where}:")
        for d in items:
            shown_values = ", ".join(f"{m} {float(v):+.6f}" for m, v in d.values.items())
            lines.append(f"  v {rank_symbol(d.upcard)}: engine {d.engine}, best {d.best}; {shown_values}; costs "
                         f"{float(d.cost):.6f} (= {fraction_string(d.cost)})")
        shown += 1
    if len(groups) > shown:
        lines.append(f"... and {len(groups) - shown} more hands (--format json lists all)")
    share = len(check.disagreements) / check.decisions
    lines += ["", f"Verdict: FAIL. {len(check.disagreements)} of {check.decisions} decisions ({share:.2%}) are "
                  f"not a best move, in {len(groups)} hands."]
    return "\n".join(lines) + "\n"
