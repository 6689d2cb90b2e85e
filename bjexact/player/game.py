"""The casino game: stand, hit, double, split, surrender, insurance; the exact house edge.

Model (the rules: :class:`~bjexact.core.rules.GameRules`): the player is dealt two
cards, the dealer an up-card and a hole card. Every value here is per unit initial
bet and exact. The entry points are here; the game model is owned by

* :mod:`bjexact.player.seen`: the cards seen and the chances they leave (draws, the
  hole card, the dealer's outcomes);
* :mod:`bjexact.player.values`: the values of a hand's moves under optimal
  composition-dependent play (peek, ENHC, OBO; the split strategies CDZ-, CDP1, CDP),
  in fractions (:class:`~bjexact.player.values.FractionSolver`) or from
  :mod:`bjexact.player.engine` (:class:`~bjexact.player.values.EngineSolver`);
* :mod:`bjexact.player.distribution`: the distribution of the round's net result;
* :mod:`bjexact.player.solution`: the solution, its chart and its play.

Results
    :func:`solve_game` gives every two-card hand's moves, the round's value by
    up-card and overall, and the distribution of its net result (on finite shoes
    with splits, with ``split_lines=True``, exact within :data:`SPLIT_WORK_LIMIT`);
    :func:`hand_moves` one hand's moves (with ``split_strategy="optimal"`` a split valued under
    perfect post-split play, :mod:`bjexact.player.optimal_split`); :func:`split_values` a pair's split
    under each post-split strategy; :meth:`GameSolution.chart` the basic strategy
    chart; :func:`solve_with` the round under any solver's play (a chart's:
    :mod:`bjexact.player.policy`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Literal

from ..collector import without_cycle_collection
from ..core.cards import ACE, TEN, UPCARD_ORDER, as_rank, check_shoe_holds, counts_of
from ..core.deal import two_card_hands
from ..core.hand import hand_value, player_hand
from ..core.numbers import mpq
from ..core.rules import GameRules
from ..errors import BjexactError
from ..progress import Progress
from .distribution import Dist, NetResults, mix
from .optimal_split import OptimalSplit, optimal_split
from .seen import NOTHING_GONE, SeenCards
from .solution import ChartCell, GameSolution, Strategy, chart_code
from .values import MOVES, FractionSolver, MoveValues, engine_covers, solver_for

__all__ = ["GameRules", "MOVES", "SPLIT_WORK_LIMIT", "Strategy", "GameSolution", "MoveValues", "ChartCell",
           "solve_game", "solve_with", "engine_covers", "hand_moves", "later_moves", "insurance_value", "even_money",
           "split_values", "hand_moves_and_split_values", "FIXED_SPLIT_STRATEGIES", "with_optimal_splits",
           "chart_code", "UPCARD_ORDER"]

_ZERO = mpq(0)
_ONE = mpq(1)

# the classical post-split strategies perfect post-split play is compared with (GameRules.split_strategy)
FIXED_SPLIT_STRATEGIES: tuple[Literal["cdz", "cdp1", "cdp"], ...] = ("cdz", "cdp1", "cdp")

# The most pairs (combined lines, one hand's line) the split hands of one rule set may be combined
# over before the distribution of the net result is given up (finite shoes): about half a minute.
SPLIT_WORK_LIMIT = 30_000_000


def solve_game(rules: GameRules, *, with_distribution: bool = True, split_lines: bool = False,
               progress: bool | None = None, engine: bool = True, partial: bool = False) -> GameSolution:
    """Solve the round exactly: every two-card hand against every up-card, and the house edge.

    ``with_distribution``: also the exact distribution of the round's net result. On a
    finite shoe where pairs are split that needs every line of the split hands followed
    (they share the cards and the dealer's outcome): with ``split_lines`` only (one deck
    split once about 12 s, six decks about 30 s, against about 1 s for the value), and
    given up (``None``) beyond :data:`SPLIT_WORK_LIMIT` combinations, which resplits on a
    deck or more need (see :class:`NetResults`); ``distribution_missing`` says why it is
    ``None``; with ``partial``, the distribution of every other deal is then still computed
    (:attr:`GameSolution.partial_distribution`; seconds more). ``progress``: a progress bar on
    standard error (default: when it is a terminal).
    ``engine=False``: the values in fraction arithmetic throughout, without
    :mod:`bjexact.player.engine` (many times slower; the same results, kept as an independent
    check of the engine). Rules the engine does not cover (:func:`engine_covers`: doubling
    after hitting, plain naturals) take the fraction arithmetic whatever ``engine`` says.
    ``split_strategy="optimal"``: every pair's split under perfect post-split play
    (:func:`with_optimal_splits`; no distribution); exact; split once, about a second a pair on one deck (two
    for the small pairs), about a minute for every pair; resplits are slow on real shoes.

    Examples
    --------
    >>> solution = solve_game(GameRules(decks="inf", split_hands=2))
    >>> f"{float(solution.ev) * 100:.6f}"
    '-0.570388'
    >>> sum(solution.distribution.values()) == 1
    True
    >>> solution.chart()["hard"]["16"][10].code, solution.chart()["pairs"]["8"][10].code
    ('H', 'P')
    """
    if rules.split_strategy == "optimal":
        fixed = solve_game(replace(rules, split_strategy="cdz"), with_distribution=False, progress=progress,
                           engine=engine)
        seen = SeenCards(rules)
        return with_optimal_splits(fixed, lambda pair, upcard: optimal_split(rules, pair, upcard, seen,
                                                                             progress=False),
                                   progress=progress)
    solver = solver_for(rules, engine)
    return solve_with(solver, with_distribution=with_distribution, split_lines=split_lines, partial=partial,
                      progress=progress)


def with_optimal_splits(solution: GameSolution, split_of: Callable[[int, int], OptimalSplit], *,
                        progress: bool | None = None) -> GameSolution:
    """``solution`` (solved under CDZ-) with every pair's split valued under perfect post-split play:
    ``split_of(pair, upcard)`` (:func:`~bjexact.player.optimal_split.optimal_split`); each pair's
    best move, the round's value by up-card and overall follow. The net result's distribution is not
    computed (``distribution_missing`` says so). ``progress``: a bar over the pairs.
    """
    pairs = sorted(key for key, moves in solution.hands.items() if key[0] == key[1] and "split" in moves.w)
    hands = dict(solution.hands)
    by_upcard = dict(solution.by_upcard)
    with Progress(len(pairs), "pairs under perfect post-split play", enabled=progress) as bar:
        for key in pairs:
            pair, _, upcard = key
            fixed = hands[key]
            best = replace(fixed, w={**fixed.w, "split": split_of(pair, upcard).w})
            hands[key] = best
            by_upcard[upcard] += solution.deal_chance[key] * (best.round_value - fixed.round_value)
            bar.advance()
    ev = sum((solution.upcard_chance[u] * v for u, v in by_upcard.items()), _ZERO)
    return replace(solution, rules=replace(solution.rules, split_strategy="optimal"), hands=hands,
                   by_upcard=by_upcard, ev=ev, distribution=None, partial_distribution=None,
                   distribution_missing="not under perfect post-split play (only its value is)")


@without_cycle_collection
def solve_with(solver: FractionSolver, *, with_distribution: bool, progress: bool | None,
               split_lines: bool = False, partial: bool = False) -> GameSolution:
    """The round under the play ``solver`` chooses (its :meth:`FractionSolver.moves` and the decisions
    after the first): the optimal play, or a fixed policy's (:mod:`bjexact.player.policy`)."""
    rules = solver.rules
    shoe = solver.cards.shoe
    up_p = shoe.draw_probabilities()
    upcards = [u for u in UPCARD_ORDER if up_p[u - 1]]
    results = NetResults(solver, split_lines, SPLIT_WORK_LIMIT)
    hands: dict[tuple[int, int, int], MoveValues] = {}
    deal_chance: dict[tuple[int, int, int], mpq] = {}
    by_upcard: dict[int, mpq] = {}
    # the net result of every deal whose lines are followed, and the chance of the deals whose are not
    # (pairs split beyond the work limit): the distribution when that chance is 0, else its known part
    followed: Dist = {}
    unfollowed = _ZERO
    with Progress(len(upcards), "up-cards", enabled=progress) as bar:
        for upcard in upcards:
            solver.prefetch(upcard)
            value = _ZERO
            for cards, chance in two_card_hands(shoe, upcard):
                dealt: Dist | None
                if rules.is_natural(cards):  # a natural: paid at once, or a push
                    p_nat = solver.cards.natural_chance(counts_of(cards), upcard)
                    value += chance * (1 - p_nat) * rules.bj_pays
                    dealt = {rules.bj_pays: 1 - p_nat, _ZERO: p_nat}
                else:
                    moves = solver.moves(cards, upcard)
                    hands[(cards[0], cards[1], upcard)] = moves
                    deal_chance[(cards[0], cards[1], upcard)] = chance
                    value += chance * moves.round_value
                    # a deal's distribution, until one is out of reach (then all of them, with ``partial``)
                    dealt = results.deal(moves) if with_distribution and (partial or not unfollowed) else None
                if with_distribution:
                    if dealt is None:
                        unfollowed += up_p[upcard - 1] * chance
                    else:
                        mix(followed, dealt, up_p[upcard - 1] * chance)
            by_upcard[upcard] = value
            bar.advance()
    up_chance = {u: up_p[u - 1] for u in upcards}
    ev = sum((up_chance[u] * v for u, v in by_upcard.items()), _ZERO)
    known = {r: p for r, p in sorted(followed.items()) if p}
    distribution = known if with_distribution and not unfollowed else None
    missing = "" if distribution is not None or not with_distribution else results.missing
    return GameSolution(rules, hands, deal_chance, by_upcard, up_chance, ev, distribution, missing,
                        known if with_distribution and unfollowed and partial else None)


