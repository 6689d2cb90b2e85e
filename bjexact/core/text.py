"""Plain tables for people and programs: text, CSV, JSON, Markdown, LaTeX.

A :class:`Table` is a title, column headers and rows of cells that are either
strings (labels) or exact numbers. How a number is shown is decided here, at
the last moment: as a percentage or decimal with a given number of places, or
as the exact fraction. Floats never feed back into any computation.

Nothing here knows about blackjack: the tables of each layer are built from these.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from ..core.numbers import fraction_string, mpq

__all__ = ["FORMATS", "Table", "NumberStyle", "render", "latex_escape", "decimal_string", "tidy_table", "untidy_csv",
           "with_floats"]

FORMATS = ("text", "csv", "json", "md", "latex")


@dataclass(frozen=True)
class NumberStyle:
    """How exact numbers are printed: ``exact`` fractions, or ``decimals`` places (``percent``)."""

    decimals: int = 4
    percent: bool = True
    exact: bool = False
    signed: bool = False

    def plain(self, value: Any) -> str:
        if self.exact:
            return fraction_string(value)
        return decimal_string(mpq(value) * (100 if self.percent else 1), self.decimals, self.signed)

    def latex(self, value: Any) -> str:
        if not self.exact:
            return self.plain(value)
        value = mpq(value)
        if value.denominator == 1:
            return str(value.numerator)
        sign = "-" if value < 0 else ""
        return f"{sign}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"

    @property
    def chance_units(self) -> str:
        """How probabilities are printed: ``%``, ``0 to 1`` or ``exact``."""
        return "exact" if self.exact else "%" if self.percent else "0 to 1"

    @property
    def value_units(self) -> str:
        """How expected results are printed: ``% of bet``, ``per unit bet`` or ``exact, per unit bet``
        ("bet": the round's initial bet)."""
        return "exact, per unit bet" if self.exact else "% of bet" if self.percent else "per unit bet"

    def chance_header(self, name: str) -> str:
        """A column of probabilities, its units stated: ``chance (%)``."""
        return f"{name} ({self.chance_units})"

    def value_header(self, name: str) -> str:
        """A column of expected results, its units stated: ``value (% of bet)``."""
        return f"{name} ({self.value_units})"

    def value_text(self, value: Any, places: int | None = None) -> str:
        """One expected result in a sentence, its units said: ``-0.4569% of the bet``, ``-0.004569 per
        unit bet``, or the fraction ``per unit bet``."""
        if self.exact:
            return f"{fraction_string(value)} per unit bet"
        style = self if places is None else replace(self, decimals=places)
        return style.plain(value) + ("% of the bet" if self.percent else " per unit bet")


def decimal_string(value: mpq, places: int, signed: bool = False) -> str:
    """Round an exact value half away from zero to ``places`` decimals, exactly.

    A negative value that rounds to zero prints without its sign, unless ``signed``
    asks for every non-zero value's sign (``+0.00``, ``-0.00``).

    >>> decimal_string(mpq(-19, 10000), 2), decimal_string(mpq(-19, 10000), 2, signed=True)
    ('0.00', '-0.00')
    """
    scaled = abs(value) * 10**places
    whole = int(scaled)
    if scaled - whole >= mpq(1, 2):
        whole += 1
    digits = str(whole).rjust(places + 1, "0")
    text = digits if places == 0 else f"{digits[:-places]}.{digits[-places:]}"
    if value < 0 and (whole or signed):
        return "-" + text
    return ("+" + text) if signed and value > 0 else text


@dataclass(frozen=True)
class Table:
    """A titled grid: ``columns`` headers and ``rows`` of label strings or exact numbers."""

    title: str
    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    notes: Sequence[str] = field(default_factory=tuple)
    section: str = ""
    """The table's name in the ``section`` column when several tables are written as one CSV
    (default: its title up to the first colon)."""


def _cell(value: Any, style: NumberStyle, latex: bool = False) -> str:
    if isinstance(value, str):
        return value
    return style.latex(value) if latex else style.plain(value)


def _as_float(value: Any) -> Any:
    if value is None:
        return None
    if isinstance(value, Mapping):
        return {key: _as_float(v) for key, v in value.items()}
    return float(Fraction(value))


def with_floats(document: Mapping[str, Any], keys: Sequence[str]) -> dict[str, Any]:
    """``document`` with a field ``KEY_float`` after each of ``keys`` that holds an exact "p/q" string
    (or a mapping of them, or null): the same number as the nearest float, for tools that sort and
    filter (``jq``). The exact string stays the value of record."""
    out: dict[str, Any] = {}
    for key, value in document.items():
        out[key] = value
        if key in keys:
            out[f"{key}_float"] = _as_float(value)
    return out


def render(tables: Sequence[Table], fmt: str, style: NumberStyle, json_document: Any = None) -> str:
    """Render tables in ``fmt`` (one of :data:`FORMATS`); JSON prints ``json_document``."""
    if fmt == "json":
        return json.dumps(json_document, indent=2) + "\n"
    if fmt == "csv" and len(tables) > 1:
        return _csv(tidy_table(tables), style)
    renderer = {"text": _text, "csv": _csv, "md": _markdown, "latex": _latex}[fmt]
    return "\n".join(renderer(t, style) for t in tables)


def _text(table: Table, style: NumberStyle) -> str:
    grid = [list(table.columns)] + [[_cell(v, style) for v in row] for row in table.rows]
    widths = [max(len(r[i]) for r in grid) for i in range(len(grid[0]))]
    # numbers and short codes line up on the right, longer text on the left
    left = [i == 0 or any(isinstance(row[i], str) and len(row[i]) > 3 for row in table.rows)
            for i in range(len(widths))]
    lines = [table.title, ""] if table.title else []
    for n, row in enumerate(grid):
        cells = [c.ljust(w) if lft else c.rjust(w) for c, w, lft in zip(row, widths, left)]
        lines.append("  ".join(cells).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    lines += [""] + list(table.notes) if table.notes else []
    return "\n".join(lines) + "\n"


def _csv(table: Table, style: NumberStyle) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(table.columns)
    for row in table.rows:
        writer.writerow([_cell(v, style) for v in row])
    return buffer.getvalue()


def tidy_table(tables: Sequence[Table]) -> Table:
    """Several tables as one, for data tools: a first column ``section`` names each row's table
    (:attr:`Table.section`), then the columns of all the tables in order of appearance (a column
    name shared by two tables is one column); cells a table does not have are empty."""
    columns: list[str] = []
    for table in tables:
        columns += [c for c in table.columns if c not in columns]
    rows = []
    for table in tables:
        name = table.section or table.title.split(":")[0].strip()
        where = [columns.index(c) for c in table.columns]
        for row in table.rows:
            cells: list[Any] = [""] * len(columns)
            for i, value in zip(where, row):
                cells[i] = value
            rows.append([name, *cells])
    return Table("", ["section", *columns], rows)


def untidy_csv(text: str) -> str:
    """The inverse of :func:`tidy_table` for readers of printed blocks: a CSV whose first column is
    ``section`` becomes one block per section (the section's name on a line of its own, then a
    header of the columns that section fills, then its rows); any other text is returned as it is."""
    if not text.lstrip().startswith("section,"):
        return text
    rows = list(csv.reader(io.StringIO(text.lstrip())))
    header, body = rows[0][1:], [r for r in rows[1:] if r]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    start = 0
    while start < len(body):
        end = start
        while end < len(body) and body[end][0] == body[start][0]:
            end += 1
        block = [r[1:] for r in body[start:end]]
        used = [i for i in range(len(header)) if any(i < len(r) and r[i] for r in block)]
        buffer.write(("\n" if start else "") + body[start][0] + "\n")
        writer.writerow([header[i] for i in used])
        writer.writerows([[r[i] if i < len(r) else "" for i in used] for r in block])
        start = end
    return buffer.getvalue()


def _markdown(table: Table, style: NumberStyle) -> str:
    lines = [f"**{table.title}**", ""] if table.title else []
    lines.append("| " + " | ".join(table.columns) + " |")
    lines.append("|" + "|".join([":---"] + ["---:"] * (len(table.columns) - 1)) + "|")
    for row in table.rows:
        lines.append("| " + " | ".join(_cell(v, style) for v in row) + " |")
    lines += [""] + [f"*{n}*" for n in table.notes] if table.notes else []
    return "\n".join(lines) + "\n"


_LATEX_ESCAPES = {"%": r"\%", "&": r"\&", "_": r"\_", "#": r"\#", "$": r"\$"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_ESCAPES.get(c, c) for c in text)


def _latex(table: Table, style: NumberStyle) -> str:
    cells = [[_cell(v, style, latex=True) for v in row] for row in table.rows]
    if style.exact:
        cells = [[r[0]] + [f"${c}$" for c in r[1:]] for r in cells]
    lines = [
        "% needs \\usepackage{booktabs}",
        "\\begin{table}[htbp]",
        "\\centering",
        f"\\caption{{{latex_escape(table.title)}}}" if table.title else "",
        "\\begin{tabular}{l" + "r" * (len(table.columns) - 1) + "}",
        "\\toprule",
        " & ".join(latex_escape(c) for c in table.columns) + r" \\",
        "\\midrule",
        *(" & ".join(latex_escape(c) if not style.exact else c for c in row) + r" \\" for row in cells),
        "\\bottomrule",
        "\\end{tabular}",
        *(f"\\par\\smallskip{{\\footnotesize {latex_escape(n)}}}" for n in table.notes),
        "\\end{table}",
    ]
    return "\n".join(line for line in lines if line) + "\n"
