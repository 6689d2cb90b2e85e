"""Symbolic derivations: dealer outcomes as polynomials in the card probabilities.

The dealer graph of :mod:`bjexact.dealer` is solved by the generic solver of
:mod:`bjexact.solve`, which only adds and multiplies elements of a domain. Here
the domain is a sympy polynomial ring instead of ``QQ``; there is no second solver.

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

Naturals ``peek`` condition the first draw on not completing a natural, which
divides by ``1 - p_T`` (up-card A) or ``1 - p_A`` (up-card T). Those two rows are
rational functions, so under ``peek`` the model's domain is the *fraction field*
of the ring (the other rows are still polynomials, with denominator 1).

Conventions are those of :mod:`bjexact.dealer`: a row is P(final outcome | up-card).
Evaluating a result at the standard deck gives exactly the numeric engine's value.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import Any

from .cards import RANK_SYMBOLS, RANKS, rank_symbol
from .errors import BjexactError
from .exact import as_rational, fraction_string, mpq
from .rules import Rules

__all__ = [
    "RANK_VARIABLES",
    "CardModel",
    "SymbolicTable",
    "per_rank_model",
    "ten_density_model",
    "symbolic_dealer_table",
    "evaluate",
    "polynomial_string",
    "polynomial_latex",
    "summary",
    "parse_polynomial",
]

RANK_VARIABLES: tuple[str, ...] = tuple(f"p_{s}" for s in RANK_SYMBOLS)
_STANDARD = (mpq(1, 13),) * 9 + (mpq(4, 13),)
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
        return _STANDARD if self.kind == "ranks" else (mpq(4, 13),)

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
class _QuotientDraws:
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


# --- elements: evaluation, strings, LaTeX --------------------------------------------------


def _parts(element: Any) -> tuple[Any, Any | None]:
    """(numerator, denominator or None) of a ring or field element, denominator with constant term > 0."""
    if hasattr(element, "numer") and hasattr(element, "denom"):
        numer, denom = element.numer, element.denom
        if denom.is_ground:
            return numer * denom.ring.domain.convert(1 / mpq(denom.LC)), None
        if denom.coeff(1) < 0:  # show 1 - p_T rather than p_T - 1
            numer, denom = -numer, -denom
        return numer, denom
    return element, None


def _evaluate_poly(poly: Any, point: Sequence[mpq]) -> mpq:
    total = mpq(0)
    for monom, coeff in poly.terms():
        term = mpq(coeff)
        for value, exponent in zip(point, monom, strict=True):
            if exponent:
                term *= value**exponent
        total += term
    return total


def evaluate(element: Any, point: Sequence[Any]) -> mpq:
    """The exact value of a polynomial (or rational function) at ``point`` (one rational per variable)."""
    point = tuple(as_rational(v) for v in point)
    numer, denom = _parts(element)
    value = _evaluate_poly(numer, point)
    if denom is None:
        return value
    d = _evaluate_poly(denom, point)
    if not d:
        raise BjexactError("the rational function is undefined at this point (its denominator is 0)")
    return value / d


def polynomial_string(element: Any) -> str:
    """A string that ``sympy.parse_expr`` reads back to the same polynomial or rational function."""
    numer, denom = _parts(element)
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
    numer, denom = _parts(element)
    text = f"degree {_total_degree(numer)}, {len(numer)} term{'s' if len(numer) != 1 else ''}"
    if denom is not None:
        text += f", over {denom}"
    return text


def _total_degree(poly: Any) -> int:
    return max((sum(m) for m in poly.monoms()), default=0)


def n_terms(element: Any) -> int:
    numer, denom = _parts(element)
    return len(numer) + (len(denom) if denom is not None else 0)


def polynomial_latex(element: Any, collect: str | None = None) -> str:
    """LaTeX by sympy's printer, in descending powers; multivariate polynomials collected by powers
    of ``collect`` (default: the last variable, ``p_T``)."""
    numer, denom = _parts(element)
    text = _poly_latex(numer, collect)
    if denom is None:
        return text
    return rf"\frac{{{text}}}{{{_poly_latex(denom, collect)}}}"


def _latex_lines(element: Any, per_line: int = 4) -> list[str]:
    """A polynomial in one variable as LaTeX lines of ``per_line`` terms each, for a page's width."""
    from sympy import latex

    numer, denom = _parts(element)
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


# --- the symbolic dealer table -----------------------------------------------------------


