"""Index numbers of a linear count, exactly: the count where a deviation's average gain changes sign.

Method (the conventions every number here follows)
    *Depths.* A round is dealt after ``seen`` cards of the shoe have gone (:func:`depth_nodes`):
    one depth (``--left``), or the midpoints of equal parts of the cards dealt before the cut
    card, each standing for its part with equal weight (a midpoint rule over the penetration).

    *The count.* At a depth the running count ``c`` of the cards seen has its exact chance
    (:func:`~bjexact.counting.compositions.count_chances`). Read *at the decision* (the default,
    as counters read it) the running count adds the player's two cards and the up-card and is
    divided by the decks unseen then (``(N - seen - 3) / 52``); read *at the deal*, the count of
    the cards seen before the round over ``(N - seen) / 52``; the decks exact or estimated to a
    whole, half or quarter deck (:class:`CountConvention`). An unbalanced count (KO) is read as
    its balanced equivalent: the running count less the shoe's mean tag per card seen.

    *The cards unseen at a count.* ``method="expectation"``: the shoe whose composition is the
    exact conditional mean of the cards unseen given ``(seen, c)``
    (:func:`~bjexact.counting.compositions.expected_unseen`), fractional in general, stands as the
    mixture of at most ten integer shoes with that mean
    (:func:`~bjexact.counting.compositions.integer_mixture`); the counts between solved ones (one
    every :data:`GRID_STEP` whole true counts) take the straight line between their neighbours' values.
    ``method="exhaustive"``: every composition of the cards seen with its exact chance given
    ``(seen, c)``, every count solved: the exact average, for small shoes.

    *Values.* Each integer shoe is solved exactly (:func:`hands_task`): every two-card hand's
    chance with its up-card and each move's value (dealer naturals included); and every hand of
    three or more cards of a hard total 12 to 17 that the shoe's optimal play comes to hold after
    hitting (:func:`~bjexact.player.reach.later_hands`), with the chance of holding it and its
    stand and hit, grouped by total, up-card, number of cards and tags. In a mixture a holding's
    chance is the weighted sum of its chances and its values the chance-weighted means. Each
    (depth, holding) is a curve along the true count (:class:`Curve`): at the true count of each
    running count (every card held counted, at the decision), the chance of that count and
    holding per unit of true count, and its move values; the straight line between neighbouring
    counts. A chart cell (hard and soft totals, pairs) at a true count ``x`` is the sum of its
    curves there (:class:`CellSeries`): each move's value is the average over everything a
    player meeting the cell at ``x`` may hold and make that move with (a hand of three cards
    stands or hits; doubles, splits and surrender are two-card decisions), every depth, count
    and holding weighted by its chance. Surrender is compared with the best other move of the
    two-card hands; insurance (half the stake, ace up) is worth ``(3 T' / n' - 1) / 2`` with
    ``T'`` the tens among the ``n'`` cards unseen at the decision, averaged exactly over every
    composition (linear in the tens: no solve needed).

    *Index.* Where the best move differs between two neighbouring whole true counts ``t < t'`` at
    which the cell is met (:class:`Change`), the *crossing* is the true count between them where
    the exact value difference of the two moves is zero (exact at every count of a curve, the
    straight line between two such counts around the zero), and the *index* is the crossing
    under the convention's rounding (round, floor or truncate): from the index up, play the
    higher-count move. Every change of a cell within the span is reported; a cell is followed
    at the counts where it is met.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from math import floor
from typing import Any

from ..apps.sweep import canonical_rules, rules_from_json
from ..core.cards import UPCARD_ORDER, FiniteShoe, rank_symbol
from ..core.hand import hand_value
from ..core.numbers import fraction_string, mpq, parse_fraction
from ..core.rules import GameRules
from ..errors import BjexactError
from ..player.game import solve_with
from ..player.reach import later_hands
from ..player.states import counts_value
from ..player.values import solver_for
from ..progress import Progress
from .compositions import ShoeMixture, count_outlook, exact_mixture, integer_mixture
from .systems import SYSTEMS, CountSystem

__all__ = ["INDEX_KIND", "CountConvention", "CONVENTIONS", "depth_nodes", "DepthPlan", "IndexPlan", "plan_indices",
           "hands_task", "cell_series", "cell_of", "insurance_series",
           "CellSeries", "Curve", "Change", "CellIndex", "IndexChart", "index_chart", "cell_changes",
           "ILLUSTRIOUS_18", "FAB_4", "MOVE_CODES", "MAX_DECKS", "MAX_SHOES", "decision_name"]

INDEX_KIND = "count_hands/2"
MOVE_CODES = {"stand": "S", "hit": "H", "double": "D", "split": "P", "surrender": "R", "insure": "I",
              "no insurance": "N", "play": "-"}

# The published Hi-Lo indices (multi-deck, S17, DAS, late surrender for the Fab 4):
# (section, row, up-card) -> (index, lower-count move, higher-count move)
ILLUSTRIOUS_18: dict[tuple[str, str, int], tuple[int, str, str]] = {
    ("insurance", "A", 1): (3, "no insurance", "insure"),
    ("hard", "16", 10): (0, "hit", "stand"),
    ("hard", "15", 10): (4, "hit", "stand"),
    ("pairs", "T", 5): (5, "stand", "split"),
    ("pairs", "T", 6): (4, "stand", "split"),
    ("hard", "10", 10): (4, "hit", "double"),
    ("hard", "12", 3): (2, "hit", "stand"),
    ("hard", "12", 2): (3, "hit", "stand"),
    ("hard", "11", 1): (1, "hit", "double"),
    ("hard", "9", 2): (1, "hit", "double"),
    ("hard", "10", 1): (4, "hit", "double"),
    ("hard", "9", 7): (3, "hit", "double"),
    ("hard", "16", 9): (5, "hit", "stand"),
    ("hard", "13", 2): (-1, "hit", "stand"),
    ("hard", "12", 4): (0, "hit", "stand"),
    ("hard", "12", 5): (-2, "hit", "stand"),
    ("hard", "12", 6): (-1, "hit", "stand"),
    ("hard", "13", 3): (-2, "hit", "stand"),
}
FAB_4: dict[tuple[str, str, int], tuple[int, str, str]] = {
    ("surrender", "14", 10): (3, "play", "surrender"),
    ("surrender", "15", 10): (0, "play", "surrender"),
    ("surrender", "15", 9): (2, "play", "surrender"),
    ("surrender", "15", 1): (1, "play", "surrender"),
}


# the largest shoe counted here (the count's chances are sums over every split of the cards seen)
MAX_DECKS = 8
# the hard totals whose hands of three or more cards join their cells (the totals a player stands
# or hits on by the count; below 12 a hand always hits)
LATER_TOTALS = range(12, 18)
# floating point decides a move or a sign only where it is clear by this much (sums of at most
# thousands of products of values below 10: float errors below 1e-11); closer calls are exact
FLOAT_MARGIN = 1e-9
# solve one count every this many whole true counts at a depth (expectation method), the counts
# between on the straight line: 6 decks every 2 moved no crossing of the Illustrious 18 and Fab 4
# by more than 0.05 against every 1, for half the solves (measured)
GRID_STEP = 2
# the most integer shoes one index run may solve
MAX_SHOES = 5000
# counts of a depth rarer than this are left out of the averages
MIN_CHANCE = mpq(1, 10**5)
HALF = mpq(1, 2)


# --- reading the count --------------------------------------------------------------------------


@dataclass(frozen=True)
class CountConvention:
    """How the player reads the true count: ``at`` "decision" (the cards of the round counted, over
    the decks unseen at the decision) or "deal" (before the round); ``rounding`` "round" (halves
    up), "floor" or "truncate" (towards 0: the bin of 0 is twice as wide); ``deck_step`` the decks
    unseen estimated to the nearest multiple of this (at least one step; halves up), ``None``:
    exact."""

    at: str = "decision"
    rounding: str = "round"
    deck_step: mpq | None = None

    def __post_init__(self) -> None:
        if self.at not in ("decision", "deal"):
            raise BjexactError(f"the count is read at the decision or at the deal, not {self.at!r}")
        if self.rounding not in ("round", "floor", "truncate"):
            raise BjexactError(f"a true count is rounded, floored or truncated, not {self.rounding!r}")
        if self.deck_step is not None and self.deck_step <= 0:
            raise BjexactError("decks are estimated to a positive step (1, 1/2, 1/4)")

    def decks(self, unseen: int) -> mpq:
        exact = mpq(unseen, 52)
        if self.deck_step is None:
            return exact
        return max(1, int(floor(exact / self.deck_step + HALF))) * self.deck_step

    def true_count(self, running: mpq | int, unseen: int) -> mpq:
        return running / self.decks(unseen)

    def bin(self, true_count: mpq) -> int:
        """The whole true count ``true_count`` is read as (an index is its crossing read so)."""
        if self.rounding == "round":
            return int(floor(true_count + HALF))
        if self.rounding == "floor":
            return int(floor(true_count))
        return int(true_count)  # truncated towards 0

    def crossings_of(self, index: int) -> tuple[mpq, mpq]:
        """The crossings this rounding reads as ``index``: from the first (included) to the second
        (excluded at "round" and "floor"; truncation reads -1 < x < 1 as 0)."""
        if self.rounding == "round":
            return index - HALF, index + HALF
        if self.rounding == "floor" or index > 0:
            return mpq(index), mpq(index + 1)
        return (mpq(index - 1), mpq(index + 1)) if index == 0 else (mpq(index - 1), mpq(index))

    def describe(self) -> str:
        decks = "exact decks" if self.deck_step is None else f"decks to the nearest {self.deck_step} deck"
        read = "at the decision (the round's cards counted)" if self.at == "decision" else "at the deal"
        verb = {"round": "rounded (halves up)", "floor": "floored", "truncate": "truncated"}[self.rounding]
        return f"true count read {read}, {decks}; an index is the crossing {verb}"

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "rounding": self.rounding,
                "deck_step": None if self.deck_step is None else fraction_string(self.deck_step)}


# presets: exact decks; and the decks to the half deck as a counter estimates them (both rounded:
# the rounding that reproduces the published tables, 18 of 22 against 12 floored, measured)
CONVENTIONS = {"exact": CountConvention(), "published": CountConvention("decision", "round", HALF)}


# --- where the count is read, and the shoes solved there ----------------------------------------


def depth_nodes(cards: int, penetration: mpq, nodes: int) -> tuple[int, ...]:
    """The cards seen before a round at the midpoints of ``nodes`` equal parts of ``[0, cut)``,
    ``cut = floor(penetration x cards)`` the cards dealt before the cut card (rounded down, repeats
    merged: with ``nodes >= cut`` every depth ``0 .. cut - 1``)."""
    cut = int(floor(penetration * cards))
    parts = min(nodes, cut)
    return tuple(sorted({int(floor(mpq((2 * i + 1) * cut, 2 * parts))) for i in range(parts)}))


@dataclass(frozen=True)
class DepthPlan:
    """One depth: ``seen`` cards gone; ``chances``: running count -> chance (the counts that matter);
    ``grid``: the counts solved, each with the mixture of shoes standing for its cards unseen."""

    seen: int
    chances: Mapping[int, mpq]
    grid: Mapping[int, ShoeMixture]


@dataclass(frozen=True)
class IndexPlan:
    system: CountSystem
    rules: GameRules
    full: tuple[int, ...]
    convention: CountConvention
    method: str
    span: int
    depths: tuple[DepthPlan, ...]
    insurance_depths: tuple[int, ...]

    def shoes(self) -> list[tuple[int, ...]]:
        """Every integer shoe to solve, once each, in order of first need."""
        found: dict[tuple[int, ...], None] = {}
        for depth in self.depths:
            for mixture in depth.grid.values():
                found.update(dict.fromkeys(mixture.shoes))
        return list(found)

    def tasks(self) -> list[dict[str, Any]]:
        """One task per shoe (what the store keys on): the canonical rules with the composition, and
        the count's tags (:func:`hands_task`)."""
        base = {k: v for k, v in self.rules.to_json().items() if k != "decks"}
        tags = list(self.system.tags)
        return [canonical_rules(base | {"shoe": list(s)}) | {"count_tags": tags} for s in self.shoes()]


