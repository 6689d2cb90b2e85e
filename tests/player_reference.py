"""An independent, straightforward model of the player's hit/stand game, for the tests.

Nothing here uses bjexact: the hand is valued from scratch (aces count 1, then one
ace is raised to 11 when that does not bust), the dealer and the player are plain
recursions over cards with exact probabilities
(gmpy2's ``mpq``: the independence lies in the enumeration, not in the number type), memoised.

Results are 4-tuples of probabilities ``(natural, win, push, loss)``; an objective
weighs them: ``ev`` = (bj_pays, 1, 0, -1), ``win`` = (1, 1, 1/2, 0). Ties between
hitting and standing go to standing.

Conventions mirrored from the issue (not from the code):
  * ``as21``: a natural is a 21 on either side; the player's two-card 21 is played.
  * ``separate``: a dealer natural beats every other player hand (three-card 21s
    too); a player natural is not played (pushes against a dealer natural, else wins).
  * ``peek``: the dealer's natural is settled first; decisions are valued given
    that the dealer has no natural.

Finite shoes are modelled without appealing to exchangeability: the hole card is
dealt right after the up-card (under ``peek`` it is known not to make a natural),
and the player's later cards are drawn from what is left after it. The player does
not see the hole card, so each decision weighs the hole card by its posterior
given every card seen so far (Bayes' rule on the player's draws).
"""

from __future__ import annotations

from functools import cache

from brute_hand import value
from gmpy2 import mpq

RANKS = tuple(range(1, 11))
ONE_DECK = (4, 4, 4, 4, 4, 4, 4, 4, 4, 16)
INFINITE = tuple(mpq(4 if r == 10 else 1, 13) for r in RANKS)
ZERO = mpq(0)
THREE_TO_TWO = mpq(3, 2)
ONE = mpq(1)
NOTHING = (ZERO, ZERO, ZERO, ZERO)
LOSS = (ZERO, ZERO, ZERO, ONE)


class ShoeRunsOut(Exception):
    """Someone must draw from an empty shoe: the model does not cover it."""


def is_natural(cards) -> bool:
    return len(cards) == 2 and sorted(cards) == [1, 10]


def weights(objective: str, bj_pays=THREE_TO_TWO):
    if objective == "ev":
        return (mpq(bj_pays), ONE, ZERO, -ONE)
    assert objective == "win"
    return (ONE, ONE, mpq(1, 2), ZERO)


def score(w, results) -> mpq:
    return sum((a * b for a, b in zip(w, results)), ZERO)


def mix(pairs):
    """sum of probability * results over (probability, results) pairs."""
    out = [ZERO] * 4
    for p, results in pairs:
        for i, x in enumerate(results):
            if x:
                out[i] += p * x
    return tuple(out)


def dealer_must_draw(cards, h17: bool) -> bool:
    total, soft = value(cards)
    return total < 17 or (total == 17 and soft and h17)


def settle(player_total: int, dealer: dict):
    """Results of standing on ``player_total`` against a dealer outcome distribution.

    Outcomes: ``"bust"``, ints 17..21, ``"natural"`` (a dealer natural that beats any
    non-natural hand; under ``as21`` the dealer's natural is the outcome 21).
    """
    win = push = loss = ZERO
    for outcome, p in dealer.items():
        if outcome == "bust" or (outcome != "natural" and outcome < player_total):
            win += p
        elif outcome == player_total:
            push += p
        else:
            loss += p
    return (ZERO, win, push, loss)


# --- infinite deck -----------------------------------------------------------


@cache
def infinite_dealer(upcard: int, h17: bool, naturals: str):
    """P(dealer outcome | up-card), infinite deck; conditioned on no natural under peek."""

    @cache
    def finish(cards):
        total, _ = value(cards)
        if total > 21:
            return {"bust": ONE}
        if not dealer_must_draw(cards, h17):
            if is_natural(cards) and naturals != "as21":
                return {"natural": ONE}
            return {total: ONE}
        out: dict = {}
        for r in RANKS:
            for k, q in finish(tuple(sorted(cards + (r,)))).items():
                out[k] = out.get(k, ZERO) + INFINITE[r - 1] * q
        return out

    dist = finish((upcard,))
    if naturals == "peek":
        clear = ONE - dist.get("natural", ZERO)
        dist = {k: q / clear for k, q in dist.items() if k != "natural"}
    return dist


