"""Card models: the rings whose variables are the card probabilities.

Card models (infinite deck only: the cards are drawn with replacement)
    ``ranks``
        one variable per rank, ``p_A, p_2, ..., p_9, p_T``: the ring
        ``QQ[p_A, ..., p_T]``. The variables are *not* tied by
        ``p_A + ... + p_T = 1``: a result is the polynomial the graph produces,
        and it equals the outcome probability whenever the ten values are the
        probabilities of a deck (non-negative, summing to 1).
    ``ten density``
        one variable ``t`` (any name): ``p_T = t`` and every other rank
        ``(1 - t)/9``; the ring ``QQ[t]``. ``t = 4/13`` is the standard deck.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from ..core.cards import RANK_SYMBOLS, STANDARD_PROBABILITIES, TEN
from ..core.numbers import mpq
from ..errors import BjexactError

__all__ = ["RANK_VARIABLES", "STANDARD_TEN_DENSITY", "CardModel", "per_rank_model", "ten_density_model"]

RANK_VARIABLES: tuple[str, ...] = tuple(f"p_{s}" for s in RANK_SYMBOLS)
_STANDARD = STANDARD_PROBABILITIES
STANDARD_TEN_DENSITY = STANDARD_PROBABILITIES[TEN - 1]
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
# names that sympy's parser reads as constants or functions: a variable must not shadow them
_RESERVED = {"E", "I", "N", "O", "Q", "S", "pi", "oo", "zoo", "nan", "beta", "gamma", "lambda", "zeta"}


@cache
def _domain(names: tuple[str, ...], field: bool):
    from sympy import QQ, Symbol

    gens = [Symbol(name) for name in names]
    return QQ.frac_field(*gens) if field else QQ.poly_ring(*gens)


@dataclass(frozen=True)
class CardModel:
    """Symbolic draw probabilities of the infinite deck, usable as ``draws`` by the dealer graph.

    ``kind`` is ``"ranks"`` (variables ``p_A .. p_T``) or ``"ten-density"`` (one
    variable, the probability of a ten-valued card; the nine other ranks share the
    rest equally). ``field``: work in the fraction field (needed by ``peek``).
    """

    kind: str
    variables: tuple[str, ...]
    field: bool = False

    def __post_init__(self) -> None:
        if self.kind not in ("ranks", "ten-density"):
            raise BjexactError(f"unknown card model {self.kind!r} (use ranks or ten-density)")
        for name in self.variables:
            if not _NAME.match(name) or name in _RESERVED:
                raise BjexactError(f"{name!r} cannot name a variable (use a letter, e.g. t)")

    @property
    def domain(self):
        """The sympy domain: ``QQ[vars]``, or its fraction field ``QQ(vars)``."""
        return _domain(self.variables, self.field)

    @property
    def gens(self) -> tuple[Any, ...]:
        return tuple(self.domain.gens)

    @cached_property
    def _probabilities(self) -> tuple[Any, ...]:
        gens = self.gens
        if self.kind == "ranks":
            return gens
        (t,) = gens
        other = (self.domain.one - t) * self.domain.convert(mpq(1, 9))
        return (other,) * 9 + (t,)

    def probabilities(self, cards: Any = None) -> tuple[Any, ...]:
        """P(A), ..., P(T) as domain elements (the infinite deck: ``cards`` is ignored)."""
        return self._probabilities

    @property
    def standard_point(self) -> tuple[mpq, ...]:
        """The values of the variables for the standard deck (1/13 each, ten-valued 4/13)."""
        return _STANDARD if self.kind == "ranks" else (STANDARD_TEN_DENSITY,)

    def with_field(self, field: bool = True) -> CardModel:
        return CardModel(self.kind, self.variables, field)

    def describe(self) -> str:
        if self.kind == "ranks":
            return "polynomials in p_A, p_2, ..., p_9, p_T (infinite deck)"
        t = self.variables[0]
        return f"polynomials in {t} = P(ten-valued card); every other rank (1 - {t})/9 (infinite deck)"


@dataclass(frozen=True, slots=True)
class _Quotient:
    """``numer / denom`` over a polynomial ring, without gcd cancellation (see :class:`_Quotients`)."""

    numer: Any
    denom: Any

    def _lift(self, other: Any) -> _Quotient:
        if isinstance(other, _Quotient):
            return other
        ring = self.numer.ring
        return _Quotient(ring.convert(other) if not hasattr(other, "ring") else other, ring.one)

    def __add__(self, other: Any) -> _Quotient:
        other = self._lift(other)
        if self.denom == other.denom:
            return _Quotient(self.numer + other.numer, self.denom)
        return _Quotient(self.numer * other.denom + other.numer * self.denom, self.denom * other.denom)

    __radd__ = __add__

    def __neg__(self) -> _Quotient:
        return _Quotient(-self.numer, self.denom)

    def __sub__(self, other: Any) -> _Quotient:
        return self + (-self._lift(other))

    def __rsub__(self, other: Any) -> _Quotient:
        return self._lift(other) - self

    def __mul__(self, other: Any) -> _Quotient:
        other = self._lift(other)
        return _Quotient(self.numer * other.numer, self.denom * other.denom)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> _Quotient:
        other = self._lift(other)
        return _Quotient(self.numer * other.denom, self.denom * other.numer)

    def __bool__(self) -> bool:
        return bool(self.numer)


class _Quotients:
    """A light fraction field for solving ``peek``: only the first draw of the A and T rows divides,
    so most elements keep the denominator 1 and cost what ring elements cost. Results are moved to
    sympy's fraction field (which cancels common factors) once, at the end."""

    def __init__(self, ring_domain: Any):
        ring = ring_domain.ring
        self.zero = _Quotient(ring.zero, ring.one)
        self.one = _Quotient(ring.one, ring.one)

    def convert(self, value: Any) -> _Quotient:
        return self.one._lift(value)


@dataclass(frozen=True)
class QuotientDraws:
    """The draws of ``model`` (a ring model) as :class:`_Quotient` elements."""

    model: CardModel

    @cached_property
    def domain(self) -> _Quotients:
        return _Quotients(self.model.domain)

    @cached_property
    def _probabilities(self) -> tuple[_Quotient, ...]:
        return tuple(self.domain.convert(p) for p in self.model.probabilities())

    def probabilities(self, cards: Any = None) -> tuple[_Quotient, ...]:
        return self._probabilities


def per_rank_model(field: bool = False) -> CardModel:
    """One variable per rank: ``QQ[p_A, p_2, ..., p_9, p_T]``."""
    return CardModel("ranks", RANK_VARIABLES, field)


def ten_density_model(name: str = "t", field: bool = False) -> CardModel:
    """One variable, the ten density: ``p_T = name``, every other rank ``(1 - name)/9``."""
    return CardModel("ten-density", (name,), field)
