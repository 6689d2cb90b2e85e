"""Checking a published house edge against the exact value of the full game.

A printed edge such as ``-0.46%`` or ``0.457%`` is consistent with a rule set when the
exact value rounds to it: within half a unit of its last printed digit (a fraction
``p/q`` must be equal). Sites print the player's expectation (negative when the house
wins) or the house edge (its opposite); both readings are tried and the report says
which fits. A number without ``%`` is read as a percentage (as edges are quoted) unless
``scale="fraction"``. When the number fits none of the given rules, :func:`fit_edge` says
which rule sets of a list it does fit, nearest first. :func:`check_edge_file` checks a file of
lines ``RULES  EDGE`` (``6 decks, H17, DAS, late surrender: 0.42%``), the rules read from common
words and abbreviations (:func:`rules_of_text`; words it cannot read are listed, not guessed).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..core.numbers import fraction_string, mpq
from ..core.rules import GameRules
from ..errors import BjexactError
from .charts import cached_solution
from .printed import PrintedNumber, parse_number

__all__ = ["READINGS", "parse_edge", "EdgeCheck", "check_edge", "EdgeFit", "fit_edge", "format_edge_check",
           "rules_of_text", "EdgeLine", "EdgeFileCheck", "check_edge_file", "format_edge_file_check"]

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


# --- files of rule sets and house edges ------------------------------------------------------------------------

_RULE_WORDS: list[tuple[str, dict[str, Any]]] = [
    (r"(?:no|without)[ -]?das|ndas", {"das": False}),
    (r"das|double after split(?:ting)?", {"das": True}),
    (r"s17|stands? on (?:all|soft) 17", {"h17": False}),
    (r"h17|hits? soft 17", {"h17": True}),
    (r"(?:no|without) surrender|ns", {"surrender": "none"}),
    (r"early surrender|es", {"surrender": "early"}),
    (r"late surrender|ls|lsr|surrender", {"surrender": "late"}),
    (r"enhc|no hole card|european", {"hole_card": "enhc"}),
    (r"obo", {"obo": True}),
    (r"peek|ahc|hole card", {"hole_card": "peek"}),
    (r"rsa|resplit aces", {"rsa": True}),
    (r"dsa|double split aces", {"hit_split_aces": True, "double_split_aces": True}),
    (r"hsa|hit split aces", {"hit_split_aces": True}),
    (r"no split(?:ting)?|nsp", {"split_hands": 1}),
    (r"split once|no resplits?|spl?2|split to 2(?: hands)?", {"split_hands": 2}),
    (r"spl?3|(?:re)?split to 3(?: hands)?", {"split_hands": 3}),
    (r"spl?4|(?:re)?split to 4(?: hands)?", {"split_hands": 4}),
    (r"d10|do10|double (?:on )?10-11(?: only)?", {"double": "10-11"}),
    (r"d9|do9|double (?:on )?9-11(?: only)?", {"double": "9-11"}),
    (r"da2|doa|double (?:on )?any(?: two)?(?: cards)?", {"double": "any"}),
    (r"nds|no (?:soft )?doubl(?:e|ing) (?:on )?soft(?: totals)?|no double soft", {"double_soft": False}),
    (r"single[ -]deck", {"decks": 1}),
    (r"double[ -]deck", {"decks": 2}),
    (r"(?:infinite|inf)[ -]?(?:decks?|shoe)?", {"decks": "inf"}),
    (r"(\d+)[ -]?(?:decks?|d)", {"decks": None}),
    (r"(?:bj|blackjack|naturals?)? ?(?:pays )?(\d+)[:/](\d+)", {"bj_pays": None}),
]
_WORD_PATTERNS = [(re.compile(rf"(?<![\w-])(?:{pattern})(?![\w-])", re.IGNORECASE), options)
                  for pattern, options in _RULE_WORDS]


def rules_of_text(text: str, base: GameRules | None = None) -> tuple[GameRules, list[str]]:
    """The rule set a description such as ``6 decks, H17, DAS, late surrender, 3:2`` names (the
    rules not named come from ``base``), and the words left unread."""
    options = dict(vars(base or GameRules(split_hands=2)))
    options.pop("shoe", None)
    rest = text
    for pattern, values in _WORD_PATTERNS:
        match = pattern.search(rest)
        if not match:
            continue
        for key, value in values.items():
            if key == "decks" and value is None:
                value = int(match.group(1))
            elif key == "bj_pays" and value is None:
                value = mpq(int(match.group(1)), int(match.group(2)))
            options[key] = value
        rest = rest[: match.start()] + " " + rest[match.end():]
    if options.get("rsa") and options["split_hands"] <= 2:
        options["split_hands"] = 4
    if options.get("surrender") == "late" and options.get("hole_card") == "enhc":
        options["surrender"] = "early"
    if not options.get("das"):  # a split ace doubles only where split hands do
        options["double_split_aces"] = False
    unread = [w for w in re.split(r"[\s,;:|()/]+", rest) if w and w.lower() not in _FILLER]
    return GameRules(**options), unread


_FILLER = {"and", "the", "rules", "rule", "house", "edge", "player", "expectation", "ev", "with", "of", "on", "-",
           "game", "blackjack", "bj", "=", "is", "a", "&", "+"}
_LAST_NUMBER = re.compile(r"(?<=[\s:=|,;])([+\-\u2212]?\d*\.?\d+(?:[eE][+-]?\d+)?\s*%?)\s*$")


@dataclass(frozen=True)
class EdgeLine:
    line: int
    text: str
    check: EdgeCheck
    unread: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "text": self.text, "unread_words": list(self.unread)} | self.check.to_json()


@dataclass(frozen=True)
class EdgeFileCheck:
    source: str
    lines: tuple[EdgeLine, ...]

    @property
    def consistent(self) -> bool:
        return all(line.check.consistent for line in self.lines)

    def to_json(self) -> dict[str, Any]:
        return {"consistent": self.consistent, "source": self.source, "lines": [e.to_json() for e in self.lines]}


def check_edge_file(text: str, base: GameRules | None = None, *, source: str = "<edges>", scale: str = "auto",
                    progress: bool | None = False) -> EdgeFileCheck:
    """Check every line ``RULES  EDGE`` of a file (``6 decks, S17, DAS, LS: 0.42%``); blank lines and
    lines starting with ``#`` are skipped, a line without a number at its end is an error."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "//")):
            continue
        match = _LAST_NUMBER.search(stripped)
        if not match:
            raise BjexactError(f"{source} line {number}: no house edge at the end of {stripped!r} "
                               "(expected e.g. '6 decks, S17, DAS, late surrender: 0.42%')")
        printed = match.group(1).replace("\u2212", "-").replace(" ", "")
        description = stripped[: match.start()].rstrip(" :=,;|\t")
        try:
            rules, unread = rules_of_text(description, base)
        except BjexactError as exc:
            raise BjexactError(f"{source} line {number}: {exc}") from None
        found.append(EdgeLine(number, stripped, check_edge(printed, rules, scale=scale, progress=progress),
                              tuple(unread)))
    if not found:
        raise BjexactError(f"{source}: no line with rules and a house edge")
    return EdgeFileCheck(source, tuple(found))


def format_edge_file_check(check: EdgeFileCheck) -> str:
    lines = []
    for entry in check.lines:
        c = entry.check
        verdict = (f"consistent ({' or '.join(c.readings)})" if c.consistent
                   else f"NOT CONSISTENT (off by {float(c.nearest_error):+.6f} points)")
        lines.append(f"line {entry.line}: {c.text}: {verdict}; exact {_percent(c.ev * 100)} for {c.rules.describe()}")
        if entry.unread:
            lines.append(f"  words not read as rules: {' '.join(entry.unread)}")
    bad = [e for e in check.lines if not e.check.consistent]
    lines.append(f"{check.source}: " + ("CONSISTENT: every edge rounds to the exact value." if not bad else
                                         f"NOT CONSISTENT: {len(bad)} of {len(check.lines)} edges."))
    return "\n".join(lines) + "\n"
