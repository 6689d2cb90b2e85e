"""The game's vocabulary: exact numbers, cards and shoes, the value of a hand, the rules.

Nothing here imports from the other layers of bjexact.
"""