@dataclass(frozen=True)
class SymbolicTable:
    """P(final outcome | up-card) as elements of ``model.domain``, one row per up-card.

    ``rows[u][o]`` is a polynomial (a rational function in the A and T rows under
    ``peek``). ``outcomes`` are the columns, in the numeric table's order.
    """

    rules: Rules
    model: CardModel
    outcomes: tuple[str, ...]
    rows: Mapping[int, Mapping[str, Any]]

    @property
    def upcards(self) -> tuple[int, ...]:
        return tuple(self.rows)

    def __getitem__(self, upcard: int) -> Mapping[str, Any]:
        return self.rows[upcard]

    def evaluate(self, point: Sequence[Any] | None = None) -> dict[int, dict[str, mpq]]:
        """The numeric table at ``point`` (default: the standard deck)."""
        point = self.model.standard_point if point is None else point
        return {u: {o: evaluate(v, point) for o, v in row.items()} for u, row in self.rows.items()}

    def derivative(self, upcard: int, outcome: str, variable: str) -> Any:
        """The partial derivative of one cell with respect to ``variable`` (no constraint applied)."""
        if variable not in self.model.variables:
            raise BjexactError(f"unknown variable {variable!r} (use {', '.join(self.model.variables)})")
        return self.rows[upcard][outcome].diff(self.model.gens[self.model.variables.index(variable)])

    def to_json(self) -> dict[str, Any]:
        """``{"rules", "model", "variables", "outcomes", "table": {"A": {"17": "poly", ...}}, "standard"}``.

        Parse a cell with ``sympy.parse_expr(text, local_dict={v: Symbol(v) for v in variables})``;
        ``standard`` holds the exact value of each cell at the standard deck.
        """
        standard = self.evaluate()
        return {
            "rules": self.rules.to_json(),
            "model": self.model.kind,
            "variables": list(self.model.variables),
            "substitution": _substitution_text(self.model),
            "outcomes": list(self.outcomes),
            "table": {
                rank_symbol(u): {o: polynomial_string(row[o]) for o in self.outcomes}
                for u, row in self.rows.items()
            },
            "standard": {
                rank_symbol(u): {o: fraction_string(standard[u][o]) for o in self.outcomes} for u in self.rows
            },
        }


def _substitution_text(model: CardModel) -> str:
    if model.kind == "ranks":
        return "p_A, ..., p_T are the probabilities of A, 2, ..., 9, ten-valued; the deck is standard at " \
               "p_A = ... = p_9 = 1/13, p_T = 4/13"
    t = model.variables[0]
    return f"p_T = {t}, p_A = ... = p_9 = (1 - {t})/9; the deck is standard at {t} = 4/13"


def _check_rules(rules: Rules) -> None:
    if not rules.infinite:
        raise BjexactError(
            "symbolic results are for the infinite deck (--decks inf); for finite shoes use 'bjexact eor'"
        )


def symbolic_dealer_table(
    rules: Rules | None = None, model: CardModel | None = None, upcards: Iterable[int] | None = None
) -> SymbolicTable:
    """Solve the dealer graph of ``rules`` (infinite deck) over the polynomial ring of ``model``.

    Default model: one variable per rank. Under ``peek`` the model is moved to its
    fraction field (see the module docstring).
    """
    from .dealer import FINAL_TOTALS, graph_for

    rules = rules or Rules(decks="inf")
    _check_rules(rules)
    model = model or per_rank_model()
    if rules.naturals == "peek" and not model.field:
        model = model.with_field(True)
    graph = graph_for(rules)
    wanted = tuple(RANKS if upcards is None else upcards)
    if model.field:
        # solve with light quotients over the ring, then move each result to sympy's field
        field = model.domain.field
        vectors = graph.solve(_QuotientDraws(model.with_field(False)), wanted)
        vectors = {u: [field.new(q.numer, q.denom) for q in v] for u, v in vectors.items()}
    else:
        vectors = graph.solve(model, wanted)
    outcomes = tuple(o for o in graph.outcomes if o in FINAL_TOTALS or o in ("bust", "blackjack"))
    order = sorted(wanted, key=lambda u: u if u != 1 else 11)
    rows = {u: dict(zip(graph.outcomes, vectors[u], strict=True)) for u in order}
    return SymbolicTable(rules, model, outcomes, {u: {o: rows[u][o] for o in outcomes} for u in order})