def _round_shift(system: CountSystem, convention: CountConvention) -> tuple[int, int]:
    """The least and most the round's three cards add to the running count (0, 0 at the deal)."""
    if convention.at == "deal":
        return 0, 0
    return 3 * min(0, *system.tags), 3 * max(0, *system.tags)


def plan_indices(system: CountSystem, rules: GameRules, depths: Sequence[int], span: int,
                 method: str = "expectation", convention: CountConvention = CountConvention(),
                 min_chance: mpq = MIN_CHANCE, insurance_depths: Sequence[int] | None = None,
                 grid_step: int = GRID_STEP) -> IndexPlan:
    """The shoes to solve for ``system``'s indices under ``rules`` (a finite shoe), the count read at
    the depths ``depths`` (cards seen before the round) for true counts ``-span .. span``; counts of
    chance below ``min_chance`` at their depth are left out. Insurance needs no solve: it is
    averaged over ``insurance_depths`` (default ``depths``). With the expectation method one count
    in ``grid_step`` whole true counts (at the deal) is solved, the counts between interpolated."""
    shoe = rules.make_shoe()
    if not isinstance(shoe, FiniteShoe):
        raise BjexactError("counting needs a finite shoe: --decks N or --shoe")
    full = tuple(shoe.counts)
    cards = sum(full)
    if cards > 52 * MAX_DECKS:
        raise BjexactError(f"a shoe of {cards:,} cards: index numbers are computed for at most {MAX_DECKS} decks")
    if method not in ("expectation", "exhaustive"):
        raise BjexactError(f"the method is expectation or exhaustive, not {method!r}")
    if len({t for t, n in zip(system.tags, full) if n}) < 2:
        raise BjexactError(f"every card of this shoe has the same {system.name} tag: the true count cannot move")
    low, high = _round_shift(system, convention)
    plans = []
    for seen in depths:
        unseen = cards - seen - (3 if convention.at == "decision" else 0)
        if cards - seen < 10:
            raise BjexactError(f"{cards - seen} cards left after {seen} seen: too few to deal a round from")
        outlook = count_outlook(system, full, seen)
        decks = convention.decks(unseen)
        lo, hi = (-span - 1) * decks - high, (span + 1) * decks - low
        drift = system.mean_tag(full) * seen  # an unbalanced count's drift: read as its balanced equivalent
        kept = {c: p for c, (p, _) in outlook.items() if lo <= c - drift <= hi and p >= min_chance}
        if not kept:
            continue
        if method == "exhaustive":
            grid_counts = sorted(kept)
            grid = {c: exact_mixture(system, full, seen, c) for c in grid_counts}
        else:
            step = grid_step * mpq(cards - seen, 52)  # grid_step whole true counts at the deal
            wanted = {int(floor(j * step + HALF)) for j in range(-4 * span - 8, 4 * span + 9)}
            grid = {c: integer_mixture(outlook[c][1]) for c in sorted(wanted) if c in kept}
        plans.append(DepthPlan(seen, kept, grid))
    if not plans:
        raise BjexactError("no count of this shoe falls within the span at these depths")
    plan = IndexPlan(system, rules, full, convention, method, span, tuple(plans),
                     tuple(depths if insurance_depths is None else insurance_depths))
    shoes = len(plan.shoes())
    if shoes > MAX_SHOES:
        raise BjexactError(f"{shoes:,} shoes to solve, more than the bound of {MAX_SHOES:,}: "
                           "fewer depths, a smaller span or the expectation method")
    return plan


