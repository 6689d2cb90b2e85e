"""Counting a side bet: exact effects of removal, betting correlations, and the bet's value by true count.

Effects of removal (:func:`removal_effects`)
    The effect of a card ``x`` is the bet's exact expected result (per unit staked) for the shoe
    less one ``x`` minus that of the full shoe: each shoe less a card is analysed exactly
    (:func:`bjexact.sidebets.analyse`), with the bet's conventions (before the deal, or after the
    up-card conditioned as :mod:`bjexact.sidebets.analysis` says). A bet that sees faces (pairs,
    straights, named cards) has an effect for each of the 13 ranks A..K; a bet that sees only card
    values, one for each of A, 2, ..., 9, T. Where the bet sees suits, each card (rank and suit) has
    its own effect, and a rank's is the average of its cards' (weighted by their counts: the effect
    of removing a card of the rank, its suit unseen). Cards the bet cannot tell apart (two suits the
    pay table and the shoe treat alike) are analysed once.

    *Sum to zero.* Weighted by their counts the effects sum to exactly zero for every bet whose value
    is a plain expectation over the cards it is settled on: the average over a uniformly random
    removed card of the value without it is the value of the shoe with one unseen card burnt, and a
    burnt card changes no chance of the cards dealt after it (exchangeability). A bet after the
    up-card under peek is a ratio (its value is conditioned on no dealer natural), and a ratio's
    average is not the ratio of averages: there the sum is small but not zero, and is reported.

Betting correlation
    The correlation of a count's tags with the effects, over the shoe's ranks weighted by their
    cards (and, where the bet sees suits, over its cards: the count's tags are a rank's, the effects
    a card's). The *best linear count* tags each card with its own effect: its correlation is 1 by
    definition, so what is reported is how close the named systems (Hi-Lo, KO, ...) come, and a
    simple count that tags each rank +1, 0 or -1 by the sign of its effect.

Value by true count (:func:`value_by_count`)
    ``seen`` cards have been dealt before the round, unseen by the bet but counted by the player;
    the true count is the running count of those cards (an unbalanced count read as its balanced
    equivalent, the running count less the shoe's mean tag per card seen) per deck unseen,
    ``(N - seen) / 52``, floored (as :func:`bjexact.counting.betting.count_frequencies` floors it).
    The bet's value at a true count is its exact expected result averaged over **every**
    composition of the cards seen whose true count floors to it, each with its exact chance: no
    representative shoe is used. It is computed without listing the compositions, by
    exchangeability: the cards the bet is settled on (the first cards, or the dealer's final hand,
    with the player's two cards for a joint bet) may be dealt first and the ``seen`` cards after
    them, so ``P(those cards and running count c) = P(those cards) x P(running count c of seen
    cards drawn from the shoe less them)``. The second factor is exact
    (:func:`bjexact.counting.compositions.count_chances`) and depends only on how many of those
    cards each tag group lost, so the bet's outcomes are grouped by it. The round's other cards
    (other hands, unseen) change nothing, as in :mod:`bjexact.sidebets.analysis`. Bets after the
    up-card under peek are conditioned on no dealer natural at each count too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from math import floor

from ..core.cards import FiniteShoe, counts_of, rank_symbol
from ..core.numbers import fraction_string, mpq, parse_fraction
from ..errors import BjexactError
from ..sidebets.analysis import SideBetAnalysis, analyse
from ..sidebets.bets import Settled, SideBet
from ..sidebets.dealer import DealerHand, dealer_hands, suit_chances
from ..sidebets.events import Condition, Deal, Sees
from ..sidebets.first_cards import Layout, combinations, dealable_configurations
from ..sidebets.suits import CARDS, FACE_SYMBOLS, RED_SUITS, SUITS, Card, SuitedShoe
from .betting import weighted_correlation
from .compositions import count_chances
from .systems import SYSTEMS, CountSystem

__all__ = ["FACE_FEATURES", "SUIT_FEATURES", "sees_faces", "sees_suits", "CardEffect", "RankEffect",
           "CountCorrelation", "RemovalEffects", "removal_effects", "settled_cards", "SettledCards", "CountRow",
           "ValueByCount", "value_by_count", "parse_depth"]

FACE_FEATURES = frozenset({"hand.pair", "hand.identical", "hand.each_card", "hand.has_card", "upcard.rank",
                           "three.hand", "match.suited", "match.rank_only"})
"""The events that tell a ten from a jack, queen or king: a bet reading any of them has 13 ranks."""
SUIT_FEATURES = frozenset({"hand.pair", "hand.suited", "hand.same_colour", "hand.identical", "hand.each_card",
                           "hand.has_card", "upcard.suit", "upcard.colour", "three.hand", "match.suited",
                           "dealer.suited", "dealer.one_colour"})
"""The events that read suits or colours: a bet reading any of them has an effect per card."""
_COLOUR_FEATURES = frozenset({"hand.pair", "hand.same_colour", "upcard.colour", "dealer.one_colour"})


def _features(bet: SideBet) -> set[str]:
    return {c.feature.name for line in bet.lines for c in line.conditions}


def sees_faces(bet: SideBet) -> bool:
    """Whether the bet tells a ten, jack, queen and king apart (else it sees card values A..T)."""
    return bool(_features(bet) & FACE_FEATURES)


def sees_suits(bet: SideBet) -> bool:
    """Whether the bet reads suits or colours."""
    return bool(_features(bet) & SUIT_FEATURES)


def _rank_of(card: Card, faces: bool) -> int:
    return card.face if faces else card.value


def _rank_symbol(rank: int, faces: bool) -> str:
    return FACE_SYMBOLS[rank - 1] if faces else rank_symbol(rank)


# --- effects of removal -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardEffect:
    """One card (rank and suit): how many the shoe holds, and the exact change of the bet's expected
    result per unit staked when one of them leaves the shoe."""

    card: Card
    count: int
    effect: mpq


@dataclass(frozen=True)
class RankEffect:
    """A rank (a face 1..13, or a value 1..10 for bets that see values): its cards in the shoe and the
    effect of removing one of them (its suit unseen: the average of its cards' effects)."""

    rank: int
    symbol: str
    cards: int
    effect: mpq


@dataclass(frozen=True)
class CountCorrelation:
    """A count's betting correlation with the bet: over the ranks, and (bets that see suits) over the cards;
    ``None`` where the tags or the effects do not vary."""

    name: str
    tags: tuple[int, ...]
    over_ranks: float | None
    over_cards: float | None


@dataclass(frozen=True)
class RemovalEffects:
    """A bet's effects of removal for ``analysis``'s shoe: by rank (``faces``: 13 ranks, else the values
    A..T) and, where the bet sees ``suits``, by card; the counts' correlations; and ``weighted_sum``,
    the effects summed over the shoe's cards (zero where the module docstring says it is)."""

    analysis: SideBetAnalysis
    faces: bool
    suits: bool
    ranks: tuple[RankEffect, ...]
    cards: tuple[CardEffect, ...]
    correlations: tuple[CountCorrelation, ...]
    weighted_sum: mpq

    @property
    def sums_to_zero(self) -> bool:
        """Whether the bet's value is a plain expectation (not conditioned on no dealer natural), so that
        :attr:`weighted_sum` is zero by exchangeability."""
        return not (self.analysis.bet.settled is Settled.AFTER_UPCARD and self.analysis.peek)

    def to_json(self) -> dict[str, object]:
        """Exact values as "p/q" strings (keys: ``bjexact sidebet --help``)."""
        a = self.analysis
        return {
            "bet": a.bet.name, "decks": a.shoe.uniform, "h17": a.h17,
            "peek": a.peek if a.bet.settled is Settled.AFTER_UPCARD else None,
            "expected": fraction_string(a.expected), "ranks_are": "faces" if self.faces else "values",
            "ranks": [{"rank": r.symbol, "cards": r.cards, "effect": fraction_string(r.effect)} for r in self.ranks],
            "cards": [{"card": str(c.card), "count": c.count, "effect": fraction_string(c.effect)}
                      for c in self.cards],
            "weighted_sum": fraction_string(self.weighted_sum),
            "correlations": [{"count": c.name, "tags": list(c.tags), "over_ranks": c.over_ranks,
                              "over_cards": c.over_cards} for c in self.correlations],
        }


def _suit_signature(bet: SideBet, suit: int) -> tuple[object, ...]:
    """What the bet's conditions say of one suit: two suits of one signature (and of the same colour,
    where the bet sees colours) can be swapped without changing any line."""
    colours = bool(_features(bet) & _COLOUR_FEATURES)
    named: list[object] = [suit in RED_SUITS if colours else None]
    for line in bet.lines:
        for c in line.conditions:
            if c.feature.kind == "card":
                named.append(frozenset(card.face for card in c.allowed if isinstance(card, Card) and card.suit == suit))
            elif c.feature.kind == "suit":
                named.append(suit in c.allowed)
    return tuple(named)


def _card_classes(bet: SideBet, shoe: SuitedShoe) -> dict[Card, Card]:
    """Each card of the shoe -> the card whose removal it shares (analysed once): the same value for bets
    that see neither faces nor suits, the same face for bets blind to suits, and for the others a suit
    the bet and the shoe treat alike."""
    faces, suits = sees_faces(bet), sees_suits(bet)
    present = [card for card in CARDS if shoe.count(card)]
    if not suits:
        first: dict[int, Card] = {}
        return {card: first.setdefault(_rank_of(card, faces), card) for card in present}
    signature = {s: _suit_signature(bet, s) for s in SUITS}
    alike = {s: tuple(t for t in SUITS if signature[t] == signature[s]
                      and all(shoe.count(Card(f, s)) == shoe.count(Card(f, t)) for f in range(1, 14))) for s in SUITS}
    return {card: Card(card.face, alike[card.suit][0]) for card in present}


def removal_effects(bet: SideBet, shoe: SuitedShoe, *, h17: bool = False, peek: bool = True,
                    systems: Iterable[CountSystem] | None = None, symmetry: bool = True) -> RemovalEffects:
    """The exact effect of removing each card (see the module docstring) and the correlations of
    ``systems`` (default: every built-in count) with them. ``symmetry=False`` analyses every card
    of the shoe, even those the bet cannot tell apart (a check of the shortcut).

    >>> from bjexact.sidebets import built_in
    >>> effects = removal_effects(built_in("under-13"), SuitedShoe.of_decks(1))
    >>> [(r.symbol, r.effect) for r in effects.ranks][:3], effects.weighted_sum
    ([('A', mpq(-146,3315)), ('2', mpq(-146,3315)), ('3', mpq(-314,16575))], mpq(0,1))
    """
    if shoe.replacement:
        raise BjexactError("effects of removal need a finite shoe: a card removed changes nothing in the infinite deck")
    if shoe.size < 4:
        raise BjexactError("effects of removal need a shoe of at least 4 cards")
    full = analyse(bet, shoe, h17=h17, peek=peek)
    faces, suits = sees_faces(bet), sees_suits(bet)
    classes = _card_classes(bet, shoe) if symmetry else {card: card for card in CARDS if shoe.count(card)}
    if bet.first_cards_only:
        values = _first_card_values_less(bet, shoe)
    else:
        values = {rep: analyse(bet, shoe.less([rep]), h17=h17, peek=peek).expected for rep in set(classes.values())}
    cards = tuple(CardEffect(card, shoe.count(card), values[rep] - full.expected) for card, rep in classes.items())
    ranks = _rank_effects(cards, faces)
    weighted_sum = sum((c.count * c.effect for c in cards), mpq(0))
    chosen = list(systems) if systems is not None else [CountSystem(name, tags) for name, tags in SYSTEMS.items()]
    correlations = _correlations(chosen, ranks, cards if suits else (), faces)
    return RemovalEffects(full, faces, suits, ranks, cards if suits else (), correlations, weighted_sum)


def _first_card_values_less(bet: SideBet, shoe: SuitedShoe) -> dict[Card, mpq]:
    """The value of a first-card bet for the shoe less each of its cards, in one pass over the deals.

    By exchangeability a card removed before the deal is a card burnt after it: with ``N`` cards,
    ``k`` of them dealt to the bet and ``c`` copies of card ``x``, P(deal | one x gone) =
    P(deal) x (c - copies of x in the deal) / (N - k) / (c / N). So the value less ``x`` is
    ``N / (N - k) x (S - A_x / c)``, with ``S`` the full shoe's expected result and ``A_x`` the sum
    of chance x result x (copies of x) over the deals.
    """
    dealt = _first_card_deals(bet, shoe)
    k = len(dealt[0][1])
    expected = sum((p * result for p, _, result in dealt), mpq(0))
    weighted: dict[Card, mpq] = {}
    for p, cards, result in dealt:
        if result:
            for card in cards:
                weighted[card] = weighted.get(card, mpq(0)) + p * result
    n = shoe.size
    return {card: mpq(n, n - k) * (expected - weighted.get(card, mpq(0)) / shoe.count(card))
            for card in CARDS if shoe.count(card)}


def _first_card_deals(bet: SideBet, shoe: SuitedShoe) -> list[tuple[mpq, tuple[Card, ...], mpq]]:
    """Every configuration of the cards a first-card bet sees, in ``shoe``: (its chance, its cards, the
    bet's net result)."""
    layout = Layout(Sees.HAND in bet.needs, Sees.UPCARD in bet.needs)
    lines = [line.conditions for line in bet.lines]
    found: list[tuple[int, tuple[Card, ...], int]] = []
    for configuration in dealable_configurations(layout, shoe):
        ways = combinations(layout, configuration, shoe)
        if not ways:
            continue
        cards = (*(configuration.hand.cards if configuration.hand else ()),
                 *((configuration.upcard,) if configuration.upcard else ()))
        found.append((ways, cards, _first_line(lines, Deal(configuration.hand, configuration.upcard))))
    total = sum(ways for ways, _, _ in found)
    if not total:
        raise BjexactError(f"the shoe ({shoe.size} cards) is too small to deal the cards the bet sees")
    return [(mpq(ways, total), cards, _result(bet, line)) for ways, cards, line in found]


def _rank_effects(cards: Sequence[CardEffect], faces: bool) -> tuple[RankEffect, ...]:
    by_rank: dict[int, list[CardEffect]] = {}
    for c in cards:
        by_rank.setdefault(_rank_of(c.card, faces), []).append(c)
    found = []
    for rank in sorted(by_rank):
        members = by_rank[rank]
        n = sum(c.count for c in members)
        found.append(RankEffect(rank, _rank_symbol(rank, faces), n,
                                sum((c.count * c.effect for c in members), mpq(0)) / n))
    return tuple(found)


def _sign(value: mpq) -> int:
    return (value > 0) - (value < 0)


def _correlations(systems: Sequence[CountSystem], ranks: Sequence[RankEffect], cards: Sequence[CardEffect],
                  faces: bool) -> tuple[CountCorrelation, ...]:
    """Each system's correlation, then the count of the effects' signs by rank (and by card), then the
    effects themselves (1: the best linear count)."""
    rank_weights = [mpq(r.cards) for r in ranks]
    rank_effects = [r.effect for r in ranks]
    card_weights = [mpq(c.count) for c in cards]
    card_effects = [c.effect for c in cards]

    def value_of(rank: int) -> int:
        return min(rank, 10) if faces else rank

    found = []
    for system in systems:
        rank_tags = [mpq(system.tags[value_of(r.rank) - 1]) for r in ranks]
        card_tags = [mpq(system.tags[c.card.value - 1]) for c in cards]
        found.append(CountCorrelation(system.name, tuple(system.tags), weighted_correlation(rank_tags, rank_effects,
                                                                                            rank_weights),
                                      weighted_correlation(card_tags, card_effects, card_weights) if cards else None))
    signs = tuple(_sign(r.effect) for r in ranks)
    by_rank = {r.rank: s for r, s in zip(ranks, signs)}
    found.append(CountCorrelation(
        "signs of the effects, by rank", signs,
        weighted_correlation([mpq(s) for s in signs], rank_effects, rank_weights),
        weighted_correlation([mpq(by_rank[_rank_of(c.card, faces)]) for c in cards], card_effects, card_weights)
        if cards else None))
    if cards:
        card_signs = tuple(_sign(c.effect) for c in cards)
        found.append(CountCorrelation("signs of the effects, by card", card_signs, None,
                                      weighted_correlation([mpq(s) for s in card_signs], card_effects, card_weights)))
    best = 1.0 if any(rank_effects) else None
    found.append(CountCorrelation("the effects themselves (best linear count)", (), best,
                                  (1.0 if any(card_effects) else None) if cards else None))
    return tuple(found)


# --- the outcomes of a bet by the cards it is settled on ------------------------------------------------


Removed = tuple[int, ...]  # the cards of each value A..T a bet's outcome takes from the shoe


@dataclass(frozen=True)
class SettledCards:
    """A bet's outcomes grouped by the values of the cards they are settled on: ``groups[removed]`` =
    (chance of those cards with the bet made, its part of the expected result)."""

    groups: Mapping[Removed, tuple[mpq, mpq]]


def _first_line(lines: Sequence[Sequence[Condition]], deal: Deal, holds: Sequence[bool] | None = None) -> int:
    for i, conditions in enumerate(lines):
        if (holds is None or holds[i]) and all(c.holds(deal) for c in conditions):
            return i
    return len(lines)


def _result(bet: SideBet, line: int) -> mpq:
    return bet.lines[line].pays if line < len(bet.lines) else mpq(-1)


def _add(groups: dict[Removed, list[mpq]], removed: Removed, chance: mpq, result: mpq) -> None:
    entry = groups.setdefault(removed, [mpq(0), mpq(0)])
    entry[0] += chance
    entry[1] += chance * result


def settled_cards(bet: SideBet, shoe: SuitedShoe, *, h17: bool = False, peek: bool = True) -> SettledCards:
    """The bet's outcomes by the values of the cards they are settled on (see :class:`SettledCards`):
    the first cards it sees, or the dealer's final hand (with the player's two cards for a joint bet).
    The chances of the deals that end at the peek (an ace or ten up, a dealer natural, a bet after
    the up-card) are left out: the bet is not made."""
    if shoe.replacement:
        raise BjexactError("counting needs a finite shoe")
    groups: dict[Removed, list[mpq]] = {}
    needs = bet.needs
    if bet.first_cards_only:
        _first_card_groups(bet, shoe, groups)
    elif Sees.HAND in needs:
        _joint_groups(bet, shoe, h17, peek, groups)
    else:
        _dealer_groups(bet, shoe, h17, peek, groups)
    return SettledCards({k: (v[0], v[1]) for k, v in groups.items()})


def _first_card_groups(bet: SideBet, shoe: SuitedShoe, groups: dict[Removed, list[mpq]]) -> None:
    for p, cards, result in _first_card_deals(bet, shoe):
        _add(groups, counts_of(card.value for card in cards), p, result)


def _made(bet: SideBet, hand: DealerHand, peek: bool) -> bool:
    return not (bet.settled is Settled.AFTER_UPCARD and peek and hand.natural)


def _dealer_groups(bet: SideBet, shoe: SuitedShoe, h17: bool, peek: bool, groups: dict[Removed, list[mpq]]) -> None:
    lines = [line.conditions for line in bet.lines]
    suits = Sees.DEALER_SUITS in bet.needs
    hands = dealer_hands(shoe.value_shoe(), h17)
    for hand, chance in hands.chances.items():
        if hand.exhausted:
            raise BjexactError("the shoe can run out while the dealer draws: counting needs a larger shoe")
        if not _made(bet, hand, peek):
            continue
        if suits:
            for split, part in suit_chances(shoe, hand.cards):
                _add(groups, hand.cards, chance * part,
                     _result(bet, _first_line(lines, Deal(dealer=replace(hand, suits=split)))))
        else:
            _add(groups, hand.cards, chance, _result(bet, _first_line(lines, Deal(dealer=hand))))


def _joint_groups(bet: SideBet, shoe: SuitedShoe, h17: bool, peek: bool, groups: dict[Removed, list[mpq]]) -> None:
    if Sees.DEALER_SUITS in bet.needs:
        raise BjexactError(f"the bet {bet.name!r} sees the player's cards and the suits of the dealer's hand: "
                           "its value by count is not computed")
    hand_part = [[c for c in line.conditions if c.feature.sees == {Sees.HAND}] for line in bet.lines]
    dealer_part = [[c for c in line.conditions if c.feature.sees != {Sees.HAND}] for line in bet.lines]
    layout = Layout(True, False)
    pairs: dict[tuple[tuple[bool, ...], tuple[int, int]], int] = {}
    for configuration in dealable_configurations(layout, shoe):
        ways = combinations(layout, configuration, shoe)
        hand = configuration.hand
        if not ways or hand is None:
            continue
        deal = Deal(hand)
        holds = tuple(all(c.holds(deal) for c in conditions) for conditions in hand_part)
        key = (holds, (hand.first.value, hand.second.value))
        pairs[key] = pairs.get(key, 0) + ways
    total = sum(pairs.values())
    if not total:
        raise BjexactError(f"the shoe ({shoe.size} cards) is too small to deal the player's two cards")
    value_shoe = shoe.value_shoe()
    assert isinstance(value_shoe, FiniteShoe)
    for (holds, values), ways in pairs.items():
        taken = counts_of(values)
        hands = dealer_hands(value_shoe.less(taken), h17)
        for dealt, chance in hands.chances.items():
            if dealt.exhausted:
                raise BjexactError("the shoe can run out while the dealer draws: counting needs a larger shoe")
            if _made(bet, dealt, peek):
                removed = tuple(a + b for a, b in zip(taken, dealt.cards))
                _add(groups, removed, mpq(ways, total) * chance,
                     _result(bet, _first_line(dealer_part, Deal(dealer=dealt), holds)))


# --- the value by true count ----------------------------------------------------------------------------


@dataclass(frozen=True)
class CountRow:
    """A (floored) true count at the depth: its exact chance, the chance that the bet is made there (1
    but for bets after the up-card under peek) and the bet's exact expected result per unit staked,
    given the count (and the bet made)."""

    true_count: int
    chance: mpq
    made: mpq
    expected: mpq


@dataclass(frozen=True)
class ValueByCount:
    """The bet's value by true count after ``seen`` cards of the shoe (see the module docstring).

    ``rows``: the true counts within ``span`` (the ends pooling the counts beyond, as
    ``-span`` and ``+span``); ``positive_from``: the least true count from which every row up is
    positive (``None``: none, or every one); ``crossing``: the true count where the bet's value
    crosses zero, on the straight line between the exact values at the two running counts around
    it (``None`` where it never crosses within the counts that can happen)."""

    bet: SideBet
    system: CountSystem
    analysis: SideBetAnalysis
    seen: int
    span: int
    rows: tuple[CountRow, ...]
    positive_from: int | None
    crossing: mpq | None

    @property
    def unseen(self) -> int:
        return self.analysis.shoe.size - self.seen

    def to_json(self) -> dict[str, object]:
        a = self.analysis
        return {
            "bet": self.bet.name, "system": self.system.name, "tags": list(self.system.tags),
            "decks": a.shoe.uniform, "h17": a.h17, "peek": a.peek if self.bet.settled is Settled.AFTER_UPCARD else None,
            "seen": self.seen, "unseen": self.unseen, "span": self.span,
            "expected_full_shoe": fraction_string(a.expected),
            "rows": [{"true_count": r.true_count, "chance": fraction_string(r.chance), "made": fraction_string(r.made),
                      "expected": fraction_string(r.expected)} for r in self.rows],
            "positive_from": self.positive_from,
            "crossing": None if self.crossing is None else fraction_string(self.crossing),
        }


def parse_depth(text: str, size: int) -> int:
    """``--depth``: cards seen before the round, a whole number (``156``), or a share of the shoe
    (``1/2``, ``0.75``: that share of its cards, rounded down)."""
    body = text.strip()
    try:
        share = parse_fraction(body) if ("/" in body or "." in body) else None
        seen = int(floor(share * size)) if share is not None else int(body)
    except (ValueError, ZeroDivisionError):
        raise BjexactError(f"--depth takes the cards seen (156) or a share of the shoe (1/2, 0.75), "
                           f"not {text!r}") from None
    if share is not None and not 0 <= share < 1:
        raise BjexactError(f"--depth {text}: a share of the shoe is at least 0 and less than 1")
    if not 0 <= seen < size:
        raise BjexactError(f"--depth {text}: the cards seen are 0 to {size - 1} of a shoe of {size}")
    return seen


@cache
def _count_law(system: CountSystem, left: tuple[int, ...], seen: int) -> tuple[tuple[int, mpq], ...]:
    return tuple(count_chances(system, left, seen).items())


def _tag_profile(system: CountSystem, full: Sequence[int], removed: Sequence[int]) -> tuple[int, ...]:
    """A shoe whose running count of seen cards has the law of ``full`` less ``removed``: each tag
    group's cards left, all put on the group's first rank (the law depends on nothing else)."""
    left = [0] * 10
    for rank in range(1, 11):
        first = system.tags.index(system.tags[rank - 1])
        left[first] += full[rank - 1] - removed[rank - 1]
    return tuple(left)


def value_by_count(bet: SideBet, shoe: SuitedShoe, system: CountSystem, seen: int, *, h17: bool = False,
                   peek: bool = True, span: int = 6) -> ValueByCount:
    """The bet's exact value at each floored true count after ``seen`` cards (see the module docstring).

    >>> from bjexact.sidebets import built_in
    >>> from bjexact.counting.systems import load_system
    >>> by_count = value_by_count(built_in("bust"), SuitedShoe.of_decks(1), load_system("hi-lo"), 26)
    >>> by_count.crossing is not None
    True
    """
    if shoe.replacement:
        raise BjexactError("counting needs a finite shoe: --decks N")
    if not 1 <= span <= 50:
        raise BjexactError("--span must be 1 to 50 true counts")
    analysis = analyse(bet, shoe, h17=h17, peek=peek)
    settled = settled_cards(bet, shoe, h17=h17, peek=peek)
    full = shoe.value_counts
    size = shoe.size
    if _may_run_out(bet, shoe, seen):
        raise BjexactError(f"after {seen} cards the {size - seen} left may run out before the bet is settled: "
                           "see fewer cards (--depth)")
    # chance and expected result of the bet at each running count, summed over the settled cards' groups
    # the running count's law depends only on how many cards each tag group lost: outcomes are pooled so
    profiles: dict[tuple[int, ...], list[mpq]] = {}
    for removed, (chance, part) in settled.groups.items():
        entry = profiles.setdefault(_tag_profile(system, full, removed), [mpq(0), mpq(0)])
        entry[0] += chance
        entry[1] += part
    by_running: dict[int, list[mpq]] = {}
    for left, (chance, part) in profiles.items():
        for running, q in _count_law(system, left, seen):
            entry = by_running.setdefault(running, [mpq(0), mpq(0)])
            entry[0] += chance * q
            entry[1] += part * q
    counts = dict(count_chances(system, full, seen))
    true_counts = {c: system.balanced_true_count(full, c, seen) for c in counts}
    rows: dict[int, list[mpq]] = {}
    for running, p in counts.items():
        t = max(-span, min(span, int(floor(true_counts[running]))))
        made, part = by_running.get(running, [mpq(0), mpq(0)])
        entry = rows.setdefault(t, [mpq(0), mpq(0), mpq(0)])
        entry[0] += p
        entry[1] += made
        entry[2] += part
    table = tuple(CountRow(t, p, made / p, part / made if made else mpq(0))
                  for t, (p, made, part) in sorted(rows.items()))
    return ValueByCount(bet, system, analysis, seen, span, table, _positive_from(table),
                        _crossing(by_running, true_counts))


def _may_run_out(bet: SideBet, shoe: SuitedShoe, seen: int) -> bool:
    """Whether some ``seen`` cards may leave too few to settle the bet: fewer than the first cards it
    sees, or (a bet on the dealer's hand) so few beyond the player's two cards that a dealer holding
    all of them may still be under a hard 17 (the least they can total: the smallest values of the shoe)."""
    left = shoe.size - seen
    if bet.first_cards_only:
        return left < 3
    smallest = sorted(card.value for card in CARDS for _ in range(shoe.count(card)))
    return left < 4 or sum(smallest[:left - 2]) < 17


def _positive_from(rows: Sequence[CountRow]) -> int | None:
    """The least true count from which every row up is positive; ``None`` if the last is not, or every row is."""
    positive = [r.made > 0 and r.expected > 0 for r in rows]
    if not positive or not positive[-1] or all(positive):
        return None
    k = len(positive)
    while k and positive[k - 1]:
        k -= 1
    return rows[k].true_count


def _crossing(by_running: Mapping[int, Sequence[mpq]], true_counts: Mapping[int, mpq]) -> mpq | None:
    """The true count of the last change of sign from not positive to positive, going up the running
    counts: on the straight line between the exact values at the two running counts around it."""
    points = [(true_counts[c], by_running[c][1] / by_running[c][0]) for c in sorted(by_running) if by_running[c][0]]
    found = None
    for (t0, v0), (t1, v1) in zip(points, points[1:]):
        if v0 <= 0 < v1:
            found = t0 + (t1 - t0) * (-v0) / (v1 - v0)
    return found

