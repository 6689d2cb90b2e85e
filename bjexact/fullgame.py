"""The casino game: stand, hit, double, split, surrender, insurance; the exact house edge.

Model (see ``shared`` conventions in the README): the player is dealt two cards,
the dealer an up-card and a hole card. Every value here is per unit initial bet
and exact.

Composition-dependent play
    A hand's decisions depend on its own cards and the up-card (not on other
    hands' cards). Its values are computed from the cards unseen: the shoe less
    the hand's cards and the up-card; the hole card is one of them (by
    exchangeability it can be drawn after the player's cards), so the player can
    never draw the last unseen card.

Hole-card rules and the dealer's natural
    ``peek``: with a T or A up the dealer checks for a natural first; it takes the
    original bet only (a player natural pushes). Decisions are made knowing there
    is none, so a decision's value is conditioned on no dealer natural. Internally
    the engine works with *unnormalised* values W = E[payoff, no dealer natural]
    (the same denominator P(no natural | cards seen) for every move of a
    position, so comparing W compares the conditioned values) and divides once
    for display. ``enhc``: no hole card; a later dealer natural takes every bet
    on the table, doubles and splits included. ``obo`` with ``enhc``: only the
    original bet is lost to it, which makes every decision's W the same as under
    peek (the natural's loss of 1 is common to all moves but surrender).

Splits (CDZ-)
    A split hand is played with the composition-dependent strategy of an unsplit
    hand of the same cards (other split hands' cards are ignored when choosing,
    not when computing values). Two split hands (no resplit) are worth twice the
    first one: the other hand's cards, drawn by a stopping rule of its own, leave
    the dealer's next cards distributed as if they had not been drawn (a
    uniformly shuffled shoe stays uniform after a stopping time), so hand one is
    valued with only the other pair card removed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from .cards import ACE, RANKS, TEN, Counts, Shoe, add_counts, counts_of, rank_symbol
from .dealer import dealer_distributions
from .dealer_batch import OUTCOMES, DealerOracle
from .errors import BjexactError
from .exact import as_rational, fraction_string, mpq
from .hand import HandValue, hand_value, natural_partner
from .rules import DEFAULT_DECKS, Rules, _parse_decks

__all__ = ["GameRules", "MOVES", "GameSolution", "solve_game", "UPCARD_ORDER"]

MOVES = ("stand", "hit", "double", "split", "surrender")
UPCARD_ORDER = (2, 3, 4, 5, 6, 7, 8, 9, TEN, ACE)
DOUBLE_RULES = ("any", "9-11", "10-11")
SURRENDER_RULES = ("none", "late", "early")
HOLE_CARD_RULES = ("peek", "enhc")
SPLIT_STRATEGIES = ("cdz",)

_ZERO = mpq(0)
_ONE = mpq(1)
_HALF = mpq(1, 2)
_NO_CARDS: Counts = (0,) * 10


@dataclass(frozen=True)
class GameRules:
    """The rules of the full game. Defaults: 2 decks, S17, 3:2, double any two cards,
    DAS, up to 4 hands by splitting, no resplitting aces, one card to each split ace,
    no surrender, peek, CDZ- post-split strategy."""

    decks: int | float | str | None = None
    shoe: Counts | None = None
    h17: bool = False
    bj_pays: Any = field(default_factory=lambda: mpq(3, 2))
    double: Literal["any", "9-11", "10-11"] = "any"
    double_soft: bool = True
    das: bool = True
    split_hands: int = 4
    rsa: bool = False
    hit_split_aces: bool = False
    surrender: Literal["none", "late", "early"] = "none"
    hole_card: Literal["peek", "enhc"] = "peek"
    obo: bool = False
    split_strategy: Literal["cdz"] = "cdz"

    def __post_init__(self) -> None:
        if self.shoe is not None:
            if self.decks is not None:
                raise BjexactError("give a number of decks or a shoe, not both")
            object.__setattr__(self, "shoe", Shoe.of_counts(self.shoe).counts)
        else:
            object.__setattr__(self, "decks", DEFAULT_DECKS if self.decks is None else _parse_decks(self.decks))
        for name in ("h17", "double_soft", "das", "rsa", "hit_split_aces", "obo"):
            if not isinstance(getattr(self, name), bool):
                raise BjexactError(f"{name} must be True or False, not {getattr(self, name)!r}")
        try:
            bj_pays = as_rational(self.bj_pays)
        except (ValueError, TypeError, ZeroDivisionError):
            raise BjexactError(f"--bj-pays must be an exact fraction such as 3/2, not {self.bj_pays!r}") from None
        if bj_pays < 0:
            raise BjexactError(f"--bj-pays must not be negative ({self.bj_pays})")
        object.__setattr__(self, "bj_pays", bj_pays)
        _choice("--double", self.double, DOUBLE_RULES)
        _choice("--surrender", self.surrender, SURRENDER_RULES)
        _choice("--hole-card", self.hole_card, HOLE_CARD_RULES)
        _choice("--split-strategy", self.split_strategy, SPLIT_STRATEGIES)
        if self.split_hands not in (1, 2, 3, 4) or isinstance(self.split_hands, bool):
            raise BjexactError(f"--split-hands must be 1 (no splitting), 2, 3 or 4, not {self.split_hands!r}")
        if self.obo and self.hole_card != "enhc":
            raise BjexactError("--obo (original bets only) applies to --hole-card enhc only")
        if self.rsa and self.split_hands <= 2:
            raise BjexactError("--rsa (resplit aces) needs --split-hands 3 or 4")
        if self.surrender == "late" and self.hole_card == "enhc":
            raise BjexactError("late surrender comes after the dealer's peek: with --hole-card enhc use --surrender early")

    @property
    def infinite(self) -> bool:
        return self.shoe is None and self.decks == float("inf")

    def make_shoe(self) -> Shoe:
        if self.shoe is not None:
            return Shoe.of_counts(self.shoe)
        return Shoe.infinite() if self.infinite else Shoe.of_decks(int(self.decks))

    def dealer_rules(self) -> Rules:
        """The dealer's rules (for its outcome tables): naturals kept apart."""
        if self.shoe is not None:
            return Rules(shoe=self.shoe, h17=self.h17, naturals="separate")
        return Rules(decks=self.decks, h17=self.h17, naturals="separate")

    @property
    def excludes_natural(self) -> bool:
        """Whether a dealer natural costs the original bet only (peek, or enhc with obo)."""
        return self.hole_card == "peek" or self.obo

    def to_json(self) -> dict[str, Any]:
        return {
            "decks": None if self.shoe is not None else ("inf" if self.infinite else self.decks),
            "shoe": list(self.shoe) if self.shoe is not None else None,
            "h17": self.h17,
            "bj_pays": fraction_string(self.bj_pays),
            "double": self.double,
            "double_soft": self.double_soft,
            "das": self.das,
            "split_hands": self.split_hands,
            "rsa": self.rsa,
            "hit_split_aces": self.hit_split_aces,
            "surrender": self.surrender,
            "hole_card": self.hole_card,
            "obo": self.obo,
            "split_strategy": self.split_strategy,
        }

    def describe(self) -> str:
        if self.shoe is not None:
            shoe = "shoe " + ",".join(map(str, self.shoe))
        elif self.infinite:
            shoe = "infinite deck"
        else:
            shoe = f"{self.decks} deck{'s' if self.decks != 1 else ''}"
        parts = [shoe, "H17" if self.h17 else "S17", f"blackjack pays {fraction_string(self.bj_pays)}"]
        parts.append("double any two" if self.double == "any" else f"double {self.double}")
        if not self.double_soft:
            parts.append("no soft doubling")
        parts.append("DAS" if self.das else "no DAS")
        parts.append("no splitting" if self.split_hands == 1 else f"split to {self.split_hands} hands")
        if self.rsa:
            parts.append("RSA")
        if self.hit_split_aces:
            parts.append("hit split aces")
        if self.surrender != "none":
            parts.append(f"{self.surrender} surrender")
        parts.append("ENHC" + (" OBO" if self.obo else "") if self.hole_card == "enhc" else "peek")
        parts.append("CDZ-")
        return ", ".join(parts)


