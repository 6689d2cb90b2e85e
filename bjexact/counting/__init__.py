"""Card counting measured exactly: count systems, index numbers, betting figures, simulated shoes.

- :mod:`~bjexact.counting.systems`: the tags of a count (Hi-Lo, KO, ...), built in or from a file;
- :mod:`~bjexact.counting.indices`: index numbers of every chart decision, from exact solves;
- :mod:`~bjexact.counting.betting`: win rate, SD, N0, SCORE and risk of ruin of a bet ramp;
- :mod:`~bjexact.counting.simulation`: simulated shoes, every round solved exactly for its cards.
"""
