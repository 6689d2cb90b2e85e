"""A brute-force reference for the whole blackjack round, used only by tests on tiny shoes.

Independent of bjexact by design: nothing here imports it, and every value is found by
enumerating the cards one by one with exact probabilities
(gmpy2's ``mpq``: the independence lies in the enumeration, not in the number type).

Ranks are ints 1..10 (1 = ace, 10 = any ten-valued card, so T, J, Q and K are one rank).
A shoe is a tuple of ten counts (A, 2, ..., 9, T) or ``"inf"`` (A..9 each 1/13, T 4/13,
drawn with replacement). Shoes passed to the public functions are the shoe before the round;
the player's cards and the up-card are taken out of it.

How the round is modelled (real order: player, up-card, player, hole card):

* The hole card is always one of the unseen cards, reserved before the player draws (under
  ENHC the dealer's second card comes after the player, which by exchangeability has the same
  law). Under peek with a T or A up it is conditioned on not completing a natural. Play is
  followed on the player's information: the unseen cards (hole card included). Every unseen
  card is equally likely to be the hole card, apart from that conditioning, however many cards
  the player has drawn since (the deal is exchangeable). So the player's next card is a card of
  the unseen ones other than a hole card drawn by that law, and once the player is done the
  hole card is turned over by the same law and the dealer draws from the rest.
* Unsplit hands play the move of largest value; ties go to the earliest of stand, hit, double,
  split, surrender.
* Split hands (``split_strategy``): a split hand holding cards C, played while H split hands are
  on the table, chooses among its allowed moves by the values of an UNSPLIT hand holding C
  when C, the up-card and n more pair cards have left the round's shoe: n = 0 (CDZ-), n = 1
  (CDP1: the first split hand's optimum, for every hand), n = H - 1 (CDP: the other hands'
  first cards, as many as the player has seen when the hand is played; other cards of theirs
  are ignored). The unsplit hand plays on optimally in that shoe, so its hit value is that of
  the best play from there. A split hand holding a pair resplits whenever allowed; when the
  hand is actually played this is exactly CDZ- (the unsplit pair's information state is the
  one the first split was chosen at), and it is also how the "split" value of a pair that is
  not worth splitting is defined. A split hand of A,T stands (the unsplit A,T is a natural,
  which has no other move).
* Doubling rule "9-11" / "10-11" looks at the hand's counted total (the soft total of a soft
  hand), so under those rules soft hands never double; ``double_soft=False`` forbids doubling
  any soft hand; "none" forbids doubling. With ``double_after_hit`` a hand of any number of
  cards may double under the same rules (a split hand only with DAS, a split ace only with
  ``double_split_aces``); without it only two-card hands do.
* ``charlie`` (a number of cards, or None): a hand that reaches that many cards without busting
  is finished at once and wins its stake (doubled or not) 1:1, unless the dealer has a natural
  (under peek that never happens once play has begun; under ENHC the natural takes its stake, or
  with OBO the round loses 1). The dealer does not draw when every hand is bust or a Charlie.
* Early surrender is offered before the peek (against any up-card) and not again after it; it
  is taken when -1/2 beats the unconditional value of the best other move. Late surrender is
  offered after the peek, as one more move valued -1/2 in the no-natural world.
* ENHC: a dealer natural takes every stake of the round, busted hands included, or only 1 in
  total with ``obo``. The dealer does not draw when every player hand has busted.
* Any line of play (including lines only needed to value a move) that needs a card from an
  empty shoe raises ``ValueError("shoe exhausted")``; the reserved hole card counts as drawn.

Cost: everything is memoised (per shoe and rules, kept across calls; ``clear_caches()`` frees
it) on the cards left, the hole card and the hands' state. A whole round on a shoe of about 16
to 20 cards of a few ranks takes a second or a few. The infinite deck is exact too (split hands
are played jointly against one dealer), fine for hands without a split and for one split
(``split_hands=2``, about a second), but a pair with resplits to four hands takes a minute or
more, and ``round_distribution("inf", ...)`` is not practical.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from gmpy2 import mpq

INF = "inf"
RANKS = tuple(range(1, 11))
MOVES = ("stand", "hit", "double", "split", "surrender")
BUST = 22  # the total of a busted hand, player's or dealer's
NATURAL = 99  # the dealer outcome "natural"
CHARLIE = 23  # the "total" of a finished Charlie hand
HALF = mpq(1, 2)


@dataclass(frozen=True)
class BFRules:
    h17: bool = False
    bj_pays: mpq = mpq(3, 2)
    double: str = "any"  # "any" | "9-11" | "10-11"
    double_soft: bool = True
    das: bool = True
    split_hands: int = 4
    rsa: bool = False
    hit_split_aces: bool = False
    surrender: str = "none"  # "none" | "late" | "early"
    hole_card: str = "peek"  # "peek" | "enhc"
    obo: bool = False
    split_strategy: str = "cdz"  # "cdz" | "cdp1" | "cdp"
    double_split_aces: bool = False  # a split ace may double (with hit_split_aces and das)
    double_after_hit: bool = False  # a hand of three or more cards may double
    charlie: int | None = None  # a hand of this many cards that has not busted wins at once


@dataclass(frozen=True, eq=False)
class _Game:
    """One shoe and rules; made only by :func:`_game_of`, so there is one object for each shoe and rules
    and the memoised functions key on it by identity (hashing the rules' fields on every look-up cost
    more than the look-ups)."""

    shoe: tuple | str
    rules: BFRules


@cache
def _game_of(shoe, rules):
    return _Game(shoe, rules)


def _game(shoe, rules):
    if rules.double not in ("any", "9-11", "10-11", "none") or rules.surrender not in ("none", "late", "early"):
        raise ValueError("unknown rule value")
    if rules.hole_card not in ("peek", "enhc"):
        raise ValueError("unknown hole-card rule")
    if rules.split_strategy not in ("cdz", "cdp1", "cdp"):
        raise ValueError("unknown split strategy")
    if rules.hole_card == "enhc" and rules.surrender == "late":
        raise ValueError("late surrender needs a peek")
    if shoe != INF:
        shoe = tuple(shoe)
        if len(shoe) != 10 or any(not isinstance(c, int) or c < 0 for c in shoe):
            raise ValueError("a shoe is ten non-negative counts or 'inf'")
    return _game_of(shoe, rules)


# ---------------------------------------------------------------- cards and shoes


def _total(hard, ace):
    """(total, soft) of a hand with this hard sum, with or without an ace; a bust is BUST."""
    if ace and hard <= 11:
        return hard + 10, True
    return (hard if hard <= 21 else BUST), False


def _value(cards):
    return _total(sum(cards), 1 in cards)


def _is_natural(cards):
    return sorted(cards) == [1, 10]


def _partner(up):
    """The hole card that makes a natural with this up-card, if any."""
    return {1: 10, 10: 1}.get(up)


def _remove(stock, cards):
    if stock == INF:
        return INF
    counts = list(stock)
    for c in cards:
        counts[c - 1] -= 1
        if counts[c - 1] < 0:
            raise ValueError("cards not in the shoe")
    return tuple(counts)


@cache
def _draws(stock):
    """(rank, probability, stock left) for every possible next card (memoised: a few thousand shoes are
    drawn from hundreds of thousands of times)."""
    if stock == INF:
        return tuple((r, mpq(4 if r == 10 else 1, 13), INF) for r in RANKS)
    n = sum(stock)
    if n == 0:
        raise ValueError("shoe exhausted")
    return tuple((r, mpq(c, n), _remove(stock, (r,))) for r, c in zip(RANKS, stock) if c)


def _mix(weighted):
    """The mixture sum(p * dist) of (p, distribution) pairs."""
    out = {}
    get = out.get
    for p, dist in weighted:
        if p:
            for x, q in dist.items():
                out[x] = get(x, 0) + p * q
    return out


def _mean(dist):
    return sum((mpq(x) * p for x, p in dist.items()), mpq(0))


@cache
def _hole_cards(g, unseen, up):
    """(hole card, probability, stock left) given the unseen cards; under peek, not a natural."""
    banned = _partner(up) if g.rules.hole_card == "peek" else None
    options = [(h, p, rest) for h, p, rest in _draws(unseen) if h != banned]
    z = sum(p for _, p, _ in options)
    if z == 0:
        raise ValueError("the dealer surely has a natural")
    return tuple((h, p / z, rest) for h, p, rest in options)


@cache
def _player_draws(g, unseen, up):
    """(rank, probability, unseen left) of the player's next card: a card of the unseen ones other
    than the hole card, which is itself any unseen card (under peek with T/A up, not a natural)."""
    if unseen == INF:
        return _draws(INF)
    n = sum(unseen)
    if n < 2:
        raise ValueError("shoe exhausted")
    chances = {}
    for _hole, w, rest in _hole_cards(g, unseen, up):
        for c, p, _ in _draws(rest):
            chances[c] = chances.get(c, 0) + w * p
    return tuple((c, p, _remove(unseen, (c,))) for c, p in sorted(chances.items()))


def _peek_natural_chance(g, unseen, up):
    """P(dealer natural) as the dealer checks it under peek (0 under ENHC or with no T/A up)."""
    if g.rules.hole_card != "peek" or _partner(up) is None:
        return mpq(0)
    return sum((p for h, p, _ in _draws(unseen) if h == _partner(up)), mpq(0))


# ---------------------------------------------------------------- dealer and settlement


@cache
def _dealer_draws(stock, hard, ace, h17):
    total, soft = _total(hard, ace)
    if total >= 18 or (total == 17 and not (h17 and soft)):
        return {total: mpq(1)}
    return _mix((p, _dealer_draws(rest, hard + r, ace or r == 1, h17)) for r, p, rest in _draws(stock))


def _dealer(g, stock, up, hole):
    if _partner(up) == hole:
        return {NATURAL: mpq(1)}
    return _dealer_draws(stock, up + hole, 1 in (up, hole), g.rules.h17)


def _settle(done, dealer, rules):
    """Net result (an int) of the finished hands ((total, stake) pairs) against the dealer's outcome."""
    if dealer == NATURAL:
        return -1 if rules.obo else -sum(stake for _, stake in done)
    result = 0
    for total, stake in done:
        if total == CHARLIE:
            result += stake
        elif total == BUST or (dealer != BUST and total < dealer):
            result -= stake
        elif dealer == BUST or total > dealer:
            result += stake
    return result