def _choice(flag: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise BjexactError(f"{flag} must be one of {', '.join(allowed)}, not {value!r}")


# --- card models -------------------------------------------------------------


class _Cards:
    """Draw and dealer probabilities given the cards removed (player's cards, extra pair cards).

    ``removed`` never includes the up-card; every method takes it separately.
    """

    def __init__(self, rules: GameRules):
        self.rules = rules
        self.shoe = rules.make_shoe()
        self.infinite = self.shoe.is_infinite
        self._dealer: dict[Any, tuple[mpq, ...]] = {}
        self._oracle = None if self.infinite else DealerOracle(self.shoe.counts, rules.h17)
        if self.infinite:
            rows = dealer_distributions(rules.dealer_rules())
            self._infinite_rows = {u: tuple(rows[u][o] for o in OUTCOMES) for u in rows}

    def unseen(self, removed: Counts, upcard: int) -> list[int]:
        left = [c - r for c, r in zip(self.shoe.counts, removed)]
        left[upcard - 1] -= 1
        return left

    def draws(self, removed: Counts, upcard: int) -> list[tuple[int, mpq]]:
        """(rank, probability) of the player's next card; empty when only the hole card is unseen."""
        if self.infinite:
            p = self.shoe.draw_probabilities()
            return [(r, p[r - 1]) for r in RANKS]
        left = self.unseen(removed, upcard)
        total = sum(left)
        if total <= 1:
            return []
        return [(r, mpq(n, total)) for r, n in zip(RANKS, left) if n > 0]

    def natural_chance(self, removed: Counts, upcard: int) -> mpq:
        """P(the dealer's hole card makes a natural | the cards seen)."""
        partner = natural_partner(upcard)
        if partner is None:
            return _ZERO
        if self.infinite:
            return self.shoe.draw_probabilities()[partner - 1]
        left = self.unseen(removed, upcard)
        return mpq(left[partner - 1], sum(left))

    def prefetch(self, removed_sets: list[Counts], upcard: int) -> None:
        """Compute the dealer's distributions for many removed sets in one batch."""
        if self.infinite:
            return
        wanted = [c for c in dict.fromkeys(removed_sets) if (c, upcard) not in self._dealer]
        if wanted:
            for cards, row in zip(wanted, self._oracle.distributions(wanted, upcard)):
                self._dealer[(cards, upcard)] = row

    def dealer(self, removed: Counts, upcard: int) -> tuple[mpq, ...]:
        """P(outcome | up-card, removed) for :data:`OUTCOMES`."""
        if self.infinite:
            return self._infinite_rows[upcard]
        key = (removed, upcard)
        row = self._dealer.get(key)
        if row is None:
            self.prefetch([removed], upcard)
            row = self._dealer[key]
        return row


def _stand_weights(total: int, natural_loses: bool) -> tuple[mpq, ...]:
    """The payoff of standing on ``total`` against each dealer outcome (:data:`OUTCOMES`)."""
    weights = []
    for outcome in OUTCOMES:
        if outcome == "bust":
            weights.append(_ONE)
        elif outcome == "blackjack":
            weights.append(-_ONE if natural_loses else _ZERO)
        else:
            dealer = int(outcome)
            weights.append(_ONE if total > dealer else _ZERO if total == dealer else -_ONE)
    return tuple(weights)


# --- the solver ----------------------------------------------------------------


def _cards_of(counts: Counts) -> tuple[int, ...]:
    return tuple(r for r in RANKS for _ in range(counts[r - 1]))


def _add(counts: Counts, rank: int) -> Counts:
    return counts[: rank - 1] + (counts[rank - 1] + 1,) + counts[rank:]


@dataclass(frozen=True)
class MoveValues:
    """The values (per unit initial bet) of the allowed moves of one two-card hand.

    ``w`` maps move -> W: E[payoff, no dealer natural] when a dealer natural costs the
    original bet only (peek, or ENHC with OBO), the plain expected value under ENHC;
    early surrender's W is its unconditional -1/2. ``natural``: P(dealer natural | the
    cards seen). ``peek``: the dealer checks first, so values are shown conditioned.
    """

    cards: tuple[int, ...]
    upcard: int
    w: Mapping[str, mpq]
    natural: mpq
    natural_costs_one: bool
    early_surrender: bool
    peek: bool

    def unconditional(self, move: str) -> mpq:
        """What the round is worth with this move, dealer naturals included."""
        value = self.w[move]
        if move == "surrender" and self.early_surrender:
            return value
        return value - self.natural if self.natural_costs_one else value

    @property
    def best(self) -> str:
        """The move of largest value; ties go to the earlier move of :data:`MOVES`."""
        return max(self.w, key=lambda m: (self.unconditional(m), -MOVES.index(m)))

    def value(self, move: str) -> mpq:
        """A move's value as the player weighs it: under peek with a ten or ace up conditioned
        on no dealer natural (early surrender, decided before the check, unconditional);
        otherwise unconditional."""
        if self.peek and self.natural and not (move == "surrender" and self.early_surrender):
            return self.w[move] / (1 - self.natural)
        return self.unconditional(move)

    @property
    def values(self) -> dict[str, mpq]:
        return {move: self.value(move) for move in self.w}

    @property
    def round_value(self) -> mpq:
        """The value of the dealt hand to the round: the best move, dealer naturals included."""
        return self.unconditional(self.best)


class _Solver:
    def __init__(self, rules: GameRules):
        self.rules = rules
        self.cards = _Cards(rules)
        self.natural_loses = not rules.excludes_natural
        self._stand_w = {t: _stand_weights(t, self.natural_loses) for t in range(4, 22)}
        self._cont: dict[tuple[Counts, int], tuple[mpq, mpq | None]] = {}
        self._split_cont: dict[tuple[Counts, Counts, int], mpq] = {}
        self._keyed = self.cards.infinite

    # keys: for the infinite deck a hand's values depend on (total, soft) only
    def _key(self, counts: Counts) -> Any:
        if self._keyed:
            value = hand_value(_cards_of(counts))
            return (value.total, value.soft)
        return counts

    def scale(self, removed: Counts, upcard: int) -> mpq:
        """The weight of a payoff settled before the dealer plays (a bust): P(no natural) when
        a dealer natural is left out, else 1."""
        if self.natural_loses:
            return _ONE
        return 1 - self.cards.natural_chance(removed, upcard)

    def stand(self, removed: Counts, total: int, upcard: int) -> mpq:
        row = self.cards.dealer(removed, upcard)
        weights = self._stand_w[total] if total >= 4 else self._stand_w[4]
        return sum((w * p for w, p in zip(weights, row) if w and p), _ZERO)

    def continuation(self, hand: Counts, upcard: int) -> tuple[mpq, mpq | None]:
        """(stand, hit) W of an unsplit hand that may only stand or hit from here."""
        key = (self._key(hand), upcard)
        found = self._cont.get(key)
        if found is not None:
            return found
        value = hand_value(_cards_of(hand))
        stand = self.stand(hand, value.total, upcard)
        hit = self._hit(hand, upcard, _NO_CARDS, lambda new: max(v for v in self.continuation(new, upcard) if v is not None))
        self._cont[key] = (stand, hit)
        return stand, hit

    def _hit(self, hand: Counts, upcard: int, extra: Counts, then) -> mpq | None:
        removed = add_counts(hand, extra)
        draws = self.cards.draws(removed, upcard)
        if not draws:
            return None
        total = _ZERO
        for rank, p in draws:
            new = _add(hand, rank)
            if hand_value(_cards_of(new)).bust:
                total -= p * self.scale(add_counts(new, extra), upcard)
            else:
                total += p * then(new)
        return total

    def double(self, hand: Counts, upcard: int, extra: Counts = _NO_CARDS) -> mpq | None:
        def stand_after(new: Counts) -> mpq:
            return self.stand(add_counts(new, extra), hand_value(_cards_of(new)).total, upcard)

        one_card = self._hit(hand, upcard, extra, stand_after)
        return None if one_card is None else 2 * one_card

    def may_double(self, hand: Counts) -> bool:
        value = hand_value(_cards_of(hand))
        if value.soft and not self.rules.double_soft:
            return False
        if self.rules.double == "9-11":
            return 9 <= value.total <= 11
        if self.rules.double == "10-11":
            return 10 <= value.total <= 11
        return True

    def may_split(self, cards: tuple[int, int]) -> bool:
        return cards[0] == cards[1] and self.rules.split_hands >= 2

    def moves(self, cards: tuple[int, int], upcard: int) -> MoveValues:
        """The W of every allowed move of an unsplit two-card hand."""
        hand = counts_of(cards)
        stand, hit = self.continuation(hand, upcard)
        moves: dict[str, mpq] = {"stand": stand}
        if hit is not None:
            moves["hit"] = hit
        if self.may_double(hand):
            value = self.double(hand, upcard)
            if value is not None:
                moves["double"] = value
        if self.may_split(cards):
            moves["split"] = self.split(cards[0], upcard)
        if self.rules.surrender != "none":
            early = self.rules.surrender == "early"
            moves["surrender"] = -_HALF if early else -_HALF * self.scale(hand, upcard)
        return MoveValues(cards, upcard, moves, self.cards.natural_chance(hand, upcard),
                          self.rules.excludes_natural, self.rules.surrender == "early",
                          self.rules.hole_card == "peek")

    # --- splits (CDZ-) ---

    def split(self, pair: int, upcard: int) -> mpq:
        if self.rules.split_hands > 2 and (pair != ACE or self.rules.rsa) and not self.cards.infinite:
            raise BjexactError("resplitting (--split-hands 3 or 4) is not yet exact for finite shoes: "
                               "use --split-hands 2")
        if self.rules.split_hands > 2 and (pair != ACE or self.rules.rsa):
            return self._split_infinite(pair, upcard)
        extra = counts_of([pair])
        return 2 * self._split_hand(counts_of([pair]), extra, upcard)

    def _split_hand(self, hand: Counts, extra: Counts, upcard: int) -> mpq:
        """W of one split hand holding ``hand`` (the other hands' pair cards ``extra`` removed)."""
        removed = add_counts(hand, extra)
        draws = self.cards.draws(removed, upcard)
        if not draws:
            raise BjexactError("the shoe is too small to deal the split hands")
        total = _ZERO
        for rank, p in draws:
            total += p * self._split_two_cards(_add(hand, rank), extra, upcard)
        return total

    def _split_two_cards(self, hand: Counts, extra: Counts, upcard: int) -> mpq:
        value = hand_value(_cards_of(hand))
        removed = add_counts(hand, extra)
        aces = counts_of([ACE]) == extra
        if value.total == 21 or (aces and not self.rules.hit_split_aces):
            return self.stand(removed, value.total, upcard)
        # CDZ-: the unsplit hand's values choose among the moves allowed after a split
        stand, hit = self.continuation(hand, upcard)
        options = {"stand": stand}
        if hit is not None:
            options["hit"] = hit
        if self.rules.das and self.may_double(hand):
            double = self.double(hand, upcard)
            if double is not None:
                options["double"] = double
        move = max(options, key=lambda m: (options[m], -MOVES.index(m)))
        if move == "stand":
            return self.stand(removed, value.total, upcard)
        if move == "double":
            return self.double(hand, upcard, extra)  # type: ignore[return-value]
        return self._split_continue_hit(hand, extra, upcard)

    def _split_continue_hit(self, hand: Counts, extra: Counts, upcard: int) -> mpq:
        result = self._hit(hand, upcard, extra, lambda new: self._split_continuation(new, extra, upcard))
        assert result is not None
        return result

    def _split_continuation(self, hand: Counts, extra: Counts, upcard: int) -> mpq:
        key = (self._key(hand), extra, upcard)
        found = self._split_cont.get(key)
        if found is not None:
            return found
        stand, hit = self.continuation(hand, upcard)
        if hit is not None and hit > stand:
            value = self._split_continue_hit(hand, extra, upcard)
        else:
            value = self.stand(add_counts(hand, extra), hand_value(_cards_of(hand)).total, upcard)
        self._split_cont[key] = value
        return value

    def _split_infinite(self, pair: int, upcard: int) -> mpq:
        """Infinite deck with resplits: hands are independent; only the number of hands is random."""
        p = self.cards.shoe.draw_probabilities()
        q = p[pair - 1]
        hand = counts_of([pair])
        non_pair = _ZERO
        for rank, chance in self.cards.draws(_NO_CARDS, upcard):
            if rank != pair:
                non_pair += chance * self._split_two_cards(_add(hand, rank), hand, upcard)
        pair_pair = self._split_two_cards(_add(hand, pair), hand, upcard)
        # Hands still to receive a second card, hands in all: expected value of all of them.
        limit = self.rules.split_hands

        def value(waiting: int, hands: int) -> mpq:
            if waiting == 0:
                return _ZERO
            if hands < limit:  # a pair card starts a new hand, which waits too
                return q * value(waiting + 1, hands + 1) + non_pair + (1 - q) * value(waiting - 1, hands)
            return waiting * (non_pair + q * pair_pair)

        return value(2, 2)

    # --- the round ---

    def prefetch(self, upcard: int) -> None:
        """Batch the dealer's distributions of every composition this up-card will ask about."""
        if self.cards.infinite:
            return
        shoe = self.cards.shoe.counts
        wanted: list[Counts] = []
        for hand in _hands_up_to_21(shoe, upcard):
            wanted.append(hand)
        if self.rules.split_hands >= 2:
            for pair in RANKS:
                if shoe[pair - 1] - (pair == upcard) >= 2:
                    extra = counts_of([pair])
                    for hand in _hands_up_to_21(shoe, upcard, start=(pair,), extra=extra):
                        wanted.append(add_counts(hand, extra))
        self.cards.prefetch(wanted, upcard)


def _hands_up_to_21(shoe: Counts, upcard: int, start: tuple[int, ...] = (), extra: Counts = _NO_CARDS) -> Iterator[Counts]:
    """Every multiset of two or more cards (containing ``start``) with a hard total of 21 or less
    that the shoe, less the up-card and ``extra``, can hold."""
    available = list(shoe)
    available[upcard - 1] -= 1
    for r in RANKS:
        available[r - 1] -= extra[r - 1]
    counts = [0] * 10
    for r in start:
        counts[r - 1] += 1
    if any(counts[i] > available[i] for i in range(10)):
        return

    def extend(rank_from: int, total: int) -> Iterator[Counts]:
        if sum(counts) >= 2:
            yield tuple(counts)
        for r in range(rank_from, 11):
            if total + r > 21:
                break
            if counts[r - 1] < available[r - 1]:
                counts[r - 1] += 1
                yield from extend(r, total + r)
                counts[r - 1] -= 1

    yield from extend(1, sum(start))  # cards added in rank order: each multiset once


@dataclass(frozen=True)
class GameSolution:
    """The exact value of the round under optimal composition-dependent play."""

    rules: GameRules
    hands: Mapping[tuple[int, int, int], MoveValues]  # (first <= second, upcard)
    by_upcard: Mapping[int, mpq]
    upcard_chance: Mapping[int, mpq]
    ev: mpq

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "ev": fraction_string(self.ev),
            "by_upcard": {rank_symbol(u): fraction_string(v) for u, v in self.by_upcard.items()},
        }


