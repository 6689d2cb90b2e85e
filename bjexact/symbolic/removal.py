"""Exact effects of removal: how the dealer's outcome probabilities move when one card leaves the shoe.

Finite shoes
    The effect of removing a card of rank ``r`` on a quantity ``f`` of the shoe
    ``n`` is ``f(n - e_r) - f(n)``, exactly (the card-counting table). The
    quantities are the dealer's final-outcome probabilities, either for one
    up-card (P(outcome | up-card), the up-card having left the shoe too) or
    averaged over the up-card (P(outcome) before the up-card is seen, each
    up-card weighted by its chance ``n_u / N``).

    Burn-card neutrality holds exactly: removing an unseen card at random does
    not change any probability, so ``sum_r n_r * effect_r = 0`` (for one up-card,
    weights are the counts left after the up-card).

Infinite deck
    A card removed from an infinite deck changes nothing; what one reports
    instead is the derivative of ``f(p)`` (the polynomial of
    :mod:`bjexact.symbolic`) in the direction of removing a card of rank ``r``:
    removing one card from an ``N``-card shoe of composition ``p`` moves ``p`` to
    ``p + (p - e_r)/(N - 1)``, so the effect is about ``D_r f / N`` with

        ``D_r f = sum_j p_j df/dp_j - df/dp_r``   (at the standard deck).

    ``D_r f`` does not depend on how ``f`` is written off the simplex
    ``sum p = 1``; the raw partial derivatives ``df/dp_r`` (also reported) do.

Under naturals ``peek`` the averaged probabilities are conditioned on the
dealer not holding a natural (the up-card weights are conditioned too).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..chain.solve import absorption, compile_chain
from ..core.cards import RANKS, STANDARD_PROBABILITIES, Counts, FiniteShoe, RankKeyed, counts_of, rank_symbol
from ..core.deal import infinite_hands, infinite_natural_chance
from ..core.display import Displayable
from ..core.frames import data_frame
from ..core.hand import hand_value, is_natural, natural_partner
from ..core.hand import no_natural_chance as hand_no_natural_chance
from ..core.numbers import as_rational, fraction_string, mpq
from ..core.rules import GameRules, Rules
from ..dealer.distributions import average_row, dealer_distributions
from ..dealer.graph import BLACKJACK, BUST, EXHAUSTED, FINAL_TOTALS, graph_for
from ..dealer.graph import BUST as PLAYER_BUST
from ..errors import BjexactError
from ..player.game import solve_game
from ..player.outcomes import payoffs, settle_value, stand_results
from ..player.solver import solve, solve_infinite
from ..player.states import player_hit_graph, player_states
from ..progress import Progress
from .models import per_rank_model
from .polys import evaluate
from .table import symbolic_dealer_table

__all__ = [
    "RemovalEffects",
    "FullGameRemovalEffects",
    "full_game_removal_effects",
    "dealer_outcomes",
    "no_natural_chance",
    "dealer_removal_effects",
    "infinite_removal_effects",
]

_NO_CARDS: Counts = (0,) * 10


def _outcome_names(rules: Rules) -> tuple[str, ...]:
    return FINAL_TOTALS + (BUST,) + ((BLACKJACK,) if rules.naturals == "separate" else ())


def dealer_outcomes(
    rules: Rules, removed: Counts = _NO_CARDS, upcard: int | None = None
) -> dict[str, mpq] | None:
    """P(final outcome) of the dealer for the shoe of ``rules`` less ``removed`` (finite shoes).

    With ``upcard``: conditioned on that up-card (``None`` when none is left).
    Without: :func:`bjexact.dealer.average_row`, the average over the up-card, each weighted
    by its chance (under ``peek`` also by its chance of no natural: P(outcome | no natural)).
    ``exhausted`` is a key only when it is possible.
    """
    if rules.infinite:
        raise BjexactError("effects of removal need a finite shoe; for the infinite deck use derivatives")
    counts = [c - r for c, r in zip(rules.finite_shoe().counts, removed, strict=True)]
    if any(c < 0 for c in counts):
        raise BjexactError("more cards removed than the shoe holds")
    if upcard is None:
        average = average_row(rules, removed)
        names = _outcome_names(rules) + ((EXHAUSTED,) if average.get(EXHAUSTED) else ())
        return {o: average.get(o, mpq(0)) for o in names}
    rows = dealer_distributions(rules, removed, [upcard])
    names = _outcome_names(rules)
    if any(row.get(EXHAUSTED) for row in rows.values()):
        names += (EXHAUSTED,)
    return {o: rows[upcard][o] for o in names} if upcard in rows else None


def no_natural_chance(counts: Counts, upcard: int | None = None) -> mpq:
    """P(the dealer has no natural) for a shoe of ``counts`` (before the up-card is dealt),
    given the ``upcard`` or averaged over it; the hole card is any of the other cards."""
    total = sum(counts)
    if upcard is not None:
        unseen = list(counts)
        unseen[upcard - 1] -= 1
        return hand_no_natural_chance(tuple(unseen), upcard)
    return sum((mpq(counts[u - 1], total) * no_natural_chance(counts, u) for u in RANKS if counts[u - 1]),
               mpq(0))


@dataclass(frozen=True)
class RemovalEffects(Displayable):
    """Effects of removing one card of each rank on the dealer's outcome probabilities.

    ``base``: the probabilities for the full shoe. ``effects[r]``: the exact change
    per outcome when one card of rank ``r`` is removed (``None`` when the shoe has
    no card of that rank to remove, or no such up-card is left). ``upcard``: the
    conditioning up-card, or ``None`` for the average over up-cards. For the
    infinite deck ``effects`` are the derivatives ``D_r f`` (see the module
    docstring) and ``partials`` the raw ``df/dp_r``.
    """

    rules: Rules
    upcard: int | None
    outcomes: tuple[str, ...]
    base: Mapping[str, mpq]
    effects: Mapping[int, Mapping[str, mpq] | None]
    partials: Mapping[int, Mapping[str, mpq]] | None = None

    def __post_init__(self) -> None:  # keyed by rank, and by card symbols too: effects["A"]
        for name in ("effects", "partials"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, RankKeyed):
                object.__setattr__(self, name, RankKeyed(value))

    @property
    def kind(self) -> str:
        return "derivative" if self.rules.infinite else "removal"

    def to_pandas(self, exact: bool = False, *, partials: bool = False) -> Any:
        """A pandas DataFrame: the full shoe's probabilities (row ``"full"``, ``"standard"`` for the
        infinite deck), then the change per rank removed (rows ``"A"`` .. ``"T"``; ``partials``:
        the raw ``df/dp_r`` of the infinite deck); one column per outcome; floats by default,
        or with ``exact=True`` exact ``mpq`` cells. A rank that cannot be removed has an empty row."""
        rows = self.partials if partials else self.effects
        if rows is None:
            raise BjexactError("partials exist for the infinite deck only")
        base = "standard" if self.rules.infinite else "full"
        records = [{"shoe": base, **self.base}]
        records += [{"shoe": rank_symbol(r), **(row or {})} for r, row in rows.items()]
        return data_frame(records, ["shoe", *self.outcomes], exact, index="shoe")

    def weighted_sum(self, outcome: str) -> mpq:
        """``sum_r w_r * effect_r`` with the burn-card weights: exactly 0 (burning an unseen card
        at random changes nothing).

        ``w_r`` is the chance that the burnt card is an ``r``: its count (less the up-card
        when one is given); under ``peek`` times P(no dealer natural | that card burnt),
        since the quantities are conditioned on no natural. Infinite deck: ``w_r = p_r``.
        """
        if self.rules.infinite:
            weights = list(STANDARD_PROBABILITIES)
        else:
            shoe = self.rules.finite_shoe().counts
            weights = [mpq(c) for c in shoe]
            if self.upcard is not None:
                weights[self.upcard - 1] -= 1
            if self.rules.naturals == "peek":
                for r in RANKS:
                    left = tuple(c - (j == r) for j, c in enumerate(shoe, start=1))
                    if min(left) >= 0:
                        weights[r - 1] *= no_natural_chance(left, self.upcard)
        return sum(
            (w * effect[outcome] for r, w in zip(RANKS, weights, strict=True) if (effect := self.effects[r])),
            mpq(0),
        )

    def to_json(self) -> dict[str, Any]:
        def row(values):
            return None if values is None else {o: fraction_string(values[o]) for o in self.outcomes}

        document = {
            "rules": self.rules.to_json(),
            "kind": self.kind,
            "upcard": None if self.upcard is None else rank_symbol(self.upcard),
            "outcomes": list(self.outcomes),
            "base": row(self.base),
            "effects": {rank_symbol(r): row(v) for r, v in self.effects.items()},
        }
        if self.partials is not None:
            document["partials"] = {rank_symbol(r): row(v) for r, v in self.partials.items()}
        return document


def dealer_removal_effects(rules: Rules, upcard: int | None = None) -> RemovalEffects:
    """Exact effects of removal on the dealer's outcomes: finite shoes by recomputation,
    the infinite deck by the derivatives of the symbolic table."""
    if rules.infinite:
        return infinite_removal_effects(rules, upcard)
    base = dealer_outcomes(rules, _NO_CARDS, upcard)
    if base is None:
        assert upcard is not None  # without an up-card there is always an average
        raise BjexactError(f"the shoe holds no {rank_symbol(upcard)} to be the up-card")
    shoe = rules.finite_shoe().counts
    effects: dict[int, dict[str, mpq] | None] = {}
    for rank in RANKS:
        left = shoe[rank - 1] - (rank == upcard)
        if left <= 0:
            effects[rank] = None
            continue
        removed = dealer_outcomes(rules, counts_of([rank]), upcard)
        effects[rank] = None if removed is None else {
            o: removed.get(o, mpq(0)) - base.get(o, mpq(0)) for o in base
        }
    return RemovalEffects(rules, upcard, tuple(base), base, effects)


def _value_and_gradient(element: Any, point: tuple[mpq, ...], gens) -> tuple[mpq, list[mpq]]:
    """The value and the gradient of a polynomial or rational function at ``point``, exactly."""

    numer = getattr(element, "numer", element)
    denom = getattr(element, "denom", None)
    n = evaluate(numer, point)
    n_grad = [evaluate(numer.diff(x), point) for x in numer.ring.gens]
    if denom is None or denom.is_ground:
        scale = mpq(1) if denom is None else 1 / as_rational(denom.LC)
        return n * scale, [g * scale for g in n_grad]
    d = evaluate(denom, point)
    d_grad = [evaluate(denom.diff(x), point) for x in denom.ring.gens]
    return n / d, [(gn * d - n * gd) / (d * d) for gn, gd in zip(n_grad, d_grad, strict=True)]


def infinite_removal_effects(rules: Rules, upcard: int | None = None) -> RemovalEffects:
    """``D_r f`` and ``df/dp_r`` at the standard deck, from the polynomials in ``p_A .. p_T``.

    The averaged quantity is ``f = sum_u w_u f_u / sum_u w_u`` with ``w_u = p_u``
    (times ``1 - p_natural`` under ``peek``); its gradient is taken by the product
    and quotient rules from the exact gradients of the pieces.
    """

    if not rules.infinite:
        raise BjexactError("derivatives are for the infinite deck; finite shoes have exact removal effects")
    table = symbolic_dealer_table(rules, per_rank_model())
    model = table.model
    gens = model.gens
    point = model.standard_point
    outcomes = _outcome_names(rules)
    cells = {u: {o: _value_and_gradient(table[u][o], point, gens) for o in outcomes} for u in table.upcards}
    if upcard is not None:
        values = cells[upcard]
    else:
        weights = {}
        for u in RANKS:  # w_u and its gradient
            w, grad = point[u - 1], [mpq(int(j == u)) for j in RANKS]
            natural = natural_partner(u)
            if rules.naturals == "peek" and natural is not None:
                q = 1 - point[natural - 1]
                grad = [g * q - w * int(j == natural) for g, j in zip(grad, RANKS, strict=True)]
                w = w * q
            weights[u] = (w, grad)
        norm = sum(w for w, _ in weights.values())
        norm_grad = [sum(g[k] for _, g in weights.values()) for k in range(10)]
        values = {}
        for o in outcomes:
            top = sum(weights[u][0] * cells[u][o][0] for u in RANKS)
            top_grad = [
                sum(weights[u][1][k] * cells[u][o][0] + weights[u][0] * cells[u][o][1][k] for u in RANKS)
                for k in range(10)
            ]
            grad = [(tg * norm - top * ng) / norm**2 for tg, ng in zip(top_grad, norm_grad, strict=True)]
            values[o] = (top / norm, grad)
    base = {o: values[o][0] for o in outcomes}
    partials = {r: {o: values[o][1][r - 1] for o in outcomes} for r in RANKS}
    effects = {
        r: {o: sum((p * partials[j][o] for j, p in zip(RANKS, point, strict=True)), mpq(0)) - partials[r][o]
            for o in outcomes}
        for r in RANKS
    }
    return RemovalEffects(rules, upcard, outcomes, base, effects, partials)


# --- the value of the hit/stand game ---------------------------------------------------------


@dataclass(frozen=True)
class GameRemovalEffects(Displayable):
    """Effects of removal on the value of the hit/stand game (from the deal, optimal play).

    ``base`` is the game's value; ``effects[r]`` the exact change when one card of rank
    ``r`` is removed (finite shoes: the composition-dependent optimum of
    :func:`bjexact.player.solve_finite` for each shoe), or for the infinite deck the
    derivative ``D_r V`` (see the module docstring; the optimal play of the standard
    deck is kept, which is exact for a derivative because no decision there is a tie).
    """

    rules: Rules
    objective: str
    base: mpq
    effects: Mapping[int, mpq | None]

    def __post_init__(self) -> None:  # keyed by rank, and by card symbols too: effects["A"]
        if not isinstance(self.effects, RankKeyed):
            object.__setattr__(self, "effects", RankKeyed(self.effects))

    @property
    def kind(self) -> str:
        return "derivative" if self.rules.infinite else "removal"

    def to_pandas(self, exact: bool = False) -> Any:
        """A pandas DataFrame with one column, ``value``: the game's value (row ``"full"``,
        ``"standard"`` for the infinite deck), then its change per rank removed (rows ``"A"`` ..
        ``"T"``, empty where the rank cannot be removed); floats (the default), or exact ``mpq`` with ``exact=True``."""
        records = [{"shoe": "standard" if self.rules.infinite else "full", "value": self.base}]
        records += [{"shoe": rank_symbol(r), "value": v} for r, v in self.effects.items()]
        return data_frame(records, ["shoe", "value"], exact, index="shoe")

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "kind": self.kind,
            "objective": self.objective,
            "base": fraction_string(self.base),
            "effects": {rank_symbol(r): None if v is None else fraction_string(v) for r, v in self.effects.items()},
        }


def game_removal_effects(rules: Rules, objective: str = "ev", *, progress: bool | None = None) -> GameRemovalEffects:
    """Exact effects of removal on the hit/stand game's value (finite shoes: one exact solve of the
    player's game per rank, which takes a while; the infinite deck: derivatives, fast)."""

    if rules.infinite:
        return _infinite_game_effects(rules, objective)


    shoe = rules.finite_shoe().counts
    base = solve(rules, objective, progress=False).game.value
    effects: dict[int, mpq | None] = {}
    with Progress(10, "shoes with one card removed", enabled=progress) as bar:
        for rank in RANKS:
            if shoe[rank - 1] == 0:
                effects[rank] = None
            else:
                smaller = Rules(shoe=counts_of_removal(shoe, rank), h17=rules.h17, naturals=rules.naturals,
                                bj_pays=rules.bj_pays)
                effects[rank] = solve(smaller, objective, progress=False).game.value - base
            bar.advance()
    return GameRemovalEffects(rules, objective, base, effects)


