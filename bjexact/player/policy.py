"""A fixed, total-dependent policy (a printed basic strategy chart) valued exactly over the whole round.

The chart
    :class:`ChartPolicy` maps (section, row, up-card) to a code: sections ``hard`` and ``soft``
    (rows are totals, ``"5"``..``"21"``) and ``pairs`` (rows are rank symbols ``"2"``..``"9"``,
    ``"T"``, ``"A"``). Codes: H, S, D (double, else hit), Dh, Ds (double, else stand), P (split,
    else hit), Ph (split if doubling after splitting is allowed, else hit), Pd (split if DAS, else
    double, else hit), R (surrender, else hit), Rh, Rs (surrender, else stand), Rp (surrender,
    else split, else hit), N (a pair not split: the hand's total row decides).

Which cell decides (:meth:`ChartPolicy.move`)
    The first decision of a dealt pair reads its pair row (or, for N or a missing pair row, its
    total row); any other first decision its hard or soft total row, with every move the rules
    allow there. After that (a hand of three cards or more, a split hand) the hand's total row
    decides with the moves allowed there: stand and hit, and for a split hand's first decision
    double when DAS allows it (a split hand of a pair that cannot be split again reads its pair
    row only when the chart has no row for its total, as soft 12 of two aces). Totals of 21
    stand. Resplitting follows the splitting rules of the engine: a pair card dealt to a split
    hand starts a new hand while the rules allow one more (the pair row said split).

The engine's own chart (:meth:`ChartPolicy.of_solution`)
    Its cells are those of :meth:`~bjexact.player.solution.GameSolution.chart`: each the move of
    largest value summed over the cell's two-card hands, each weighted by its chance. Hard rows
    no two different cards make (4 and 20 on every shoe) take the codes of the nearest hard row,
    as a printed chart's do. On a small shoe play can still reach a total no two-card hand makes
    against an up-card (soft 18 v 7 when the shoe's one 7 is the up-card: A,2,5 makes it): such
    a cell is chosen by the same rule over the hands of that total of the fewest cards (three or
    more) the shoe can deal beside the up-card, leaving a card for the hole, each weighted by its
    chance, among the moves they may make (stand, hit and, with ``double_after_hit``, double;
    each valued as for the chart's other cells, play after a hit optimal): :func:`with_longer_hand_cells`.
    So the chart has a cell for every total its play reaches on the shoe, and on any shoe the
    shoe depletes to (counting plays the full shoe's chart on what is left).

Values
    :func:`evaluate_chart` gives the round's exact expected result under the chart (per unit
    initial bet, dealer naturals settled as the rules say) for the infinite deck and for any
    finite shoe, and the exact distribution of the net result where the engine computes it
    (the infinite deck; finite shoes without splitting; with ``split_lines=True`` finite shoes
    with splits within :data:`~bjexact.player.game.SPLIT_WORK_LIMIT`). It is the engine of
    :mod:`bjexact.player.game` with its choices replaced by the chart's: the same dealer
    distributions, settlement and split model (a split hand is played by its own cards only,
    which a chart satisfies).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from math import comb, prod

from ..core.cards import RANKS, Counts, FiniteShoe, counts_of, rank_symbol, ranks_in
from ..core.numbers import mpq
from ..core.rules import GameRules
from ..errors import BjexactError
from .game import later_moves, solve_with
from .seen import NOTHING_GONE, SeenCards
from .solution import GameSolution, chart_code
from .states import counts_value
from .values import FractionSolver, MoveValues, solver_for

__all__ = ["POLICY_CODES", "ChartPolicy", "code_move", "evaluate_chart", "solve_game_and_chart", "ChartStrategy",
           "with_longer_hand_cells"]

POLICY_CODES = ("H", "S", "D", "Dh", "Ds", "P", "Ph", "Pd", "R", "Rh", "Rs", "Rp", "N")
_HALF = mpq(1, 2)
_SECTIONS = ("hard", "soft", "pairs")


def code_move(code: str, allowed: frozenset[str] | set[str], das: bool) -> str:
    """The move ``code`` plays when the moves in ``allowed`` may be made (stand and hit always are).

    >>> code_move("Ds", {"stand", "hit"}, das=True), code_move("Ds", {"stand", "hit", "double"}, das=True)
    ('stand', 'double')
    >>> code_move("Pd", {"stand", "hit", "double", "split"}, das=False)
    'double'
    """
    letter, second = code[0], code[1:] or None
    if letter == "H":
        return "hit"
    if letter == "S":
        return "stand"
    if letter == "D":
        return "double" if "double" in allowed else "stand" if second == "s" else "hit"
    if letter == "P":
        if "split" in allowed and (second is None or das):
            return "split"
        return "double" if second == "d" and "double" in allowed else "hit"
    if letter == "R":
        if "surrender" in allowed:
            return "surrender"
        if second == "s":
            return "stand"
        return "split" if second == "p" and "split" in allowed else "hit"
    raise BjexactError(f"{code!r} is not a chart code ({', '.join(POLICY_CODES)})")


UNDEALT_HARD_TOTALS = (4, 20)  # hard totals no two different cards make: reached by three cards or a split


def with_nearest_hard_rows(codes: Mapping[tuple[str, str, int], str],
                           totals: range | tuple[int, ...] = UNDEALT_HARD_TOTALS) -> dict[tuple[str, str, int], str]:
    """``codes`` with each hard total of ``totals`` that has no row taking the codes of the nearest
    row (the lower on a tie): hit 4 like 5, stand on 20 like 19."""
    out = dict(codes)
    rows: dict[int, dict[int, str]] = {}
    for (section, row, upcard), code in codes.items():
        if section == "hard" and row.isdigit():
            rows.setdefault(int(row), {})[upcard] = code
    for total in totals:
        if total not in rows and rows:
            nearest = min(rows, key=lambda t: (abs(t - total), t))
            out.update({("hard", str(total), upcard): code for upcard, code in rows[nearest].items()})
    return out


# the total rows a hand of three or more cards can need (hard 4 is only 2,2; soft 12 only A,A)
_LONGER_HAND_ROWS = tuple(("hard", t) for t in range(5, 21)) + tuple(("soft", t) for t in range(13, 21))


def with_longer_hand_cells(codes: Mapping[tuple[str, str, int], str],
                           rules: GameRules) -> dict[tuple[str, str, int], str]:
    """``codes`` (a chart of ``rules``'s two-card hands) with a cell for every total against every up-card
    that only hands of three or more cards make on the shoe (the module docstring): the move of largest
    value summed over the hands of that total of the fewest cards, each weighted by its chance of being
    dealt beside the up-card (the hole card still to come), among stand, hit and, where the rules let
    such a hand double, double (coded as :func:`~bjexact.player.solution.chart_code` codes the other
    cells). Cells ``codes`` has are kept; the infinite deck deals every total in two cards.

    >>> rules = GameRules(shoe=(1, 1, 1, 1, 1, 1, 1, 1, 1, 8), split_hands=2)
    >>> with_longer_hand_cells({}, rules)[("soft", "18", 7)]  # A,2,5 A,3,4 (the 7 is up)
    'S'
    """
    out = dict(codes)
    shoe = rules.make_shoe()
    if not isinstance(shoe, FiniteShoe):
        return out
    solver: FractionSolver | None = None
    for upcard in RANKS:
        missing = {row for row in _LONGER_HAND_ROWS if (row[0], str(row[1]), upcard) not in out}
        if not shoe.counts[upcard - 1] or not missing:
            continue
        left = list(shoe.counts)
        left[upcard - 1] -= 1
        for (section, total), hands in _fewest_card_hands(left, missing, rules.charlie).items():
            if solver is None:  # the values of unsplit hands, the same under every split strategy
                unsplit = rules if rules.split_strategy != "optimal" else replace(rules, split_strategy="cdz")
                solver = solver_for(unsplit)
            values: dict[str, mpq] = {}
            for hand, chance in hands:
                moves = later_moves(solver, ranks_in(hand), upcard)
                for move in moves.w:
                    values[move] = values.get(move, mpq(0)) + chance * moves.unconditional(move)
            out[(section, str(total), upcard)] = chart_code(values)
    return out


def _fewest_card_hands(left: list[int], rows: set[tuple[str, int]],
                      charlie: int | None) -> dict[tuple[str, int], list[tuple[Counts, mpq]]]:
    """For each total of ``rows`` that hands of three or more cards of ``left`` (the counts beside the
    up-card) make, leaving a card for the hole and short of a ``charlie`` (a Charlie has won): those
    hands of the fewest cards, with their chances."""
    unseen = sum(left)
    most = unseen - 1 if charlie is None else min(unseen - 1, charlie - 1)
    found: dict[tuple[str, int], tuple[int, list[tuple[Counts, mpq]]]] = {}
    for hand in _hands_within(left, 0, [], 20):
        cards = sum(hand)
        value = counts_value(hand)
        row = ("soft" if value.soft else "hard", value.total)
        if not 3 <= cards <= most or row not in rows:
            continue
        fewest = found.get(row)
        if fewest is not None and fewest[0] < cards:
            continue
        if fewest is None or fewest[0] > cards:
            fewest = found[row] = (cards, [])
        ways = prod(comb(n, k) for n, k in zip(left, hand))
        fewest[1].append((hand, mpq(ways, comb(unseen, cards))))
    return {row: hands for row, (_, hands) in found.items()}


def _hands_within(left: list[int], rank: int, taken: list[int], room: int) -> Iterator[Counts]:
    """Every hand (counts) of the cards ``left`` of hard total at most ``room`` more than ``taken``."""
    if rank == len(left):
        yield tuple(taken)
        return
    for k in range(min(left[rank], room // (rank + 1)) + 1):
        yield from _hands_within(left, rank + 1, [*taken, k], room - k * (rank + 1))


@dataclass(frozen=True)
class ChartPolicy:
    """A basic strategy chart: (section, row, up-card rank) -> code (see the module docstring)."""

    codes: Mapping[tuple[str, str, int], str]

    def __post_init__(self) -> None:
        for (section, row, upcard), code in self.codes.items():
            if section not in _SECTIONS or upcard not in RANKS or code not in POLICY_CODES:
                raise BjexactError(f"not a chart cell: {section} {row} v {upcard}: {code}")

    @classmethod
    def of_solution(cls, solution: GameSolution) -> ChartPolicy:
        """The engine's own total-dependent basic strategy chart of a solved rule set (Ph/Pd with DAS;
        hard rows no two different cards make are completed from the nearest row; a cell for a total
        only three cards or more make against an up-card, as on a small shoe, is the move best for
        the hands of that total of the fewest cards, weighted by their chances:
        :func:`with_longer_hand_cells`), so that play never reaches a total it has no cell for."""
        chart = solution.chart(das_codes=True)
        codes = {(section, row, upcard): cell.code for section, rows in chart.items()
                 for row, cells in rows.items() for upcard, cell in cells.items()}
        return cls(with_longer_hand_cells(with_nearest_hard_rows(codes, range(4, 21)), solution.rules))

    def with_every_hard_row(self) -> ChartPolicy:
        """The chart with every hard total from 4 to 20 it has no row for (4 and 20 no two different
        cards make; a printed chart may stop at 17) taking the code of the nearest hard row."""
        return ChartPolicy(with_nearest_hard_rows(self.codes, range(4, 21)))

    def _code(self, section: str, row: str, upcard: int) -> str | None:
        return self.codes.get((section, row, upcard))

    def move(self, hand: Counts, upcard: int, allowed: frozenset[str] | set[str], das: bool, *,
             first: bool) -> str:
        """The move for ``hand`` (counts) against ``upcard`` among ``allowed``; ``first``: the
        dealt hand's first decision (the pair row is read)."""
        value = counts_value(hand)
        if value.total >= 21:
            return "stand"
        total_row = ("soft" if value.soft else "hard", str(value.total))
        pair = sum(hand) == 2 and max(hand) == 2
        pair_row = ("pairs", rank_symbol(hand.index(2) + 1)) if pair else None
        code = None
        if first and pair_row is not None:
            code = self._code(*pair_row, upcard)
        if code is None or code == "N":
            code = self._code(*total_row, upcard)
        if code is None and pair_row is not None:
            code = self._code(*pair_row, upcard)
            if code == "N":
                code = None
        if code is None:
            raise BjexactError(f"the chart has no cell for {total_row[0]} {total_row[1]} v {rank_symbol(upcard)}")
        return code_move(code, allowed, das)


