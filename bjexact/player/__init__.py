"""The player's hit/stand game: settlement, states, the exact solvers and their results.

:mod:`~bjexact.player.outcomes` settles finished hands (the one owner of payoffs),
:mod:`~bjexact.player.states` holds the infinite-deck states and hit chain, and
:mod:`~bjexact.player.solver` the infinite-deck and composition-dependent solvers. Their
names are re-exported here (``bjexact.player.solve``, ``bjexact.player.hand_decision``, ...).
"""

from .outcomes import *  # noqa: F403
from .outcomes import __all__ as _outcomes
from .solver import *  # noqa: F403
from .solver import __all__ as _solver
from .states import *  # noqa: F403
from .states import __all__ as _states

__all__ = [*_outcomes, *_states, *_solver]