def simplex_substitute(element: Any, model: CardModel) -> Any:
    """``element`` with ``p_T`` replaced by ``1 - (p_A + ... + p_9)`` (ranks model only).

    A polynomial stays a polynomial; a rational function comes back as a fraction-field element.
    """
    if model.kind != "ranks":
        raise BjexactError("the substitution p_T = 1 - (p_A + ... + p_9) needs the per-rank model")
    numer, denom = _parts(element)
    ring = numer.ring
    rest = ring.one - sum(ring.gens[:9], ring.zero)
    numer = numer.compose(ring.gens[9], rest)
    if denom is None:
        return numer
    field = ring.to_field()
    return field(numer) / field(denom.compose(ring.gens[9], rest))


# --- rendering ---------------------------------------------------------------------------

SYMBOLIC_FORMATS = ("text", "csv", "json", "md", "latex")


def _cells(table: SymbolicTable):
    for u, row in table.rows.items():
        for o in table.outcomes:
            yield u, o, row[o]


def render_symbolic(
    table: SymbolicTable, fmt: str, style: Any, *, max_terms: int = 12, full_name: str | None = None
) -> tuple[str, str | None]:
    """``(document, full)``: the table in ``fmt``, and the long polynomials in full (or ``None``).

    In ``text``, ``md`` and ``latex`` a cell of more than ``max_terms`` terms is
    summarised (degree, number of terms) and written in full to the second
    document, which the caller saves as ``full_name``. ``csv`` and ``json`` always
    hold every polynomial in full (strings that sympy parses back). ``style`` (a
    :class:`bjexact.tables.NumberStyle`) prints the value at the standard deck.
    """
    import json

    if fmt == "json":
        return json.dumps(table.to_json(), indent=2) + "\n", None
    standard = table.evaluate()
    title = (f"P(dealer's final outcome | up-card) as {table.model.describe()}: {table.rules.describe()}")
    at = "at the standard deck" + (" (%)" if style.percent and not style.exact else "")
    if fmt == "csv":
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["up-card", "outcome", "polynomial", "standard deck"])
        for u, o, cell in _cells(table):
            writer.writerow([rank_symbol(u), o, polynomial_string(cell), fraction_string(standard[u][o])])
        return buffer.getvalue(), None
    long_cells = [(u, o) for u, o, cell in _cells(table) if n_terms(cell) > max_terms]
    where = f"in full in {full_name}" if full_name else "in full with --full FILE"
    note = (f"{len(long_cells)} polynomials of more than {max_terms} terms are summarised; {where}."
            if long_cells else "")
    if fmt == "latex":
        return _latex_document(table, standard, style, long_cells, note, title, at), (
            _latex_document(table, standard, style, [], "", title, at) if long_cells else None)
    if fmt == "md":
        return _md_document(table, standard, style, long_cells, note, title, at), (
            _md_document(table, standard, style, [], "", title, at) if long_cells else None)
    if fmt != "text":
        raise BjexactError(f"unknown format {fmt!r} (use {', '.join(SYMBOLIC_FORMATS)})")
    return _text_document(table, standard, style, long_cells, note, title, at), (
        _text_document(table, standard, style, [], "", title, at) if long_cells else None)


def _text_document(table, standard, style, long_cells, note, title, at) -> str:
    lines = [title, _substitution_text(table.model), ""]
    width = max(len(o) for o in table.outcomes)
    for u, row in table.rows.items():
        lines.append(f"up-card {rank_symbol(u)}  ({at})")
        for o in table.outcomes:
            cell = row[o]
            shown = f"[{summary(cell)}]" if (u, o) in long_cells else polynomial_string(cell)
            lines.append(f"  {o.ljust(width)}  {style.plain(standard[u][o]).rjust(10)}  {shown}")
        lines.append("")
    if note:
        lines.append(note)
    return "\n".join(lines).rstrip() + "\n"


def _md_document(table, standard, style, long_cells, note, title, at) -> str:
    lines = [f"**{title}**", "", f"| up-card | outcome | {at} | polynomial |", "|:---|:---|---:|:---|"]
    for u, o, cell in _cells(table):
        shown = summary(cell) if (u, o) in long_cells else f"`{polynomial_string(cell)}`"
        lines.append(f"| {rank_symbol(u)} | {o} | {style.plain(standard[u][o])} | {shown} |")
    if note:
        lines += ["", f"*{note}*"]
    return "\n".join(lines) + "\n"


