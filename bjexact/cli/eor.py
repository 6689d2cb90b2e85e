"""``bjexact eor``: exact effects of removal of each rank on the dealer's outcomes or the game's value."""

from __future__ import annotations

import argparse

from ..errors import BjexactError
from .common import (
    RULES_HELP,
    add_bj_pays_option,
    add_output_options,
    add_rule_options,
    number_style,
    require_a_round,
    rules_from_args,
    write_output,
)
from .game_options import GAME_RULES_HELP, add_game_rule_options, game_rules_from_args, refuse_options

EXAMPLES = """\
examples:
  bjexact eor --decks 1                      # removing one A, 2, ..., T from one deck
  bjexact eor --decks 6 --upcard 6 --exact   # conditioned on the up-card 6, as fractions
  bjexact eor --decks 1 --format json        # exact fractions, always
  bjexact eor --decks inf                    # infinite deck: derivatives D_r f instead
  bjexact eor --decks inf --partials         # ... or the raw partial derivatives df/dp_r
  bjexact eor --decks 1 --game --no-das     # the full game's house edge: 11 exact solves
  bjexact eor --decks 2 --game --split-hands 2 --surrender late --exact
  bjexact eor --decks inf --game --moves hit-stand --naturals peek   # the hit/stand game: D_r V
  bjexact eor --decks 1 --game --moves hit-stand   # exact, one full solve per rank (about 15 s)

Without --upcard the probabilities are those before the up-card is seen (each
up-card weighted by its chance; under --naturals peek by its chance and its chance of
no natural: P(outcome | no dealer natural), as bjexact.dealer.average_row); with it, P(outcome | up-card), the up-card
having left the shoe. Changes are in percentage points (--exact: fractions).
JSON: {"rules", "kind", "upcard", "outcomes", "base": {...}, "effects": {"A": {...}, ...}}.

--game: the value of the round from the deal. --moves full (the default): the full
game (double, split, surrender; the rule options of 'bjexact edge'), finite shoes
only, exact changes of the expected result per unit initial bet, in percentage points
(one deck: about a minute and a half). --moves hit-stand: the classic hit/stand game,
with --objective and --naturals; the infinite deck gives derivatives D_r V.
JSON: {"rules", "moves", "kind", "objective", "base", "effects": {"A": "p/q", ...}}.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "eor", help="exact effects of removal of each rank on the dealer's outcomes or the game's value",
        description="Exact effects of removing one card of each rank on the dealer's outcome probabilities "
                    "(or, with --game, on the value of the full game or of the hit/stand game).",
        epilog=RULES_HELP + "\n" + GAME_RULES_HELP + "\n" + EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--upcard", default=None, metavar="CARD",
                        help="condition on this up-card (default: before the up-card is seen)")
    parser.add_argument("--partials", action="store_true",
                        help="infinite deck: raw partial derivatives df/dp_r instead of D_r f")
    parser.add_argument("--game", action="store_true",
                        help="the value of the round instead of the dealer's outcomes (one exact solve per "
                             "rank and one of the full shoe; --moves hit-stand: about 15 s in all for one deck)")
    parser.add_argument("--moves", choices=("full", "hit-stand"), default="full",
                        help="--game: full: stand, hit, double, split, surrender (default); hit-stand: the "
                             "hit/stand game")
    parser.add_argument("--objective", choices=("ev", "win"), default=None,
                        help="--game --moves hit-stand: ev (+1/0/-1) or win (1, 1/2 for a push, 0: a chance of "
                             "winning, printed in %%) (default: ev)")
    add_bj_pays_option(parser)
    add_rule_options(parser, naturals_default=None)
    add_game_rule_options(parser, title="full game rules (--game)")
    add_output_options(parser)
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..core.cards import parse_rank
    from ..render.removal import removal_tables
    from ..render.tables import render
    from ..symbolic.removal import dealer_removal_effects

    if args.game and args.moves == "full":
        return _run_full_game(args)
    refuse_options(args, "with --moves hit-stand" if args.game else "to the dealer's outcomes (without --game)")
    args.naturals = args.naturals or "as21"
    args.objective = args.objective or "ev"
    rules = rules_from_args(args)
    if args.partials and not rules.infinite:
        raise BjexactError("--partials is for the infinite deck (--decks inf)")
    upcard = None if args.upcard is None else parse_rank(args.upcard)
    style = number_style(args)
    if args.game:
        from ..render.removal import game_tables
        from ..symbolic.removal import game_removal_effects

        require_a_round(rules)
        if upcard is not None or args.partials:
            raise BjexactError("--game is the value from the deal: --upcard and --partials do not apply")
        game = game_removal_effects(rules, args.objective)
        signed = replace(style, signed=True)
        text = render(game_tables(game, signed), args.format, signed, game.to_json())
        write_output(text, args.output)
        return 0
    effects = dealer_removal_effects(rules, upcard)
    base, changes = removal_tables(effects, style, partials=args.partials)
    text = render([base], args.format, style, effects.to_json())
    if args.format != "json":
        text += "\n" + render([changes], args.format, replace(style, signed=True))
    write_output(text, args.output)
    return 0


def _run_full_game(args: argparse.Namespace) -> int:
    """``eor --game`` for the full game: one exact solve of the round per shoe."""
    from dataclasses import replace

    from ..render.removal import full_game_tables
    from ..render.tables import render
    from ..symbolic.removal import full_game_removal_effects

    for option, given in (("--naturals", args.naturals), ("--objective", args.objective)):
        if given:
            raise BjexactError(f"{option} is an option of the hit/stand game: add --moves hit-stand")
    if args.upcard is not None or args.partials:
        raise BjexactError("--game is the value from the deal: --upcard and --partials do not apply")
    rules = game_rules_from_args(args)
    effects = full_game_removal_effects(rules, progress=None)
    style = replace(number_style(args), signed=True)
    text = render(full_game_tables(effects, style), args.format, style, effects.to_json())
    write_output(text, args.output)
    return 0
