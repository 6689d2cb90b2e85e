"""Check printed tables against the exact values: reading them, judging each cell, naming conventions.

Reading
    :func:`read_dealer_table` reads a dealer table as people print it: CSV, TSV,
    semicolon-separated (with decimal commas), whitespace-aligned text, Markdown
    tables and text tables with ``|`` separators and ``-----`` or ``+---+`` rules.
    Lines before the header (titles) and prose lines after it (notes) are skipped.
    The header is the first line with at least three outcome labels (``17`` ..
    ``21``, ``bust``, ``blackjack``/``bj``/``natural``; columns in any order, an
    optional ``sum``/``total`` column). Rows are labelled ``2`` .. ``10``, ``T``,
    ``J``, ``Q``, ``K`` (all ten-valued), ``A``/``Ace``/``1``/``11``, or ``Total``.

Numbers and their precision
    A value is a probability or a percentage (``%`` anywhere in the cells, or any
    value above 1, makes the whole table percentages). Each cell's precision is
    inferred from how it is printed: ``13.98`` claims the exact value lies within
    half a unit of its last digit, ``13.975 <= x <= 13.985``; exact halves count
    either way, since printers round them differently. The comparison is done with
    exact rationals: the printed decimal is converted exactly, never via a float.

    *Long floats* (15 or more significant digits, as ``repr(float)`` prints) carry
    binary rounding noise below their last digit, so half a unit is too strict:
    they are consistent when ``|error| <= atol + rtol * |exact|`` (defaults 1e-15 and
    1e-9, in the table's units), or within ``max_ulps`` units in the last place of a
    float64 when that is given. Exact fractions ``p/q`` must be equal. A dash means 0.

    Errors are printed - exact, in the table's own units (percentage points for a
    percentage table); ``exact`` fractions are always probabilities.

The "Total" row
    The up-card-weighted average of the rows, :func:`bjexact.dealer.average_row`:
    ``sum_u P(up-card u) * row_u`` with ``P(u)`` from the full shoe (4/13 for ten-valued
    cards in the infinite deck), that is P(outcome). Under ``peek`` each row is weighted
    by ``P(u) * P(no natural | u)`` and the sum divided by P(no natural): the Total row is
    P(outcome | the dealer has no natural), conditioned like the rows it averages.

Player tables
    :func:`read_player_table` reads hit/stand policy grids (H/S) and tables of the
    values of standing, hitting or the best move, in hard and soft blocks against the
    up-cards; :func:`check_player_table` judges them against :mod:`bjexact.player`.

Conventions and slips
    :func:`identify` checks a table against every convention of :data:`CONVENTIONS`
    and, when none fits, explains the pattern: rows that match another rule, rows
    that do not sum to 1, swapped columns or rows, and *known slips* such as
    :func:`soft_ace_becomes_hard`, evaluated by :func:`slipped_dealer_table`.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from functools import cache
from typing import Any

from .cards import ACE, RANKS, TEN, Counts, add_counts, counts_of, parse_rank, rank_symbol
from .errors import BjexactError
from .exact import as_rational, fraction_string, mpq, parse_fraction
from .hand import EMPTY_HAND, HandValue, add_card
from .rules import Rules

__all__ = [
    "OUTCOME_COLUMNS",
    "TOTAL",
    "CONVENTIONS",
    "PrintedNumber",
    "PrintedRow",
    "PrintedTable",
    "Tolerance",
    "CellCheck",
    "RowCheck",
    "DealerCheck",
    "Identification",
    "Slip",
    "KNOWN_SLIPS",
    "parse_number",
    "read_dealer_table",
    "dealer_table_from_values",
    "check_dealer_table",
    "identify",
    "soft_ace_becomes_hard",
    "slipped_dealer_table",
    "float_number",
    "exact_cell",
    "upcard_weights",
    "conventions",
    "cached_dealer_table",
    "explain_mismatch",
    "format_cell",
    "format_check",
    "format_identification",
    "PlayerCell",
    "PrintedPlayerTable",
    "PlayerCellCheck",
    "PlayerCheck",
    "read_player_table",
    "check_player_table",
    "format_player_check",
]

OUTCOME_COLUMNS = ("17", "18", "19", "20", "21", "bust", "blackjack", "exhausted", "sum")
TOTAL = 0  # the up-card of the "Total" row: the weighted average of all rows
LONG_DIGITS = 15  # significant digits from which a printed number is a float's repr

# --- printed numbers ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PrintedNumber:
    """A number as printed: its text, exact value (in the printed units) and precision.

    ``kind`` is ``"rounded"`` (consistent within half a ``unit`` of its last digit),
    ``"long"`` (a float's repr: compared with a relative tolerance), ``"float"`` (a
    Python float handed over directly, compared the same way) or ``"fraction"``
    (exact: must be equal). ``percent`` records a ``%`` sign.
    """

    text: str
    value: mpq
    unit: mpq
    kind: str = "rounded"
    percent: bool = False

    @property
    def decimals(self) -> int | None:
        """Decimal places shown (``None`` for fractions and floats)."""
        if self.kind not in ("rounded", "long") or not self.unit:
            return None
        places = 0
        unit = self.unit
        while unit < 1:
            unit *= 10
            places += 1
        return places


_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_FRACTION = re.compile(r"[+-]?\d+\s*/\s*\d+")
_DASHES = {"-", "\u2013", "\u2014", "\u2212"}


def parse_number(text: str, *, decimal_comma: bool = False) -> PrintedNumber | None:
    """Read a printed number: ``0.1398``, ``13.98``, ``13.98%``, ``1.398e-01``, ``p/q``, ``-``.

    Returns ``None`` when ``text`` is not a number. With ``decimal_comma`` a single
    comma is the decimal separator (``13,98``).
    """
    raw = text
    text = _strip_markup(text)
    percent = text.endswith("%")
    if percent:
        text = text[:-1].strip()
    if text in _DASHES:
        return PrintedNumber(raw.strip(), mpq(0), mpq(0), "fraction", percent)
    if decimal_comma and text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")
    if _FRACTION.fullmatch(text):
        num, den = (int(p) for p in text.split("/"))
        if den == 0:
            return None
        return PrintedNumber(raw.strip(), mpq(num, den), mpq(0), "fraction", percent)
    if not _NUMBER.fullmatch(text):
        return None
    try:
        decimal = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern admits only valid decimals
        return None
    sign, digits, exponent = decimal.as_tuple()
    value = mpq(Fraction(decimal))
    unit = mpq(Fraction(10) ** exponent)
    significant = len(digits) if any(digits) else 1
    kind = "long" if significant >= LONG_DIGITS else "rounded"
    return PrintedNumber(raw.strip(), value, unit, kind, percent)


def _strip_markup(text: str) -> str:
    return text.strip().strip("*_`").strip()


def float_number(value: float) -> PrintedNumber:
    """A Python float as a printed number: its exact binary value, compared with a tolerance."""
    if not math.isfinite(value):
        raise BjexactError(f"not a finite number: {value!r}")
    return PrintedNumber(repr(value), mpq(Fraction(value)), mpq(0), "float")


# --- reading tables ----------------------------------------------------------------------------------------

_OUTCOME_ALIASES = {
    **{str(t): str(t) for t in range(17, 22)},
    "bust": "bust", "busts": "bust", "busted": "bust", ">21": "bust", "over 21": "bust", "b": "bust",
    "bj": "blackjack", "blackjack": "blackjack", "natural": "blackjack", "naturals": "blackjack",
    "nat": "blackjack", "black jack": "blackjack",
    "exhausted": "exhausted",
    "sum": "sum", "total": "sum", "row sum": "sum",
}
_TOTAL_LABELS = {"total", "all", "average", "avg", "overall", "weighted", "any", "mean"}
_LABEL_PREFIX = re.compile(r"^(?:dealer|up-?card|up card|up|card|shows?)\s*:?\s*")


def _outcome_name(cell: str) -> str | None:
    text = _strip_markup(cell).lower()
    text = re.sub(r"\(\s*%\s*\)|%", "", text).strip()
    inner = re.fullmatch(r"p\s*\((.*)\)", text)
    if inner:
        text = inner.group(1).strip()
    return _OUTCOME_ALIASES.get(text)


def _row_upcard(cell: str) -> int | None:
    """The up-card a row label names (``TOTAL`` for the weighted average), or ``None``."""
    text = _strip_markup(cell).lower().rstrip(":").strip()
    if not text:
        return None
    if text in _TOTAL_LABELS:
        return TOTAL
    text = _LABEL_PREFIX.sub("", text)
    try:
        return parse_rank(text)
    except BjexactError:
        return None


@dataclass(frozen=True)
class PrintedRow:
    """One row as read: its ``label`` as printed, the ``upcard`` it names (``TOTAL`` = 0), its cells."""

    label: str
    upcard: int
    line: int
    cells: tuple[PrintedNumber, ...]


@dataclass(frozen=True)
class PrintedTable:
    """A dealer table as read from text: canonical ``columns`` and ``rows`` of printed numbers.

    ``scale`` is ``"percent"`` or ``"probability"``; ``layout`` names the format read.
    """

    columns: tuple[str, ...]
    rows: tuple[PrintedRow, ...]
    scale: str
    layout: str
    source: str = "<table>"

    @property
    def factor(self) -> int:
        """Printed units per unit of probability (100 for percentages)."""
        return 100 if self.scale == "percent" else 1


def _layout_of(line: str) -> str:
    if "|" in line:
        return "pipe"
    if "\t" in line:
        return "tsv"
    if ";" in line:
        return "semicolon"
    if "," in line:
        return "csv"
    return "whitespace"


def _split(line: str, layout: str) -> list[str]:
    if layout == "pipe":
        cells = [c.strip() for c in line.strip().split("|")]
        if cells and cells[0] == "":
            cells = cells[1:]
        if cells and cells[-1] == "":
            cells = cells[:-1]
        return cells
    if layout in ("csv", "semicolon", "tsv"):
        delimiter = {"csv": ",", "semicolon": ";", "tsv": "\t"}[layout]
        return [c.strip() for c in next(csv.reader([line], delimiter=delimiter))]
    return line.split()


_RULE_LINE = re.compile(r"^[\s|+:=\-]*[-=][\s|+:=\-]*$")


def read_dealer_table(text: str, *, source: str = "<table>", scale: str = "auto") -> PrintedTable:
    """Read a dealer table printed in any of the layouts of the module docstring.

    ``scale``: ``"auto"`` (percentages when a cell has ``%`` or exceeds 1),
    ``"percent"`` or ``"probability"``. Raises :class:`BjexactError` naming the line
    and the reason when the text cannot be read.
    """
    if scale not in ("auto", "percent", "probability"):
        raise BjexactError(f"unknown scale {scale!r} (use auto, percent or probability)")
    if text.lstrip().startswith("{"):
        return _read_json_table(text, source, scale)
    lines = text.splitlines()
    header = None
    for number, line in enumerate(lines, start=1):
        if _skippable(line):
            continue
        layout = _layout_of(line)
        cells = _split(line, layout)
        if sum(_outcome_name(c) is not None for c in cells) >= 3:
            header = (number, layout, cells)
            break
    if header is None:
        raise BjexactError(
            f"{source}: no header line with the outcome labels (17, 18, 19, 20, 21, bust, blackjack) found"
        )
    header_line, layout, cells = header
    columns = _header_columns(cells, header_line, source)
    decimal_comma = layout != "csv"
    rows = []
    for number, line in enumerate(lines[header_line:], start=header_line + 1):
        if _skippable(line):
            continue
        row = _read_row(line, number, layout, columns, decimal_comma, source)
        if row is not None:
            rows.append(row)
    if not rows:
        raise BjexactError(
            f"{source}: no rows labelled by up-card (2..10, T, J, Q, K, A, Total) after line {header_line}"
        )
    _reject_duplicate_rows(rows, f"{source} lines")
    resolved = _resolve_scale(rows, scale)
    return PrintedTable(tuple(columns), tuple(rows), resolved, layout, source)


_TEN_NAMES = {"t": "10", "10": "10", "ten": "10", "j": "J", "jack": "J", "q": "Q", "queen": "Q",
              "k": "K", "king": "K"}


def _row_key(row: PrintedRow) -> tuple[int, str]:
    """What a row stands for: its up-card, and for ten-valued cards the printed rank (10, J, Q, K
    rows may all be printed, as ``bjexact dealer --rows ranks`` does)."""
    if row.upcard != TEN:
        return row.upcard, ""
    text = _LABEL_PREFIX.sub("", _strip_markup(row.label).lower().rstrip(":").strip())
    return TEN, _TEN_NAMES.get(text, text)


def _reject_duplicate_rows(rows: Sequence[PrintedRow], where: str) -> None:
    """A second row for the same up-card (or Total) is an error naming both rows."""
    seen: dict[tuple[int, str], PrintedRow] = {}
    for row in rows:
        key = _row_key(row)
        if key in seen:
            first = seen[key]
            what = "the Total row" if row.upcard == TOTAL else f"the row of up-card {key[1] or rank_symbol(row.upcard)}"
            raise BjexactError(f"{where} {first.line} ({first.label!r}) and {row.line} ({row.label!r}) both give "
                               f"{what}: keep one")
        seen[key] = row


def _read_json_table(text: str, source: str, scale: str) -> PrintedTable:
    """The JSON of ``bjexact dealer --format json``: ``{"outcomes": [...], "table": {"A": {"17": "p/q"}}}``."""
    import json

    try:
        document = json.loads(text)
        table = document["table"]
        columns = document.get("outcomes") or list(next(iter(table.values())))
        values = {label: {c: parse_fraction(str(row[c])) for c in columns} for label, row in table.items()}
    except (ValueError, KeyError, TypeError, AttributeError, StopIteration) as exc:
        raise BjexactError(f"{source}: not a dealer table in JSON ({type(exc).__name__}: {exc})") from None
    printed = dealer_table_from_values(values, columns, scale="probability" if scale == "auto" else scale)
    return PrintedTable(printed.columns, printed.rows, printed.scale, "json", source)


def _skippable(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith(("#", "//")) or bool(_RULE_LINE.match(stripped))


def _header_columns(cells: list[str], line: int, source: str) -> list[str]:
    # cells before the first outcome label head the row labels (several words in whitespace layouts)
    first = next(i for i, c in enumerate(cells) if _outcome_name(c) is not None)
    columns = []
    for cell in cells[first:]:
        name = _outcome_name(cell)
        if name is None:
            raise BjexactError(
                f"{source} line {line}: unknown column {cell!r} (expected 17..21, bust, blackjack, sum)"
            )
        if name in columns:
            raise BjexactError(f"{source} line {line}: the column {name!r} appears twice")
        columns.append(name)
    return columns


def _read_row(line: str, number: int, layout: str, columns: list[str], decimal_comma: bool,
              source: str) -> PrintedRow | None:
    """A data row, ``None`` for a prose line (a note), or an error naming the line."""
    cells = _split(line, layout)
    n = len(columns)
    if layout == "whitespace":
        label_cells, value_cells = cells[:-n], cells[-n:]
        if not label_cells:  # too few tokens: is the first a label?
            label_cells, value_cells = cells[:1], cells[1:]
        label = " ".join(label_cells)
    else:
        label, value_cells = (cells[0] if cells else ""), cells[1:]
    upcard = _row_upcard(label)
    numbers = [parse_number(c, decimal_comma=decimal_comma) for c in value_cells]
    if upcard is None:
        if len(value_cells) == n and all(x is not None for x in numbers):
            raise BjexactError(
                f"{source} line {number}: unknown row label {label!r} "
                "(use 2..10, T, J, Q, K, A, Ace, 11 or Total)"
            )
        return None  # prose: a title or a note
    if len(value_cells) != n:
        raise BjexactError(
            f"{source} line {number}: row {label!r} has {len(value_cells)} values, the header has {n} columns"
        )
    for column, cell, value in zip(columns, value_cells, numbers, strict=True):
        where = f"{source} line {number}: row {label!r}, column {column}"
        if value is None:
            reason = "an empty cell" if not cell.strip() else f"{cell!r} is not a number"
            raise BjexactError(f"{where}: {reason}")
        if value.value < 0:
            raise BjexactError(f"{where}: negative value {cell!r}")
    return PrintedRow(_strip_markup(label), upcard, number, tuple(numbers))


def _resolve_scale(rows: Sequence[PrintedRow], scale: str) -> str:
    if scale != "auto":
        return scale
    cells = [c for r in rows for c in r.cells]
    if any(c.percent for c in cells) or any(c.value > 1 for c in cells):
        return "percent"
    return "probability"


def dealer_table_from_values(
    values: Mapping[Any, Mapping[str, Any]] | Sequence[Sequence[Any]],
    columns: Sequence[str] = ("17", "18", "19", "20", "21", "bust"),
    *,
    scale: str = "probability",
) -> PrintedTable:
    """A :class:`PrintedTable` from numbers in memory (floats, strings, fractions).

    ``values`` maps up-cards (``2``..``10``, ``"T"``, ``"A"``, ``1``, ``11``, ``"Total"``) to
    ``{column: value}``, or is a sequence of rows in the order 2, 3, ..., 9, T, A with
    one value per column of ``columns``. Floats keep their exact binary value and are
    compared with a tolerance; strings are read as printed numbers.
    """
    if isinstance(values, Mapping):
        items = list(values.items())
    else:
        items = list(zip((2, 3, 4, 5, 6, 7, 8, 9, 10, ACE), values, strict=False))
        if len(values) > 10:
            raise BjexactError(f"a dealer table has at most 10 rows (2..9, T, A), got {len(values)}")
    canonical = []
    for column in columns:
        name = _outcome_name(str(column))
        if name is None:
            raise BjexactError(f"unknown column {column!r} (expected 17..21, bust, blackjack, sum)")
        canonical.append(name)
    rows = []
    for line, (key, row) in enumerate(items, start=1):
        upcard = None if isinstance(key, bool) else _row_upcard(str(key))  # parse_rank: 1/11 ace, 10 T
        if upcard is None:
            raise BjexactError(f"unknown row label {key!r} (use 2..10, T, J, Q, K, A or Total)")
        cells = [row[c] for c in columns] if isinstance(row, Mapping) else list(row)
        if len(cells) != len(canonical):
            raise BjexactError(f"row {key!r} has {len(cells)} values for {len(canonical)} columns")
        numbers = tuple(_memory_number(v, key, c) for v, c in zip(cells, canonical, strict=True))
        label = rank_symbol(upcard) if isinstance(key, int) and upcard != TOTAL else str(key)
        rows.append(PrintedRow(label, upcard, line, numbers))
    _reject_duplicate_rows(rows, "rows")
    return PrintedTable(tuple(canonical), tuple(rows), scale, "values")


def _memory_number(value: Any, row: Any, column: str) -> PrintedNumber:
    if isinstance(value, str):
        number = parse_number(value)
        if number is None:
            raise BjexactError(f"row {row!r}, column {column}: {value!r} is not a number")
        return number
    exact_types = (int, Fraction, type(mpq(0)))
    if (isinstance(value, exact_types) and not isinstance(value, bool)) or hasattr(value, "q"):
        exact = mpq(int(value.numerator), int(value.denominator)) if not hasattr(value, "q") else as_rational(value)
        return PrintedNumber(fraction_string(exact), exact, mpq(0), "fraction")
    try:
        return float_number(float(value))
    except (TypeError, ValueError):
        raise BjexactError(f"row {row!r}, column {column}: {value!r} is not a number") from None


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
        return _decimal_text(self.scaled_exact, places)

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


def _decimal_text(value: mpq, places: int) -> str:
    from .tables import NumberStyle

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


def _exact_table(rules_or_table: Any):
    from .dealer import DealerTable

    if isinstance(rules_or_table, DealerTable):
        return rules_or_table
    if isinstance(rules_or_table, Rules):
        return cached_dealer_table(rules_or_table)
    raise BjexactError(f"expected Rules or a DealerTable, not {type(rules_or_table).__name__}")


@cache
def cached_dealer_table(rules: Rules):
    """:func:`bjexact.dealer.dealer_table`, computed once per rule set."""
    from .dealer import dealer_table

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
        from .dealer import average_row

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
    """Judge every cell of ``table`` against the exact table of ``rules`` (or a ``DealerTable``)."""
    exact_table = _exact_table(rules)
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


def _describe_conventions(rules: Sequence[Rules]) -> str:
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
            short.append(f"{row.label} ({_decimal_text(total, 6).rstrip('0').rstrip('.')})")
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
        exact = _exact_table(check.rules)
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


# --- known slips -------------------------------------------------------------------------------------------

AddCard = Callable[[HandValue, int], HandValue]


def soft_ace_becomes_hard(hand: HandValue, rank: int) -> HandValue:
    """A known slip: a soft hand that draws an ace becomes *hard*, its total one higher.

    This is what a recursion over (total, usable ace) produces when it clears the
    usable-ace flag on every ace drawn: soft 13 (A,2) + A gives hard 14 instead of
    soft 14, so a later ten busts a hand that should have fallen back to hard 14.
    Every other card follows the real rule, :func:`bjexact.hand.add_card`.
    """
    if hand.soft and rank == ACE:
        return HandValue(hand.total + 1, False)
    return add_card(hand, rank)


@dataclass(frozen=True)
class Slip:
    """A named mistake in a dealer evaluator, as an alternative ``add_card``."""

    name: str
    description: str
    add_card: AddCard = field(compare=False)


KNOWN_SLIPS: dict[str, Slip] = {
    "soft-ace-becomes-hard": Slip(
        "soft-ace-becomes-hard",
        "a soft hand that draws an ace is counted as hard (A,2 + A = hard 14 instead of soft 14)",
        soft_ace_becomes_hard,
    ),
}


def slipped_dealer_table(rules: Rules, slip: Slip | AddCard | None = None):
    """The dealer table that an evaluator with ``slip`` in its ace rule would print.

    A direct recursion over (hand value, cards drawn), independent of the dealer
    graph: with ``slip=None`` it uses the real rule and reproduces
    :func:`bjexact.dealer.dealer_table` exactly, which the tests check. It is kept
    apart from the graph on purpose: a slip such as :func:`soft_ace_becomes_hard` makes
    a hand's value depend on the *order* of its cards (A,2,A is hard 14, A,A,2 soft 14),
    which the graph, whose finite-shoe nodes are multisets of cards, cannot express.
    Conventions (up-card removed from finite shoes, naturals, peek, ``exhausted``, and
    the error when under ``peek`` every card left makes a natural) are those of
    :mod:`bjexact.dealer`.
    """
    add = add_card if slip is None else (slip.add_card if isinstance(slip, Slip) else slip)
    return _slipped_table(rules, add)


@cache
def _slipped_table(rules: Rules, add: AddCard):
    from .dealer import BLACKJACK, BUST, EXHAUSTED, FINAL_TOTALS, DealerTable

    shoe = rules.make_shoe()
    outcomes = FINAL_TOTALS + (BUST,) + ((BLACKJACK,) if rules.naturals == "separate" else ())
    zero = (0,) * 10

    @cache
    def play(hand: HandValue, drawn: Counts, first: bool) -> tuple[tuple[str, mpq], ...]:
        """P(outcome) from ``hand`` with ``drawn`` gone from the shoe; ``first``: the hole card is next."""
        p = list(shoe.draw_probabilities(drawn))
        if not any(p):
            return ((EXHAUSTED, mpq(1)),)
        natural = _natural_partner(hand) if first and rules.naturals == "peek" else None
        if natural is not None:  # peek: the hole card is conditioned not to make a natural
            rest = 1 - p[natural - 1]
            if not rest:  # as the dealer graph does: nothing to condition on
                raise BjexactError(f"up-card {rank_symbol(ACE if natural == TEN else TEN)}: "
                                   "every card left makes a natural, so nothing can be conditioned on no natural")
            p = [mpq(0) if r == natural - 1 else q / rest for r, q in enumerate(p)]
        result: dict[str, mpq] = {}
        for rank, q in zip(RANKS, p, strict=True):
            if not q:
                continue
            new = add(hand, rank)
            after = drawn if shoe.is_infinite else add_counts(drawn, counts_of([rank]))
            if first and new.total == 21:  # a natural (never drawn under peek: its chance is 0)
                branch = ((BLACKJACK if rules.naturals == "separate" else "21", mpq(1)),)
            elif new.bust:
                branch = ((BUST, mpq(1)),)
            elif rules.dealer_stands(new):
                branch = ((str(new.total), mpq(1)),)
            else:
                branch = play(new, after, False)
            for outcome, r in branch:
                result[outcome] = result.get(outcome, mpq(0)) + q * r
        return tuple(result.items())

    rows = {}
    for upcard in (2, 3, 4, 5, 6, 7, 8, 9, TEN, ACE):
        if not shoe.has(upcard):
            continue
        drawn = zero if shoe.is_infinite else counts_of([upcard])
        dist = dict(play(add(EMPTY_HAND, upcard), drawn, True))
        rows[upcard] = dist
    has_exhausted = any(row.get(EXHAUSTED) for row in rows.values())
    columns = outcomes + ((EXHAUSTED,) if has_exhausted else ())
    rows = {u: {o: row.get(o, mpq(0)) for o in columns} for u, row in rows.items()}
    return DealerTable(rules, columns, rows)


def _natural_partner(upcard_hand: HandValue) -> int | None:
    """The hole card that makes a natural with a one-card hand: T for an ace, A for a ten."""
    if upcard_hand == HandValue(11, True):
        return TEN
    return ACE if upcard_hand == HandValue(10, False) else None


# --- reports for people ------------------------------------------------------------------------------------


def _units(table: PrintedTable) -> str:
    return "percentage points" if table.scale == "percent" else "probability"


def _short(value: mpq, digits: int = 3) -> str:
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
            f"error {_short(cell.error)}{extra}, {allowed}")


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
    tried = _describe_conventions([c.rules for c in identification.checks])
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


# --- player tables: hit/stand policy grids and value tables ------------------------------------------------

PLAYER_KINDS = ("policy", "values")
VALUE_BLOCKS = ("stand", "hit", "value")
_MOVES = {"h": "hit", "hit": "hit", "s": "stand", "stand": "stand", "stay": "stand", "st": "stand"}
_HAND_LABEL = re.compile(
    r"^(?:(?P<kind>hard|soft|h|s)\s*(?P<total>\d{1,2})"
    r"|(?P<plain>\d{1,2})"
    r"|a\s*[,+\-/ ]?\s*(?P<ace>a|\d{1,2}))$"
)


@dataclass(frozen=True)
class PlayerCell:
    """One printed cell of a player table: the state it names and what is printed there.

    ``block`` is ``"policy"``, or for value tables ``"stand"``, ``"hit"`` or ``"value"`` (the
    optimal value, the larger of the two). ``move`` holds a policy cell's ``"hit"``/``"stand"``.
    """

    line: int
    row: str
    column: str
    total: int
    soft: bool
    upcard: int
    block: str
    move: str | None = None
    number: PrintedNumber | None = None


@dataclass(frozen=True)
class PrintedPlayerTable:
    """A hit/stand policy grid or value tables as read: every cell with its state."""

    kind: str
    cells: tuple[PlayerCell, ...]
    source: str = "<table>"


def _hand_of_label(cell: str, soft_block: bool) -> tuple[int, bool] | None:
    """(total, soft) of a row label: ``hard 12``, ``soft 18``, ``S18``, ``12`` (the block decides), ``A,7``."""
    text = _strip_markup(cell).lower().rstrip(":").strip()
    match = _HAND_LABEL.match(text)
    if not match:
        return None
    if match.group("ace"):
        other = match.group("ace")
        if other == "a":
            return 12, True
        value = int(other)
        return (11 + value, True) if 1 <= value <= 10 else None
    total = int(match.group("total") or match.group("plain"))
    kind = match.group("kind")
    soft = soft_block if kind is None else kind in ("soft", "s")
    if soft and not 12 <= total <= 21 or not soft and not 4 <= total <= 21:
        return None
    return total, soft


def _upcard_of_header(cell: str) -> int | None:
    text = _strip_markup(cell)
    if not text:
        return None
    try:
        return parse_rank(text)
    except BjexactError:
        return None


def _block_words(text: str) -> tuple[bool | None, str | None]:
    """Softness and value block named by a title or a header's first cell."""
    lower = text.lower()
    soft = True if "soft" in lower else (False if "hard" in lower else None)
    if soft is None and "usable" in lower:  # Sutton and Barto: "usable ace" / "no usable ace"
        soft = not re.search(r"\bno\b|\bwithout\b|\bnot\b", lower)
    block = None
    if re.search(r"\bstand(ing)?\b|\bstick(ing)?\b", lower):
        block = "stand"
    elif re.search(r"\bhit(ting)?\b", lower):
        block = "hit"
    elif re.search(r"\b(optimal|best|value|v)\b", lower):
        block = "value"
    return soft, block


