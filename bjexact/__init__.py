"""bjexact: exact blackjack probabilities and expected values, as fractions.

    >>> import bjexact
    >>> table = bjexact.dealer_table(bjexact.Rules(decks="inf"))
    >>> table[6]["bust"]
    mpq(...)

The names below are imported lazily, so ``import bjexact`` is cheap.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import os
import sys
from types import ModuleType
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


# Modules that moved into the layers, under their former names: ``import bjexact.rules`` gives
# ``bjexact.core.rules`` itself (the same module object). New code imports the new homes.
_FORMER_NAMES = {
    "exact": "core.numbers",
    "cards": "core.cards",
    "hand": "core.hand",
    "rules": "core.rules",
    "solve": "chain.solve",
    "matrices": "dealer.matrices",
    "tables": "render.tables",
    "diagrams": "render.diagrams",
    "plots": "render.plots",
    "report": "render.report",
    "eor": "symbolic.removal",
    "replay": "apps.replay",
    "game": "apps.game",
}


class _FormerNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``bjexact.<former name>`` and loads it as the module that now holds its code."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in _FORMER_NAMES:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: Any) -> ModuleType:
        module = importlib.import_module(f"{__name__}.{_FORMER_NAMES[spec.name.rpartition('.')[2]]}")
        spec.loader_state = module.__spec__  # the import system gives the module this spec: put back its own
        return module

    def exec_module(self, module: ModuleType) -> None:
        spec = module.__spec__
        if spec is not None:  # already loaded under its new name: nothing to run
            module.__spec__ = spec.loader_state


class _Package(ModuleType):
    """The package's module: a former module name that is also the name of a function
    (``solve``, once ``bjexact.chain.solve``) keeps naming the function after
    ``import bjexact.solve``, which imports the module (``from bjexact.solve import ...`` still works)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and name in _EXPORTS and name in _FORMER_NAMES:
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
sys.meta_path.insert(0, _FormerNames())  # before any finder of files that once had these names
