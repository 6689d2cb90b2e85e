"""Perfect play after splitting once, on a finite shoe, valued in batches: the same exact W as
:mod:`bjexact.player.optimal_split`'s recursive solver, many times faster.

The structure of a split to two hands
    The two hands meet the same dealer, so a finished round is worth a sum over the hands given
    the cards gone ``R`` (the player's cards besides the pair; the up-card and the pair are gone
    throughout): for each standing hand, its stake times G(R, total), and for each busted hand
    minus its stake times P(no dealer natural | R) where a natural costs one bet (1 otherwise);
    G(R, t) = sum over the dealer's outcomes of the payoff of standing on t (a total below 17
    as 16) times their chance given R (:func:`~bjexact.player.engine.stand_weights`). So what
    the first hand leaves the second is one of fourteen *kinds*: it stands on 16 (or less) .. 21
    or busts, with a stake of 1 or 2; the second hand is a single hand whose final payoff adds
    the kind's term at the final R. The first hand is a single hand whose final value is the
    value of dealing the second hand from its R and kind.

Positions, level by level
    A position of the second hand is (R, its state, the kind), of the first hand R alone (its
    cards are R). Every position with ``L`` cards gone (besides the up-card and the pair) has
    the same n = N0 - L cards unseen, the hole card among them, and its children (a drawn card)
    have one card more: the positions are enumerated forwards level by level from the split
    (every move the rules allow, as the recursive solver explores them, which also finds the
    refusals of tiny shoes first), then valued backwards. A set R is a mixed-radix integer (the
    digit of rank r its count), so a child's key is the parent's plus the radix of the card;
    children are found by binary search (``numpy.searchsorted``) in the sorted keys of the next
    level. Only the positions some play reaches are valued (a second hand's set and state come
    with one or two of the fourteen kinds, seldom more). A hand's state is its total, whether it
    is soft, and whether it holds two cards (what doubling and hitting split aces ask); a split
    once has no resplit.

Exact values, decided in floats, certified
    Each value of a position with n unseen is an integer X over D(n) = n!/m! (m below every
    n the dealer meets, less its longest path K, so D(n) is a multiple of the dealer's
    denominator n (n - 1) ... (n - K + 1)), as in :mod:`bjexact.player.engine`: a draw of
    rank r has chance c_r / n and D(n) = n D(n - 1), so a move's X is sum_r c_r X(child), no
    division. The X are kept modulo primes below 2^26 whose product exceeds 8 D(N0) (|W| <= 4,
    two doubled stakes). The dealer's exact rows come modulo the few primes their numerators need
    (:meth:`~bjexact.dealer.batch.DealerOracle.walked_once`, in batches that run across the levels),
    only at the sets where a hand stands (where every hand has busted, the dealer's cards do not
    matter: often more than half the sets); their mixed-radix (Garner) digits give both their floats
    and their residues modulo the X's primes. The root's X is rebuilt by the Chinese remainder
    theorem. The moves are chosen in float64 first; the floats' rounding error is below 1e-11 in all
    (about 100 roundings of 2^-53 of values at most 4 per level, fewer than 100 levels), so wherever
    two moves' floats are within :data:`TIE` (about 1e-9) of each other, both moves' exact values
    are rebuilt from their residues (CRT) and compared exactly; exact ties go to the earlier move of
    stand, hit, double (:func:`~bjexact.core.choice.best_move`). Only the residues of the move made
    are computed (of every move where the floats leave it in doubt). No float decides a result.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import factorial, prod
from typing import Any

from ..core.cards import RANKS, Counts
from ..core.hand import HandValue, add_card, hand_value, natural_partner
from ..core.numbers import mpq
from ..core.rules import GameRules
from ..dealer.batch import DealerOracle, Residues, from_residues, moduli_above
from ..errors import BjexactError
from ..progress import Progress
from .engine import stand_weights

__all__ = ["split_once_w", "split_once_play", "SplitPlay", "Played", "TIE"]

TIE = 2.0 ** -30  # floats of two moves closer than this are compared exactly

_STAKE_KINDS = 7  # stand on 16..21 (slots 0..5), bust (slot 6)
_BUST_SLOT = 6
_KINDS = 2 * _STAKE_KINDS  # with a stake of 1 (kinds 0..6) or 2 (kinds 7..13)
_STANDING = sum(1 << k for k in range(_KINDS) if k % _STAKE_KINDS != _BUST_SLOT)  # kinds a hand stands on
_STATES = 88  # hand states: (total * 2 + soft) * 2 + two cards, total <= 21
_CHUNK = 16_384  # positions valued at once: their arrays (positions x ranks x primes) stay a few MB, reused
_DEALER_CHUNK = 10_000  # sets of cards gone per walk of the dealer's residues
_MOVES = ("stand", "hit", "double")  # a split hand's moves, in the order of the arrays of moves


def split_once_w(rules: GameRules, oracle: DealerOracle, pair: int, upcard: int, shoe: Counts, *,
                 limit: int, too_many: str, progress: bool | None = None) -> mpq:
    """W of splitting ``pair`` against ``upcard`` into two hands (no more), both played perfectly
    (the conventions of :mod:`bjexact.player.optimal_split`), on the finite ``shoe`` (its counts
    before anything is dealt); ``oracle`` its dealer. More than ``limit`` positions: refused with
    the message ``too_many``. ``progress``: a bar on standard error (default: when it is a
    terminal), by the levels valued."""
    valuation = _valuation(rules, oracle, pair, upcard, shoe, limit, too_many, keep=False)
    with Progress(len(valuation.levels) - 1, "split hands, by cards drawn", enabled=progress) as bar:
        return valuation.root(bar.advance)


def split_once_play(rules: GameRules, oracle: DealerOracle, pair: int, upcard: int, shoe: Counts, *,
                    limit: int, too_many: str, progress: bool | None = None) -> SplitPlay:
    """:func:`split_once_w` with the play kept: for every position, which moves it allows, their exact
    W and the best of them (:class:`SplitPlay`; the valuation's arrays of every level are kept, and
    every allowed move's residues computed, not only the best's)."""
    valuation = _valuation(rules, oracle, pair, upcard, shoe, limit, too_many, keep=True)
    with Progress(len(valuation.levels) - 1, "split hands, by cards drawn", enabled=progress) as bar:
        w = valuation.root(bar.advance)
    assert valuation.kept is not None
    return SplitPlay(w, valuation.space, valuation.d, valuation.primes, valuation.kept)


def _valuation(rules: GameRules, oracle: DealerOracle, pair: int, upcard: int, shoe: Counts, limit: int,
               too_many: str, *, keep: bool) -> _Valuation:
    """The positions of the split, enumerated, to be valued (:meth:`_Valuation.root`), keeping the play
    or not (see :class:`_Valuation`)."""
    table = _HandTable.of(rules, pair)
    space = _Space.of(shoe, pair, upcard)
    return _Valuation(rules, oracle, space, table, _enumerate(space, table, limit, too_many), keep)


@dataclass(frozen=True)
class Played:
    """A position of the split hands as perfect play sees it: ``best`` its move, ``allowed`` every move
    it may make (in the order of :data:`~bjexact.core.choice.MOVES`), ``value(move)`` a move's exact W
    (followed by perfect play)."""

    best: str
    allowed: tuple[str, ...]
    value: Callable[[str], mpq]


class SplitPlay:
    """Perfect play after splitting once, position by position (:func:`split_once_play`): ``w`` the
    split's W, and the moves of every position some play reaches, by the cards drawn besides the pair
    (the first hand's cards, or both hands'), the hand in play and, for the second hand, how the first
    ended."""

    def __init__(self, w: mpq, space: _Space, d: dict[int, int], primes: list[int],
                 kept: dict[int, tuple[_Kept, _Kept]]):
        self.w, self._space, self._d, self._primes, self._kept = w, space, d, primes, kept

    def first_hand(self, drawn: Counts) -> Played:
        """The first hand's position with ``drawn`` (its cards besides its pair card)."""
        return self._played(self._kept[sum(drawn)][0], self._code(drawn), sum(drawn))

    def second_hand(self, drawn: Counts, value: HandValue, cards: int, first_total: int | None,
                    first_stake: int) -> Played:
        """The second hand's position: ``drawn`` both hands' cards besides the pair, the hand's ``value``
        and number of ``cards``, the first hand's total (``None``: bust) and stake."""
        slot = _BUST_SLOT if first_total is None else max(first_total, 16) - 16
        kind = slot + _STAKE_KINDS * (first_stake - 1)
        key = (self._code(drawn) * _STATES + _code(value, cards == 2)) * _KINDS + kind
        return self._played(self._kept[sum(drawn)][1], key, sum(drawn))

    def _code(self, drawn: Counts) -> int:
        return sum(count * radix for count, radix in zip(drawn, self._space.radix))

    def _played(self, kept: _Kept, key: int, level: int) -> Played:
        import numpy as np

        at = int(np.searchsorted(kept.keys, key))
        if at == len(kept.keys) or kept.keys[at] != key:
            raise AssertionError("a position perfect play reaches was not enumerated")
        allowed = tuple(move for m, move in enumerate(_MOVES) if kept.allowed[m, at])
        primes, d = self._primes, self._d[self._space.total - level]

        def value(move: str) -> mpq:
            x = from_residues(kept.moves[_MOVES.index(move), at][:, None], primes)[0]
            return mpq(_signed(x, primes), d)

        return Played(_MOVES[int(kept.best[at])], allowed, value)


