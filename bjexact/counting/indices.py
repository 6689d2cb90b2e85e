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
    per whole true count) take the straight line between their neighbours' values.
    ``method="exhaustive"``: every composition of the cards seen with its exact chance given
    ``(seen, c)``, every count solved: the exact average, for small shoes.

    *Values.* Each integer shoe is solved exactly (:func:`hands_task`): every two-card hand's
    chance with its up-card and each move's value (dealer naturals included). In a mixture a
    hand's chance is the weighted sum of its chances and its values the chance-weighted means.
    Each (depth, hand) is a curve along the true count (:class:`Curve`): at the true count of
    each running count, the chance of that count and hand per unit of true count, and the
    hand's move values; the straight line between neighbouring counts. A chart cell
    (total-dependent: hard and soft totals of two different cards, pairs) at a true count ``x``
    is the sum of its curves there (:class:`CellSeries`): its moves' values are the averages
    over everything a player meeting the cell at ``x`` may hold, every depth, count and hand
    weighted by its chance. Surrender is compared with the best other move; insurance (half the stake, ace up)
    is worth ``(3 T' / n' - 1) / 2`` with ``T'`` the tens among the ``n'`` cards unseen at the
    decision, averaged exactly over every composition (linear in the tens: no solve needed).

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import floor
from typing import Any

from ..apps.sweep import canonical_rules, rules_from_json
from ..core.cards import UPCARD_ORDER, FiniteShoe, rank_symbol
from ..core.hand import hand_value
from ..core.numbers import fraction_string, mpq, parse_fraction
from ..core.rules import GameRules
from ..errors import BjexactError
from ..player.game import solve_game
from .compositions import ShoeMixture, count_outlook, exact_mixture, integer_mixture
from .systems import SYSTEMS, CountSystem

__all__ = ["INDEX_KIND", "CountConvention", "CONVENTIONS", "depth_nodes", "DepthPlan", "IndexPlan", "plan_indices",
           "hands_task", "cell_series", "cell_of", "insurance_series",
           "CellSeries", "Curve", "Change", "CellIndex", "IndexChart", "index_chart", "cell_changes",
           "ILLUSTRIOUS_18", "FAB_4", "MOVE_CODES", "MAX_DECKS", "MAX_SHOES", "decision_name"]

INDEX_KIND = "count_hands/1"
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

    def describe(self) -> str:
        decks = "exact decks" if self.deck_step is None else f"decks to the nearest {self.deck_step} deck"
        read = "at the decision (the round's cards counted)" if self.at == "decision" else "at the deal"
        verb = {"round": "rounded (halves up)", "floor": "floored", "truncate": "truncated"}[self.rounding]
        return f"true count read {read}, {decks}; an index is the crossing {verb}"

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "rounding": self.rounding,
                "deck_step": None if self.deck_step is None else fraction_string(self.deck_step)}


# presets: exact true counts rounded; and floored with the decks to the half deck
CONVENTIONS = {"exact": CountConvention(), "published": CountConvention("decision", "floor", HALF)}


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
        """One task per shoe: the canonical rules with the composition (what the store keys on)."""
        base = {k: v for k, v in self.rules.to_json().items() if k != "decks"}
        return [canonical_rules(base | {"shoe": list(s)}) for s in self.shoes()]


def _round_shift(system: CountSystem, convention: CountConvention) -> tuple[int, int]:
    """The least and most the round's three cards add to the running count (0, 0 at the deal)."""
    if convention.at == "deal":
        return 0, 0
    return 3 * min(0, *system.tags), 3 * max(0, *system.tags)


def plan_indices(system: CountSystem, rules: GameRules, depths: Sequence[int], span: int,
                 method: str = "expectation", convention: CountConvention = CountConvention(),
                 min_chance: mpq = MIN_CHANCE, insurance_depths: Sequence[int] | None = None,
                 grid_step: int = 1) -> IndexPlan:
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