def read_player_table(
    text: str, kind: str, *, source: str = "<table>", scale: str = "auto", blocks: Sequence[str] = ()
) -> PrintedPlayerTable:
    """Read a hit/stand policy grid (``kind="policy"``) or value tables (``kind="values"``).

    Grids have a header row of up-cards (2..9, T/10, A) and rows labelled ``hard 12``,
    ``soft 18``, ``A,7`` or a bare total (hard, unless the block's title or header says
    soft). Several blocks may follow each other (hard and soft; for values, standing and
    hitting), each with its own header. Blocks of the other kind are skipped, so the
    output of ``bjexact player --values`` can be read either way. A value block's title
    line (or its header's first cell) names ``stand``/``hit``/``best``; untitled value
    blocks (CSV) take their names from ``blocks`` in order. Policy cells are ``H``/``S``
    (or ``hit``/``stand``); value cells are numbers per unit bet (a ``%`` sign, or
    ``scale="percent"``, divides by 100).
    """
    if kind not in PLAYER_KINDS:
        raise BjexactError(f"unknown kind of player table {kind!r} (use policy or values)")
    for name in blocks:
        if name not in VALUE_BLOCKS:
            raise BjexactError(f"unknown value block {name!r} (use stand, hit or value)")
    untitled = list(blocks)
    cells: list[PlayerCell] = []
    context = ""
    header = None
    for number, line in enumerate(text.splitlines(), start=1):
        if _skippable(line):
            continue
        layout = _layout_of(line)
        parts = _split(line, layout)
        first_cell = parts[0] if parts and _upcard_of_header(parts[0]) is None else None
        header_cells = parts[1:] if first_cell is not None else parts
        upcards = [_upcard_of_header(c) for c in header_cells]
        if len(upcards) >= 2 and all(u is not None for u in upcards) and len(set(upcards)) == len(upcards) \
                and (first_cell is not None or len(upcards) >= 8):
            soft, block = _block_words(first_cell or "")
            # a title names the block unless the header does ("dealer hits soft 17" names no block)
            title_soft, title_block = _block_words(re.sub(r"soft\s*17", "", context, flags=re.IGNORECASE))
            soft = title_soft if soft is None else soft
            block = title_block if block is None else block
            names = [_strip_markup(c) for c in header_cells]
            header = {"layout": layout, "names": names, "upcards": upcards, "soft": bool(soft),
                      "block": block, "line": number, "content": None}
            context = ""
            continue
        if header is None:
            context = line  # a title before the first header
            continue
        parts = _split(line, header["layout"])
        n = len(header["upcards"])
        if header["layout"] == "whitespace":
            label = " ".join(parts[:-n]) if len(parts) > n else (parts[0] if parts else "")
            values = parts[-n:] if len(parts) > n else parts[1:]
        else:
            label, values = (parts[0] if parts else ""), parts[1:]
        hand = _hand_of_label(label, header["soft"])
        if hand is None:
            if len(values) == n and any(all(_player_value(v, k) is not None for v in values) for k in PLAYER_KINDS):
                raise BjexactError(f"{source} line {number}: unknown row label {label!r} "
                                   "(use hard 4..21, soft 12..21, A,2..A,10 or a total)")
            context, header = line, None  # prose: a note, or the title of the next block
            continue
        if len(values) != n:
            raise BjexactError(f"{source} line {number}: row {label!r} has {len(values)} cells, "
                               f"the header has {n} up-cards")
        if header["content"] is None:  # the first row tells a policy block from a value block
            moves = any(_player_value(v, "policy") is not None for v in values)
            header["content"] = "policy" if moves else "values"
            if header["content"] == "values" and kind == "values":
                if header["block"] is None:
                    if not untitled:
                        raise BjexactError(
                            f"{source} line {header['line']}: say whether this block holds the values of "
                            "standing, hitting or the best move (a title above it, its first cell, or --blocks)")
                    header["block"] = untitled.pop(0)
        if header["content"] != kind:
            continue  # a block of the other kind
        block = header["block"] if kind == "values" else "policy"
        for name, upcard, value in zip(header["names"], header["upcards"], values, strict=True):
            parsed = _player_value(value, kind)
            if parsed is None:
                expected = "H or S" if kind == "policy" else "a number"
                raise BjexactError(f"{source} line {number}: row {label!r}, up-card {name}: "
                                   f"{value!r} is not {expected}")
            if kind == "policy":
                cells.append(PlayerCell(number, _strip_markup(label), name, *hand, upcard, block, move=parsed))
            else:
                if scale == "percent" and not parsed.percent:
                    parsed = PrintedNumber(parsed.text, parsed.value, parsed.unit, parsed.kind, True)
                cells.append(PlayerCell(number, _strip_markup(label), name, *hand, upcard, block, number=parsed))
    if not cells:
        raise BjexactError(f"{source}: no {kind} grid found (a header row of up-cards 2..9, T, A, then rows "
                           "such as 'hard 12' or 'soft 18')")
    return PrintedPlayerTable(kind, tuple(cells), source)


