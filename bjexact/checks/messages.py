"""The dealer checks' and identifications' reports for people.
"""

from __future__ import annotations

from ..core.numbers import fraction_string, mpq
from .dealer_tables import CellCheck, DealerCheck, RowCheck
from .identify import Identification, describe_conventions
from .printed import PrintedTable

__all__ = ["format_cell", "format_check", "format_identification"]


# --- reports for people ------------------------------------------------------------------------------------


def _units(table: PrintedTable) -> str:
    return "percentage points" if table.scale == "percent" else "probability"


def short_text(value: mpq, digits: int = 3) -> str:
    """A signed decimal with ``digits`` significant digits, for errors."""
    x = float(value)
    return "0" if x == 0 else f"{x:+.{digits}g}"


def format_cell(row: RowCheck, cell: CellCheck) -> str:
    """One line for a cell: where it is, what is printed, the exact value, the error, what is allowed."""
    allowed = "exactly" if not cell.allowed else f"allowed +-{float(cell.allowed):.3g}"
    extra = ""
    if cell.printed.kind in ("long", "float"):
        extra = f", {cell.ulps:.3g} ulps"
    times = " x 100" if cell.scaled_exact != cell.exact else ""
    return (f"line {row.row.line}, row {row.row.label}, column {cell.column}: printed {cell.printed.text}, "
            f"exact {cell.exact_decimal()}... (= {fraction_string(cell.exact)}{times}), "
            f"error {short_text(cell.error)}{extra}, {allowed}")


def format_check(check: DealerCheck, *, show_all: bool = False, suggest_identify: bool = True) -> str:
    """The per-row, per-cell report of one check, with a summary and a verdict.

    ``suggest_identify``: an inconsistent verdict suggests ``--identify`` (left out in the
    report of :func:`format_identification`, which has tried it).
    """
    table = check.table
    lines = [f"{table.source}: {len(table.rows)} rows read ({table.layout} layout, values as "
             f"{'percentages' if table.scale == 'percent' else 'probabilities'}), checked against "
             f"the exact values for {check.rules.describe()}", ""]
    width = max([len(r.row.label) for r in check.rows] + [3])
    widths = [max(len(c), 2) for c in table.columns]
    header = "  ".join(c.rjust(w) for c, w in zip(table.columns, widths, strict=True))
    lines.append("row".ljust(width) + "  " + header + "  verdict")
    for row in check.rows:
        marks = ["ok" if c.consistent else "X" for c in row.cells]
        bad = len(row.inconsistent)
        verdict = "consistent" if not bad else f"{bad} cell{'s' if bad > 1 else ''} off"
        lines.append(row.row.label.ljust(width) + "  "
                     + "  ".join(m.rjust(w) for m, w in zip(marks, widths, strict=True)) + "  " + verdict)
    listed = [(r, c) for r in check.rows for c in r.cells] if show_all else list(check.inconsistent_cells)
    if listed:
        lines += ["", "Every cell:" if show_all else "Cells that disagree (printed vs exact):"]
        lines += ["  " + format_cell(r, c) + ("" if c.consistent else "  <-- inconsistent")
                  for r, c in listed]
    rows_ok = sum(r.consistent for r in check.rows)
    lines.append("")
    summary = (f"Summary: {rows_ok} of {len(check.rows)} rows consistent; {len(check.inconsistent_cells)} of "
               f"{len(check.cells)} cells inconsistent; largest error {float(check.max_abs_error):.3g} "
               f"{_units(table)}")
    worst = check.worst
    if worst is not None and worst[1].error:
        summary += f" (row {worst[0].row.label}, column {worst[1].column})"
    lines.append(summary + ".")
    lines.append("Verdict: " + (
        "CONSISTENT: every cell is the exact value as printed." if check.consistent
        else "INCONSISTENT with these rules: see the cells above"
             + (" (or try --identify)." if suggest_identify else ".")))
    return "\n".join(lines) + "\n"


def format_identification(identification: Identification, *, limit: int = 5) -> str:
    """The conventions consistent with a table, best first; otherwise the nearest and why."""
    matches = identification.matches
    source = identification.best.table.source
    lines = []
    if matches:
        lines.append(f"{source}: consistent with {len(matches)} of {len(identification.checks)} "
                     "conventions tried, best first:")
        for n, check in enumerate(matches, start=1):
            lines.append(f"  {n}. {check.rules.describe()} (largest error {float(check.max_abs_error):.3g} "
                         f"{_units(check.table)})")
        others = [c for c in identification.checks if not c.consistent][:3]
        if others:
            lines.append("Nearest of the others:")
            lines += [f"  {c.rules.describe()}: {len(c.inconsistent_cells)} cells disagree" for c in others]
        return "\n".join(lines) + "\n"
    tried = describe_conventions([c.rules for c in identification.checks])
    lines.append(f"{source}: no convention tried ({len(identification.checks)}: {tried}) fits. Nearest first:")
    for check in identification.checks[:limit]:
        lines.append(f"  {check.rules.describe()}: {len(check.inconsistent_cells)} of {len(check.cells)} "
                     "cells disagree")
    if identification.explanations:
        lines += ["", "What the pattern suggests:"]
        lines += [f"  - {e}" for e in identification.explanations]
    lines += ["", "The nearest convention, cell by cell:", ""]
    lines.append(format_check(identification.best, suggest_identify=False))
    return "\n".join(lines)
