"""What a solved rule set gives: the round's value, the moves of every hand, the chart, the play.

:class:`GameSolution` holds the round's exact value (by up-card and overall), every two-card
hand's :class:`~bjexact.player.values.MoveValues` and, where computed, the distribution of the
net result; :meth:`GameSolution.chart` the total-dependent basic strategy chart of
:class:`ChartCell` (codes: :func:`chart_code`). :class:`Strategy` plays the solved moves one by
one, for simulators. Made by :func:`~bjexact.player.game.solve_game`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..core.cards import UPCARD_ORDER, Counts, RankKeyed, as_rank, rank_symbol
from ..core.choice import MOVES, best_move
from ..core.display import Displayable
from ..core.frames import data_frame, upcard_label
from ..core.hand import hand_value
from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules
from ..core.text import decimal_string
from .optimal_split import optimal_split
from .seen import SeenCards
from .values import EngineSolver, FractionSolver, MoveValues, solver_for

__all__ = ["CHART_SECTIONS", "ChartCell", "chart_code", "GameSolution", "Strategy"]

_ZERO = mpq(0)


CHART_SECTIONS = ("hard", "soft", "pairs")


@dataclass(frozen=True)
class ChartCell:
    """One cell of a basic strategy chart: the code people print and the moves' values.

    ``values``: per move, the sum over the cell's two-card hands of P(hand | up-card)
    times the move's unconditional value (dealer naturals included), the weighting
    that makes a total-dependent chart; ``hands``: the hands behind the cell with
    their own best moves (composition-dependent).
    """

    code: str
    best: str
    values: Mapping[str, mpq]
    hands: Mapping[tuple[int, int], str]

    @property
    def depends_on_composition(self) -> bool:
        return len(set(self.hands.values())) > 1


def chart_code(values: Mapping[str, mpq]) -> str:
    """H, S, P, Dh/Ds (double, else hit/stand), Rh/Rs/Rp (surrender, else hit/stand/split)."""
    best = best_move(values)
    if best in ("double", "surrender"):
        rest = {m: v for m, v in values.items() if m not in ("double", "surrender")}
        second = best_move(rest)
        letter = {"hit": "h", "stand": "s", "split": "p"}[second]
        return ("D" if best == "double" else "R") + letter
    return {"hit": "H", "stand": "S", "split": "P"}[best]



@dataclass(frozen=True)
class GameSolution(Displayable):
    """The exact value of the round under optimal composition-dependent play.

    ``ev``: the expected net result of a round per unit initial bet (minus the house
    edge). ``by_upcard[u]``: the same given the up-card, dealer naturals included;
    weighted by ``upcard_chance`` they sum to ``ev``. ``distribution``: the net result of a
    round -> its chance, ``None`` where not computed (``distribution_missing`` says why).
    ``partial_distribution``: where it is not computed because the lines of some split
    hands are too many to follow, P(the net result is r, and the deal is one whose lines
    are followed): every deal but those pairs; it sums to 1 less the chance of the deals
    left out (:attr:`unfollowed_chance`). ``None`` otherwise.
    ``hands[(a, b, u)]`` (a <= b):
    the moves of every two-card hand that is not a natural. ``deal_chance[(a, b, u)]``:
    P(the player is dealt a, b | up-card u). Keys are ranks and answer to card symbols
    too: ``by_upcard["A"]``, ``hands[("8", "8", "T")]``.
    """

    rules: GameRules
    hands: Mapping[tuple[int, int, int], MoveValues]
    deal_chance: Mapping[tuple[int, int, int], mpq]
    by_upcard: Mapping[int, mpq]
    upcard_chance: Mapping[int, mpq]
    ev: mpq
    distribution: Mapping[mpq, mpq] | None = None
    distribution_missing: str = ""
    partial_distribution: Mapping[mpq, mpq] | None = None

    @property
    def unfollowed_chance(self) -> mpq | None:
        """The chance of the deals :attr:`partial_distribution` leaves out (pairs split whose lines are
        not followed); ``None`` where there is no partial distribution."""
        if self.partial_distribution is None:
            return None
        return 1 - sum(self.partial_distribution.values(), mpq(0))

    def __post_init__(self) -> None:
        for name in ("hands", "deal_chance", "by_upcard", "upcard_chance"):
            value = getattr(self, name)
            if not isinstance(value, RankKeyed):
                object.__setattr__(self, name, RankKeyed(value, hands=name in ("hands", "deal_chance")))

    @property
    def house_edge(self) -> mpq:
        """Minus :attr:`ev`: what the house expects to win per unit initial bet."""
        return -self.ev

    def __repr__(self) -> str:
        """A few lines (the whole solution is in its attributes and :meth:`to_pandas`)."""
        exact = fraction_string(self.ev)
        exact = exact if len(exact) <= 160 else f"{exact[:60]}... ({len(exact):,} characters: .ev)"
        spread = "" if self.variance is None else f", standard deviation {float(self.variance) ** 0.5:.4f}"
        return (f"<GameSolution: {self.rules.describe()}\n"
                f" house edge {decimal_string(-self.ev * 100, 6)}% (.house_edge), expected result per unit "
                f"initial bet (.ev) {exact}{spread}\n"
                f" {len(self.hands):,} two-card hands by up-card (.hands[(\"8\", \"8\", \"T\")]), "
                f".chart(), .by_upcard, .to_pandas()>")

    def to_pandas(self, exact: bool = False, *, upcards: str = "symbol") -> Any:
        """A pandas DataFrame, one row per two-card hand (not a natural) and up-card, indexed by hand
        (``"8,8"``) and up-card (``"T"``; ``upcards="rank"``: the rank, 1 the ace, 10 a ten): P(the
        hand | up-card), the best move, the value of each move per unit initial bet as the player
        weighs it (:meth:`MoveValues.value`; missing where the rules forbid the move) and the hand's
        value to the round; floats (the default), or exact ``mpq`` cells with ``exact=True``."""
        records = [{"hand": f"{rank_symbol(a)},{rank_symbol(b)}", "up-card": upcard_label(u, upcards),
                    "chance": self.deal_chance[(a, b, u)], "best": moves.best, **moves.values,
                    "round value": moves.round_value}
                   for (a, b, u), moves in self.hands.items()]
        moves = [m for m in MOVES if any(m in r for r in records)]
        return data_frame(records, ["hand", "up-card", "chance", "best", *moves, "round value"], exact,
                          index=["hand", "up-card"])

    @property
    def move_chances(self) -> dict[str, mpq]:
        """How rounds go: P(player natural), P(dealer natural before any decision: peek), and
        P(the first decision is each move). They sum to 1."""
        early = self.rules.surrender == "early"
        played = _ZERO
        chances: dict[str, mpq] = {m: _ZERO for m in MOVES}
        peeked = _ZERO
        for (a, b, upcard), moves in self.hands.items():
            weight = self.upcard_chance[upcard] * self.deal_chance[(a, b, upcard)]
            played += weight
            best = moves.best
            if self.rules.hole_card == "peek" and not (early and best == "surrender"):
                peeked += weight * moves.natural
                weight *= 1 - moves.natural
            chances[best] += weight
        result = {"player natural": 1 - played}
        if self.rules.hole_card == "peek":
            result["dealer natural"] = peeked
        result.update((m, p) for m, p in chances.items()
                      if not (m == "surrender" and self.rules.surrender == "none")
                      and not (m == "split" and self.rules.split_hands < 2))
        return result

    @property
    def variance(self) -> mpq | None:
        """The variance of the round's net result (``None`` where the distribution is not computed)."""
        if self.distribution is None:
            return None
        second = sum((r * r * p for r, p in self.distribution.items()), _ZERO)
        return second - self.ev * self.ev

    def chart(self, das_codes: bool = False) -> dict[str, dict[str, Mapping[int, ChartCell]]]:
        """The total-dependent basic strategy chart: section -> row -> up-card -> cell (up-cards
        as ranks or card symbols: ``chart["hard"]["16"]["T"]``).

        Rows: hard totals of two different cards (keys "5".."20"), soft totals of an
        ace and another card ("13".."21" less the natural: "13".."20"), pairs (keys
        "2".."9", "T", "A"). A cell's move has the largest expected value summed
        over the two-card hands of that row, each weighted by its chance.
        ``das_codes`` (rules with DAS): a pair split only thanks to doubling after
        splitting is coded Ph or Pd, the move without DAS (hit or double); it takes
        one more valuation of those splits.
        """
        sections: dict[str, dict[str, dict[int, dict[tuple[int, int], MoveValues]]]] = {s: {} for s in CHART_SECTIONS}
        for (a, b, upcard), moves in self.hands.items():
            value = hand_value((a, b))
            if a == b:
                section, row = "pairs", rank_symbol(a)
            elif value.soft:
                section, row = "soft", str(value.total)
            else:
                section, row = "hard", str(value.total)
            sections[section].setdefault(row, {}).setdefault(upcard, {})[(a, b)] = moves
        chart: dict[str, dict[str, dict[int, ChartCell]]] = {}
        for section, rows in sections.items():
            order = sorted(rows, key=lambda r: _row_key(section, r))
            chart[section] = {}
            for row in order:
                cells = {}
                for upcard in UPCARD_ORDER:
                    hands = rows[row].get(upcard)
                    if not hands:
                        continue
                    totals: dict[str, mpq] = {}
                    for cards, moves in hands.items():
                        weight = self.deal_chance[(cards[0], cards[1], upcard)]
                        for move in moves.w:
                            totals[move] = totals.get(move, _ZERO) + weight * moves.unconditional(move)
                    cells[upcard] = ChartCell(chart_code(totals), best_move(totals), totals,
                                              {cards: m.best for cards, m in hands.items()})
                chart[section][row] = cells
        if das_codes and self.rules.das:
            codes = self.__dict__.get("_das_code_memo")
            if codes is None:  # kept: a chart is often drawn and written from one solution
                codes = _das_codes(self, chart["pairs"])
                object.__setattr__(self, "_das_code_memo", codes)
            for (pair, upcard), code in codes.items():
                cell = chart["pairs"][rank_symbol(pair)][upcard]
                chart["pairs"][rank_symbol(pair)][upcard] = replace(cell, code=code)
        return {section: {row: RankKeyed(cells) for row, cells in rows.items()} for section, rows in chart.items()}

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "ev": fraction_string(self.ev),
            "by_upcard": {rank_symbol(u): fraction_string(v) for u, v in self.by_upcard.items()},
        }