def _deal_chances(shoe: Shoe, upcard: int) -> Iterator[tuple[tuple[int, int], mpq]]:
    """P(player's two cards | up-card), first <= second."""
    if shoe.is_infinite:
        p = shoe.draw_probabilities()
        for a in RANKS:
            for b in RANKS[a - 1:]:
                yield (a, b), p[a - 1] * p[b - 1] * (1 if a == b else 2)
        return
    left = list(shoe.counts)
    left[upcard - 1] -= 1
    n = sum(left)
    for a in RANKS:
        for b in RANKS[a - 1:]:
            ways = left[a - 1] * (left[b - 1] - (a == b)) * (1 if a == b else 2)
            if ways > 0:
                yield (a, b), mpq(ways, n * (n - 1))


def solve_game(rules: GameRules) -> GameSolution:
    """Solve the round exactly: every two-card hand against every up-card, and the house edge."""
    solver = _Solver(rules)
    shoe = solver.cards.shoe
    hands: dict[tuple[int, int, int], MoveValues] = {}
    by_upcard: dict[int, mpq] = {}
    up_chance: dict[int, mpq] = {}
    up_p = shoe.draw_probabilities()
    for upcard in UPCARD_ORDER:
        if not up_p[upcard - 1]:
            continue
        solver.prefetch(upcard)
        value = _ZERO
        for cards, chance in _deal_chances(shoe, upcard):
            natural = hand_value(cards).total == 21
            if natural:
                p_nat = solver.cards.natural_chance(counts_of(cards), upcard)
                value += chance * (1 - p_nat) * rules.bj_pays
                continue
            moves = solver.moves(cards, upcard)
            hands[(cards[0], cards[1], upcard)] = moves
            value += chance * moves.round_value
        by_upcard[upcard] = value
        up_chance[upcard] = up_p[upcard - 1]
    ev = sum((up_chance[u] * v for u, v in by_upcard.items()), _ZERO)
    return GameSolution(rules, hands, by_upcard, up_chance, ev)
