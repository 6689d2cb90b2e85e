"""A dealer simulator with a bug, for `bjexact check-sim examples/mysim.py:dealer_outcome --decks inf`.

The dealer stands on 17 and counts an ace as 11 only when it is the first ace of the hand and the
hand is not yet soft: a soft hand that draws an ace becomes hard (A,2 + A is hard 14 instead of
soft 14), a slip that simulators of this kind make. bjexact's check finds it at the ace.
"""

import random

CARDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]  # the infinite deck: each rank drawn at its chance


def dealer_outcome(upcard: int, rng: random.Random) -> str:
    total, soft = (11, True) if upcard == 1 else (upcard, False)
    while True:
        if total > 21 and soft:
            total, soft = total - 10, False
        if total > 21:
            return "bust"
        if total >= 17:
            return str(total)
        card = rng.choice(CARDS)
        if card == 1 and not soft and total <= 10:
            total, soft = total + 11, True
        elif card == 1 and soft:
            total, soft = total - 10 + 1, False  # the slip: the soft ace is counted as one as well
        else:
            total += card
