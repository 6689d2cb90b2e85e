"""Side bets by brute force: every card order of a tiny suited shoe, dealt as at the table.

Written apart from :mod:`bjexact.sidebets` (it imports nothing from bjexact): a card is a
(face, suit) pair, face 1 the ace .. 13 the king, suit 0..3 spades, hearts, diamonds, clubs. A
round deals the player's first card, the up-card, the player's second card and the hole card,
then (optionally) the player draws by a fixed rule, then the dealer draws to 17 (hitting soft 17
under H17). Each next card is any card left, with its share of the cards left; identical cards
(same face and suit) are one branch with their count. The result is every round's exact chance.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import perm

Card = tuple[int, int]
FACES = {"A": 1, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 11)}}
SUITS = {"S": 0, "H": 1, "D": 2, "C": 3}


def card(text: str) -> Card:
    return FACES[text[:-1].upper()], SUITS[text[-1].upper()]


def value(c: Card) -> int:
    return min(c[0], 10)


def total_and_soft(cards: Iterable[Card]) -> tuple[int, bool]:
    """Blackjack's ace rule: one ace counts 11 when that does not go over 21."""
    hard = sum(value(c) for c in cards)
    has_ace = any(c[0] == 1 for c in cards)
    if has_ace and hard + 10 <= 21:
        return hard + 10, True
    return hard, False


@dataclass(frozen=True)
class Round:
    """What the events read of one dealt round: the player's two cards (in card order), the up-card,
    and of the dealer's final hand its cards' count, the last card's value (``None`` when the shoe ran
    out: ``exhausted``), its total, whether it is a natural, the values, suits and colours of its cards."""

    player: tuple[Card, Card]
    upcard: Card
    cards: int
    last: int | None
    hard: int
    ace: bool
    values: frozenset[int]
    suits: frozenset[int]
    colours: frozenset[bool]

    @property
    def exhausted(self) -> bool:
        return self.last is None

    @property
    def dealer_total(self) -> int:
        return self.hard + 10 if self.ace and self.hard + 10 <= 21 else self.hard


def dealer_draws(total: int, soft: bool, h17: bool) -> bool:
    return total < 17 or (h17 and total == 17 and soft)


@dataclass(frozen=True)
class Rounds:
    """Every round of a shoe: ``weights[round] / denominator`` is its exact chance."""

    weights: dict[Round, int]
    denominator: int