class InfiniteReference:
    """Optimal hit/stand play on the infinite deck, by recursion over the player's cards.

    Positions are memoised on (total, soft) as computed by :func:`value`, which is
    all that the future of a hand depends on with replacement.
    """

    def __init__(self, h17: bool, naturals: str, objective: str, bj_pays=THREE_TO_TWO):
        self.h17, self.naturals, self.objective = h17, naturals, objective
        self.w = weights(objective, bj_pays)
        self._memo: dict = {}

    def dealer(self, upcard):
        return infinite_dealer(upcard, self.h17, self.naturals)

    def stand(self, cards, upcard):
        return settle(value(cards)[0], self.dealer(upcard))

    def hit(self, cards, upcard):
        pairs = []
        for r in RANKS:
            new = cards + (r,)
            pairs.append((INFINITE[r - 1], LOSS if value(new)[0] > 21 else self.best(new, upcard)[1]))
        return mix(pairs)

    def best(self, cards, upcard):
        """(move, results of the best move) for a hand given by its cards."""
        key = (value(cards), upcard)
        if key not in self._memo:
            stand, hit = self.stand(cards, upcard), self.hit(cards, upcard)
            move = "hit" if score(self.w, hit) > score(self.w, stand) else "stand"
            self._memo[key] = (move, hit if move == "hit" else stand)
        return self._memo[key]

    def values(self, cards, upcard):
        """(stand value, hit value) under the objective."""
        return score(self.w, self.stand(cards, upcard)), score(self.w, self.hit(cards, upcard))

    def game(self, policy=None):
        """Results from the deal: two cards each, then the optimal play, or the fixed
        ``policy(cards, upcard) -> "hit" | "stand"`` when one is given."""
        if policy is None:
            def played(cards, up):
                return self.best(cards, up)[1]
        else:
            memo: dict = {}

            def played(cards, up):
                return self.follow(policy, cards, up, memo)
        pairs = []
        for up in RANKS:
            for a in RANKS:
                for b in RANKS:
                    chance = INFINITE[up - 1] * INFINITE[a - 1] * INFINITE[b - 1]
                    pairs.append((chance, self.dealt((a, b), up, played)))
        return mix(pairs)

    def dealt(self, cards, up, played):
        """Unconditional results of a dealt hand, the play given by ``played(cards, up)``."""
        dealer_natural = {1: INFINITE[9], 10: INFINITE[0]}.get(up, ZERO)
        if self.naturals == "as21":
            return played(cards, up)
        if is_natural(cards):
            return (ONE - dealer_natural, ZERO, dealer_natural, ZERO)
        if self.naturals == "separate":
            return played(cards, up)
        return mix([(dealer_natural, LOSS), (ONE - dealer_natural, played(cards, up))])

    def follow(self, policy, cards, upcard, memo):
        """Results of playing ``cards`` on by a fixed policy of the hand's value (no optimisation)."""
        key = (value(cards), upcard)
        if key not in memo:
            if policy(cards, upcard) == "stand":
                memo[key] = self.stand(cards, upcard)
            else:
                pairs = []
                for r in RANKS:
                    new = cards + (r,)
                    lost = value(new)[0] > 21
                    pairs.append((INFINITE[r - 1], LOSS if lost else self.follow(policy, new, upcard, memo)))
                memo[key] = mix(pairs)
        return memo[key]

    def score(self, results) -> mpq:
        return score(self.w, results)

    def bust_chance(self, cards) -> mpq:
        return sum((INFINITE[r - 1] for r in RANKS if value(cards + (r,))[0] > 21), ZERO)


# --- finite shoes ------------------------------------------------------------


def minus(counts, cards):
    """The counts without ``cards``; ``None`` when they are not all there."""
    left = list(counts)
    for r in cards:
        left[r - 1] -= 1
        if left[r - 1] < 0:
            return None
    return tuple(left)