# --- the split hands' states ------------------------------------------------------------------------

@dataclass(frozen=True)
class _HandTable:
    """The states of a split hand (:data:`_STATES` codes) and what the rules let each do.

    ``after[s, r - 1]``: the state after drawing rank r (-1: bust); ``slot[s]``: its stand slot
    (max(total, 16) - 16); ``hit[s]``, ``double[s]``: whether it may hit, double (while a card can
    be drawn); ``second[r - 1]``: the state of the pair card and a second card r. By state and rank
    (states x ranks): ``stays``, ``busts``: a hit is allowed and the card leaves the hand standing,
    busts it; ``doubles``: a double is allowed; ``landed``: the stand slot after the card
    (:data:`_BUST_SLOT` for a bust)."""

    after: Any
    slot: Any
    hit: Any
    double: Any
    second: tuple[int, ...]
    stays: Any
    busts: Any
    doubles: Any
    landed: Any

    @staticmethod
    def of(rules: GameRules, pair: int) -> _HandTable:
        import numpy as np

        after = np.full((_STATES, 10), -1, dtype=np.int64)
        slot = np.zeros(_STATES, dtype=np.int64)
        hit = np.zeros(_STATES, dtype=bool)
        double = np.zeros(_STATES, dtype=bool)
        may_hit_split = rules.may_hit_split(pair)
        for total in range(2, 22):
            for soft in (False, True):
                for two in (False, True):
                    s = _code(HandValue(total, soft), two)
                    value = HandValue(total, soft)
                    slot[s] = max(total, 16) - 16
                    hit[s] = not two or may_hit_split
                    double[s] = rules.may_double(value, split_pair=pair, cards=2 if two else 3)
                    for rank in RANKS:
                        drawn = add_card(value, rank)
                        after[s, rank - 1] = -1 if drawn.bust else _code(drawn, False)
        first = hand_value([pair])
        second = tuple(_code(add_card(first, rank), True) for rank in RANKS)
        landed = np.where(after >= 0, slot[np.maximum(after, 0)], _BUST_SLOT)
        return _HandTable(after, slot, hit, double, second, hit[:, None] & (after >= 0), hit[:, None] & (after < 0),
                          np.repeat(double[:, None], 10, axis=1), landed)