def rounds(shoe: Iterable[str], h17: bool, player_hits_below: int = 0) -> Rounds:
    """Every round a shoe can deal with its exact chance; with ``player_hits_below`` the player
    draws (unseen) cards while the total of its cards is below it, before the dealer draws.

    A round of k cards dealt in one order has the chance (product of the counts of the cards taken,
    as they were left) / (n (n - 1) ... (n - k + 1)); all are brought to one denominator, that of
    the whole shoe dealt, so that chances add as integers.
    """
    ways: dict[tuple[tuple[Card, Card], Card, int, int | None, int, bool, int, int, int, int], int] = {}
    counted = Counter(card(c) for c in shoe)
    kinds = list(counted)
    left = [counted[c] for c in kinds]
    size = sum(left)
    scale = [perm(size - taken) for taken in range(size + 1)]  # (n - k)!: to the denominator n!

    # The dealer's draws from a state depend only on the cards left and its hard total and ace, so
    # they are enumerated once per such state (memoised): every card order of the draws, each
    # identical card one branch with its count, the orders ending alike summed. An ending is
    # (cards drawn, the last card's value: 0 for none drawn, None when the shoe ran out, hard
    # total, ace, values, suits, colours of the cards drawn as bit masks) -> ordered ways.
    endings: dict[tuple[tuple[int, ...], int, bool], dict[tuple, int]] = {}

    def draws_from(hard: int, ace: bool) -> dict[tuple, int]:
        state = (tuple(left), hard, ace)
        found = endings.get(state)
        if found is not None:
            return found
        total, soft = (hard + 10, True) if ace and hard + 10 <= 21 else (hard, False)
        found = {}
        if not dealer_draws(total, soft, h17):
            found[0, 0, hard, ace, 0, 0, 0] = 1
        elif not any(left):
            found[0, None, hard, ace, 0, 0, 0] = 1
        else:
            for k, c in enumerate(kinds):
                n = left[k]
                if n:
                    left[k] -= 1
                    v = value(c)
                    drawn = 1 << v, 1 << c[1], 1 << (c[1] in (1, 2))
                    for (m, last, h, a, vs, ss, cs), w in draws_from(hard + v, ace or v == 1).items():
                        key = (m + 1, v if last == 0 else last, h, a, vs | drawn[0], ss | drawn[1], cs | drawn[2])
                        found[key] = found.get(key, 0) + w * n
                    left[k] += 1
        endings[state] = found
        return found

    def dealer(player: tuple[Card, Card], up: Card, last: int, hard: int, ace: bool,
               values: int, suits: int, colours: int, taken: int, w: int) -> None:
        for (m, end, h, a, vs, ss, cs), u in draws_from(hard, ace).items():
            key = (player, up, 2 + m, last if end == 0 else end, h, a, values | vs, suits | ss, colours | cs,
                   taken + m)
            ways[key] = ways.get(key, 0) + w * u

    # The player's draws likewise: from the cards left and the player's hard total and ace, the
    # cards left when it stops -> ordered ways (the dealer then draws from them).
    stops: dict[tuple[tuple[int, ...], int, bool], dict[tuple[int, ...], int]] = {}

    def player_draws(hard: int, ace: bool) -> dict[tuple[int, ...], int]:
        state = (tuple(left), hard, ace)
        found = stops.get(state)
        if found is not None:
            return found
        found = {}
        if (hard + 10 if ace and hard + 10 <= 21 else hard) >= player_hits_below or not any(left):
            found[state[0]] = 1
        else:
            for k, c in enumerate(kinds):
                n = left[k]
                if n:
                    left[k] -= 1
                    v = value(c)
                    for after, w in player_draws(hard + v, ace or v == 1).items():
                        found[after] = found.get(after, 0) + w * n
                    left[k] += 1
        stops[state] = found
        return found

    def deal(dealt: list[Card], w: int) -> None:
        if len(dealt) == 4:  # player, up-card, player, hole card
            player = (dealt[0], dealt[2])  # in card order (see below)
            up, hole = dealt[1], dealt[3]
            dealt_left = left[:]
            for after, u in player_draws(value(player[0]) + value(player[1]),
                                         1 in (value(player[0]), value(player[1]))).items():
                left[:] = after
                dealer(player, up, value(hole), value(up) + value(hole), 1 in (value(up), value(hole)),
                       1 << value(up) | 1 << value(hole), 1 << up[1] | 1 << hole[1],
                       1 << (up[1] in (1, 2)) | 1 << (hole[1] in (1, 2)), size - sum(after), w * u)
            left[:] = dealt_left
            return
        for k, c in enumerate(kinds):
            n = left[k]
            if n:
                # the player's two cards in either order deal the same round with the same ways (a
                # product of falling counts, whatever the order) and leave the same cards: the order
                # with the smaller card first is dealt, counted twice when the cards differ
                twice = 1
                if len(dealt) == 2:
                    if c < dealt[0]:
                        continue
                    twice = 1 if c == dealt[0] else 2
                left[k] -= 1
                dealt.append(c)
                deal(dealt, w * n * twice)
                dealt.pop()
                left[k] += 1

    deal([], 1)
    found: dict[Round, int] = {}
    for (player, up, n_cards, last, hard, ace, values, suits, colours, taken), w in ways.items():
        r = Round(player, up, n_cards, last, hard, ace, _bits(values), _bits(suits), _colours(colours))
        found[r] = found.get(r, 0) + w * scale[taken]
    return Rounds(found, perm(size))


