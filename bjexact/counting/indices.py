"""Index numbers of a linear count, from exact values of shoes at given true counts.

Method (the conventions every number here follows)
    *Shoes at a true count.* Indices are computed for a shoe of which a share ``remaining``
    is left (a half by default). The *neutral remainder* holds that share of every rank
    (:func:`neutral_remainder`): true count 0. The shoe at true count ``t > 0`` follows the
    count from there (:func:`count_path`): one card the count tags positive taken out, one of
    the dealt cards it tags negative brought back, and so on, each kind in the count's own
    proportions (rank ``r`` in proportion to its cards in the full shoe times the size of its
    tag: Hi-Lo's 2-6 evenly, its tens and aces 4:1); ``t < 0`` the reverse. That is the
    composition a count of ``t`` predicts, to the card: what it predicts is linear in the tags
    (the cards dealt are short of the low cards and long of the high ones in those proportions),
    and the cards it tags 0 stay at their share. The shoe's true count is exact: the running
    count of the cards dealt per deck left (52 cards), less for an unbalanced count (KO) what
    that many dealt cards count on average, so that the neutral remainder is at 0 for every
    count (a true count, not the running count KO players keep). The shoe for an integer
    target ``t`` is the first along the path whose true count reaches ``t`` (so its true count
    is ``t`` or a little beyond).

    *Values.* Each shoe is solved exactly (:func:`~bjexact.player.game.solve_game`): a
    chart cell's move is valued as the total-dependent chart does (the sum over the cell's
    two-card hands of P(hand | up-card) times the move's value, dealer naturals included:
    :meth:`~bjexact.player.game.GameSolution.chart`); comparing two moves of a cell compares
    their values conditioned on no dealer natural (peek), since the natural costs every move
    but surrender the same. Surrender is kept out of the chart's comparisons and has its own
    indices (surrender against the best other move); insurance is worth
    ``(3 P(ten in the hole | an ace up) - 1) / 2`` of the stake, the player's cards averaged over.

    *Index.* Along the true counts ``..., -1, 0, +1, ...`` a cell's best move at 0 (basic
    strategy for the full shoe) is followed up and down until another move is best. Between
    the two neighbouring shoes where that happens the exact value difference of the two moves
    changes sign (the *bracket*); the *crossing* is where the straight line between the two
    exact differences is zero, and the *index* is the crossing rounded to the nearest whole
    number (halves up). Read: at true counts at or above the index play the higher-count move;
    below it, the lower-count move.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from math import floor
from typing import Any

from ..apps.sweep import canonical_rules, rules_from_json
from ..core.cards import UPCARD_ORDER, rank_symbol
from ..core.numbers import fraction_string, mpq, parse_fraction
from ..core.rules import GameRules
from ..errors import BjexactError
from ..player.game import solve_game
from .systems import SYSTEMS, CountSystem

__all__ = ["INDEX_KIND", "CountShoe", "neutral_remainder", "count_path", "count_true_count", "count_shoes",
           "shoe_tasks", "index_task",
           "insurance_value", "Change", "CellIndex", "IndexChart", "index_chart", "cell_changes",
           "ILLUSTRIOUS_18", "FAB_4", "MOVE_CODES"]

INDEX_KIND = "count_index/1"
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


# --- shoes at a true count ----------------------------------------------------------------------


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
    mean = mpq(sum(t * n for t, n in zip(system.tags, full)), sum(full))
    dealt = [f - n for f, n in zip(full, shoe)]
    return (system.running(dealt) - mean * sum(dealt)) * 52 / sum(shoe)


HALF = mpq(1, 2)


def count_shoes(system: CountSystem, full: Sequence[int], span: int, remaining: mpq = HALF) -> list[CountShoe]:
    """The shoes for the true counts ``-span .. +span`` (:class:`CountShoe`), in order of count: for
    each integer target the first shoe along :func:`count_path` whose true count reaches it. Counts
    the path cannot reach (it runs out of cards) are left out."""
    if not 0 < remaining <= 1:
        raise BjexactError(f"the share of the shoe left must be more than 0 and at most 1, not {remaining}")
    if not any(system.tags):
        raise BjexactError(f"{system.name} tags no card")
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


# --- the task: one exact solve per shoe ---------------------------------------------------------


def shoe_tasks(rules: GameRules, shoes: Sequence[CountShoe]) -> list[dict[str, Any]]:
    """One task per shoe: the canonical rules with the shoe's composition (the content the
    results store keys on: a composition met again is solved once)."""
    base = {k: v for k, v in rules.to_json().items() if k != "decks"}
    return [canonical_rules(base | {"shoe": list(s.shoe)}) for s in shoes]


def index_task(rules: Mapping[str, Any]) -> dict[str, Any]:
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


def insurance_value(shoe: Sequence[int]) -> mpq:
    """Insuring half the stake with an ace up, per unit stake: ``(3 P(ten) - 1) / 2``, P(ten) that
    of the hole card among the cards left after the ace (the player's cards averaged over)."""
    n = sum(shoe)
    if not shoe[0] or n < 2:
        raise BjexactError("insurance needs an ace in the shoe and a card besides")
    return (3 * mpq(shoe[9], n - 1) - 1) / 2


# --- the chart of indices -----------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """Where the better of two moves of a cell changes: ``low`` is better just below, ``high`` just
    above. ``bracket``: the true counts of the two neighbouring shoes between which the exact value
    difference ``high - low`` goes from ``<= 0`` to ``> 0`` (``differences``, per unit stake, dealer
    naturals included); ``crossing``: where the straight line between them is zero (exact);
    ``index``: the crossing rounded (halves up)."""

    low: str
    high: str
    bracket: tuple[mpq, mpq]
    differences: tuple[mpq, mpq]
    crossing: mpq

    @property
    def index(self) -> int:
        return int(floor(self.crossing + mpq(1, 2)))


@dataclass(frozen=True)
class CellIndex:
    """A chart cell (``section``: hard, soft, pairs, surrender or insurance) with its best move
    at true count 0 and the changes found up (``up``) and down (``down``) the counts."""

    section: str
    row: str
    upcard: int
    basic: str
    up: Change | None
    down: Change | None

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.section, self.row, self.upcard)

    def nearest(self) -> Change | None:
        """The change nearer true count 0 (the one a chart shows)."""
        found = [c for c in (self.up, self.down) if c is not None]
        return min(found, key=lambda c: abs(c.crossing)) if found else None


def _argmax(values: Mapping[str, mpq]) -> str:
    """The decision of largest value, the first given on a tie. Not :func:`bjexact.core.choice.best_move`:
    the decisions compared here are not only moves ("play" against "surrender", "insure" against
    "no insurance")."""
    return max(values, key=lambda m: values[m])


def cell_changes(counts: Sequence[mpq], values: Sequence[Mapping[str, mpq]],
                 zero: int) -> tuple[str, Change | None, Change | None]:
    """The best move at the shoe ``zero`` (true count 0) and the first change above and below it,
    from a cell's move values at the shoes of true counts ``counts`` (ascending)."""
    basic = _argmax(values[zero])

    def change(lo: int, hi: int, going_up: bool) -> Change:
        # neighbours lo < hi: going up the deviation is the higher-count move, going down the lower
        low_move, high_move = (basic, _argmax(values[hi])) if going_up else (_argmax(values[lo]), basic)
        d_lo = values[lo][high_move] - values[lo][low_move]
        d_hi = values[hi][high_move] - values[hi][low_move]
        crossing = counts[hi] if d_hi == d_lo else counts[lo] + (counts[hi] - counts[lo]) * (-d_lo) / (d_hi - d_lo)
        return Change(low_move, high_move, (counts[lo], counts[hi]), (d_lo, d_hi), crossing)

    up = down = None
    for i in range(zero + 1, len(counts)):
        if _argmax(values[i]) != basic:
            up = change(i - 1, i, True)
            break
    for i in range(zero - 1, -1, -1):
        if _argmax(values[i]) != basic:
            down = change(i, i + 1, False)
            break
    return basic, up, down


@dataclass(frozen=True)
class IndexChart:
    """A count's index numbers for a rule set: the shoes used, and every cell's changes."""

    system: CountSystem
    rules: GameRules
    shoes: tuple[CountShoe, ...]
    cells: tuple[CellIndex, ...]

    def cell(self, section: str, row: str, upcard: int) -> CellIndex:
        for c in self.cells:
            if c.key == (section, row, upcard):
                return c
        raise KeyError((section, row, upcard))

    def published(self) -> list[tuple[str, tuple[int, str, str], CellIndex | None, Change | None]]:
        """The Illustrious 18 and the Fab 4 (with surrender) against these: (name, published,
        our cell, our change between the same two moves, or None); none for a count whose tags
        are not Hi-Lo's (the published numbers are Hi-Lo's)."""
        rows: list[tuple[str, tuple[int, str, str], CellIndex | None, Change | None]] = []
        if self.system.tags != SYSTEMS["hi-lo"]:
            return rows
        table = ILLUSTRIOUS_18 | (FAB_4 if self.rules.surrender != "none" else {})
        for key, published in table.items():
            try:
                cell = self.cell(*key)
            except KeyError:
                rows.append((decision_name(key), published, None, None))
                continue
            found = [c for c in (cell.up, cell.down) if c is not None
                     and {c.low, c.high} == {published[1], published[2]}]
            rows.append((decision_name(key), published, cell, found[0] if found else None))
        return rows

    def to_json(self) -> dict[str, Any]:
        def change(c: Change | None) -> dict[str, Any] | None:
            if c is None:
                return None
            return {"low": c.low, "high": c.high, "index": c.index, "crossing": fraction_string(c.crossing),
                    "bracket": [fraction_string(x) for x in c.bracket],
                    "differences": [fraction_string(x) for x in c.differences]}

        return {
            "system": {"name": self.system.name, "tags": list(self.system.tags)},
            "rules": self.rules.to_json(),
            "shoes": [{"target": s.target, "true_count": fraction_string(s.true_count), "removed": s.steps,
                       "shoe": list(s.shoe)} for s in self.shoes],
            "cells": [{"section": c.section, "row": c.row, "upcard": rank_symbol(c.upcard), "basic": c.basic,
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


def index_chart(system: CountSystem, rules: GameRules, shoes: Sequence[CountShoe],
                results: Sequence[Mapping[str, Any]]) -> IndexChart:
    """Every cell's index numbers from the exact results of :func:`index_task` for ``shoes``
    (those of :func:`count_shoes`), with surrender (when the rules offer it) and insurance."""
    counts = [s.true_count for s in shoes]
    parsed = [{key: {m: parse_fraction(v) for m, v in moves.items()} for key, moves in r["cells"].items()}
              for r in results]
    zero = [s.target for s in shoes].index(0)
    cells: list[CellIndex] = []
    for key in parsed[zero]:
        section, row, up_symbol = key.split(" ")
        up = UPCARD_ORDER[[rank_symbol(u) for u in UPCARD_ORDER].index(up_symbol)]
        series = [p.get(key) for p in parsed]
        if any(s is None for s in series):
            continue  # a shoe too thin to deal this cell
        plays = [{m: v for m, v in s.items() if m != "surrender"} for s in series if s is not None]
        cells.append(CellIndex(section, row, up, *cell_changes(counts, plays, zero)))
        if rules.surrender != "none" and section == "hard" and all("surrender" in s for s in series if s):
            versus = [{"play": max(p.values()), "surrender": s["surrender"]}
                      for p, s in zip(plays, series) if s is not None]
            cells.append(CellIndex("surrender", row, up, *cell_changes(counts, versus, zero)))
    if all(s.shoe[0] for s in shoes):
        insurance = [{"no insurance": mpq(0), "insure": insurance_value(s.shoe)} for s in shoes]
        cells.append(CellIndex("insurance", "A", 1, *cell_changes(counts, insurance, zero)))
    return IndexChart(system, rules, tuple(shoes), tuple(cells))

