"""Tables for ``bjexact sidebet --removal`` and ``--by-count`` (the command layer: they read the
counting package's results)."""

from __future__ import annotations

from typing import Any

from ..core.numbers import mpq
from ..core.text import NumberStyle, Table
from ..counting.sidebets import RemovalEffects, ValueByCount
from ..sidebets.suits import FACE_SYMBOLS, SUIT_SYMBOLS, SUITS, Card

__all__ = ["removal_tables", "by_count_tables"]


def _correlation(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _tag(value: int) -> str:
    return f"{value:+d}" if value else "0"


def removal_tables(effects: RemovalEffects, style: NumberStyle) -> list[Table]:
    """The effect of each rank (and, where the bet sees suits, of each card, as a grid rank x suit) and
    the counts' betting correlations."""
    a = effects.analysis
    where = f"{a.bet.title}, {a.rules_text}"
    hi_lo = next(c for c in effects.correlations if c.name == "hi-lo")
    signs = next(c for c in effects.correlations if c.name.startswith("signs of the effects, by rank"))
    faces = effects.faces
    rows: list[list[Any]] = []
    for r, sign in zip(effects.ranks, signs.tags):
        value = min(r.rank, 10) if faces else r.rank
        rows.append([r.symbol, str(r.cards), r.effect, _tag(hi_lo.tags[value - 1]), _tag(sign)])
    zero = ("They sum to exactly zero weighted by the cards (the average over a removed card of the value "
            "without it is the full shoe's value, by exchangeability)." if effects.sums_to_zero else
            "Weighted by the cards they sum to " + style.value_text(effects.weighted_sum, 8) + ", not zero: "
            "this bet's value is conditioned on no dealer natural (peek), a ratio, whose average over a "
            "removed card is not the ratio of the averages.")
    notes = [f"effect: the exact change of the bet's expected result per unit staked when one card of the rank "
             f"leaves the full shoe (value {style.value_text(a.expected)})"
             + ("; a rank's effect averages its cards' (the suit unseen)" if effects.suits else "") + ".",
             zero,
             "Ranks: " + ("the 13 ranks (the bet tells a ten from a jack, queen and king)." if faces else
                          "card values (the bet sees values only: T is any ten-valued card)."),
             *a.conventions]
    tables = [Table(f"Effects of removal: {where}", ["rank", "cards", style.value_header("effect"), "Hi-Lo tag",
                                                     "sign count"], rows, notes, section="ranks")]
    if effects.cards:
        by_card = {c.card: c for c in effects.cards}
        grid: list[list[Any]] = []
        for face in range(1, 14):
            cells: list[Any] = [FACE_SYMBOLS[face - 1]]
            for suit in SUITS:
                found = by_card.get(Card(face, suit))
                cells.append(found.effect if found is not None else "-")
            grid.append(cells)
        tables.append(Table(f"Effects of removal by card: {where}", ["rank", *(f"{s} ({style.value_units})"
                                                                            for s in SUIT_SYMBOLS)], grid,
                            ["The exact change of the bet's expected result when one card of that rank and suit "
                             "leaves the shoe; '-': none in the shoe."], section="cards"))
    columns = ["count", "tags A..T" if not faces else "tags", "over ranks"] + (["over cards"] if effects.cards else [])
    body = []
    for c in effects.correlations:
        tags = ("the effects" if not c.tags else "+1, 0 or -1 per card" if len(c.tags) > 13
                else " ".join(_tag(t) for t in c.tags))
        body.append([c.name, tags, _correlation(c.over_ranks)]
                    + ([_correlation(c.over_cards)] if effects.cards else []))
    tables.append(Table(f"Betting correlation: {where}", columns, body, [
        "The correlation of a count's tags with the effects of removal, weighted by the shoe's cards"
        + (" (over cards: the tags of each card's rank against each card's effect)" if effects.cards else "")
        + ". The best linear count tags each card with its effect: its correlation is 1 by definition; "
          "the sign count tags each rank +1, 0 or -1 by the sign of its effect (by card: of each card's)."],
        section="correlation"))
    return tables


def by_count_tables(found: ValueByCount, style: NumberStyle) -> list[Table]:
    """The bet's value at each true count, with the count where it becomes positive."""
    a = found.analysis
    made = any(r.made != 1 for r in found.rows)
    columns = ["true count", style.chance_header("chance")] + ([style.chance_header("bet made")] if made else []) \
        + [style.value_header("expected")]
    rows: list[list[Any]] = []
    last = len(found.rows) - 1
    for k, r in enumerate(found.rows):
        label = f"{r.true_count:+d}" if r.true_count else "0"
        if k == 0 and r.true_count == -found.span:
            label = f"<= {label}"
        elif k == last and r.true_count == found.span:
            label = f">= {label}"
        rows.append([label, r.chance] + ([r.made] if made else []) + [r.expected])
    decks = mpq(found.unseen, 52)
    if found.positive_from is not None:
        positive = f"The bet is positive from true count {found.positive_from:+d} up (floored)."
    else:
        positive = ("The bet is positive at every true count." if all(r.expected > 0 for r in found.rows) else
                    "The bet is not positive from any true count up within the span.")
    crossing = ("" if found.crossing is None else
                f" Its value crosses zero at true count {float(found.crossing):+.2f} (the straight line between "
                "the exact values at the two running counts around it).")
    notes = [
        f"{found.seen} cards seen before the round, {found.unseen} unseen ({float(decks):.2f} decks); the true "
        f"count: the running count of the cards seen ({found.system.name}) per deck unseen, floored"
        + ("" if found.system.balanced else ", read as balanced (less the shoe's mean tag per card seen)")
        + f"; counts beyond {found.span:+d} pooled at the ends.",
        "expected: the bet's exact expected result per unit staked averaged over every composition of the cards "
        "seen with that true count, each with its exact chance (computed by exchangeability, without listing "
        "them); chance: of the true count at that depth." + (" bet made: the chance that no dealer natural ends "
                                                           "the round at the peek." if made else ""),
        positive + crossing,
        f"Full shoe: {style.value_text(a.expected)}.",
        *a.conventions,
    ]
    return [Table(f"Value by true count: {a.bet.title}, {a.rules_text}, {found.system.name}", columns, rows, notes,
                  section="by count")]