def _player_value(text: str, kind: str):
    if kind == "policy":
        return _MOVES.get(_strip_markup(text).lower())
    stripped = _strip_markup(text)
    sign = -1 if stripped[:1] in ("-", "\u2212") and len(stripped) > 1 else 1
    body = stripped[1:] if sign == -1 else stripped.lstrip("+")
    number = parse_number(body)
    if number is None or number.kind == "fraction" and body in _DASHES:
        return None
    return PrintedNumber(text.strip(), sign * number.value, number.unit, number.kind, number.percent)


@dataclass(frozen=True)
class PlayerCellCheck:
    """One player-table cell judged against the exact solution."""

    cell: PlayerCell
    consistent: bool
    exact_move: str | None = None
    stand: mpq | None = None
    hit: mpq | None = None
    exact: mpq | None = None
    error: mpq | None = None
    allowed: mpq | None = None
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        c = self.cell
        data: dict[str, Any] = {
            "line": c.line, "row": c.row, "column": c.column, "total": c.total, "soft": c.soft,
            "upcard": rank_symbol(c.upcard), "block": c.block, "consistent": self.consistent,
        }
        if c.move is not None:
            data.update(printed="H" if c.move == "hit" else "S",
                        exact={"hit": "H", "stand": "S", None: None}[self.exact_move])
            if self.stand is not None:
                data.update(stand=fraction_string(self.stand),
                            hit=None if self.hit is None else fraction_string(self.hit))
        else:
            data.update(printed=c.number.text, exact=fraction_string(self.exact), error=float(self.error),
                        allowed=float(self.allowed))
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class PlayerCheck:
    """A player table checked cell by cell against the exact solution of ``rules``."""

    rules: Rules
    objective: str
    table: PrintedPlayerTable
    cells: tuple[PlayerCellCheck, ...]

    @property
    def consistent(self) -> bool:
        return all(c.consistent for c in self.cells)

    @property
    def inconsistent_cells(self) -> tuple[PlayerCellCheck, ...]:
        return tuple(c for c in self.cells if not c.consistent)

    @property
    def max_abs_error(self) -> float:
        return max((float(abs(c.error)) for c in self.cells if c.error is not None), default=0.0)

    def to_json(self) -> dict[str, Any]:
        return {
            "consistent": self.consistent,
            "rules": self.rules.to_json(),
            "kind": self.table.kind,
            "objective": self.objective,
            "cells": [c.to_json() for c in self.cells],
            "inconsistent_cells": len(self.inconsistent_cells),
            "max_abs_error": self.max_abs_error,
        }


