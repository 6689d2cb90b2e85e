"""A small drawing of boxes, lines and text, written as SVG (no dependency) or through matplotlib.

A :class:`Drawing` is laid out in pixels, y downwards, as SVG lays it out. Boxes may
carry a ``title`` (shown on hover in SVG viewers) and ``data-*`` attributes (exact
values for programs that read the figure). The same drawing can be saved as PNG or
PDF through matplotlib (the ``bjexact[plot]`` extra), one pixel to one point; titles
and data attributes exist only in SVG.

Nothing here knows about blackjack: the figures of :mod:`bjexact.render.figures` are
built from these.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import BjexactError
from .memory import Memory

__all__ = ["FIGURE_FORMATS", "Box", "Line", "Label", "Drawing", "figure_format", "text_width", "wrap",
           "PLOT_INSTALL_HINT"]

FIGURE_FORMATS = ("svg", "png", "pdf")
PLOT_INSTALL_HINT = "pip install 'bjexact[plot]'"
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"
_PNG_SCALE = 2  # PNG pixels per drawing pixel


def _escape(text: str) -> str:
    """XML character data (``&``, ``<``, ``>`` escaped); xml.sax is imported when a figure is drawn,
    not when the command line starts."""
    from xml.sax.saxutils import escape as xml_escape

    return xml_escape(text)


def _quoteattr(text: str) -> str:
    """A quoted XML attribute value (see :func:`_escape`)."""
    from xml.sax.saxutils import quoteattr as xml_quoteattr

    return xml_quoteattr(text)


@dataclass(frozen=True)
class Box:
    """A filled rectangle; ``title``: its hover text in SVG; ``data``: ``data-*`` attributes (name, value)."""

    x: float
    y: float
    width: float
    height: float
    fill: str
    stroke: str | None = None
    title: str | None = None
    data: tuple[tuple[str, str], ...] = ()
    role: str | None = None  # the SVG class, for programs that read the figure


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    colour: str = "#000000"
    width: float = 1.0
    dashed: bool = False


@dataclass(frozen=True)
class Label:
    """Text whose baseline starts (``anchor`` start), is centred (middle) or ends (end) at (x, y);
    ``vertical``: read from bottom to top."""

    x: float
    y: float
    text: str
    size: float = 11
    anchor: str = "start"
    bold: bool = False
    colour: str = "#000000"
    vertical: bool = False


Shape = Box | Line | Label


def text_width(text: str, size: float) -> float:
    """A generous estimate of the width of ``text`` in pixels at font ``size`` (DejaVu Sans)."""
    return len(text) * size * 0.62


def wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` in lines of at most ``width`` pixels at font ``size``, broken at spaces."""
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        candidate = f"{current} {word}" if current else word
        if current and text_width(candidate, size) > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def figure_format(path: str) -> str:
    """The figure format named by a file's extension: svg, png or pdf."""
    extension = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if extension not in FIGURE_FORMATS:
        raise BjexactError(f"a figure file must end in .svg, .png or .pdf, not {path[:60]!r}")
    return extension