@dataclass(frozen=True)
class FullGameRemovalEffects:
    """Effects of removal on the full game's value (double, split, surrender as ``rules`` allow).

    ``base``: the round's expected result per unit initial bet (minus the house edge) under
    optimal composition-dependent play (:func:`bjexact.player.game.solve_game`);
    ``effects[r]``: its exact change when one card of rank ``r`` leaves the shoe before
    the round, the play re-optimised for the smaller shoe (``None``: no card of that rank).
    """

    rules: GameRules
    base: mpq
    effects: Mapping[int, mpq | None]

    kind = "removal"
    objective = "ev"

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "moves": "full",
            "kind": self.kind,
            "objective": self.objective,
            "base": fraction_string(self.base),
            "effects": {rank_symbol(r): None if v is None else fraction_string(v) for r, v in self.effects.items()},
        }


def full_game_removal_effects(rules: GameRules, *, progress: bool | None = None) -> FullGameRemovalEffects:
    """Exact effects of removal on the full game's value: one exact solve of the round for the
    full shoe and one per rank with a card of it removed (finite shoes only)."""
    if rules.infinite:
        raise BjexactError("the full game's effects of removal need a finite shoe: removing a card from the "
                           "infinite deck changes nothing (--moves hit-stand gives derivatives D_r V)")
    full = rules.make_shoe()
    assert isinstance(full, FiniteShoe)  # the infinite deck is refused above
    shoe = full.counts
    effects: dict[int, mpq | None] = {}
    with Progress(11, "shoes (the full one, then one card removed)", enabled=progress) as bar:
        base = solve_game(rules, with_distribution=False, progress=False).ev
        bar.advance()
        for rank in RANKS:
            if shoe[rank - 1] == 0:
                effects[rank] = None
            else:
                smaller = replace(rules, decks=None, shoe=counts_of_removal(shoe, rank))
                effects[rank] = solve_game(smaller, with_distribution=False, progress=False).ev - base
            bar.advance()
    return FullGameRemovalEffects(rules, base, effects)