# --- the task: one exact solve per shoe ---------------------------------------------------------


def hands_task(task: Mapping[str, Any]) -> dict[str, Any]:
    """The exact values of the hands of one composition: ``{"ev", "hands", "later"}``. ``task``: the
    canonical rules with the shoe, and ``count_tags`` (a count's tags, A..T), which group the hands
    of three or more cards. ``hands``: ``"a b u"`` (ranks ``a <= b``, up-card ``u``) -> ``{"chance":
    P(up-card u and hand a, b), "values": move -> value}`` for every two-card hand (unconditional:
    dealer naturals included), all "p/q". ``later``: ``"total u cards tags"`` -> the same for the
    hands of three or more cards of a hard total in :data:`LATER_TOTALS` that the shoe's optimal play
    holds (:func:`~bjexact.player.reach.later_hands`), grouped by total, up-card, number of cards
    and the sum of their tags: the chance of holding one, and the chance-weighted mean of its stand
    and hit. Pure: a function of ``task``."""
    rules = rules_from_json({k: v for k, v in task.items() if k != "count_tags"})
    tags = tuple(task["count_tags"])
    solver = solver_for(rules)
    solution = solve_with(solver, with_distribution=False, progress=False)
    hands = {}
    for (a, b, up), moves in solution.hands.items():
        chance = solution.upcard_chance[up] * solution.deal_chance[(a, b, up)]
        hands[f"{a} {b} {up}"] = _entry(chance, {m: moves.unconditional(m) for m in moves.w})
    groups: dict[str, tuple[mpq, dict[str, mpq]]] = {}
    for counts, up, chance, moves in later_hands(solver, solution,
                                                 lambda v: not v.soft and v.total in LATER_TOTALS):
        key = f"{counts_value(counts).total} {up} {sum(counts)} {sum(t * n for t, n in zip(tags, counts))}"
        total, sums = groups.get(key, (mpq(0), {}))
        for m in moves.w:
            sums[m] = sums.get(m, mpq(0)) + chance * moves.unconditional(m)
        groups[key] = (total + chance, sums)
    later = {key: _entry(total, {m: v / total for m, v in sums.items()}) for key, (total, sums) in groups.items()}
    return {"ev": fraction_string(solution.ev), "hands": hands, "later": later}


