"""Exact rational numbers: the element type, conversions and fraction strings.

All probabilities in bjexact are elements of sympy's ``QQ`` domain with the
gmpy2 ground types, that is ``gmpy2.mpq`` values. The fast paths use ``mpq``
directly (importing sympy costs a third of a second); anything that accepts a
sympy ``Domain`` gets ``QQ`` or a polynomial ring over it.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from typing import Any

from gmpy2 import mpq

from ..errors import BjexactError

__all__ = ["mpq", "RATIONALS", "as_rational", "whole", "fraction_string", "parse_fraction", "short",
           "check_number_text"]


class _Rationals:
    """The ``zero``/``one``/``convert`` part of sympy's ``QQ``, without importing sympy.

    Its elements are exactly those of ``sympy.QQ`` with gmpy2 ground types.
    """

    zero = mpq(0)
    one = mpq(1)

    def convert(self, value: Any) -> mpq:
        return as_rational(value)

    def __repr__(self) -> str:
        return "QQ"


RATIONALS = _Rationals()


@cache
def whole(n: int) -> mpq:
    """The whole number ``n`` as an mpq, one object per number: a distribution whose results are whole
    units keys its dict by these, whose hashes are computed once (a fresh mpq computes its hash anew,
    which costs more than the products of a convolution).

    >>> whole(-2) is whole(-2), whole(3) == mpq(3)
    (True, True)
    """
    return mpq(n)


def as_rational(value: Any) -> mpq:
    """Convert an int, Fraction, sympy Rational, mpq or 'p/q' string to ``mpq`` exactly.

    Floats are refused: they would smuggle binary rounding into exact results.
    """
    if isinstance(value, float):
        raise TypeError(f"refusing to convert the float {value!r} to an exact rational")
    if isinstance(value, str):
        return parse_fraction(value)
    if hasattr(value, "p") and hasattr(value, "q"):  # sympy Rational / Integer
        return mpq(int(value.p), int(value.q))
    if isinstance(value, Fraction):
        return mpq(value.numerator, value.denominator)
    return mpq(value)


def fraction_string(value: Any) -> str:
    """The exact value as ``"p/q"`` in lowest terms, or ``"p"`` when it is an integer."""
    value = as_rational(value)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{value.numerator}/{value.denominator}"


_EXACT = re.compile(r"-?[0-9]+(?:/[0-9]+)?")


def parse_fraction(text: str) -> mpq:
    """Parse ``"p/q"``, ``"p"`` or a finite decimal such as ``"0.25"`` exactly.

    An exponent of four digits or more (``1e999999999`` would take hours) is refused
    before converting; exact fractions of any length (the "p/q" strings bjexact
    writes) are read back. Options typed by people are bounded in length where the
    command line reads them.
    """
    if _EXACT.fullmatch(text):  # the form bjexact writes, read by gmpy2 directly (many times faster)
        try:
            return mpq(text)
        except ZeroDivisionError as exc:
            raise ValueError(f"not an exact fraction: {text!r}") from exc
    if re.search(r"[eE]\s*[+-]?\d{4}", text):
        raise ValueError(f"not an exact fraction of a sensible size: {text[:20]!r}")
    try:
        return mpq(Fraction(text.strip()))
    except (ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"not an exact fraction: {text!r}") from exc


def short(text: str, limit: int = 24) -> str:
    """``text`` for a message: cut to ``limit`` characters, saying how long it was.

    >>> short("9" * 5000)
    '9999999999999999... (5,000 characters)'
    """
    return text if len(text) <= limit else f"{text[:limit - 8]}... ({len(text):,} characters)"


def check_number_text(text: str, what: str, *, digits: int = 40) -> str:
    """``text`` if it is short enough to be a number people type: a 5,000-digit value, or an
    exponent beyond 100 (``1e999999999`` would take hours to make exact), is refused before
    any conversion, naming ``what`` (``--bj-pays``, a grid file's ``bj_pays``)."""
    if len(text.strip()) > digits:
        raise BjexactError(f"{what}: {short(text.strip())} is too long (at most {digits} characters)")
    exponent = re.search(r"[eE]\s*([+-]?\d+)\s*$", text)
    if exponent and abs(int(exponent.group(1))) > 100:
        raise BjexactError(f"{what}: {text.strip()} is out of range (exponents from -100 to 100)")
    return text
