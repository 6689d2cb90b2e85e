"""The player's hit/stand decision process, solved exactly.

Model
    The player sees two cards and the dealer's up-card, then hits or stands;
    over 21 loses at once. The dealer then plays out the hand (see
    :mod:`bjexact.dealer`). Objectives: ``ev`` pays +1 for a win, 0 for a push,
    -1 for a loss (and ``rules.bj_pays`` for a player natural under the
    ``separate`` and ``peek`` conventions); ``win`` scores 1 for a win (a natural
    included), 1/2 for a push and 0 for a loss, the chance of winning with a
    push counted as half a win. Ties between hitting and standing go to standing.

Naturals (``rules.naturals``)
    ``as21``: a natural is simply a 21 on either side; the player's natural is
    the state soft 21 and is played like any other hand.
    ``separate``: a player natural is not played: it pushes against a dealer
    natural and otherwise wins ``bj_pays``; a dealer natural beats every other
    player hand, 21s of three or more cards included.
    ``peek``: the dealer's natural is settled before the player acts, so the
    values of the player's decisions are conditioned on the dealer having no
    natural (a player natural then wins ``bj_pays``). The value of the whole
    game from the deal is unconditional.

Results
    Each position carries the exact probabilities of its four results
    (:data:`RESULTS`: ``natural`` win, ``win``, ``push``, ``loss``) under the
    optimal play from there; an objective is a linear weighting of them.

Infinite deck
    States are (total, soft, up-card) for hard 4-21 and soft 12-21. For the hit
    action, ``T[i][j]`` is the chance of moving from state i to state j on one
    card and ``B[i]`` is the loss payoff times the chance of busting on that
    card (``-P(bust)`` for ``ev``). With ``R_stand`` the
    standing values, ``V = max(R_stand, T V + B)``; T is strictly triangular when
    states are ordered by hard sum, so backward induction solves it exactly.

Finite shoes
    Values depend on the cards drawn, so positions are (the multiset of the
    player's cards, up-card). Cards are drawn without replacement from the
    *unseen* cards: the shoe less the player's cards and the up-card (the hole
    card is one of them: by exchangeability it may be drawn after the player's
    cards). The dealer's distribution for each multiset of removed cards comes
    from re-weighting the one dealer graph, and is shared by every up-card and
    every ordering of the same cards. Under ``peek`` a finite position's values
    are computed as E[payoff, no dealer natural] and divided by P(no dealer
    natural | the cards seen), which conditions them exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache, partial
from typing import Any

from ..collector import without_cycle_collection
from ..core.cards import (
    RANKS,
    UPCARD_ORDER,
    Counts,
    FiniteShoe,
    RankKeyed,
    Shoe,
    add_counts,
    as_rank,
    check_shoe_holds,
    counts_of,
    rank_key,
    rank_symbol,
    ranks_in,
)
from ..core.choice import hit_or_stand
from ..core.deal import infinite_hands, infinite_natural_chance, two_card_hands
from ..core.display import Displayable
from ..core.frames import data_frame
from ..core.hand import (
    HandValue,
    add_card,
    hand_value,
    is_natural,
    no_natural_chance,
    player_hand,
    two_cards_natural,
)
from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules, Rules
from ..dealer.batch import OUTCOMES, DealerOracle
from ..dealer.distributions import dealer_table
from ..dealer.graph import BLACKJACK, BUST, ShoeDraws, dealer_graph
from ..errors import BjexactError
from ..progress import Progress
from .outcomes import (
    NO_RESULTS,
    OBJECTIVES,
    ONE,
    RESULTS,
    ZERO,
    Results,
    add_results,
    loss_results,
    payoffs,
    result_of,
    score,
    settle_deal,
    stand_results,
    stand_sums,
)
from .states import PlayerState, counts_value, hands_up_to_21, hard_sum, player_hit_graph, player_states

# From this many cards on no round can run the shoe out (a player's hand of 21 holds at most
# 11 cards, the dealer draws at most 10 more besides the up-card); smaller custom shoes keep the
# per-hand solve, which reports a dealer that can run out.
_BATCH_MIN_CARDS = 30

__all__ = [
    "PositionValues", "GameValue", "PlayerMatrices", "InfiniteSolution", "HandDecision", "FiniteSolution",
    "solve_infinite", "solve_finite", "hand_decision", "solve", "two_card_votes", "majority_move", "solve_positions",
    "clear_hand_decision_cache",
]


@dataclass(frozen=True)
class PositionValues:
    """The results of standing and of hitting (then playing on optimally) from one position.

    ``hit_results`` is ``None`` where no card can be drawn. ``scale`` divides the
    probabilities to condition them (``peek`` on finite shoes: P(no dealer natural
    | the cards seen)); it is 1 otherwise. A position with ``scale`` 0 cannot occur
    once the dealer has no natural: its values are undefined (``None``) and its
    unscaled results, all zero, add nothing to the positions before it.
    """

    stand_results: Results
    hit_results: Results | None
    weights: Results
    scale: mpq = ONE

    def _value(self, results: Results | None) -> mpq | None:
        if results is None or not self.scale:
            return None
        return score(self.weights, results) / self.scale

    @property
    def stand(self) -> mpq | None:
        """Value of standing (under the solution's objective); ``None`` for an impossible position."""
        return self._value(self.stand_results)

    @property
    def hit(self) -> mpq | None:
        """Value of hitting once and then playing optimally; ``None`` when no card can be drawn."""
        return self._value(self.hit_results)

    @cached_property
    def best(self) -> str:
        """``"hit"`` when hitting is strictly better, else ``"stand"``.

        Compared before scaling, which a positive ``scale`` does not change and a zero
        one would make meaningless.
        """
        if self.hit_results is None:
            return "stand"
        return hit_or_stand(score(self.weights, self.stand_results), score(self.weights, self.hit_results))

    @property
    def value(self) -> mpq | None:
        return self._value(self._raw_best)

    @property
    def results(self) -> Results | None:
        """Probabilities of the results under the best move (conditioned as the values are)."""
        if not self.scale:
            return None
        return tuple(x / self.scale for x in self._raw_best)

    @cached_property
    def _raw_best(self) -> Results:
        return self.hit_results if self.best == "hit" else self.stand_results  # type: ignore[return-value]


@dataclass(frozen=True)
class GameValue:
    """The value of the hit/stand game from the deal, and the chance of each result.

    ``results`` are unconditional probabilities of :data:`RESULTS` (``natural``:
    the player's natural wins its premium payout). ``value`` weighs them by the
    objective's payoffs.
    """

    value: mpq
    results: Results

    def to_json(self) -> dict[str, str]:
        return {"value": fraction_string(self.value), **{k: fraction_string(v) for k, v in zip(RESULTS, self.results)}}


@dataclass(frozen=True)
class PlayerMatrices(Displayable):
    """The infinite-deck hit chain for one up-card in matrix form, with the solution.

    ``states`` are labels in topological order (by hard sum); ``T`` and ``B`` as
    in the module docstring; ``R_stand`` the standing values; ``V`` the optimal
    values; ``policy`` the best move per state.
    """

    states: tuple[str, ...]
    T: tuple[tuple[mpq, ...], ...]
    B: tuple[mpq, ...]
    R_stand: tuple[mpq, ...]
    V: tuple[mpq, ...]
    policy: tuple[str, ...]

    def sympy(self, name: str) -> Any:
        """``T`` as a sympy Matrix, or ``B``/``R_stand``/``V`` as column vectors, of Rationals."""
        from sympy import Matrix, Rational

        def rational(x: mpq) -> Any:
            return Rational(int(x.numerator), int(x.denominator))

        value = getattr(self, name)
        if name == "T":
            return Matrix([[rational(x) for x in row] for row in value])
        return Matrix([rational(x) for x in value])

    def to_pandas(self, exact: bool = False) -> Any:
        """A pandas DataFrame, one row per state: the columns of ``T`` (one per state), then ``B``,
        ``R_stand``, ``V`` and ``policy``; floats (the default), or exact ``mpq`` cells with ``exact=True``."""
        records = [{"state": label, **dict(zip(self.states, row)), "B": b, "R_stand": r, "V": v, "policy": move}
                   for label, row, b, r, v, move in zip(self.states, self.T, self.B, self.R_stand, self.V, self.policy)]
        return data_frame(records, ["state", *self.states, "B", "R_stand", "V", "policy"], exact, index="state")

    def to_json(self) -> dict[str, Any]:
        return {
            "states": list(self.states),
            "T": [[fraction_string(x) for x in row] for row in self.T],
            "B": [fraction_string(x) for x in self.B],
            "R_stand": [fraction_string(x) for x in self.R_stand],
            "V": [fraction_string(x) for x in self.V],
            "policy": list(self.policy),
        }


@dataclass(frozen=True)
class InfiniteSolution(Displayable):
    """The exact hit/stand solution for the infinite deck: every (total, soft, up-card) state.

    ``solution[PlayerState(16, False, 10)]``, or a plain ``(16, False, "T")``: the up-card as a
    rank or a card symbol (``"A"``, ``1`` and ``11`` are the ace).
    """

    rules: Rules
    objective: str
    positions: Mapping[PlayerState, PositionValues]

    @property
    def states(self) -> tuple[PlayerState, ...]:
        return tuple(self.positions)

    def __getitem__(self, state: PlayerState | tuple[int, bool, int | str]) -> PositionValues:
        if isinstance(state, PlayerState):
            return self.positions[state]
        total, soft, upcard = state
        return self.positions[PlayerState(total, soft, rank_key(upcard))]

    def best(self, total: int, soft: bool, upcard: int | str) -> str:
        return self[(total, soft, upcard)].best

    def to_pandas(self, exact: bool = False) -> Any:
        """A pandas DataFrame, one row per state, indexed by hand (``"hard 16"``) and up-card (``"T"``):
        the values of standing, of hitting and of the best move, and the best move; exact ``mpq``
        cells with ``exact=True``, floats by default."""
        records = [{"hand": str(s.hand), "up-card": rank_symbol(s.upcard), "total": s.total, "soft": s.soft,
                    "stand": v.stand, "hit": v.hit, "value": v.value, "best": v.best}
                   for s, v in self.positions.items()]
        return data_frame(records, ["hand", "up-card", "total", "soft", "stand", "hit", "value", "best"], exact,
                          index=["hand", "up-card"])

    @cached_property
    def game(self) -> GameValue:
        """The value from the deal: two cards each, then optimal hit/stand play."""
        p = Shoe.infinite().draw_probabilities()
        weights = payoffs(self.rules, self.objective)
        total = NO_RESULTS
        for upcard in RANKS:
            natural = infinite_natural_chance(upcard, p)
            for (first, second), dealt in infinite_hands(p):
                chance = p[upcard - 1] * dealt
                hand = hand_value((first, second))
                played = self.positions[PlayerState(hand.total, hand.soft, upcard)].results
                assert played is not None  # the infinite deck reaches every position
                if self.rules.naturals == "peek":  # the positions are conditioned on no dealer natural
                    played = tuple((ONE - natural) * x for x in played)
                results = settle_deal(self.rules.naturals, is_natural((first, second)), natural, played)
                total = add_results(total, results, chance)
        return GameValue(score(weights, total), total)

    def matrices(self, upcard: int | str) -> PlayerMatrices:
        """T, B, R_stand, V and the policy for one up-card (a rank or a card symbol).

        States are ordered by hard sum (the total with a soft ace counted as 1), which
        every card raises, so T is strictly upper triangular.
        """
        upcard = as_rank(upcard)
        graph = player_hit_graph()
        hands = {str(h): h for h in player_states()}
        order = sorted(hands, key=lambda label: (hard_sum(hands[label]), hands[label].soft))
        index = {label: i for i, label in enumerate(order)}
        p = Shoe.infinite().draw_probabilities()
        loss = payoffs(self.rules, self.objective)[3]
        T = [[ZERO] * len(order) for _ in order]
        B = [ZERO] * len(order)
        for label in order:
            for _, target, data in graph.out_edges(label, data=True):
                chance = sum((p[r - 1] for r in data["ranks"]), ZERO)
                if target == BUST:
                    B[index[label]] += loss * chance
                else:
                    T[index[label]][index[target]] += chance
        positions = [self.positions[PlayerState(hands[s].total, hands[s].soft, upcard)] for s in order]
        return PlayerMatrices(
            tuple(order),
            tuple(tuple(row) for row in T),
            tuple(B),
            tuple(v.stand for v in positions),
            tuple(v.value for v in positions),
            tuple(v.best for v in positions),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(bj_pays=True),
            "objective": self.objective,
            "states": [
                {"total": s.total, "soft": s.soft, "upcard": rank_symbol(s.upcard),
                 "stand": fraction_string(v.stand), "hit": fraction_string(v.hit), "best": v.best}
                for s, v in self.positions.items()
            ],
            "game": self.game.to_json(),
        }


def _solve_positions(
    hands: list[HandValue],
    upcard: int,
    probabilities: Sequence[mpq],
    stand: Callable[[HandValue], Results],
    weights: Results,
) -> dict[HandValue, PositionValues]:
    """Backward induction over the hit chain for one up-card, infinite deck."""
    solved: dict[HandValue, PositionValues] = {}
    for hand in sorted(hands, key=hard_sum, reverse=True):
        hit = NO_RESULTS
        for rank in RANKS:
            new = add_card(hand, rank)
            chance = probabilities[rank - 1]
            hit = add_results(hit, loss_results(ONE) if new.bust else solved[new]._raw_best, chance)
        solved[hand] = PositionValues(stand(hand), hit, weights)
    return solved


def _stand_against(dealer: Mapping[str, mpq], hand: HandValue) -> Results:
    return stand_results(hand.total, dealer)


@lru_cache(maxsize=32)
def solve_infinite(rules: Rules | GameRules, objective: str = "ev") -> InfiniteSolution:
    """The exact optimal hit/stand values of every infinite-deck state under ``rules`` (a
    :class:`GameRules` of the hit/stand game is viewed by :meth:`Rules.hit_stand`)."""
    rules = Rules.hit_stand(rules)
    if not rules.infinite:
        raise BjexactError("solve_infinite needs the infinite deck (decks='inf')")
    weights = payoffs(rules, objective)
    table = dealer_table(rules)
    p = Shoe.infinite().draw_probabilities()
    positions: dict[PlayerState, PositionValues] = {}
    for upcard in UPCARD_ORDER:
        dealer = table.rows[upcard]
        solved = _solve_positions(list(player_states()), upcard, p, partial(_stand_against, dealer), weights)
        for hand in player_states():
            positions[PlayerState(hand.total, hand.soft, upcard)] = solved[hand]
    return InfiniteSolution(rules, objective, positions)


# --- finite shoes: composition-dependent -----------------------------------


@dataclass(frozen=True)
class HandDecision(Displayable):
    """Stand and hit values of one hand (its cards) against one up-card, composition-dependent."""

    cards: tuple[int, ...]
    upcard: int
    position: PositionValues = field(repr=False)

    def __repr__(self) -> str:
        return (f"HandDecision(cards={self.cards!r}, upcard={self.upcard!r}, best={self.best!r}, "
                f"stand={self.stand!r}, hit={self.hit!r})")

    @property
    def stand(self) -> mpq | None:
        return self.position.stand

    @property
    def hit(self) -> mpq | None:
        return self.position.hit

    @property
    def best(self) -> str:
        return self.position.best

    @property
    def value(self) -> mpq | None:
        return self.position.value

    @property
    def hand(self) -> HandValue:
        return hand_value(self.cards)

    def to_json(self) -> dict[str, Any]:
        hand = self.hand
        return {
            "cards": [rank_symbol(r) for r in self.cards], "total": hand.total, "soft": hand.soft,
            "upcard": rank_symbol(self.upcard),
            "stand": None if self.stand is None else fraction_string(self.stand),
            "hit": None if self.hit is None else fraction_string(self.hit), "best": self.best,
        }


class _FiniteSolver:
    """Memoised exact recursion over (player's cards, up-card) for one starting shoe.

    ``shoe`` is the composition before the player's cards and the up-card are
    dealt. Dealer distributions are computed once per multiset of player cards:
    for every up-card at once (``one_upcard`` false: whole tables), or only for
    the up-card asked about, whose part of the dealer graph is far smaller (one
    decision at a time, as in a game).
    """

    def __init__(self, rules: Rules, shoe: FiniteShoe, objective: str, *, one_upcard: bool = False):
        self.rules = rules
        self.shoe = shoe
        self.one_upcard = one_upcard
        self.weights = payoffs(rules, objective)
        self.peek = rules.naturals == "peek"
        # Under peek the dealer's natural is kept as an outcome and left out of the results.
        self.graph = dealer_graph(rules.h17, "separate" if self.peek else rules.naturals, True)
        self._stand: dict[Any, dict[int, Results]] = {}
        self._positions: dict[tuple[Counts, int], PositionValues] = {}
        self._rows: dict[tuple[Counts, int], tuple[tuple[int, ...], int]] = {}

    def batch(self) -> None:
        """The dealer's outcomes for every hand the player can hold, against every up-card, in one
        walk of the dealer graph per up-card (:class:`~bjexact.dealer.batch.DealerOracle`).

        Shoes too small to be sure the dealer cannot run out keep the per-hand solve, which says so.
        """
        counts = self.shoe.counts
        if sum(counts) < _BATCH_MIN_CARDS:
            return
        oracle = DealerOracle(counts, self.rules.h17)
        for upcard in RANKS:
            if counts[upcard - 1]:
                hands = list(hands_up_to_21(counts, upcard))
                for cards, row in zip(hands, oracle.numerators(hands, upcard)):
                    self._rows[(cards, upcard)] = row

    def _batched_stand(self, row: tuple[tuple[int, ...], int], total: int) -> Results:
        """:meth:`stand` from a batched row (:data:`~bjexact.dealer.batch.OUTCOMES`)."""
        numerators, denominator = row
        sums: dict[str, mpq] = {}
        for outcome, n in zip(OUTCOMES, numerators):
            if outcome == BLACKJACK and self.rules.naturals == "as21":
                outcome = "21"  # under as21 a dealer natural is simply a final 21
            result = result_of(outcome, total, not self.peek)
            if result is not None and n:
                sums[result] = sums.get(result, ZERO) + mpq(n, denominator)
        return stand_sums(sums)

    def stand(self, cards: Counts, total: int, upcard: int) -> Results:
        """The results of standing with ``cards`` (worth ``total``) against ``upcard``.

        One sweep of the dealer graph per multiset of cards serves every up-card; it
        sums the dealer's outcomes straight into win, push and loss for ``total``.
        """
        batched = self._rows.get((cards, upcard))
        if batched is not None:
            return self._batched_stand(batched, total)
        key = (cards, upcard) if self.one_upcard else cards
        rows = self._stand.get(key)
        if rows is None:
            blackjack_loses = not self.peek
            results = [result_of(o, total, blackjack_loses) for o in self.graph.outcomes]
            slots = list(dict.fromkeys(r for r in results if r is not None))
            groups = [None if r is None else slots.index(r) for r in results]
            upcards = [upcard] if self.one_upcard else [
                u for u in RANKS if self.shoe.counts[u - 1] - cards[u - 1] > 0]
            vectors = self.graph.solve(ShoeDraws(self.shoe, cards), upcards, groups)
            rows = self._stand[key] = {u: stand_sums(dict(zip(slots, v))) for u, v in vectors.items()}
        return rows[upcard]

    def unseen(self, cards: Counts, upcard: int) -> list[int]:
        unseen = [s - c for s, c in zip(self.shoe.counts, cards)]
        unseen[upcard - 1] -= 1
        return unseen

    def no_natural(self, cards: Counts, upcard: int) -> mpq:
        """P(the hole card does not make a dealer natural | the player's cards and the up-card)."""
        return no_natural_chance(tuple(self.unseen(cards, upcard)), upcard)

    def position(self, cards: Counts, upcard: int) -> PositionValues:
        key = (cards, upcard)
        found = self._positions.get(key)
        if found is not None:
            return found
        hand = counts_value(cards)
        stand = self.stand(cards, hand.total, upcard)
        unseen = self.unseen(cards, upcard)
        total = sum(unseen)
        hit: Results | None = None
        if total > 1:  # one unseen card is the dealer's hole card: the player cannot draw it
            # sums of (cards of the rank) x (results after drawing it), divided by ``total`` once
            natural, win, push, loss = ZERO, ZERO, ZERO, ZERO
            for rank in RANKS:
                ways = unseen[rank - 1]
                if not ways:
                    continue
                new_cards = cards[: rank - 1] + (cards[rank - 1] + 1,) + cards[rank:]
                if add_card(hand, rank).bust:
                    loss += ways * (self.no_natural(new_cards, upcard) if self.peek else ONE)
                else:
                    after = self.position(new_cards, upcard)._raw_best
                    natural += ways * after[0]
                    win += ways * after[1]
                    push += ways * after[2]
                    loss += ways * after[3]
            hit = (natural / total, win / total, push / total, loss / total)
        scale = self.no_natural(cards, upcard) if self.peek else ONE
        found = self._positions[key] = PositionValues(stand, hit, self.weights, scale)
        return found


def _two_card_hands(shoe: FiniteShoe) -> Iterator[tuple[int, int]]:
    for first in RANKS:
        for second in RANKS[first - 1:]:
            if shoe.counts[first - 1] and shoe.counts[second - 1] - (first == second) > 0:
                yield first, second


@dataclass(frozen=True)
class FiniteSolution(Displayable):
    """Composition-dependent values of every two-card hand against every up-card.

    ``hands`` maps (first, second, up-card) with first <= second to a
    :class:`HandDecision`; its keys take card symbols and either order (``hands[("T", "6", "A")]``).
    ``exceptions`` lists, per (total, soft, up-card), the hands of that total (two or more
    cards) whose best move differs from the two-card hands' majority.
    """

    rules: Rules
    objective: str
    hands: Mapping[tuple[int, int, int], HandDecision]
    game: GameValue
    exceptions: tuple[tuple[PlayerState, str, tuple[tuple[int, ...], ...]], ...]

    def __post_init__(self) -> None:
        if not isinstance(self.hands, RankKeyed):
            object.__setattr__(self, "hands", RankKeyed(self.hands, hands=True))

    def to_pandas(self, exact: bool = False) -> Any:
        """A pandas DataFrame, one row per two-card hand and up-card, indexed by hand (``"6,T"``) and
        up-card (``"A"``): the hand's total, the values of standing, of hitting and of the best move,
        and the best move; floats (the default), or exact ``mpq`` cells with ``exact=True``."""
        records = []
        for (first, second, upcard), d in self.hands.items():
            hand = d.hand
            records.append({"hand": f"{rank_symbol(first)},{rank_symbol(second)}", "up-card": rank_symbol(upcard),
                            "total": hand.total, "soft": hand.soft, "stand": d.stand, "hit": d.hit,
                            "value": d.value, "best": d.best})
        return data_frame(records, ["hand", "up-card", "total", "soft", "stand", "hit", "value", "best"], exact,
                          index=["hand", "up-card"])

    @cached_property
    def two_card_moves(self) -> dict[PlayerState, dict[str, int]]:
        """Per (total, soft, up-card): how many two-card hands of that total play each move."""
        return two_card_votes(self.hands, self.rules.naturals)

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(bj_pays=True),
            "objective": self.objective,
            "states": [d.to_json() for d in self.hands.values()],
            "game": self.game.to_json(),
            "exceptions": [
                {"total": s.total, "soft": s.soft, "upcard": rank_symbol(s.upcard), "best": best,
                 "hands": [[rank_symbol(r) for r in cards] for cards in hands]}
                for s, best, hands in self.exceptions
            ],
        }


