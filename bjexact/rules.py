"""Rule sets: the shoe, the dealer's soft-17 rule and the naturals convention.

Naturals conventions (a *natural* is an ace and a ten-valued card as the first two cards):

``as21`` (default)
    The dealer's natural is simply a final 21: six outcomes 17..21, bust.
``separate``
    A two-card 21 is its own outcome, ``blackjack``; the 21 column holds only
    21s of three or more cards.
``peek``
    Every probability is conditioned on the dealer *not* holding a natural (the
    dealer checks the hole card first and the round ends at once when it is a
    natural). Only the A and T rows change: they are renormalised.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from .cards import Counts, Shoe
from .errors import BjexactError
from .exact import as_rational, fraction_string, mpq
from .hand import HandValue

__all__ = ["Rules", "NATURALS", "INFINITE"]

NATURALS = ("as21", "separate", "peek")
INFINITE = math.inf
DEFAULT_DECKS = 2
Naturals = Literal["as21", "separate", "peek"]


def _parse_decks(decks: Any) -> int | float | None:
    if decks is None:
        return None
    if isinstance(decks, str):
        text = decks.strip().lower()
        if text in ("inf", "infinite", "infinity"):
            return INFINITE
        if text.isascii() and text.isdigit() and len(text) <= 7:  # not '²', not 5,000 digits
            decks = int(text)
        else:
            raise BjexactError(f"--decks must be a whole number >= 1 or 'inf', not {decks[:20]!r}")
    if decks == INFINITE:
        return INFINITE
    if isinstance(decks, bool) or not isinstance(decks, int) or decks < 1:
        raise BjexactError(f"the number of decks must be a whole number >= 1 or inf, not {decks!r}")
    return decks


@dataclass(frozen=True)
class Rules:
    """An immutable rule set.

    ``decks``: a whole number of 52-card decks, or ``math.inf`` / ``"inf"`` for the
    infinite deck (default: 2). ``shoe``: ten custom counts (A, 2, ..., 9, T) instead
    of decks (giving both is an error); then ``decks`` is ``None``. ``h17``: the dealer hits soft 17 (default:
    stands on all 17s). ``naturals``: see the module docstring. ``bj_pays``: what a
    player's natural pays under ``separate`` and ``peek`` (player analysis only).
    """

    decks: int | float | str | None = None
    h17: bool = False
    naturals: Naturals = "as21"
    shoe: Counts | None = None
    bj_pays: mpq = field(default_factory=lambda: mpq(3, 2))

    def __post_init__(self) -> None:
        if self.shoe is not None:
            if self.decks is not None:
                raise BjexactError("give a number of decks or a shoe, not both")
            object.__setattr__(self, "shoe", Shoe.of_counts(self.shoe).counts)
        else:
            object.__setattr__(self, "decks", DEFAULT_DECKS if self.decks is None else _parse_decks(self.decks))
        if not isinstance(self.h17, bool):
            raise BjexactError(f"h17 must be True or False, not {self.h17!r}")
        if self.naturals not in NATURALS:
            raise BjexactError(
                f"unknown naturals convention {self.naturals!r} (use {', '.join(NATURALS)})"
            )
        try:
            bj_pays = as_rational(self.bj_pays)
        except (ValueError, TypeError, ZeroDivisionError):
            raise BjexactError(f"--bj-pays must be an exact fraction such as 3/2, not {self.bj_pays!r}") from None
        if bj_pays < 0:
            raise BjexactError(f"--bj-pays must not be negative ({self.bj_pays})")
        object.__setattr__(self, "bj_pays", bj_pays)

    @property
    def infinite(self) -> bool:
        return self.decks == INFINITE

    def make_shoe(self) -> Shoe:
        """The full shoe before any card is dealt."""
        if self.shoe is not None:
            return Shoe.of_counts(self.shoe)
        if self.infinite:
            return Shoe.infinite()
        return Shoe.of_decks(self.decks)

    def dealer_stands(self, hand: HandValue) -> bool:
        """Whether the dealer stands on ``hand``: 17 or more, except soft 17 under H17."""
        if hand.total > 17:
            return True
        return hand.total == 17 and not (self.h17 and hand.soft)

    def to_json(self) -> dict[str, Any]:
        """The JSON form: ``{"decks": 2 | "inf" | null, "h17", "naturals", "shoe"}``."""
        return {
            "decks": "inf" if self.infinite else self.decks,
            "h17": self.h17,
            "naturals": self.naturals,
            "shoe": list(self.shoe) if self.shoe is not None else None,
        }

    def describe(self) -> str:
        """One line for people, e.g. ``2 decks, S17, naturals as21``."""
        if self.shoe is not None:
            shoe = "shoe " + ",".join(map(str, self.shoe))
        elif self.infinite:
            shoe = "infinite deck"
        else:
            shoe = f"{self.decks} deck{'s' if self.decks != 1 else ''}"
        text = f"{shoe}, {'H17' if self.h17 else 'S17'}, naturals {self.naturals}"
        if self.naturals != "as21" and self.bj_pays != mpq(3, 2):
            text += f", blackjack pays {fraction_string(self.bj_pays)}"
        return text
