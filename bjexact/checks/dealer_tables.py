"""Checking a printed dealer table cell by cell against the exact one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from ..core.cards import RANKS, rank_symbol
from ..core.numbers import fraction_string, mpq
from ..core.rules import Rules
from ..core.text import NumberStyle
from ..dealer.distributions import DealerTable, average_row, dealer_table
from ..errors import BjexactError
from .printed import TOTAL, PrintedNumber, PrintedRow, PrintedTable

__all__ = [
    "Tolerance", "CellCheck", "RowCheck", "DealerCheck", "check_dealer_table", "cached_dealer_table",
    "upcard_weights", "exact_cell",
]


# --- checking ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tolerance:
    """How far a long float (or a float handed over) may be from the exact value, in the table's units.

    Consistent when ``|error| <= atol + rtol * |exact|``; with ``max_ulps`` set,
    when the error is at most that many float64 units in the last place instead.
    """

    rtol: float = 1e-9
    atol: float = 1e-15
    max_ulps: int | None = None

    def __post_init__(self) -> None:
        for name in ("rtol", "atol"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or value < 0:
                raise BjexactError(f"{name} must be a finite number >= 0, not {value!r}")
        if self.max_ulps is not None and (isinstance(self.max_ulps, bool) or not isinstance(self.max_ulps, int)
                                          or self.max_ulps < 0):
            raise BjexactError(f"max_ulps must be a whole number >= 0, not {self.max_ulps!r}")

    def allowed(self, number: PrintedNumber, exact: mpq) -> mpq:
        """The largest error consistent with ``number`` (exact, as a rational)."""
        if number.kind == "fraction":
            return mpq(0)
        if number.kind == "rounded":
            return number.unit / 2
        if self.max_ulps is not None:
            return self.max_ulps * mpq(Fraction(math.ulp(float(exact))))
        rounded = number.unit / 2 if number.kind == "long" else mpq(0)
        return max(rounded, mpq(Fraction(self.atol)) + mpq(Fraction(self.rtol)) * abs(exact))


@dataclass(frozen=True)
class CellCheck:
    """One cell judged: ``exact`` is the probability, ``error`` = printed - exact in printed units."""

    column: str
    printed: PrintedNumber
    exact: mpq
    scaled_exact: mpq
    error: mpq
    allowed: mpq

    @property
    def consistent(self) -> bool:
        return abs(self.error) <= self.allowed

    @property
    def ulps(self) -> float:
        """The error in float64 units in the last place at the exact value."""
        ulp = math.ulp(float(self.scaled_exact)) if self.scaled_exact else math.ulp(0.0)
        return float(abs(self.error)) / ulp

    @property
    def relative_error(self) -> float | None:
        return float(abs(self.error) / abs(self.scaled_exact)) if self.scaled_exact else None

    def exact_decimal(self) -> str:
        """The exact value in the printed units, to three more places than printed."""
        places = (self.printed.decimals if self.printed.decimals is not None else 14) + 3
        return decimal_text(self.scaled_exact, places)

    def to_json(self) -> dict[str, Any]:
        data = {
            "column": self.column,
            "printed": self.printed.text,
            "exact": fraction_string(self.exact),
            "exact_decimal": self.exact_decimal(),
            "error": float(self.error),
            "allowed": float(self.allowed),
            "consistent": self.consistent,
        }
        if self.printed.kind in ("long", "float"):
            data["relative_error"] = self.relative_error
            data["ulps"] = self.ulps
        return data


def decimal_text(value: mpq, places: int) -> str:
    return NumberStyle(decimals=places, percent=False).plain(value)


@dataclass(frozen=True)
class RowCheck:
    """One row judged, with the sum of its printed values (in printed units)."""

    row: PrintedRow
    cells: tuple[CellCheck, ...]

    @property
    def consistent(self) -> bool:
        return all(c.consistent for c in self.cells)

    @property
    def upcard_symbol(self) -> str | None:
        return None if self.row.upcard == TOTAL else rank_symbol(self.row.upcard)

    @property
    def inconsistent(self) -> tuple[CellCheck, ...]:
        return tuple(c for c in self.cells if not c.consistent)

    def to_json(self) -> dict[str, Any]:
        return {
            "row": self.row.label,
            "line": self.row.line,
            "upcard": self.upcard_symbol,
            "consistent": self.consistent,
            "cells": [c.to_json() for c in self.cells],
        }


@dataclass(frozen=True)
class DealerCheck:
    """A printed dealer table checked against the exact table of ``rules``."""

    rules: Rules
    table: PrintedTable
    rows: tuple[RowCheck, ...]

    @property
    def consistent(self) -> bool:
        return all(r.consistent for r in self.rows)

    @property
    def cells(self) -> tuple[CellCheck, ...]:
        return tuple(c for r in self.rows for c in r.cells)

    @property
    def inconsistent_cells(self) -> tuple[tuple[RowCheck, CellCheck], ...]:
        return tuple((r, c) for r in self.rows for c in r.cells if not c.consistent)

    @property
    def max_abs_error(self) -> mpq:
        return max((abs(c.error) for c in self.cells), default=mpq(0))

    @property
    def worst(self) -> tuple[RowCheck, CellCheck] | None:
        """The cell with the largest error relative to what its printing allows."""
        pairs = [(r, c) for r in self.rows for c in r.cells]
        return max(pairs, key=lambda rc: _badness(rc[1]), default=None)

    @property
    def score(self) -> tuple[int, float]:
        """For ranking conventions: inconsistent cells, then the total excess error."""
        return len(self.inconsistent_cells), sum(_badness(c) for c in self.cells if not c.consistent)

    def to_json(self) -> dict[str, Any]:
        return {
            "consistent": self.consistent,
            "rules": self.rules.to_json(),
            "scale": self.table.scale,
            "rows": [r.to_json() for r in self.rows],
            "max_abs_error": float(self.max_abs_error),
            "summary": {
                "rows": len(self.rows),
                "rows_consistent": sum(r.consistent for r in self.rows),
                "cells": len(self.cells),
                "cells_inconsistent": len(self.inconsistent_cells),
            },
        }


def _badness(cell: CellCheck) -> float:
    """How many allowed errors the error is (large and finite when nothing may differ)."""
    error = abs(cell.error)
    if error <= cell.allowed:
        return float(error / cell.allowed) if cell.allowed else 0.0
    if not cell.allowed:
        return 1e6 * float(error / max(abs(cell.scaled_exact), mpq(1, 10**6)))
    return float(error / cell.allowed)


def exact_dealer_table(rules_or_table: Any):
    if isinstance(rules_or_table, DealerTable):
        return rules_or_table
    if isinstance(rules_or_table, Rules):
        return cached_dealer_table(rules_or_table)
    raise BjexactError(f"expected Rules or a DealerTable, not {type(rules_or_table).__name__}")


@cache
def cached_dealer_table(rules: Rules):
    """:func:`bjexact.dealer.dealer_table`, computed once per rule set."""

    return dealer_table(rules)


def upcard_weights(rules: Rules) -> dict[int, mpq]:
    """P(up-card) for each rank in the full shoe of ``rules``.

    These are the weights of a "Total" row without ``peek``; under ``peek`` each is
    multiplied by P(no natural | up-card) and renormalised (see :func:`bjexact.dealer.average_row`).
    """
    return dict(zip(RANKS, rules.make_shoe().draw_probabilities(), strict=True))


def exact_cell(exact_table: Any, upcard: int, column: str) -> mpq:
    """The exact probability of ``column`` in the row of ``upcard``.

    ``TOTAL``: the row of :func:`bjexact.dealer.average_row`, the average over the up-cards
    (under ``peek``: P(outcome | no dealer natural)).

    A ``blackjack`` column is 0 under the conventions that have no such outcome; a
    ``sum`` column is the whole row's sum, 1.
    """
    if upcard == TOTAL:

        average = average_row(exact_table)
        return sum(average.values(), mpq(0)) if column == "sum" else average.get(column, mpq(0))
    if upcard not in exact_table.rows:
        raise BjexactError(f"the shoe holds no {rank_symbol(upcard)}, so the table cannot have its row")
    row = exact_table.rows[upcard]
    if column == "sum":
        return sum(row.values(), mpq(0))
    return row.get(column, mpq(0))


def check_dealer_table(
    table: PrintedTable, rules: Rules | Any, tolerance: Tolerance = Tolerance()
) -> DealerCheck:
    """Judge every cell of ``table`` against the exact table of ``rules`` (or a ``DealerTable``).

    A printed cell is consistent when the exact value rounds to it at its printed
    precision (half a unit of its last digit, see :class:`Tolerance`).

    Examples
    --------
    The 6 row of the infinite deck's table, with 18 misprinted as 0.1073 (exact 0.10627):

    >>> from bjexact.checks.printed import read_dealer_table
    >>> lines = ["upcard 17 18 19 20 21 bust", "6 .1654 .1073 .1063 .1017 .0972 .4232"]
    >>> printed = read_dealer_table("\\n".join(lines))
    >>> check = check_dealer_table(printed, Rules(decks="inf"))
    >>> check.consistent
    False
    >>> [(cell.column, cell.printed.text, f"{float(cell.exact):.5f}") for _, cell in check.inconsistent_cells]
    [('18', '.1073', '0.10627')]
    """
    exact_table = exact_dealer_table(rules)
    rows = []
    for row in table.rows:
        cells = []
        for column, printed in zip(table.columns, row.cells, strict=True):
            exact = exact_cell(exact_table, row.upcard, column)
            scaled = exact * table.factor
            error = printed.value - scaled
            cells.append(CellCheck(column, printed, exact, scaled, error, tolerance.allowed(printed, scaled)))
        rows.append(RowCheck(row, tuple(cells)))
    return DealerCheck(exact_table.rules, table, tuple(rows))
