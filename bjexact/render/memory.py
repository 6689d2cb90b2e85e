"""A process's memory of what it computed and may be asked for again: the latest few results by key.

Reports, their figures and rule effects are pure functions of their inputs, and a process often asks
for the same one twice: the same report written again, reports of neighbouring rule sets (which share
most of their changed rule sets), a report of the same rules split once. Each memory is bounded, the
oldest result forgotten first: a six-deck solution with its distribution holds tens of MB.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

__all__ = ["Memory"]

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Memory(Generic[K, V]):
    """The latest ``size`` results, by key, the oldest forgotten first.

    Examples
    --------
    >>> squares: Memory[int, int] = Memory(2)
    >>> squares.recall(3, lambda: 3 * 3), squares.recall(3, lambda: -1)  # the second is remembered
    (9, 9)
    >>> squares.remember(4, 16); squares.remember(5, 25); 3 in squares  # three keys: the oldest goes
    16
    25
    False
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self._results: dict[K, V] = {}

    def __contains__(self, key: K) -> bool:
        return key in self._results

    def __len__(self) -> int:
        return len(self._results)

    def get(self, key: K) -> V | None:
        """The result remembered for ``key``, or None."""
        return self._results.get(key)

    def remember(self, key: K, result: V) -> V:
        """Note ``result`` for ``key`` (forgetting the oldest result when full); ``result``."""
        if key not in self._results and len(self._results) >= self.size:
            self._results.pop(next(iter(self._results)))
        self._results[key] = result
        return result

    def recall(self, key: K, compute: Callable[[], V]) -> V:
        """The result remembered for ``key``, else ``compute()``, remembered."""
        found = self._results.get(key)
        return self.remember(key, compute()) if found is None else found