class _ChartSolver(FractionSolver):
    """The engine's values with every choice made by a chart instead of by the values."""

    def __init__(self, rules: GameRules, chart: ChartPolicy, cards: SeenCards | None = None):
        super().__init__(rules, cards)
        self.chart = chart
        self._played: dict[object, mpq] = {}

    def _choose(self, hand: Counts, upcard: int, allowed: set[str], first: bool = False) -> str:
        return self.chart.move(hand, upcard, allowed, self.rules.das, first=first)

    def played(self, hand: Counts, upcard: int) -> mpq:
        """W of an unsplit hand of three or more cards played by the chart from here: stand, hit or,
        with ``double_after_hit``, double (the chart's row for the hand's total, as for two cards)."""
        key = (self.hand_key(hand), upcard)
        found = self._played.get(key)
        if found is None:
            move = self.later_move(hand, upcard)
            played = self.double(hand, upcard) if move == "double" else None
            if played is None and move != "stand":  # hit (or a double with no card left to draw)
                played = self.hit_value(hand, upcard, NOTHING_GONE, lambda new: self.played(new, upcard))
            found = self._played[key] = self.stand(hand, upcard) if played is None else played
        return found

    def continues_hitting(self, hand: Counts, upcard: int) -> bool:
        return self._choose(hand, upcard, {"stand", "hit"}) == "hit"

    def later_move(self, hand: Counts, upcard: int) -> str:
        """A hand of three or more cards is played by the chart's row for its total: stand or hit and,
        where the rules let it double (``double_after_hit``), a D code doubles."""
        allowed = {"stand", "hit"} | ({"double"} if self.may_double(hand) else set())
        return self._choose(hand, upcard, allowed)

    # A chart plays split hands by their cards alone, whatever the split strategy of the rules:
    # the engine's split valuation asks these two for every post-split choice.
    def split_hits_by_strategy(self, hand: Counts, upcard: int, pair: int, strategy: int) -> bool:
        return self.continues_hitting(hand, upcard)

    def split_move_by_strategy(self, hand: Counts, upcard: int, pair: int, strategy: int) -> str:
        if counts_value(hand).total == 21 or not self.rules.may_hit_split(pair):
            return "stand"
        allowed = {"stand", "hit"} | ({"double"} if self.may_double(hand, pair) else set())  # 3+ cards: DAH
        return self._choose(hand, upcard, allowed)

    def first_allowed(self, cards: tuple[int, int]) -> set[str]:
        """The moves a dealt two-card hand may make."""
        allowed = {"stand", "hit"}
        if self.may_double(counts_of(cards)):
            allowed.add("double")
        if self.rules.may_split(cards):
            allowed.add("split")
        if self.rules.surrender != "none":
            allowed.add("surrender")
        return allowed

    def first_move(self, cards: tuple[int, int], upcard: int) -> str:
        return self._choose(counts_of(cards), upcard, self.first_allowed(cards), first=True)

    def prefetch_splits(self, pairs: list[int], upcard: int) -> None:
        """Only the pairs the chart splits against ``upcard`` are ever valued split."""
        super().prefetch_splits([p for p in pairs if self.first_move((p, p), upcard) == "split"], upcard)

    def moves(self, cards: tuple[int, int], upcard: int) -> MoveValues:
        """The W of the chart's move only (:attr:`MoveValues.best` is that move)."""
        hand = counts_of(cards)
        allowed = self.first_allowed(cards)
        move = self._choose(hand, upcard, allowed, first=True)
        value = self._value(move, cards, hand, upcard)
        if value is None and move == "double":  # a shoe too small to double: the chart's fallback
            move = self._choose(hand, upcard, allowed - {"double"}, first=True)
            value = self._value(move, cards, hand, upcard)
        if value is None:  # nothing left to draw: the hand stands
            move, value = "stand", self.stand(hand, upcard)
        return MoveValues(cards, upcard, {move: value}, self.cards.natural_chance(hand, upcard),
                          self.rules.excludes_natural, self.rules.surrender == "early",
                          self.rules.hole_card == "peek")

    def _value(self, move: str, cards: tuple[int, int], hand: Counts, upcard: int) -> mpq | None:
        if move == "stand":
            return self.stand(hand, upcard)
        if move == "hit":
            return self.hit_value(hand, upcard, NOTHING_GONE, lambda new: self.played(new, upcard))
        if move == "double":
            return self.double(hand, upcard)
        if move == "split":
            return self.split(cards[0], upcard)
        if self.rules.surrender == "early":
            return -_HALF
        return -_HALF * self.scale(hand, upcard, NOTHING_GONE)


