"""A side bet's analysis as tables: the pay table with each line's chance, return and share; the
summary; by up-card for bets after the up-card; and one table by decks for several shoes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.cards import rank_symbol
from ..core.numbers import mpq
from ..core.text import NumberStyle, Table
from ..sidebets.analysis import LOSES, SideBetAnalysis
from ..sidebets.bets import pays_text

__all__ = ["sidebet_tables", "sidebet_json", "sidebet_list_table", "sidebet_list_json"]


def _decks(analysis: SideBetAnalysis) -> str:
    return "inf" if analysis.shoe.replacement else str(analysis.shoe.uniform or analysis.shoe.describe())


def _sd(analysis: SideBetAnalysis, style: NumberStyle) -> str:
    return f"{analysis.standard_deviation(30):.{max(style.decimals, 4)}f}"


def _decks_heading(analysis: SideBetAnalysis) -> str:
    decks = _decks(analysis)
    return "infinite" if decks == "inf" else f"{decks} deck{'s' if decks != '1' else ''}"


def line_table(analysis: SideBetAnalysis, style: NumberStyle) -> Table:
    """The pay table: each line's pays, combinations (first-card bets), chance, return and share."""
    combos = analysis.total_combinations is not None
    columns = ["line", "pays"] + (["combinations"] if combos else []) + [
        style.chance_header("chance"), style.value_header("return"), style.chance_header("share")]
    rows: list[list[Any]] = []
    for line in analysis.lines:
        row: list[Any] = [line.name, "-" if line.pays is None else pays_text(line.pays)]
        if combos:
            row.append(f"{line.combinations:,}")
        row += [line.chance, line.contribution, analysis.share(line) if line.pays is not None else ""]
        rows.append(row)
    total: list[Any] = ["total", ""] + ([f"{analysis.total_combinations:,}"] if combos else [])
    rows.append(total + [sum((line.chance for line in analysis.lines), mpq(0)), analysis.expected, mpq(1)])
    notes = ["pays: to 1 (the stake comes back too); return: chance x result, the lines' parts of the expected "
             "result; share: the part of what the bet pays back (stake included) that each line pays.",
             *analysis.conventions]
    return Table(f"{analysis.bet.title}: {analysis.rules_text}", columns, rows, notes, section="lines")


def summary_table(analysis: SideBetAnalysis, style: NumberStyle) -> Table:
    rows: list[list[Any]] = [
        ["return (paid back per unit staked)", analysis.returned],
        ["house edge", analysis.house_edge],
        ["hit frequency", analysis.hit_frequency],
        ["variance (per unit staked, squared)", _plain(analysis.variance, style)],
        ["standard deviation (per unit staked)", _sd(analysis, style)],
    ]
    return Table(f"Summary ({style.chance_units}): {analysis.bet.title}, {analysis.rules_text}", ["measure", "value"],
                 rows, ["The standard deviation is the square root of the exact variance, rounded."],
                 section="summary")


def _plain(value: mpq, style: NumberStyle) -> str:
    """A number that is not a chance: never a percentage."""
    return NumberStyle(decimals=max(style.decimals, 4), percent=False, exact=style.exact).plain(value)


def upcard_table(analysis: SideBetAnalysis, style: NumberStyle) -> Table:
    rows = [[rank_symbol(u.upcard), u.chance, u.paid, u.expected] for u in analysis.by_upcard]
    return Table(f"By up-card: {analysis.bet.title}, {analysis.rules_text}",
                 ["up-card", style.chance_header("chance"), style.chance_header("paid"),
                  style.value_header("expected")], rows,
                 ["chance: of the up-card among the bets made; paid: P(a line pays | up-card); expected: the "
                  "expected result given the up-card."], section="by up-card")


def by_decks_tables(analyses: Sequence[SideBetAnalysis], style: NumberStyle) -> list[Table]:
    """Several shoes: the summary by decks, then each line's chance by decks."""
    first = analyses[0]
    rules = first.rules_text.split(", ", 1)[1] if ", " in first.rules_text else ""
    title = f"{first.bet.title} by decks" + (f": {rules}" if rules else "")
    summary = Table(title, ["decks", style.value_header("house edge"), style.chance_header("hit frequency"),
                            "standard deviation", style.chance_header("return")],
                    [[_decks(a), a.house_edge, a.hit_frequency, _sd(a, style), a.returned] for a in analyses],
                    list(first.conventions), section="by decks")
    names = [line.name for line in first.lines]
    lines = Table(f"Line chances by decks ({style.chance_units}): {first.bet.title}",
                  ["line", "pays"] + [_decks_heading(a) for a in analyses],
                  [[name, "-" if first.lines[k].pays is None else pays_text(first.lines[k].pays)]
                   + [a.lines[k].chance for a in analyses] for k, name in enumerate(names)],
                  section="line chances")
    return [summary, lines]


def sidebet_tables(analyses: Sequence[SideBetAnalysis], style: NumberStyle) -> list[Table]:
    """One shoe: the pay table, the summary and (bets after the up-card) the table by up-card;
    several: the tables by decks."""
    if len(analyses) > 1:
        return by_decks_tables(analyses, style)
    analysis = analyses[0]
    tables = [line_table(analysis, style), summary_table(analysis, style)]
    if analysis.by_upcard:
        tables.append(upcard_table(analysis, style))
    return tables


def sidebet_json(analyses: Sequence[SideBetAnalysis]) -> dict[str, Any]:
    """``{"bet": name, "analyses": [one per number of decks]}`` (keys: ``bjexact sidebet --help``)."""
    return {"bet": analyses[0].bet.name, "analyses": [a.to_json() for a in analyses]}


def sidebet_list_table(bets: Sequence[Any]) -> Table:
    rows = [[bet.name, bet.title, str(bet.settled), "+".join(bet.sees), bet.about] for bet in bets]
    return Table("Built-in side bets", ["name", "title", "settled", "sees", "about"], rows,
                 [f"{LOSES!r}: every deal no line pays loses the stake. Over/Under 13 is two bets, under-13 and "
                  "over-13."], section="bets")


def sidebet_list_json(bets: Sequence[Any]) -> dict[str, Any]:
    return {"bets": [{"name": bet.name, "title": bet.title, "settled": str(bet.settled), "sees": list(bet.sees),
                      "about": bet.about} for bet in bets]}
