"""Applications over the exact engine.

- :mod:`~bjexact.apps.sweep`: many exact solves at once (rule grids on Dask, a results store);
- :mod:`~bjexact.apps.replay`: a stacked deck replayed: can the player win at all?
- :mod:`~bjexact.apps.table`: a game at the terminal showing the exact value of every move.

Card counting has its own package, :mod:`bjexact.counting`.
"""
