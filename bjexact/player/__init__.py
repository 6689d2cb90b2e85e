"""The player: the full casino game and the hit/stand game, solved exactly.

The full game (stand, hit, double, split and resplit, surrender, insurance) is in
:mod:`~bjexact.player.game` (``solve_game``, ``hand_moves``), over the values of a hand's moves
(:mod:`~bjexact.player.values`), the exact engine of finite shoes (:mod:`~bjexact.player.engine`),
the cards seen (:mod:`~bjexact.player.seen`), the distribution of the net result
(:mod:`~bjexact.player.distribution`), a fixed chart played over the round
(:mod:`~bjexact.player.policy`), the hands reached after hitting (:mod:`~bjexact.player.reach`) and
perfect play after a split, every split hand knowing every card seen in the round
(:mod:`~bjexact.player.optimal_split`).

The hit/stand game of the textbook treatments: :mod:`~bjexact.player.outcomes` settles finished
hands (its payoffs and objectives), :mod:`~bjexact.player.states` holds the infinite-deck states and
hit chain, and :mod:`~bjexact.player.solver` the infinite-deck and composition-dependent solvers;
:mod:`~bjexact.player.decisions` answers a simulator's hit/stand questions from one solve. The
hit/stand names are re-exported here (``bjexact.player.solve``, ``bjexact.player.hand_decision``, ...).
"""

from .outcomes import *  # noqa: F403
from .outcomes import __all__ as _outcomes
from .solver import *  # noqa: F403
from .solver import __all__ as _solver
from .states import *  # noqa: F403
from .states import __all__ as _states

__all__ = [*_outcomes, *_states, *_solver]