def hand_moves(rules: GameRules, cards: Sequence[int] | Sequence[str] | Sequence[int | str],
               upcard: int | str, *, split: OptimalSplit | None = None, seen: SeenCards | None = None) -> MoveValues:
    """The values of every allowed move of the player's ``cards`` against ``upcard``.

    Under ``split_strategy="optimal"`` the split is valued under perfect post-split play
    (:func:`~bjexact.player.optimal_split.optimal_split`, or ``split`` where already computed).
    ``seen``: the :class:`~bjexact.player.seen.SeenCards` of ``rules``'s shoe to share with other
    solves (its dealer's rows are reused).

    Two cards: stand, hit, double, split, surrender as the rules allow; three or
    more: stand and hit, and double with ``double_after_hit``. Values per unit initial bet, composition-dependent (the
    cards and the up-card have left the shoe); see :meth:`MoveValues.value` for
    what they are conditioned on.

    Examples
    --------
    >>> moves = hand_moves(GameRules(decks=6, split_hands=2, surrender="late"), ["T", "6"], "T")
    >>> {move: f"{float(v) * 100:.6f}" for move, v in moves.values.items()}
    {'stand': '-54.095444', 'hit': '-53.467556', 'double': '-106.935112', 'surrender': '-50.000000'}
    >>> moves.best
    'surrender'
    """
    ranks, up = _unpaid_hand(rules, cards, upcard)
    if rules.split_strategy == "optimal":
        return _with_optimal_split(rules, ranks, up, split, seen or SeenCards(rules))[1]
    solver = FractionSolver(rules, seen)
    if not solver.cards.infinite:
        check_shoe_holds(solver.cards.counts, ranks + (up,))
    if rules.is_charlie(len(ranks), hand_value(ranks)):
        raise BjexactError(f"the hand is a {rules.charlie}-card Charlie: it has won, with nothing to decide")
    solver.prefetch_hand(ranks, up)
    if len(ranks) == 2:
        return solver.moves((ranks[0], ranks[1]), up)
    return later_moves(solver, ranks, up)