def _latex_document(table, standard, style, long_cells, note, title, at) -> str:
    from .tables import latex_escape

    lines = [
        "% needs \\usepackage{amsmath}",
        f"% {title}",
        f"% {_substitution_text(table.model)}",
        "\\begin{align*}",
    ]
    cells = list(_cells(table))
    for k, (u, o, cell) in enumerate(cells):
        if (u, o) in long_cells:
            shown = rf"\text{{{latex_escape(summary(cell))}}}"
        else:
            shown = polynomial_latex(cell)
        value = style.latex(standard[u][o])
        end = r" \\" if k + 1 < len(cells) else ""
        lines.append(rf"P(\text{{{o}}} \mid {rank_symbol(u)}) &= {shown} && ({value}){end}")
    lines.append("\\end{align*}")
    lines.append(f"% right-hand column: {at}")
    if note:
        lines.append(f"% {note}")
    return "\n".join(lines) + "\n"


# --- decision boundaries in the ten density --------------------------------------------------
#
# For one hit/stand decision of the infinite deck, the values are piecewise polynomials in t:
# V = max(stand, hit) switches polynomial where a later decision flips. They are built by
# backward induction over the player's hands (by decreasing hard sum), with every breakpoint
# an exact real algebraic number: an irreducible polynomial over QQ and a rational interval
# isolating one of its roots. All comparisons and signs are decided exactly (by refining
# intervals and counting roots), never by floating point.


@dataclass(frozen=True)
class AlgebraicNumber:
    """The only root of the irreducible ``poly`` (a sympy ``Poly`` over QQ) in ``[lo, hi]``.

    ``lo == hi`` means the rational number ``lo`` (``poly`` then has degree 1).
    """

    poly: Any
    lo: Any
    hi: Any

    @property
    def is_rational(self) -> bool:
        return self.lo == self.hi

    def refined(self, eps: Any) -> AlgebraicNumber:
        """The same number with an isolating interval narrower than ``eps``."""
        if self.is_rational or self.hi - self.lo < eps:
            return self
        lo, hi = self.poly.refine_root(self.lo, self.hi, eps=eps)
        return AlgebraicNumber(self.poly, lo, hi)

    def index(self) -> int:
        """Its position among the real roots of ``poly`` (0 = the smallest), as in ``CRootOf``."""
        return 0 if self.is_rational else int(self.poly.count_roots(None, self.lo))

    def expression(self) -> str:
        """``p/q`` for a rational, else ``CRootOf(poly, k)`` with integer coefficients (sympy reads
        either back exactly)."""
        if self.is_rational:
            return str(self.lo)
        integral = self.poly.clear_denoms(convert=True)[1].primitive()[1]
        return f"CRootOf({integral.as_expr()}, {self.index()})"

    def decimals(self, digits: int) -> str:
        """The first ``digits`` decimals, truncated, each one certain (the interval is refined until
        both ends agree on them)."""
        from sympy import floor

        scale = 10**digits
        number = self
        for _ in range(10 * digits + 200):
            low, high = floor(number.lo * scale), floor(number.hi * scale)
            if low == high or number.is_rational:
                text = str(int(low)).rjust(digits + 1, "0")
                return f"{text[:-digits]}.{text[-digits:]}"
            number = number.refined((number.hi - number.lo) / 16)
        raise BjexactError("could not separate the root from a decimal boundary")  # pragma: no cover

    def bounds(self) -> tuple[mpq, mpq]:
        return as_rational(self.lo), as_rational(self.hi)


def _less(a: AlgebraicNumber, b: AlgebraicNumber) -> bool:
    """``a < b`` exactly."""
    return _order(a, b) < 0


@cache
def _order(a: AlgebraicNumber, b: AlgebraicNumber) -> int:
    """-1, 0 or 1 as ``a`` is below, equal to or above ``b`` (memoised: refinements are not cheap)."""
    if a.is_rational and b.is_rational:
        return (a.lo > b.lo) - (a.lo < b.lo)
    if a.poly == b.poly and not (a.hi < b.lo or b.hi < a.lo):
        # each interval isolates one root of the same polynomial: equal iff they share it
        lo, hi = max(a.lo, b.lo), min(a.hi, b.hi)
        if a.poly.count_roots(lo, hi):
            return 0
    while not (a.hi < b.lo or b.hi < a.lo):
        width = max(a.hi - a.lo, b.hi - b.lo) / 4
        a, b = a.refined(width), b.refined(width)
    return -1 if a.hi < b.lo else 1