@cache
def _player_solution(rules: Rules, objective: str):
    from .player import solve_infinite

    return solve_infinite(rules, objective)


def check_player_table(
    table: PrintedPlayerTable, rules: Rules, *, objective: str = "ev", tolerance: Tolerance = Tolerance()
) -> PlayerCheck:
    """Judge a policy grid or value tables against the exact infinite-deck solution of ``rules``.

    A policy cell is consistent when its move is optimal: its value equals the best
    value (so either move is accepted where standing and hitting tie exactly). Value
    cells follow the rounding rules of the module docstring.
    """
    if not rules.infinite:
        if table.kind == "values":
            raise BjexactError("value tables by total are checked on the infinite deck only (use --decks inf): "
                               "on a finite shoe a total's value depends on its cards")
        return _check_finite_policy(table, rules, objective)
    from .player import PlayerState

    solution = _player_solution(rules, objective)
    checks = []
    for cell in table.cells:
        position = solution[PlayerState(cell.total, cell.soft, cell.upcard)]
        stand, hit = position.stand, position.hit
        if cell.move is not None:
            chosen = stand if cell.move == "stand" else hit
            tie = hit is not None and hit == stand
            checks.append(PlayerCellCheck(cell, chosen == position.value, position.best, stand, hit,
                                          note="standing and hitting tie" if tie else ""))
            continue
        exact = {"stand": stand, "hit": hit, "value": position.value}[cell.block]
        factor = 100 if cell.number.percent else 1
        error = cell.number.value - exact * factor
        allowed = tolerance.allowed(cell.number, exact * factor)
        checks.append(PlayerCellCheck(cell, abs(error) <= allowed, position.best, stand, hit, exact,
                                      error / factor, allowed / factor))
    return PlayerCheck(rules, objective, table, tuple(checks))