def _entry(chance: mpq, values: Mapping[str, mpq]) -> dict[str, Any]:
    return {"chance": fraction_string(chance), "values": {m: fraction_string(v) for m, v in values.items()}}


# --- from the solves to the cells' values along the true count ------------------------------------

# what a player holds, as far as a chart cell and the count at the decision are concerned: the
# cell, the number of the player's cards, the tags of them and the up-card, and the two cards of a
# two-card hand (``()`` for a group of hands of three or more cards)
Holding = tuple[tuple[str, str, int], int, int, tuple[int, ...]]
HandValues = dict[Holding, tuple[mpq, dict[str, mpq]]]  # holding -> (chance, move -> chance x value)


def _parsed(result: Mapping[str, Any], tags: Sequence[int]) -> HandValues:
    """A task's result by holding."""
    out: HandValues = {}

    def add(holding: Holding, entry: Mapping[str, Any]) -> None:
        chance = parse_fraction(entry["chance"])
        out[holding] = (chance, {m: chance * parse_fraction(v) for m, v in entry["values"].items()})

    for key, entry in result["hands"].items():
        a, b, up = (int(x) for x in key.split(" "))
        add((cell_of((a, b, up)), 2, tags[a - 1] + tags[b - 1] + tags[up - 1], (a, b)), entry)
    for key, entry in result["later"].items():
        total, up, held, tag_sum = (int(x) for x in key.split(" "))
        add((("hard", str(total), up), held, tag_sum + tags[up - 1], ()), entry)
    return out


def _mixed(mixture: ShoeMixture, solved: Mapping[tuple[int, ...], HandValues]) -> HandValues:
    """A mixture's hands: chances and chance-weighted values summed with the mixture's weights."""
    out: HandValues = {}
    for weight, shoe in zip(mixture.weights, mixture.shoes):
        for hand, (chance, values) in solved[shoe].items():
            total, sums = out.get(hand, (mpq(0), {}))
            for m, v in values.items():
                sums[m] = sums.get(m, mpq(0)) + weight * v
            out[hand] = (total + weight * chance, sums)
    return out


def _between(low: HandValues, high: HandValues, share: mpq) -> HandValues:
    """The straight line from ``low`` (share 0) to ``high`` (share 1), hand by hand."""
    out: HandValues = {}
    for hand in low.keys() | high.keys():
        c0, v0 = low.get(hand, (mpq(0), {}))
        c1, v1 = high.get(hand, (mpq(0), {}))
        moves = v0.keys() | v1.keys()
        out[hand] = (c0 + share * (c1 - c0),
                     {m: v0.get(m, mpq(0)) + share * (v1.get(m, mpq(0)) - v0.get(m, mpq(0))) for m in moves})
    return out


def cell_of(hand: tuple[int, int, int]) -> tuple[str, str, int]:
    """The chart cell of a two-card hand ``(a, b, up-card)``: (section, row, up-card)."""
    a, b, up = hand
    if a == b:
        return "pairs", rank_symbol(a), up
    value = hand_value((a, b))
    return ("soft" if value.soft else "hard"), str(value.total), up