@cache  # a few hundred masks, read for every round
def _bits(mask: int) -> frozenset[int]:
    return frozenset(b for b in range(mask.bit_length()) if mask >> b & 1)


@cache
def _colours(mask: int) -> frozenset[bool]:
    return frozenset(bool(b) for b in _bits(mask))


# --- the events, as the brute force reads them -------------------------------------------------------

def _pair(a: Card, b: Card) -> str | None:
    if a[0] != b[0]:
        return None
    if a[1] == b[1]:
        return "perfect"
    return "coloured" if (a[1] in (1, 2)) == (b[1] in (1, 2)) else "mixed"


def poker(cards: list[Card]) -> str:
    return _poker(tuple(cards))


@cache  # one reading per three cards (read for every round)
def _poker(cards: tuple[Card, ...]) -> str:
    faces = sorted(c[0] for c in cards)
    flush = len({c[1] for c in cards}) == 1
    if len(set(faces)) == 1:
        return "suited-trips" if flush else "trips"
    straight = len(set(faces)) == 3 and (faces[2] - faces[0] == 2 or faces == [1, 12, 13])
    if straight and flush:
        return "straight-flush"
    if straight:
        return "straight"
    if flush:
        return "flush"
    return "pair" if len(set(faces)) == 2 else "high-card"


def dealer_natural(r: Round) -> bool:
    return r.cards == 2 and r.values == {1, 10}


def dealer_bust(r: Round) -> bool:
    return not r.exhausted and r.dealer_total > 21


def features(r: Round) -> dict[str, object]:
    """Every event of the vocabulary for one round, computed here from the cards."""
    bust = dealer_bust(r)
    return {
        **_first_card_features(r.player, r.upcard),
        "dealer.bust": bust,
        "dealer.total": None if bust or r.exhausted else r.dealer_total,
        "dealer.natural": dealer_natural(r),
        "dealer.cards": r.cards,
        "dealer.last_card": r.last,
        "dealer.all_value": next(iter(r.values)) if len(r.values) == 1 else None,
        "dealer.suited": len(r.suits) == 1,
        "dealer.one_colour": len(r.colours) == 1,
    }


@cache  # the events of the player's cards and the up-card: a few thousand such deals make every round
def _first_card_features(player: tuple[Card, Card], up: Card) -> dict[str, object]:
    a, b = player
    total, soft = total_and_soft([a, b])
    return {
        "hand.pair": _pair(a, b),
        "hand.total": total,
        "hand.total_aces_one": value(a) + value(b),
        "hand.soft": soft,
        "hand.natural": sorted((value(a), value(b))) == [1, 10],
        "hand.suited": a[1] == b[1],
        "hand.same_colour": (a[1] in (1, 2)) == (b[1] in (1, 2)),
        "hand.identical": a == b,
        "upcard.value": value(up),
        "upcard.rank": up[0],
        "upcard.suit": up[1],
        "upcard.colour": up[1] in (1, 2),
        "three.hand": poker([a, b, up]),
        "match.suited": sum(c == up for c in (a, b)),
        "match.rank_only": sum(c[0] == up[0] and c[1] != up[1] for c in (a, b)),
    }


def chance_of(found: Rounds, event: Callable[[Round], bool], given: Callable[[Round], bool] = lambda r: True
              ) -> Fraction:
    """P(event | given) over the rounds."""
    total = sum(w for r, w in found.weights.items() if given(r))
    return Fraction(sum(w for r, w in found.weights.items() if given(r) and event(r)), total)


# --- the built-in pay tables, written again from the rules of each bet -------------------------------

_frac = cache(Fraction)  # the few results, made once (every round is paid)


