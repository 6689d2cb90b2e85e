"""The full game's rule options (``edge``, ``hand``, ``chart``)."""

from __future__ import annotations

import argparse
from dataclasses import fields

from ..core.rules import CHARLIE_CARDS, MAX_SPLIT_HANDS, RULE_OPTIONS, SPLIT_STRATEGIES, GameRules
from ..errors import BjexactError
from .common import add_shoe_options

GAME_RULES_HELP = """\
rules (defaults: 2 decks, S17, blackjack pays 3/2, double any two cards, double after
split, split to 4 hands, aces split once and get one card each, no surrender, the
dealer peeks with a ten or ace up, CDZ- post-split play):
  --decks N|inf  --shoe A,2,...,T  --h17  --bj-pays P/Q
  --double any|9-11|10-11|none   first two cards (totals, soft included); --no-double-soft
  --das / --no-das          double after splitting
  --split-hands 1..8        the most hands splitting makes (2: split once; 1: no splitting)
  --rsa                     resplit aces;  --hit-split-aces  draw to split aces
  --double-split-aces       with --hit-split-aces and DAS: a split ace may double too
                            (default: it may not, as most analyzers assume)
  --double-after-hit        a hand of any number of cards may double (the --double
                            totals rule still applies, and DAS after a split)
  --charlie N               N-card Charlie (4..10; 5 is common): a hand reaching N cards
                            without busting wins 1:1 at once, unless the dealer has a natural
  --surrender none|late|early   early: before the dealer checks for a natural
  --hole-card peek|enhc     peek: the dealer checks with a ten or ace up; enhc: European
                            no hole card, a dealer natural takes doubles and splits too
  --obo                     with enhc: only the original bet is lost to a dealer natural
  --split-strategy cdz|cdp1|cdp|optimal   CDZ-: split hands play the unsplit hands'
                            strategy; CDP1: the first split hand's optimal strategy, for every
                            split hand; CDP: optimal for the split hands on the table when the
                            hand is played (the other pair cards gone); splitting once, CDP1;
                            optimal: every split hand knows every card seen in the round
                            (bjexact hand, edge, chart and sweep)
"""


def add_game_rule_options(parser: argparse.ArgumentParser, *, title: str = "rules",
                          split_hands_help: str = "(default: 4; 2 = split once; 1 = no splitting)") -> None:
    """The full game's rule options; those ``parser`` has already (--decks, --bj-pays, ...) are kept."""
    group = parser.add_argument_group(title)
    if "--decks" not in parser._option_string_actions:
        add_shoe_options(group)
    if "--bj-pays" not in parser._option_string_actions:
        group.add_argument("--bj-pays", default="3/2", metavar="P/Q",
                           help="what a player's natural pays (default: 3/2)")
    group.add_argument("--double", choices=("any", "9-11", "10-11", "none"), default="any",
                       help="which first-two-card totals may double (default: any; none: no doubling)")
    group.add_argument("--no-double-soft", dest="double_soft", action="store_false",
                       help="no doubling on soft totals")
    group.add_argument("--das", dest="das", action="store_true", default=True,
                       help="double after splitting (default)")
    group.add_argument("--no-das", dest="das", action="store_false", help="no doubling after splitting")
    group.add_argument("--split-hands", type=int, choices=range(1, MAX_SPLIT_HANDS + 1), default=None,
                       metavar=f"1..{MAX_SPLIT_HANDS}",
                       help=f"the most hands splitting can make {split_hands_help}")
    group.add_argument("--rsa", action="store_true", help="aces may be resplit")
    group.add_argument("--hit-split-aces", action="store_true",
                       help="split aces may be hit (default: one card each); they double only with "
                            "--double-split-aces")
    group.add_argument("--double-split-aces", action="store_true",
                       help="with --hit-split-aces and DAS: a split ace may double too (default: it may not)")
    group.add_argument("--double-after-hit", action="store_true",
                       help="a hand of three or more cards may double too, under the --double totals rule "
                            "(and DAS after a split); e.g. --double-after-hit --double 9-11")
    group.add_argument("--charlie", type=_charlie, default=None, metavar="N",
                       help=f"N-card Charlie ({CHARLIE_CARDS[0]}..{CHARLIE_CARDS[-1]}): a hand reaching N cards "
                            "without busting wins 1:1 at once (not against a dealer natural); e.g. --charlie 5")
    group.add_argument("--surrender", choices=("none", "late", "early"), default="none",
                       help="surrender half the bet (default: none)")
    group.add_argument("--hole-card", choices=("peek", "enhc"), default="peek",
                       help="peek (US, default) or enhc (European no hole card)")
    group.add_argument("--obo", action="store_true", help="with enhc: a dealer natural takes the original bet only")
    group.add_argument("--split-strategy", choices=SPLIT_STRATEGIES, default="cdz",
                       help="post-split play: cdz (CDZ-, the unsplit hands' strategy; default), cdp1 (the "
                            "first split hand's optimal strategy, the other pair card gone, for every split hand), "
                            "cdp (optimal with the other split hands' pair cards gone, as many as are on the "
                            "table when the hand is played) or optimal (perfect play: every split hand knows every "
                            "card seen in the round; bjexact hand, edge, chart and sweep)")


def _charlie(text: str) -> int:
    """The number of cards of ``--charlie`` (its range is checked by the rules, in one line)."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of cards, e.g. 5, not {text!r}") from None


def game_rules_from_args(args: argparse.Namespace, *, split_hands: int = 4, optimal_splits: bool = False):
    """The :class:`bjexact.core.rules.GameRules` the options describe; ``split_hands`` when
    ``--split-hands`` was not given (``None``). ``--split-strategy optimal`` is refused in one line
    unless the command values it (``optimal_splits``)."""
    from ..core.rules import parse_bj_pays, refuse_split_rules_without_splitting
    from ..player.values import OPTIMAL_FOR_ONE_HAND
    from .common import shoe_from_args

    if getattr(args, "split_strategy", None) == "optimal" and not optimal_splits:
        raise BjexactError(OPTIMAL_FOR_ONE_HAND)
    shoe = shoe_from_args(args)
    bj_pays = parse_bj_pays(args.bj_pays)
    # every rule of GameRules is the option of its name (--split-hands: split_hands)
    options = {f.name: getattr(args, f.name) for f in fields(GameRules)
               if f.name not in ("decks", "shoe", "bj_pays") and hasattr(args, f.name)}
    options.update(bj_pays=bj_pays, split_hands=split_hands if args.split_hands is None else args.split_hands)
    return refuse_split_rules_without_splitting(GameRules(**shoe, **options))


# the full game's rule options with their defaults as parsed (``--split-hands`` unset is None)
_DEFAULT_RULES = GameRules()
GAME_OPTION_DEFAULTS = {name: (option, None if name == "split_hands" else getattr(_DEFAULT_RULES, name))
                        for name, option in RULE_OPTIONS.items()}


def refuse_options(args: argparse.Namespace, where: str) -> None:
    """A one-line error for the first full-game rule option set away from its default, which does not
    apply ``where`` (e.g. "with --moves hit-stand")."""
    for dest, (option, default) in GAME_OPTION_DEFAULTS.items():
        if getattr(args, dest) != default:
            raise BjexactError(f"{option} is a rule of the full game: it does not apply {where}")
