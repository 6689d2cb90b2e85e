"""Checking a published house edge against the exact value of the full game.

A printed edge such as ``-0.46%`` or ``0.457%`` is consistent with a rule set when the
exact value rounds to it: within half a unit of its last printed digit (a fraction
``p/q`` must be equal). Sites print the player's expectation (negative when the house
wins) or the house edge (its opposite); both readings are tried and the report says
which fits. A number without ``%`` is read as a percentage (as edges are quoted) unless
``scale="fraction"``. When the number fits none of the given rules, :func:`fit_edge` says
which rule sets of a list it does fit, nearest first.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .chart_check import cached_solution
from .errors import BjexactError
from .exact import fraction_string, mpq
from .fullgame import GameRules
from .verify import PrintedNumber, parse_number

__all__ = ["READINGS", "parse_edge", "EdgeCheck", "check_edge", "EdgeFit", "fit_edge", "format_edge_check"]

READINGS = ("player expectation", "house edge")


def parse_edge(text: str, *, scale: str = "auto") -> tuple[PrintedNumber, mpq]:
    """The printed number and its value in percent (``scale``: auto/percent, or fraction)."""
    number = parse_number(text.strip())
    if number is None:
        raise BjexactError(f"cannot read {text.strip()!r} as a house edge (e.g. -0.46%, 0.457%, 0.0046 with "
                           "--scale fraction)")
    if scale not in ("auto", "percent", "fraction"):
        raise BjexactError(f"scale must be auto, percent or fraction, not {scale!r}")
    factor = 100 if scale == "fraction" and not number.percent else 1
    return number, number.value * factor


def _allowed(number: PrintedNumber, factor: int) -> mpq:
    """Half a unit of the last printed digit, in percent (0 for fractions: equality)."""
    if number.kind == "fraction":
        return mpq(0)
    if number.kind == "long":
        return abs(number.value) * factor * mpq(1, 10**9)
    return number.unit * factor / 2


@dataclass(frozen=True)
class EdgeCheck:
    """``printed`` (percent) against ``ev`` (the round's exact expectation per unit bet)."""

    text: str
    printed: mpq
    allowed: mpq
    rules: GameRules
    ev: mpq

    def error(self, reading: str) -> mpq:
        exact = self.ev * 100 if reading == "player expectation" else -self.ev * 100
        return self.printed - exact

    @property
    def readings(self) -> list[str]:
        """The readings under which the printed number is consistent."""
        return [r for r in READINGS if abs(self.error(r)) <= self.allowed]

    @property
    def consistent(self) -> bool:
        return bool(self.readings)

    @property
    def nearest_error(self) -> mpq:
        return min((self.error(r) for r in READINGS), key=abs)

    def to_json(self) -> dict[str, Any]:
        return {
            "consistent": self.consistent, "printed": self.text, "printed_percent": fraction_string(self.printed),
            "allowed": fraction_string(self.allowed), "rules": self.rules.to_json(),
            "rules_text": self.rules.describe(), "ev": fraction_string(self.ev),
            "house_edge": fraction_string(-self.ev), "ev_percent_decimal": f"{float(self.ev * 100):.9f}",
            "readings": self.readings, "error": fraction_string(self.nearest_error),
        }


def check_edge(text: str, rules: GameRules, *, scale: str = "auto", progress: bool | None = False) -> EdgeCheck:
    """Is the printed edge consistent with ``rules`` to its printed precision?"""
    number, printed = parse_edge(text, scale=scale)
    factor = 100 if scale == "fraction" and not number.percent else 1
    return EdgeCheck(number.text, printed, _allowed(number, factor), rules, cached_solution(rules, progress).ev)


@dataclass(frozen=True)
class EdgeFit:
    text: str
    checks: tuple[EdgeCheck, ...]  # nearest first

    @property
    def matches(self) -> list[EdgeCheck]:
        return [c for c in self.checks if c.consistent]

    def to_json(self) -> dict[str, Any]:
        return {"consistent": bool(self.matches), "printed": self.text,
                "candidates": [c.to_json() for c in self.checks]}


def fit_edge(text: str, rule_sets: Iterable[GameRules], *, scale: str = "auto",
             progress: bool | None = False) -> EdgeFit:
    """The printed edge against every rule set, nearest first."""
    checks = [check_edge(text, rules, scale=scale, progress=progress) for rules in rule_sets]
    checks.sort(key=lambda c: (not c.consistent, abs(c.nearest_error)))
    return EdgeFit(text, tuple(checks))


def _percent(value: mpq) -> str:
    return f"{float(value):+.6f}%"


def format_edge_check(check: EdgeCheck, fit: EdgeFit | None = None, *, limit: int = 5) -> str:
    lines = [f"{check.text} against {check.rules.describe()}:",
             f"  exact expectation {_percent(check.ev * 100)} (house edge {_percent(-check.ev * 100)}), "
             f"= {fraction_string(check.ev)} per unit bet"]
    if check.consistent:
        lines.append(f"CONSISTENT: {check.text} is the {' or the '.join(check.readings)}, to its printed precision "
                     f"(within {float(check.allowed):g} percentage points).")
    else:
        lines.append(f"NOT CONSISTENT: off by {float(check.nearest_error):+.6f} percentage points as the nearest "
                     f"reading; its precision allows {float(check.allowed):g}.")
    if fit is not None:
        matches = fit.matches
        lines.append(f"Of {len(fit.checks)} rule sets tried, {len(matches)} fit, nearest first:")
        for c in (matches or list(fit.checks))[:limit]:
            lines.append(f"  {c.rules.describe()}: {_percent(c.ev * 100)}"
                         + (f" ({' or '.join(c.readings)})" if c.consistent else
                            f" (off by {float(c.nearest_error):+.6f} points)"))
    return "\n".join(lines) + "\n"