def solve_finite(rules: Rules | GameRules, objective: str = "ev", *, progress: bool | None = None) -> FiniteSolution:
    """Exact composition-dependent hit/stand values for a finite shoe (every two-card hand)."""
    rules = Rules.hit_stand(rules)
    shoe = rules.finite_shoe("solve_finite")
    solver = _FiniteSolver(rules, shoe, objective)
    solver.batch()
    deals = list(_two_card_hands(shoe))
    hands: dict[tuple[int, int, int], HandDecision] = {}
    total_cards = sum(shoe.counts)
    given_upcard = {u: dict(two_card_hands(shoe, u)) for u in UPCARD_ORDER if shoe.counts[u - 1]}
    results = NO_RESULTS
    with Progress(len(deals), "two-card hands", enabled=progress) as bar:
        for first, second in deals:
            cards = counts_of((first, second))
            natural = is_natural((first, second))
            for upcard in UPCARD_ORDER:
                left = shoe.counts[upcard - 1] - cards[upcard - 1]
                if left <= 0:
                    continue
                position = solver.position(cards, upcard)
                hands[(first, second, upcard)] = HandDecision((first, second), upcard, position)
                # P(the dealer shows upcard and the player gets {first, second})
                chance = mpq(shoe.counts[upcard - 1], total_cards) * given_upcard[upcard][(first, second)]
                dealt = settle_deal(rules.naturals, natural, ONE - solver.no_natural(cards, upcard),
                                    position._raw_best)
                results = add_results(results, dealt, chance)
            bar.advance()
    game = GameValue(score(solver.weights, results), results)
    return FiniteSolution(rules, objective, hands, game, _exceptions(solver, hands))


