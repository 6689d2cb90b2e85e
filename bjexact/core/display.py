"""Rich display in notebooks (Jupyter, IPython) without presentation code in the domain layers.

The domain's value types (dealer tables, player solutions, matrices, decisions) derive from
:class:`Displayable`, which only *asks* for a rendering: its ``_repr_html_`` and
``_repr_markdown_`` look up a presenter registered for the object's type. The presenters are
written in the presentation layer (:mod:`bjexact.render.notebook`), which registers them with
:func:`register_presenter` when it is imported; the package (``bjexact/__init__.py``) names that
module with :func:`present_with`, so it is imported the first time a notebook shows an object,
and ``import bjexact`` stays cheap. The domain layers thus never import the presentation layer
(the dependency points the usual way, from ``render`` down to the types it draws), and a
notebook needs nothing but the object: the value of a cell is displayed as a table.

Without a presenter the methods return ``None``, which tells
IPython to fall back to the plain ``repr``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["Displayable", "register_presenter", "present_with", "presentation"]

Presenter = Callable[[Any, str], str]

_PRESENTERS: dict[type, Presenter] = {}
_MODULES: list[str] = []  # modules that register presenters when imported, not imported yet


class Displayable:
    """A value that notebooks show as a table (HTML or Markdown), drawn by a registered presenter."""

    __slots__ = ()

    def _repr_html_(self) -> str | None:
        return presentation(self, "html")

    def _repr_markdown_(self) -> str | None:
        return presentation(self, "md")


def register_presenter(cls: type, presenter: Presenter) -> None:
    """``presenter(obj, fmt)`` renders instances of ``cls`` (and of its subclasses) as ``fmt``:
    ``"html"`` or ``"md"``."""
    _PRESENTERS[cls] = presenter


def present_with(module: str) -> None:
    """Import ``module`` (which registers presenters) the first time an object is displayed."""
    if module not in _MODULES:
        _MODULES.append(module)


def _presenter(cls: type) -> Presenter | None:
    for base in cls.__mro__:
        if base in _PRESENTERS:
            return _PRESENTERS[base]
    return None


def presentation(obj: Any, fmt: str) -> str | None:
    """``obj`` rendered as ``fmt`` by its presenter, or ``None`` when it has none."""
    while _MODULES and _presenter(type(obj)) is None:
        importlib.import_module(_MODULES.pop(0))
    presenter = _presenter(type(obj))
    return None if presenter is None else presenter(obj, fmt)
