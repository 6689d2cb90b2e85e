"""The absorbing-chain canonical form of the dealer's process for one up-card.

Order the transient states reachable from the up-card topologically (the start
state first). Then

* ``T`` (transient x transient) holds the one-draw transition probabilities;
  it is strictly upper triangular, because the chain is acyclic;
* ``R`` (transient x absorbing) holds the one-draw absorption probabilities;
* ``B`` is the ``bust`` column of ``R``;
* ``N = (I - T)^-1`` is the fundamental matrix: ``N[i][j]`` is the expected
  number of visits to ``j`` starting from ``i``;
* ``N R`` (``absorption``) gives P(final outcome | state); its start row is the
  dealer-table row of the up-card.

Everything is exact. ``N`` is found by back substitution, which the triangular
form makes exact and cheap; the tests check it against sympy's own inverse.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..chain.solve import Chain
from ..core.cards import as_rank, rank_symbol
from ..core.display import Displayable
from ..core.frames import data_frame
from ..core.numbers import RATIONALS, fraction_string
from ..core.rules import Rules
from ..errors import BjexactError
from .graph import BUST, ShoeDraws, graph_for

__all__ = ["AbsorbingChain", "canonical_form", "dealer_matrices"]

Grid = tuple[tuple[Any, ...], ...]


@dataclass(frozen=True)
class AbsorbingChain(Displayable):
    """``T`` and ``R`` of an absorbing chain (exact), with ``N`` and ``N R`` derived from them.

    ``start`` is the label of the state the chain starts in (the first transient state).
    Grids are tuples of rows of exact numbers; :meth:`sympy` gives sympy matrices.
    """

    transient: tuple[str, ...]
    absorbing: tuple[str, ...]
    T: Grid
    R: Grid

    @property
    def start(self) -> str:
        return self.transient[0]

    @property
    def B(self) -> tuple[Any, ...]:
        """The bust column of ``R``: P(bust on the next card) per transient state."""
        k = self.absorbing.index(BUST)
        return tuple(row[k] for row in self.R)

    @cached_property
    def N(self) -> Grid:
        """``(I - T)^-1`` by back substitution: ``N_i = e_i + sum_j T_ij N_j``, j after i."""
        n = len(self.transient)
        rows: list[list[Any]] = [[]] * n
        for i in reversed(range(n)):
            row = [RATIONALS.zero] * n
            row[i] = RATIONALS.one
            for j in range(i + 1, n):
                t = self.T[i][j]
                if t:
                    other = rows[j]
                    for k in range(j, n):
                        if other[k]:
                            row[k] += t * other[k]
            rows[i] = row
        return tuple(tuple(r) for r in rows)

    @cached_property
    def absorption(self) -> Grid:
        """``N R``: P(absorbed in each absorbing state | start in each transient state)."""
        return _product(self.N, self.R)

    def sympy(self, name: str) -> Any:
        """One of ``T``, ``R``, ``B``, ``N``, ``absorption`` as a sympy ``Matrix`` of Rationals."""
        from sympy import Matrix, Rational

        value = getattr(self, name)
        rows = [value] if name == "B" else value
        matrix = Matrix([[Rational(int(x.numerator), int(x.denominator)) for x in row] for row in rows])
        return matrix.T if name == "B" else matrix

    def grid(self, name: str) -> tuple[tuple[str, ...], tuple[str, ...], Grid]:
        """(row labels, column labels, rows) of ``T``, ``R``, ``B`` (one column), ``N`` or ``absorption``."""
        if name not in ("T", "R", "B", "N", "absorption"):
            raise BjexactError(f"unknown matrix {name!r} (use T, R, B, N or absorption)")
        if name == "B":
            return self.transient, ("bust",), tuple((x,) for x in self.B)
        columns = self.transient if name in ("T", "N") else self.absorbing
        return self.transient, columns, getattr(self, name)

    def to_pandas(self, name: str = "absorption", exact: bool = False) -> Any:
        """One matrix as a pandas DataFrame labelled by states: ``absorption`` (``N R``, the
        default), ``T``, ``R``, ``B`` or ``N``; floats (the default), or exact ``mpq`` cells with ``exact=True``."""
        rows, columns, grid = self.grid(name)
        records = [{"state": label, **dict(zip(columns, row))} for label, row in zip(rows, grid)]
        return data_frame(records, ["state", *columns], exact, index="state")

    def to_json(self) -> dict[str, Any]:
        def grid(g: Sequence[Sequence[Any]]) -> list[list[str]]:
            return [[fraction_string(x) for x in row] for row in g]

        return {
            "transient": list(self.transient),
            "absorbing": list(self.absorbing),
            "start": self.start,
            "T": grid(self.T),
            "R": grid(self.R),
            "B": [fraction_string(x) for x in self.B],
            "N": grid(self.N),
            "absorption": grid(self.absorption),
        }


def _product(a: Grid, b: Grid) -> Grid:
    zero = RATIONALS.zero
    return tuple(
        tuple(sum((x * b[k][j] for k, x in enumerate(row) if x), zero) for j in range(len(b[0])))
        for row in a
    )


def canonical_form(
    chain: Chain, start: int, weigh: Callable[[int], Sequence[Any]], absorbing: Sequence[str] | None = None
) -> AbsorbingChain:
    """T and R of the part of ``chain`` reachable from ``start`` along non-zero edges.

    ``weigh(i)`` gives the weights of transient state ``i``'s edges, as for
    :func:`bjexact.chain.solve.absorption`. ``absorbing`` restricts and orders the
    absorbing columns (default: all of the chain's).
    """
    n = chain.n_transient
    weights = {start: weigh(start)}
    order = [start]
    reached = {start}
    for i in range(start, n):  # topological order: successors come later
        if i not in reached:
            continue
        if i not in weights:
            weights[i] = weigh(i)
            order.append(i)
        for target, w in zip(chain.targets[i], weights[i]):
            if w and target < n:
                reached.add(target)
    columns = [str(label) for label in (absorbing if absorbing is not None else chain.absorbing)]
    position = {i: k for k, i in enumerate(order)}
    zero = RATIONALS.zero
    T = [[zero] * len(order) for _ in order]
    R = [[zero] * len(columns) for _ in order]
    for i in order:
        for target, w in zip(chain.targets[i], weights[i]):
            if not w:
                continue
            if target < n:
                T[position[i]][position[target]] += w
            else:
                label = str(chain.absorbing[target - n])
                if label not in columns:
                    raise BjexactError(f"state {chain.transient[i]} reaches {label}, which has no column")
                R[position[i]][columns.index(label)] += w
    return AbsorbingChain(
        tuple(str(chain.transient[i]) for i in order),
        tuple(columns),
        tuple(tuple(r) for r in T),
        tuple(tuple(r) for r in R),
    )


def dealer_matrices(rules: Rules, upcard: int | str) -> AbsorbingChain:
    """The dealer's canonical form T, R, B, N, N R for one up-card under ``rules``.

    Only states reachable with non-zero probability are included; the absorbing
    columns are the dealer-table outcomes (``exhausted`` only where it can happen).

    Examples
    --------
    With a 6 up and an infinite deck the dealer busts with chance 0.4232 (the
    published figure); row 0 of the absorption matrix N R is the up-card's start
    state, and 13**8 = 815730721 is the common denominator of eight draws.

    >>> m = dealer_matrices(Rules(decks="inf"), "6")
    >>> m.transient[:3], m.absorbing
    (('6', 'hard 8', 'hard 9'), ('17', '18', '19', '20', '21', 'bust'))
    >>> bust = m.absorption[0][m.absorbing.index("bust")]
    >>> bust, f"{float(bust):.4f}"
    (mpq(345176856,815730721), '0.4232')
    """
    upcard = as_rank(upcard)
    shoe = rules.make_shoe()
    if not shoe.has(upcard):
        raise BjexactError(f"the shoe holds no {rank_symbol(upcard)}, so it cannot be the up-card")
    graph = graph_for(rules)
    chain = graph.chain
    weigh = graph.weigher(ShoeDraws(shoe))
    full = canonical_form(chain, chain.index[graph.start(upcard)], weigh)
    used = [k for k, label in enumerate(full.absorbing)
            if label != "exhausted" or any(row[k] for row in full.R)]
    return AbsorbingChain(
        full.transient,
        tuple(full.absorbing[k] for k in used),
        full.T,
        tuple(tuple(row[k] for k in used) for row in full.R),
    )
