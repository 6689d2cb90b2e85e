"""Which convention (decks, S17/H17, naturals) a printed dealer table follows, and why it fits none.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import rank_symbol
from ..core.numbers import mpq
from ..core.rules import Rules
from .dealer_tables import DealerCheck, Tolerance, check_dealer_table, decimal_text, exact_cell, exact_dealer_table
from .printed import TOTAL, PrintedNumber, PrintedTable
from .slips import KNOWN_SLIPS, slipped_dealer_table

__all__ = ["CONVENTIONS", "DECKS", "Identification", "conventions", "identify", "explain_mismatch"]


# --- conventions -------------------------------------------------------------------------------------------

DECKS = ("inf", 1, 2, 3, 4, 6, 8)
CONVENTIONS: tuple[Rules, ...] = tuple(
    Rules(decks=d, h17=h, naturals=n)
    for d in DECKS
    for h in (False, True)
    for n in ("as21", "separate", "peek")
)


def conventions(
    shoe: Rules | None = None, *, h17: bool | None = None, naturals: str | None = None
) -> tuple[Rules, ...]:
    """The conventions :func:`identify` tries, restricted to the shoe of ``shoe`` (rules whose
    ``h17`` and ``naturals`` are ignored), to ``h17`` and to ``naturals`` when those are given."""
    from dataclasses import replace

    shoes = CONVENTIONS if shoe is None else (shoe,)
    chosen = []
    for base in dict.fromkeys(replace(r, h17=False, naturals="as21") for r in shoes):
        for h in (False, True) if h17 is None else (h17,):
            for n in ("as21", "separate", "peek") if naturals is None else (naturals,):
                chosen.append(replace(base, h17=h, naturals=n))
    return tuple(chosen)


def describe_conventions(rules: Sequence[Rules]) -> str:
    """``decks inf/1/2, S17/H17, naturals as21/peek`` for a set of conventions."""
    shoes = dict.fromkeys("shoe " + ",".join(map(str, r.shoe)) if r.shoe is not None
                          else "inf" if r.infinite else str(r.decks) for r in rules)
    decks = sorted((s for s in shoes if not s.startswith("shoe")), key=lambda s: -1 if s == "inf" else int(s))
    parts = (["decks " + "/".join(decks)] if decks else []) + [s for s in shoes if s.startswith("shoe")]
    parts.append("/".join(name for h, name in ((False, "S17"), (True, "H17")) if any(r.h17 == h for r in rules)))
    parts.append("naturals " + "/".join(n for n in ("as21", "separate", "peek") if any(r.naturals == n for r in rules)))
    return ", ".join(parts)


@dataclass(frozen=True)
class Identification:
    """Every convention's check of one table, best first, and explanations when none fits."""

    checks: tuple[DealerCheck, ...]
    explanations: tuple[str, ...] = ()

    @property
    def matches(self) -> tuple[DealerCheck, ...]:
        return tuple(c for c in self.checks if c.consistent)

    @property
    def best(self) -> DealerCheck:
        return self.checks[0]

    def to_json(self, nearest: int = 5) -> dict[str, Any]:
        """The consistent conventions, best first; when there is none, the ``nearest`` few."""
        shown = self.matches or self.checks[:nearest]
        return {
            "consistent": bool(self.matches),
            "matches": [
                {
                    "rules": c.rules.to_json(),
                    "description": c.rules.describe(),
                    "consistent": c.consistent,
                    "inconsistent_cells": len(c.inconsistent_cells),
                    "max_abs_error": float(c.max_abs_error),
                }
                for c in shown
            ],
            "explanations": list(self.explanations),
            "nearest": None if self.matches else self.best.to_json(),
        }


def identify(
    table: PrintedTable,
    conventions: Iterable[Rules] = CONVENTIONS,
    tolerance: Tolerance = Tolerance(),
    *,
    explain: bool = True,
) -> Identification:
    """Check ``table`` under each convention; rank them (consistent first, then fewest bad cells).

    When none is consistent and ``explain`` is set, :func:`explain_mismatch` says why.
    """
    checks = sorted((check_dealer_table(table, r, tolerance) for r in conventions), key=lambda c: c.score)
    explanations: tuple[str, ...] = ()
    if explain and not checks[0].consistent:
        explanations = tuple(explain_mismatch(table, checks, tolerance))
    return Identification(tuple(checks), explanations)


def explain_mismatch(table: PrintedTable, checks: Sequence[DealerCheck], tolerance: Tolerance) -> list[str]:
    """Sentences that account for a table no convention fits (best-ranked ``checks`` first)."""
    notes: list[str] = []
    slips, explained = _slip_notes(table, checks, tolerance)
    notes += slips
    notes += _row_sum_notes(table)
    notes += _permutation_notes(table, checks[:3], tolerance)
    notes += _rows_under_other_rules(checks, explained)
    if not notes:
        best = checks[0]
        notes.append(
            f"No pattern found: the nearest convention, {best.rules.describe()}, disagrees in "
            f"{len(best.inconsistent_cells)} of {len(best.cells)} cells."
        )
    return notes


