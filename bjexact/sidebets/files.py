"""User-defined side bets from TOML files: what the bet sees and a pay table over the events of
:mod:`bjexact.sidebets.events`. Nothing in a file is evaluated: it is read with the standard
library's ``tomllib`` and checked word by word.

A bet file::

    name = "my-buster"            # optional: the file's name without .toml
    title = "Buster Blackjack"    # optional
    settled = "before-deal"       # or "after-upcard" (default: before-deal)
    sees = ["dealer"]             # what the bet sees: any of "hand", "upcard", "dealer"

    [[line]]                      # the best line first: a deal is paid by the first line it matches
    name = "busts with 8 cards or more"
    pays = 250                    # to 1: a whole number, a decimal (2.5) or a fraction ("5/2")
    dealer.bust = true            # every condition of a line must hold
    dealer.cards = "8+"

A malformed file (not TOML, an unknown key or event, a value an event cannot take) or a
contradictory one (a line reading what the bet does not see, a line whose conditions can never
hold together, a line every deal of which an earlier line pays) is refused with a one-line
:class:`~bjexact.errors.BjexactError` naming the file and the problem.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core.numbers import check_number_text, mpq, parse_fraction, short
from ..errors import BjexactError
from .analysis import analyse
from .bets import PayLine, Settled, SideBet
from .events import condition
from .suits import SuitedShoe

__all__ = ["read_bet_file", "bet_from_toml", "MAX_FILE_BYTES"]

MAX_FILE_BYTES = 1 << 20
_TOP_KEYS = ("name", "title", "settled", "sees", "about", "line")
_SEES = ("hand", "upcard", "dealer")


def read_bet_file(path: str | Path) -> SideBet:
    """The bet of a TOML file (see the module's documentation), checked."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BjexactError(f"no such bet file: {short(str(path), 60)}") from None
    except IsADirectoryError:
        raise BjexactError(f"{short(str(path), 60)} is a directory, not a bet file") from None
    if len(data) > MAX_FILE_BYTES:
        raise BjexactError(f"{short(str(path), 60)}: a bet file of {len(data):,} bytes is too large "
                           f"(at most {MAX_FILE_BYTES:,})")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BjexactError(f"{short(str(path), 60)}: not a text file (UTF-8)") from None
    return bet_from_toml(text, path.stem, where=short(str(path), 60))


def bet_from_toml(text: str, default_name: str = "bet", *, where: str = "the bet file") -> SideBet:
    """The bet a TOML text defines; ``where`` names it in errors."""
    try:
        document = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise BjexactError(f"{where}: not valid TOML: {exc}") from None
    try:
        bet = _bet(document, default_name)
        _check_every_line_can_pay(bet)
    except BjexactError as exc:
        raise BjexactError(f"{where}: {exc}") from None
    return bet


def _text(document: Mapping[str, Any], key: str, default: str) -> str:
    value = document.get(key, default)
    if not isinstance(value, str) or not value.strip():
        raise BjexactError(f"{key} must be a non-empty string, not {short(repr(value))}")
    return value.strip()


def _bet(document: Mapping[str, Any], default_name: str) -> SideBet:
    for key in document:
        if key not in _TOP_KEYS:
            raise BjexactError(f"unknown key {short(key, 30)!r} (a bet file has {', '.join(_TOP_KEYS)})")
    settled_text = _text(document, "settled", Settled.BEFORE_DEAL)
    if settled_text not in tuple(Settled):
        raise BjexactError(f"settled must be before-deal or after-upcard, not {short(settled_text)!r}")
    sees = document.get("sees")
    if sees is None:
        raise BjexactError('no "sees": say what the bet sees, e.g. sees = ["dealer"] (any of hand, upcard, dealer)')
    if not isinstance(sees, list) or not sees or not all(isinstance(s, str) and s in _SEES for s in sees):
        raise BjexactError(f"sees must be a list of hand, upcard, dealer, not {short(repr(sees))}")
    lines = document.get("line")
    if not isinstance(lines, list) or not lines or not all(isinstance(line, dict) for line in lines):
        raise BjexactError("no pay line: give one [[line]] table or more (name, pays and conditions)")
    bet = SideBet(_text(document, "name", default_name), _text(document, "title", default_name),
                  Settled(settled_text), tuple(_line(line, n) for n, line in enumerate(lines, start=1)),
                  _text(document, "about", "A user-defined bet."))
    for line in bet.lines:
        unseen = sorted({part for part in line.sees if part.value.split("-")[0] not in sees})
        if unseen:
            read = next(c.feature.name for c in line.conditions if set(c.feature.sees) & set(unseen))
            raise BjexactError(f"line {line.name!r} reads {read}, but the bet sees only {', '.join(sees)} "
                               f"(sees = {sees})")
    return bet


def _flatten(table: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """``dealer.cards = 3`` (TOML makes it {"dealer": {"cards": 3}}) as ("dealer.cards", 3)."""
    for key, value in table.items():
        if isinstance(value, dict):
            yield from _flatten(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _line(table: Mapping[str, Any], number: int) -> PayLine:
    name = table.get("name")
    if not isinstance(name, str) or not name.strip():
        raise BjexactError(f"line {number} has no name (name = \"...\")")
    where = f"line {name!r}"
    if "pays" not in table:
        raise BjexactError(f"{where} has no pays (what it pays to 1)")
    pays = _pays(table["pays"], where)
    conditions = []
    for key, value in _flatten({k: v for k, v in table.items() if k not in ("name", "pays")}):
        try:
            conditions.append(condition(key, _plain(value)))
        except BjexactError as exc:
            raise BjexactError(f"{where}: {exc}") from None
    if not conditions:
        raise BjexactError(f"{where} has no condition: it would pay on every deal")
    return PayLine(name.strip(), pays, tuple(conditions))


def _plain(value: Any) -> Any:
    """TOML decimals (read exactly) as whole numbers where they are whole; anything else as it is."""
    if isinstance(value, Decimal):
        if value != value.to_integral_value():
            raise BjexactError(f"{value} is not a whole number")
        return int(value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _pays(value: Any, where: str) -> mpq:
    if isinstance(value, bool):
        raise BjexactError(f"{where}: pays must be a number, not {str(value).lower()}")
    if isinstance(value, int):
        pays = mpq(value)
    elif isinstance(value, Decimal):
        if not value.is_finite():
            raise BjexactError(f"{where}: pays must be a finite number, not {value}")
        pays = mpq(Fraction(value))
    elif isinstance(value, str):
        try:
            pays = parse_fraction(check_number_text(value, f"{where}: pays").replace(":", "/", 1))
        except ValueError:
            raise BjexactError(f"{where}: pays must be a number such as 9, 2.5 or \"5/2\", "
                               f"not {short(value)!r}") from None
    else:
        raise BjexactError(f"{where}: pays must be a number such as 9, 2.5 or \"5/2\", not {short(repr(value))}")
    if pays < 0:
        raise BjexactError(f"{where}: pays {value} is negative: pays are to 1 (a deal matching no line loses)")
    return pays


def _check_every_line_can_pay(bet: SideBet) -> None:
    """Refuse a line that never pays on the infinite deck, where every card can be dealt any number of
    times: its conditions contradict each other, or earlier lines pay every deal it matches."""
    shoe = SuitedShoe.infinite()
    analysis = analyse(bet, shoe)
    for line, result in zip(bet.lines, analysis.lines):
        if result.chance:
            continue
        alone = SideBet(bet.name, bet.title, bet.settled, (line,))
        if not analyse(alone, shoe).lines[0].chance:
            raise BjexactError(f"line {line.name!r} can never happen: its conditions ({line.describe()}) "
                               "contradict each other")
        raise BjexactError(f"line {line.name!r} is never paid: every deal it matches is paid by an earlier line")
