"""Printed numbers and dealer tables as people print them: CSV, TSV, aligned text, Markdown, boxes, JSON.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from ..core.cards import TEN, UPCARD_ORDER, parse_rank, rank_symbol
from ..core.numbers import as_rational, fraction_string, mpq, parse_fraction
from ..errors import BjexactError

__all__ = [
    "OUTCOME_COLUMNS", "TOTAL", "PrintedNumber", "PrintedRow", "PrintedTable", "parse_number", "float_number",
    "read_dealer_table", "dealer_table_from_values",
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


MAX_NUMBER_CHARS = 100  # longer "numbers" in a table cell are refused before any conversion
MAX_EXPONENT = 300  # and so are numbers beyond 10^+-300 (floats overflow there)
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")
_FRACTION = re.compile(r"[+-]?\d+\s*/\s*\d+")
DASHES = {"-", "\u2013", "\u2014", "\u2212"}


def parse_number(text: str, *, decimal_comma: bool = False) -> PrintedNumber | None:
    """Read a printed number: ``0.1398``, ``13.98``, ``13.98%``, ``1.398e-01``, ``p/q``, ``-``.

    Returns ``None`` when ``text`` is not a number. With ``decimal_comma`` a single
    comma is the decimal separator (``13,98``).

    Examples
    --------
    A rounded number carries the unit of its last digit; a fraction is exact (unit 0).

    >>> parse_number("13.98%")
    PrintedNumber(text='13.98%', value=mpq(699,50), unit=mpq(1,100), kind='rounded', percent=True)
    >>> parse_number("1/13").unit, parse_number("13,98", decimal_comma=True).value
    (mpq(0,1), mpq(699,50))
    >>> parse_number("n/a") is None
    True
    """
    raw = text
    text = strip_markup(text)
    percent = text.endswith("%")
    if percent:
        text = text[:-1].strip()
    if text in DASHES:
        return PrintedNumber(raw.strip(), mpq(0), mpq(0), "fraction", percent)
    if decimal_comma and text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")
    if len(text) > MAX_NUMBER_CHARS and (_FRACTION.fullmatch(text) or _NUMBER.fullmatch(text)):
        raise BjexactError(f"a number of {len(text):,} characters ({text[:12]}...): at most {MAX_NUMBER_CHARS}")
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
    if decimal and abs(decimal.adjusted()) > MAX_EXPONENT:  # 1e999999999 would take hours to make exact
        raise BjexactError(f"the number {text} is out of range for a table (10^-{MAX_EXPONENT} to 10^{MAX_EXPONENT})")
    assert isinstance(exponent, int)  # finite: the pattern admits no NaN or infinity
    value = mpq(Fraction(decimal))
    unit = mpq(Fraction(10) ** exponent)
    significant = len(digits) if any(digits) else 1
    kind = "long" if significant >= LONG_DIGITS else "rounded"
    return PrintedNumber(raw.strip(), value, unit, kind, percent)


def strip_markup(text: str) -> str:
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
    text = strip_markup(cell).lower()
    text = re.sub(r"\(\s*%\s*\)|%", "", text).strip()
    inner = re.fullmatch(r"p\s*\((.*)\)", text)
    if inner:
        text = inner.group(1).strip()
    return _OUTCOME_ALIASES.get(text)


def _row_upcard(cell: str) -> int | None:
    """The up-card a row label names (``TOTAL`` for the weighted average), or ``None``."""
    text = strip_markup(cell).lower().rstrip(":").strip()
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


def layout_of(line: str) -> str:
    if "|" in line:
        return "pipe"
    if "\t" in line:
        return "tsv"
    if ";" in line:
        return "semicolon"
    if "," in line:
        return "csv"
    return "whitespace"


def split_cells(line: str, layout: str) -> list[str]:
    if layout == "pipe":
        cells = [c.strip() for c in line.strip().split("|")]
        if cells and cells[0] == "":
            cells = cells[1:]
        if cells and cells[-1] == "":
            cells = cells[:-1]
        # "Up-Card  | 17     18 ...": a '|' after the first column only, the rest aligned with spaces
        return [part for c in cells for part in (split_cells(c, "whitespace") if "  " in c else [c])]
    if layout in ("csv", "semicolon", "tsv"):
        delimiter = {"csv": ",", "semicolon": ";", "tsv": "\t"}[layout]
        return [c.strip() for c in next(csv.reader([line], delimiter=delimiter))]
    return re.sub(r"(\d)\s+%", r"\1%", line).split()  # "13.98 %" is one cell


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
        if skippable(line):
            continue
        layout = layout_of(line)
        cells = split_cells(line, layout)
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
    rows, keys = [], set()
    for number, line in enumerate(lines[header_line:], start=header_line + 1):
        if skippable(line):
            continue
        row = _read_row(line, number, layout, columns, decimal_comma, source)
        if row is not None:
            rows.append(row)
            if _row_key(row) in keys:  # stop at the first repeated row, not after reading a huge file
                _reject_duplicate_rows(rows, f"{source} lines")
            keys.add(_row_key(row))
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
    text = _LABEL_PREFIX.sub("", strip_markup(row.label).lower().rstrip(":").strip())
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


def skippable(line: str) -> bool:
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
    cells = split_cells(line, layout)
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
    return PrintedRow(strip_markup(label), upcard, number, tuple(n for n in numbers if n is not None))


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
    items: list[tuple[Any, Any]]
    if isinstance(values, Mapping):
        items = list(values.items())
    else:
        items = list(zip(UPCARD_ORDER, values, strict=False))
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