def two_card_votes(
    hands: Mapping[tuple[int, int, int], HandDecision], naturals: str
) -> dict[PlayerState, dict[str, int]]:
    """Per (total, soft, up-card): how many two-card hands of that total play each move.

    A natural is left out under ``separate`` and ``peek``, where it is not played.
    """
    votes: dict[PlayerState, dict[str, int]] = {}
    for (_, _, upcard), decision in hands.items():
        hand = decision.hand
        if two_cards_natural(hand) and naturals != "as21":
            continue
        tally = votes.setdefault(PlayerState(hand.total, hand.soft, upcard), {})
        tally[decision.best] = tally.get(decision.best, 0) + 1
    return votes


def majority_move(tally: Mapping[str, int]) -> str:
    """The move most hands play; a tie goes to standing, as between hitting and standing."""
    return max(tally, key=lambda move: (tally[move], move == "stand"))


def _exceptions(
    solver: _FiniteSolver, hands: Mapping[tuple[int, int, int], HandDecision]
) -> tuple[tuple[PlayerState, str, tuple[tuple[int, ...], ...]], ...]:
    """Hands (two cards or more) whose best move differs from the two-card majority of their total."""
    majority = {state: majority_move(tally) for state, tally in two_card_votes(hands, solver.rules.naturals).items()}
    found: dict[tuple[PlayerState, str], list[tuple[int, ...]]] = {}
    for (cards, upcard), position in solver._positions.items():
        ranks = ranks_in(cards)
        hand = hand_value(ranks)
        state = PlayerState(hand.total, hand.soft, upcard)
        if state in majority and position.best != majority[state]:
            if solver.rules.game.is_natural(ranks):  # paid at once, or a push: never played
                continue
            found.setdefault((state, position.best), []).append(ranks)
    return tuple(
        (state, best, tuple(sorted(cards, key=lambda c: (len(c), c))))
        for (state, best), cards in sorted(found.items(), key=lambda item: item[0][0])
    )