class FiniteReference:
    """Composition-dependent optimal hit/stand play for a finite shoe of ten counts."""

    def __init__(self, shoe, h17: bool, naturals: str, objective: str, bj_pays=THREE_TO_TWO):
        self.shoe = tuple(shoe)
        self.h17, self.naturals = h17, naturals
        self.w = weights(objective, bj_pays)
        self._dealer: dict = {}
        self._positions: dict = {}

    def dealer(self, left, cards):
        """Outcome distribution of the dealer holding ``cards`` (sorted) with ``left`` in the shoe."""
        key = (left, cards)
        if key in self._dealer:
            return self._dealer[key]
        total, _ = value(cards)
        if total > 21:
            out = {"bust": ONE}
        elif not dealer_must_draw(cards, self.h17):
            out = {"natural" if is_natural(cards) and self.naturals != "as21" else total: ONE}
        else:
            n = sum(left)
            if n == 0:
                raise ShoeRunsOut(cards)
            out = {}
            for r in RANKS:
                if left[r - 1]:
                    sub = self.dealer(minus(left, (r,)), tuple(sorted(cards + (r,))))
                    for k, q in sub.items():
                        out[k] = out.get(k, ZERO) + mpq(left[r - 1], n) * q
        self._dealer[key] = out
        return out

    def hole_prior(self, cards, up):
        """P(hole card) once the player's two cards and the up-card are dealt (no natural under peek)."""
        left = minus(self.shoe, cards + (up,))
        prior = {h: mpq(c) for h, c in zip(RANKS, left) if c}
        if self.naturals == "peek":
            prior = {h: c for h, c in prior.items() if not is_natural((up, h))}
        n = sum(prior.values())
        return {h: c / n for h, c in prior.items()}

    def position(self, cards, up, hole):
        """(stand results, hit results or None) for the player's ``cards`` (sorted) against ``up``,
        the hole card distributed as ``hole`` (its posterior given every card seen)."""
        key = (cards, up, tuple(sorted(hole.items())))
        if key in self._positions:
            return self._positions[key]
        total = value(cards)[0]
        dealer: dict = {}  # the dealer's outcome distribution, the hole card averaged out
        for h, p in hole.items():
            for k, q in self.dealer(minus(self.shoe, cards + (up, h)), tuple(sorted((up, h)))).items():
                dealer[k] = dealer.get(k, ZERO) + p * q
        stand = settle(total, dealer)
        seen = minus(self.shoe, cards + (up,))
        joint: dict = {}  # rank drawn -> {hole: P(hole and this card)}
        for h, p in hole.items():
            left = minus(seen, (h,))
            n = sum(left)
            for r in RANKS:
                if left[r - 1]:
                    joint.setdefault(r, {})[h] = p * mpq(left[r - 1], n)
        hit = None
        if joint:
            pairs = []
            for r, by_hole in joint.items():
                pr = sum(by_hole.values())
                new = tuple(sorted(cards + (r,)))
                if value(new)[0] > 21:
                    pairs.append((pr, LOSS))
                else:
                    pairs.append((pr, self.best(new, up, {h: q / pr for h, q in by_hole.items()})))
            hit = mix(pairs)
        self._positions[key] = (stand, hit)
        return stand, hit

    def best(self, cards, up, hole):
        stand, hit = self.position(cards, up, hole)
        if hit is not None and score(self.w, hit) > score(self.w, stand):
            return hit
        return stand

    def values(self, cards, up):
        """(stand value, hit value) of a two-card (or longer) hand, all its cards dealt before the
        hole card's posterior is taken: the player's first two cards, the up-card, the hole
        card, then the rest of ``cards`` as hits."""
        first, rest = tuple(cards[:2]), tuple(cards[2:])
        hole = self.hole_prior(first, up)
        hand = first
        for r in rest:  # Bayes: condition the hole card on each card drawn
            seen = minus(self.shoe, hand + (up,))
            like = {h: p * mpq(minus(seen, (h,))[r - 1], sum(seen) - 1) for h, p in hole.items()}
            total = sum(like.values())
            hole = {h: q / total for h, q in like.items() if q}
            hand = hand + (r,)
        stand, hit = self.position(tuple(sorted(hand)), up, hole)
        return score(self.w, stand), (None if hit is None else score(self.w, hit))

    def game(self):
        """Unconditional results from the deal (player, player, up-card, hole card, then play)."""
        n = sum(self.shoe)
        pairs = []
        for a in RANKS:
            for b in RANKS:
                for up in RANKS:
                    left = minus(self.shoe, (a, b, up))
                    if left is None:
                        continue
                    chance = mpq(self.shoe[a - 1], n) * mpq(
                        minus(self.shoe, (a,))[b - 1], n - 1) * mpq(minus(self.shoe, (a, b))[up - 1], n - 2)
                    pairs.append((chance, self.dealt((a, b), up, left)))
        return mix(pairs)

    def dealt(self, cards, up, left):
        n = sum(left)
        natural_hole = {1: 10, 10: 1}.get(up)
        q = mpq(left[natural_hole - 1], n) if natural_hole else ZERO  # P(dealer natural)
        hand = tuple(sorted(cards))
        if self.naturals == "as21":
            return self.best(hand, up, self.hole_prior(cards, up))
        if is_natural(cards):
            return (ONE - q, ZERO, q, ZERO)
        if self.naturals == "separate":
            return self.best(hand, up, self.hole_prior(cards, up))
        if q == ONE:
            return LOSS
        return mix([(q, LOSS), (ONE - q, self.best(hand, up, self.hole_prior(cards, up)))])

    def score(self, results) -> mpq:
        return score(self.w, results)