@dataclass(frozen=True)
class Drawing:
    """``width`` x ``height`` pixels of shapes, drawn in order; ``title``: the document's title."""

    width: float
    height: float
    shapes: Sequence[Shape]
    title: str = ""

    def svg(self) -> str:
        """The drawing as a standalone SVG document (UTF-8 text)."""
        out = ['<?xml version="1.0" encoding="UTF-8"?>',
               f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(self.width)}" height="{_n(self.height)}" '
               f'viewBox="0 0 {_n(self.width)} {_n(self.height)}" font-family={_quoteattr(FONT)}>']
        if self.title:
            out.append(f"<title>{_escape(self.title)}</title>")
        out.append(f'<rect x="0" y="0" width="{_n(self.width)}" height="{_n(self.height)}" fill="#ffffff"/>')
        out.extend(_svg_shape(shape) for shape in self.shapes)
        out.append("</svg>")
        return "\n".join(out) + "\n"

    def _repr_svg_(self) -> str:
        """Jupyter shows the picture: the SVG without its XML declaration, to sit inside a page."""
        return self.svg().split("\n", 1)[1]

    def render(self, fmt: str) -> bytes:
        """The file's bytes in ``fmt`` (svg, png or pdf); png and pdf need matplotlib."""
        if fmt == "svg":
            return self.svg().encode()
        if fmt not in FIGURE_FORMATS:
            raise BjexactError(f"unknown figure format {fmt!r} (use svg, png or pdf)")
        return self._matplotlib(fmt)

    def _matplotlib(self, fmt: str) -> bytes:
        try:
            import matplotlib
        except ImportError:
            raise BjexactError(f".{fmt} figures need matplotlib: {PLOT_INSTALL_HINT} (or write .svg, which "
                               "needs nothing)") from None
        matplotlib.use("Agg")
        # the file's bytes depend only on the drawing, the format and matplotlib's settings (no date is
        # written): a drawing rendered again in the process (the same report written twice) is remembered
        key = (fmt, repr(self), repr(sorted(dict.items(matplotlib.rcParams))))
        return _RENDERED.recall(key, lambda: self._draw_matplotlib(fmt))

    def _draw_matplotlib(self, fmt: str) -> bytes:
        import matplotlib.pyplot as plt
        from matplotlib.patches import Rectangle

        figure = plt.figure(figsize=(self.width / 72, self.height / 72), dpi=72 * _PNG_SCALE)
        axes = figure.add_axes((0, 0, 1, 1))
        axes.set_xlim(0, self.width)
        axes.set_ylim(self.height, 0)
        axes.axis("off")
        for order, shape in enumerate(self.shapes, 1):  # drawn in order, as in SVG
            if isinstance(shape, Box):
                axes.add_patch(Rectangle((shape.x, shape.y), shape.width, shape.height, facecolor=shape.fill,
                                         edgecolor=shape.stroke or "none", linewidth=0.75 if shape.stroke else 0,
                                         zorder=order))
            elif isinstance(shape, Line):
                axes.plot([shape.x1, shape.x2], [shape.y1, shape.y2], color=shape.colour, linewidth=shape.width,
                          linestyle="--" if shape.dashed else "-", solid_capstyle="butt", zorder=order)
            else:
                alignment = {"start": "left", "middle": "center", "end": "right"}[shape.anchor]
                axes.text(shape.x, shape.y, shape.text, fontsize=shape.size, ha=alignment, va="baseline",
                          color=shape.colour, fontweight="bold" if shape.bold else "normal",
                          rotation=90 if shape.vertical else 0, rotation_mode="anchor", zorder=order)
        buffer = io.BytesIO()
        metadata: dict[str, Any] = {"CreationDate": None} if fmt == "pdf" else {}
        figure.savefig(buffer, format=fmt, metadata=metadata)
        plt.close(figure)
        return buffer.getvalue()


_RENDERED: Memory[tuple[str, str, str], bytes] = Memory(16)


def _n(value: float) -> str:
    """A coordinate, short: 12, 12.5, 12.25."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _svg_shape(shape: Shape) -> str:
    if isinstance(shape, Box):
        attributes = [f'x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.width)}" height="{_n(shape.height)}"',
                      f'fill="{shape.fill}"']
        if shape.stroke:
            attributes.append(f'stroke="{shape.stroke}" stroke-width="0.75"')
        if shape.role:
            attributes.append(f"class={_quoteattr(shape.role)}")
        attributes.extend(f"data-{name}={_quoteattr(value)}" for name, value in shape.data)
        if shape.title is None:
            return f"<rect {' '.join(attributes)}/>"
        return f"<rect {' '.join(attributes)}><title>{_escape(shape.title)}</title></rect>"
    if isinstance(shape, Line):
        dash = ' stroke-dasharray="4 3"' if shape.dashed else ""
        return (f'<line x1="{_n(shape.x1)}" y1="{_n(shape.y1)}" x2="{_n(shape.x2)}" y2="{_n(shape.y2)}" '
                f'stroke="{shape.colour}" stroke-width="{_n(shape.width)}"{dash}/>')
    attributes = [f'x="{_n(shape.x)}" y="{_n(shape.y)}" font-size="{_n(shape.size)}"']
    if shape.anchor != "start":
        attributes.append(f'text-anchor="{shape.anchor}"')
    if shape.bold:
        attributes.append('font-weight="bold"')
    if shape.colour != "#000000":
        attributes.append(f'fill="{shape.colour}"')
    if shape.vertical:
        attributes.append(f'transform="rotate(-90 {_n(shape.x)} {_n(shape.y)})"')
    # hover goes to the box under the text, not to the text
    return f'<text {" ".join(attributes)} pointer-events="none">{_escape(shape.text)}</text>'