def _between(left: AlgebraicNumber | None, right: AlgebraicNumber | None) -> Any:
    """A rational strictly between ``left`` and ``right`` (``None``: 0 and 1), which must differ."""
    from sympy import Rational

    while True:
        a = Rational(0) if left is None else left.hi
        b = Rational(1) if right is None else right.lo
        if a < b:
            q = (a + b) / 2
            if (left is None or _compare_rational(q, left) > 0) and (
                right is None or _compare_rational(q, right) < 0
            ):
                return q
        if left is not None:
            left = left.refined((left.hi - left.lo) / 4)
        if right is not None:
            right = right.refined((right.hi - right.lo) / 4)


@cache
def _compare_rational(q: Any, x: AlgebraicNumber) -> int:
    """The sign of ``q - x`` for a rational ``q``."""
    if x.is_rational:
        return (q > x.lo) - (q < x.lo)
    if not x.poly.eval(q):
        return 0
    while x.lo <= q <= x.hi:
        x = x.refined((x.hi - x.lo) / 4)
    return 1 if q > x.hi else -1


def _sign_changes(poly: Any) -> list[AlgebraicNumber]:
    """The points of (0, 1) where ``poly`` changes sign: its roots of odd multiplicity, sorted."""
    from sympy import Rational

    if poly.is_zero:
        return []
    points = []
    for factor, multiplicity in poly.factor_list()[1]:
        if multiplicity % 2 == 0 or factor.degree() < 1:
            continue
        factor = factor.monic()
        for (lo, hi), _ in factor.intervals(inf=0, sup=1):
            x = AlgebraicNumber(factor, Rational(lo), Rational(hi))
            if x.is_rational and x.lo in (0, 1):
                continue
            if not x.is_rational and factor.degree() == 1:  # a rational root: make it exact
                root = -factor.nth(0) / factor.nth(1)
                x = AlgebraicNumber(factor, root, root)
            if x.is_rational and x.lo in (0, 1):
                continue
            points.append(x)
    return _sorted_points(points)


def _sorted_points(points: list[AlgebraicNumber]) -> list[AlgebraicNumber]:
    import functools

    unique: list[AlgebraicNumber] = []
    for x in sorted(points, key=functools.cmp_to_key(_order)):
        if not unique or _order(unique[-1], x) != 0:
            unique.append(x)
    return unique


@dataclass(frozen=True)
class Piece:
    """On ``left < t < right`` (``None``: 0 or 1) the best move is ``best`` and the value ``value``."""

    left: AlgebraicNumber | None
    right: AlgebraicNumber | None
    best: str
    value: Any  # sympy Poly in t (scaled by the row's common denominator)
    hit: Any
    stand: Any


def _find_piece(pieces: list[Piece], q: Any) -> Piece:
    for piece in pieces:
        if piece.right is None or _compare_rational(q, piece.right) < 0:
            return piece
    raise AssertionError("unreachable: the pieces cover (0, 1)")  # pragma: no cover


@dataclass(frozen=True)
class DecisionBoundaries:
    """Where the best move of one infinite-deck decision flips as the ten density ``t`` varies.

    ``stand`` is the value of standing and ``pieces`` the best move and the value of
    hitting on each interval of (0, 1) (hitting: one card, then the best play at that
    ``t``). ``boundaries`` are the points where the best move flips, in increasing
    order, each with the moves below and above. Values are rational functions of ``t``
    (polynomials unless ``peek`` conditions the A and T rows). Ties go to standing.
    """

    rules: Rules
    model: CardModel
    total: int
    soft: bool
    upcard: int
    objective: str
    denominator: Any  # sympy Poly: every value is (polynomial) / denominator
    stand: Any
    pieces: tuple[Piece, ...]

    @property
    def boundaries(self) -> tuple[tuple[AlgebraicNumber, str, str], ...]:
        found = []
        for before, after in zip(self.pieces, self.pieces[1:], strict=False):
            if before.best != after.best:
                found.append((before.right, before.best, after.best))
        return tuple(found)

    def label(self) -> str:
        return f"{'soft' if self.soft else 'hard'} {self.total} v {rank_symbol(self.upcard)}"

    def value_string(self, poly: Any) -> str:
        """A value as a string sympy parses back: ``poly / denominator``."""
        if self.denominator.as_expr() == 1:
            return str(poly.as_expr())
        return f"({poly.as_expr()})/({self.denominator.as_expr()})"

    def at(self, t: Any) -> tuple[mpq, mpq]:
        """(stand, hit) at a rational ``t`` in (0, 1) that is not a breakpoint."""
        from sympy import Rational

        q = Rational(int(as_rational(t).numerator), int(as_rational(t).denominator))
        piece = _find_piece(list(self.pieces), q)
        d = self.denominator.eval(q)
        return as_rational(self.stand.eval(q) / d), as_rational(piece.hit.eval(q) / d)

    def to_json(self, digits: int = 15) -> dict[str, Any]:
        from sympy import Rational

        standard = self.at(Rational(4, 13))
        return {
            "rules": self.rules.to_json(),
            "variable": self.model.variables[0],
            "substitution": _substitution_text(self.model),
            "hand": {"total": self.total, "soft": self.soft, "upcard": rank_symbol(self.upcard)},
            "objective": self.objective,
            "stand": self.value_string(self.stand),
            "pieces": [
                {"from": None if p.left is None else p.left.expression(),
                 "to": None if p.right is None else p.right.expression(),
                 "best": p.best, "hit": self.value_string(p.hit)}
                for p in self.pieces
            ],
            "boundaries": [
                {"root": x.expression(), "interval": [fraction_string(b) for b in _narrow(x, digits).bounds()],
                 "decimal": x.decimals(digits), "below": below, "above": above}
                for x, below, above in self.boundaries
            ],
            "standard": {"stand": fraction_string(standard[0]), "hit": fraction_string(standard[1])},
        }