def counts_of_removal(counts: Counts, rank: int) -> Counts:
    return tuple(c - (r == rank) for r, c in enumerate(counts, start=1))


@dataclass(frozen=True, slots=True)
class Dual:
    """``a + b h`` with ``h**2 = 0``: exact first-order arithmetic (forward-mode differentiation).

    Solving a chain over dual numbers gives a value and its derivative along one direction at
    once, exactly, with the same generic solver.
    """

    a: mpq
    b: mpq

    def _lift(self, other: Any) -> Dual:
        return other if isinstance(other, Dual) else Dual(mpq(other), mpq(0))

    def __add__(self, other: Any) -> Dual:
        other = self._lift(other)
        return Dual(self.a + other.a, self.b + other.b)

    __radd__ = __add__

    def __neg__(self) -> Dual:
        return Dual(-self.a, -self.b)

    def __sub__(self, other: Any) -> Dual:
        return self + (-self._lift(other))

    def __rsub__(self, other: Any) -> Dual:
        return self._lift(other) - self

    def __mul__(self, other: Any) -> Dual:
        other = self._lift(other)
        return Dual(self.a * other.a, self.a * other.b + self.b * other.a)

    __rmul__ = __mul__

    def __truediv__(self, other: Any) -> Dual:
        other = self._lift(other)
        return Dual(self.a / other.a, (self.b * other.a - self.a * other.b) / other.a**2)

    def __rtruediv__(self, other: Any) -> Dual:
        return self._lift(other) / self

    def __bool__(self) -> bool:
        return bool(self.a) or bool(self.b)