def hand_decision(
    rules: Rules | GameRules,
    cards: tuple[int, ...] | list[int],
    upcard: int,
    unseen: Counts | None = None,
    objective: str = "ev",
) -> HandDecision:
    """Exact stand and hit values for the player's ``cards`` against ``upcard``.

    Cards are ranks 1..10 (or 11 for an ace) or symbols such as ``"A"``, ``"K"``.
    ``unseen``: the ten counts A..T of the cards the player has not seen (the
    cards left in the shoe plus the dealer's hole card); by default the full shoe
    of ``rules`` less ``cards`` and ``upcard``. For the infinite deck the values
    depend only on the hand's total and softness. Under ``peek`` the values are
    conditioned on the dealer having no natural. A :class:`GameRules` of the hit/stand game
    (no doubling, no splitting, no surrender) is viewed by :meth:`Rules.hit_stand`.

    Examples
    --------
    >>> hand_decision(Rules(decks="inf"), (10, 6), 10).best
    'hit'
    """
    rules = Rules.hit_stand(rules)
    cards, upcard = player_hand(cards, upcard)
    if rules.infinite and unseen is None:
        hand = hand_value(cards)
        position = solve_infinite(rules, objective)[PlayerState(hand.total, hand.soft, upcard)]
        return HandDecision(cards, upcard, position)
    if unseen is None:
        shoe = rules.finite_shoe()  # the starting shoe includes the player's cards and the up-card
        check_shoe_holds(shoe.counts, cards + (upcard,))
    else:
        unseen_shoe = Shoe.of_counts(unseen)
        shoe = FiniteShoe(add_counts(unseen_shoe.counts, counts_of(cards + (upcard,))))
    return HandDecision(cards, upcard, _finite_solver(rules, shoe, objective).position(counts_of(cards), upcard))