def hand_moves_and_split_values(rules: GameRules, cards: Sequence[int] | Sequence[str] | Sequence[int | str],
                                upcard: int | str, *, split: OptimalSplit | None = None
                                ) -> tuple[MoveValues, dict[str, mpq] | None]:
    """:func:`hand_moves` and, under ``split_strategy="optimal"`` where the hand may split,
    :func:`split_values` of its pair (else ``None``), computed together: CDZ-'s moves once (they are
    the other moves' values and CDZ-'s split), and one :class:`~bjexact.player.seen.SeenCards` (its
    dealer's rows) for every strategy. ``split``: as :func:`hand_moves` takes it.

    >>> moves, values = hand_moves_and_split_values(
    ...     GameRules(shoe=(1, 0, 0, 0, 0, 0, 0, 0, 0, 9), split_hands=2, split_strategy="optimal"), "TT", "T")
    >>> moves.best, {strategy: str(value) for strategy, value in values.items()}
    ('split', {'optimal': '2/3', 'cdz': '1/3', 'cdp1': '1/3', 'cdp': '1/3'})
    """
    if rules.split_strategy != "optimal":
        return hand_moves(rules, cards, upcard, split=split), None
    ranks, up = _unpaid_hand(rules, cards, upcard)
    seen = SeenCards(rules)
    cdz, moves = _with_optimal_split(rules, ranks, up, split, seen)
    if "split" not in moves.w:
        return moves, None
    return moves, _by_strategy(rules, moves, cdz, seen)


