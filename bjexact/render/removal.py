"""Effects of removal for people: the tables of :mod:`bjexact.symbolic.removal`."""

from __future__ import annotations

from typing import Any

from ..core.cards import RANKS, rank_symbol
from ..core.text import Table
from ..symbolic.removal import FullGameRemovalEffects, GameRemovalEffects, RemovalEffects

__all__ = ["removal_tables", "game_tables"]


def removal_tables(effects: RemovalEffects, style: Any, *, partials: bool = False) -> list[Any]:
    """Two :class:`bjexact.render.tables.Table`: the full-shoe probabilities, then the change per rank removed.

    ``style`` is a :class:`bjexact.render.tables.NumberStyle`; the changes are printed signed,
    in percentage points when ``style.percent``. ``partials`` (infinite deck): the raw
    ``df/dp_r`` instead of ``D_r f``.
    """
    rules = effects.rules
    given = f" | up-card {rank_symbol(effects.upcard)}" if effects.upcard is not None else ""
    condition = ", no dealer natural" if rules.naturals == "peek" else ""
    unit = " (%)" if style.percent and not style.exact else ""
    points = " (percentage points)" if style.percent and not style.exact else ""
    base = Table(
        f"P(dealer's outcome{given}{condition}){unit}: {rules.describe()}",
        ["shoe", *effects.outcomes],
        [["full" if not rules.infinite else "standard", *(effects.base[o] for o in effects.outcomes)]],
    )
    if rules.infinite:
        values = effects.partials if partials else effects.effects
        assert values is not None  # the infinite deck has its partial derivatives
        label = "d/dp_" if partials else "D_"
        title = (f"Raw partial derivatives df/dp_r at the standard deck{points}" if partials else
                 f"Derivative D_r f in the direction of removing a card of rank r{points}")
        notes = [
            "D_r f = sum_j p_j df/dp_j - df/dp_r: removing one card of rank r from an N-card shoe "
            "changes f by about D_r f / N (one deck: N = 52)."
            if not partials else
            "df/dp_r of the polynomial the dealer graph gives; unlike D_r f it depends on how f is written "
            "off p_A + ... + p_T = 1.",
        ]
    else:
        values = effects.effects
        label = "-"
        title = f"Effect of removing one card of each rank{points}"
        missing = any(values[r] is None for r in RANKS)
        notes = ["Each row: the exact change when one card of that rank leaves the shoe"
                 + ("; 'n/a': the shoe has no such card to remove (or no such up-card is left)" if missing else "")
                 + ". Burn-card neutrality: the rows weighted by the counts"
                 + (" and P(no natural | that card removed)" if rules.naturals == "peek" else "")
                 + " sum to exactly 0."]
    rows = []
    for r in RANKS:
        row = values[r]
        rows.append([f"{label}{rank_symbol(r)}", *(("n/a",) * len(effects.outcomes) if row is None else
                                                  (row[o] for o in effects.outcomes))])
    return [base, Table(title, ["removed" if not rules.infinite else "rank", *effects.outcomes], rows, notes)]


def game_tables(effects: GameRemovalEffects, style: Any) -> list[Any]:
    """The game's value and the change per rank removed, as one :class:`bjexact.render.tables.Table`
    (values in per cent of the bet when ``style.percent``)."""
    rules = effects.rules
    if effects.objective == "ev":
        unit = " (% of the bet)" if style.percent and not style.exact else ""
    else:  # a chance of winning (a push counting 1/2), not an amount of money
        unit = " (chance of winning, %)" if style.percent and not style.exact else " (chance of winning)"
    objective = "win +1, push 0, loss -1" if effects.objective == "ev" else "win 1, push 1/2, loss 0"
    title = f"Value of the hit/stand game{unit}: {rules.describe()}; {objective}"
    if rules.infinite:
        columns = ["rank", "D_r V", "D_r V / 52"]
        rows = [[f"D_{rank_symbol(r)}", v, v / 52] for r, v in effects.effects.items() if v is not None]
        notes = [f"Value at the standard deck: {style.plain(effects.base)}. D_r V = sum_j p_j dV/dp_j - dV/dp_r; "
                 "removing one card of rank r from an N-card shoe changes the value by about D_r V / N "
                 "(D_r V / 52: one deck)."]
    else:
        columns = ["removed", "change"]
        rows = [[f"-{rank_symbol(r)}", "n/a" if v is None else v] for r, v in effects.effects.items()]
        notes = [f"Value of the full shoe: {style.plain(effects.base)}. Each row: the exact change of the value "
                 "when one card of that rank leaves the shoe (composition-dependent optimal play)."]
    return [Table(title, columns, rows, notes)]


def full_game_tables(effects: FullGameRemovalEffects, style: Any) -> list[Any]:
    """The full game's value and its change per rank removed, as one table (per cent of the
    bet when ``style.percent``)."""
    unit = " (% of the bet)" if style.percent and not style.exact else ""
    title = f"Value of the full game{unit}: {effects.rules.describe()}"
    rows = [[f"-{rank_symbol(r)}", "n/a" if v is None else v] for r, v in effects.effects.items()]
    notes = [f"Expected result of a round with the full shoe: {style.plain(effects.base)} per unit initial bet "
             f"(house edge {style.plain(-effects.base)}). Each row: the exact change of the expected result when "
             "one card of that rank leaves the shoe before the round (optimal composition-dependent play, "
             "re-optimised for each shoe)."]
    return [Table(title, ["removed", "change"], rows, notes)]
