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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.numbers import fraction_string, mpq

__all__ = ["FORMATS", "Table", "NumberStyle", "render", "latex_escape", "decimal_string"]

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


def _cell(value: Any, style: NumberStyle, latex: bool = False) -> str:
    if isinstance(value, str):
        return value
    return style.latex(value) if latex else style.plain(value)


def render(tables: Sequence[Table], fmt: str, style: NumberStyle, json_document: Any = None) -> str:
    """Render tables in ``fmt`` (one of :data:`FORMATS`); JSON prints ``json_document``."""
    if fmt == "json":
        return json.dumps(json_document, indent=2) + "\n"
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