def buster(r: Round, bonus: bool = False) -> Fraction:
    if not dealer_bust(r):
        return _frac(-1)
    n = r.cards
    nat = sorted(value(c) for c in r.player) == [1, 10]
    if bonus:
        table = {3: 2, 4: 2, 5: 4, 6: 18, 7: 800 if nat else 50}
        return _frac(table.get(n, 2000 if nat else 250))
    return _frac({3: 2, 4: 2, 5: 4, 6: 12, 7: 50}.get(n, 250))


def bust(r: Round) -> Fraction:
    return _frac(5, 2) if dealer_bust(r) else _frac(-1)


def bust_it(r: Round) -> Fraction:
    if not dealer_bust(r) or r.cards != 3:
        return _frac(-1)
    if r.values == {8}:
        if len(r.suits) == 1:
            return _frac(200)
        if len(r.colours) == 1:
            return _frac(50)
    assert r.last is not None
    return _frac({6: 15, 7: 9, 8: 7, 9: 5, 10: 3}[r.last])


def bet_the_bust(r: Round) -> Fraction:
    if not dealer_bust(r):
        return _frac(-1)
    return {1: _frac(7, 2), 2: _frac(3, 2), 3: _frac(3, 2), 4: _frac(1), 5: _frac(1), 6: _frac(1),
            7: _frac(5, 2)}.get(value(r.upcard), _frac(3))


def twenty_one_plus_three(r: Round, suited_trips: bool = False) -> Fraction:
    hand = poker([*r.player, r.upcard])
    if suited_trips:
        table = {"suited-trips": 100, "straight-flush": 35, "trips": 33, "straight": 10, "flush": 5}
        return _frac(table.get(hand, -1))
    return _frac(9 if hand in ("suited-trips", "straight-flush", "trips", "straight", "flush") else -1)


def perfect_pairs(r: Round) -> Fraction:
    return _frac({"perfect": 25, "coloured": 12, "mixed": 6}.get(_pair(*r.player) or "", -1))


def lucky_ladies(r: Round) -> Fraction:
    a, b = r.player
    total, _ = total_and_soft([a, b])
    if a == b == (12, 1):
        return _frac(1000 if dealer_natural(r) else 125)
    if total != 20:
        return _frac(-1)
    if a == b:
        return _frac(19)
    return _frac(9 if a[1] == b[1] else 4)


def match_the_dealer(r: Round) -> Fraction:
    up = r.upcard
    paid = sum(19 if c == up else 4 for c in r.player if c[0] == up[0])
    return _frac(paid) if paid else _frac(-1)


def over_under(r: Round, over: bool) -> Fraction:
    points = value(r.player[0]) + value(r.player[1])
    wins = points > 13 if over else points < 13
    return _frac(1 if wins else -1)


PAY_TABLES: dict[str, Callable[[Round], Fraction]] = {
    "buster": buster,
    "buster-natural": lambda r: buster(r, bonus=True),
    "bust": bust,
    "bust-it": bust_it,
    "bet-the-bust": bet_the_bust,
    "21+3": twenty_one_plus_three,
    "21+3-suited-trips": lambda r: twenty_one_plus_three(r, suited_trips=True),
    "perfect-pairs": perfect_pairs,
    "lucky-ladies": lucky_ladies,
    "match-the-dealer": match_the_dealer,
    "under-13": lambda r: over_under(r, over=False),
    "over-13": lambda r: over_under(r, over=True),
}


def expected(found: Rounds, pays: Callable[[Round], Fraction], given: Callable[[Round], bool] = lambda r: True
             ) -> Fraction:
    """E[net result | given] of a bet paying ``pays`` (to 1, -1 a loss): the rounds' weights are summed
    as integers by result, then each result is weighted by its sum."""
    total = 0
    by_result: dict[tuple[int, int], int] = {}
    for r, w in found.weights.items():
        if given(r):
            total += w
            result = pays(r)
            key = result.numerator, result.denominator
            by_result[key] = by_result.get(key, 0) + w
    return sum((Fraction(n, d) * w for (n, d), w in by_result.items()), Fraction(0)) / total
