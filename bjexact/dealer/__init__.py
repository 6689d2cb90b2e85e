"""The dealer: the graph of the dealer's hands, the outcome tables, the canonical matrices.

:mod:`~bjexact.dealer.graph` builds and solves the graph, :mod:`~bjexact.dealer.distributions`
turns it into tables (per up-card, re-weighted for each shoe, averaged over the up-card),
:mod:`~bjexact.dealer.matrices` gives the canonical form and :mod:`~bjexact.dealer.text` the
plain text of a table. The names of ``graph`` and ``distributions`` are re-exported here
(``bjexact.dealer.dealer_table``, ``bjexact.dealer.average_row``, ...).
"""

from .distributions import *  # noqa: F403
from .distributions import __all__ as _distributions
from .graph import *  # noqa: F403
from .graph import __all__ as _graph

__all__ = [*_graph, *_distributions]
