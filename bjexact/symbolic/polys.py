"""Elements of the card models' rings: evaluation, strings sympy parses back, LaTeX, sizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.numbers import as_rational, mpq
from ..errors import BjexactError
from .models import CardModel

__all__ = ["evaluate", "polynomial_string", "parse_polynomial", "summary", "n_terms", "polynomial_latex"]

# --- elements: evaluation, strings, LaTeX --------------------------------------------------


def poly_parts(element: Any) -> tuple[Any, Any | None]:
    """(numerator, denominator or None) of a ring or field element, denominator with constant term > 0."""
    if hasattr(element, "numer") and hasattr(element, "denom"):
        numer, denom = element.numer, element.denom
        if denom.is_ground:
            return numer * denom.ring.domain.convert(1 / as_rational(denom.LC)), None
        if denom.coeff(1) < 0:  # show 1 - p_T rather than p_T - 1
            numer, denom = -numer, -denom
        return numer, denom
    return element, None


def _evaluate_poly(poly: Any, point: Sequence[mpq]) -> mpq:
    total = mpq(0)
    for monom, coeff in poly.terms():
        term = as_rational(coeff)
        for value, exponent in zip(point, monom, strict=True):
            if exponent:
                term *= value**exponent
        total += term
    return total


def evaluate(element: Any, point: Sequence[Any]) -> mpq:
    """The exact value of a polynomial (or rational function) at ``point`` (one rational per variable)."""
    point = tuple(as_rational(v) for v in point)
    numer, denom = poly_parts(element)
    value = _evaluate_poly(numer, point)
    if denom is None:
        return value
    d = _evaluate_poly(denom, point)
    if not d:
        raise BjexactError("the rational function is undefined at this point (its denominator is 0)")
    return value / d


def polynomial_string(element: Any) -> str:
    """A string that ``sympy.parse_expr`` reads back to the same polynomial or rational function."""
    numer, denom = poly_parts(element)
    if denom is None:
        return str(numer)
    return f"({numer})/({denom})"


def parse_polynomial(text: str, model: CardModel) -> Any:
    """Parse :func:`polynomial_string` output back into an element of ``model.domain``."""
    from sympy import Symbol
    from sympy.parsing.sympy_parser import parse_expr

    names = {v: Symbol(v) for v in model.variables}
    try:
        expr = parse_expr(text, local_dict=names)
    except (SyntaxError, TypeError, ValueError) as exc:
        raise BjexactError(f"not a polynomial in {', '.join(model.variables)}: {text[:40]!r}") from exc
    domain = model.with_field(True).domain if "/(" in text else model.domain
    return domain.from_sympy(expr)


def summary(element: Any) -> str:
    """``degree D, N terms`` (numerator and denominator for a rational function)."""
    numer, denom = poly_parts(element)
    text = f"degree {_total_degree(numer)}, {len(numer)} term{'s' if len(numer) != 1 else ''}"
    if denom is not None:
        text += f", over {denom}"
    return text


def _total_degree(poly: Any) -> int:
    return max((sum(m) for m in poly.monoms()), default=0)


def n_terms(element: Any) -> int:
    numer, denom = poly_parts(element)
    return len(numer) + (len(denom) if denom is not None else 0)


def polynomial_latex(element: Any, collect: str | None = None) -> str:
    """LaTeX by sympy's printer, in descending powers; multivariate polynomials collected by powers
    of ``collect`` (default: the last variable, ``p_T``)."""
    numer, denom = poly_parts(element)
    text = _poly_latex(numer, collect)
    if denom is None:
        return text
    return rf"\frac{{{text}}}{{{_poly_latex(denom, collect)}}}"


def latex_lines(element: Any, per_line: int = 4) -> list[str]:
    """A polynomial in one variable as LaTeX lines of ``per_line`` terms each, for a page's width."""
    from sympy import latex

    numer, denom = poly_parts(element)
    if denom is not None or len(numer.ring.symbols) != 1:
        return [polynomial_latex(element)]
    (t,) = numer.ring.symbols
    terms = [latex(numer.ring.domain.to_sympy(c) * t ** m[0]) for m, c in sorted(numer.terms(), reverse=True)]
    signed = [terms[0]] + [term if term.startswith("-") else "+ " + term for term in terms[1:]]
    return [" ".join(signed[i:i + per_line]) for i in range(0, len(signed), per_line)]


def _poly_latex(poly: Any, collect: str | None) -> str:
    from sympy import latex

    symbols = poly.ring.symbols
    if len(symbols) == 1:
        return latex(poly.as_expr(), order="lex")
    names = [str(s) for s in symbols]
    k = names.index(collect) if collect in names else len(names) - 1
    by_power: dict[int, Any] = {}
    for monom, coeff in poly.terms():
        reduced = monom[:k] + (0,) + monom[k + 1:]
        by_power.setdefault(monom[k], poly.ring.zero)
        by_power[monom[k]] += poly.ring({reduced: coeff})
    pieces = []
    for power in sorted(by_power, reverse=True):
        coeff = latex(by_power[power].as_expr(), order="lex")
        var = latex(symbols[k] ** power) if power else ""
        if not var:
            pieces.append(coeff)
        elif len(by_power[power]) == 1 and coeff in ("1", "-1"):
            pieces.append(("-" if coeff == "-1" else "") + var)
        else:
            pieces.append(rf"\left({coeff}\right) {var}")
    text = " + ".join(pieces) or "0"
    return text.replace("+ -", "- ")