def evaluate_chart(rules: GameRules, chart: ChartPolicy, *, with_distribution: bool = True,
                   split_lines: bool = False, progress: bool | None = None, partial: bool = False) -> GameSolution:
    """The round played by ``chart`` under ``rules``, exactly: ``ev`` (per unit initial bet),
    ``by_upcard``, ``hands`` (each two-card hand's chart move, with its value, as its only move)
    and, where computed, the distribution of the net result (``split_lines`` and ``partial`` as for
    :func:`~bjexact.player.game.solve_game`).

    Examples
    --------
    >>> from bjexact.player.game import solve_game
    >>> rules = GameRules(decks="inf", split_hands=2)
    >>> optimal = solve_game(rules)
    >>> played = evaluate_chart(rules, ChartPolicy.of_solution(optimal))
    >>> played.ev <= optimal.ev, f"{float(optimal.ev - played.ev) * 100:.4f}"
    (True, '0.0000')
    """
    return solve_with(_ChartSolver(rules, chart), with_distribution=with_distribution, split_lines=split_lines,
                      progress=progress, partial=partial)


def solve_game_and_chart(rules: GameRules, chart: ChartPolicy, *, with_distribution: bool = False,
                         progress: bool | None = None) -> tuple[GameSolution, GameSolution]:
    """:func:`~bjexact.player.game.solve_game` and :func:`evaluate_chart` of one rule set together,
    the dealer's distributions for the shoe computed once for both (the cost of a finite shoe)."""
    optimal = FractionSolver(rules)
    played = _ChartSolver(rules, chart, optimal.cards)
    return (solve_with(optimal, with_distribution=with_distribution, progress=progress),
            solve_with(played, with_distribution=with_distribution, progress=progress))


class ChartStrategy:
    """A chart's play, move by move, for code that plays rounds (simulators): the same interface
    as :class:`bjexact.player.game.Strategy`, plus the first decision."""

    def __init__(self, rules: GameRules, chart: ChartPolicy):
        self._solver = _ChartSolver(rules, chart)
        self.rules = rules

    def first_move(self, cards: tuple[int, int], upcard: int) -> str:
        """The chart's move for a dealt (non-natural) two-card hand."""
        return self._solver.first_move(cards, upcard)

    def split_limit(self, pair: int) -> int:
        return self._solver.split_limit(pair)

    def split_move(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> str:
        return self._solver.split_move(hand, upcard, pair, hands)

    def continues_hitting(self, hand: Counts, upcard: int) -> bool:
        return self._solver.continues_hitting(hand, upcard)

    def later_move(self, hand: Counts, upcard: int) -> str:
        """Hit or stand (or, with ``double_after_hit``, double) by the chart's row for the hand's total."""
        return self._solver.later_move(hand, upcard)

    def split_hits(self, hand: Counts, upcard: int, pair: int, hands: int = 2) -> bool:
        return self._solver.split_hits(hand, upcard, pair, hands)