def _narrow(x: AlgebraicNumber, digits: int) -> AlgebraicNumber:
    from sympy import Rational

    return x.refined(Rational(1, 10**digits))


def decision_boundaries(
    rules: Rules, total: int, soft: bool, upcard: int, *, variable: str = "t", objective: str = "ev"
) -> DecisionBoundaries:
    """Stand and hit values of (``total``, ``soft``) against ``upcard`` as functions of the ten density,
    and the exact points of (0, 1) where the best move flips (infinite deck)."""
    from sympy import QQ, Poly, Symbol, lcm

    from .hand import HandValue, add_card
    from .player import payoffs, stand_results

    _check_rules(rules)
    if soft and not 12 <= total <= 21 or not soft and not 4 <= total <= 21:
        raise BjexactError(f"no such hand: {'soft' if soft else 'hard'} {total} (hard 4-21, soft 12-21)")
    if upcard not in RANKS:
        raise BjexactError(f"unknown up-card {upcard!r}")
    model = ten_density_model(variable)
    table = symbolic_dealer_table(rules, model, [upcard])
    row = table[upcard]
    t = Symbol(variable)
    weights = payoffs(rules, objective)

    def as_poly(element):
        numer, denom = _parts(element)
        poly = Poly(numer.as_expr(), t, domain=QQ)
        return poly, (Poly(1, t, domain=QQ) if denom is None else Poly(denom.as_expr(), t, domain=QQ))

    # the common denominator of the row (1 except for the A and T rows under peek); it is positive on (0, 1)
    denominator = Poly(1, t, domain=QQ)
    for cell in row.values():
        denominator = Poly(lcm(denominator.as_expr(), as_poly(cell)[1].as_expr()), t, domain=QQ)

    def scaled(element) -> Any:
        poly, denom = as_poly(element)
        factor, remainder = denominator.div(denom)
        assert remainder.is_zero
        return poly * factor

    def stand_value(hand: HandValue) -> Any:
        results = stand_results(hand.total, row, blackjack_loses=rules.naturals != "peek")
        return scaled(sum((w * r for w, r in zip(weights, results, strict=True) if r), model.domain.zero))

    probabilities = [Poly((1 - t) / 9, t, domain=QQ)] * 9 + [Poly(t, t, domain=QQ)]
    bust = Poly(weights[3], t, domain=QQ) * denominator
    start = HandValue(total, soft)
    reachable = {start}
    frontier = [start]
    while frontier:
        hand = frontier.pop()
        for rank in RANKS:
            new = add_card(hand, rank)
            if not new.bust and new not in reachable:
                reachable.add(new)
                frontier.append(new)
    values: dict[HandValue, list[Piece]] = {}
    for hand in sorted(reachable, key=lambda h: h.total - (10 if h.soft else 0), reverse=True):
        stand = stand_value(hand)
        children = [None if add_card(hand, r).bust else values[add_card(hand, r)] for r in RANKS]
        cuts = _sorted_points([p.right for c in children if c for p in c if p.right is not None])
        pieces: list[Piece] = []
        for left, right in zip([None, *cuts], [*cuts, None], strict=True):
            q = _between(left, right)
            hit = Poly(0, t, domain=QQ)
            for p, child in zip(probabilities, children, strict=True):
                hit += p * (bust if child is None else _find_piece(child, q).value)
            roots = [x for x in _sign_changes(hit - stand)
                     if (left is None or _less(left, x)) and (right is None or _less(x, right))]
            for a, b in zip([left, *roots], [*roots, right], strict=True):
                difference = hit - stand
                sample = _between(a, b)
                while not difference.is_zero and not difference.eval(sample):  # a root of even multiplicity
                    sample = _between(a, AlgebraicNumber(difference, sample, sample))
                best = "hit" if difference.eval(sample) > 0 else "stand"
                pieces.append(Piece(a, b, best, hit if best == "hit" else stand, hit, stand))
        values[hand] = _merge(pieces)
    return DecisionBoundaries(rules, model, total, soft, upcard, objective, denominator,
                              stand_value(start), tuple(values[start]))


