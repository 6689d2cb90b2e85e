"""A hit/stand engine with a classic bug, for `check-strategy`: it values hitting with the dealer's
outcome probabilities frozen at the cards unseen before the player's draws (they should change
with every card the player draws)."""
from functools import cache

from bjexact import Rules, dealer_table


@cache
def frozen_dealer(unseen, upcard):  # P(dealer outcome) from the cards unseen now, up-card back in
    return dealer_table(Rules(shoe=tuple(c + (r == upcard) for r, c in enumerate(unseen, 1)))).rows[upcard]


@cache
def value(cards, upcard, unseen, frozen):  # (stand, hit) with the dealer of `frozen`
    total = sum(cards) + (10 if 1 in cards and sum(cards) <= 11 else 0)
    odds = frozen_dealer(frozen, upcard)
    stand = sum(p * ((o == "bust" or int(o) < total) - (o != "bust" and int(o) > total)) for o, p in odds.items())
    if sum(unseen) <= 1:  # the last unseen card is the dealer's hole card
        return stand, None
    hit = 0
    for rank, left in enumerate(unseen, 1):
        if left and sum(cards) + rank <= 21:
            rest = tuple(c - (r == rank) for r, c in enumerate(unseen, 1))
            hit += left * max(v for v in value(tuple(sorted(cards + (rank,))), upcard, rest, frozen) if v is not None)
        elif left:
            hit -= left
    return stand, hit / sum(unseen)


def decide(cards, upcard, unseen):
    stand, hit = value(tuple(sorted(cards)), upcard, tuple(unseen), tuple(unseen))
    return "hit" if hit is not None and hit > stand else "stand"
