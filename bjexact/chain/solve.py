"""Exact absorption probabilities of an acyclic Markov chain, over any number domain.

The chain's *topology* (which state can move to which) is separated from its
*weights* (the probability of each move), as networkx separates graph building
from algorithms: :func:`compile_chain` turns a networkx ``DiGraph`` into arrays
once, and :func:`absorption` solves it for one weighting at a time, in
topological order.

The solver only adds and multiplies domain elements, so the same code solves the
chain over sympy's ``QQ`` (exact probabilities), over a polynomial ring such as
``QQ[p_A, ..., p_T]`` (symbolic card probabilities), or over anything else that
has ``zero`` and ``one``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import networkx as nx


__all__ = ["Chain", "compile_chain", "absorption"]

Weigh = Callable[[int], Sequence[Any]]


@dataclass(frozen=True, eq=False)
class Chain:
    """An acyclic absorbing chain in array form.

    ``transient`` lists the transient states in topological order and
    ``absorbing`` the absorbing ones. ``targets[i]`` are the indices reached from
    transient state ``i``: ``j < len(transient)`` is transient state ``j``, and
    ``len(transient) + k`` is absorbing state ``k``. ``edge_data[i]`` holds the
    networkx attributes of those edges, aligned with ``targets[i]``.
    """

    transient: tuple[Hashable, ...]
    absorbing: tuple[Hashable, ...]
    targets: tuple[tuple[int, ...], ...]
    edge_data: tuple[tuple[dict[str, Any], ...], ...]
    index: dict[Hashable, int]

    @property
    def n_transient(self) -> int:
        return len(self.transient)


def compile_chain(graph: nx.DiGraph, absorbing: Sequence[Hashable]) -> Chain:
    """Arrays for ``graph``, whose sinks are exactly the states in ``absorbing``.

    Examples
    --------
    A two-step game: from ``a`` win at once with chance 1/2, else go to ``b``,
    which wins with chance 1/3.

    >>> import networkx as nx
    >>> from sympy import QQ
    >>> g = nx.DiGraph()
    >>> g.add_edge("a", "win", p=QQ(1, 2)); g.add_edge("a", "b", p=QQ(1, 2))
    >>> g.add_edge("b", "win", p=QQ(1, 3)); g.add_edge("b", "lose", p=QQ(2, 3))
    >>> chain = compile_chain(g, ["win", "lose"])
    >>> chain.transient, chain.absorbing, chain.targets
    (('a', 'b'), ('win', 'lose'), ((2, 1), (2, 3)))
    """
    absorbing = tuple(absorbing)
    absorbing_set = set(absorbing)
    import networkx as nx  # here: imported by the programs that build graphs only

    transient = tuple(n for n in nx.topological_sort(graph) if n not in absorbing_set)
    index = {node: i for i, node in enumerate(transient)}
    index.update({node: len(transient) + k for k, node in enumerate(absorbing)})
    targets = []
    edge_data = []
    for node in transient:
        out = list(graph.out_edges(node, data=True))
        targets.append(tuple(index[v] for _, v, _ in out))
        edge_data.append(tuple(d for _, _, d in out))
    return Chain(transient, absorbing, tuple(targets), tuple(edge_data), index)


def absorption(
    chain: Chain,
    sources: Iterable[int],
    weigh: Weigh,
    domain: Any,
    groups: Sequence[int | None] | None = None,
) -> dict[int, list[Any]]:
    """P(absorbed in each absorbing state | start in each source), exactly.

    ``weigh(i)`` returns the probabilities of the edges out of transient state
    ``i``, aligned with ``chain.targets[i]``. Only states reachable from the
    sources along edges of non-zero weight are visited: a forward pass in
    topological order finds them (weighing each once), a backward pass solves
    ``x_i = sum_j w_ij x_j`` with ``x`` the unit vector on absorbing states.

    Returns, for every visited transient state, its absorption vector (one entry
    per absorbing state, in ``chain.absorbing`` order). With ``groups``, absorbing
    state ``k`` counts towards entry ``groups[k]`` instead (``None``: left out), so
    callers that need only a few sums of outcomes carry shorter vectors.

    Examples
    --------
    The game of :func:`compile_chain`: P(win | a) = 1/2 + 1/2 * 1/3 = 2/3.

    >>> import networkx as nx
    >>> from sympy import QQ
    >>> g = nx.DiGraph()
    >>> g.add_edge("a", "win", p=QQ(1, 2)); g.add_edge("a", "b", p=QQ(1, 2))
    >>> g.add_edge("b", "win", p=QQ(1, 3)); g.add_edge("b", "lose", p=QQ(2, 3))
    >>> chain = compile_chain(g, ["win", "lose"])
    >>> def weigh(i):
    ...     return [edge["p"] for edge in chain.edge_data[i]]
    >>> absorption(chain, [chain.index["a"]], weigh, QQ)[chain.index["a"]]
    [mpq(2,3), mpq(1,3)]
    >>> absorption(chain, [chain.index["a"]], weigh, QQ, groups=[0, None])[chain.index["a"]]  # wins only
    [mpq(2,3)]
    """
    n = chain.n_transient
    if groups is None:
        groups = range(len(chain.absorbing))
    slots = tuple(groups)
    m = 1 + max((g for g in slots if g is not None), default=-1)
    zero = domain.zero
    weights: dict[int, Sequence[Any]] = {}
    reached = set(sources)
    for i in range(n):  # forward: topological order
        if i not in reached:
            continue
        w = weights[i] = weigh(i)
        for target, weight in zip(chain.targets[i], w):
            if weight and target < n:
                reached.add(target)
    values: dict[int, list[Any]] = {}
    for i in sorted(weights, reverse=True):  # backward: reverse topological order
        row = [zero] * m
        for target, weight in zip(chain.targets[i], weights[i]):
            if not weight:
                continue
            if target >= n:
                slot = slots[target - n]
                if slot is not None:
                    row[slot] += weight
            else:
                row = [x + weight * y if y else x for x, y in zip(row, values[target])]
        values[i] = row
    return values
