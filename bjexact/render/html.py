"""A :class:`~bjexact.render.document.Document` as one self-contained HTML page.

The page needs no other file and no network: its style is inline, figures are inline SVG
(given by the caller, by figure name), and maths is set as text (``\\frac{a}{b}`` as
``a/b``, ``x^{2}`` as a superscript; no script). Every exact number of a table shows a
decimal and carries its exact value ``p/q`` as hover text (the cell's ``title``) and in
``data-exact``. A figure whose SVG is not given is not linked: its caption is kept, in a
box that says it was not drawn.

>>> from bjexact.core.text import NumberStyle, Table
>>> from bjexact.render.document import Document, TableBlock
>>> from bjexact.core.numbers import mpq
>>> page = to_html(Document("t", (TableBlock(Table("", ["x", "p"], [["a", mpq(1, 3)]]), NumberStyle()),)))
>>> '<td title="1/3" data-exact="1/3">33.3333</td>' in page
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.numbers import fraction_string, mpq
from ..core.text import NumberStyle
from .document import (
    Block,
    Bullets,
    DisplayMath,
    Document,
    Figure,
    Heading,
    Inline,
    Marker,
    Math,
    Paragraph,
    TableBlock,
    Values,
    digit_lines,
    inline_text,
)

__all__ = ["to_html", "blocks_html", "math_text", "svg_fragment", "STYLE"]


def _text(text: str) -> str:
    """Text for an element's content (quotes stay as they are: only ``&``, ``<`` and ``>`` are escaped)."""
    return html.escape(text, quote=False)

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 72rem; margin: 2rem auto;
       padding: 0 1rem; line-height: 1.45; color: #1b1b1b; }
