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

from .core.display import present_with

# The exact values are gmpy2's mpq, the elements of sympy's QQ with its gmpy ground types. SymPy picks
# python-flint's types instead when that is installed, unless told otherwise before its first import.
os.environ.setdefault("SYMPY_GROUND_TYPES", "gmpy")

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS = {
    "BjexactError": "errors",
    "Rules": "core.rules",
    "Naturals": "core.rules",
    "Shoe": "core.cards",
    "InfiniteShoe": "core.cards",
    "FiniteShoe": "core.cards",
    "parse_rank": "core.cards",
    "parse_cards": "core.cards",
    "rank_symbol": "core.cards",
    "HandValue": "core.hand",
    "hand_value": "core.hand",
    "add_card": "core.hand",
    "DealerGraph": "dealer.graph",
    "DealerTable": "dealer.distributions",
    "dealer_graph": "dealer.graph",
    "dealer_table": "dealer.distributions",
    "dealer_distributions": "dealer.distributions",
    "absorption": "chain.solve",
    "dealer_matrices": "dealer.matrices",
    "fraction_string": "core.numbers",
    "dealer_diagram": "render.diagrams",
    "player_diagram": "render.diagrams",
    "build_report": "render.report",
    "symbolic_dealer_table": "symbolic.table",
    "decision_boundaries": "symbolic.boundaries",
    "dealer_removal_effects": "symbolic.removal",
    "game_removal_effects": "symbolic.removal",
    "read_dealer_table": "checks.verify",
    "check_dealer_table": "checks.verify",
    "identify": "checks.verify",
    "check_dealer_simulator": "checks.simcheck",
    "check_gym_blackjack": "checks.simcheck",
    "GameRules": "core.rules",
    "solve_game": "player.game",
    "hand_moves": "player.game",
    "split_values": "player.game",
    "optimal_split": "player.optimal_split",
    "solve": "player.solver",
    "hand_decision": "player.solver",
    "average_row": "dealer.distributions",
    "insurance_value": "player.game",
    "even_money": "player.game",
    "report_section": "render.symbolic",
    "rank_key": "core.cards",
    "RankKeyError": "core.cards",
}

__all__ = sorted(_EXPORTS) + ["__version__"]

# Notebooks show dealer tables, solutions, decisions and matrices as HTML or Markdown tables,
# drawn by the presentation layer, which is imported the first time one is shown
# (see bjexact.core.display).
present_with(f"{__name__}.render.notebook")


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'bjexact' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__