@cache
def _finite_moves(rules: Rules, objective: str) -> dict[tuple[int, bool, int], dict[str, int]]:
    """Per (total, soft, up-card): how many two-card hands of that total play each move.

    A chart cell is a decision for the two-card hands of its total (a natural is not played
    under separate/peek); hands of three or more cards do not vote, or a total such as hard 16,
    which every two-card hand hits against a ten on 6 decks, would pass for either move.
    """
    from .player import solve_finite

    solution = solve_finite(rules, objective, progress=False)
    return {(s.total, s.soft, s.upcard): dict(votes) for s, votes in solution.two_card_moves.items()}


def _check_finite_policy(table: PrintedPlayerTable, rules: Rules, objective: str) -> PlayerCheck:
    """A policy by total on a finite shoe: the majority move of the hands of that total.

    Where hands of one total play differently (composition dependence), either move is
    accepted and the cell carries a note; a total no hand of two cards reaches is not judged.
    """
    from .player import majority_move

    tally = _finite_moves(rules, objective)
    checks = []
    for cell in table.cells:
        moves = tally.get((cell.total, cell.soft, cell.upcard), {})
        if not moves:
            checks.append(PlayerCellCheck(cell, True, note="not judged: no two-card hand has this total"))
            continue
        majority = majority_move(moves)
        mixed = len([m for m, n in moves.items() if n]) > 1
        note = ("composition-dependent: " + ", ".join(f"{n} hand{'s' if n > 1 else ''} {m}"
                                                       for m, n in sorted(moves.items()) if n)) if mixed else ""
        checks.append(PlayerCellCheck(cell, cell.move == majority or mixed, majority, note=note))
    return PlayerCheck(rules, objective, table, tuple(checks))