@cache
def _dealer_outcomes(g, unseen, up, draws):
    """Law of the dealer's outcome once the player is done: the hole card (one of the unseen cards;
    under peek with T/A up not a natural) is turned over, then, if `draws`, the dealer draws."""
    out = {}
    for hole, w, stock in _hole_cards(g, unseen, up):
        if draws:
            outcomes = _dealer(g, stock, up, hole)
        else:
            outcomes = {NATURAL if _partner(up) == hole else BUST: mpq(1)}
        for o, p in outcomes.items():
            out[o] = out.get(o, 0) + w * p
    return out


@cache
def _finish(g, unseen, up, done):
    """Distribution of the net result of the finished hands; the dealer draws unless all busted."""
    out = {}
    for o, p in _dealer_outcomes(g, unseen, up, any(total not in (BUST, CHARLIE) for total, _ in done)).items():
        x = _settle(done, o, g.rules)
        out[x] = out.get(x, 0) + p
    return out


# ---------------------------------------------------------------- the player


def _can_double(rules, cards):
    if rules.double == "none" or (len(cards) > 2 and not rules.double_after_hit):
        return False
    total, soft = _value(cards)
    if soft and not rules.double_soft:
        return False
    return rules.double == "any" or total in {"9-11": (9, 10, 11), "10-11": (10, 11)}[rules.double]


