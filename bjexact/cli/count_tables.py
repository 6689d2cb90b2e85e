"""Tables for ``bjexact count indices`` and ``bjexact count betting`` (the command layer: they read the
apps' published indices and move codes)."""

from __future__ import annotations

from typing import Any

from ..core.cards import UPCARD_ORDER, rank_symbol
from ..core.text import NumberStyle, Table
from ..counting.indices import decision_name
from ..counting.systems import SYSTEMS

__all__ = ["index_tables", "betting_tables", "cell_text"]

_SECTIONS = (("hard", "hard total"), ("soft", "soft total"), ("pairs", "pair"), ("surrender", "surrender, hard total"))


def cell_text(cell: Any, marked: bool) -> str:
    """``S>=+3``: the higher-count move from the index up; ``H<-1``: the lower-count move below it;
    every change of the cell within the span, the basic move alone where nothing changes;
    ``*``: Illustrious 18 or Fab 4."""
    from ..counting.indices import MOVE_CODES

    parts = []
    for change in cell.changes:
        if change.bracket[0] >= 0 or (change.bracket[1] > 0 and change.low == cell.basic):
            parts.append(f"{MOVE_CODES[change.high]}>={change.index:+d}")
        else:
            parts.append(f"{MOVE_CODES[change.low]}<{change.index:+d}")
    text = " ".join(parts) if parts else MOVE_CODES[cell.basic]
    return text + ("*" if marked else "")


def index_tables(chart: Any, style: NumberStyle, run_note: str) -> list[Table]:
    from ..counting.indices import FAB_4, ILLUSTRIOUS_18, MOVE_CODES

    marked = set(ILLUSTRIOUS_18) | set(FAB_4)
    ups = [rank_symbol(u) for u in UPCARD_ORDER]
    tables = []
    plan = chart.plan
    span = plan.span
    for section, label in _SECTIONS:
        rows: dict[str, dict[int, Any]] = {}
        for cell in chart.cells:
            if cell.section == section:
                rows.setdefault(cell.row, {})[cell.upcard] = cell
        if section == "surrender":
            rows = {row: cells for row, cells in rows.items()
                    if any(c.basic == "surrender" or c.changes for c in cells.values())}
        if not rows:
            continue
        body = [[row] + [cell_text(cells[u], cell.key in marked) if (cell := cells.get(u)) else ""
                         for u in UPCARD_ORDER] for row, cells in rows.items()]
        tables.append(Table(f"Index numbers, {label} against the dealer's up-card: {chart.system.name}, "
                            f"{chart.rules.describe()}", [label] + ups, body))
    insurance = [c for c in chart.cells if c.section == "insurance"]
    legend = [f"{code} {move}" for move, code in MOVE_CODES.items() if code not in ("-", "N")]
    partial = [f"{decision_name(c.key)} ({c.counts[0]:+d}..{c.counts[-1]:+d})" for c in chart.cells
               if c.section != "insurance" and len(c.counts) < 2 * span + 1]
    depths = ", ".join(str(d.seen) for d in plan.depths)
    notes = [
        "S>=+3: from true count +3 up play S (the basic move below); H<-1: below -1 play H (the basic move "
        "from -1 up); a move alone: no change within the span; *: Illustrious 18 or Fab 4",
        "moves: " + ", ".join(legend) + "; in the surrender chart '-' is the best other move",
        "insurance: " + (cell_text(insurance[0], True) if insurance else "no ace in the shoe"),
        f"{plan.convention.describe()}; true counts {-span:+d}..{span:+d}; cards seen before the round: {depths}"
        + ("" if len(plan.depths) == 1 else " (each count at each depth weighted by its exact chance)"),
        ("shoes: the exact expected composition given each count, as mixtures of integer shoes"
         if plan.method == "expectation" else "shoes: every composition of the cards unseen, exact chances"),
    ] + ([f"met at some counts only (there): {'; '.join(partial)}"] if 0 < len(partial) <= 8 else
         [f"{len(partial)} cells are met at some counts of the span only (--format json: each cell's counts)"]
         if partial else []) + (
        ["the published Hi-Lo indices are multi-deck numbers: compared on four decks or more"]
        if chart.system.tags == SYSTEMS["hi-lo"] and not chart.compared_with_published else []) + [run_note]
    tables[-1] = Table(tables[-1].title, tables[-1].columns, tables[-1].rows, notes)
    published: list[list[str]] = []
    for name, (index, low, high), cell, change in chart.published():
        if change is None:
            found = "not offered" if cell is None else f"no {MOVE_CODES[low]}/{MOVE_CODES[high]} change"
            published.append([name, f"{MOVE_CODES[high]} >= {index:+d}", found, "", "", "", ""])
            continue
        published.append([name, f"{MOVE_CODES[high]} >= {index:+d}", f"{MOVE_CODES[change.high]} >= {change.index:+d}",
                          f"{float(change.crossing):+.2f}", f"{change.bracket[0]:+d} .. {change.bracket[1]:+d}",
                          f"{change.index - index:+d}", _why(chart, cell, change, index)])
    if not published:
        return tables
    agree = sum(1 for row in published if row[5] == "+0")
    tables.append(Table(
        "The Illustrious 18" + (" and the Fab 4" if chart.rules.surrender != "none" else "")
        + " against the published Hi-Lo indices (multi-deck, S17)",
        ["decision", "published", "exact", "crossing", "counts", "difference", "why"], published,
        [f"{agree} of {len(published)} equal; exact: the index from the crossing under this convention "
         f"({plan.convention.describe()}); crossing: the true count where the exact value difference is zero; "
         "counts: the neighbouring true counts between which the best move changes; difference: exact - "
         "published. Hard totals 12 to 17 count every hand the player holds there, of two cards or more "
         "(after hitting, under the shoe's optimal play); doubles, splits and surrender are two-card decisions. "
         "Published tables come from simulations with their own count reading and rounding (and resplits to "
         "four hands); why: where a row differs, the rule that differs, or how far the crossing lies from the "
         "crossings the published index stands for under this convention's rounding."]))
    return tables
    agree = sum(1 for row in published if row[5] == "+0")
    tables.append(Table(
        "The Illustrious 18" + (" and the Fab 4" if chart.rules.surrender != "none" else "")
        + " against the published Hi-Lo indices (multi-deck, S17)",
        ["decision", "published", "exact", "crossing", "counts", "difference"], published,
        [f"{agree} of {len(published)} equal; exact: the index from the crossing under this convention "
         f"({plan.convention.describe()}); crossing: the true count where the exact value difference is zero; "
         "counts: the neighbouring true counts between which the best move changes; difference: exact - "
         "published. Published tables come from simulations of the whole shoe with the player's own rounding; "
         "a total-dependent index there also covers hands of three or more cards, which this chart (two-card "
         "hands) does not."]))
    return tables


