"""The dealer's and player's values as polynomials in the card probabilities.

``models`` (the rings of card probabilities), ``polys`` (their elements: evaluation, strings),
``table`` (the symbolic dealer table), ``boundaries`` (where hit and stand swap, as exact
algebraic numbers) and ``removal`` (effects of removing a card). Their public names are
re-exported here; ``report_section`` and the renderers live in :mod:`bjexact.render.symbolic`
and are found here too, on first use, for code written against the former single module.
"""

from __future__ import annotations

import importlib
from typing import Any

from .boundaries import *  # noqa: F403
from .boundaries import __all__ as _boundaries
from .models import *  # noqa: F403
from .models import __all__ as _models
from .polys import *  # noqa: F403
from .polys import __all__ as _polys
from .removal import *  # noqa: F403
from .removal import __all__ as _removal
from .table import *  # noqa: F403
from .table import __all__ as _table

_RENDERED = ("render_symbolic", "render_boundaries", "report_section", "SYMBOLIC_FORMATS", "REPORT_DECISIONS")

__all__ = [*_models, *_polys, *_table, *_boundaries, *_removal]


def __getattr__(name: str) -> Any:
    if name in _RENDERED:  # presentation sits above this layer: imported when asked for
        return getattr(importlib.import_module("bjexact.render.symbolic"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
