"""The dealer's hit-to-17 process as an explicit networkx graph, and its exact solution.

Graph
    Nodes are the dealer's hands so far. Start nodes are the one-card hands (the
    up-card alone, labelled ``"A"``, ``"2"``, ..., ``"T"``), kept apart so that a
    natural can be told from a later 21. Absorbing nodes are the outcomes
    ``"17"``..``"21"``, ``"bust"``, ``"blackjack"`` (naturals ``separate``) and,
    for finite shoes, ``"exhausted"`` (the shoe ran out before the dealer
    finished). Each edge's attribute ``ranks`` lists the card ranks that move the
    dealer along it (several ranks may lead to the same outcome).

    Infinite deck: a later hand is its value (``"hard 12"``, ``"soft 15"``).
    Finite shoe: the chance of the next card depends on which cards are gone,
    so a later hand is the multiset of the dealer's cards (``"2+5+A"`` is
    written ``"A+2+5"``). This topology does not depend on the counts: it is
    built once per rule set and *weighted* for each shoe (and each set of
    cards removed, such as the player's hand).

Conventions
    A row of the dealer table is conditioned on the up-card. For finite shoes the
    up-card has left the shoe, and so have any ``removed`` cards; the other cards
    are equally likely to be drawn. The dealer's hole card is simply the second
    card drawn. Under ``peek`` the second card is conditioned not to make a
    natural, so the A and T rows are renormalised.

    ``exhausted``: a small custom shoe can run out while the dealer still has to
    draw. That is reported as the outcome ``exhausted`` (probability of the shoe
    running out), never silently dropped; it only appears where it is possible.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TYPE_CHECKING, Any

from ..chain.solve import Chain, absorption, compile_chain
from ..core.cards import RANKS, Counts, FiniteShoe, Shoe, add_counts, counts_of, rank_symbol, ranks_in
from ..core.hand import EMPTY_HAND, HandValue, add_card, natural_partner, two_cards_natural
from ..core.numbers import RATIONALS, mpq
from ..core.rules import Rules
from ..core.settlement import BLACKJACK, BUST, EXHAUSTED  # the dealer's outcomes, named where hands are settled
from ..errors import BjexactError

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["FINAL_TOTALS", "BLACKJACK", "BUST", "EXHAUSTED", "DealerGraph", "ShoeDraws", "dealer_graph", "graph_for"]


FINAL_TOTALS = ("17", "18", "19", "20", "21")
NO_CARDS: Counts = (0,) * 10


def absorbing_outcomes(naturals: str, finite: bool) -> tuple[str, ...]:
    return (
        FINAL_TOTALS
        + (BUST,)
        + ((BLACKJACK,) if naturals == "separate" else ())
        + ((EXHAUSTED,) if finite else ())
    )


def _cards_label(cards: Counts) -> str:
    return "+".join(map(rank_symbol, ranks_in(cards)))


@dataclass(frozen=True, eq=False)
class DealerGraph:
    """The dealer's transition graph for one rule set (soft-17 rule, naturals, finite or not).

    ``graph`` is the networkx ``DiGraph``: node attributes ``kind``
    (``"start"``, ``"transient"`` or ``"absorbing"``), ``total``, ``soft``,
    ``upcard`` (start nodes) and ``cards`` (finite shoes: the dealer's card
    counts); edge attribute ``ranks``. Weights are not stored in the graph: they
    depend on the shoe; see :meth:`weighted`.
    """

    graph: nx.DiGraph
    h17: bool
    naturals: str
    finite: bool

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The absorbing states, in table order."""
        return absorbing_outcomes(self.naturals, self.finite)

    def start(self, upcard: int) -> str:
        """The node of the one-card hand ``upcard``."""
        return rank_symbol(upcard)

    @cached_property
    def chain(self) -> Chain:
        return compile_chain(self.graph, self.outcomes)

    @cached_property
    def _node_info(self) -> tuple[tuple[Counts, int | None, tuple[tuple[int, ...], ...]], ...]:
        """Per transient index: (cards drawn, natural rank to exclude, rank indices per edge)."""
        info = []
        for i, node in enumerate(self.chain.transient):
            attrs = self.graph.nodes[node]
            excluded = None
            if self.naturals == "peek" and attrs["kind"] == "start":
                excluded = natural_partner(attrs["upcard"])
            ranks = tuple(tuple(r - 1 for r in d["ranks"]) for d in self.chain.edge_data[i])
            info.append((attrs.get("cards", NO_CARDS), excluded, ranks))
        return tuple(info)

    def weigher(self, draws: Any) -> Callable[[int], list[Any]]:
        """The edge-weight function of :func:`bjexact.chain.solve.absorption` for a card model.

        ``draws.probabilities(cards)`` gives P(rank) for the next card once the
        dealer holds ``cards`` (ten domain elements, all zero when the shoe is empty).
        """
        info = self._node_info
        domain = draws.domain

        def weigh(i: int) -> list[Any]:
            cards, excluded, edge_ranks = info[i]
            p = draws.probabilities(cards)
            if excluded is not None:
                p = _condition_no_natural(p, excluded, domain, self.chain.transient[i])
            empty = not any(p)
            return [
                (domain.one if empty else domain.zero) if not ranks else sum((p[r] for r in ranks), domain.zero)
                for ranks in edge_ranks
            ]

        return weigh

    def weighted(self, draws: Any, upcards: Iterable[int] | None = None) -> nx.DiGraph:
        """The part of the graph a shoe can reach, each edge carrying its probability as ``weight``.

        Only hands reachable with non-zero probability from the given up-cards
        (default: every up-card the shoe can show) are kept, with their non-zero
        edges: a hand of five aces has no place in a one-deck diagram.
        """
        chain = self.chain
        n = chain.n_transient
        weigh = self.weigher(draws)
        if upcards is None:
            upcards = [u for u in RANKS if getattr(draws, "shoe", Shoe.infinite()).has(u)]
        pending = [chain.index[self.start(u)] for u in upcards]
        seen = set(pending)
        import networkx as nx  # here: the exact engine's paths never build a graph

        graph = nx.DiGraph(**self.graph.graph)
        while pending:
            i = pending.pop()
            node = chain.transient[i]
            graph.add_node(node, **self.graph.nodes[node])
            for target, weight, data in zip(chain.targets[i], weigh(i), chain.edge_data[i]):
                if not weight:
                    continue
                label = _node_at(chain, target)
                graph.add_node(label, **self.graph.nodes[label])
                graph.add_edge(node, label, weight=weight, **data)
                if target < n and target not in seen:
                    seen.add(target)
                    pending.append(target)
        return graph

    def solve(
        self, draws: Any, upcards: Iterable[int], groups: Sequence[int | None] | None = None
    ) -> dict[int, list[Any]]:
        """Absorption vectors (``outcomes`` order) for the start node of each up-card.

        ``groups`` sums outcomes into fewer entries, as in :func:`bjexact.chain.solve.absorption`.
        Exact rationals from a finite shoe take the integer fast path of
        :meth:`_solve_counts`; everything else is weighted by ``draws`` directly.
        """
        chain = self.chain
        starts = {u: chain.index[self.start(u)] for u in upcards}
        if isinstance(draws, ShoeDraws) and draws.domain is RATIONALS and isinstance(draws.shoe, FiniteShoe):
            left = tuple(c - r for c, r in zip(draws.shoe.counts, draws.removed))
            if sum(left) > self._depth:
                return self._solve_counts(left, starts, groups)
        values = absorption(chain, starts.values(), self.weigher(draws), draws.domain, groups)
        return {u: values[i] for u, i in starts.items()}

    @cached_property
    def _depth(self) -> int:
        """The most cards a transient (still drawing) dealer hand can hold."""
        return max(sum(info[0]) for info in self._node_info)

    @cached_property
    def _count_edges(self) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int, int, int], ...], ...]]:
        """Per transient node and edge: (rank-set id, dealer cards of those ranks, depth, terminal?).

        The cards that can take an edge are those of its ranks left in the shoe less
        those the dealer already holds; the first term is shared by all nodes.
        """
        rank_sets: dict[tuple[int, ...], int] = {}
        edges = []
        n = self.chain.n_transient
        for i, (cards, _, edge_ranks) in enumerate(self._node_info):
            row = []
            for ranks, target in zip(edge_ranks, self.chain.targets[i]):
                k = rank_sets.setdefault(ranks, len(rank_sets))
                row.append((k, sum(cards[r] for r in ranks), sum(cards), int(target >= n)))
            edges.append(tuple(row))
        return tuple(rank_sets), tuple(edges)

    def _solve_counts(
        self, left: Counts, starts: Mapping[int, int], groups: Sequence[int | None] | None
    ) -> dict[int, list[mpq]]:
        """The same absorption, in integers: every probability at depth j has denominator M - j.

        With ``M`` cards left before the dealer's first card and ``P_j`` the product
        of ``M - k`` for k = j..K (K the deepest transient hand, ``P_{K+1} = 1``),
        ``U = value * P_j`` satisfies ``U = sum a_e U_child + sum a_e P_{j+1} e_outcome``
        with integer card counts ``a_e``. The generic solver computes ``U`` over the
        integers; dividing by ``P_j`` at the start nodes gives the exact values.
        Needs ``M > K``, so that no hand can exhaust the shoe.
        """
        total = sum(left)
        scale = [1] * (self._depth + 2)  # scale[j] = P_j
        for j in range(self._depth, 0, -1):
            scale[j] = scale[j + 1] * (total - j)
        rank_sets, edges = self._count_edges
        scaled = [(1, scale[depth + 1]) for depth in range(self._depth + 1)]

        available = [sum(left[r] for r in ranks) for ranks in rank_sets]

        def weigh(i: int) -> list[int]:
            return [(available[k] - held) * scaled[depth][terminal] for k, held, depth, terminal in edges[i]]

        values = absorption(self.chain, starts.values(), weigh, _INTEGERS, groups)
        result = {}
        for upcard, i in starts.items():
            excluded = self._node_info[i][1]  # peek: the hole card that would make a natural
            drawable = total - 1 - (left[excluded - 1] if excluded else 0)
            if drawable <= 0:
                raise BjexactError(
                    f"up-card {rank_symbol(upcard)}: every card left makes a natural, "
                    "so nothing can be conditioned on no natural"
                )
            divisor = scale[2] * drawable
            result[upcard] = [mpq(u, divisor) for u in values[i]]
        return result