@dataclass(frozen=True)
class Curve:
    """One depth's share of a decision along the true count: at the counts ``xs`` (ascending) the
    chance of meeting the decision per unit of true count (``weights``) and each move's value
    there (``values[move]``); between neighbouring counts the straight line of each (the chance and
    the values separately), nothing outside them."""

    xs: tuple[mpq, ...]
    weights: tuple[mpq, ...]
    values: Mapping[str, tuple[mpq, ...]]

    def at(self, x: mpq) -> tuple[mpq, dict[str, mpq]] | None:
        """The chance per unit count at ``x`` and each move's chance times value."""
        return _on_line(self.xs, self.weights, self.values, x)

    @cached_property
    def _floats(self) -> tuple[list[float], list[float], dict[str, list[float]]]:
        return ([float(x) for x in self.xs], [float(w) for w in self.weights],
                {m: [float(x) for x in v] for m, v in self.values.items()})

    def float_at(self, x: float) -> tuple[float, dict[str, float]] | None:
        """:meth:`at` in floating point (a guide: :class:`CellSeries` settles close calls exactly)."""
        return _on_line(*self._floats, x)


def _on_line(xs: Sequence[Any], weights: Sequence[Any], values: Mapping[str, Sequence[Any]],
             x: Any) -> tuple[Any, dict[str, Any]] | None:
    """A curve's chance per unit count at ``x`` and each move's chance times value, exact or in
    floating point as its numbers are: the straight lines between its points, nothing outside."""
    if not xs or x < xs[0] or x > xs[-1]:
        return None
    i = bisect_right(xs, x) - 1
    if xs[i] == x:
        w = weights[i]
        return w, {m: w * v[i] for m, v in values.items()}
    share = (x - xs[i]) / (xs[i + 1] - xs[i])
    w = weights[i] + share * (weights[i + 1] - weights[i])
    return w, {m: w * (v[i] + share * (v[i + 1] - v[i])) for m, v in values.items()}


