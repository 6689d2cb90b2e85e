"""A small document model for reports: blocks built once, rendered as Markdown or as LaTeX.

A :class:`Document` is a title and a tuple of immutable blocks: :class:`Heading`,
:class:`Paragraph` (text with inline :class:`Math` and :class:`Code`), :class:`Bullets`,
:class:`DisplayMath`, :class:`TableBlock`, :class:`Figure`, :class:`Values` (long exact
numbers), :class:`Marker` (a comment) and :class:`PageBreak`. Maths is written once, as
LaTeX source (sympy's ``latex()`` where it comes from sympy): the LaTeX renderer typesets
it, the Markdown renderer puts it between ``$...$`` (``$$...$$`` for display).

Layout decisions live in the LaTeX renderer, made from the blocks alone: a heading is
kept on the page of the block that follows it (and of a short paragraph's next block);
only a table marked :attr:`TableBlock.wide` gets a landscape page, and a tall one flows
on to the next page (``longtable``, its header repeated); figures stay upright,
scaled into :data:`PORTRAIT_BOX`, but a :attr:`Figure.landscape` one gets a turned page of its
own (:data:`LANDSCAPE_BOX`), so that its labels print large enough; a long exact number is
broken between groups of five digits, each broken line ending in a continuation mark.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.numbers import mpq
from ..core.text import NumberStyle, Table, latex_escape

__all__ = [
    "Math", "Code", "Inline", "Heading", "Paragraph", "Bullets", "DisplayMath", "TableBlock", "Figure",
    "Values", "Marker", "PageBreak", "Block", "Document", "paragraph", "to_markdown", "to_latex",
    "blocks_markdown", "blocks_latex", "inline_text", "PREAMBLE",
    "digit_lines", "table_is_wide", "FIGURES", "PORTRAIT_BOX", "LANDSCAPE_BOX", "figure_box",
]

FIGURES = "figures"


# --- inline pieces -------------------------------------------------------------------------


@dataclass(frozen=True)
class Math:
    """Inline maths, as LaTeX source: ``Math(r"P(\\text{bust} \\mid 6)")``."""

    tex: str


@dataclass(frozen=True)
class Code:
    """Typewriter text: a command or a file name."""

    text: str


Inline = str | Math | Code


# --- blocks -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Heading:
    """A section (``level`` 1) or subsection (``level`` 2) heading."""

    text: str
    level: int = 1


@dataclass(frozen=True)
class Paragraph:
    """Running text: plain strings, :class:`Math` and :class:`Code` in order."""

    parts: tuple[Inline, ...]

    def plain_length(self) -> int:
        return sum(len(p if isinstance(p, str) else p.tex if isinstance(p, Math) else p.text) for p in self.parts)


def paragraph(*parts: Inline) -> Paragraph:
    return Paragraph(tuple(parts))


@dataclass(frozen=True)
class Bullets:
    """A bulleted list of paragraphs."""

    items: tuple[Paragraph, ...]


@dataclass(frozen=True)
class DisplayMath:
    """Displayed equations, one per row; ``&`` aligns the rows (LaTeX source)."""

    rows: tuple[str, ...]


@dataclass(frozen=True)
class TableBlock:
    """A table: ``table`` (cells: strings, exact numbers printed in ``style``, or :class:`Math`).

    ``notes`` replace the table's own notes and ``caption`` its title when given (they may
    hold maths). ``wide``:
    the table needs a landscape page in LaTeX (see :func:`table_is_wide`). ``size``: its
    LaTeX font size. ``left``: columns that read from the left (lists), besides the first;
    ``centred``: the other columns are centred (codes), not set to the right (numbers).
    """

    table: Table
    style: NumberStyle
    notes: tuple[Paragraph, ...] | None = None
    caption: tuple[Inline, ...] | None = None
    wide: bool = False
    size: str = "small"
    left: tuple[int, ...] = ()
    centred: bool = False
    colours: Mapping[str, str] | None = None
    """LaTeX: the background of a text cell, by its first letter (a chart's codes): ``{"S": "#f0e442"}``."""

    @property
    def caption_parts(self) -> tuple[Inline, ...]:
        if self.caption is not None:
            return self.caption
        return (self.table.title,) if self.table.title else ()

    @property
    def note_paragraphs(self) -> tuple[Paragraph, ...]:
        if self.notes is not None:
            return self.notes
        return tuple(paragraph(n) for n in self.table.notes)


@dataclass(frozen=True)
class Figure:
    """A diagram or a figure: ``figures/NAME.svg`` for Markdown, ``figures/NAME.pdf`` for LaTeX; ``graph``:
    a Graphviz graph (:mod:`bjexact.render.diagrams`) or a :class:`~bjexact.render.svg.Drawing`."""

    name: str
    caption: str
    graph: Any = field(default=None, repr=False, compare=False)
    landscape: bool = False
    """LaTeX: a turned page of its own, for a diagram too wide to print its labels legibly upright
    (see :func:`figure_box`)."""


PORTRAIT_BOX = (483.7, 307.1)
"""The box (width, height, TeX points) an upright figure is scaled into, keeping its proportions: the
text width of A4 with 2 cm margins, and 0.42 of the text height so that text fits beside it."""
LANDSCAPE_BOX = (731.2, 400.0)
"""The box of a figure on a turned page: the text height of A4 as its width, the text width less its
caption as its height."""


def figure_box(figure: Figure) -> tuple[float, float]:
    """The box (TeX points) the LaTeX report scales ``figure`` into, keeping its proportions: a label of
    ``s`` points in a figure ``W`` by ``H`` points prints at ``s * min(width / W, height / H)`` points."""
    return LANDSCAPE_BOX if figure.landscape else PORTRAIT_BOX


@dataclass(frozen=True)
class Values:
    """Named exact numbers, each printed in full: a long one is broken between digit groups."""

    rows: tuple[tuple[str, mpq], ...]


@dataclass(frozen=True)
class Marker:
    """A comment in the output (``<!-- text -->`` / ``% text``), e.g. to delimit a section."""

    text: str


@dataclass(frozen=True)
class PageBreak:
    """A hint: start a new page here (LaTeX only)."""


Block = Heading | Paragraph | Bullets | DisplayMath | TableBlock | Figure | Values | Marker | PageBreak


@dataclass(frozen=True)
class Document:
    title: str
    blocks: tuple[Block, ...]


# --- long numbers ----------------------------------------------------------------------------

GROUP = 5  # digits per group
LINE_GROUPS = 10  # groups per line: 50 digits


def digit_lines(value: mpq) -> list[str]:
    """``p/q`` in lines of at most 50 digits, groups of five separated by spaces.

    The numerator's lines come first, then the denominator's, the first of them starting
    with ``/``. Groups are counted from the right of each integer, as people write them.

    >>> digit_lines(mpq(-1234567, 89))
    ['-12 34567', '/89']
    """
    value = mpq(value)
    sign = "-" if value < 0 else ""
    parts = [str(abs(value.numerator))] + ([str(value.denominator)] if value.denominator != 1 else [])
    lines: list[str] = []
    for k, digits in enumerate(parts):
        head = len(digits) % GROUP or GROUP
        groups = [digits[:head]] + [digits[i:i + GROUP] for i in range(head, len(digits), GROUP)]
        chunks = [" ".join(groups[i:i + LINE_GROUPS]) for i in range(0, len(groups), LINE_GROUPS)]
        chunks[0] = (sign if k == 0 else "/") + chunks[0]
        lines += chunks
    return lines


# --- Markdown ------------------------------------------------------------------------------


def inline_text(parts: Sequence[Inline], math: Callable[[str], str], code: Callable[[str], str],
                text: Callable[[str], str]) -> str:
    """Inline pieces in one output language: ``math`` of a :class:`Math`'s TeX, ``code`` of a
    :class:`Code`'s text, ``text`` of plain text."""
    return "".join(math(part.tex) if isinstance(part, Math) else code(part.text) if isinstance(part, Code)
                   else text(part) for part in parts)


def _md_inline(parts: Sequence[Inline]) -> str:
    return inline_text(parts, lambda tex: f"${tex}$", lambda code: f"`{code}`", str)


def _md_cell(value: Any, style: NumberStyle) -> str:
    if isinstance(value, Math):
        return f"${value.tex}$"
    if isinstance(value, str):
        return value
    return style.plain(value)


def _md_table(block: TableBlock) -> list[str]:
    table = block.table
    columns = [_md_cell(c, block.style) for c in table.columns]
    caption = _md_inline(block.caption_parts)
    lines = [f"**{caption}**", ""] if caption else []
    lines.append("| " + " | ".join(columns) + " |")
    other = ":---:" if block.centred else "---:"
    lines.append("|" + "|".join(":---" if i == 0 or i in block.left else other
                                for i in range(len(columns))) + "|")
    lines += ["| " + " | ".join(_md_cell(v, block.style) for v in row) + " |" for row in table.rows]
    for note in block.note_paragraphs:
        lines += ["", f"*{_md_inline(note.parts)}*"]
    return lines


def _md_values(block: Values) -> list[str]:
    width = max(len(label) for label, _ in block.rows)
    lines = ["```"]
    for label, value in block.rows:
        chunks = digit_lines(value)
        for k, chunk in enumerate(chunks):
            lead = f"{label.ljust(width)} = " if k == 0 else " " * (width + 3)
            lines.append(lead + chunk + (" \u21a9" if k + 1 < len(chunks) and not chunks[k + 1].startswith("/")
                                        else ""))
    return lines + ["```"]


def to_markdown(document: Document) -> str:
    """The document as Markdown (GitHub flavour, ``$...$`` maths); figures as ``figures/NAME.svg``."""
    return f"# {document.title}\n\n" + blocks_markdown(document.blocks)


def blocks_markdown(blocks: Sequence[Block]) -> str:
    """Blocks as Markdown (a headings' level 1 is ``##``: the title is ``#``)."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            out += ["#" * (block.level + 1) + " " + block.text, ""]
        elif isinstance(block, Paragraph):
            out += [_md_inline(block.parts), ""]
        elif isinstance(block, Bullets):
            out += [f"- {_md_inline(item.parts)}" for item in block.items] + [""]
        elif isinstance(block, DisplayMath):
            out += ["$$", "\\begin{aligned}", " \\\\\n".join(block.rows), "\\end{aligned}", "$$", ""]
        elif isinstance(block, TableBlock):
            out += _md_table(block) + [""]
        elif isinstance(block, Figure):
            out += [f"![{block.caption}]({FIGURES}/{block.name}.svg)", "", f"*{block.caption}*", ""]
        elif isinstance(block, Values):
            out += _md_values(block) + [""]
        elif isinstance(block, Marker):
            out += [f"<!-- {block.text} -->", ""]
    return "\n".join(out).rstrip() + "\n"


# --- LaTeX ---------------------------------------------------------------------------------

PREAMBLE = r"""\documentclass[a4paper,10pt]{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage[margin=2cm]{geometry}
\usepackage{amsmath}
\allowdisplaybreaks
\usepackage{booktabs}
\usepackage[table]{xcolor}
\usepackage{longtable}
\usepackage{graphicx}
\usepackage{pdflscape}
\usepackage{float}
\usepackage[hidelinks]{hyperref}
\pdfinfoomitdate=1
\pdftrailerid{}
\setlength{\tabcolsep}{4pt}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.5\baselineskip}
% a table wider than the line is scaled down to fit it, never overflowing
\newsavebox{\widetable}
\newcommand{\fitwidth}[1]{\sbox{\widetable}{#1}%
  \ifdim\wd\widetable>\linewidth\resizebox{\linewidth}{!}{\usebox{\widetable}}\else\usebox{\widetable}\fi}
% \keepspace{LENGTH}: start a new page unless LENGTH is left on this one (as needspace's \Needspace)
\makeatletter
\newcommand{\keepspace}[1]{\par\penalty-100\begingroup\setlength{\dimen@}{#1}%
  \dimen@ii\pagegoal\advance\dimen@ii-\pagetotal
  \ifdim\dimen@>\dimen@ii\ifdim\dimen@ii>\z@\vfil\fi\break\fi\endgroup}
\makeatother
"""

# Points per table row at each size (exact fractions: \dfrac rows with 10pt between them).
_ROW_PT = {"normalsize": 12.0, "small": 11.0, "footnotesize": 9.5, "scriptsize": 8.0}
_CHAR_PT = {"normalsize": 5.0, "small": 4.6, "footnotesize": 4.1, "scriptsize": 3.5}
_LINE_PT = 12.0
_TEXT_WIDTH_PT = 483.0  # A4 less 2 cm margins
_TEXT_HEIGHT_PT = 720.0
_KEEP_CAP_PT = 0.6 * _TEXT_HEIGHT_PT  # never ask for more than this: a longer block may break anyway


def _cell_chars(value: Any, style: NumberStyle) -> int:
    if isinstance(value, Math):
        return len(re.sub(r"\\[a-z]+|[{}^_]", "", value.tex))
    if isinstance(value, str):
        return len(value)
    if style.exact:  # a stacked fraction is as wide as its longer part
        q = mpq(value)
        return max(len(str(abs(q.numerator))), len(str(q.denominator))) + (q < 0)
    return len(style.plain(value))


def table_is_wide(table: Table, style: NumberStyle, size: str = "small") -> bool:
    """Whether ``table`` at ``size`` would have to shrink below 80% to fit a portrait page.

    Estimated from the longest cell of each column (a fraction: its longer part), at the
    width of an average digit of the size.
    """
    columns = range(len(table.columns))
    chars = [max([_cell_chars(table.columns[i], style)] + [_cell_chars(row[i], style) for row in table.rows])
             for i in columns]
    width = sum(c * _CHAR_PT[size] + 8.0 for c in chars)  # 8pt: the column separation
    return width * 0.8 > _TEXT_WIDTH_PT


def _tex_text(text: str) -> str:
    """Plain text for LaTeX: escaped, with no en dash made of an option's two hyphens."""
    return latex_escape(text).replace("~", r"\textasciitilde{}").replace("--", "-{}-")


def _tex_inline(parts: Sequence[Inline]) -> str:
    return inline_text(parts, lambda tex: f"${tex}$", lambda code: f"\\texttt{{{_tex_text(code)}}}", _tex_text)


def _tex_cell(value: Any, style: NumberStyle, colours: Mapping[str, str] | None = None) -> str:
    if isinstance(value, Math):
        return f"${value.tex}$"
    if isinstance(value, str):
        colour = colours.get(value[:1]) if colours else None
        shade = f"\\cellcolor[HTML]{{{colour.lstrip('#').upper()}}}" if colour else ""
        return shade + _tex_text(value)
    if style.exact:
        return "$" + style.latex(value).replace("\\frac", "\\dfrac") + "$"
    return style.latex(value)


TALL_ROWS = 30  # a table of more rows (not wide, not of stacked fractions) may break across pages


def _breakable(block: TableBlock) -> bool:
    return len(block.table.rows) > TALL_ROWS and not block.wide and not block.style.exact


def _tex_long_table(block: TableBlock, spec: str, rows: list[str]) -> list[str]:
    """A tall table as a longtable: it flows on to the next page, its header repeated."""
    header = " & ".join(_tex_cell(c, block.style) for c in block.table.columns) + " \\\\"
    caption = f"\\caption{{{_tex_inline(block.caption_parts)}}} \\\\" if block.caption_parts else ""
    return [
        f"\\begingroup\\{block.size}",
        f"\\begin{{longtable}}{{{spec}}}",
        *([caption] if caption else []),
        "\\toprule", header, "\\midrule", "\\endfirsthead",
        "\\toprule", header, "\\midrule", "\\endhead",
        "\\bottomrule", "\\endfoot",
        *(row + " \\\\" for row in rows),
        "\\end{longtable}",
        "\\endgroup",
        *(f"\\begin{{center}}\\footnotesize {_tex_inline(n.parts)}\\end{{center}}" for n in block.note_paragraphs),
    ]


def _tex_table(block: TableBlock) -> list[str]:
    table = block.table
    other = "c" if block.centred else "r"
    spec = "".join("l" if i == 0 or i in block.left else other for i in range(len(table.columns)))
    rows = [" & ".join([_tex_cell(row[0], block.style)] + [_tex_cell(v, block.style, block.colours) for v in row[1:]])
            for row in table.rows]
    if _breakable(block):
        return _tex_long_table(block, spec, rows)
    gap = " \\\\[10pt]" if block.style.exact else " \\\\"
    lines = [
        "\\begin{table}[H]",
        f"\\centering\\{block.size}",
        f"\\caption{{{_tex_inline(block.caption_parts)}}}" if block.caption_parts else "",
        f"\\fitwidth{{\\begin{{tabular}}{{{spec}}}",
        "\\toprule",
        " & ".join(_tex_cell(c, block.style) for c in table.columns) + " \\\\",
        "\\midrule",
        *(row + gap for row in rows),
        "\\bottomrule",
        "\\end{tabular}}",
        *(f"\\par\\smallskip{{\\footnotesize {_tex_inline(n.parts)}}}" for n in block.note_paragraphs),
        "\\end{table}",
    ]
    lines = [line for line in lines if line]
    if block.wide:
        lines = ["\\begin{landscape}", *lines, "\\end{landscape}"]
    return lines


def _tex_values(block: Values) -> list[str]:
    lines = ["\\begin{flushleft}\\small"]
    rows = []
    for label, value in block.rows:
        chunks = digit_lines(value)
        text = [f"{_tex_text(label)} $=$"]
        for k, chunk in enumerate(chunks):
            mark = ("\\enspace$\\hookleftarrow$" if k + 1 < len(chunks) and not chunks[k + 1].startswith("/")
                    else "")
            text.append(f"\\hspace*{{1.5em}}\\texttt{{{chunk.replace(' ', '~')}}}{mark}")
        rows.append(" \\\\\n".join(text))
    lines.append(" \\\\[4pt]\n".join(rows))
    return lines + ["\\end{flushleft}"]


def _tex_figure(block: Figure) -> list[str]:
    path = f"{FIGURES}/{block.name}.pdf"
    width, height = figure_box(block)
    lines = [
        "\\begin{figure}[H]", "\\centering",
        f"\\IfFileExists{{{path}}}{{\\includegraphics[width={width:g}pt,height={height:g}pt,"
        f"keepaspectratio]{{{path}}}}}{{\\fbox{{{path} was not drawn (Graphviz or matplotlib missing)}}}}",
        f"\\caption{{{_tex_text(block.caption)}}}", "\\end{figure}",
    ]
    return ["\\begin{landscape}", *lines, "\\end{landscape}"] if block.landscape else lines


def _height(block: Block) -> float:
    """A rough height in points, to keep a heading with what follows it."""
    if isinstance(block, Heading):
        return 3 * _LINE_PT
    if isinstance(block, Paragraph):
        return (block.plain_length() // 95 + 1) * _LINE_PT + 6
    if isinstance(block, Bullets):
        return sum(_height(item) for item in block.items)
    if isinstance(block, DisplayMath):
        return len(block.rows) * 2 * _LINE_PT
    if isinstance(block, TableBlock):
        if block.wide:  # a page of its own
            return 0.0
        if _breakable(block):  # its caption, header and the first rows
            return 12 * _ROW_PT[block.size] + 2 * _LINE_PT
        row = _ROW_PT[block.size] + (20.0 if block.style.exact else 0.0)
        notes = sum(_height(n) * 0.8 for n in block.note_paragraphs)
        return (len(block.table.rows) + 3) * row + 2 * _LINE_PT + notes
    if isinstance(block, Figure):
        return 0.0 if block.landscape else 0.42 * _TEXT_HEIGHT_PT + 3 * _LINE_PT
    if isinstance(block, Values):
        return sum(len(digit_lines(v)) + 0.5 for _, v in block.rows) * _LINE_PT + 12
    return 0.0


def _keep(blocks: Sequence[Block], start: int) -> float:
    """The space to ask for before ``blocks[start]``: it, and a short paragraph's next block, whole.
    A :class:`Marker` ends the look ahead: the text outside a marked section does not depend on it."""
    total = 0.0
    for block in blocks[start:]:
        if isinstance(block, Marker) and total:
            break
        if isinstance(block, (Marker, PageBreak)):
            continue
        total += _height(block)
        short = isinstance(block, Heading) or (isinstance(block, Paragraph) and _height(block) <= 4 * _LINE_PT)
        if not short:
            break
    return min(total, _KEEP_CAP_PT)


def to_latex(document: Document) -> str:
    """The document as LaTeX (article, booktabs); figures as ``figures/NAME.pdf``."""
    return "\n".join([PREAMBLE, f"\\title{{{_tex_text(document.title)}}}", "\\author{bjexact}", "\\date{}",
                      "\\begin{document}", "\\maketitle", "", blocks_latex(document.blocks).rstrip(), "",
                      "\\end{document}"]) + "\n"


def blocks_latex(blocks: Sequence[Block]) -> str:
    """Blocks as LaTeX body text (for :data:`PREAMBLE`'s packages and macros)."""
    out: list[str] = []
    for k, block in enumerate(blocks):
        if isinstance(block, Heading):
            out.append(f"\\keepspace{{{_keep(blocks, k):.0f}pt}}")
            command = "section" if block.level == 1 else "subsection"
            out.append(f"\\{command}{{{_tex_text(block.text)}}}")
        elif isinstance(block, Paragraph):
            out.append(_tex_inline(block.parts))
        elif isinstance(block, Bullets):
            out += ["\\begin{itemize}", *(f"\\item {_tex_inline(i.parts)}" for i in block.items), "\\end{itemize}"]
        elif isinstance(block, DisplayMath):
            out += ["\\begin{align*}", " \\\\\n".join(block.rows), "\\end{align*}"]
        elif isinstance(block, TableBlock):
            if not block.wide:
                out.append(f"\\keepspace{{{min(_height(block), _KEEP_CAP_PT):.0f}pt}}")
            out += _tex_table(block)
        elif isinstance(block, Figure):
            out += _tex_figure(block)
        elif isinstance(block, Values):
            out += _tex_values(block)
        elif isinstance(block, Marker):
            out.append(f"% {block.text}")
        elif isinstance(block, PageBreak):
            out.append("\\clearpage")
        out.append("")
    return "\n".join(out).rstrip() + "\n"