def format_player_check(check: PlayerCheck, *, show_all: bool = False) -> str:
    """The report of a player-table check: the disagreeing cells, a summary and a verdict."""
    table = check.table
    what = "a policy grid" if table.kind == "policy" else "value tables"
    solution = "infinite-deck solution" if check.rules.infinite else "composition-dependent solution"
    lines = [f"{table.source}: {len(table.cells)} cells of {what} read, checked against the exact "
             f"{solution} ({check.objective}) for {check.rules.describe()}", ""]
    listed = check.cells if show_all else check.inconsistent_cells
    if listed:
        lines.append("Every cell:" if show_all else "Cells that disagree:")
    for c in listed:
        cell = c.cell
        where = f"line {cell.line}, {cell.row} v {cell.column}"
        if cell.move is not None:
            if c.stand is None:
                detail = f" ({c.note})" if c.note else " (majority of the hands of this total)"
            else:
                hit = "-" if c.hit is None else _decimal_text(c.hit, 6)
                detail = f" (stand {_decimal_text(c.stand, 6)}, hit {hit})"
            best = {"hit": "H", "stand": "S", None: "-"}[c.exact_move]
            lines.append(f"  {where}: printed {'H' if cell.move == 'hit' else 'S'}, best {best}{detail}"
                         + ("" if c.consistent else "  <-- inconsistent"))
        else:
            lines.append(f"  {where} ({cell.block}): printed {cell.number.text}, exact "
                         f"{_decimal_text(c.exact, 8)}... (= {fraction_string(c.exact)}), error {_short(c.error)}"
                         + ("" if c.consistent else "  <-- inconsistent"))
    bad = len(check.inconsistent_cells)
    lines += ["", f"Summary: {len(check.cells) - bad} of {len(check.cells)} cells consistent"
              + (f"; largest error {check.max_abs_error:.3g} per unit bet" if table.kind == "values" else "") + ".",
              "Verdict: " + ("CONSISTENT: every cell is optimal (or the exact value as printed)." if check.consistent
                             else "INCONSISTENT: see the cells above.")]
    return "\n".join(lines) + "\n"