def _unpaid_hand(rules: GameRules, cards: Sequence[int] | Sequence[str] | Sequence[int | str],
                 upcard: int | str) -> tuple[tuple[int, ...], int]:
    """The hand and the up-card as ranks (:func:`~bjexact.core.hand.player_hand`), refused where the
    hand is a natural (paid at once)."""
    ranks, up = player_hand(cards, upcard)
    if rules.is_natural(ranks):
        raise BjexactError("the hand is a natural: it is paid at once, with nothing to decide")
    return ranks, up


def _with_optimal_split(rules: GameRules, ranks: tuple[int, ...], upcard: int, split: OptimalSplit | None,
                        seen: SeenCards) -> tuple[MoveValues, MoveValues]:
    """(CDZ-'s moves, the moves under perfect post-split play) of :func:`hand_moves`: the CDZ- values
    of every move, and splitting valued by :func:`~bjexact.player.optimal_split.optimal_split` (the
    other moves do not split), both from the dealer's rows of ``seen``."""
    moves = hand_moves(replace(rules, split_strategy="cdz"), ranks, upcard, seen=seen)
    if "split" not in moves.w:
        return moves, moves
    if split is None:
        split = optimal_split(rules, ranks[0], upcard, seen)
    elif (split.pair, split.upcard) != (ranks[0], upcard):
        raise BjexactError(f"the split given is of {split.pair},{split.pair} against {split.upcard}, not of this hand")
    return moves, _with_split_w(moves, split.w)


def _with_split_w(moves: MoveValues, w: mpq) -> MoveValues:
    """``moves`` with the split's W ``w`` (the other moves', the dealer's natural, unchanged)."""
    return replace(moves, w={**moves.w, "split": w})


def split_values(rules: GameRules, pair: int | str, upcard: int | str,
                 optimal: MoveValues | None = None) -> dict[str, mpq]:
    """The value of splitting ``pair`` against ``upcard`` under perfect post-split play (``"optimal"``)
    and under each of :data:`FIXED_SPLIT_STRATEGIES`, conditioned as :meth:`MoveValues.value`
    conditions every move (under peek with a ten or ace up, on no dealer natural).
    ``rules.split_strategy`` is not read; ``optimal``: the pair's moves under perfect post-split play
    where already computed (:func:`hand_moves` with ``split_strategy="optimal"``;
    :func:`hand_moves_and_split_values` gives both at once).

    Examples
    --------
    >>> values = split_values(GameRules(shoe=(1, 0, 0, 0, 0, 0, 0, 0, 0, 9), split_hands=2), "T", "T")
    >>> {strategy: str(value) for strategy, value in values.items()}
    {'optimal': '2/3', 'cdz': '1/3', 'cdp1': '1/3', 'cdp': '1/3'}
    """
    perfect = replace(rules, split_strategy="optimal")
    ranks, up = _unpaid_hand(perfect, (pair, pair), upcard)
    seen = SeenCards(rules)
    if optimal is None:
        cdz, optimal = _with_optimal_split(perfect, ranks, up, None, seen)
    else:
        cdz = hand_moves(replace(rules, split_strategy="cdz"), ranks, up, seen=seen)
    return _by_strategy(rules, optimal, cdz, seen)