def _first_moves(g, cards):
    """Moves of an unsplit two-card hand, surrender aside."""
    moves = ["stand", "hit"]
    if _can_double(g.rules, cards):
        moves.append("double")
    if cards[0] == cards[1] and g.rules.split_hands >= 2:
        moves.append("split")
    return tuple(moves)


def _best(g, cards, up, moves):
    """The move of largest unsplit value; max() keeps the first of equal values."""
    return max(moves, key=lambda m: _move_value(g, cards, up, m))


@cache
def _decide(g, cards, up, pair, nhands):
    """The move of a hand being played (not its first move when unsplit, which is forced)."""
    rules = g.rules
    if nhands == 1:
        return _best(g, cards, up, ("stand", "hit") + (("double",) if _can_double(rules, cards) else ()))
    if len(cards) == 2 and cards[0] == cards[1] and nhands < rules.split_hands and (cards[0] != 1 or rules.rsa):
        return "split"
    if (pair == 1 and not rules.hit_split_aces) or cards == (1, 10):
        return "stand"
    moves = ("stand", "hit")
    if rules.das and (pair != 1 or rules.double_split_aces) and _can_double(rules, cards):
        moves += ("double",)
    gone = {"cdz": 0, "cdp1": 1, "cdp": nhands - 1}[rules.split_strategy]
    return _best(_game_of(_remove(g.shoe, (pair,) * gone), rules), cards, up, moves)


