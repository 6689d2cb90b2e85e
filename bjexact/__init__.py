"""bjexact: exact blackjack probabilities and expected values, as fractions.

    >>> import bjexact
    >>> table = bjexact.dealer_table(bjexact.Rules(decks="inf"))
    >>> table[6]["bust"]
    mpq(...)

The names below are imported lazily, so ``import bjexact`` is cheap.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

# Exact numbers are gmpy2's mpq, and sympy's QQ must hold the same elements: with python-flint
# installed sympy would otherwise pick flint's fmpq. Set before sympy is first imported.
os.environ.setdefault("SYMPY_GROUND_TYPES", "gmpy")

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS = {
    "BjexactError": "errors",
    "Rules": "rules",
    "Shoe": "cards",
    "parse_rank": "cards",
    "parse_cards": "cards",
    "rank_symbol": "cards",
    "HandValue": "hand",
    "hand_value": "hand",
    "add_card": "hand",
    "DealerGraph": "dealer",
    "DealerTable": "dealer",
    "dealer_graph": "dealer",
    "dealer_table": "dealer",
    "dealer_distributions": "dealer",
    "absorption": "solve",
    "dealer_matrices": "matrices",
    "fraction_string": "exact",
    "dealer_diagram": "diagrams",
    "player_diagram": "diagrams",
    "build_report": "report",
    "symbolic_dealer_table": "symbolic",
    "decision_boundaries": "symbolic",
    "dealer_removal_effects": "eor",
    "game_removal_effects": "eor",
    "read_dealer_table": "verify",
    "check_dealer_table": "verify",
    "identify": "verify",
    "check_dealer_simulator": "simcheck",
    "check_gym_blackjack": "simcheck",
}

__all__ = sorted(_EXPORTS) + ["__version__"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bjexact' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
