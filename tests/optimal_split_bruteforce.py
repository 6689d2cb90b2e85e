"""A brute-force reference for perfect play after a split, used only by tests on tiny shoes.

Independent of bjexact by design: nothing here imports it. Ranks are ints 1..10 (1 = ace,
10 = any ten-valued card); a shoe is a tuple of ten counts. gmpy2's ``mpq`` throughout.

The round after the player splits ``pair`` against ``up`` is followed card by card, as it is
dealt, with no exchangeability argument:

* Peek: the hole card is dealt first, face down: any unseen card but one completing a natural
  (the dealer has peeked), each equally likely. The player does not see it, so a decision is
  one per *information state* (the cards the player has seen, the finished hands, the hand in
  play, the hands waiting): each move is valued as a vector over the hole card, and the move
  taken is the one of largest average over the hole cards the information state leaves
  possible (each in proportion to its count among the unseen cards). The player's cards are
  drawn from the unseen cards less the hole card; the dealer turns the hole card over at the
  end and draws from what is left.
* ENHC: there is no hole card; the dealer's second card is drawn after the player, from what is
  left, and a natural then takes every stake (or, with OBO, the original bet only).
* Split hands are played in order, each taking its second card when its turn comes; a hand
  whose second card is of the pair may be resplit while fewer than the most hands are on the
  table (aces only with RSA): it keeps its first card and takes a new second card, the other
  waits its turn. A hand may stand, hit (split aces only with ``hit_split_aces``; never once
  no card but the hole card is left), or double on two cards (DAS; the totals rule on the
  counted total; soft hands only with ``double_soft``; split aces never). Bust loses; a split
  hand's 21 is no natural.
* A line that needs a card no shoe holds raises ``ValueError`` (the round cannot be completed).

The value returned is per unit initial bet: under peek conditioned on no dealer natural (the
round in which the player gets to split), under ENHC unconditional.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gmpy2 import mpq as Fraction  # exact rationals, fast (the independence lies in the enumeration)


@dataclass(frozen=True)
class Rules:
    h17: bool = False
    das: bool = True
    double: str = "any"  # "any" | "9-11" | "10-11" | "none"
    double_soft: bool = True
    split_hands: int = 2
    rsa: bool = False
    hit_split_aces: bool = False
    hole_card: str = "peek"  # "peek" | "enhc"
    obo: bool = False


def _total(cards: tuple[int, ...]) -> int:
    hard = sum(cards)
    return hard + 10 if 1 in cards and hard + 10 <= 21 else hard


def _soft(cards: tuple[int, ...]) -> bool:
    return 1 in cards and sum(cards) + 10 <= 21


def _take(unseen: tuple[int, ...], rank: int) -> tuple[int, ...]:
    assert unseen[rank - 1] > 0
    return unseen[: rank - 1] + (unseen[rank - 1] - 1,) + unseen[rank:]


def _partner(up: int) -> int | None:
    return {1: 10, 10: 1}.get(up)


def split_value(shoe: tuple[int, ...], pair: int, up: int, rules: Rules) -> Fraction:
    """The value of splitting ``pair`` against ``up`` from ``shoe`` (before the deal) under perfect play."""
    unseen = _take(_take(_take(shoe, pair), pair), up)
    limit = rules.split_hands if pair != 1 or rules.rsa else min(rules.split_hands, 2)

    @cache
    def dealer_results(stock: tuple[int, ...], cards: tuple[int, ...]) -> dict[object, Fraction]:
        """Final total or "bust" -> chance, the dealer drawing to ``cards`` (sorted) from ``stock``."""
        total = _total(cards)
        if total > 21:
            return {"bust": Fraction(1)}
        if total >= 18 or (total == 17 and not (rules.h17 and _soft(cards))):
            return {total: Fraction(1)}
        n = sum(stock)
        if n == 0:
            raise ValueError("the dealer runs out of cards")
        out: dict[object, Fraction] = {}
        for rank, count in enumerate(stock, 1):
            if count:
                for result, p in dealer_results(_take(stock, rank), tuple(sorted(cards + (rank,)))).items():
                    out[result] = out.get(result, Fraction(0)) + Fraction(count, n) * p
        return out

    def settle(standing: tuple[tuple[int, int], ...], lost: int, stock: tuple[int, ...],
               dealer_cards: tuple[int, ...]) -> Fraction:
        """The round's payoff once the dealer holds ``dealer_cards`` (two) and draws from ``stock``."""
        if rules.hole_card == "enhc" and sorted(dealer_cards) == [1, 10]:
            return Fraction(-1) if rules.obo else -Fraction(lost + sum(s for _, s in standing))
        if not standing:
            return Fraction(-lost)
        value = Fraction(0)
        for result, p in dealer_results(stock, tuple(sorted(dealer_cards))).items():
            for total, stake in standing:
                if result == "bust" or total > result:
                    value += p * stake
                elif total < result:
                    value -= p * stake
        return value - lost

    def can_double(cards: tuple[int, ...]) -> bool:
        if len(cards) != 2 or not rules.das or pair == 1 or rules.double == "none":
            return False
        if _soft(cards) and not rules.double_soft:
            return False
        low = {"any": 0, "9-11": 9, "10-11": 10}[rules.double]
        return rules.double == "any" or low <= _total(cards) <= 11

    # --- peek: values are vectors over the hole card; ENHC: plain numbers (the hole rank 0) ---

    peek = rules.hole_card == "peek"

    def holes(stock: tuple[int, ...]) -> list[int]:
        """The hole cards still possible (peek), each a rank; [0] under ENHC."""
        if not peek:
            return [0]
        return [r for r, c in enumerate(stock, 1) if c and r != _partner(up)]

    def draws(stock: tuple[int, ...], hole: int) -> list[tuple[Fraction, int]]:
        rest = _take(stock, hole) if hole else stock
        n = sum(rest) - (0 if hole else 1)  # under ENHC the dealer's second card is still to come
        if n <= 0:
            return []
        return [(Fraction(c, sum(rest)), r) for r, c in enumerate(rest, 1) if c]

    def end(stock, standing, lost, hole):
        if hole:
            return settle(standing, lost, _take(stock, hole), (up, hole))
        n = sum(stock)
        if n == 0:
            raise ValueError("the dealer runs out of cards")
        return sum((Fraction(c, n) * settle(standing, lost, _take(stock, r), (up, r))
                    for r, c in enumerate(stock, 1) if c), Fraction(0))

    def average(stock: tuple[int, ...], vector: dict[int, Fraction]) -> Fraction:
        weights = {h: stock[h - 1] if h else 1 for h in vector}
        return sum((weights[h] * v for h, v in vector.items()), Fraction(0)) / sum(weights.values())

    @cache
    def after_hand(stock, standing, lost, waiting, hands) -> dict[int, Fraction]:
        if waiting:
            return second_card(stock, standing, lost, waiting - 1, hands)
        return {h: end(stock, standing, lost, h) for h in holes(stock)}

    @cache
    def second_card(stock, standing, lost, waiting, hands) -> dict[int, Fraction]:
        result = {}
        for h in holes(stock):
            options = draws(stock, h)
            if not options:
                raise ValueError("no card for a split hand")
            result[h] = sum((p * play(_take(stock, r), standing, lost, tuple(sorted((pair, r))), waiting, hands)[h]
                             for p, r in options), Fraction(0))
        return result

    def finish(stock, standing, lost, cards, stake, waiting, hands):
        total = _total(cards)
        if total > 21:
            return after_hand(stock, standing, lost + stake, waiting, hands)
        return after_hand(stock, tuple(sorted(standing + ((total, stake),))), lost, waiting, hands)

    @cache
    def play(stock, standing, lost, cards, waiting, hands) -> dict[int, Fraction]:
        """The hole card -> payoff of the hand ``cards`` in play at the information state's best move."""
        options = {"stand": finish(stock, standing, lost, cards, 1, waiting, hands)}
        can_draw = any(draws(stock, h) for h in holes(stock))
        if can_draw and (len(cards) > 2 or pair != 1 or rules.hit_split_aces):
            options["hit"] = {h: sum((p * (finish(_take(stock, r), standing, lost, cards + (r,), 1, waiting, hands)
                                           if _total(cards + (r,)) > 21 else
                                           play(_take(stock, r), standing, lost, tuple(sorted(cards + (r,))),
                                                waiting, hands))[h]
                                      for p, r in draws(stock, h)), Fraction(0))
                              for h in holes(stock)}
        if can_draw and can_double(cards):
            options["double"] = {h: sum((p * finish(_take(stock, r), standing, lost, cards + (r,), 2, waiting,
                                                    hands)[h]
                                         for p, r in draws(stock, h)), Fraction(0))
                                 for h in holes(stock)}
        if len(cards) == 2 and cards[0] == cards[1] == pair and hands < limit:
            options["split"] = second_card(stock, standing, lost, waiting + 1, hands + 1)
        return max(options.values(), key=lambda vector: average(stock, vector))

    root = second_card(unseen, (), 0, 1, 2)
    return average(unseen, root)
