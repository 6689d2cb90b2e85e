"""The distribution of the round's net result under a solver's play.

:class:`NetResults` follows every dealt hand as the solver (:mod:`bjexact.player.values`, or a
chart's, :mod:`bjexact.player.policy`) plays it and settles it against the dealer's outcomes,
giving each net result's exact chance, in the solver's W form (under peek or OBO the chances
are those of (result, no dealer natural); :func:`~bjexact.player.game.solve_game` adds the
natural's). Split hands on a finite shoe share the cards and the dealer's outcome: their lines
are followed exactly within a bound of work (:meth:`NetResults._finite_split`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from math import prod
from typing import Any

from ..core.cards import RANKS, Counts, counts_of
from ..core.numbers import mpq, whole
from ..dealer.batch import OUTCOMES, from_residues, moduli_above
from ..errors import BjexactError
from .seen import NOTHING_GONE
from .states import counts_value
from .values import FractionSolver, MoveValues, add_card

__all__ = ["Dist", "NetResults", "mix"]

_ZERO = mpq(0)
_ONE = mpq(1)
_HALF = mpq(1, 2)
_NO_CARDS: Counts = (0,) * 10

Dist = dict[Any, mpq]  # net result (mpq), or a hand's (total, stake), -> probability
CHARLIE_TOTAL = 23  # the total of a finished split hand that is a Charlie (22: a bust)


def mix(target: Dist, source: Dist, weight: mpq) -> None:
    """Add ``source``'s chances, each times ``weight``, to ``target`` (in place)."""
    get = target.get
    for result, p in source.items():
        target[result] = get(result, _ZERO) + weight * p


def _convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    get = out.get
    for x, p in a.items():
        for y, q in b.items():
            key = x + y
            out[key] = get(key, _ZERO) + p * q
    return out


