"""The dealer: the graph of the dealer's hands, the outcome tables, the canonical matrices.

The names of :mod:`bjexact.dealer.graph` are re-exported here (``bjexact.dealer.dealer_table``,
``bjexact.dealer.average_row``, ...).
"""

from .graph import *  # noqa: F403
from .graph import ShoeDraws, graph_for  # noqa: F401
from .graph import __all__ as _graph_all

__all__ = [*_graph_all, "graph_for"]
