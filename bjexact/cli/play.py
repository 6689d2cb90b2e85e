"""``bjexact play``: blackjack at the terminal, with the exact value of every move at every decision."""

from __future__ import annotations

import argparse

EXAMPLES = """\
examples:
  bjexact play                              # one deck, otherwise `bjexact edge`'s rules, 100 chips
  bjexact play --decks 6 --surrender late --seed 7 --log session.jsonl
  bjexact play --replay session.jsonl       # the same hands and advice again, without input
  bjexact play --hole-card enhc --obo --split-hands 2 --min-bet 5 --max-bet 50
  printf '10\\nh\\ns\\nq\\n' | bjexact play --seed 1   # scripted: one answer per line

At the stake prompt type a whole number of chips (Enter repeats the last stake); at a
decision the key of a move: s stand, h hit, d double, p split, r surrender; y or n to an
offer (insurance, even money, early surrender). q, end of input or Ctrl-C leave the table,
also in the middle of a split, and print the summary (chips on the table are lost).

The values: exact, for the cards you have not seen (the shoe and the dealer's hole
card), per chip bet on the hand (chips = bet x value): the hand's expected net result
with the move and the best play after it (composition-dependent). With a ten or ace up
and the dealer's peek they are conditioned on no dealer blackjack (it was checked);
the early-surrender offer (before the check) and --hole-card enhc include dealer
blackjacks. Insurance: the side bet's value, (3 P(ten) - 1)/2 per chip of the stake.
Inside a split the values are the current hand's alone, for the cards unseen then;
split and resplit values are the engine's (CDZ- unless --split-strategy cdp1 or cdp), a
resplit valued as a fresh split in the current shoe. A move
that is not the best is priced in chips, and the summary adds the prices up.
--log writes one JSON object per line (the session, each shuffle, each hand with its
cards, answers and values as p/q, the end); --replay shows such a log again.
"""


# A play log takes a few kilobytes a hand: this is thousands of hands, and far from /dev/zero.
MAX_LOG_BYTES = 100 * 2**20


def _penetration(text: str):
    from ..core.numbers import check_number_text, parse_fraction
    from ..errors import BjexactError

    try:
        value = parse_fraction(check_number_text(text, "--penetration"))
    except (ValueError, ZeroDivisionError):
        raise BjexactError(f"--penetration must be a fraction such as 0.75 or 3/4, not {text[:20]!r}") from None
    if not 0 < value <= 1:
        raise BjexactError(f"--penetration must be above 0 and at most 1 (the fraction of the shoe dealt), "
                           f"not {text[:20]}")
    return value


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "play", help="play blackjack at the terminal with exact advice",
        description="Play blackjack against the dealer, with the exact value of every move at every decision.",
        epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    from ..core.rules import DEFAULT_DECKS
    from .common import bounded_int
    from .game_options import add_game_rule_options

    table = parser.add_argument_group("the table")
    table.add_argument("--decks", default=DEFAULT_DECKS, metavar="N",  # text read by the rules' one parser
                       help="decks in the shoe, 1 to 8 (default: 2, as for every command)")
    table.add_argument("--h17", action="store_true", help="the dealer hits soft 17 (default: stands on all 17s)")
    table.add_argument("--chips", type=bounded_int(1, 10**12), default=100, metavar="N",
                       help="starting chips (default: 100)")
    table.add_argument("--min-bet", type=bounded_int(1, 10**12), default=1, metavar="N",
                       help="the table minimum stake (default: 1)")
    table.add_argument("--max-bet", type=bounded_int(1, 10**12), default=None, metavar="N",
                       help="the table maximum stake (default: your balance)")
    table.add_argument("--penetration", default="0.75", metavar="F",
                       help="reshuffle before a hand once this fraction of the shoe is dealt (default: 0.75)")
    table.add_argument("--seed", type=bounded_int(-(2**63), 2**63 - 1, signed=True), default=None, metavar="N",
                       help="seed the shuffles (reproducible games)")
    table.add_argument("--hints", choices=("on", "off"), default="on", help="exact advice (default: on)")
    table.add_argument("--log", default=None, metavar="FILE",
                       help="record the session, one JSON object per line (replay it with --replay)")
    table.add_argument("--replay", default=None, metavar="FILE",
                       help="show a session recorded with --log again: its hands and advice, without input")
    add_game_rule_options(parser, split_hands_help="(default: 4; 2 = split once; 1 = no splitting)")
    table_and_rules = {action.option_strings[-1]: (action.dest, action.default) for action in parser._actions
                       if action.option_strings and action.dest not in ("help", "replay")}
    parser.set_defaults(run=run, table_and_rules=table_and_rules)


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