def _sums(found: Iterable[tuple[Any, dict[str, Any]] | None], moves: Sequence[str],
          zero: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each move's summed chance (of the curves that offer it) and chance times value."""
    weights, sums = dict.fromkeys(moves, zero), dict.fromkeys(moves, zero)
    for point in found:
        if point is None:
            continue
        for m, s in point[1].items():
            weights[m] += point[0]
            sums[m] += s
    return weights, sums


def _means(weights: Mapping[str, Any], sums: Mapping[str, Any]) -> dict[str, Any] | None:
    if not any(weights.values()):
        return None
    return {m: s / weights[m] for m, s in sums.items() if weights[m]}


@dataclass(frozen=True)
class CellSeries:
    """A decision along the true count: the sum of its depths' (and hands') curves; a move's value
    at a count is the chance-weighted mean of its value over the curves that offer it there (a
    hand of three cards may stand or hit, not double or surrender)."""

    curves: tuple[Curve, ...]
    moves: tuple[str, ...]

    def sums_at(self, x: mpq) -> tuple[dict[str, mpq], dict[str, mpq]]:
        """Each move's chance per unit count at ``x`` (of the hands that may make it) and its sum of
        chance times value."""
        return _sums((curve.at(x) for curve in self.curves), self.moves, mpq(0))

    def values_at(self, x: mpq) -> dict[str, mpq] | None:
        """Each move's value averaged over what is met at true count ``x`` (and may make it); ``None``:
        never met there."""
        return _means(*self.sums_at(x))

    def float_values_at(self, x: float) -> dict[str, float] | None:
        """:meth:`values_at` in floating point: met at the same counts (the weights are positive),
        the values within :data:`FLOAT_MARGIN` (a guide for deciding, never a result)."""
        return _means(*_sums((curve.float_at(x) for curve in self.curves), self.moves, 0.0))

    def zero(self, low: str, high: str, start: mpq, end: mpq) -> mpq:
        """Where ``high``'s value less ``low``'s first goes from ``<= 0`` to ``> 0`` between ``start`` and
        ``end``: the difference is exact at ``start``, ``end`` and every count of a curve between them,
        and the zero is that of the straight line between the two such counts around it. The signs
        are read in floating point where they are clear by :data:`FLOAT_MARGIN`, exactly elsewhere;
        the two counts around the zero are valued exactly."""
        def exact(x: mpq) -> mpq:
            values = self.values_at(x)
            assert values is not None
            return values[high] - values[low]

        points = sorted({start, end} | {x for c in self.curves for x in c.xs if start < x < end})
        previous: tuple[mpq, bool] | None = None
        for x in points:
            values = self.float_values_at(float(x))
            if values is None or low not in values or high not in values:
                continue
            guess = values[high] - values[low]
            above = exact(x) > 0 if abs(guess) <= FLOAT_MARGIN else guess > 0
            if previous is not None and not previous[1] and above:
                x0 = previous[0]
                d0, d = exact(x0), exact(x)
                return x0 + (x - x0) * (-d0) / (d - d0)
            previous = (x, above)
        return end


def _curve(points: Sequence[tuple[mpq, mpq, Mapping[str, mpq]]]) -> Curve:
    """A curve through (count, chance per unit count, move -> value) points. Where the chance is 0
    (never met) the values are the nearest met point's (weighted by nothing there)."""
    points = sorted(points, key=lambda p: p[0])
    met = [i for i, p in enumerate(points) if p[1]]
    if not met:
        return Curve((), (), {})
    values = [points[_nearest(met, i)][2] for i in range(len(points))]
    moves = sorted({m for v in values for m in v})
    return Curve(tuple(p[0] for p in points), tuple(p[1] for p in points),
                 {m: tuple(v.get(m, mpq(0)) for v in values) for m in moves})


def _nearest(met: Sequence[int], i: int) -> int:
    """The element of the ascending ``met`` nearest ``i`` (the lower on a tie)."""
    k = bisect_right(met, i)
    if k == 0:
        return met[0]
    if k == len(met) or i - met[k - 1] <= met[k] - i:
        return met[k - 1]
    return met[k]


def cell_series(plan: IndexPlan, results: Sequence[Mapping[str, Any]],
                later: bool = True) -> dict[tuple[str, str, int], CellSeries]:
    """Every chart cell along the true count, from the solves of ``plan.shoes()``: one curve per
    depth and holding, its points the running counts of the depth (the true count of each read at
    the decision, with every card held, or at the deal), weighted by the count's chance there and
    the holding's. ``later``: the hands of three or more cards join their cells."""
    return _series(_cell_curves(plan, results), later)


def _series(curves: Mapping[tuple[str, str, int], Sequence[tuple[Holding, Curve]]],
            later: bool) -> dict[tuple[str, str, int], CellSeries]:
    out = {}
    for cell, found in curves.items():
        made = tuple(c for holding, c in found if later or holding[1] == 2)
        if made:
            out[cell] = CellSeries(made, tuple(sorted({m for c in made for m in c.values})))
    return out


def _cell_curves(plan: IndexPlan, results: Sequence[Mapping[str, Any]], advance: Callable[[], None] = lambda: None
                 ) -> dict[tuple[str, str, int], list[tuple[Holding, Curve]]]:
    tags = plan.system.tags
    by_shoe = dict(zip(plan.shoes(), results))
    cards = sum(plan.full)
    decision = plan.convention.at == "decision"
    drift_per_card = plan.system.mean_tag(plan.full)  # unbalanced counts: the balanced equivalent
    points: dict[tuple[str, str, int], dict[tuple[int, Holding], list[tuple[mpq, mpq, dict[str, mpq]]]]] = {}
    for depth in plan.depths:
        grid = sorted(depth.grid)
        # one depth's shoes parsed at a time (a shoe is of one depth's size): memory for one depth
        solved = {shoe: _parsed(by_shoe[shoe], tags) for c in grid for shoe in depth.grid[c].shoes}
        mixed = {c: _mixed(depth.grid[c], solved) for c in grid}
        del solved
        advance()
        at_count: dict[int, HandValues] = {}
        for count in depth.chances:
            if not grid[0] <= count <= grid[-1]:
                continue
            if count in mixed:
                at_count[count] = mixed[count]
            else:
                above = next(c for c in grid if c > count)
                below = max(c for c in grid if c < count)
                at_count[count] = _between(mixed[below], mixed[above], mpq(count - below, above - below))
        every_hand = set().union(*at_count.values()) if at_count else set()
        # by the number of cards held: the cards unseen at the reading, the decks they make (the chance
        # per unit of true count: one count is 1/decks) and an unbalanced count's drift
        readings = {}
        for held in {holding[1] for holding in every_hand}:
            unseen = cards - depth.seen - (held + 1 if decision else 0)
            readings[held] = (unseen, plan.convention.decks(unseen), drift_per_card * (cards - unseen))
        for count, hands in at_count.items():
            chance = depth.chances[count]
            for holding in every_hand:  # a hand not dealt at a count is a point of chance 0 there
                p, values = hands.get(holding, (mpq(0), {}))
                cell, held, shift, _ = holding
                unseen, density, drift = readings[held]
                x = plan.convention.true_count(count + (shift if decision else 0) - drift, unseen)
                points.setdefault(cell, {}).setdefault((depth.seen, holding), []).append(
                    (x, chance * density * p, {m: v / p for m, v in values.items()} if p else {}))
    return {cell: [(holding, _curve(p)) for (_, holding), p in curves.items()] for cell, curves in points.items()}


def insurance_series(plan: IndexPlan) -> CellSeries | None:
    """Insurance along the true count, averaged exactly over every composition: at the decision the
    player's two cards and the ace are counted (the tens unseen given the count of the cards seen
    besides the ace, exactly); at the deal the count before the round, the hole card among the
    expected cards unseen less the ace (the player's cards averaged over). ``None``: no ace."""
    full, cards, tags = plan.full, sum(plan.full), plan.system.tags
    if not full[0]:
        return None
    decision = plan.convention.at == "decision"
    without_ace = tuple(n - (r == 0) for r, n in enumerate(full))
    mean_tag = plan.system.mean_tag(full)
    curves = []
    for depth_seen in plan.insurance_depths:
        seen = depth_seen + 2 if decision else depth_seen
        source = without_ace if decision else full
        if seen > sum(source) - 2:
            continue
        points = []
        for count, (chance, mean) in count_outlook(plan.system, source, seen).items():
            if decision:
                running, unseen = count + tags[0], cards - depth_seen - 3  # the hole card among them
                value, weight = (3 * mean[9] / unseen - 1) / 2, chance
            else:
                running, unseen = count, cards - seen
                value = (3 * mean[9] / (unseen - 1) - 1) / 2
                weight = chance * mean[0] / unseen  # the ace up
            density = weight * plan.convention.decks(unseen)
            drift = mean_tag * (cards - unseen)
            points.append((plan.convention.true_count(running - drift, unseen), density,
                           {"no insurance": mpq(0), "insure": value}))
        curves.append(_curve(points))
    return CellSeries(tuple(curves), ("insure", "no insurance"))


# --- the chart of indices -----------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """Where the better of two moves of a cell changes between the neighbouring integer true counts
    ``bracket`` (``low`` best at the first, ``high`` at the second): ``differences``, the exact value
    of ``high`` less ``low`` at each (per unit stake, dealer naturals included); ``crossing``, the
    true count between them where the exact difference is zero; ``index``: the crossing under the
    convention's rounding (play ``high`` from the index up)."""

    low: str
    high: str
    bracket: tuple[int, int]
    differences: tuple[mpq, mpq]
    crossing: mpq
    index: int


@dataclass(frozen=True)
class CellIndex:
    """A chart cell (``section``: hard, soft, pairs, surrender or insurance) with its best move at
    true count 0 (or the count nearest it where it is met), every change within the span in order
    of count, and the integer true counts at which it is met (``counts``)."""

    section: str
    row: str
    upcard: int
    basic: str
    changes: tuple[Change, ...]
    counts: tuple[int, ...]

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.section, self.row, self.upcard)

    @property
    def up(self) -> Change | None:
        """The first change above true count 0."""
        return next((c for c in self.changes if c.bracket[0] >= 0 and c.low == self.basic), None)

    @property
    def down(self) -> Change | None:
        """The first change below true count 0."""
        return next((c for c in reversed(self.changes) if c.bracket[1] <= 0 and c.high == self.basic), None)

    def nearest(self) -> Change | None:
        """The change nearer true count 0 (the one a chart shows)."""
        found = [c for c in (self.up, self.down) if c is not None]
        return min(found, key=lambda c: abs(c.crossing)) if found else None