def _merge(pieces: list[Piece]) -> list[Piece]:
    """Join neighbouring pieces with the same best move and the same polynomials."""
    merged: list[Piece] = []
    for piece in pieces:
        last = merged[-1] if merged else None
        if last and last.best == piece.best and last.hit == piece.hit and last.stand == piece.stand:
            merged[-1] = Piece(last.left, piece.right, last.best, last.value, last.hit, last.stand)
        else:
            merged.append(piece)
    return merged


def render_boundaries(result: DecisionBoundaries, fmt: str, digits: int = 15) -> str:
    """``text``, ``json`` or ``latex`` for :func:`decision_boundaries`; roots with ``digits`` certain
    decimals (truncated, followed by ``...``)."""
    import json

    from sympy import Rational, latex

    if fmt == "json":
        return json.dumps(result.to_json(digits), indent=2) + "\n"
    t = result.model.variables[0]
    names = [f"{t}{k}" for k in range(1, len(result.boundaries) + 1)]
    point_name = {id(x): name for (x, _, _), name in zip(result.boundaries, names, strict=True)}

    def point(x: AlgebraicNumber | None, default: str) -> str:
        if x is None:
            return default
        return point_name.get(id(x)) or f"{x.decimals(digits)}..."

    stand, hit = result.at(Rational(4, 13))
    standard_best = "hit" if hit > stand else "stand"
    moves = "; ".join(
        f"{p.best} for {point(p.left, '0')} < {t} < {point(p.right, '1')}" for p in _by_move(result.pieces)
    )
    if fmt == "latex":
        from .tables import latex_escape

        def frac(poly):
            if result.denominator.as_expr() == 1:
                return latex(poly.as_expr(), order="lex")
            return rf"\frac{{{latex(poly.as_expr(), order='lex')}}}{{{latex(result.denominator.as_expr())}}}"

        lines = ["% needs \\usepackage{amsmath}",
                 f"% {latex_escape(result.label())}: {latex_escape(result.rules.describe())}; "
                 f"{_substitution_text(result.model)}",
                 "\\begin{align*}", rf"\mathrm{{stand}}({t}) &= {frac(result.stand)} \\"]
        def bound(x, default):
            return point(x, default).replace("...", r"\ldots").replace(t, f"{t}_", 1) if x is not None and \
                id(x) in point_name else point(x, default).replace("...", r"\ldots")

        for p in result.pieces:
            where = f"{bound(p.left, '0')} < {t} < {bound(p.right, '1')}"
            lines.append(rf"\mathrm{{hit}}({t}) &= {frac(p.hit)} && {where} \\")
        for (x, below, above), name in zip(result.boundaries, names, strict=True):
            lines.append(rf"{t}_{name[len(t):]} &\approx {x.decimals(digits)}\ldots && "
                         rf"\text{{{below} below, {above} above}} \\")
        lines[-1] = lines[-1].rstrip(" \\")
        lines.append("\\end{align*}")
        return "\n".join(lines) + "\n"
    if fmt != "text":
        raise BjexactError(f"unknown format {fmt!r} (use text, json or latex)")
    lines = [
        f"{result.label()}: {result.rules.describe()}, objective {result.objective}",
        _substitution_text(result.model),
        "",
        f"stand({t}) = {result.value_string(result.stand)}",
    ]
    if len(result.pieces) == 1:
        lines.append(f"hit({t})   = {result.value_string(result.pieces[0].hit)}")
    else:
        lines.append(f"hit({t}), one card and then the best play, piece by piece:")
        for p in result.pieces:
            lines.append(f"  {point(p.left, '0')} < {t} < {point(p.right, '1')}:  {result.value_string(p.hit)}")
    lines += [
        "",
        f"at the standard deck ({t} = 4/13): stand {_decimal_text(stand)}, hit {_decimal_text(hit)}: "
        f"{standard_best}",
        f"best move: {moves}",
    ]
    for (x, below, above), name in zip(result.boundaries, names, strict=True):
        narrow = _narrow(x, digits)
        lo, hi = narrow.bounds()
        lines.append(f"  {name} = {x.decimals(digits)}... = {x.expression()}")
        lines.append(f"       in [{fraction_string(lo)}, {fraction_string(hi)}]; {below} below, {above} above")
    if len(result.boundaries) == 1:
        x, below, above = result.boundaries[0]
        lines += ["", f"{result.label()}: {above} is right for {t} > {x.decimals(min(digits, 6))}..., "
                      f"{below} for {t} below it"]
    elif not result.boundaries:
        lines += ["", f"{result.label()}: {result.pieces[0].best} is right for every {t} in (0, 1)"]
    return "\n".join(lines) + "\n"


