"""A side bet's exact analysis: each pay line's chance (and combinations), the return, the house
edge, the hit frequency and the standard deviation, for one shoe or a table by decks.

How each kind of bet is valued (``bet.sees``):

- **First cards only** (the player's two cards and/or the up-card): every configuration of the
  seen cards is classified once by the pay table, then counted in the shoe
  (:mod:`bjexact.sidebets.first_cards`): exact combinations over all of them.
- **The dealer's final hand** (before the deal): the dealer's final hands of the whole shoe
  (:func:`bjexact.sidebets.dealer.dealer_hands`), each classified by the pay table. No other card
  is known, and none needs to be: the chance of any event of the dealer's draws given the cards
  seen is a martingale as cards are dealt (the unseen cards are a uniform shuffle), so the cards
  the players take unseen, however many and by whatever rule, change no chance of the dealer's
  hand (optional stopping); a shoe small enough to run out is the exception, and is valued as if
  only the dealer drew from it. A test removes the player's two unseen cards first and shows the
  same fractions.
- **After the up-card** (``settled = after-upcard``): the same hands, by up-card. Under peek, with
  an ace or ten up the dealer has checked for a natural: the chances are conditioned on no dealer
  natural (a round with one ends before the bet is made). Without peek a dealer natural is just a
  hand that does not bust. The bet's totals assume it is made on every up-card.
- **The player's cards and the dealer's hand together**: the player's two cards leave the shoe
  before the dealer draws, exactly: the pairs are grouped by what the pay table reads of them, and
  each group's joint chances are its pairs' chances times the dealer's hands from the shoe less
  those cards. The largest group may be had as the whole shoe's hands less all the others' (the
  exchangeability above), when that is fewer shoes to solve.

Numbers: ``returned`` is what the bet pays back per unit staked (stake included), ``expected``
the net result per unit (``returned - 1``), ``house_edge`` its negative; the hit frequency is the
chance of a line paying more than nothing; the variance is exact, its square root is printed.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext
from functools import cache, lru_cache
from typing import Any

from ..core.cards import FiniteShoe, counts_of, rank_symbol
from ..core.numbers import fraction_string, mpq
from ..core.rules import parse_decks
from ..errors import BjexactError
from .bets import Settled, SideBet
from .dealer import DealerHand, DealerHands, DealerSuits, dealer_hands, deepest_drawing_hand, suit_chances
from .events import Condition, Deal, Sees
from .first_cards import (
    Configuration,
    Layout,
    combinations,
    configuration_chance,
    configuration_denominator,
    configuration_weight,
    configurations,
    dealable_configurations,
    pattern_combinations,
    total_combinations,
)
from .suits import Card, SuitedShoe

__all__ = ["LineResult", "UpcardResult", "SideBetAnalysis", "analyse", "analyse_by_decks", "suited_shoe",
           "parse_deck_list", "LOSES"]

LOSES = "loses"
"""The name of the last line of every analysis: the deals no pay line matches (the stake is lost)."""


@dataclass(frozen=True)
class LineResult:
    """One pay line's exact ``chance``, what it ``pays`` (to 1; ``None`` for the losing deals) and, for
    bets on the first cards in a finite shoe, its ``combinations`` (out of the analysis's total)."""

    name: str
    pays: mpq | None
    chance: mpq
    combinations: int | None

    @property
    def result(self) -> mpq:
        """The net result per unit staked on this line: what it pays, or -1 for the losing deals."""
        return mpq(-1) if self.pays is None else self.pays

    @property
    def contribution(self) -> mpq:
        """chance x result: the line's part of the expected result."""
        return self.chance * self.result


@dataclass(frozen=True)
class UpcardResult:
    """A bet with the dealer's hand, by up-card: the up-card's ``chance`` among the bets made, the
    chance that the bet is ``paid`` given the up-card, and its ``expected`` result given the up-card."""

    upcard: int
    chance: mpq
    paid: mpq
    expected: mpq


@dataclass(frozen=True)
class SideBetAnalysis:
    """The exact analysis of ``bet`` for ``shoe``, the dealer hitting soft 17 or not (``h17``) and,
    for bets after the up-card, the dealer's ``peek``. ``lines``: the pay lines in order, then the
    losing deals (:data:`LOSES`); their chances sum to exactly 1."""

    bet: SideBet
    shoe: SuitedShoe
    h17: bool
    peek: bool
    lines: tuple[LineResult, ...]
    total_combinations: int | None
    by_upcard: tuple[UpcardResult, ...]

    @property
    def returned(self) -> mpq:
        """What the bet pays back per unit staked, the stake included (the return to player)."""
        return sum((line.chance * (line.pays + 1) for line in self.lines if line.pays is not None), mpq(0))

    @property
    def expected(self) -> mpq:
        """The expected net result per unit staked."""
        return self.returned - 1

    @property
    def house_edge(self) -> mpq:
        return -self.expected

    @property
    def hit_frequency(self) -> mpq:
        """The chance that the bet pays more than nothing."""
        return sum((line.chance for line in self.lines if line.pays is not None and line.pays > 0), mpq(0))

    @property
    def variance(self) -> mpq:
        """The exact variance of the net result per unit staked."""
        second = sum((line.chance * line.result**2 for line in self.lines), mpq(0))
        return second - self.expected**2

    def standard_deviation(self, digits: int = 30) -> Decimal:
        """The square root of :attr:`variance`, correctly rounded to ``digits`` significant digits."""
        with localcontext() as context:
            context.prec = digits
            return (Decimal(int(self.variance.numerator)) / Decimal(int(self.variance.denominator))).sqrt()

    def share(self, line: LineResult) -> mpq:
        """The part of what the bet pays back (:attr:`returned`) that ``line`` pays, stake included."""
        if line.pays is None or not self.returned:
            return mpq(0)
        return line.chance * (line.pays + 1) / self.returned

    @property
    def conventions(self) -> tuple[str, ...]:
        """What the numbers are conditioned on, in sentences (printed under every table)."""
        return conventions(self.bet, self.peek)

    @property
    def rules_text(self) -> str:
        """``6 decks, S17`` (and the hole-card rule, for bets after the up-card)."""
        text = f"{self.shoe.describe()}, {'H17' if self.h17 else 'S17'}" if Sees.DEALER in self.bet.needs or \
            self.bet.settled is Settled.AFTER_UPCARD else self.shoe.describe()
        if self.bet.settled is Settled.AFTER_UPCARD:
            text += ", peek" if self.peek else ", no peek"
        return text

    def to_json(self) -> dict[str, Any]:
        """The analysis with exact values as ``"p/q"`` strings; keys as documented in ``bjexact sidebet --help``."""
        return {
            "bet": self.bet.name,
            "title": self.bet.title,
            "settled": str(self.bet.settled),
            "sees": list(self.bet.sees),
            "decks": "inf" if self.shoe.replacement else self.shoe.uniform,
            "h17": self.h17,
            "peek": self.peek if self.bet.settled is Settled.AFTER_UPCARD else None,
            "lines": [{"name": line.name, "pays": None if line.pays is None else fraction_string(line.pays),
                       "chance": fraction_string(line.chance), "combinations": line.combinations,
                       "contribution": fraction_string(line.contribution), "share": fraction_string(self.share(line))}
                      for line in self.lines],
            "total_combinations": self.total_combinations,
            "return": fraction_string(self.returned),
            "expected": fraction_string(self.expected),
            "house_edge": fraction_string(self.house_edge),
            "hit_frequency": fraction_string(self.hit_frequency),
            "variance": fraction_string(self.variance),
            "standard_deviation": str(self.standard_deviation(20)),
            "by_upcard": {rank_symbol(u.upcard): {"chance": fraction_string(u.chance), "paid": fraction_string(u.paid),
                                                  "expected": fraction_string(u.expected)} for u in self.by_upcard},
            "conventions": list(self.conventions),
        }


def conventions(bet: SideBet, peek: bool) -> tuple[str, ...]:
    """The conventions a bet's numbers follow, as sentences."""
    found = []
    if bet.settled is Settled.AFTER_UPCARD:
        found.append("Placed after the up-card is seen; only the up-card is known. " + (
            "Peek: with an ace or ten up the dealer has checked for a natural, and the chances are "
            "conditioned on none (the bet is made only when the round goes on)." if peek else
            "No peek: a dealer natural is a hand that does not bust."))
        found.append("Totals assume the bet is made on every up-card.")
    else:
        found.append("Placed before the deal.")
    if Sees.DEALER in bet.needs:
        found.append("The dealer always plays out its hand, even when every player busted or has a natural; "
                     "a dealer natural is not a bust; no other card is known.")
    if Sees.DEALER in bet.needs and Sees.HAND in bet.needs:
        found.append("Joint chances: the player's two cards leave the shoe before the dealer draws.")
    if Sees.HAND in bet.needs or Sees.UPCARD_CARD in bet.needs:
        found.append("A pair is two cards of one rank (J-Q is none); A-2-3 and Q-K-A are straights, K-A-2 is not.")
    found.append("Each deal is paid by the first line it matches (to 1, the stake returned too); "
                 "any other deal loses the stake.")
    return tuple(found)


def suited_shoe(decks: int | float | str | SuitedShoe) -> SuitedShoe:
    """A :class:`SuitedShoe` of ``decks`` (a whole number, ``math.inf`` or its text ``"6"``, ``"inf"``)."""
    if isinstance(decks, SuitedShoe):
        return decks
    if isinstance(decks, str):
        decks = parse_decks(decks)
    return SuitedShoe.of_decks(decks)


def parse_deck_list(text: str) -> tuple[int | float, ...]:
    """``--decks 1,2,4,6,8``: numbers of decks (or ``inf``), each once, in the order given."""
    parts = [part.strip() for part in text.split(",")]
    if not all(parts):
        raise BjexactError(f"--decks {text!r}: give numbers of decks separated by commas, such as 1,2,4,6,8")
    if len(parts) > 20:
        raise BjexactError(f"--decks: at most 20 numbers of decks, not {len(parts)}")
    decks = [parse_decks(part) for part in parts]
    return tuple(dict.fromkeys(decks))


def analyse(bet: SideBet, shoe: int | float | str | SuitedShoe = 2, *, h17: bool = False,
            peek: bool = True) -> SideBetAnalysis:
    """The exact analysis of ``bet`` for ``shoe`` (default 2 decks, as everywhere in bjexact); ``h17``:
    the dealer hits soft 17; ``peek`` (default): bets after the up-card are conditioned on no dealer
    natural with an ace or ten up.

    >>> from bjexact.sidebets.bets import built_in
    >>> analysis = analyse(built_in("bust"), 6)
    >>> analysis.lines[0].chance, float(analysis.house_edge) > 0
    (mpq(...), True)
    """
    shoe = suited_shoe(shoe)
    if bet.first_cards_only:
        return _first_card_analysis(bet, shoe, h17, peek)
    return _dealer_analysis(bet, shoe, h17, peek)


def analyse_by_decks(bet: SideBet, decks: Iterable[int | float | str], *, h17: bool = False,
                     peek: bool = True) -> tuple[SideBetAnalysis, ...]:
    """:func:`analyse` for each number of decks, in order."""
    return tuple(analyse(bet, d, h17=h17, peek=peek) for d in decks)


def _results(bet: SideBet, chances: Sequence[mpq], combinations: Sequence[int] | None) -> tuple[LineResult, ...]:
    names = [(line.name, line.pays) for line in bet.lines] + [(LOSES, None)]
    assert sum(chances, mpq(0)) == 1, "the lines' chances must sum to exactly 1"
    return tuple(LineResult(name, pays, chance, None if combinations is None else combinations[i])
                 for i, ((name, pays), chance) in enumerate(zip(names, chances)))


class _Classifier:
    """The line of a deal, by the values of the features the lines read: each distinct tuple of
    values is matched against the pay table once."""

    def __init__(self, lines: Sequence[Sequence[Condition]], candidates: Sequence[int]):
        self.features = tuple(dict.fromkeys(c.feature for i in candidates for c in lines[i]))
        where = {feature: k for k, feature in enumerate(self.features)}
        self.tests = [(i, [(where[c.feature], c) for c in lines[i]]) for i in candidates]
        self.none = len(lines)
        self.known: dict[tuple[Hashable, ...], int] = {}

    def line(self, deal: Deal) -> int:
        values = tuple(feature.read(deal) for feature in self.features)
        found = self.known.get(values)
        if found is None:
            found = self.known[values] = next(
                (i for i, tests in self.tests if all(c.accepts(values[k]) for k, c in tests)), self.none)
        return found


# --- first cards ------------------------------------------------------------------------------------

def _layout(bet: SideBet) -> Layout:
    names = {c.feature.name for line in bet.lines for c in line.conditions}
    return Layout(Sees.HAND in bet.needs, Sees.UPCARD in bet.needs, names == {"three.hand"})


@cache
def _first_card_classifier(bet: SideBet) -> _Classifier:
    """The classifier of a bet's first cards: what it has learnt holds for every shoe."""
    conditions = [line.conditions for line in bet.lines]
    return _Classifier(conditions, range(len(conditions)))


@lru_cache(maxsize=64)
def _first_card_lines(bet: SideBet) -> tuple[int, ...]:
    """The line of each configuration of the bet's layout (:func:`configurations`, in its order): every
    configuration classified once, for the standard decks and the infinite deck."""
    classifier = _first_card_classifier(bet)
    return tuple(classifier.line(Deal(c.hand, c.upcard)) for c in configurations(_layout(bet)))


@cache
def _first_card_patterns(bet: SideBet) -> tuple[tuple[int, ...], ...]:
    """Per line, its configurations counted by pattern (for N standard decks)."""
    patterns = [[0, 0, 0, 0] for _ in range(len(bet.lines) + 1)]
    for configuration, line in zip(configurations(_layout(bet)), _first_card_lines(bet)):
        patterns[line][configuration.pattern] += 1
    return tuple(tuple(p) for p in patterns)


def _first_card_analysis(bet: SideBet, shoe: SuitedShoe, h17: bool, peek: bool) -> SideBetAnalysis:
    layout = _layout(bet)
    classifier = _first_card_classifier(bet)
    found: list[int] | None = None
    total = None
    if shoe.replacement:  # every configuration's chance has the same denominator: integers added
        weights = [0] * (len(bet.lines) + 1)
        every = configurations(layout)
        for configuration, line in zip(every, _first_card_lines(bet)):
            weights[line] += configuration_weight(configuration, shoe)
        chances = [mpq(w, configuration_denominator(every[0], shoe)) for w in weights]
    else:
        if shoe.uniform is not None:
            n = shoe.uniform
            found = [sum(count * pattern_combinations(layout, p, n) for p, count in enumerate(counts) if count)
                     for counts in _first_card_patterns(bet)]
        else:  # any other shoe: only the configurations it can deal are classified
            found = [0] * (len(bet.lines) + 1)
            for configuration in dealable_configurations(layout, shoe):
                ways = combinations(layout, configuration, shoe)
                if ways:
                    found[classifier.line(Deal(configuration.hand, configuration.upcard))] += ways
        if layout.unordered:  # each unordered set of three cards is three configurations
            found = [count // 3 for count in found]
        total = total_combinations(layout, shoe)
        if sum(found) != total:
            raise AssertionError(f"combinations {sum(found)} != {total}")
        if not total:
            raise BjexactError(f"the shoe ({shoe.size} cards) is too small to deal the cards the bet sees")
        chances = [mpq(count, total) for count in found]
    return SideBetAnalysis(bet, shoe, h17, peek, _results(bet, chances, found), total, ())


# --- the dealer's hand ------------------------------------------------------------------------------

def _measure_without(shoe: SuitedShoe, key: tuple[Card, Card], h17: bool, suits: bool,
                     weight: mpq) -> tuple[mpq, DealerHands, SuitedShoe | None]:
    """The dealer's hands once the player's two cards ``key`` have left the shoe, with ``weight``
    (and the shoe whose suits split them, where the bet sees suits)."""
    if shoe.replacement:
        return weight, dealer_hands(shoe.value_shoe(), h17), shoe if suits else None
    less = shoe.less(key) if suits else None
    value_shoe = shoe.value_shoe()
    assert isinstance(value_shoe, FiniteShoe)
    return weight, dealer_hands(value_shoe.less(counts_of(card.value for card in key)), h17), less


@dataclass(frozen=True)
class _Group:
    """The player's pairs that the pay table reads alike: ``holds[i]``, whether line i's conditions
    on the player's cards hold; ``keys``, the pairs by the cards that matter to the dealer, with
    their chances."""

    holds: tuple[bool, ...]
    keys: dict[tuple[Card, Card], mpq]

    @property
    def chance(self) -> mpq:
        return sum(self.keys.values(), mpq(0))


def _pair_chances(shoe: SuitedShoe) -> list[tuple[Configuration, mpq]]:
    layout = Layout(True, False)
    if shoe.replacement:
        return [(c, configuration_chance(c, shoe)) for c in configurations(layout)]
    total = total_combinations(layout, shoe)
    if not total:
        raise BjexactError(f"the shoe ({shoe.size} cards) is too small to deal the player's two cards")
    found = [(c, mpq(combinations(layout, c, shoe), total)) for c in dealable_configurations(layout, shoe)]
    return [(c, p) for c, p in found if p]


def _groups(bet: SideBet, shoe: SuitedShoe, suits: bool) -> list[_Group]:
    hand_conditions = [[c for c in line.conditions if c.feature.sees == {Sees.HAND}] for line in bet.lines]
    groups: dict[tuple[bool, ...], dict[tuple[Card, Card], mpq]] = {}
    for configuration, chance in _pair_chances(shoe):
        hand = configuration.hand
        assert hand is not None
        deal = Deal(hand)
        holds = tuple(all(c.holds(deal) for c in conditions) for conditions in hand_conditions)
        # the dealer's hands depend on the pair's values only, unless the bet sees the dealer's suits
        key = hand.cards if suits else (_by_value(hand.first), _by_value(hand.second))
        keys = groups.setdefault(holds, {})
        keys[key] = keys.get(key, mpq(0)) + chance
    return [_Group(holds, keys) for holds, keys in groups.items()]


def _by_value(card: Card) -> Card:
    """A representative card of a card's value: the spade of that value (the ten for ten-valued cards)."""
    return Card(card.value, 0)


def _dealer_analysis(bet: SideBet, shoe: SuitedShoe, h17: bool, peek: bool) -> SideBetAnalysis:
    suits = Sees.DEALER_SUITS in bet.needs
    dealer_conditions = [_dealer_part(line.conditions) for line in bet.lines]
    lines = len(bet.lines)
    after = bet.settled is Settled.AFTER_UPCARD
    chances = [mpq(0)] * (lines + 1)
    parts: list[_Part] = []
    if Sees.HAND not in bet.needs:  # the dealer's hands of the whole shoe, split by suits where that matters
        whole = (mpq(1), dealer_hands(shoe.value_shoe(), h17), shoe if suits else None)
        parts.append(_Part(tuple(range(lines)), (whole,)))
    else:
        parts += _joint_parts(bet, shoe, h17, suits, after, dealer_conditions, chances)
    NATURAL = _NATURAL  # noqa: N806
    table: dict[tuple[int, int], mpq] = {}  # (up-card, line) -> chance
    for part in parts:
        classifier = _dealer_classifier(bet, part.candidates)
        for weight, hands, split_by in part.measures:
            ways: dict[tuple[int, int, int], int] = {}  # (up-card, line, size) -> ways
            known = classifier.keys(split_by is not None, after and peek)
            for hand, count in hands.ways.items():
                found = known.get(hand)
                if found is None:
                    found = classifier.hand_key(hand, split_by is not None, after and peek)
                if type(found) is tuple:
                    ways[found] = ways.get(found, 0) + count
                    continue
                assert split_by is not None and isinstance(found, dict)
                for suit, p in suit_chances(split_by, hand.cards):
                    key2 = (hand.upcard, found[suit])
                    table[key2] = table.get(key2, mpq(0)) + weight * hands.chance(hand) * p
            for (upcard, i, size), w in ways.items():
                table[upcard, i] = table.get((upcard, i), mpq(0)) + weight * mpq(w, hands.denominator(size))
    made = 1 - sum((p for (_, i), p in table.items() if i == NATURAL), mpq(0))
    if not made:
        raise BjexactError("every deal of this shoe is a dealer natural: the bet is never made")
    for (_, i), p in table.items():
        if i != NATURAL:
            chances[i] += p / made
    by_upcard: tuple[UpcardResult, ...] = ()
    if after:
        by_upcard = tuple(_upcard_result(bet, upcard, table, made) for upcard in (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)
                          if any(u == upcard and i != NATURAL and p for (u, i), p in table.items()))
    return SideBetAnalysis(bet, shoe, h17, peek, _results(bet, chances, None), None, by_upcard)


def _upcard_result(bet: SideBet, upcard: int, table: Mapping[tuple[int, int], mpq], made: mpq) -> UpcardResult:
    """The bet given one up-card, from the table of (up-card, line) chances (the peek's naturals, line -1, left out)."""
    rows = [(i, p) for (u, i), p in table.items() if u == upcard and i >= 0]
    chance = sum((p for _, p in rows), mpq(0))
    paid = sum((p for i, p in rows if i < len(bet.lines) and bet.lines[i].pays > 0), mpq(0))
    expected = sum((p * (bet.lines[i].pays if i < len(bet.lines) else -1) for i, p in rows), mpq(0))
    return UpcardResult(upcard, chance / made, paid / chance, expected / chance)


_NATURAL = -1
"""The line of the deals that end at the peek (a dealer natural, for bets after the up-card under peek)."""


def _dealer_part(conditions: Sequence[Condition]) -> tuple[Condition, ...]:
    """The conditions of a line that read more than the player's two cards."""
    return tuple(c for c in conditions if c.feature.sees != {Sees.HAND})


@dataclass(frozen=True)
class _Part:
    """Dealer hands whose lines are among ``candidates``, with the joint chances ``sum(weight x chance
    of the hand in hands)`` over ``measures`` (weight, hands, the suited shoe whose suits split a hand
    where the lines of its suits differ; ``None`` where the bet sees no suits)."""

    candidates: tuple[int, ...]
    measures: tuple[tuple[mpq, DealerHands, SuitedShoe | None], ...]


class _DealerClassifier(_Classifier):
    """A classifier of dealer hands that remembers each hand's line (hands do not depend on the shoe)."""

    def __init__(self, lines: Sequence[Sequence[Condition]], candidates: Sequence[int]):
        super().__init__(lines, candidates)
        self.hands: dict[tuple[DealerHand, bool], int | dict[DealerSuits, int]] = {}
        self._keys: dict[tuple[bool, bool], dict[DealerHand, tuple[int, int, int] | dict[DealerSuits, int]]] = {}

    def keys(self, split: bool, peek_naturals: bool) -> dict[DealerHand, tuple[int, int, int] | dict[DealerSuits, int]]:
        """The hands met so far, each with what :meth:`hand_key` gave it (read once per hand per shoe)."""
        return self._keys.setdefault((split, peek_naturals), {})

    def hand_key(self, hand: DealerHand, split: bool, peek_naturals: bool
                 ) -> tuple[int, int, int] | dict[DealerSuits, int]:
        """(up-card, line, cards) of ``hand``, its line -1 where ``peek_naturals`` and it is a natural
        (the deals a peek ends); with ``split``, its line per suits where they differ (remembered in
        :meth:`keys`)."""
        line = _NATURAL if peek_naturals and hand.natural else self.hand_line(hand, split)
        found = (hand.upcard, line, hand.size) if isinstance(line, int) else line
        self.keys(split, peek_naturals)[hand] = found
        return found

    def hand_line(self, hand: DealerHand, split: bool) -> int | dict[DealerSuits, int]:
        """The line of ``hand``; with ``split``, a line per suits of its cards where they differ."""
        found = self.hands.get((hand, split))
        if found is None:
            if split:
                by_suits = {suits: self.line(Deal(dealer=replace(hand, suits=suits))) for suits in DealerSuits}
                found = by_suits if len(set(by_suits.values())) > 1 else by_suits[DealerSuits.MIXED]
            else:
                found = self.line(Deal(dealer=hand))
            self.hands[hand, split] = found
        return found


@cache
def _dealer_classifier(bet: SideBet, candidates: tuple[int, ...]) -> _DealerClassifier:
    """The classifier of dealer hands among ``candidates``: what it has learnt holds for every shoe."""
    return _DealerClassifier([_dealer_part(line.conditions) for line in bet.lines], candidates)


def _joint_parts(bet: SideBet, shoe: SuitedShoe, h17: bool, suits: bool, after: bool,
                 dealer_conditions: Sequence[tuple[Condition, ...]], chances: list[mpq]
                 ) -> list[_Part]:
    """The joint chances of the player's pairs and the dealer's hands, group by group; a group whose
    first line reads nothing of the dealer is paid by it at once (into ``chances``)."""
    lines = len(bet.lines)
    needing: list[tuple[_Group, tuple[int, ...]]] = []
    others: list[_Group] = []
    for group in _groups(bet, shoe, suits):
        candidates = tuple(i for i in range(lines) if group.holds[i])
        upto = next((k for k, i in enumerate(candidates) if not dealer_conditions[i]), None)
        if upto is not None:
            candidates = candidates[:upto + 1]
        if not after and (not candidates or not dealer_conditions[candidates[0]]):
            chances[candidates[0] if candidates else lines] += group.chance
            others.append(group)
        else:
            needing.append((group, candidates))
    if not needing:
        return []
    largest = max(range(len(needing)), key=lambda k: len(needing[k][0].keys))
    direct = sum(len(group.keys) for group, _ in needing)
    rest = [g for k, (g, _) in enumerate(needing) if k != largest] + others
    runs_out = not shoe.replacement and shoe.size - 2 <= deepest_drawing_hand(h17)
    subtract = not runs_out and sum(len(g.keys) for g in rest) < direct
    parts = []
    for k, (group, candidates) in enumerate(needing):
        if subtract and k == largest:
            continue
        measures = tuple(_measure_without(shoe, key, h17, suits, w) for key, w in group.keys.items())
        parts.append(_Part(candidates, measures))
    if subtract:
        whole = (mpq(1), dealer_hands(shoe.value_shoe(), h17), shoe if suits else None)
        less = tuple(_measure_without(shoe, key, h17, suits, -w) for group in rest for key, w in group.keys.items())
        parts.append(_Part(needing[largest][1], (whole, *less)))
    return parts

