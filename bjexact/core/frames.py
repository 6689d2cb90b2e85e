"""pandas DataFrames of the package's tables (``to_pandas()``), pandas being an optional extra.

Cells stay exact (gmpy2 ``mpq``, in columns of dtype ``object``) unless floats are asked for;
``df.astype(float)`` converts later. Labels (up-cards, hands, moves) are plain strings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import rank_symbol
from .numbers import mpq

__all__ = ["PANDAS_MISSING", "require_pandas", "data_frame", "upcard_label"]

PANDAS_MISSING = "to_pandas() needs pandas: pip install 'bjexact[pandas]'"


def upcard_label(upcard: int, upcards: str) -> str | int:
    """An up-card in a frame's index: its symbol (``"T"``, ``"A"``) with ``upcards="symbol"``, its
    rank (10, 1) with ``upcards="rank"``."""
    if upcards == "rank":
        return upcard
    if upcards != "symbol":
        raise ValueError(f"upcards must be 'symbol' or 'rank', not {upcards!r}")
    return rank_symbol(upcard)


def require_pandas() -> Any:
    """The pandas module, or an ImportError that says how to install it."""
    try:
        import pandas
    except ImportError:
        raise ImportError(PANDAS_MISSING) from None
    return pandas


def data_frame(records: Sequence[Mapping[str, Any]], columns: Sequence[str], exact: bool = True,
               index: str | Sequence[str] | None = None) -> Any:
    """A DataFrame of ``records`` (one mapping per row) with ``columns`` in this order.

    Exact numbers stay ``mpq`` with ``exact``, else become floats; ``None`` (no value) is kept
    as missing. ``index``: the column(s) that label the rows.
    """
    pandas = require_pandas()

    def cell(value: Any) -> Any:
        if exact or not isinstance(value, type(mpq(0))):
            return value
        return float(value)

    frame = pandas.DataFrame([[cell(r.get(c)) for c in columns] for r in records], columns=list(columns))
    if not exact:
        numeric = [c for c in columns if any(isinstance(r.get(c), type(mpq(0))) for r in records)]
        frame[numeric] = frame[numeric].astype(float)
    if index is not None:
        frame = frame.set_index(index)
    return frame
