"""The dealer's and player's values as polynomials in the card probabilities.

``models`` (the rings of card probabilities), ``polys`` (their elements: evaluation, strings),
``table`` (the symbolic dealer table), ``boundaries`` (where hit and stand swap, as exact
algebraic numbers) and ``removal`` (effects of removing a card). Their public names are
re-exported here; ``report_section`` and the renderers live in :mod:`bjexact.render.symbolic`.
"""

from __future__ import annotations

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

__all__ = [*_models, *_polys, *_table, *_boundaries, *_removal]