class _Integers:
    zero = 0
    one = 1


_INTEGERS = _Integers()


def _node_at(chain: Chain, index: int) -> Hashable:
    n = chain.n_transient
    return chain.transient[index] if index < n else chain.absorbing[index - n]


def _condition_no_natural(p: Sequence[Any], excluded: int, domain: Any, node: Any) -> list[Any]:
    """Draw probabilities conditioned on the hole card not making a natural (peek)."""
    rest = domain.one - p[excluded - 1]
    if not rest:
        if not any(p):
            return list(p)
        raise BjexactError(
            f"up-card {node}: every card left makes a natural, so nothing can be conditioned on no natural"
        )
    return [domain.zero if r == excluded - 1 else q / rest for r, q in enumerate(p)]


@dataclass(frozen=True)
class ShoeDraws:
    """Exact draw probabilities from ``shoe`` after ``removed`` (and the dealer's cards) are gone."""

    shoe: Shoe
    removed: Counts = NO_CARDS
    domain: Any = RATIONALS

    def probabilities(self, cards: Counts) -> tuple[mpq, ...]:
        if self.shoe.is_infinite:
            return self.shoe.draw_probabilities()
        return self.shoe.draw_probabilities(add_counts(self.removed, cards))


@cache
def dealer_graph(h17: bool = False, naturals: str = "as21", finite: bool = True) -> DealerGraph:
    """Build (once, then cached) the dealer graph for a soft-17 rule and naturals convention.

    Finite shoes need the multiset of the dealer's cards as the state (draws
    change the shoe); the infinite deck needs only the total and softness.

    Examples
    --------
    >>> finite = dealer_graph()
    >>> finite.graph.number_of_nodes(), finite.graph.number_of_edges()
    (606, 5196)
    >>> infinite = dealer_graph(finite=False)
    >>> infinite.graph.number_of_nodes(), infinite.graph.number_of_edges()
    (34, 270)
    """
    rules = Rules(decks=1, h17=h17, naturals=naturals)  # validates; decks is irrelevant here
    import networkx as nx  # here: the exact engine's paths never build a graph

    graph = nx.DiGraph(h17=h17, naturals=naturals, finite=finite)
    for outcome in absorbing_outcomes(naturals, finite):
        graph.add_node(outcome, kind="absorbing")

    def key(cards: Counts, value: HandValue) -> str:
        return _cards_label(cards) if finite else str(value)

    frontier = []
    for upcard in RANKS:
        value = add_card(EMPTY_HAND, upcard)
        attrs = dict(kind="start", total=value.total, soft=value.soft, upcard=upcard)
        if finite:
            attrs["cards"] = counts_of([upcard])
        graph.add_node(rank_symbol(upcard), **attrs)
        frontier.append((rank_symbol(upcard), counts_of([upcard]), value, True))
    seen = {node for node, *_ in frontier}
    while frontier:
        node, cards, value, first = frontier.pop()
        for rank in RANKS:
            new_value = add_card(value, rank)
            new_cards = add_counts(cards, counts_of([rank]))
            if first and two_cards_natural(new_value):  # a natural
                if naturals == "peek":
                    continue
                target = BLACKJACK if naturals == "separate" else "21"
            elif new_value.bust:
                target = BUST
            elif rules.dealer_stands(new_value):
                target = str(new_value.total)
            else:
                target = key(new_cards, new_value)
                if target not in seen:
                    seen.add(target)
                    attrs = dict(kind="transient", total=new_value.total, soft=new_value.soft)
                    if finite:
                        attrs["cards"] = new_cards
                    graph.add_node(target, **attrs)
                    frontier.append((target, new_cards, new_value, False))
            if graph.has_edge(node, target):
                graph.edges[node, target]["ranks"] += (rank,)
            else:
                graph.add_edge(node, target, ranks=(rank,))
        if finite:
            graph.add_edge(node, EXHAUSTED, ranks=())
    return DealerGraph(graph, h17, naturals, finite)


def graph_for(rules: Rules) -> DealerGraph:
    return dealer_graph(rules.h17, rules.naturals, not rules.infinite)