def _das_codes(solution: GameSolution, pairs: Mapping[str, Mapping[int, ChartCell]]) -> dict[tuple[int, int], str]:
    """Ph / Pd for the pair cells whose split is best only with doubling after splitting."""
    rules = replace(solution.rules, das=False, double_split_aces=False)  # no doubling after any split
    splits: dict[int, list[int]] = {}  # up-card -> the pairs split there
    for row, cells in pairs.items():
        for upcard, cell in cells.items():
            if cell.best == "split":
                splits.setdefault(upcard, []).append(as_rank(row))
    split_w = _split_values(rules, splits)
    codes: dict[tuple[int, int], str] = {}
    for upcard, ranks in splits.items():
        for pair in ranks:
            moves = solution.hands[(pair, pair, upcard)]
            values = {m: moves.unconditional(m) for m in moves.w}
            split = split_w(pair, upcard)
            values["split"] = split - moves.natural if moves.natural_costs_one else split
            best = best_move(values)
            if best in ("hit", "double"):
                codes[(pair, upcard)] = "Ph" if best == "hit" else "Pd"
    return codes


def _split_values(rules: GameRules, splits: Mapping[int, list[int]]) -> Callable[[int, int], mpq]:
    """W of splitting (pair, up-card) under ``rules`` for the ``splits`` (up-card -> pairs): under perfect
    post-split play one :func:`~bjexact.player.optimal_split.optimal_split` each, else from a solver
    whose dealer rows for them come in a batch per up-card."""
    if rules.split_strategy == "optimal":
        seen = SeenCards(rules)
        return lambda pair, upcard: optimal_split(rules, pair, upcard, seen, progress=False).w
    without = solver_for(rules)
    for upcard, ranks in splits.items():
        if isinstance(without, EngineSolver):
            without.prefetch_pairs(ranks, upcard)
        else:
            without.prefetch_splits(ranks, upcard)
    return without.split