def _row_sum_notes(table: PrintedTable) -> list[str]:
    """Rows whose printed values cannot sum to 1 (100%) whatever the rounding."""
    outcome_columns = [i for i, c in enumerate(table.columns) if c not in ("sum", "blackjack", "exhausted")]
    if len(outcome_columns) < 6:
        return []  # not every outcome is printed: the sum tells nothing
    has_bj = "blackjack" in table.columns
    notes = []
    short = []
    for row in table.rows:
        indices = outcome_columns + ([table.columns.index("blackjack")] if has_bj else [])
        cells = [row.cells[i] for i in indices]
        total = sum((c.value for c in cells), mpq(0))
        slack = sum((c.unit / 2 if c.kind == "rounded" else abs(c.value) / 10**6 for c in cells), mpq(0))
        if abs(total - table.factor) > slack:
            short.append(f"{row.label} ({decimal_text(total, 6).rstrip('0').rstrip('.')})")
    if short:
        unit = "100" if table.factor == 100 else "1"
        notes.append(
            f"Rows that do not sum to {unit} even allowing for rounding: {', '.join(short)}. "
            + ("An outcome is missing or counted twice in them." if len(short) < len(table.rows) else
               "Perhaps an outcome (such as the dealer's naturals) is left out without renormalising.")
        )
    return notes


def _rows_under_other_rules(checks: Sequence[DealerCheck], explained: frozenset[int] = frozenset()) -> list[str]:
    """For the nearest convention's bad rows: the conventions under which each of them matches.

    Rows in ``explained`` (indices of rows a known slip reproduces) are left out.
    """
    best = checks[0]
    bad = [i for i, r in enumerate(best.rows) if not r.consistent]
    if not bad or len(bad) == len(best.rows):
        return []
    bad = [i for i in bad if i not in explained]
    groups: dict[str, list[str]] = {}
    for i in bad:
        fitting = [c.rules for c in checks if c.rows[i].consistent]
        key = _describe_rules_set(fitting) if fitting else ""
        groups.setdefault(key, []).append(best.rows[i].row.label)
    notes = []
    for key, labels in groups.items():
        rows = f"Row{'s' if len(labels) > 1 else ''} {', '.join(labels)}"
        if key:
            notes.append(f"{rows} do{'' if len(labels) > 1 else 'es'} not match {best.rules.describe()} "
                         f"but match{'' if len(labels) > 1 else 'es'} {key}.")
        else:
            notes.append(f"{rows} match{'' if len(labels) > 1 else 'es'} no convention tried.")
    return notes


def _describe_rules_set(rules: Sequence[Rules]) -> str:
    shown = [r.describe() for r in rules[:3]]
    more = f" (and {len(rules) - 3} more)" if len(rules) > 3 else ""
    return "; ".join(shown) + more


def _permutation_notes(table: PrintedTable, checks: Sequence[DealerCheck], tolerance: Tolerance) -> list[str]:
    """Columns (or rows) whose printed values match another column (row) of the exact table."""
    notes: list[str] = []
    for check in checks:
        exact = exact_dealer_table(check.rules)
        columns = list(table.columns)
        # column c printed matches exact column d in every row?
        fits = {}
        for i, printed_column in enumerate(columns):
            fits[printed_column] = [
                d for d in columns
                if all(_matches(row.cells[i], exact_cell(exact, row.upcard, d) * table.factor, tolerance)
                       for row in table.rows)
            ]
        moved = {c: f[0] for c, f in fits.items() if len(f) == 1 and f[0] != c and c not in f}
        if moved and all(len(f) == 1 for f in fits.values()):
            pairs = ", ".join(f"the column headed {c} holds the exact {d}" for c, d in moved.items())
            notes.append(f"Swapped columns: {pairs} ({check.rules.describe()}); with the labels "
                         "exchanged every cell matches.")
            return notes
        relabelled = []
        for row in check.rows:
            if row.consistent or row.row.upcard == TOTAL:
                continue
            for u in exact.rows:
                if u != row.row.upcard and all(
                    _matches(p, exact_cell(exact, u, col) * table.factor, tolerance)
                    for p, col in zip(row.row.cells, columns, strict=True)
                ):
                    relabelled.append(f"row {row.row.label} (line {row.row.line}) holds the exact row of "
                                      f"up-card {rank_symbol(u)}")
        if relabelled:
            notes.append(f"Swapped rows under {check.rules.describe()}: " + "; ".join(relabelled) + ".")
            return notes
    return notes


def _matches(printed: PrintedNumber, scaled_exact: mpq, tolerance: Tolerance) -> bool:
    return abs(printed.value - scaled_exact) <= tolerance.allowed(printed, scaled_exact)


def _slip_notes(
    table: PrintedTable, checks: Sequence[DealerCheck], tolerance: Tolerance
) -> tuple[list[str], frozenset[int]]:
    """Known slips under the nearest few conventions that reproduce the table (or come closer),
    and the indices of the rows that a slip explains (consistent with the slipped table, not
    with the nearest convention)."""
    notes = []
    seen: set[Rules] = set()
    candidates = []
    for check in checks:
        if check.rules not in seen:
            seen.add(check.rules)
            candidates.append(check)
        if len(candidates) == 4:
            break
    best_bad = len(checks[0].inconsistent_cells)
    explained: set[int] = set()
    for slip in KNOWN_SLIPS.values():
        results = []
        for check in candidates:
            slipped = check_dealer_table(table, slipped_dealer_table(check.rules, slip), tolerance)
            results.append(slipped)
        results.sort(key=lambda c: c.score)
        top = results[0]
        bad = len(top.inconsistent_cells)
        if bad == 0:
            notes.append(f"Known slip: the table matches {top.rules.describe()} computed with the slip "
                         f"'{slip.name}': {slip.description}")
        elif bad < best_bad / 2:
            notes.append(f"Known slip, in part: with the slip '{slip.name}' ({slip.description}) under "
                         f"{top.rules.describe()}, {bad} cells disagree instead of {best_bad}.")
        else:
            continue
        explained |= {i for i, row in enumerate(top.rows) if row.consistent and not checks[0].rows[i].consistent}
    return notes, frozenset(explained)