class _DualNumbers:
    """The domain of :class:`Dual`: ``zero``, ``one`` and ``convert``."""

    zero = Dual(mpq(0), mpq(0))
    one = Dual(mpq(1), mpq(0))

    def convert(self, value: Any) -> Dual:
        return value if isinstance(value, Dual) else Dual(mpq(value), mpq(0))


DUALS = _DualNumbers()


@dataclass(frozen=True)
class DirectionDraws:
    """The standard infinite deck ``p`` with the tangent ``p - e_rank`` (removing a card of ``rank``)."""

    rank: int
    domain: Any = DUALS

    def probabilities(self, cards: Any = None) -> tuple[Dual, ...]:
        p = list(STANDARD_PROBABILITIES)
        return tuple(Dual(q, q - (r == self.rank)) for r, q in enumerate(p, start=1))


def _infinite_game_effects(rules: Rules, objective: str) -> GameRemovalEffects:
    solution = solve_infinite(rules, objective)
    for state, position in solution.positions.items():
        if position.hit is not None and position.hit == position.stand:
            raise BjexactError(f"{state.label()} is a tie at the standard deck: the value has no derivative")
    policy = {(s.total, s.soft, s.upcard): p.best for s, p in solution.positions.items()}
    effects = {}
    for rank in RANKS:
        value = fixed_policy_game_value(rules, objective, policy, DirectionDraws(rank))
        if value.a != solution.game.value:  # pragma: no cover - the two evaluations must agree
            raise AssertionError("the fixed-policy value differs from the optimal value")
        effects[rank] = value.b
    return GameRemovalEffects(rules, objective, solution.game.value, effects)