def _spinner(stream, after: float = 1.0):
    """An advisor that draws a spinner on the terminal ``stream`` when an exact solution takes
    more than ``after`` seconds, and wipes it when done."""
    import threading

    def advise(compute):
        done = threading.Event()

        def spin() -> None:
            if done.wait(after):
                return
            frames = "|/-\\"
            turn = 0
            while not done.wait(0.1):
                stream.write(f"\r  working out the exact values {frames[turn % 4]}")
                stream.flush()
                turn += 1
            stream.write("\r\x1b[K")
            stream.flush()

        thread = threading.Thread(target=spin, daemon=True)
        thread.start()
        try:
            return compute()
        finally:
            done.set()
            thread.join()

    return advise


def _log_writer(path: str):
    """``log(event)`` appending one JSON line per event to ``path`` (created or emptied now), flushed
    at once so that the log stays whole whenever the session ends; and the file, to close."""
    import json

    from ..errors import BjexactError
    from ..files import os_error_message

    try:
        handle = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed by run)
    except OSError as exc:
        raise BjexactError(f"cannot write the log {path}: {os_error_message(exc)}") from None

    def log(event) -> None:
        handle.write(json.dumps(event, ensure_ascii=False) + "\n")
        handle.flush()

    return log, handle


def run(args: argparse.Namespace) -> int:
    import os
    import sys

    from ..apps.table import Game, GameConfig, first_differing_hand, read_log, replay_reader
    from ..errors import BjexactError
    from ..files import read_bounded, write_stdout
    from .game_options import game_rules_from_args

    def write(line: str) -> None:
        write_stdout(line + "\n")

    if sys.stdout is None:
        raise BjexactError("standard output is closed: play shows the table there")
    colour = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    if args.replay is not None:
        if args.log is not None:
            raise BjexactError("--replay and --log conflict: a replay records nothing")
        given = [option for option, (dest, default) in args.table_and_rules.items() if getattr(args, dest) != default]
        if given:
            raise BjexactError(f"--replay plays the table and rules of the log: {', '.join(given)} cannot change them")
        lines = read_bounded(args.replay, limit=MAX_LOG_BYTES, what="play log",
                             name=f"the log {args.replay}").splitlines(keepends=True)
        config, shoes, answers, how = read_log(lines, args.replay)
        write(f"Replaying {args.replay}.")
        replayed: list = []
        Game(config, replay_reader(answers, how, write), write, log=replayed.append, shoes=iter(shoes),
             colour=colour).run()
        differing = first_differing_hand(lines, replayed)
        if differing is not None:
            write(f"Hand {differing} of the log differs from its replay (edited, or written by another version "
                  "of bjexact): the values shown above are the exact ones, recomputed.")
            return 1
        return 0

    if sys.stdin is None:
        raise BjexactError("standard input is closed: play reads your answers from it")
    args.shoe = None
    rules = game_rules_from_args(args)
    config = GameConfig(rules=rules, chips=args.chips, seed=args.seed, hints=args.hints == "on",
                        min_bet=args.min_bet, max_bet=args.max_bet, penetration=_penetration(args.penetration))
    advisor = None
    if sys.stdin.isatty():
        try:
            import readline  # noqa: F401  (line editing for input())
        except ImportError:
            pass
        if sys.stderr.isatty():
            advisor = _spinner(sys.stderr)

        def read(prompt: str) -> str | None:
            try:
                return input(prompt)
            except EOFError:
                print()
                return None
    else:
        read = _line_reader(sys.stdin, write)
    if args.log is None:
        Game(config, read, write, advisor=advisor, colour=colour).run()
        return 0
    log, handle = _log_writer(args.log)
    try:
        Game(config, read, write, log=log, advisor=advisor, colour=colour).run()
    finally:
        handle.close()
    return 0
