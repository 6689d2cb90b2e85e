"""The player's hit/stand game: settlement, states, the exact solvers and their results.

The names of :mod:`bjexact.player.solver` are re-exported here (``bjexact.player.solve``,
``bjexact.player.hand_decision``, ...).
"""

from .solver import *  # noqa: F403
from .solver import __all__ as __all__  # noqa: F401
