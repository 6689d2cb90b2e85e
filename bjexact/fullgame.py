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
from functools import lru_cache
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


@dataclass(frozen=True)
class Gone:
    """Cards that have left the shoe besides a hand's own cards and the up-card.

    ``extra``: seen cards (the other split hands' pair cards). ``hidden`` cards not
    of rank ``pair`` have gone too, each such set equally likely (the second cards
    of other split hands, which were not pair cards); see :class:`DealerOracle`.
    """

    extra: Counts = (0,) * 10
    pair: int = 0
    hidden: int = 0

    @property
    def key(self) -> tuple[int, int] | None:
        return (self.pair, self.hidden) if self.hidden else None


NOTHING_GONE = Gone()


class _Cards:
    """Draw and dealer probabilities given the cards gone: a hand's cards, :class:`Gone`.

    ``removed`` (the hand plus ``gone.extra``) never includes the up-card; every
    method takes it separately. The infinite deck ignores what is gone.
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

    def chances(self, removed: Counts, upcard: int, gone: Gone) -> list[mpq]:
        """P(an unseen card has rank r), r = A..T (the next card drawn, or the hole card)."""
        if self.infinite:
            return list(self.shoe.draw_probabilities())
        left = self.unseen(removed, upcard)
        n = sum(left)
        j = gone.hidden
        if not j:
            return [mpq(c, n) for c in left]
        others = n - left[gone.pair - 1]
        if others < j:
            raise BjexactError("the shoe is too small to deal the split hands")
        return [mpq(c, n - j) if r == gone.pair else mpq(c * (others - j), others * (n - j))
                for r, c in zip(RANKS, left)]

    def draws(self, removed: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> list[tuple[int, mpq]]:
        """(rank, probability) of the player's next card; empty when only the hole card is unseen."""
        if not self.infinite and sum(self.unseen(removed, upcard)) - gone.hidden <= 1:
            return []
        return [(r, p) for r, p in zip(RANKS, self.chances(removed, upcard, gone)) if p]

    def natural_chance(self, removed: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> mpq:
        """P(the dealer's hole card makes a natural | the cards seen)."""
        partner = natural_partner(upcard)
        if partner is None:
            return _ZERO
        return self.chances(removed, upcard, gone)[partner - 1]

    def prefetch(self, removed_sets: list[Counts], upcard: int, gone: Gone = NOTHING_GONE) -> None:
        """Compute the dealer's distributions for many removed sets in one batch."""
        if self.infinite:
            return
        hidden = gone.key
        wanted = [c for c in dict.fromkeys(removed_sets) if (c, upcard, hidden) not in self._dealer]
        for cards, row in zip(wanted, self._oracle.distributions(wanted, upcard, hidden)):
            self._dealer[(cards, upcard, hidden)] = row

    def dealer(self, removed: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> tuple[mpq, ...]:
        """P(outcome | up-card, removed) for :data:`OUTCOMES`."""
        if self.infinite:
            return self._infinite_rows[upcard]
        key = (removed, upcard, gone.key)
        row = self._dealer.get(key)
        if row is None:
            self.prefetch([removed], upcard, gone)
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


@lru_cache(maxsize=None)
def _value(counts: Counts) -> HandValue:
    """The value of a hand given by its counts (the ace rule of :mod:`bjexact.hand`)."""
    return hand_value(_cards_of(counts))


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
    """Memoised exact values for one rule set. W values (see :class:`MoveValues`)."""

    def __init__(self, rules: GameRules):
        self.rules = rules
        self.cards = _Cards(rules)
        self.natural_loses = not rules.excludes_natural
        self._stand_w = {t: _stand_weights(t, self.natural_loses) for t in range(4, 22)}
        self._cont: dict[Any, tuple[mpq, mpq | None]] = {}
        self._split_cont: dict[Any, mpq] = {}

    def _key(self, hand: Counts) -> Any:
        """Memo key of a hand: for the infinite deck its values depend on (total, soft) only."""
        if self.cards.infinite:
            value = _value(hand)
            return (value.total, value.soft)
        return hand

    def scale(self, hand: Counts, upcard: int, gone: Gone) -> mpq:
        """The weight of a payoff settled before the dealer plays (a bust): P(no natural) when
        a dealer natural is left out, else 1."""
        if self.natural_loses:
            return _ONE
        return 1 - self.cards.natural_chance(add_counts(hand, gone.extra), upcard, gone)

    def stand(self, hand: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> mpq:
        row = self.cards.dealer(add_counts(hand, gone.extra), upcard, gone)
        weights = self._stand_w[max(_value(hand).total, 4)]
        return sum((w * p for w, p in zip(weights, row) if w and p), _ZERO)

    def _hit(self, hand: Counts, upcard: int, gone: Gone, then) -> mpq | None:
        """W of drawing one card, then ``then(new hand)``; a bust loses the stake at once."""
        draws = self.cards.draws(add_counts(hand, gone.extra), upcard, gone)
        if not draws:
            return None
        total = _ZERO
        for rank, p in draws:
            new = _add(hand, rank)
            if _value(new).bust:
                total -= p * self.scale(new, upcard, gone)
            else:
                total += p * then(new)
        return total

    def continuation(self, hand: Counts, upcard: int) -> tuple[mpq, mpq | None]:
        """(stand, hit) W of an unsplit hand that may only stand or hit from here."""
        key = (self._key(hand), upcard)
        found = self._cont.get(key)
        if found is None:
            stand = self.stand(hand, upcard)
            hit = self._hit(hand, upcard, NOTHING_GONE, lambda new: _best(self.continuation(new, upcard)))
            found = self._cont[key] = (stand, hit)
        return found

    def double(self, hand: Counts, upcard: int, gone: Gone = NOTHING_GONE) -> mpq | None:
        one_card = self._hit(hand, upcard, gone, lambda new: self.stand(new, upcard, gone))
        return None if one_card is None else 2 * one_card

    def may_double(self, hand: Counts) -> bool:
        value = _value(hand)
        if value.soft and not self.rules.double_soft:
            return False
        if self.rules.double == "9-11":
            return 9 <= value.total <= 11
        if self.rules.double == "10-11":
            return 10 <= value.total <= 11
        return True

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
        if cards[0] == cards[1] and self.rules.split_hands >= 2:
            moves["split"] = self.split(cards[0], upcard)
        if self.rules.surrender != "none":
            early = self.rules.surrender == "early"
            moves["surrender"] = -_HALF if early else -_HALF * self.scale(hand, upcard, NOTHING_GONE)
        return MoveValues(cards, upcard, moves, self.cards.natural_chance(hand, upcard),
                          self.rules.excludes_natural, self.rules.surrender == "early",
                          self.rules.hole_card == "peek")

    # --- splits (CDZ-) ---

    def split_limit(self, pair: int) -> int:
        """The most hands splitting ``pair`` can make (aces are resplit only with RSA)."""
        return self.rules.split_hands if pair != ACE or self.rules.rsa else min(self.rules.split_hands, 2)

    def split(self, pair: int, upcard: int) -> mpq:
        """W of splitting ``pair``: the sum of the split hands' values.

        Seen in this order (which leaves every value unchanged, see the module
        docstring): first the hands receive their second cards, a pair card starting
        a new hand while fewer than the most hands are on the table; then each hand
        is played. Until the limit is reached a second card is known not to be a pair
        card; once it is, the waiting hands' second cards are plain draws. A pattern
        (``hands``, ``b`` hands given a non-pair card before the limit, ``waiting`` at
        the limit) has an exact chance. Given it, one hand's value depends on its own
        cards, the other hands' first cards (pair cards, seen) and the others' ``b``
        known-not-pair second cards (otherwise unknown: :class:`Gone`); the plain
        draws of other hands are uniform removals, which change nothing.
        """
        total = _ZERO
        for chance, hands, b, waiting in self._split_patterns(pair, upcard):
            extra = counts_of([pair] * (hands - 1))
            if b:  # a hand whose second card x is not a pair card; b - 1 others like it, unknown
                gone = Gone(extra, pair, b - 1)
                chances = self.cards.chances(add_counts(extra, counts_of([pair])), upcard, gone)
                others = 1 - chances[pair - 1]
                value = sum((c / others * self._split_two_cards(counts_of([pair, x]), upcard, gone)
                             for x, c in zip(RANKS, chances) if x != pair and c), _ZERO)
                total += chance * b * value
            if waiting:  # a hand that draws its second card once no more hands can be made
                gone = Gone(extra, pair, b)
                chances = self.cards.chances(add_counts(extra, counts_of([pair])), upcard, gone)
                value = sum((c * self._split_two_cards(counts_of([pair, x]), upcard, gone)
                             for x, c in zip(RANKS, chances) if c), _ZERO)
                total += chance * waiting * value
        return total

    def _split_patterns(self, pair: int, upcard: int) -> list[tuple[mpq, int, int, int]]:
        """(chance, hands, b, waiting) of how the split hands' second cards fall, up to the limit."""
        limit = self.split_limit(pair)
        if self.cards.infinite:
            p_pair_always = self.cards.shoe.draw_probabilities()[pair - 1]
        else:
            left = self.cards.unseen(counts_of([pair, pair]), upcard)
            pairs_left, unseen = left[pair - 1], sum(left)
        found: list[tuple[mpq, int, int, int]] = []
        pending = [(_ONE, 2, 2, 0)]  # chance, waiting, hands, b
        while pending:
            chance, waiting, hands, b = pending.pop()
            if not waiting or hands == limit:
                found.append((chance, hands, b, waiting))
                continue
            if self.cards.infinite:
                p_pair = p_pair_always
            else:
                drawn_pairs = hands - 2
                if unseen - drawn_pairs - b <= 1:
                    raise BjexactError("the shoe is too small to deal the split hands")
                p_pair = mpq(pairs_left - drawn_pairs, unseen - drawn_pairs - b)
            if p_pair:
                pending.append((chance * p_pair, waiting + 1, hands + 1, b))
            if p_pair != 1:
                pending.append((chance * (1 - p_pair), waiting - 1, hands, b + 1))
        return found

    def _split_two_cards(self, hand: Counts, upcard: int, gone: Gone) -> mpq:
        """W of a split hand once it has its second card (and cannot be resplit)."""
        value = _value(hand)
        if value.total == 21 or (gone.pair == ACE and not self.rules.hit_split_aces):
            return self.stand(hand, upcard, gone)
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
        if move == "double":
            return self.double(hand, upcard, gone)  # type: ignore[return-value]
        if move == "hit":
            return self._split_hit(hand, upcard, gone)
        return self.stand(hand, upcard, gone)

    def _split_hit(self, hand: Counts, upcard: int, gone: Gone) -> mpq:
        result = self._hit(hand, upcard, gone, lambda new: self._split_continuation(new, upcard, gone))
        if result is None:
            raise BjexactError("the shoe is too small to deal the split hands")
        return result

    def _split_continuation(self, hand: Counts, upcard: int, gone: Gone) -> mpq:
        """W of a split hand of three or more cards, played as the unsplit hand would be."""
        key = (self._key(hand), upcard, gone)
        found = self._split_cont.get(key)
        if found is None:
            stand, hit = self.continuation(hand, upcard)
            if hit is not None and hit > stand:
                found = self._split_hit(hand, upcard, gone)
            else:
                found = self.stand(hand, upcard, gone)
            self._split_cont[key] = found
        return found

    # --- batching the dealer ---

    def prefetch(self, upcard: int) -> None:
        """Batch the dealer's distributions of every hand this up-card will ask about."""
        if self.cards.infinite:
            return
        shoe = self.cards.shoe.counts
        batches: dict[Gone, list[Counts]] = {NOTHING_GONE: list(_hands_up_to_21(shoe, upcard))}
        for pair in RANKS:
            if self.rules.split_hands < 2 or shoe[pair - 1] - (pair == upcard) < 2:
                continue
            for gones in self._split_gones(pair, upcard):
                for gone in gones:
                    hands = _hands_up_to_21(shoe, upcard, start=(pair,), extra=gone.extra)
                    key = Gone(pair=gone.pair, hidden=gone.hidden) if gone.hidden else NOTHING_GONE
                    batches.setdefault(key, []).extend(add_counts(h, gone.extra) for h in hands)
        for gone, removed in batches.items():
            self.cards.prefetch(removed, upcard, gone)

    def _split_gones(self, pair: int, upcard: int) -> Iterator[list[Gone]]:
        for _, hands, b, waiting in self._split_patterns(pair, upcard):
            extra = counts_of([pair] * (hands - 1))
            yield ([Gone(extra, pair, b - 1)] if b else []) + ([Gone(extra, pair, b)] if waiting else [])


def _best(values: tuple[mpq, mpq | None]) -> mpq:
    stand, hit = values
    return stand if hit is None or stand >= hit else hit


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
