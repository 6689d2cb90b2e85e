"""Count systems: the tags a count gives each rank, and where an unbalanced count starts."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ..apps.sweep import read_toml
from ..core.numbers import mpq
from ..errors import BjexactError

__all__ = ["SYSTEMS", "CountSystem", "load_system", "MAX_NAME"]

# the longest name a count system file may give (it heads tables)
MAX_NAME = 60

# tags of A, 2, ..., 9, T
SYSTEMS: dict[str, tuple[int, ...]] = {
    "hi-lo": (-1, 1, 1, 1, 1, 1, 0, 0, 0, -1),
    "ko": (-1, 1, 1, 1, 1, 1, 1, 0, 0, -1),
    "hi-opt-1": (0, 0, 1, 1, 1, 1, 0, 0, 0, -1),
    "hi-opt-2": (0, 1, 1, 2, 2, 1, 1, 0, 0, -2),
    "omega-2": (0, 1, 1, 2, 2, 2, 1, 0, -1, -2),
    "zen": (-1, 1, 1, 2, 2, 2, 1, 0, 0, -2),
}

@dataclass(frozen=True)
class CountSystem:
    name: str
    tags: tuple[int, ...]

    @property
    def imbalance(self) -> int:
        """The running count after one whole deck of 52 cards (0 for a balanced count; KO: +4)."""
        return sum(t * (16 if r == 10 else 4) for r, t in enumerate(self.tags, 1))

    @property
    def balanced(self) -> bool:
        return self.imbalance == 0

    def initial_running_count(self, cards: int) -> int:
        """Where an unbalanced count starts on a shoe of ``cards`` cards: minus the imbalance
        times one deck less than the shoe holds (KO: 4 - 4 x decks: 0 for one deck, -20 for
        six), rounded to a whole number; 0 for a balanced count."""
        return round(-self.imbalance * (mpq(cards, 52) - 1))

    def running(self, seen: Sequence[int]) -> int:
        """The running count of the cards seen (counts of A..T)."""
        return sum(t * n for t, n in zip(self.tags, seen))

    def mean_tag(self, full: Sequence[int]) -> mpq:
        """What a card of the shoe ``full`` counts on average (0 for a balanced count on whole decks):
        an unbalanced count (KO) is read as its balanced equivalent, the running count less this
        times the cards seen."""
        return mpq(self.running(full), sum(full))

    def balanced_true_count(self, full: Sequence[int], running: int, seen: int) -> mpq:
        """The true count after ``seen`` cards of the shoe ``full`` counted ``running``: the running count
        less what that many cards count on average (:meth:`mean_tag`; 0 for a balanced count), per deck
        unseen (52 cards); exact."""
        return (running - self.mean_tag(full) * seen) * 52 / mpq(sum(full) - seen)


def load_system(name: str) -> CountSystem:
    """A built-in system (hi-lo, ko, hi-opt-1, hi-opt-2, omega-2, zen) or a TOML file:
    ``name = "..."``, ``tags = [A, 2, ..., 9, T]``."""
    if name in SYSTEMS:
        return CountSystem(name, SYSTEMS[name])
    path = Path(name)
    if not path.exists():
        raise BjexactError(f"unknown count system {name!r}: {', '.join(SYSTEMS)} or a TOML file with tags")
    document = read_toml(path, "count system")
    tags = document.get("tags")
    if not isinstance(tags, list) or len(tags) != 10 or not all(type(t) is int for t in tags):
        raise BjexactError(f"{path}: tags must be a list of ten whole numbers (A, 2, ..., 9, T)")
    name = document.get("name", path.stem)
    if not isinstance(name, str) or not name.isprintable() or not 0 < len(name) <= MAX_NAME:
        raise BjexactError(f"{path}: name must be printable text of 1 to {MAX_NAME} characters, not {str(name)[:20]!r}")
    return CountSystem(name, tuple(tags))
