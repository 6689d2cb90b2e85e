"""``bjexact check-strategy``: a strategy engine's decisions (hit/stand, or the full game's with ``--game``)
against the exact values, every hand."""

from __future__ import annotations

import argparse

from .common import RULES_HELP, add_rule_options, bounded_int, rules_from_args, write_output

EXAMPLES = """\
examples:
  bjexact check-strategy myengine.py:decide --decks 1
  bjexact check-strategy mypkg.engine:decide --decks 2 --h17 --shoes 20 --seed 3 --format json
  bjexact check-strategy mypkg.engine:decide --game --decks 1 --split-hands 2 --surrender late
  bjexact check-strategy mypkg.engine:decide --game --decks 1 --double-after-hit --charlie 5

The engine contract: NAME(cards, upcard, unseen) -> "hit" or "stand" (also h, s); with
--game also "double", "split" or "surrender" (d, p, r) on two-card hands, and with
--double-after-hit "double" on hands of three or more cards too:
  cards   the player's hand, a tuple of ranks (1 for the ace, 2..9, 10 for any ten-valued
          card), two cards or more;
  upcard  the dealer's up-card rank (1..10);
  unseen  a tuple of ten counts A,2..9,T: the cards the player has not seen (the shoe
          left and the dealer's hole card).
Every hand of two or more cards with a hard total of 21 or less is put to the engine
against every up-card of the full shoe, and of --shoes N random depleted shoes (a
random 10-50 % of the cards dealt away, seeded by --seed). Each decision is compared
with the exact values of standing and hitting (composition-dependent; under --naturals
peek given that the dealer has no natural); an exact tie is agreement. Disagreements
are listed by hand with both values and the cost. One deck: about 20,000 decisions;
each shoe is solved once (seconds for one deck, more for more decks). With --game the
first move of every two-card hand (no natural) is compared with the values of `bjexact
edge` for that shoe (dealer naturals included), and hands of three or more cards by
hit/stand (and double with --double-after-hit; under --charlie N hitting is valued with the
Charlie, and a hand of N cards has won and is not put to the engine); each depleted shoe
is solved under the same rules. Decisions after a split are not put to the engine (the
contract does not say a hand came from a split).

Time limits: each call of the engine must answer within --call-timeout seconds (default
10) and the whole run end within --timeout seconds (default 3600), importing the module
included. An engine that swallows the stop and runs on is ended at the next alarm (half a
second later); threads it leaves running do not hold the exit. What cannot be stopped: an
engine stuck inside one C call that ignores signals, or one that ends the process itself
(os._exit).

Exit status: 0 every decision is a best move, 1 some are not, 2 bad input (an engine
that cannot be imported, raises, exits, or answers something that is not a move).
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "check-strategy",
        help="check a strategy engine's decisions (hit/stand, or the full game's with --game) against the exact values",
        description="Put every hand of a shoe to a strategy engine and compare its moves with the exact values.",
        epilog=RULES_HELP + "\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("engine", metavar="MODULE:NAME",
                        help="the engine: an importable module (or a .py file) and a callable in it")
    add_rule_options(parser)
    from .game_options import add_game_rule_options

    parser.add_argument("--game", action="store_true",
                        help="a full-game engine: its first move on every two-card hand (stand, hit, double, "
                             "split, surrender as the rules allow) and hit/stand after (and double with "
                             "--double-after-hit)")
    add_game_rule_options(parser, title="full game rules (--game)")
    group = parser.add_argument_group("test")
    group.add_argument("--shoes", type=bounded_int(0, 1000), default=0, metavar="N",
                       help="random depleted shoes to check besides the full one (default: 0)")
    group.add_argument("--seed", type=bounded_int(-(2**63), 2**63 - 1, signed=True), default=0,
                       help="seed of the depleted shoes (default: 0)")
    group.add_argument("--call-timeout", type=float, default=10.0, metavar="S",
                       help="seconds one call of the engine may take (default: 10)")
    group.add_argument("--timeout", type=float, default=3600.0, metavar="S",
                       help="seconds the whole run may take (default: 3600)")
    out = parser.add_argument_group("output")
    out.add_argument("--format", choices=("text", "json"), default="text", help="report format (default: text)")
    out.add_argument("-o", "--output", default=None, metavar="FILE", help="write the report to FILE")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import json
    import math

    from ..checks import strategy
    from ..errors import BjexactError
    from ..progress import Progress
    from . import safety
    from .check_sim import load_user_code

    rules = rules_from_args(args)
    if rules.make_shoe().is_infinite:
        raise BjexactError("check-strategy enumerates the hands of a finite shoe: give --decks N or --shoe")
    for flag, value in (("--call-timeout", args.call_timeout), ("--timeout", args.timeout)):
        if not math.isfinite(value) or value <= 0:
            raise BjexactError(f"{flag} must be a number of seconds > 0, not {value!r}")
    game = None
    game_options = (args.double != "any", not args.double_soft, not args.das, args.split_hands is not None, args.rsa,
                    args.hit_split_aces, args.surrender != "none", args.hole_card != "peek", args.obo,
                    args.split_strategy != "cdz", args.double_split_aces, args.double_after_hit,
                    args.charlie is not None)
    if not args.game and any(game_options):
        raise BjexactError("the full game's rule options (--double, --das, --split-hands, --surrender, --hole-card "
                           "...) go with --game")
    if args.game:
        from .game_options import game_rules_from_args

        if args.naturals != "as21":
            raise BjexactError("with --game the naturals follow --hole-card: drop --naturals")
        game = game_rules_from_args(args)
    engine, started = load_user_code(args.engine, args.timeout)
    try:
        with Progress(args.shoes + 1, "check-strategy") as bar, safety.GuardedEngine(
                engine, call_timeout=args.call_timeout, timeout=args.timeout, started=started) as guarded:
            check = strategy.check_hit_stand_engine(guarded, rules, shoes=args.shoes, seed=args.seed, progress=bar) \
                if game is None else strategy.check_game_engine(guarded, game, shoes=args.shoes, seed=args.seed,
                                                                    progress=bar)
    except safety.Abort as exc:
        raise BjexactError(str(exc)) from None
    if not check.decisions:
        raise BjexactError(f"the shoe {','.join(map(str, rules.finite_shoe().counts))} deals no decision to check "
                           "(no hand of two or more cards against an up-card): nothing was tested")
    report = json.dumps(check.to_json(), indent=2) + "\n" if args.format == "json" else \
        strategy.format_strategy_check(check)
    write_output(report, args.output)
    return 0 if check.passed else 1
