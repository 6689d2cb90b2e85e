"""Figure files on the command line: ``dealer --plot``, ``chart -o FILE.svg`` / ``--heatmap``, ``edge --plot``.

A figure's file is checked before any work (its ending, the place it goes, matplotlib
for .png and .pdf), and written with the command's other output all or none
(:func:`bjexact.cli.common.write_outputs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import BjexactError
from ..files import check_writable
from .common import output_path

if TYPE_CHECKING:
    from ..render.svg import Drawing

FIGURE_HELP = "(.svg needs nothing; .png and .pdf need matplotlib: pip install 'bjexact[plot]')"


@dataclass(frozen=True)
class FigureFile:
    """Where a figure goes and in which format (svg, png, pdf)."""

    path: Path
    fmt: str


def figure_file(name: str, option: str) -> FigureFile:
    """The figure file ``option`` names, checked now: its ending, that it can be written, and
    matplotlib for .png and .pdf (one line saying how to install it when it is missing)."""
    from ..render.svg import PLOT_INSTALL_HINT, figure_format

    try:
        fmt = figure_format(name)
    except BjexactError as exc:
        raise BjexactError(f"{option}: {exc}") from None
    path = output_path(name)
    check_writable(path)
    if fmt != "svg":
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise BjexactError(f"{option} {path.name[:40]}: .{fmt} figures need matplotlib: {PLOT_INSTALL_HINT} "
                               "(or write .svg, which needs nothing)") from None
    return FigureFile(path, fmt)


def rendered(figures: Sequence[tuple[FigureFile, Drawing]]) -> list[tuple[Path, bytes]]:
    """Each (file, drawing) as (path, the file's bytes), to be written with the command's other outputs."""
    return [(target.path, drawing.render(target.fmt)) for target, drawing in figures]