def _code(value: HandValue, two: bool) -> int:
    return (value.total * 2 + value.soft) * 2 + two


# --- the sets of cards gone -------------------------------------------------------------------------

@dataclass(frozen=True)
class _Space:
    """The cards the player may draw after the split: ``left`` (the shoe less the up-card and the
    pair), ``total`` of them (N0, the hole card among them); a set of cards drawn R as the integer
    sum_r R_r radix[r] (mixed radix, digit r below left[r] + 1). ``low``, ``high``: where small
    enough, the unseen counts of ranks A..5 by the code's remainder modulo radix[5], and of ranks
    6..T by its quotient (two look-ups instead of ten divisions)."""

    shoe: Counts
    pair: int
    upcard: int
    left: tuple[int, ...]
    total: int
    radix: tuple[int, ...]
    low: Any
    high: Any

    @staticmethod
    def of(shoe: Counts, pair: int, upcard: int) -> _Space:
        import numpy as np

        left = list(shoe)
        left[pair - 1] -= 2
        left[upcard - 1] -= 1
        radix = [1]
        for count in left[:-1]:
            radix.append(radix[-1] * (count + 1))
        codes = radix[-1] * (left[-1] + 1)
        if codes * _STATES * _KINDS >= 1 << 62:
            raise BjexactError("the shoe is too large for perfect post-split play")
        low = high = None
        if codes // radix[_HALF] + radix[_HALF] <= _TABLE_ROWS:
            low = _unseen(np.arange(radix[_HALF]), radix[:_HALF], left[:_HALF])
            high = _unseen(np.arange(codes // radix[_HALF]) * radix[_HALF], radix[_HALF:], left[_HALF:])
        return _Space(shoe, pair, upcard, tuple(left), sum(left), tuple(radix), low, high)

    def unseen(self, codes: Any) -> Any:
        """The unseen counts (sets x ranks) of the sets ``codes``."""
        import numpy as np

        if self.low is None:
            return _unseen(codes, self.radix, self.left)
        quotient, remainder = np.divmod(codes, self.radix[_HALF])
        return np.concatenate((self.low[remainder], self.high[quotient]), axis=1)

    def removed(self, codes: Any) -> Any:
        """The cards gone besides the up-card (the pair and the sets ``codes``), sets x ranks."""
        import numpy as np

        gone = np.array(self.left, dtype=np.int64) - self.unseen(codes)
        gone[:, self.pair - 1] += 2
        return gone


def _unseen(codes: Any, radix: Any, left: Any) -> Any:
    """The unseen counts of the ranks of ``radix`` and ``left`` in the sets ``codes``."""
    import numpy as np

    left = np.array(left, dtype=np.int64)
    return left - (codes[:, None] // np.array(radix, dtype=np.int64)) % (left + 1)


_HALF = 5  # the ranks of a look-up table of unseen counts (see _Space)
_TABLE_ROWS = 1 << 21


# --- enumeration ------------------------------------------------------------------------------------

@dataclass
class _Level:
    """The positions with a number of cards gone, each kind of sorted keys.

    ``first``: the first hand's positions (set codes) and ``first_states`` their states; ``dealt``:
    where the second hand is dealt from, keyed set code * :data:`_KINDS` + kind; ``second``: the
    second hand's positions, keyed (set code * :data:`_STATES` + state) * :data:`_KINDS` + kind;
    ``finals``: the set codes a finished round is valued at, and ``dealer``: whether a round that
    reaches it has a hand standing (the dealer must then complete its hand)."""

    first: Any
    first_states: Any
    dealt: Any
    second: Any
    finals: Any
    dealer: Any


def _enumerate(space: _Space, table: _HandTable, limit: int, too_many: str) -> list[_Level]:
    """Every position reachable from the split by any moves, level by level (see the module docstring),
    with the refusals of the recursive solver where the shoe cannot complete a round."""
    import numpy as np

    radix = np.array(space.radix, dtype=np.int64)
    empty = np.zeros(0, dtype=np.int64)
    if space.total <= 1:
        raise BjexactError("the shoe runs out before every split hand has its second card")
    firsts = [r for r in range(10) if space.left[r]]
    first = radix[firsts]
    first_states = np.array([table.second[r] for r in firsts], dtype=np.int64)
    dealt_in: list[Any] = []  # from the level before
    second_in: list[Any] = []
    finals_in: list[tuple[Any, Any]] = []
    levels = [_Level(empty, empty, empty, empty, empty, empty.astype(bool))]
    positions = 0
    while len(first) or dealt_in or second_in or finals_in:
        n = space.total - len(levels)
        draw = n >= 2
        next_dealt: list[Any] = []
        next_second: list[Any] = []
        next_finals: list[tuple[Any, Any]] = []
        next_first: list[Any] = []
        next_first_states: list[Any] = []
        if len(first):  # the first hand stands here, or hits or doubles into the next level
            dealt_in.append(first * _KINDS + table.slot[first_states])
            if draw:
                counts = space.unseen(first)
                for r in range(10):
                    after = table.after[first_states, r]
                    held = counts[:, r] > 0
                    hits = held & table.hit[first_states]
                    stays = hits & (after >= 0)
                    next_first.append(first[stays] + radix[r])
                    next_first_states.append(after[stays])
                    next_dealt.append((first[hits & (after < 0)] + radix[r]) * _KINDS + _BUST_SLOT)
                    doubles = held & table.double[first_states]
                    slots = np.where(after[doubles] >= 0, table.slot[after[doubles]], _BUST_SLOT)
                    next_dealt.append((first[doubles] + radix[r]) * _KINDS + _STAKE_KINDS + slots)
        dealt = _distinct(np.concatenate(dealt_in)) if dealt_in else empty
        if len(dealt):  # the second hand takes its second card
            if not draw:
                raise BjexactError("the shoe runs out before every split hand has its second card")
            sets, kinds = dealt // _KINDS, dealt % _KINDS
            counts = space.unseen(sets)
            for r in range(10):
                held = counts[:, r] > 0
                next_second.append(((sets[held] + radix[r]) * _STATES + table.second[r]) * _KINDS + kinds[held])
        second = _distinct(np.concatenate(second_in)) if second_in else empty
        if len(second):
            sets, states, kinds = second // (_STATES * _KINDS), second // _KINDS % _STATES, second % _KINDS
            starts, group = _runs(sets)  # a set's positions, together: its finished rounds are noted once
            finals_in.append((sets[starts], np.ones(len(starts), dtype=bool)))
            if draw:
                counts = space.unseen(sets[starts])[group]
                stands = (np.left_shift(1, kinds) & _STANDING) != 0
                for r in range(10):
                    after = table.after[states, r]
                    held = counts[:, r] > 0
                    hits = held & table.hit[states]
                    stays = hits & (after >= 0)
                    next_second.append(((sets[stays] + radix[r]) * _STATES + after[stays]) * _KINDS + kinds[stays])
                    busts = hits & (after < 0)
                    doubles = held & table.double[states]
                    # the round ends with the card (a bust, a double), with a hand standing or not
                    ends = np.logical_or.reduceat(busts | doubles, starts)
                    standing = np.logical_or.reduceat((busts & stands) | (doubles & ((after >= 0) | stands)), starts)
                    next_finals.append((sets[starts][ends] + radix[r], standing[ends]))
        finals, dealer = _merged(*_joined(finals_in)) if finals_in else (empty, empty.astype(bool))
        levels.append(_Level(first, first_states, dealt, second, finals, dealer))
        positions += len(first) + len(second)
        if positions > limit:
            raise BjexactError(too_many)
        if next_first:
            keys = np.concatenate(next_first)
            order = np.argsort(keys)
            keys, first_states = keys[order], np.concatenate(next_first_states)[order]
            fresh = _fresh(keys)
            first, first_states = keys[fresh], first_states[fresh]
        else:
            first, first_states = empty, empty
        dealt_in = [keys for keys in next_dealt if len(keys)]
        second_in = [keys for keys in next_second if len(keys)]
        finals_in = [part for part in next_finals if len(part[0])]
    return levels


def _merged(keys: Any, flags: Any) -> tuple[Any, Any]:
    """The distinct ``keys``, sorted, each with whether any of its ``flags`` is set."""
    import numpy as np

    marked = np.sort(keys * 2 + ~flags)  # a key's set flag, if any, sorts first
    first = marked[_fresh(marked >> 1)]
    return first >> 1, (first & 1) == 0


def _fresh(keys: Any) -> Any:
    """Where sorted ``keys`` change (the first of each run of equal keys)."""
    import numpy as np

    return np.concatenate(([True], keys[1:] != keys[:-1])) if len(keys) else np.zeros(0, dtype=bool)


def _runs(keys: Any) -> tuple[Any, Any]:
    """Where each run of equal sorted ``keys`` starts, and the run of each key."""
    import numpy as np

    fresh = _fresh(keys)
    return np.flatnonzero(fresh), np.cumsum(fresh) - 1


def _distinct(keys: Any) -> Any:
    """The distinct ``keys``, sorted (a sort: faster than ``numpy.unique`` on millions of keys)."""
    import numpy as np

    keys = np.sort(keys)
    return keys[_fresh(keys)]


def _joined(parts: list[tuple[Any, Any]]) -> tuple[Any, Any]:
    import numpy as np

    return np.concatenate([k for k, _ in parts]), np.concatenate([f for _, f in parts])


# --- valuation --------------------------------------------------------------------------------------

@dataclass
class _Values:
    """Values of one kind of positions at one level, in the order of their sorted ``keys``, with a
    row of zeros after the last (the index ``len(keys)``: no position): ``floats`` (W, which decide)
    and ``residues`` (X = W D(n) modulo each prime, the last axis)."""

    keys: Any
    floats: Any
    residues: Any

    def at(self, queries: Any) -> Any:
        """The indices of ``queries`` among the keys (every one is there)."""
        import numpy as np

        found = np.searchsorted(self.keys, queries)
        if len(queries) and not (self.keys[np.minimum(found, len(self.keys) - 1)] == queries).all():
            raise AssertionError("a position's child was not enumerated")
        return found

    def find(self, queries: Any, where: Any) -> Any:
        """The indices of ``queries`` (an array) where ``where``, elsewhere the row of zeros."""
        import numpy as np

        found = np.full(queries.shape, len(self.keys), dtype=np.int64)
        found[where] = self.at(queries[where])
        return found


def _padded(keys: Any, floats: Any, residues: Any) -> _Values:
    """:class:`_Values` of ``keys`` with the row of zeros added."""
    import numpy as np

    return _Values(keys, np.concatenate((floats, np.zeros((1,) + floats.shape[1:]))),
                   np.concatenate((residues, np.zeros((1,) + residues.shape[1:], dtype=np.int64))))


@dataclass
class _LevelValues:
    """Every value of one level (:class:`_Level`'s kinds of positions)."""

    finals: _Values
    second: _Values
    dealt: _Values
    first: _Values


@dataclass(frozen=True)
class _Decided:
    """Positions each at its best move: that move's ``floats`` and ``residues`` (positions x primes),
    ``best`` which move it is (0 stand, 1 hit, 2 double: :data:`_MOVES`) and, where every move is kept
    (else ``None``), which moves each position allows (``allowed``: moves x positions) and their
    residues (``moves``: moves x positions x primes, 0 where not allowed)."""

    floats: Any
    residues: Any
    best: Any
    allowed: Any = None
    moves: Any = None

    @staticmethod
    def standing(floats: Any, residues: Any, every: bool) -> _Decided:
        """Positions that may only stand (no card can be drawn), of ``floats`` and ``residues``."""
        import numpy as np

        best = np.zeros(len(floats), dtype=np.int64)
        if not every:
            return _Decided(floats, residues, best)
        allowed = np.zeros((len(_MOVES), len(floats)), dtype=bool)
        allowed[0] = True
        moves = np.zeros((len(_MOVES),) + residues.shape, dtype=np.int64)
        moves[0] = residues
        return _Decided(floats, residues, best, allowed, moves)

    @staticmethod
    def joined(parts: list[_Decided]) -> _Decided:
        """The positions of ``parts``, one after another."""
        import numpy as np

        kept = parts[0].moves is not None
        return _Decided(np.concatenate([part.floats for part in parts]),
                        np.concatenate([part.residues for part in parts]),
                        np.concatenate([part.best for part in parts]),
                        np.concatenate([part.allowed for part in parts], axis=1) if kept else None,
                        np.concatenate([part.moves for part in parts], axis=1) if kept else None)


@dataclass(frozen=True)
class _Kept:
    """One kind of positions of one level as played (a :class:`_Decided` kept): their sorted ``keys``,
    ``best``, ``allowed`` and every allowed move's residues (``moves``)."""

    keys: Any
    best: Any
    allowed: Any
    moves: Any

    @staticmethod
    def of(keys: Any, decided: _Decided) -> _Kept:
        return _Kept(keys, decided.best, decided.allowed, decided.moves)


@dataclass(frozen=True)
class _SecondDraws:
    """The second hand's positions' draws (positions x ranks): ``counts`` of each rank unseen (0
    where the hand may neither hit nor double), the rows of the next level the card leads to (the
    row of zeros where none): ``child`` the position a hit goes on from, ``end`` the finished round
    of a hit that busts or of a double; ``busts``, ``doubles``: the counts where a hit busts, where
    a double is allowed (else 0); ``landed`` the stand slot after the card."""

    counts: Any
    child: Any
    end: Any
    busts: Any
    doubles: Any
    landed: Any


class _Valuation:
    """The backward pass: every level's positions valued from the next level's, exactly (see the
    module docstring). With ``keep``, every level's play is kept (``kept``: level -> the first hand's
    and the second hand's positions, :class:`_Kept`), every allowed move's residues computed."""

    def __init__(self, rules: GameRules, oracle: DealerOracle, space: _Space, table: _HandTable,
                 levels: list[_Level], keep: bool):
        import numpy as np

        self.oracle, self.space, self.table, self.levels = oracle, space, table, levels
        self.kept: dict[int, tuple[_Kept, _Kept]] | None = {} if keep else None
        self.dealer_rows = _DealerRows(oracle, space, levels)
        upcard = space.upcard
        self.longest = oracle.longest(upcard)
        # D(n) = n!/m!, m below every n a dealer row is met at, less the dealer's longest path
        floor = max(0, space.total - (len(levels) - 1) - self.longest)
        self.d = {n: factorial(n) // factorial(floor) for n in range(floor, space.total + 1)}
        self.primes = moduli_above(8 * self.d[space.total])  # |X| <= 4 D(n): two doubled stakes
        self.p = np.array(self.primes, dtype=np.int64)
        self.radix = np.array(space.radix, dtype=np.int64)
        # a second hand's key, plus this by state and rank: the key of the position a hit leads to
        self.child_offset = (self.radix * _STATES + table.after - np.arange(_STATES)[:, None]) * _KINDS
        partner = natural_partner(upcard)
        # a bust costs P(no dealer natural) where a natural costs one bet, else 1
        self.partner = partner if partner is not None and rules.excludes_natural else None
        natural_loses = not rules.excludes_natural
        # outcomes x stand slots: the payoff of standing on 16..21 against each dealer outcome
        self.weights = np.array([stand_weights(16 + slot, natural_loses) for slot in range(_BUST_SLOT)],
                                dtype=np.int64).T

    def modulo(self, x: int) -> Any:
        """``x`` modulo each prime (an int64 array)."""
        import numpy as np

        return np.array([x % q for q in self.primes], dtype=np.int64)

    def root(self, advance: Callable[[], None]) -> mpq:
        """W of the split (``advance`` called after each level)."""
        import numpy as np

        space, levels = self.space, self.levels
        later = self.nothing()
        for level in range(len(levels) - 1, 0, -1):
            later = self.level(level, later)
            advance()
        first = later.first
        ranks = [r for r in range(10) if space.left[r]]
        at = first.at(self.radix[ranks])
        counts = np.array([space.left[r] for r in ranks], dtype=np.int64)
        residues = (counts[:, None] * first.residues[at]).sum(axis=0) % self.p
        x = _signed(from_residues(residues[:, None], self.primes)[0], self.primes)
        w = mpq(x, self.d[space.total])
        estimate = float((counts * first.floats[at]).sum()) / space.total
        if abs(estimate - float(w)) > 1e-9:
            raise AssertionError("the floats have strayed from the exact values")
        return w

    def nothing(self) -> _LevelValues:
        """The values of a level with no positions (the one after the last)."""
        import numpy as np

        keys, primes = np.zeros(0, dtype=np.int64), len(self.primes)
        plain = _padded(keys, np.zeros(0), np.zeros((0, primes), dtype=np.int64))
        return _LevelValues(_padded(keys, np.zeros((0, _STAKE_KINDS)),
                                    np.zeros((0, _STAKE_KINDS, primes), dtype=np.int64)), plain, plain, plain)

    def level(self, level: int, later: _LevelValues) -> _LevelValues:
        """The values of every position with ``level`` cards drawn, from those with one more."""
        positions = self.levels[level]
        n = self.space.total - level
        finals = self.finals(positions, n, self.dealer_rows.take(level))
        second = self.second(positions.second, n, finals, later)
        dealt = self.dealt(positions.dealt, n, later)
        first = self.first(positions, n, dealt, later)
        if self.kept is not None:
            self.kept[level] = (_Kept.of(positions.first, first), _Kept.of(positions.second, second))
        return _LevelValues(finals, _padded(positions.second, second.floats, second.residues), dealt,
                            _padded(positions.first, first.floats, first.residues))

    def finals(self, positions: _Level, n: int, walked: Residues | None) -> _Values:
        """The terms of a finished round at the sets ``positions.finals`` (n unseen): per set, G of
        standing on 16..21 and the cost of a bust (slots 0..6: floats sets x 7, residues sets x 7 x
        primes). G only where a round that reaches the set has a hand standing (``positions.dealer``),
        from the dealer's rows there (``walked``, ``None`` where there are none: :meth:`standing`);
        elsewhere every hand has busted, only the bust's slot is ever read with a weight, and G is
        left 0."""
        import numpy as np

        codes, p, space = positions.finals, self.p, self.space
        if not len(codes):
            return self.nothing().finals
        residues = np.zeros((len(codes), _STAKE_KINDS, len(p)), dtype=np.int64)
        floats = np.zeros((len(codes), _STAKE_KINDS))
        if walked is not None:
            floats[positions.dealer, :_BUST_SLOT], residues[positions.dealer, :_BUST_SLOT] = self.standing(walked, n)
        if self.partner is None:
            residues[:, _BUST_SLOT] = self.modulo(-self.d[n])
            floats[:, _BUST_SLOT] = -1.0
        else:  # minus P(no dealer natural) = (n - partners) / n, over D(n) = n D(n - 1)
            others = n - space.unseen(codes)[:, self.partner - 1]
            residues[:, _BUST_SLOT] = -others[:, None] * self.modulo(self.d[n - 1]) % p
            floats[:, _BUST_SLOT] = -others / n
        return _padded(codes, floats, residues)

    def standing(self, walked: Residues, n: int) -> tuple[Any, Any]:
        """G of standing on 16..21 (floats sets x 6, residues sets x 6 x primes) at sets with n unseen,
        from the dealer's exact rows there modulo the few primes their numerators need (``walked``);
        refused where the dealer could run out of cards."""
        import numpy as np

        p, rows, primes = self.p, walked.residues, walked.primes
        denominator = walked.denominators[0]  # n (n - 1) ... (n - K + 1): the same for every set
        whole = np.array([denominator % q for q in primes], dtype=np.int64)[:, None]
        if (rows.sum(axis=1) % np.array(primes)[:, None] != whole).any():
            raise BjexactError("the shoe is too small: the dealer could run out of cards before finishing")
        digits = _digits(rows, primes)  # the numerators in mixed radix: as floats, and modulo other primes
        rows = _modulo_each(digits, primes, self.primes)
        scale = self.modulo(self.d[n] // denominator)
        residues = np.einsum("pos,ot->stp", rows, self.weights) % p * scale % p
        chances = _as_float(digits, primes) / float(denominator)  # outcomes x sets
        # the weighted sums term by term: a matrix product would wake BLAS's threads, whose waiting costs
        # more processor time than the product
        floats = sum(chances[o][:, None] * self.weights[o] for o in range(len(chances)))
        return floats, residues

    def second(self, keys: Any, n: int, finals: _Values, later: _LevelValues) -> _Decided:
        """The second hand's positions ``keys`` (n unseen), each at its best move: decided in floats,
        then the residues of the move made (of every move where the floats cannot decide); in pieces
        of :data:`_CHUNK` positions (their arrays, positions x ranks, stay small)."""
        parts = [self.second_part(keys[i:i + _CHUNK], n, finals, later) for i in range(0, max(len(keys), 1), _CHUNK)]
        return parts[0] if len(parts) == 1 else _Decided.joined(parts)

    def second_part(self, keys: Any, n: int, finals: _Values, later: _LevelValues) -> _Decided:
        """:meth:`second` of some of the positions."""
        import numpy as np

        table, p = self.table, self.p
        sets, states, kinds = keys // (_STATES * _KINDS), keys // _KINDS % _STATES, keys % _KINDS
        base, stake = kinds % _STAKE_KINDS, 1 + kinds // _STAKE_KINDS
        own, slots = finals.at(sets), table.slot[states]

        def stand(rows: Any) -> Any:
            return (stake[rows, None] * finals.residues[own[rows], base[rows]]
                    + finals.residues[own[rows], slots[rows]]) % p

        floats = [stake * finals.floats[own, base] + finals.floats[own, slots]]
        if n < 2:
            return _Decided.standing(floats[0], stand(np.arange(len(keys))), self.kept is not None)
        draws = self.second_draws(keys, sets, states, later)
        ends, hands = later.finals, later.second
        counts, end, busts, doubles = draws.counts, draws.end, draws.busts, draws.doubles
        left_behind = stake[:, None] * ends.floats[end, base[:, None]]  # the first hand's term after the card
        floats.append(((counts * hands.floats[draws.child]).sum(axis=1)
                       + (busts * (left_behind + ends.floats[end, _BUST_SLOT])).sum(axis=1)) / n)
        floats.append((doubles * (left_behind + 2 * ends.floats[end, draws.landed])).sum(axis=1) / n)

        def behind(rows: Any) -> Any:
            return stake[rows, None, None] * ends.residues[end[rows], base[rows, None]]

        def hit(rows: Any) -> Any:
            return ((counts[rows][:, :, None] * hands.residues[draws.child[rows]]).sum(axis=1)
                    + (busts[rows][:, :, None] * (behind(rows) + ends.residues[end[rows], _BUST_SLOT])).sum(axis=1)) % p

        def double(rows: Any) -> Any:
            return (doubles[rows][:, :, None] * (behind(rows) + 2 * ends.residues[end[rows], draws.landed[rows]])
                    ).sum(axis=1) % p

        allowed = [None, table.hit[states], table.double[states]]
        return _chosen(floats, allowed, [stand, hit, double], self.primes, self.kept is not None)

    def second_draws(self, keys: Any, sets: Any, states: Any, later: _LevelValues) -> _SecondDraws:
        """The draws of the second hand's positions ``keys`` (:class:`_SecondDraws`) into ``later``."""
        import numpy as np

        table = self.table
        starts, group = _runs(sets)  # the positions of a set share its unseen counts and finished rounds
        counts = self.space.unseen(sets[starts])[group]
        held = counts > 0
        stays, busts, doubles = held & table.stays[states], held & table.busts[states], held & table.doubles[states]
        child = later.second.find(keys[:, None] + self.child_offset[states], stays)
        ends = busts | doubles
        end = later.finals.find(sets[starts, None] + self.radix, np.logical_or.reduceat(ends, starts))[group]
        end[~ends] = len(later.finals.keys)
        return _SecondDraws(counts * (stays | busts | doubles), child, end, counts * busts, counts * doubles,
                            table.landed[states])

    def dealt(self, keys: Any, n: int, later: _LevelValues) -> _Values:
        """The second hand dealt its second card from ``keys`` (set code * kinds + kind, n unseen)."""
        import numpy as np

        sets, kinds = keys // _KINDS, keys % _KINDS
        counts = self.space.unseen(sets)
        second = np.array(self.table.second, dtype=np.int64)
        hands = later.second
        child = hands.find(((sets[:, None] + self.radix) * _STATES + second) * _KINDS + kinds[:, None], counts > 0)
        floats = (counts * hands.floats[child]).sum(axis=1) / max(n, 1)
        residues = (counts[:, :, None] * hands.residues[child]).sum(axis=1) % self.p
        return _padded(keys, floats, residues)

    def first(self, positions: _Level, n: int, dealt: _Values, later: _LevelValues) -> _Decided:
        """The first hand's positions at this level (n unseen), each at its best move."""
        import numpy as np

        table, p = self.table, self.p
        sets, states = positions.first, positions.first_states
        stood = dealt.at(sets * _KINDS + table.slot[states])
        floats = [dealt.floats[stood]]

        def stand(rows: Any) -> Any:
            return dealt.residues[stood[rows]]

        if n < 2:
            return _Decided.standing(floats[0], stand(np.arange(len(sets))), self.kept is not None)
        counts = self.space.unseen(sets)
        after = table.after[states]
        held = counts > 0
        hits = held & table.hit[states][:, None]
        doubles = held & table.double[states][:, None]
        drawn = sets[:, None] + self.radix
        hands, deals = later.first, later.dealt
        child = hands.find(drawn, hits & (after >= 0))
        bust = deals.find(drawn * _KINDS + _BUST_SLOT, hits & (after < 0))
        landed = np.where(after >= 0, table.slot[np.maximum(after, 0)], _BUST_SLOT)
        double_deal = deals.find(drawn * _KINDS + _STAKE_KINDS + landed, doubles)
        hit_counts, double_counts = np.where(hits, counts, 0), np.where(doubles, counts, 0)
        floats.append((hit_counts * (hands.floats[child] + deals.floats[bust])).sum(axis=1) / n)
        floats.append((double_counts * deals.floats[double_deal]).sum(axis=1) / n)

        def hit(rows: Any) -> Any:
            c = hit_counts[rows][:, :, None]
            return (c * (hands.residues[child[rows]] + deals.residues[bust[rows]])).sum(axis=1) % p

        def double(rows: Any) -> Any:
            return (double_counts[rows][:, :, None] * deals.residues[double_deal[rows]]).sum(axis=1) % p

        allowed = [None, table.hit[states], table.double[states]]
        return _chosen(floats, allowed, [stand, hit, double], self.primes, self.kept is not None)


class _DealerRows:
    """The dealer's exact rows, modulo the few primes their numerators need, at every level's sets
    where a hand stands (``_Level.dealer``), level after level as the backward pass asks for them
    (deepest first): walked (:meth:`~bjexact.dealer.batch.DealerOracle.walked_once`) in batches of
    :data:`_DEALER_CHUNK` sets that run on from one level to the next (a walk costs more than its
    sets: fewer, fuller walks), each kept until its levels are taken."""

    def __init__(self, oracle: DealerOracle, space: _Space, levels: list[_Level]):
        import numpy as np

        self.oracle, self.space = oracle, space
        wanted = [positions.finals[positions.dealer] for positions in reversed(levels)]
        self.codes = np.concatenate(wanted)  # in the order asked for
        self.sizes = {len(levels) - 1 - i: len(codes) for i, codes in enumerate(wanted)}
        self.walked = 0  # how many of the codes have been walked
        self.left: Residues | None = None  # the rows walked and not yet taken, in order

    def take(self, level: int) -> Residues | None:
        """The rows of ``level``'s sets where a hand stands (``None`` where there are none), the levels
        taken deepest first."""
        size = self.sizes[level]
        if not size:
            return None
        while self.left is None or len(self.left.denominators) < size:
            removed = self.space.removed(self.codes[self.walked:self.walked + _DEALER_CHUNK])
            walked = self.oracle.walked_once(removed, self.space.upcard)
            self.left = walked if self.left is None else _joined_rows(self.left, walked)
            self.walked += _DEALER_CHUNK
        rows = self.left
        self.left = Residues(rows.residues[:, :, size:], rows.denominators[size:], rows.primes)
        return Residues(rows.residues[:, :, :size], rows.denominators[:size], rows.primes)


def _joined_rows(first: Residues, then: Residues) -> Residues:
    """The dealer's rows of ``first``, then of ``then`` (modulo the same primes)."""
    import numpy as np

    return Residues(np.concatenate((first.residues, then.residues), axis=2), first.denominators + then.denominators,
                    first.primes)


def _chosen(floats: list[Any], allowed: list[Any], residues: list[Callable[[Any], Any]],
            primes: list[int], every: bool) -> _Decided:
        """Each position at its best move. ``floats``: each move's floats, in the order stand, hit,
        double; ``allowed``: where each is allowed (``None``: everywhere); ``residues``: each move's
        residues of the positions (rows) it is given. The floats decide where the best leads every
        other allowed move by more than :data:`TIE`; elsewhere the exact values do (rebuilt from the
        residues), ties going to the earlier move. Only the residues of the move made are computed,
        and of every move where it is in doubt; with ``every``, of every allowed move."""
        import numpy as np

        values = np.stack([f if where is None else np.where(where, f, -np.inf) for f, where in zip(floats, allowed)])
        everywhere = np.arange(values.shape[1])
        choice = values.argmax(axis=0)
        best = values[choice, everywhere]
        close = best - values <= TIE
        close[choice, everywhere] = False
        doubtful = np.flatnonzero(close.any(axis=0))
        if len(doubtful):
            exact = [[_signed(x, primes) for x in from_residues(move(doubtful).T, primes)] for move in residues]
            for i, position in enumerate(doubtful.tolist()):
                near = [m for m in range(len(floats)) if best[position] - values[m, position] <= TIE]
                choice[position] = max(near, key=lambda m: (exact[m][i], -m))
        if every:
            moves = _every_move(np.isfinite(values), residues, len(primes))
            return _Decided(values[choice, everywhere], moves[choice, everywhere], choice, np.isfinite(values), moves)
        out = np.empty((values.shape[1], len(primes)), dtype=np.int64)
        for m, move in enumerate(residues):
            for rows in _chunks(np.flatnonzero(choice == m)):
                out[rows] = move(rows)
        return _Decided(values[choice, everywhere], out, choice)


def _every_move(allowed: Any, residues: list[Callable[[Any], Any]], primes: int) -> Any:
    """Every move's residues (moves x positions x primes) where ``allowed`` (moves x positions), 0
    elsewhere: ``residues`` as :func:`_chosen` takes them."""
    import numpy as np

    moves = np.zeros(allowed.shape + (primes,), dtype=np.int64)
    for m, move in enumerate(residues):
        for rows in _chunks(np.flatnonzero(allowed[m])):
            moves[m, rows] = move(rows)
    return moves


def _chunks(rows: Any) -> list[Any]:
    """``rows`` in pieces of at most :data:`_CHUNK` (a move's residues of many positions take
    positions x ranks x primes integers while they are summed)."""
    return [rows[i:i + _CHUNK] for i in range(0, len(rows), _CHUNK)]


def _signed(x: int, primes: list[int]) -> int:
    """``x`` (from 0 to the primes' product) as the signed integer it stands for."""
    product = prod(primes)
    return x - product if 2 * x > product else x


def _digits(residues: Any, primes: list[int]) -> list[Any]:
    """The mixed-radix digits (Garner's) of non-negative integers below the primes' product, from their
    residues (primes x ...): x = d0 + d1 p0 + d2 p0 p1 + ..., each digit below its prime."""
    digits: list[Any] = []
    for i, p in enumerate(primes):
        t = residues[i] % p
        for j, digit in enumerate(digits):
            t = (t - digit) % p * pow(primes[j], -1, p) % p  # below 2^52: exact in int64
        digits.append(t)
    return digits


def _as_float(digits: list[Any], primes: list[int]) -> Any:
    """The integers of mixed-radix ``digits`` (:func:`_digits`) as floats (Horner's rule: relative error
    a few 2^-53)."""
    value = digits[-1].astype(float)
    for j in range(len(primes) - 2, -1, -1):
        value = value * primes[j] + digits[j]
    return value


def _modulo_each(digits: list[Any], radix: list[int], primes: list[int]) -> Any:
    """The integers of mixed-radix ``digits`` (over the primes ``radix``) modulo each of ``primes``
    (primes x ...)."""
    import numpy as np

    out = []
    for q in primes:
        total, weight = np.zeros_like(digits[0]), 1
        for digit, p in zip(digits, radix):
            total = (total + digit * (weight % q)) % q  # below 2^53
            weight *= p
        out.append(total)
    return np.stack(out)