h1 { font-size: 1.7rem; } h2 { font-size: 1.35rem; margin-top: 2.2rem; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.1rem; }
div.wide { overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6rem 0; font-size: 0.9rem; }
caption { caption-side: top; text-align: left; font-weight: 600; padding-bottom: 0.3rem; }
th, td { border-bottom: 1px solid #e2e2e2; padding: 0.15rem 0.45rem; text-align: right; }
th { border-bottom: 2px solid #888; }
td.text, th:first-child, td:first-child { text-align: left; }
table.codes td { text-align: center; font-family: ui-monospace, monospace; }
td[title] { cursor: help; }
.note { font-size: 0.85rem; font-style: italic; margin: 0.2rem 0 1rem; }
figure { margin: 1rem 0; overflow-x: auto; } figure svg { max-width: 100%; height: auto; }
figcaption { font-size: 0.85rem; font-style: italic; }
.missing { border: 1px dashed #999; padding: 0.6rem; color: #555; }
.math { font-family: "Times New Roman", serif; font-style: italic; white-space: nowrap; }
pre { background: #f6f6f6; padding: 0.5rem; overflow-x: auto; font-size: 0.85rem; }
code { font-family: ui-monospace, monospace; font-size: 0.9em; }
"""

# TeX commands written as one character (or nothing) in the page's text
_SYMBOLS = {
    "mid": "\u2223", "cdot": "\u00b7", "times": "\u00d7", "le": "\u2264", "leq": "\u2264", "ge": "\u2265",
    "geq": "\u2265", "ne": "\u2260", "neq": "\u2260", "sum": "\u2211", "infty": "\u221e", "to": "\u2192",
    "partial": "\u2202", "pm": "\u00b1", "approx": "\u2248", "ldots": "\u2026", "dots": "\u2026", "left": "",
    "right": "", "quad": "\u2003", "qquad": "\u2003\u2003", ",": "\u2009", ";": "\u2005", "!": "", " ": " ",
    "{": "{", "}": "}", "%": "%", "&": "&", "_": "_", "\\": "; ",
}
_WORD = re.compile(r"\\(text|mathrm|operatorname|mathit|mathbf|textrm)\{([^{}]*)\}")


def math_text(tex: str) -> str:
    """LaTeX maths as HTML text, for reading: fractions as ``a/b``, scripts as ``<sup>``/``<sub>``,
    common symbols as characters (an unknown command shows its name).

    >>> math_text(r"P(\\text{bust} \\mid 6)")
    'P(bust \u2223 6)'
    >>> math_text(r"N = (I - T)^{-1}")
    'N = (I - T)<sup>-1</sup>'
    >>> math_text(r"\\frac{3 t^{2}}{4} + \\frac{1}{2}")
    '(3 t<sup>2</sup>)/4 + 1/2'
    """
    text = _WORD.sub(lambda m: m.group(2), tex).replace("&", "")
    out: list[str] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            name = re.match(r"[A-Za-z]+|.", text[i + 1:])
            word = name.group(0) if name else ""
            i += 1 + len(word)
            if word in ("frac", "dfrac", "tfrac"):
                top, i = _script(text, _skip_spaces(text, i))
                bottom, i = _script(text, _skip_spaces(text, i))
                out.append(f"{_grouped(math_text(top))}/{_grouped(math_text(bottom))}")
            else:
                out.append(_text(_SYMBOLS.get(word, word)))
        elif char in "^_" and i + 1 < len(text):
            tag = "sup" if char == "^" else "sub"
            body, i = _script(text, i + 1)
            out.append(f"<{tag}>{math_text(body)}</{tag}>")
        elif char in "{}":
            i += 1
        else:
            out.append(_text(char))
            i += 1
    return re.sub(r" {2,}", " ", "".join(out)).strip()


def _grouped(part: str) -> str:
    """A fraction's numerator or denominator, in brackets unless it is one number or name."""
    return part if re.fullmatch(r"[\w.∂]+", part) else f"({part})"


def _skip_spaces(text: str, start: int) -> int:
    while start < len(text) and text[start] == " ":
        start += 1
    return start


def _script(text: str, start: int) -> tuple[str, int]:
    """The script starting at ``start`` (a braced group or one character) and the index after it."""
    if start >= len(text):
        return "", start
    if text[start] != "{":
        return text[start], start + 1
    depth = 0
    for k in range(start, len(text)):
        depth += {"{": 1, "}": -1}.get(text[k], 0)
        if depth == 0:
            return text[start + 1:k], k + 1
    return text[start + 1:], len(text)


def _inline(parts: Sequence[Inline]) -> str:
    return inline_text(parts, lambda tex: f'<span class="math">{math_text(tex)}</span>',
                       lambda code: f"<code>{_text(code)}</code>", _text)


def _cell(value: Any, style: NumberStyle, colours: Mapping[str, str] | None, tag: str = "td") -> str:
    if isinstance(value, Math):
        return f'<{tag}><span class="math">{math_text(value.tex)}</span></{tag}>'
    if isinstance(value, str):
        colour = colours.get(value[:1]) if colours and tag == "td" else None
        shade = f' style="background:{colour}"' if colour else ""
        return f'<{tag} class="text"{shade}>{_text(value)}</{tag}>'
    exact = fraction_string(mpq(value))
    return f'<{tag} title="{exact}" data-exact="{exact}">{_text(style.plain(value))}</{tag}>'


def _table(block: TableBlock) -> list[str]:
    table = block.table
    kind = ' class="codes"' if block.centred else ""
    lines = ['<div class="wide">', f"<table{kind}>"]
    if block.caption_parts:
        lines.append(f"<caption>{_inline(block.caption_parts)}</caption>")
    lines.append("<thead><tr>" + "".join(_cell(c, block.style, None, "th") for c in table.columns) + "</tr></thead>")
    lines.append("<tbody>")
    lines += ["<tr>" + _cell(row[0], block.style, None) + "".join(_cell(v, block.style, block.colours) for v in row[1:])
              + "</tr>" for row in table.rows]
    lines.append("</tbody></table></div>")
    lines += [f'<p class="note">{_inline(note.parts)}</p>' for note in block.note_paragraphs]
    return lines


def _values(block: Values) -> list[str]:
    rows = []
    for label, value in block.rows:
        exact = fraction_string(mpq(value))
        rows.append(f'<span title="{exact}">{_text(label)} = ' + "\n    ".join(digit_lines(value)) + "</span>")
    return ["<pre>" + "\n".join(rows) + "</pre>"]


def svg_fragment(svg: str | bytes) -> str:
    """SVG text to inline in a page: without its XML declaration, doctype and comments."""
    text = svg.decode() if isinstance(svg, bytes) else svg
    text = re.sub(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<!--.*?-->", "", text, flags=re.S)
    return text.strip()


def _figure(block: Figure, svg: str | None) -> list[str]:
    caption = f"<figcaption>{_text(block.caption)}</figcaption>"
    if svg is None:
        return [f'<figure id="{block.name}"><div class="missing">{_text(block.name)}: not drawn</div>'
                f"{caption}</figure>"]
    return [f'<figure id="{block.name}">', svg_fragment(svg), caption, "</figure>"]


def blocks_html(blocks: Sequence[Block], figures: Mapping[str, str | None]) -> str:
    """Blocks as HTML body text; ``figures``: each figure's SVG text by name (absent or ``None``: not drawn)."""
    out: list[str] = []
    for block in blocks:
        if isinstance(block, Heading):
            level = block.level + 1
            out.append(f"<h{level}>{_text(block.text)}</h{level}>")
        elif isinstance(block, Paragraph):
            out.append(f"<p>{_inline(block.parts)}</p>")
        elif isinstance(block, Bullets):
            out += ["<ul>", *(f"<li>{_inline(item.parts)}</li>" for item in block.items), "</ul>"]
        elif isinstance(block, DisplayMath):
            out += ['<p class="math">' + "<br>".join(math_text(row) for row in block.rows) + "</p>"]
        elif isinstance(block, TableBlock):
            out += _table(block)
        elif isinstance(block, Figure):
            out += _figure(block, figures.get(block.name))
        elif isinstance(block, Values):
            out += _values(block)
        elif isinstance(block, Marker):
            out.append(f"<!-- {_text(block.text)} -->")
    return "\n".join(out) + "\n"


def to_html(document: Document, figures: Mapping[str, str | None] | None = None) -> str:
    """The document as one HTML page; ``figures``: each figure's SVG by name (see :func:`blocks_html`)."""
    title = _text(document.title)
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">', f"<title>{title}</title>",
        f"<style>{STYLE}</style>", "</head>", "<body>", f"<h1>{title}</h1>",
        blocks_html(document.blocks, figures or {}).rstrip(), "</body>", "</html>",
    ]) + "\n"