def _row_key(section: str, row: str) -> int:
    if section == "pairs":
        return {"A": 11, "T": 10}.get(row, 0) or int(row)
    return int(row)


class Strategy:
    """The solved play of a rule set, move by move, for code that plays rounds (simulators):
    the moves the exact values choose, split hands' included (by the rules' split strategy)."""

    def __init__(self, rules: GameRules):
        self._solver = FractionSolver(rules)

    def split_limit(self, pair: int) -> int:
        """The most hands splitting ``pair`` can make."""
        return self._solver.split_limit(pair)

    def split_move(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> str:
        """The move of a split hand of ``pair`` holding ``hand`` (counts) once it has two cards or
        more (stand, hit, double), played while ``hands`` split hands are on the table (only CDP's
        moves depend on it)."""
        return self._solver.split_move(hand, upcard, pair, hands)

    def continues_hitting(self, hand: Counts, upcard: int) -> bool:
        """Whether an unsplit hand (counts) that may only stand or hit hits."""
        return self._solver.continues_hitting(hand, upcard)

    def later_move(self, hand: Counts, upcard: int) -> str:
        """The move of an unsplit hand (counts) of three or more cards: stand, hit, or double (only
        with ``double_after_hit``)."""
        return self._solver.later_move(hand, upcard)

    def split_hits(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> bool:
        """Whether a split hand of ``pair`` (counts, three cards or more) hits, played while
        ``hands`` split hands are on the table."""
        return self._solver.split_hits(hand, upcard, pair, hands)