def _by_strategy(rules: GameRules, optimal: MoveValues, cdz: MoveValues, seen: SeenCards) -> dict[str, mpq]:
    """:func:`split_values` of the pair of ``optimal`` (its moves under perfect post-split play) and
    ``cdz`` (under CDZ-): the other fixed strategies' splits valued from the dealer's rows of ``seen``.
    Split once, CDP is CDP1 (each split hand takes the one other hand's pair card as gone): valued once."""
    pair, upcard = optimal.cards[0], optimal.upcard
    w = {"cdz": cdz.w["split"], "cdp1": _split_w(replace(rules, split_strategy="cdp1"), pair, upcard, seen)}
    w["cdp"] = w["cdp1"] if rules.split_limit(pair) == 2 else _split_w(replace(rules, split_strategy="cdp"), pair,
                                                                        upcard, seen)
    return {"optimal": optimal.values["split"]} | {strategy: _with_split_w(cdz, w[strategy]).value("split")
                                                   for strategy in FIXED_SPLIT_STRATEGIES}


def _split_w(rules: GameRules, pair: int, upcard: int, seen: SeenCards) -> mpq:
    """W of splitting ``pair`` against ``upcard`` under ``rules``'s fixed post-split strategy, in
    fraction arithmetic (:meth:`FractionSolver.split`, the dealer's rows from ``seen`` in batches)."""
    solver = FractionSolver(rules, seen)
    solver.prefetch_splits([pair], upcard)
    return solver.split(pair, upcard)


def later_moves(solver: FractionSolver, cards: tuple[int, ...], upcard: int) -> MoveValues:
    """The values, under ``solver``'s rules and shoe (its memos reused), of every move of an unsplit
    hand of three or more ``cards`` (ranks) against ``upcard``: stand, hit while a card can be drawn,
    and double where ``double_after_hit`` allows it (:meth:`GameRules.may_double`); a Charlie's
    hitting values included. The hand is not a Charlie itself (it has won: nothing to decide). The
    values are conditioned as :meth:`MoveValues.value` says (under peek on no dealer natural).

    >>> solver = FractionSolver(GameRules(decks="inf", double_after_hit=True))
    >>> later_moves(solver, (2, 3, 6), 6).best
    'double'
    """
    hand = counts_of(cards)
    stand, hit = solver.continuation(hand, upcard)
    moves = {"stand": stand} | ({"hit": hit} if hit is not None else {})
    double = solver.later_double(hand, upcard, NOTHING_GONE) if solver.may_double(hand) else None
    if double is not None:
        moves["double"] = double
    rules = solver.rules
    return MoveValues(tuple(cards), upcard, moves, solver.cards.natural_chance(hand, upcard), rules.excludes_natural,
                      False, rules.hole_card == "peek")


def even_money(rules: GameRules) -> dict[str, mpq]:
    """A player natural against an ace: ``{"even money": 1, "no insurance": (1 - P(ten)) * bj_pays}``,
    P(ten) that of the hole card given the player's A, T and the ace up."""
    p_ten = SeenCards(rules).natural_chance(counts_of([ACE, TEN]), ACE)
    return {"even money": _ONE, "no insurance": (1 - p_ten) * rules.bj_pays}


def insurance_value(rules: GameRules, cards: Sequence[int] | Sequence[str] | Sequence[int | str],
                    upcard: int | str = ACE) -> mpq:
    """The value of insuring (half the stake, paid 2:1 if the hole card is ten-valued),
    per unit initial bet, given the player's ``cards`` and an ace up: (3 P(ten) - 1) / 2.

    >>> insurance_value(GameRules(decks=1), ["T", "9"])   # 15 tens among 49 unseen cards
    mpq(-2,49)

    With a player natural, even money is worth 1 against (1 - P(ten)) * bj_pays unpaid.
    """
    ranks = tuple(as_rank(c) for c in cards)
    if as_rank(upcard) != ACE:
        raise BjexactError("insurance is only offered with an ace up")
    p_ten = SeenCards(rules).natural_chance(counts_of(ranks), ACE)
    return (3 * p_ten - 1) / 2
