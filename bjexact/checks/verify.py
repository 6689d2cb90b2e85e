"""Check printed tables against the exact values: reading them, judging each cell, naming conventions.

Reading
    :func:`read_dealer_table` reads a dealer table as people print it: CSV, TSV,
    semicolon-separated (with decimal commas), whitespace-aligned text, Markdown
    tables and text tables with ``|`` separators and ``-----`` or ``+---+`` rules.
    Lines before the header (titles) and prose lines after it (notes) are skipped.
    The header is the first line with at least three outcome labels (``17`` ..
    ``21``, ``bust``, ``blackjack``/``bj``/``natural``; columns in any order, an
    optional ``sum``/``total`` column). Rows are labelled ``2`` .. ``10``, ``T``,
    ``J``, ``Q``, ``K`` (all ten-valued), ``A``/``Ace``/``1``/``11``, or ``Total``.

Numbers and their precision
    A value is a probability or a percentage (``%`` anywhere in the cells, or any
    value above 1, makes the whole table percentages). Each cell's precision is
    inferred from how it is printed: ``13.98`` claims the exact value lies within
    half a unit of its last digit, ``13.975 <= x <= 13.985``; exact halves count
    either way, since printers round them differently. The comparison is done with
    exact rationals: the printed decimal is converted exactly, never via a float.

    *Long floats* (15 or more significant digits, as ``repr(float)`` prints) carry
    binary rounding noise below their last digit, so half a unit is too strict:
    they are consistent when ``|error| <= atol + rtol * |exact|`` (defaults 1e-15 and
    1e-9, in the table's units), or within ``max_ulps`` units in the last place of a
    float64 when that is given. Exact fractions ``p/q`` must be equal. A dash means 0.

    Errors are printed - exact, in the table's own units (percentage points for a
    percentage table); ``exact`` fractions are always probabilities.

The "Total" row
    The up-card-weighted average of the rows, :func:`bjexact.dealer.average_row`:
    ``sum_u P(up-card u) * row_u`` with ``P(u)`` from the full shoe (4/13 for ten-valued
    cards in the infinite deck), that is P(outcome). Under ``peek`` each row is weighted
    by ``P(u) * P(no natural | u)`` and the sum divided by P(no natural): the Total row is
    P(outcome | the dealer has no natural), conditioned like the rows it averages.

Player tables
    :func:`read_player_table` reads hit/stand policy grids (H/S) and tables of the
    values of standing, hitting or the best move, in hard and soft blocks against the
    up-cards; :func:`check_player_table` judges them against :mod:`bjexact.player`.

Conventions and slips
    :func:`identify` checks a table against every convention of :data:`CONVENTIONS`
    and, when none fits, explains the pattern: rows that match another rule, rows
    that do not sum to 1, swapped columns or rows, and *known slips* such as
    :func:`soft_ace_becomes_hard`, evaluated by :func:`slipped_dealer_table`.

Layout: :mod:`~bjexact.checks.printed` (reading numbers and dealer tables),
:mod:`~bjexact.checks.dealer_tables` (checking them), :mod:`~bjexact.checks.identify` (which
convention a table follows), :mod:`~bjexact.checks.slips` (known slips),
:mod:`~bjexact.checks.messages` (reports for people) and :mod:`~bjexact.checks.player_tables`
(hit/stand grids and value tables).
"""

from .dealer_tables import *  # noqa: F403
from .dealer_tables import __all__ as _dealer_tables
from .identify import *  # noqa: F403
from .identify import __all__ as _identify
from .messages import *  # noqa: F403
from .messages import __all__ as _messages
from .player_tables import *  # noqa: F403
from .player_tables import __all__ as _player_tables
from .printed import *  # noqa: F403
from .printed import __all__ as _printed
from .slips import *  # noqa: F403
from .slips import __all__ as _slips

__all__ = [*_printed, *_dealer_tables, *_identify, *_slips, *_messages, *_player_tables]
