"""Side bets, exactly: the chance of every pay line as a fraction, the return, house edge and variance.

:mod:`~bjexact.sidebets.suits` is the suited view of a shoe (13 ranks x 4 suits),
:mod:`~bjexact.sidebets.first_cards` the player's two cards and the up-card,
:mod:`~bjexact.sidebets.dealer` the dealer's final hand (the dealer chain of
:mod:`bjexact.dealer.graph`, one step further), :mod:`~bjexact.sidebets.events` the vocabulary of
events a bet pays on, :mod:`~bjexact.sidebets.bets` bets and the built-in ones,
:mod:`~bjexact.sidebets.files` user-defined bets from TOML files, and
:mod:`~bjexact.sidebets.analysis` the analysis.

>>> from bjexact.sidebets import analyse, built_in
>>> analyse(built_in("21+3"), 6).house_edge
mpq(4059,125333)
"""

from .analysis import LOSES, LineResult, SideBetAnalysis, UpcardResult, analyse, analyse_by_decks
from .bets import BUILT_IN, PayLine, Settled, SideBet, built_in, pay_line
from .suits import Card, SuitedShoe

__all__ = ["LOSES", "LineResult", "SideBetAnalysis", "UpcardResult", "analyse", "analyse_by_decks", "BUILT_IN",
           "PayLine", "Settled", "SideBet", "built_in", "pay_line", "Card", "SuitedShoe"]