class NetResults:
    """The distribution of net results under the solved play, in the solver's W form:
    under peek/OBO the probabilities are those of (result, no dealer natural).

    Unsplit hands: for any shoe, settled against the dealer's distribution for
    their cards. Split hands: the hands and the dealer are independent only on the
    infinite deck, where each hand's final total is found once and the hands are
    combined per dealer outcome. On a finite shoe they share the cards and the
    dealer's outcome: every line of the split hands is followed exactly
    (:meth:`_finite_split`), within ``work_limit`` combinations of their lines
    (:data:`bjexact.player.game.SPLIT_WORK_LIMIT` from :func:`~bjexact.player.game.solve_game`);
    beyond it, ``None``.
    """

    def __init__(self, solver: FractionSolver, split_lines: bool, work_limit: int):
        self.solver = solver
        self.split_lines = split_lines  # follow the split hands' lines on a finite shoe
        self.work_limit = work_limit  # the most combinations of split hands' lines followed
        self._play: dict[Any, Dist] = {}
        self._finals: dict[Any, Dist] = {}  # infinite deck: by hand value
        self.work = 0  # finite shoes: combinations of split hands' lines so far
        self.missing = ""  # why the distribution is not computed, if it is not

    def stand(self, hand: Counts, upcard: int, stake: int) -> Dist:
        numerators, denominator = self.solver.cards.dealer(hand, upcard)
        weights = self.solver.stand_weights_by_total[max(counts_value(hand).total, 4)]
        summed: dict[int, int] = {}  # result -> numerator over the dealer's denominator
        for outcome, w, n in zip(OUTCOMES, weights, numerators):
            if not n or (outcome == "blackjack" and not self.solver.natural_loses):
                continue  # under peek/OBO the dealer's natural is left out (W form)
            summed[w * stake] = summed.get(w * stake, 0) + n
        return {mpq(result): mpq(n, denominator) for result, n in summed.items()}

    def _after_hit(self, hand: Counts, upcard: int, stake: int, then: Callable[[Counts], Dist]) -> Dist:
        out: Dist = {}
        for rank, p in self.solver.cards.draws(hand, upcard):
            new = add_card(hand, rank)
            if counts_value(new).bust:
                mix(out, {mpq(-stake): self.solver.scale(new, upcard, NOTHING_GONE)}, p)
            elif self.solver.is_charlie(new):
                mix(out, self.charlie(new, upcard, stake), p)
            else:
                mix(out, then(new), p)
        return out

    def charlie(self, hand: Counts, upcard: int, stake: int) -> Dist:
        """A Charlie's result: it wins ``stake`` unless the dealer has a natural (left out under peek
        and OBO, the W form; under ENHC the natural takes the stake)."""
        if not self.solver.natural_loses:
            return {mpq(stake): self.solver.scale(hand, upcard, NOTHING_GONE)}
        natural = self.solver.cards.natural_chance(hand, upcard)
        return {mpq(stake): 1 - natural, mpq(-stake): natural}

    def play(self, hand: Counts, upcard: int) -> Dist:
        """A hand of three or more cards, played on as the solution plays it (stand, hit or, with
        ``double_after_hit``, double)."""
        key = (self.solver.hand_key(hand), upcard)
        found = self._play.get(key)
        if found is None:
            move = self.solver.later_move(hand, upcard)
            if move == "double":
                found = self._after_hit(hand, upcard, 2, lambda new: self.stand(new, upcard, 2))
            elif move == "hit":
                found = self._after_hit(hand, upcard, 1, lambda new: self.play(new, upcard))
            else:
                found = self.stand(hand, upcard, 1)
            self._play[key] = found
        return found

    def deal(self, moves: MoveValues) -> Dist | None:
        """The net result of a dealt (non-natural) hand under its best move, dealer naturals included."""
        solver = self.solver
        hand = counts_of(moves.cards)
        upcard = moves.upcard
        best = moves.best
        if best == "surrender":
            if solver.rules.surrender == "early":
                return {-_HALF: _ONE}
            out = {-_HALF: solver.scale(hand, upcard, NOTHING_GONE)}
        elif best == "stand":
            out = self.stand(hand, upcard, 1)
        elif best == "hit":
            out = self._after_hit(hand, upcard, 1, lambda new: self.play(new, upcard))
        elif best == "double":
            out = self._after_hit(hand, upcard, 2, lambda new: self.stand(new, upcard, 2))
        else:
            split = self.split(moves.cards[0], upcard)
            if split is None:
                return None
            out = split
        if solver.rules.excludes_natural and moves.natural:
            out = dict(out)
            out[-_ONE] = out.get(-_ONE, _ZERO) + moves.natural
        return out

    # --- splits, infinite deck ---

    def _final(self, hand: Counts, upcard: int, pair: int) -> Dist:
        """Final (total, stake) of a split hand with its second card; total 22 is a bust."""
        move = self.solver.split_move(hand, upcard, pair)
        if move == "stand":
            return {(counts_value(hand).total, 1): _ONE}
        if move == "double":
            return self._final_after_hit(hand, upcard, 2, lambda new: {(min(counts_value(new).total, 22), 2): _ONE})
        return self._final_after_hit(hand, upcard, 1, lambda new: self._final_continue(new, upcard, pair))

    def _final_after_hit(self, hand: Counts, upcard: int, stake: int, then: Callable[[Counts], Dist]) -> Dist:
        out: Dist = {}
        for rank, p in self.solver.cards.draws(hand, upcard):
            new = add_card(hand, rank)
            mix(out, {(CHARLIE_TOTAL, stake): _ONE} if self.solver.is_charlie(new) else then(new), p)
        return out

    def _final_continue(self, hand: Counts, upcard: int, pair: int) -> Dist:
        """Final (total, stake) of a split hand of three or more cards played on (stand, hit, or with
        ``double_after_hit`` double)."""
        value = counts_value(hand)
        if value.bust:
            return {(22, 1): _ONE}
        key = (self.solver.hand_key(hand), upcard, pair)
        found = self._finals.get(key)
        if found is None:
            move = self.solver.split_move(hand, upcard, pair)
            if move == "double":
                found = self._final_after_hit(hand, upcard, 2,
                                              lambda new: {(min(counts_value(new).total, 22), 2): _ONE})
            elif move == "hit":
                found = self._final_after_hit(hand, upcard, 1, lambda new: self._final_continue(new, upcard, pair))
            else:
                found = {(value.total, 1): _ONE}
            self._finals[key] = found
        return found

    def split(self, pair: int, upcard: int) -> Dist | None:
        solver = self.solver
        if not solver.cards.infinite:
            return self._finite_split(pair, upcard)
        p = solver.cards.shoe.draw_probabilities()
        others = 1 - p[pair - 1]
        seconds = {x: self._final(counts_of([pair, x]), upcard, pair) for x in RANKS}
        not_pair: Dist = {}
        free: Dist = {}
        for x in RANKS:
            if x != pair:
                mix(not_pair, seconds[x], p[x - 1] / others)
            mix(free, seconds[x], p[x - 1])
        numerators, denominator = solver.cards.dealer(_NO_CARDS, upcard)
        kinds: dict[tuple[int, int], mpq] = {}  # (hands given a non-pair card, hands drawing freely) -> chance
        for chance, _, made, waiting in solver.split_patterns(pair, upcard):
            kinds[(sum(made), waiting)] = kinds.get((sum(made), waiting), _ZERO) + chance
        out: Dist = {}
        for outcome, n in zip(OUTCOMES, numerators):
            if not n or (outcome == "blackjack" and not solver.natural_loses):
                continue  # under peek/OBO a dealer natural is settled with the round, not here
            # the hands' results against this outcome, and their sums over 0..most hands of a kind (results
            # as ints, made mpq once per sum: :func:`~bjexact.core.numbers.whole`)
            most = solver.split_limit(pair)
            sums = [_powers(_settle(not_pair, outcome), most), _powers(_settle(free, outcome), most)]
            for (b, waiting), chance in kinds.items():
                mix(out, _as_results(_convolve(sums[0][b], sums[1][waiting])), chance * mpq(n, denominator))
        return out

    # --- splits, finite shoes ---

    def _finite_split(self, pair: int, upcard: int) -> Dist | None:
        """The split hands' joint net result on a finite shoe, in the solver's W form.

        The hands share the shoe and the dealer's outcome, so they are not independent;
        but a line of play (every card every hand draws, in order) has a chance that
        depends only on the cards it draws: f(M) = prod_r ff(left_r, M_r) / ff(n, |M|),
        ff the falling factorial, ``left`` the unseen cards at the split (n of them).
        So, seen in the order of :meth:`FractionSolver.split` (second cards first, a pair card
        making a new hand while the limit allows), the round's lines are: a pattern
        (hands, ``b`` hands given a non-pair second card before the limit, ``waiting``
        given any card at the limit) counted by its number of orders of pair / non-pair
        events, the hands - 2 pair cards it drew, and each hand's own line (its second
        card and draws, played by the split strategy), one after the other. The lines of
        one hand are enumerated once; the hands are combined by convolution on (cards
        drawn, finished hands) with integer counts; each combination is weighted by
        f(cards drawn) and settled against the dealer's distribution for those cards
        (the hole card drawn after the player by exchangeability).

        ``None`` when a line would need the last unseen card (the hole card), or when the
        combinations of all the splits of the rule set could outgrow :attr:`work_limit`
        (checked before each split from the number of each hand's lines, which bounds them;
        the distribution is not computed and :attr:`missing` says why).
        """
        rules = self.solver.rules
        if rules.double_after_hit or rules.charlie is not None or self.solver.split_limit(pair) > 7:
            self.missing = ("on a finite shoe the split hands' lines are not followed with doubling after hitting, "
                            "a Charlie or eight split hands")
            return None
        if not self.split_lines:
            self.missing = ("on a finite shoe where pairs are split it needs every line of the split hands "
                            "followed (seconds to minutes), which was not asked for (bjexact edge --distribution; "
                            "solve_game(..., split_lines=True))")
            return None
        solver = self.solver
        left = solver.cards.unseen(counts_of([pair, pair]), upcard)
        packing = _Packing(left)
        not_pair = self._hand_lines(pair, upcard, left, packing, second_may_be_pair=False)
        free = self._hand_lines(pair, upcard, left, packing, second_may_be_pair=True)
        patterns = self._pattern_counts(pair)
        # at most this many combinations (exactly this many without resplits): give up before starting
        bound = 0
        for _, _, b, waiting in patterns:
            size = 1
            for lines in [not_pair] * b + [free] * waiting:
                bound += size * len(lines)
                size *= len(lines)
        if self.work + bound > self.work_limit:
            self.missing = (f"the split hands' joint law could need more than {self.work_limit:,} combinations "
                            "of their lines on this shoe")
            return None
        found = _LineTable.combined(patterns, pair, not_pair, free, packing, left)
        if found is not None:
            table, work = found
            self.work += work
        else:  # counts beyond int64, or a shoe too large for the arrays: one line at a time
            finished: dict[int, int] = {}
            for orders, hands, b, waiting in patterns:
                pairs_drawn = packing.pack(counts_of([pair] * (hands - 2)))
                if not packing.fits(pairs_drawn):
                    continue
                combined = {pairs_drawn << _DONE_BITS: orders}
                for lines in [not_pair] * b + [free] * waiting:
                    self.work += len(combined) * len(lines)
                    combined = _combine(combined, lines, packing)
                for key, count in combined.items():
                    finished[key] = finished.get(key, 0) + count
            table = _LineTable.of_packed(finished, packing)
        return self._settle_lines(table, upcard, counts_of([pair, pair]), left)

    def _pattern_counts(self, pair: int) -> list[tuple[int, int, int, int]]:
        """(orders, hands, b, waiting): the patterns of :meth:`FractionSolver.split_patterns` with the
        number of orders of pair / non-pair second cards that make each."""
        limit = self.solver.split_limit(pair)
        counts: dict[tuple[int, int, int], int] = {}
        pending = [(2, 2, 0)]  # waiting, hands, b: one entry per order
        while pending:
            waiting, hands, b = pending.pop()
            if not waiting or hands == limit:
                counts[(hands, b, waiting)] = counts.get((hands, b, waiting), 0) + 1
                continue
            pending.append((waiting + 1, hands + 1, b))
            pending.append((waiting - 1, hands, b + 1))
        return [(n, hands, b, waiting) for (hands, b, waiting), n in counts.items()]

    def _hand_lines(self, pair: int, upcard: int, left: Sequence[int], packing: _Packing,
                    second_may_be_pair: bool) -> list[tuple[int, int, int]]:
        """One split hand's lines from its pair card, as (cards it draws packed, its finished hand
        as a :data:`_DONE_BITS` count, the number of orders of those cards the split strategy
        plays to that end). A total below 17 is kept as 16, which settles alike (it wins only
        when the dealer busts); 22 is a bust."""
        solver = self.solver
        lines: dict[tuple[Counts, int], int] = {}

        def end(drawn: Counts, total: int, stake: int, ways: int) -> None:
            key = (drawn, _finished_hand(total, stake))
            lines[key] = lines.get(key, 0) + ways

        hitting: dict[Counts, int] = {}  # cards drawn (in any order) by a hand still hitting -> orders
        for x in RANKS:
            if (x == pair and not second_may_be_pair) or not left[x - 1]:
                continue
            hand, drawn = counts_of([pair, x]), counts_of([x])
            move = solver.split_move(hand, upcard, pair)
            if move == "stand":
                end(drawn, counts_value(hand).total, 1, 1)
            elif move == "double":
                for r in RANKS:
                    if drawn[r - 1] < left[r - 1]:
                        value = counts_value(add_card(hand, r))
                        end(add_card(drawn, r), 22 if value.bust else value.total, 2, 1)
            else:
                hitting[drawn] = hitting.get(drawn, 0) + 1
        paired = counts_of([pair])
        while hitting:  # one card more each round: a hand's play depends on its cards, not their order
            after: dict[Counts, int] = {}
            for drawn, ways in hitting.items():
                hand = tuple(a + b for a, b in zip(paired, drawn))
                for r in RANKS:
                    if drawn[r - 1] >= left[r - 1]:
                        continue
                    new_hand, new_drawn = add_card(hand, r), add_card(drawn, r)
                    value = counts_value(new_hand)
                    if value.bust:
                        end(new_drawn, 22, 1, ways)
                    elif solver.split_hits(new_hand, upcard, pair):
                        after[new_drawn] = after.get(new_drawn, 0) + ways
                    else:
                        end(new_drawn, value.total, 1, ways)
            hitting = after
        return [(packing.pack(drawn), done, ways) for (drawn, done), ways in lines.items()]

    def _settle_lines(self, table: _LineTable, upcard: int, start: Counts, left: Sequence[int]) -> Dist | None:
        """Net results of the combined lines (:class:`_LineTable`).

        A line that has drawn the cards M has chance prod_r ff(left_r, M_r) / ff(n, |M|) and the dealer's
        outcome o given them chance numerator_o / D(|M|), so each net result's chance is, per
        number of cards drawn, an integer over ff(n, |M|) D(|M|): summed in numpy modulo primes
        and recovered exactly (:func:`bjexact.dealer.batch.from_residues`). A sum needs only the
        primes whose product passes its own denominator, so the sets of cards drawn are taken in
        order of the primes they need and each prime sums only the lines that need it.
        """
        import numpy as np  # imported here: the infinite deck never needs it

        solver = self.solver
        unseen = sum(left)
        drawn_counts = table.drawn_sets  # sets x ranks
        set_sizes = drawn_counts.sum(axis=1)
        if int(set_sizes.max()) >= unseen:
            self.missing = "a line of split hands would need the last unseen card (the hole card)"
            return None
        sizes, drawn_size = np.unique(set_sizes, return_inverse=True)
        sizes, drawn_size = sizes.tolist(), drawn_size.ravel()
        dealer_denominators = [solver.cards.dealer_denominator(unseen - size, upcard) for size in sizes]
        denominators = [_falling(unseen, size) * d for size, d in zip(sizes, dealer_denominators)]
        try:  # each sum over lines is at most its denominator ff(n, |M|) D(|M|): primes above it suffice
            primes = moduli_above(max(denominators))
        except BjexactError as too_large:
            self.missing = str(too_large)
            return None
        # the sets in order of the primes they need (their size's), the lines in order of their sets
        need_of_size = np.array([len(moduli_above(d)) for d in denominators], dtype=np.int64)
        set_order = np.argsort(need_of_size[drawn_size], kind="stable")
        drawn_counts, drawn_size = drawn_counts[set_order], drawn_size[set_order]
        set_need = need_of_size[drawn_size]
        place = np.empty_like(set_order)
        place[set_order] = np.arange(len(set_order))
        line_set = place[table.line_drawn]
        del place, set_order
        # lines come in the order of their sets (of :meth:`_LineTable.combined`), so ordering them by the
        # primes their sets need orders them by set; a stable sort of small integers is a radix sort
        line_order = np.argsort(set_need[line_set].astype(np.int8), kind="stable")
        if not (np.diff(table.line_drawn) >= 0).all():
            line_order = np.argsort(line_set, kind="stable")
        line_set = line_set[line_order]
        line_done, counts = table.line_done[line_order], table.counts[line_order]
        del line_order
        batch = solver.cards.dealer_residues_once(drawn_counts + np.array(start, dtype=np.int64), upcard)
        if batch.denominators != [dealer_denominators[size] for size in drawn_size.tolist()]:
            raise BjexactError("the dealer's denominators are not those of the cards drawn")
        dealer_primes = list(batch.primes)
        for k, p in enumerate(dealer_primes):  # every row sums to its denominator (both below the primes' product)
            whole = np.array([d % p for d in dealer_denominators], dtype=np.int64)[drawn_size]
            if ((batch.residues[k].sum(axis=0) - whole) % p).any():
                raise BjexactError("the shoe is too small: the dealer could run out of cards before finishing")
        outcomes = [i for i, o in enumerate(OUTCOMES) if o != "blackjack" or solver.natural_loses]
        dealer = batch.residues[:, outcomes] if len(outcomes) < len(OUTCOMES) else batch.residues  # primes x o x sets
        del batch
        results = np.array([[_settle_hands(hands, OUTCOMES[i]) for i in outcomes]
                            for hands in map(_unpack_done, table.done_kinds)], dtype=np.int64)
        lowest, highest = int(results.min()), int(results.max())
        span = highest - lowest + 1
        line_bin = drawn_size[line_set] * span - lowest
        bins = [line_bin + by_outcome[line_done] for by_outcome in results.T.copy()]
        del line_bin, line_done
        digits = _garner_digits(dealer, dealer_primes)
        weights = _FallingWeights(left, drawn_counts)
        residues = np.zeros((len(primes), len(sizes) * span), dtype=np.int64)
        for k, p in enumerate(primes):
            first_set = int(np.searchsorted(set_need, k, side="right"))  # the sets that need the k-th prime
            if first_set == len(set_need):
                break
            first_line = int(np.searchsorted(line_set, first_set))
            if p in dealer_primes:
                modulo = dealer[dealer_primes.index(p), :, first_set:]
            else:
                modulo = _digits_modulo([d[:, first_set:] for d in digits], dealer_primes, p)
            chances = modulo * weights.modulo(p, first_set) % p  # outcomes x sets
            del modulo
            lines = counts[first_line:] % p
            if lines.dtype != np.int64:
                lines = lines.astype(np.int64)
            which = line_set[first_line:] - first_set
            largest = (p - 1) * int(lines.max(initial=0))  # a line's chance, unreduced where that is small
            reduce = largest >= 1 << 31
            for column in range(len(outcomes)):
                chance = chances[column][which]
                chance *= lines
                if reduce:
                    chance %= p
                residues[k] += _summed_by_bin(bins[column][first_line:], chance, len(sizes) * span,
                                              p - 1 if reduce else largest) % p
            residues[k] %= p
        need = need_of_size.tolist()
        numerators = [0] * (len(sizes) * span)
        for count in sorted(set(need)):  # each sum from the primes its size needs
            slots = [slot for slot in range(len(numerators)) if need[slot // span] == count]
            for slot, numerator in zip(slots, from_residues(residues[:count, slots], primes[:count])):
                numerators[slot] = numerator
        out: Dist = {}
        for slot, numerator in enumerate(numerators):
            if numerator:
                result = mpq(slot % span + lowest)
                out[result] = out.get(result, _ZERO) + mpq(numerator, denominators[slot // span])
        return out

@dataclass(frozen=True)
class _LineTable:
    """The split hands' combined lines as arrays: ``drawn_sets`` (the distinct sets of cards drawn, as
    counts: an int64 array, sets x ranks), ``done_kinds`` (the distinct finished hands, packed as
    :func:`_finished_hand` counts) and, per line, the index of each (``line_drawn``, ``line_done``) and
    its number of orders ``counts`` (int64, or Python integers in an object array)."""

    drawn_sets: Any  # int64, sets x ranks
    done_kinds: list[int]
    line_drawn: Any
    line_done: Any
    counts: Any

    @classmethod
    def of_packed(cls, finished: Mapping[int, int], packing: _Packing) -> _LineTable:
        """From packed (cards drawn, finished hands) -> count (:func:`_combine`)."""
        import numpy as np

        mask = (1 << _DONE_BITS) - 1
        drawn_index: dict[int, int] = {}
        done_index: dict[int, int] = {}
        entries = []
        for key, count in finished.items():
            drawn = drawn_index.setdefault(key >> _DONE_BITS, len(drawn_index))
            done = done_index.setdefault(key & mask, len(done_index))
            entries.append((drawn, done, count))
        try:
            counts = np.array([e[2] for e in entries], dtype=np.int64)
        except OverflowError:
            counts = np.array([e[2] for e in entries], dtype=object)
        return cls(np.array([packing.unpack(d) for d in drawn_index], dtype=np.int64).reshape(-1, 10), list(done_index),
                   np.array([e[0] for e in entries], dtype=np.int64), np.array([e[1] for e in entries], dtype=np.int64),
                   counts)

    @classmethod
    def combined(cls, patterns: Sequence[tuple[int, int, int, int]], pair: int,
                 not_pair: Sequence[tuple[int, int, int]], free: Sequence[tuple[int, int, int]], packing: _Packing,
                 left: Sequence[int]) -> tuple[_LineTable, int] | None:
        """The patterns' lines combined hand by hand in int64 arrays, the cards drawn as one number in
        the mixed radix of ``left`` (rank r's count times prod of (left_i + 1), i < r); ``None`` where
        that number or a count could pass 2^62 (then :func:`_combine` does it with Python integers). With
        the table, the work: combinations of combined lines and a hand's lines tried."""
        import numpy as np

        radix = [c + 1 for c in left]
        if prod(radix) >= 1 << 62:
            return None
        place = np.array([prod(radix[:r]) for r in range(10)], dtype=np.int64)
        room = np.array(left, dtype=np.int64)
        total = {id(lines): sum(ways for _, _, ways in lines) for lines in (not_pair, free)}
        for orders, _, b, waiting in patterns:  # a merged count is at most the pattern's orders times its lines'
            if orders * total[id(not_pair)] ** b * total[id(free)] ** waiting >= 1 << 62:
                return None
        hands = {id(lines): _line_arrays(lines, packing) for lines in (not_pair, free)}
        parts = []
        work = 0
        for orders, count, b, waiting in patterns:
            start = np.array(counts_of([pair] * (count - 2)), dtype=np.int64)
            if (start > room).any():
                continue
            codes = np.array([int(start @ place)], dtype=np.int64)
            done = np.zeros(1, dtype=np.int64)
            ways = np.array([orders], dtype=np.int64)
            sequence = [not_pair] * b + [free] * waiting
            if len(sequence) >= 2 and sequence[0] is sequence[1]:  # two hands alike: each pair of lines once
                hand_drawn, hand_done, hand_ways = hands[id(sequence[0])]
                fits = (hand_drawn + start <= room).all(axis=1)  # the first hand's lines (distinct)
                first = (hand_drawn[fits], hand_done[fits], hand_ways[fits])
                work += len(sequence[0]) + int(fits.sum()) * len(sequence[1])
                codes, done, ways = _pair_arrays(codes[0] + first[0] @ place, first[1], orders * first[2], first,
                                                 room, place)
                sequence = sequence[2:]
            for lines in sequence:
                work += len(ways) * len(lines)
                codes, done, ways = _combine_arrays(codes, done, ways, hands[id(lines)], room, place)
            parts.append((codes, done, ways))
        if not parts:
            empty = np.zeros(0, dtype=np.int64)
            return cls(np.zeros((0, 10), dtype=np.int64), [], empty, empty, empty), work
        unique_codes, line_drawn = np.unique(np.concatenate([c for c, _, _ in parts]), return_inverse=True)
        done_kinds, line_done = np.unique(np.concatenate([d for _, d, _ in parts]), return_inverse=True)
        return cls(_digits(unique_codes, room, place), done_kinds.tolist(), line_drawn.ravel(),
                   line_done.ravel(), np.concatenate([w for _, _, w in parts])), work


def _line_arrays(lines: Sequence[tuple[int, int, int]], packing: _Packing) -> tuple[Any, Any, Any]:
    """One hand's lines as arrays: cards drawn (lines x ranks), finished hand, orders."""
    import numpy as np

    drawn = np.array([packing.unpack(d) for d, _, _ in lines], dtype=np.int64).reshape(-1, 10)
    return drawn, np.array([d for _, d, _ in lines], dtype=np.int64), np.array([w for _, _, w in lines], dtype=np.int64)


def _combine_arrays(codes: Any, done: Any, ways: Any, hand: tuple[Any, Any, Any], room: Any,
                    place: Any) -> tuple[Any, Any, Any]:
    """:func:`_combine` in arrays: every combined line (cards drawn as a mixed-radix number ``codes``,
    finished hands, orders) followed by every line of the next hand whose cards the shoe still holds,
    orders multiplied, equal (cards drawn, finished hands) merged (sorted by both)."""
    return _joined_arrays(codes, done, ways, hand, room, place, alike=False)


def _pair_arrays(codes: Any, done: Any, ways: Any, hand: tuple[Any, Any, Any], room: Any,
                 place: Any) -> tuple[Any, Any, Any]:
    """:func:`_combine_arrays` where the combined lines are those of ``hand`` itself, line i as line i
    (shifted by the same cards, its orders times the same number), and the next hand plays alike:
    lines i, j and j, i make the same cards and finished hands, so each pair is formed once, i <= j,
    its orders doubled where i < j."""
    return _joined_arrays(codes, done, ways, hand, room, place, alike=True)


def _joined_arrays(codes: Any, done: Any, ways: Any, hand: tuple[Any, Any, Any], room: Any, place: Any,
                   alike: bool) -> tuple[Any, Any, Any]:
    """:func:`_combine_arrays` and, with ``alike``, :func:`_pair_arrays`. Where the shoe holds every
    pair's cards (each rank's most in a combined line and in a hand's line together at most the
    shoe's), no pair is checked; where (cards drawn, finished hands) fit one int64 key (the finished
    hands as an index of their few sums) they are merged by sorting that key."""
    import numpy as np

    hand_drawn, hand_done, hand_ways = hand
    hand_codes = hand_drawn @ place
    drawn = _digits(codes, room, place)
    done_kinds, done_at = np.unique(done, return_inverse=True)
    hand_kinds, hand_at = np.unique(hand_done, return_inverse=True)
    sums, sum_at = np.unique(done_kinds[:, None] + hand_kinds[None, :], return_inverse=True)
    sum_at = sum_at.reshape(len(done_kinds), len(hand_kinds))
    if prod(int(r) + 1 for r in room) * len(sums) >= 1 << 63:
        return _combine_checked(codes, done, ways, drawn, (hand_drawn, hand_done, hand_ways), room, place, alike)
    all_fit = bool((drawn.max(axis=0) + hand_drawn.max(axis=0) <= room).all())
    hand_small, room_small = hand_drawn.astype(np.int16), room.astype(np.int16)
    drawn_small = drawn.astype(np.int16)
    keys, merged_ways = [], []
    step = max(1, 1_000_000 // max(len(hand_ways), 1))
    for begin in range(0, len(ways), step):
        rows = slice(begin, min(begin + step, len(ways)))
        key = (codes[rows, None] + hand_codes[None, :]) * len(sums) + sum_at[done_at[rows]][:, hand_at]
        pair_ways = ways[rows, None] * (2 * hand_ways if alike else hand_ways)[None, :]
        fits = None if all_fit else ((drawn_small[rows, None, :] + hand_small[None, :, :]) <= room_small).all(axis=2)
        if alike:  # each pair once (j >= i), its orders doubled where j > i
            diagonal = np.arange(rows.stop - rows.start)
            pair_ways[diagonal, diagonal + rows.start] //= 2
            once = np.arange(len(hand_ways))[None, :] >= np.arange(rows.start, rows.stop)[:, None]
            fits = once if fits is None else fits & once
        if fits is not None:
            key, pair_ways = key[fits], pair_ways[fits]
        key, pair_ways = _merged(key.ravel(), pair_ways.ravel())
        keys.append(key)
        merged_ways.append(pair_ways)
    key, total = (keys[0], merged_ways[0]) if len(keys) == 1 else _merged(np.concatenate(keys),
                                                                          np.concatenate(merged_ways))
    return key // len(sums), sums[key % len(sums)], total


def _merged(key: Any, ways: Any) -> tuple[Any, Any]:
    """Equal keys as one (sorted), their orders added."""
    import numpy as np

    order = np.argsort(key)
    key, ways = key[order], ways[order]
    starts = np.flatnonzero(np.r_[True, key[1:] != key[:-1]])
    return key[starts], np.add.reduceat(ways, starts)


def _combine_checked(codes: Any, done: Any, ways: Any, drawn: Any, hand: tuple[Any, Any, Any], room: Any,
                     place: Any, alike: bool) -> tuple[Any, Any, Any]:
    """:func:`_joined_arrays` with every pair checked against the shoe and merged on two keys (cards drawn,
    finished hands), for shoes whose key does not fit in int64."""
    import numpy as np

    hand_drawn, hand_done, hand_ways = hand
    hand_codes = hand_drawn @ place
    drawn = drawn.astype(np.int16)
    hand_small, room_small = hand_drawn.astype(np.int16), room.astype(np.int16)
    keep_codes, keep_done, keep_ways = [], [], []
    step = max(1, 1_000_000 // max(len(hand_ways), 1))
    for begin in range(0, len(ways), step):
        block = slice(begin, begin + step)
        fits = ((drawn[block, None, :] + hand_small[None, :, :]) <= room_small).all(axis=2)
        if alike:
            fits &= np.arange(len(hand_ways))[None, :] >= np.arange(begin, begin + len(fits))[:, None]
        i, j = np.nonzero(fits)
        del fits
        i += begin
        pair_ways = ways[i] * hand_ways[j]
        if alike:
            pair_ways[i != j] *= 2
        merged = _merge(codes[i] + hand_codes[j], done[i] + hand_done[j], pair_ways)
        keep_codes.append(merged[0])
        keep_done.append(merged[1])
        keep_ways.append(merged[2])
    if len(keep_codes) == 1:
        return keep_codes[0], keep_done[0], keep_ways[0]
    return _merge(np.concatenate(keep_codes), np.concatenate(keep_done), np.concatenate(keep_ways))


def _merge(codes: Any, done: Any, ways: Any) -> tuple[Any, Any, Any]:
    """Lines with equal (cards drawn, finished hands) as one, their orders added (sorted by both)."""
    import numpy as np

    order = np.lexsort((done, codes))
    codes, done, ways = codes[order], done[order], ways[order]
    starts = np.flatnonzero(np.r_[True, (codes[1:] != codes[:-1]) | (done[1:] != done[:-1])])
    return codes[starts], done[starts], np.add.reduceat(ways, starts)


def _digits(codes: Any, room: Any, place: Any) -> Any:
    """The counts per rank (codes x ranks) of mixed-radix numbers (radix ``room`` + 1)."""
    return codes[:, None] // place[None, :] % (room + 1)[None, :]


def _powers(dist: Dist, most: int = 4) -> list[Dist]:
    """The distributions of the sum of 0, 1, ..., ``most`` independent draws from ``dist`` (int results)."""
    powers: list[Dist] = [{0: _ONE}]
    for _ in range(most):
        powers.append(_convolve(powers[-1], dist))
    return powers


_DONE_BITS = 42  # finished split hands: 3 bits counting each of 14 kinds (total 16..22, stake 1 or 2)


def _finished_hand(total: int, stake: int) -> int:
    """One finished hand as a count in the packed finished hands (total below 17 kept as 16, 22 a bust)."""
    return 1 << 3 * ((min(max(total, 16), 22) - 16) * 2 + stake - 1)


def _unpack_done(done: int) -> tuple[tuple[int, int], ...]:
    """The finished hands ((total, stake), ...) of a packed count."""
    hands: list[tuple[int, int]] = []
    for kind in range(14):
        hands.extend([(16 + kind // 2, kind % 2 + 1)] * ((done >> 3 * kind) & 7))
    return tuple(hands)


class _Packing:
    """Cards drawn from ``left`` as one integer, a field per rank with a guard bit: adding two
    packed sets adds their counts, and :meth:`fits` tells whether the shoe holds them."""

    def __init__(self, left: Sequence[int]):
        self.value_bits = max(max(left), 1).bit_length()
        self.field = self.value_bits + 2  # a sum of two sets that fit stays below the guard bit
        self.mask = (1 << self.field) - 1
        guards = sum(1 << (self.field * i + self.value_bits + 1) for i in range(10))
        self.guards = guards
        self.room = self.pack(left) | guards

    def pack(self, counts: Sequence[int]) -> int:
        return sum(c << (self.field * i) for i, c in enumerate(counts))

    def unpack(self, packed: int) -> Counts:
        return tuple((packed >> (self.field * i)) & self.mask for i in range(10))

    def fits(self, packed: int) -> bool:
        """Whether every rank's count is at most the shoe's (no borrow reaches a guard bit)."""
        return (self.room - packed) & self.guards == self.guards


def _combine(combined: Mapping[int, int], lines: Sequence[tuple[int, int, int]], packing: _Packing) -> dict[int, int]:
    """One more split hand: every combined line (packed (cards drawn, finished hands) -> count)
    followed by every line of the hand the shoe still holds the cards of, counts multiplied."""
    out: dict[int, int] = {}
    steps = [((drawn << _DONE_BITS) + done, ways) for drawn, done, ways in lines]
    room, guards = packing.room, packing.guards
    for key, count in combined.items():
        for step, ways in steps:
            new = key + step
            if (room - (new >> _DONE_BITS)) & guards == guards:
                out[new] = out.get(new, 0) + count * ways
    return out

def _extend_residues(residues: Any, primes: Sequence[int], wanted: Sequence[int]) -> Any:
    """Residues (primes x ...) of integers from 0 to prod(``primes``) - 1, modulo each of ``wanted`` instead
    (Garner's mixed-radix digits, in int64: every prime is below 2^31), without the integers themselves."""
    import numpy as np

    digits = _garner_digits(residues, primes)
    out = np.empty((len(wanted), *residues.shape[1:]), dtype=np.int64)
    for k, q in enumerate(wanted):
        out[k] = _digits_modulo(digits, primes, q)
    return out


def _garner_digits(residues: Any, primes: Sequence[int]) -> list[Any]:
    """Garner's mixed-radix digits d_j (int64 arrays, each in [0, p_j)) of the integers x from 0 to
    prod(``primes``) - 1 whose residues are ``residues`` (primes x ...): x = d0 + d1 p0 + d2 p0 p1 + ...
    (every prime below 2^31)."""
    digits: list[Any] = []
    for j, p in enumerate(primes):
        inverse = pow(prod(primes[:j]) % p, -1, p)
        digits.append((residues[j] - _digits_modulo(digits, primes, p)) % p * inverse % p if j else residues[0])
    return digits


def _digits_modulo(digits: Sequence[Any], primes: Sequence[int], q: int) -> Any:
    """(d0 + d1 p0 + d2 p0 p1 + ...) modulo ``q`` (below 2^31) from Garner's digits (:func:`_garner_digits`,
    the first len(``digits``) of ``primes``): the terms summed in int64, reduced only when the sum
    could pass 2^63."""
    import numpy as np

    if not digits:
        return 0
    total = np.zeros(digits[0].shape, dtype=np.int64)
    bound = 0  # the largest the sum can be
    for i, digit in enumerate(digits):
        factor = prod(primes[:i]) % q
        term = (primes[i] - 1) * factor
        if bound + term >= 1 << 63:
            total %= q
            bound = q - 1
        total += digit * factor if factor != 1 else digit
        bound += term
    return total % q


def _summed_by_bin(bins: Any, values: Any, size: int, largest: int) -> Any:
    """Sums (int64) of int64 ``values`` from 0 to ``largest`` (below 2^31) by their ``bins`` (0 .. size - 1),
    exact: summed as floats, in runs short enough that no sum passes 2^53."""
    import numpy as np

    run = (1 << 53) // max(largest, 1)
    out = np.zeros(size, dtype=np.int64)
    for begin in range(0, len(bins), run):
        out += np.bincount(bins[begin:begin + run], weights=values[begin:begin + run],
                           minlength=size).astype(np.int64)
    return out


def _falling_residues(left: Sequence[int], drawn: Any, p: int) -> Any:
    """prod_r ff(left_r, drawn[i, r]) modulo ``p`` for each row i of the int64 array ``drawn`` (sets x ranks)."""
    import numpy as np

    out = np.ones(len(drawn), dtype=np.int64)
    for r, count in enumerate(left):
        table = np.array([_falling(count, d) % p for d in range(count + 1)], dtype=np.int64)
        out = out * table[drawn[:, r]] % p
    return out


class _FallingWeights:
    """prod_r ff(left_r, M_r) modulo primes for many sets M of cards drawn (an int64 array, sets x ranks).

    The ranks in two groups (the most plentiful rank, the others): each group's product is computed
    once, exactly in int64, for every set where it cannot reach 2^63 (it is below prod left_r^M_r,
    below 2^(sum_r M_r bits(left_r))); only the other sets are computed rank by rank for each prime."""

    def __init__(self, left: Sequence[int], drawn: Any):
        import numpy as np

        self.left, self.drawn = left, drawn
        bits = [max(count, 1).bit_length() for count in left]
        plentiful = max(range(len(left)), key=lambda r: left[r])
        self.parts: list[Any] = []
        exact = np.ones(len(drawn), dtype=bool)
        for group in ([plentiful], [r for r in range(len(left)) if r != plentiful]):
            exact &= drawn[:, group] @ np.array([bits[r] for r in group], dtype=np.int64) <= 62
        self.slow = np.flatnonzero(~exact)  # sets whose groups' products could pass 2^63
        for group in ([plentiful], [r for r in range(len(left)) if r != plentiful]):
            part = np.ones(len(drawn), dtype=np.int64)
            for r in group:  # exact sets draw at most 62 // bits_r of rank r: ff(left_r, that) < 2^62
                most = min(left[r], 62 // bits[r])
                table = np.array([_falling(left[r], d) for d in range(most + 1)], dtype=np.int64)
                part *= table[np.minimum(drawn[:, r], most)]  # exact where exact; the others are replaced
            self.parts.append(part)

    def modulo(self, p: int, first: int = 0) -> Any:
        """The products of the sets from ``first`` on, modulo ``p`` (below 2^31)."""
        out = self.parts[0][first:] % p * (self.parts[1][first:] % p) % p
        slow = self.slow[self.slow >= first]
        if len(slow):
            out[slow - first] = _falling_residues(self.left, self.drawn[slow], p)
        return out


def _falling(n: int, k: int) -> int:
    """The falling factorial n (n - 1) ... (n - k + 1)."""
    return prod(range(n - k + 1, n + 1))


def _settle_hands(done: tuple[tuple[int, int], ...], outcome: str) -> int:
    """The net result of finished hands ((total, stake), 22 a bust) against a dealer outcome."""
    if outcome == "blackjack":  # ENHC: a dealer natural takes every bet
        return -sum(stake for _, stake in done)
    result = 0
    for total, stake in done:
        if total > 21:
            result -= stake
        elif outcome == "bust":
            result += stake
        else:
            dealer = int(outcome)
            result += stake if total > dealer else 0 if total == dealer else -stake
    return result


def _settle(final: Dist, outcome: str) -> Dist:
    """Net results of a hand whose (total, stake) is distributed as ``final`` against a dealer outcome, as ints
    (whole units: :func:`_as_results` makes them the mpq of a distribution)."""
    out: Dist = {}
    for (total, stake), q in final.items():
        if total == CHARLIE_TOTAL and outcome != "blackjack":  # a Charlie wins, but not against a natural
            result = stake
        elif total > 21 or outcome == "blackjack":  # ENHC: a dealer natural takes every bet
            result = -stake
        elif outcome == "bust":
            result = stake
        else:
            dealer = int(outcome)
            result = stake if total > dealer else 0 if total == dealer else -stake
        out[result] = out.get(result, _ZERO) + q
    return out


def _as_results(summed: Dist) -> Dist:
    """A distribution of int results with the results as mpq (keys in the same order)."""
    return {whole(result): p for result, p in summed.items()}
