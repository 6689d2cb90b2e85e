"""Symbolic derivations: dealer outcomes as polynomials in the card probabilities.

The dealer graph of :mod:`bjexact.dealer` is solved by the generic solver of
:mod:`bjexact.chain.solve`, which only adds and multiplies elements of a domain. Here
the domain is a sympy polynomial ring instead of ``QQ``; there is no second solver.

Card models (infinite deck only): see :mod:`bjexact.symbolic.models`.

Naturals ``peek`` condition the first draw on not completing a natural, which
divides by ``1 - p_T`` (up-card A) or ``1 - p_A`` (up-card T). Those two rows are
rational functions, so under ``peek`` the model's domain is the *fraction field*
of the ring (the other rows are still polynomials, with denominator 1).

Conventions are those of :mod:`bjexact.dealer`: a row is P(final outcome | up-card).
Evaluating a result at the standard deck gives exactly the numeric engine's value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import RANKS, UpcardRows, rank_symbol
from ..core.display import Displayable
from ..core.frames import data_frame
from ..core.numbers import fraction_string, mpq
from ..core.rules import Rules
from ..dealer.graph import FINAL_TOTALS, graph_for
from ..errors import BjexactError
from .models import CardModel, QuotientDraws, per_rank_model
from .polys import evaluate, poly_parts, polynomial_string

__all__ = ["SymbolicTable", "symbolic_dealer_table", "simplex_substitute"]

# --- the symbolic dealer table -----------------------------------------------------------


@dataclass(frozen=True)
class SymbolicTable(UpcardRows[Any], Displayable):
    """P(final outcome | up-card) as elements of ``model.domain``, one row per up-card.

    ``rows[u][o]`` is a polynomial (a rational function in the A and T rows under
    ``peek``). ``outcomes`` are the columns, in the numeric table's order. Rows answer
    to ranks and card symbols alike (``table["A"]``, ``table[1]``, ``table[11]``).
    """

    rules: Rules
    model: CardModel
    outcomes: tuple[str, ...]
    rows: Mapping[int, Mapping[str, Any]]

    def to_pandas(self, exact: bool = False) -> Any:
        """A pandas DataFrame, one row per up-card (``"2"`` .. ``"T"``, ``"A"``), one column per
        outcome: the polynomials themselves (elements of ``model.domain``; ``str`` gives sympy's
        text) with ``exact=True``; by default their values at the standard deck as floats."""
        cells = self.rows if exact else self.evaluate()
        records = [{"up-card": rank_symbol(u), **row} for u, row in cells.items()]
        return data_frame(records, ["up-card", *self.outcomes], exact, index="up-card")

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
            "substitution": substitution_text(self.model),
            "outcomes": list(self.outcomes),
            "table": {
                rank_symbol(u): {o: polynomial_string(row[o]) for o in self.outcomes}
                for u, row in self.rows.items()
            },
            "standard": {
                rank_symbol(u): {o: fraction_string(standard[u][o]) for o in self.outcomes} for u in self.rows
            },
        }


def substitution_text(model: CardModel) -> str:
    if model.kind == "ranks":
        return "p_A, ..., p_T are the probabilities of A, 2, ..., 9, ten-valued; the deck is standard at " \
               "p_A = ... = p_9 = 1/13, p_T = 4/13"
    t = model.variables[0]
    return f"p_T = {t}, p_A = ... = p_9 = (1 - {t})/9; the deck is standard at {t} = 4/13"


def check_rules(rules: Rules) -> None:
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

    Examples
    --------
    The dealer's chance of busting with a 6 up as a polynomial in the ten density
    t; at the standard deck (t = 4/13) it is the exact value of the dealer table.

    >>> from bjexact.symbolic.models import ten_density_model
    >>> from bjexact.symbolic.polys import polynomial_string
    >>> table = symbolic_dealer_table(model=ten_density_model(), upcards=[6])
    >>> polynomial_string(table.rows[6]["bust"])[:36]
    '-5/14348907*t**8 + 325/14348907*t**7'
    >>> table.evaluate()[6]["bust"]
    mpq(345176856,815730721)
    """

    rules = rules or Rules(decks="inf")
    check_rules(rules)
    model = model or per_rank_model()
    if rules.naturals == "peek" and not model.field:
        model = model.with_field(True)
    graph = graph_for(rules)
    wanted = tuple(RANKS if upcards is None else upcards)
    if model.field:
        # solve with light quotients over the ring, then move each result to sympy's field
        field = model.domain.field
        vectors = graph.solve(QuotientDraws(model.with_field(False)), wanted)
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
    numer, denom = poly_parts(element)
    ring = numer.ring
    rest = ring.one - sum(ring.gens[:9], ring.zero)
    numer = numer.compose(ring.gens[9], rest)
    if denom is None:
        return numer
    field = ring.to_field()
    return field(numer) / field(denom.compose(ring.gens[9], rest))