def _why(chart: Any, cell: Any, change: Any, published: int) -> str:
    """Why an index differs from the published one: the split rule for a pair, else how far the
    crossing lies from the crossings ``published`` stands for under the chart's rounding."""
    if change.index == published:
        return ""
    if cell.section == "pairs" and chart.rules.split_hands < 4:
        return f"split to {chart.rules.split_hands} hands (published: 4)"
    low, high = chart.plan.convention.crossings_of(published)
    gap = low - change.crossing if change.crossing < low else change.crossing - high
    return f"crossing {float(gap):.2f} outside {float(low):+.1f} .. {float(high):+.1f}"


def betting_tables(system: Any, rules: Any, figures: Any, griffin: Any, style: NumberStyle, args: Any,
                   run_note: str) -> list[Table]:
    signed = NumberStyle(style.decimals, style.percent, style.exact, signed=True)
    share = NumberStyle(2, True, style.exact)
    units = NumberStyle(style.decimals, False, style.exact)
    missing = "n/a: not computed with resplits on a finite shoe"
    body = [[f"{r.count:+d}", share.plain(r.frequency), signed.plain(r.ev),
             "n/a" if r.variance is None else units.plain(r.variance), units.plain(r.bet)] for r in figures.rows]
    by_count = Table(f"By true count: {system.name}, {rules.describe()}, penetration {args.penetration}",
                     ["true count", "rounds (%)", signed.value_header("EV"), "variance", "bet"], body,
                     ["EV and variance: the round's exact values for the shoe at that true count, optimal play; "
                      "rounds: exact share of rounds at the floored true count (ends pooled)", run_note])
    n0 = figures.n0
    lines = [
        ["win rate per round (units)", units.plain(figures.win_rate)],
        ["win rate per 100 rounds (units)", units.plain(100 * figures.win_rate)],
        ["average bet (units)", units.plain(figures.average_bet)],
        ["SD per round (units)", missing if figures.sd is None else f"{figures.sd:.4f}"],
        ["N0 (rounds)", missing if figures.variance is None else "n/a: not a winning game" if n0 is None
         else f"{float(n0):,.0f}"],
        ["SCORE", missing if figures.variance is None else "n/a" if figures.score is None
         else f"{float(figures.score):.2f}"],
        [f"risk of ruin, bank {units.plain(figures.bank)} units",
         missing if figures.risk_of_ruin is None else f"{100 * figures.risk_of_ruin:.2f}%"],
    ]
    if griffin is not None:
        lines += [["betting correlation", _float(griffin.betting_correlation)],
                  ["insurance correlation", _float(griffin.insurance_correlation)],
                  ["playing efficiency", _float(griffin.playing_efficiency)]]
    summary = Table("Betting figures for the ramp" + (" (Kelly)" if args.kelly else ""), ["figure", "value"], lines,
                    ["N0 = variance / win rate^2; SCORE = 10^6 / N0; risk of ruin = exp(-2 x win rate x bank / "
                     "variance); Griffin's correlations and efficiency from exact effects of removal"])
    return [by_count, summary]


def _float(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"
