"""The optimal choice, the one owner: which move a value-maximising player makes, and its value.

Every solver of the package (the hit/stand solvers, the full game's solvers and engine checks,
the symbolic decision boundaries, the charts and the count's indices) chooses by these rules:

* the move of largest value is made;
* on a tie the earlier move of :data:`MOVES` is made: stand before hit, hit before double,
  double before split, split before surrender (so a hand hits only when hitting is strictly
  better than standing).

The values may be of any ordered exact number type (``mpq``, ``int``, ``Fraction``, sympy
rationals): nothing is rounded, and nothing here converts them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypeVar

__all__ = ["MOVES", "best_move", "hits", "hit_or_stand", "optimal_value"]

MOVES = ("stand", "hit", "double", "split", "surrender")


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...

    def __gt__(self, other: Any, /) -> bool: ...


Value = TypeVar("Value", bound=_Ordered)


def best_move(values: Mapping[str, Value]) -> str:
    """The move of largest value among ``values`` (move -> value, moves of :data:`MOVES`); ties go
    to the earlier move of :data:`MOVES`.

    >>> best_move({"stand": 0, "hit": 0, "double": -1})
    'stand'
    >>> best_move({"hit": 1, "double": 2, "surrender": 2})
    'double'
    """
    return max(values, key=lambda move: (values[move], -MOVES.index(move)))


def hits(stand: Value, hit: Value | None) -> bool:
    """Whether a hand that may stand or hit hits: only when hitting is strictly better (``hit``
    ``None``: no card can be drawn, so it stands).

    >>> hits(-1, 0), hits(0, 0), hits(0, None)
    (True, False, False)
    """
    return hit is not None and hit > stand


def hit_or_stand(stand: Value, hit: Value | None) -> str:
    """``"hit"`` or ``"stand"``, as :func:`hits` decides."""
    return "hit" if hits(stand, hit) else "stand"


def optimal_value(stand: Value, hit: Value | None) -> Value:
    """The value of a hand that may stand or hit, played optimally: the larger of the two
    (standing when ``hit`` is ``None``).

    >>> optimal_value(-1, 0), optimal_value(0, None)
    (0, 0)
    """
    return hit if hit is not None and hits(stand, hit) else stand