@cache
def _play(g, unseen, up, done, cards, pair, pending, nhands, move=None):
    """Distribution of the round's net result from this point of the player's play.

    unseen: cards not seen by the player (the hole card is one of them); done: sorted (total,
    stake) of finished hands; cards: the hand in play (sorted); pair: the split rank (0 before a
    split); pending: split hands still holding one card; nhands: hands in the round; move: the
    forced first move, else the strategy's.
    """

    def next_hand(unseen, done):
        if pending:
            return _play(g, unseen, up, done, (pair,), pair, pending - 1, nhands)
        return _finish(g, unseen, up, done)

    def add(total, stake):  # a total below 17 settles like 16: it wins only when the dealer busts
        return tuple(sorted(done + ((max(total, 16), stake),)))

    def final(hand):
        return _final(g.rules, hand)

    if len(cards) == 1:  # a split hand takes its second card
        return _mix(
            (p, _play(g, rest, up, done, tuple(sorted(cards + (r,))), pair, pending, nhands))
            for r, p, rest in _player_draws(g, unseen, up)
        )
    move = move or _decide(g, cards, up, pair, nhands)
    if move == "stand":
        return next_hand(unseen, add(_value(cards)[0], 1))
    if move == "double":
        draws = _player_draws(g, unseen, up)
        return _mix((p, next_hand(rest, add(final(cards + (r,)), 2))) for r, p, rest in draws)
    if move == "split":
        return _play(g, unseen, up, done, (cards[0],), cards[0], pending + 1, nhands + 1)
    if move == "hit":
        out = []
        for r, p, rest in _player_draws(g, unseen, up):
            new = tuple(sorted(cards + (r,)))
            settled = final(new)
            if settled in (BUST, CHARLIE):
                out.append((p, next_hand(rest, add(settled, 1))))
            else:
                out.append((p, _play(g, rest, up, done, new, pair, pending, nhands)))
        return _mix(out)
    raise ValueError(f"unknown move {move!r}")


@cache
def _move_dist(g, cards, up, move):
    """Distribution of the result of an unsplit hand's move (under peek with T/A up, given no natural)."""
    if move == "surrender":
        return {-HALF: mpq(1)}
    return _play(g, _remove(g.shoe, cards + (up,)), up, (), cards, 0, 0, 1, move)


@cache
def _move_value(g, cards, up, move):
    return _mean(_move_dist(g, cards, up, move))