def hands_task(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The exact values of every two-card hand for one composition: ``{"ev", "hands"}``, ``hands``:
    ``"a b u"`` (ranks, ``a <= b``) -> ``{"chance": P(up-card u and hand a, b), "values": move ->
    value}`` (unconditional: dealer naturals included), all "p/q". Pure: a function of ``rules``."""
    solution = solve_game(rules_from_json(rules), with_distribution=False, progress=False)
    hands = {}
    for (a, b, up), moves in solution.hands.items():
        chance = solution.upcard_chance[up] * solution.deal_chance[(a, b, up)]
        hands[f"{a} {b} {up}"] = {"chance": fraction_string(chance),
                                  "values": {m: fraction_string(moves.unconditional(m)) for m in moves.w}}
    return {"ev": fraction_string(solution.ev), "hands": hands}


# --- from the solves to the cells' values along the true count ------------------------------------

Hand = tuple[int, int, int]
HandValues = dict[Hand, tuple[mpq, dict[str, mpq]]]  # hand -> (chance, move -> chance x value)


def _parsed(result: Mapping[str, Any]) -> HandValues:
    out: HandValues = {}
    for key, entry in result["hands"].items():
        a, b, up = (int(x) for x in key.split(" "))
        chance = parse_fraction(entry["chance"])
        out[(a, b, up)] = (chance, {m: chance * parse_fraction(v) for m, v in entry["values"].items()})
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


def cell_of(hand: Hand) -> tuple[str, str, int]:
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
        xs = self.xs
        if not xs or x < xs[0] or x > xs[-1]:
            return None
        i = bisect_right(xs, x) - 1
        if xs[i] == x:
            w = self.weights[i]
            return w, {m: w * v[i] for m, v in self.values.items()}
        share = (x - xs[i]) / (xs[i + 1] - xs[i])
        w = self.weights[i] + share * (self.weights[i + 1] - self.weights[i])
        return w, {m: w * (v[i] + share * (v[i + 1] - v[i])) for m, v in self.values.items()}


@dataclass(frozen=True)
class CellSeries:
    """A decision along the true count: the sum of its depths' (and hands') curves; a move's value
    at a count is the chance-weighted mean of the curves' values there."""

    curves: tuple[Curve, ...]
    moves: tuple[str, ...]

    def sums_at(self, x: mpq) -> tuple[mpq, dict[str, mpq]]:
        weight, sums = mpq(0), dict.fromkeys(self.moves, mpq(0))
        for curve in self.curves:
            found = curve.at(x)
            if found is None:
                continue
            weight += found[0]
            for m, s in found[1].items():
                sums[m] += s
        return weight, sums

    def values_at(self, x: mpq) -> dict[str, mpq] | None:
        """Each move's value averaged over what is met at true count ``x``; ``None``: never met there."""
        weight, sums = self.sums_at(x)
        return {m: s / weight for m, s in sums.items()} if weight else None

    def zero(self, low: str, high: str, start: mpq, end: mpq) -> mpq:
        """Where ``high``'s value less ``low``'s first goes from ``<= 0`` to ``> 0`` between ``start`` and
        ``end``: the difference is exact at ``start``, ``end`` and every count of a curve between them,
        and the zero is that of the straight line between the two such counts around it."""
        points = sorted({start, end} | {x for c in self.curves for x in c.xs if start < x < end})
        previous = None
        for x in points:
            sums = self.sums_at(x)[1]
            d = sums[high] - sums[low]
            if previous is not None and previous[1] <= 0 < d:
                x0, d0 = previous
                return x0 + (x - x0) * (-d0) / (d - d0)
            previous = (x, d)
        return end


def _curve(points: Sequence[tuple[mpq, mpq, Mapping[str, mpq]]]) -> Curve:
    """A curve through (count, chance per unit count, move -> value) points. Where the chance is 0
    (never met) the values are the nearest met point's (weighted by nothing there)."""
    points = sorted(points, key=lambda p: p[0])
    met = [i for i, p in enumerate(points) if p[1]]
    if not met:
        return Curve((), (), {})
    values = [points[min(met, key=lambda j: (abs(j - i), j))][2] for i in range(len(points))]
    moves = sorted({m for v in values for m in v})
    return Curve(tuple(p[0] for p in points), tuple(p[1] for p in points),
                 {m: tuple(v.get(m, mpq(0)) for v in values) for m in moves})