def _by_move(pieces: Sequence[Piece]) -> list[Piece]:
    """Pieces joined where only the hit polynomial changes (the best move stays)."""
    joined: list[Piece] = []
    for p in pieces:
        if joined and joined[-1].best == p.best:
            last = joined[-1]
            joined[-1] = Piece(last.left, p.right, last.best, last.value, last.hit, last.stand)
        else:
            joined.append(p)
    return joined


def _decimal_text(value: mpq) -> str:
    from .tables import NumberStyle

    return NumberStyle(decimals=6, percent=False).plain(value)


# --- a section for reports ---------------------------------------------------------------

REPORT_DECISIONS = ((16, False, 10), (12, False, 2))


def report_section(rules: Rules, fmt: str = "md") -> str:
    """A report section (``md`` or ``latex``, without its heading) on the symbolic results for ``rules``.

    Every rule set: the effects of removal on the dealer's outcomes (exact for finite shoes,
    ``D_r f / 52`` for the infinite deck). The infinite deck also gets P(bust | up-card) as
    polynomials in the ten density ``t`` and the exact ``t`` where the decisions of
    :data:`REPORT_DECISIONS` flip.
    """
    from dataclasses import replace

    from .eor import dealer_removal_effects, removal_tables
    from .tables import NumberStyle, render

    if fmt not in ("md", "latex"):
        raise BjexactError(f"a report section is md or latex, not {fmt!r}")
    style = NumberStyle(decimals=4)
    base, changes = removal_tables(dealer_removal_effects(rules), style)
    parts = [render([base], fmt, style), render([changes], fmt, replace(style, signed=True))]
    if rules.infinite:
        table = symbolic_dealer_table(rules, ten_density_model("t"))
        t_text = _substitution_text(table.model)
        if fmt == "md":
            lines = [f"P(bust | up-card) as polynomials in t; {t_text}:", ""]
            lines += [f"- {rank_symbol(u)}: `{polynomial_string(table[u]['bust'])}`" for u in table.upcards]
        else:
            lines = [f"% P(bust | up-card) as polynomials in t; {t_text}", "\\begin{align*}"]
            rows = [rf"P(\text{{bust}} \mid {rank_symbol(u)}) &= " + " \\\\\n&\\quad ".join(
                _latex_lines(table[u]["bust"])) for u in table.upcards]
            lines += [" \\\\\n".join(rows), "\\end{align*}"]
        parts.append("\n".join(lines) + "\n")
        found = []
        for total, soft, upcard in REPORT_DECISIONS:
            result = decision_boundaries(rules, total, soft, upcard)
            for x, below, above in result.boundaries:
                found.append(f"{result.label()}: {below} below t = {x.decimals(12)}..., {above} above "
                             f"({x.expression()})")
            if not result.boundaries:
                found.append(f"{result.label()}: {result.pieces[0].best} for every t in (0, 1)")
        if fmt == "md":
            parts.append("Where the best move flips as t varies:\n\n" + "\n".join(f"- {f}" for f in found) + "\n")
        else:
            from .tables import latex_escape

            parts.append("Where the best move flips as $t$ varies:\n\\begin{itemize}\n"
                         + "\n".join(f"\\item {latex_escape(f)}" for f in found) + "\n\\end{itemize}\n")
    return "\n".join(parts)