@cache
def _natural_dist(g, cards, up):
    unseen = _remove(g.shoe, cards + (up,))
    return _mix(
        (w, {mpq(0) if h == _partner(up) else mpq(g.rules.bj_pays): mpq(1)})
        for h, w, _ in _hole_cards(g, unseen, up)
    )


@cache
def _top_move(g, cards, up):
    """The first move of the round's hand: 'natural', 'surrender' or a move played after the peek."""
    if _is_natural(cards):
        return "natural"
    rules = g.rules
    p_nat = _peek_natural_chance(g, _remove(g.shoe, cards + (up,)), up)
    moves = _first_moves(g, cards) + (("surrender",) if rules.surrender == "late" else ())
    best, value = ("stand", mpq(-1)) if p_nat == 1 else (_best(g, cards, up, moves), None)
    if value is None:
        value = _move_value(g, cards, up, best)
    if rules.surrender == "early" and -HALF > p_nat * -1 + (1 - p_nat) * value:
        return "surrender"
    return best


@cache
def _deal_dist(g, cards, up):
    """Distribution of the round's result given the player's two cards and the up-card."""
    move = _top_move(g, cards, up)
    if move == "surrender" and g.rules.surrender == "early":  # before any peek
        return {-HALF: mpq(1)}
    p_nat = _peek_natural_chance(g, _remove(g.shoe, cards + (up,)), up)
    if p_nat == 1:  # the dealer surely has a natural
        return {mpq(0) if move == "natural" else mpq(-1): mpq(1)}
    if move == "natural":
        return _mix([(p_nat, {mpq(0): mpq(1)}), (1 - p_nat, _natural_dist(g, cards, up))])
    return _mix([(p_nat, {mpq(-1): mpq(1)}), (1 - p_nat, _move_dist(g, cards, up, move))])


# ---------------------------------------------------------------- public API


def move_values(shoe, player_cards, upcard, rules=BFRules()):
    """Value per unit initial bet of every allowed move of an unsplit hand.

    Two cards: stand, hit, double (if allowed), split (a pair), surrender (if offered); more
    cards: stand and hit. Under peek with a T or A up the values are conditioned on no dealer
    natural, except "surrender", which is -1/2: for early surrender that is unconditional (it is
    decided before the peek). A natural gets {"stand": its value} (conditioned likewise).
    """
    g = _game(shoe, rules)
    cards = tuple(sorted(player_cards))
    if len(cards) < 2 or _value(cards)[0] == BUST:
        raise ValueError("a hand to play has two or more cards and has not busted")
    if rules.charlie and len(cards) >= rules.charlie:
        raise ValueError("a Charlie has won: nothing to play")
    if len(cards) == 2 and _is_natural(cards):
        return {"stand": _mean(_natural_dist(g, cards, upcard))}
    moves = _first_moves(g, cards) if len(cards) == 2 else \
        ("stand", "hit") + (("double",) if _can_double(rules, cards) else ())
    values = {m: _move_value(g, cards, upcard, m) for m in moves}
    if len(cards) == 2 and rules.surrender != "none":
        values["surrender"] = -HALF
    return values


def insurance_value(shoe, player_cards, upcard, rules=BFRules()):
    """Value per unit initial bet of insuring for half the stake (2:1 if the hole card is a ten)."""
    g = _game(shoe, rules)
    if upcard != 1:
        raise ValueError("insurance is offered only against an ace")
    unseen = _remove(g.shoe, tuple(player_cards) + (upcard,))
    p_ten = sum((p for h, p, _ in _draws(unseen) if h == 10), mpq(0))
    return p_ten - (1 - p_ten) * HALF


def round_distribution(shoe, rules=BFRules()):
    """Exact distribution {net result: probability} of a whole round, dealt in real order."""
    g = _game(shoe, rules)
    weighted = []
    for p1, q1, s1 in _draws(g.shoe):
        for up, q2, s2 in _draws(s1):
            for p2, q3, _ in _draws(s2):
                weighted.append((q1 * q2 * q3, _deal_dist(g, tuple(sorted((p1, p2))), up)))
    return {mpq(x): p for x, p in _mix(weighted).items() if p}