def _argmax(values: Mapping[str, mpq]) -> str:
    """The decision of largest value, the first given on a tie. Not :func:`bjexact.core.choice.best_move`:
    the decisions compared here are not only moves ("play" against "surrender", "insure" against
    "no insurance")."""
    return max(values, key=lambda m: values[m])


def cell_changes(series: CellSeries, convention: CountConvention, span: int,
                 versus: str | None = None) -> tuple[str, tuple[Change, ...], tuple[int, ...]] | None:
    """The best move at true count 0 (or the count nearest it where the cell is met), every change of
    best move between neighbouring integer counts of ``-span .. span`` where it is met, in order,
    and those counts; ``None`` where it is met at none. Surrender is left out of the moves
    compared; ``versus="surrender"`` compares it with the best other move ("play")."""

    def decisions(values: Mapping[str, mpq]) -> dict[str, mpq]:
        if versus is None:
            return {m: v for m, v in values.items() if m != "surrender"}
        return {"play": max(v for m, v in values.items() if m != versus), versus: values[versus]}

    guide = {t: v for t in range(-span, span + 1) if (v := series.float_values_at(float(t))) is not None}
    if not guide:
        return None
    counts = tuple(guide)
    exact: dict[int, dict[str, mpq]] = {}

    def exact_at(t: int) -> dict[str, mpq]:
        if t not in exact:
            found = series.values_at(mpq(t))
            assert found is not None  # met in floating point: met exactly
            exact[t] = found
        return exact[t]

    def best(t: int) -> str:
        """The best decision at ``t``: read in floating point where clear, exactly where close."""
        guessed = sorted(decisions(guide[t]).values(), reverse=True)
        if len(guessed) > 1 and guessed[0] - guessed[1] <= FLOAT_MARGIN:
            return _argmax(decisions(exact_at(t)))
        return _argmax(decisions(guide[t]))

    chosen = {t: best(t) for t in counts}
    nearest = min(counts, key=lambda t: (abs(t), t))
    changes = []
    for lo, hi in zip(counts, counts[1:]):
        low, high = chosen[lo], chosen[hi]
        if low == high:
            continue
        named = {m: (_argmax({k: v for k, v in exact_at(hi).items() if k != versus}) if m == "play" else m)
                 for m in (low, high)}  # "play": the best other move where the deviation begins
        crossing = series.zero(named[low], named[high], mpq(lo), mpq(hi))
        at_lo, at_hi = decisions(exact_at(lo)), decisions(exact_at(hi))
        differences = (at_lo[high] - at_lo[low], at_hi[high] - at_hi[low])
        changes.append(Change(low, high, (lo, hi), differences, crossing, convention.bin(crossing)))
    return chosen[nearest], tuple(changes), counts