def fixed_policy_game_value(rules: Rules, objective: str, policy: Mapping[tuple[int, bool, int], str],
                            draws: Any) -> Any:
    """The value of the hit/stand game from the deal under a fixed ``policy`` ((total, soft, up-card) ->
    ``"hit"``/``"stand"``), infinite deck, with card probabilities ``draws`` in any domain.

    The dealer's rows come from the dealer graph and the player's values from the player's hit
    chain, both solved by :func:`bjexact.chain.solve.absorption` over ``draws.domain``. Conventions as in
    :mod:`bjexact.player` (naturals, ``bj_pays``, ties).
    """
    import networkx as nx


    domain = draws.domain
    p = draws.probabilities(None)
    weights = payoffs(rules, objective)
    dealer = graph_for(rules)
    rows = dealer.solve(draws, RANKS)
    hit_graph = player_hit_graph()
    value_of_play: dict[int, dict[tuple[int, bool], Any]] = {}
    for upcard in RANKS:
        row = dict(zip(dealer.outcomes, rows[upcard], strict=True))
        graph = nx.DiGraph()
        payoff = {PLAYER_BUST: domain.convert(weights[3])}
        graph.add_node(PLAYER_BUST)
        for hand in player_states():
            label = str(hand)
            if policy[(hand.total, hand.soft, upcard)] == "hit":
                for _, target, data in hit_graph.out_edges(label, data=True):
                    graph.add_edge(label, target, ranks=data["ranks"])
            else:
                results = stand_results(hand.total, row, blackjack_loses=rules.naturals != "peek")
                graph.add_edge(label, f"stand {label}", ranks=())
                payoff[f"stand {label}"] = sum((w * r for w, r in zip(weights, results, strict=True) if r),
                                               domain.zero)
        absorbing = [n for n in graph.nodes if graph.out_degree(n) == 0]
        chain = compile_chain(graph, absorbing)

        def weigh(i, chain=chain):
            return [sum((p[r - 1] for r in d["ranks"]), domain.zero) if d["ranks"] else domain.one
                    for d in chain.edge_data[i]]

        sources = [chain.index[str(h)] for h in player_states()]
        solved = absorption(chain, sources, weigh, domain)
        value_of_play[upcard] = {
            (h.total, h.soft): sum((q * payoff[str(a)] for q, a in zip(solved[chain.index[str(h)]], chain.absorbing,
                                                                    strict=True) if q), domain.zero)
            for h in player_states()
        }
    total = domain.zero
    for upcard in RANKS:
        natural = infinite_natural_chance(upcard, p)
        for (first, second), dealt in infinite_hands(p):
            chance = p[upcard - 1] * dealt
            hand = hand_value((first, second))
            played = value_of_play[upcard][(hand.total, hand.soft)]
            if rules.naturals == "peek":  # played only when the dealer has no natural
                played = (domain.one - natural) * played
            total += chance * settle_value(rules.naturals, is_natural((first, second)), natural, played, weights)
    return total
