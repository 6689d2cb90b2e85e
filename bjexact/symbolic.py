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