@dataclass(frozen=True)
class IndexChart:
    """A count's index numbers for a rule set: the plan solved, and every cell's changes."""

    plan: IndexPlan
    cells: tuple[CellIndex, ...]

    @property
    def system(self) -> CountSystem:
        return self.plan.system

    @property
    def rules(self) -> GameRules:
        return self.plan.rules

    def cell(self, section: str, row: str, upcard: int) -> CellIndex:
        for c in self.cells:
            if c.key == (section, row, upcard):
                return c
        raise KeyError((section, row, upcard))

    @property
    def compared_with_published(self) -> bool:
        """Whether the published numbers apply: Hi-Lo's tags, a shoe of four decks or more (they are
        multi-deck indices; on fewer decks the round's own cards move the count too much)."""
        return self.system.tags == SYSTEMS["hi-lo"] and sum(self.plan.full) >= 4 * 52

    def published(self) -> list[tuple[str, tuple[int, str, str], CellIndex | None, Change | None]]:
        """The Illustrious 18 and the Fab 4 (with surrender) against these: (name, published,
        our cell, our change between the same two moves nearest the published index, or None); none
        where :attr:`compared_with_published` is false."""
        rows: list[tuple[str, tuple[int, str, str], CellIndex | None, Change | None]] = []
        if not self.compared_with_published:
            return rows
        table = ILLUSTRIOUS_18 | (FAB_4 if self.rules.surrender != "none" else {})
        for key, published in table.items():
            try:
                cell = self.cell(*key)
            except KeyError:
                rows.append((decision_name(key), published, None, None))
                continue
            found = [c for c in cell.changes if (c.low, c.high) == (published[1], published[2])]
            best = min(found, key=lambda c: abs(c.index - published[0])) if found else None
            rows.append((decision_name(key), published, cell, best))
        return rows

    def to_json(self) -> dict[str, Any]:
        def change(c: Change | None) -> dict[str, Any] | None:
            if c is None:
                return None
            return {"low": c.low, "high": c.high, "index": c.index, "crossing": fraction_string(c.crossing),
                    "bracket": list(c.bracket), "differences": [fraction_string(x) for x in c.differences]}

        plan = self.plan
        return {
            "system": {"name": self.system.name, "tags": list(self.system.tags)},
            "rules": self.rules.to_json(),
            "method": plan.method, "convention": plan.convention.to_json(), "span": plan.span,
            "depths": [{"seen": d.seen, "counts_solved": sorted(d.grid)} for d in plan.depths],
            "shoes_solved": len(plan.shoes()),
            "cells": [{"section": c.section, "row": c.row, "upcard": rank_symbol(c.upcard), "basic": c.basic,
                       "counts": list(c.counts), "changes": [change(x) for x in c.changes],
                       "up": change(c.up), "down": change(c.down)} for c in self.cells],
            "published": [{"decision": name, "published": pub[0], "low": pub[1], "high": pub[2],
                           "index": None if ch is None else ch.index,
                           "crossing": None if ch is None else fraction_string(ch.crossing)}
                          for name, pub, _, ch in self.published()],
        }


def decision_name(key: tuple[str, str, int]) -> str:
    """``16 v T``, ``T,T v 5``, ``soft 18 v 2``, ``surrender 15 v A``, ``insurance``."""
    section, row, up = key
    if section == "insurance":
        return "insurance"
    hand = {"pairs": f"{row},{row}", "soft": f"soft {row}", "surrender": f"surrender {row}"}.get(section, row)
    return f"{hand} v {rank_symbol(up)}"


def index_chart(plan: IndexPlan, results: Sequence[Mapping[str, Any]], progress: bool | None = False) -> IndexChart:
    """Every cell's index numbers from the exact results of :func:`hands_task` for ``plan.shoes()``,
    with surrender (when the rules offer it) and insurance. ``progress``: bars on standard error
    (``None``: when it is a terminal) over the depths averaged and the cells decided."""
    cells: list[CellIndex] = []
    with Progress(len(plan.depths), "averaging depths", enabled=progress) as bar:
        curves = _cell_curves(plan, results, bar.advance)
    series = _series(curves, later=True)
    two_cards = _series(curves, later=False) if plan.rules.surrender != "none" else {}
    order = {"hard": 0, "soft": 1, "pairs": 2}
    with Progress(len(series), "deciding cells", enabled=progress) as bar:
        for key in sorted(series, key=lambda k: (order[k[0]], _row_order(k[1]), UPCARD_ORDER.index(k[2]))):
            cells.extend(_cell_indices(plan, key, series[key], two_cards.get(key)))
            bar.advance()
    insurance = insurance_series(plan)
    found = None if insurance is None else cell_changes(insurance, plan.convention, plan.span)
    if found is not None:
        cells.append(CellIndex("insurance", "A", 1, *found))
    return IndexChart(plan, tuple(cells))


def _cell_indices(plan: IndexPlan, key: tuple[str, str, int], series: CellSeries,
                  two_cards: CellSeries | None) -> list[CellIndex]:
    """A cell's index numbers, and its surrender's against the best other move of its two-card hands."""
    section, row, up = key
    found = cell_changes(series, plan.convention, plan.span)
    if found is None:
        return []
    out = [CellIndex(section, row, up, *found)]
    if two_cards is not None and section == "hard" and "surrender" in series.moves:
        versus = cell_changes(two_cards, plan.convention, plan.span, versus="surrender")
        if versus is not None:
            out.append(CellIndex("surrender", row, up, *versus))
    return out


def _row_order(row: str) -> int:
    return {"A": 11, "T": 10}.get(row, int(row) if row.isdigit() else 0)