def solve_positions(rules: Rules, shoe: FiniteShoe) -> dict[tuple[Counts, int], PositionValues]:
    """Stand and hit values of every hand the player can hold (two or more cards, a hard total of 21
    or less) against every up-card of ``shoe`` (the counts before the player's cards and the up-card
    are dealt), in one solve with the dealer's outcomes batched; keyed by (hand counts, up-card)."""
    solver = _FiniteSolver(rules, shoe, "ev")
    solver.batch()
    return {(cards, upcard): solver.position(cards, upcard)
            for upcard in RANKS if shoe.counts[upcard - 1] for cards in hands_up_to_21(shoe.counts, upcard)}


@lru_cache(maxsize=8)
def _finite_solver(rules: Rules, shoe: FiniteShoe, objective: str) -> _FiniteSolver:
    """Solvers are kept: later decisions of a hand (same cards unseen in all) are then instant."""
    return _FiniteSolver(rules, shoe, objective, one_upcard=True)


def clear_hand_decision_cache() -> None:
    """Forget the finite-shoe solvers :func:`hand_decision` keeps, so that the next decision is solved
    from scratch (as for a new shoe); timings use it. Results are the same either way."""
    _finite_solver.cache_clear()


@without_cycle_collection
def solve(rules: Rules | GameRules, objective: str = "ev", *,
          progress: bool | None = None) -> InfiniteSolution | FiniteSolution:
    """:func:`solve_infinite` for the infinite deck, :func:`solve_finite` otherwise. ``rules``: the
    hit/stand game's :class:`Rules`, or a :class:`GameRules` with no doubling, no splitting and no
    surrender (:meth:`Rules.hit_stand`); ``objective``: ``ev`` or ``win`` (the module docstring).

    Examples
    --------
    >>> hit_stand = GameRules(decks="inf", double="none", split_hands=1)
    >>> solve(hit_stand).game.value == solve(Rules(decks="inf", naturals="peek")).game.value
    True
    """
    rules = Rules.hit_stand(rules)
    if objective not in OBJECTIVES:
        raise BjexactError(f"unknown objective {objective!r} (use ev or win)")
    if rules.infinite:
        return solve_infinite(rules, objective)
    return solve_finite(rules, objective, progress=progress)
