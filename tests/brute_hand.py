"""The value of a hand for the tests' independent models, computed from scratch.

Nothing here uses bjexact's ace rule: all aces count 1, then one ace is raised to 11 when
that does not bust. The brute-force dealer (``conftest``), the player's reference model
(``player_reference``) and the symbolic tests share this one copy.
"""


def value(cards):
    """(best total, soft) of a hand of ranks 1..10."""
    hard = sum(cards)
    if 1 in cards and hard + 10 <= 21:
        return hard + 10, True
    return hard, False
