"""The rules of a web request: the query string's words, the command line's messages.

A query names the rules of the full game as their JSON form does (:meth:`GameRules.to_json
<bjexact.core.rules.GameRules.to_json>`, the ``"rules"`` object of every JSON output, a sweep's grid
file): ``decks=6&h17=true&split_hands=2&surrender=late``. A rule left out has its default; ``-`` may
stand for ``_`` (``split-hands=2``); a yes/no rule reads ``true``/``false`` (also ``1``/``0``, ``yes``/
``no``, ``on``/``off``, and nothing: ``?h17`` is ``h17=true``). :func:`rules_query` writes the shortest
query of a rule set, the page's shareable link. Bad input is a :class:`~bjexact.errors.BjexactError`
whose one line is the command line's where the check is the rules' own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from urllib.parse import urlencode

from ..core.cards import parse_shoe, whole_number
from ..core.numbers import short
from ..core.rules import GameRules, parse_bj_pays, refuse_split_rules_without_splitting
from ..errors import BjexactError

__all__ = ["RULE_NAMES", "rules_from_query", "rules_query", "refuse_heavy_work"]

RULE_NAMES = tuple(f.name for f in fields(GameRules) if f.name != "plain_naturals")
"""The rules a query may name (the hit/stand game's ``plain_naturals`` convention is not the full game's)."""

_YES_NO = {"true": True, "1": True, "yes": True, "on": True, "": True,
           "false": False, "0": False, "no": False, "off": False}
_DEFAULTS = GameRules()


def rules_from_query(query: Mapping[str, str], *, ignore: tuple[str, ...] = ()) -> GameRules:
    """The :class:`GameRules` a query names; parameters in ``ignore`` belong to the request
    (``format``, ``cards``, ...), any other unknown one is refused, naming it."""
    options: dict[str, object] = {}
    for key, text in query.items():
        if key in ignore:
            continue
        name = key.replace("-", "_")
        if name not in RULE_NAMES:
            raise BjexactError(f"unknown rule {short(key)!r} (rules: {', '.join(RULE_NAMES)})")
        options[name] = _value(name, text.strip())
    return refuse_split_rules_without_splitting(GameRules.from_json(options))


def _value(name: str, text: str) -> object:
    """A rule's value from its text in a query, typed as :meth:`GameRules.from_json` reads it."""
    default = getattr(_DEFAULTS, name)
    if isinstance(default, bool):
        if text.lower() not in _YES_NO:
            raise BjexactError(f"{name} must be true or false, not {short(text)!r}")
        return _YES_NO[text.lower()]
    if name == "bj_pays":
        return parse_bj_pays(text)
    if name == "shoe":
        return list(parse_shoe(text))
    if name == "split_hands":
        return whole_number(text, "--split-hands", maximum=99)
    if name == "charlie":
        return None if text.lower() in ("", "none", "no", "false", "0") else whole_number(text, "--charlie",
                                                                                            maximum=99)
    return text


def rules_query(rules: GameRules) -> str:
    """The shortest query of ``rules``: the rules that differ from the defaults, in the order of
    :data:`RULE_NAMES` (``decks=6&h17=true``); :func:`rules_from_query` of it gives ``rules`` back."""
    document = rules.to_json()
    pairs = []
    for name in RULE_NAMES:
        value = document.get(name)
        if name in ("decks", "shoe") and value is None:
            continue
        if name == "decks" and rules.shoe is None and value == _DEFAULTS.decks:
            continue
        if name not in ("decks", "shoe") and getattr(rules, name) == getattr(_DEFAULTS, name):
            continue
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, list):
            value = ",".join(str(v) for v in value)
        pairs.append((name, str(value)))
    return urlencode(pairs, safe=",/")


def refuse_heavy_work(rules: GameRules) -> None:
    """The bound on a request's work: rule sets whose solve takes minutes are refused, with the
    reason and the command that computes them. Perfect post-split play values every split hand
    position by position (a minute and more per rule set on a deck); a served answer stays within
    seconds."""
    if rules.split_strategy == "optimal":
        raise BjexactError("--split-strategy optimal takes minutes per rule set, beyond what the server computes "
                           "for one request: run 'bjexact edge --split-strategy optimal' (or hand, chart) instead")