def cell_series(plan: IndexPlan, results: Sequence[Mapping[str, Any]]) -> dict[tuple[str, str, int], CellSeries]:
    """Every chart cell along the true count, from the solves of ``plan.shoes()``: one curve per
    depth and hand, its points the running counts of the depth (the true count of each read at
    the decision or the deal), weighted by the count's chance there and the hand's."""
    solved = {shoe: _parsed(r) for shoe, r in zip(plan.shoes(), results)}
    tags = plan.system.tags
    cards = sum(plan.full)
    decision = plan.convention.at == "decision"
    points: dict[tuple[str, str, int], dict[tuple[int, Hand], list[tuple[mpq, mpq, dict[str, mpq]]]]] = {}
    for depth in plan.depths:
        grid = sorted(depth.grid)
        mixed = {c: _mixed(depth.grid[c], solved) for c in grid}
        unseen = cards - depth.seen - (3 if decision else 0)
        density = plan.convention.decks(unseen)  # chance per unit of true count: one count is 1/decks
        drift = plan.system.mean_tag(plan.full) * (cards - unseen)  # unbalanced counts: the balanced equivalent
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
        for count, hands in at_count.items():
            chance = depth.chances[count]
            for hand in every_hand:  # a hand not dealt at a count is a point of chance 0 there
                p, values = hands.get(hand, (mpq(0), {}))
                shift = tags[hand[0] - 1] + tags[hand[1] - 1] + tags[hand[2] - 1] if decision else 0
                x = plan.convention.true_count(count + shift - drift, unseen)
                points.setdefault(cell_of(hand), {}).setdefault((depth.seen, hand), []).append(
                    (x, chance * density * p, {m: v / p for m, v in values.items()} if p else {}))
    out = {}
    for cell, curves in points.items():
        made = tuple(_curve(p) for p in curves.values())
        out[cell] = CellSeries(made, tuple(sorted({m for c in made for m in c.values})))
    return out


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

    found = {t: v for t in range(-span, span + 1) if (v := series.values_at(mpq(t))) is not None}
    if not found:
        return None
    counts = tuple(found)
    chosen = {t: decisions(v) for t, v in found.items()}
    nearest = min(counts, key=lambda t: (abs(t), t))
    changes = []
    for lo, hi in zip(counts, counts[1:]):
        low, high = _argmax(chosen[lo]), _argmax(chosen[hi])
        if low == high:
            continue
        named = {m: (_argmax({k: v for k, v in found[hi].items() if k != versus}) if m == "play" else m)
                 for m in (low, high)}  # "play": the best other move where the deviation begins
        crossing = series.zero(named[low], named[high], mpq(lo), mpq(hi))
        differences = (chosen[lo][high] - chosen[lo][low], chosen[hi][high] - chosen[hi][low])
        changes.append(Change(low, high, (lo, hi), differences, crossing, convention.bin(crossing)))
    return _argmax(chosen[nearest]), tuple(changes), counts


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


def index_chart(plan: IndexPlan, results: Sequence[Mapping[str, Any]]) -> IndexChart:
    """Every cell's index numbers from the exact results of :func:`hands_task` for ``plan.shoes()``,
    with surrender (when the rules offer it) and insurance."""
    cells: list[CellIndex] = []
    series = cell_series(plan, results)
    order = {"hard": 0, "soft": 1, "pairs": 2}
    for key in sorted(series, key=lambda k: (order[k[0]], _row_order(k[1]), UPCARD_ORDER.index(k[2]))):
        section, row, up = key
        found = cell_changes(series[key], plan.convention, plan.span)
        if found is None:
            continue
        cells.append(CellIndex(section, row, up, *found))
        if plan.rules.surrender != "none" and section == "hard" and "surrender" in series[key].moves:
            versus = cell_changes(series[key], plan.convention, plan.span, versus="surrender")
            if versus is not None:
                cells.append(CellIndex("surrender", row, up, *versus))
    insurance = insurance_series(plan)
    found = None if insurance is None else cell_changes(insurance, plan.convention, plan.span)
    if found is not None:
        cells.append(CellIndex("insurance", "A", 1, *found))
    return IndexChart(plan, tuple(cells))


def _row_order(row: str) -> int:
    return {"A": 11, "T": 10}.get(row, int(row) if row.isdigit() else 0)
