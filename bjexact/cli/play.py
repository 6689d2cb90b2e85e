"""``bjexact play``: blackjack at the terminal, with exact advice at every decision."""

from __future__ import annotations

import argparse

EXAMPLES = """\
examples:
  bjexact play                          # one deck, 100 chips, exact advice on
  bjexact play --decks 2 --chips 50 --seed 7
  bjexact play --bj-pays 1 --hints off  # naturals pay even money, no advice
  printf '10\\nh\\ns\\nq\\n' | bjexact play --seed 1   # scripted: one answer per line

At the stake prompt type a whole number of chips (Enter repeats the last stake);
at a decision type h (hit) or s (stand). q, end of input or Ctrl-C leave the table
and print the final balance (a stake already on the table is lost).

Table rules: naturals are settled right after the deal (the player's pays
--bj-pays, the dealer's wins, both push); hit or stand only; the dealer stands on
all 17s (--h17: hits soft 17); the shoe is reshuffled when under a quarter is left.
Advice: exact expected values per chip staked (+1 win, 0 push, -1 loss) of
standing and of hitting then playing on optimally, for the cards you have not
seen, given that the dealer has no blackjack; and the dealer's final-outcome
probabilities if you stand now.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "play", help="play blackjack at the terminal with exact advice",
        description="Play blackjack against the dealer, with exact expected values at every decision.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from .common import bounded_int

    parser.add_argument("--decks", type=bounded_int(-10**6, 10**6, signed=True), default=1, metavar="N",
                        help="decks in the shoe, 1 to 8 (default: 1)")
    parser.add_argument("--chips", type=bounded_int(-10**12, 10**12, signed=True), default=100, metavar="N",
                        help="starting chips (default: 100)")
    parser.add_argument("--seed", type=bounded_int(-(2**63), 2**63 - 1, signed=True), default=None, metavar="N",
                        help="seed the shuffles (reproducible games)")
    parser.add_argument("--bj-pays", default="3/2", metavar="P/Q",
                        help="what a player's blackjack pays per chip, e.g. 3/2 or 1 (default: 3/2)")
    parser.add_argument("--hints", choices=("on", "off"), default="on", help="exact advice (default: on)")
    parser.add_argument("--h17", action="store_true",
                        help="the dealer hits soft 17 (default: stands on all 17s)")
    parser.set_defaults(run=run)


def _line_reader(stream, echo):
    """Answers read line by line from a non-terminal ``stream``, echoed after the prompt."""

    def read(prompt: str) -> str | None:
        line = stream.readline()
        if not line:
            echo(prompt.rstrip())
            return None
        answer = line.rstrip("\r\n")
        echo(prompt + answer)
        return answer

    return read


def _patient(advisor, write, after: float = 1.0):
    """``advisor`` that says it is still working when an exact solution takes more than ``after`` s."""
    import threading

    def advise(*args):
        notice = threading.Timer(after, write, ["  (working out the exact values...)"])
        notice.daemon = True
        notice.start()
        try:
            return advisor(*args)
        finally:
            notice.cancel()

    return advise


def run(args: argparse.Namespace) -> int:
    import sys

    from ..apps.game import Game, GameConfig, exact_advice
    from ..core.numbers import parse_fraction
    from ..errors import BjexactError
    from .common import check_number_text

    if sys.stdin is None:
        raise BjexactError("standard input is closed: play reads your answers from it")
    try:
        bj_pays = parse_fraction(check_number_text(args.bj_pays, "--bj-pays"))
    except ValueError:
        raise BjexactError(f"--bj-pays must be a fraction such as 3/2 or 1, not {args.bj_pays!r}") from None
    config = GameConfig(decks=args.decks, chips=args.chips, seed=args.seed, bj_pays=bj_pays,
                        hints=args.hints == "on", h17=args.h17)

    def write(line: str) -> None:
        print(line, flush=True)

    advisor = exact_advice
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing for input())
        except ImportError:
            pass
        advisor = _patient(exact_advice, write)

        def read(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                print()
                return None
    else:
        read = _line_reader(sys.stdin, write)
    Game(config, read, write, advisor=advisor).run()
    return 0