def round_value(shoe, rules=BFRules()):
    """Expected net result of a round per unit initial bet."""
    return _mean(round_distribution(shoe, rules))


def round_value_by_upcard(shoe, rules=BFRules()):
    """{up-card: expected net result of the round given that up-card} (dealer naturals included)."""
    g = _game(shoe, rules)
    values = {}
    for up, _, s in _draws(g.shoe):
        weighted = []
        for p1, q1, s1 in _draws(s):
            for p2, q2, _ in _draws(s1):
                weighted.append((q1 * q2, _deal_dist(g, tuple(sorted((p1, p2))), up)))
        values[up] = _mean(_mix(weighted))
    return values


def simulate_round(shoe, rules, rng):
    """Deal and play one random round (real order, same strategy); return its net result."""
    g = _game(shoe, rules)
    if g.shoe == INF:

        def deal():
            return rng.choices(RANKS, cum_weights=(1, 2, 3, 4, 5, 6, 7, 8, 9, 13))[0]  # a ten four times as likely

    else:
        pack = [r for r, c in zip(RANKS, g.shoe) for _ in range(c)]
        rng.shuffle(pack)

        def deal():
            if not pack:
                raise ValueError("shoe exhausted")
            return pack.pop()

    p1, up, p2 = deal(), deal(), deal()
    hole = deal() if rules.hole_card == "peek" else None
    cards = tuple(sorted((p1, p2)))
    move = _top_move(g, cards, up)
    if move == "surrender" and rules.surrender == "early":
        return -HALF
    if rules.hole_card == "peek" and _partner(up) == hole:
        return mpq(0) if move == "natural" else mpq(-1)
    if move == "surrender":
        return -HALF
    if move == "natural":
        if hole is None:
            hole = deal()
        return mpq(0) if _partner(up) == hole else mpq(rules.bj_pays)

    done, waiting, pair, nhands, forced = [], [], 0, 1, move
    hand = list(cards)
    while hand is not None:
        if len(hand) == 1:
            hand.append(deal())
        c = tuple(sorted(hand))
        m, forced = forced or _decide(g, c, up, pair, nhands), None
        if m == "split":
            pair, nhands = c[0], nhands + 1
            waiting.append([c[0]])
            hand = [c[0]]
            continue
        if m == "hit":
            hand.append(deal())
            if _value(hand)[0] != BUST and not (rules.charlie and len(hand) >= rules.charlie):
                continue
            done.append((_final(rules, hand), 1))
        elif m == "double":
            done.append((_final(rules, hand + [deal()]), 2))
        else:
            done.append((_value(hand)[0], 1))
        hand = waiting.pop() if waiting else None

    if hole is None:
        hole = deal()
    if _partner(up) == hole:
        outcome = NATURAL
    elif all(total in (BUST, CHARLIE) for total, _ in done):
        outcome = BUST
    else:
        hard, ace = up + hole, 1 in (up, hole)
        while True:
            total, soft = _total(hard, ace)
            if total >= 18 or (total == 17 and not (rules.h17 and soft)):
                break
            r = deal()
            hard, ace = hard + r, ace or r == 1
        outcome = total
    return mpq(_settle(done, outcome, rules))


def _final(rules, hand):
    """The total a finished hand is settled by: BUST, CHARLIE or its total."""
    total = _value(hand)[0]
    return CHARLIE if rules.charlie and total != BUST and len(hand) >= rules.charlie else total


def clear_caches():
    """Forget every memoised value (they are kept across calls, keyed by shoe and rules)."""
    for f in (_draws, _hole_cards, _player_draws, _dealer_draws, _dealer_outcomes, _finish, _decide, _play, _move_dist,
              _move_value):
        f.cache_clear()
    for f in (_top_move, _natural_dist, _deal_dist, _game_of):
        f.cache_clear()
