"""``bjexact report``: LaTeX (and PDF) and Markdown reports of a rule set; the reference reports."""

from __future__ import annotations

import argparse

from .common import RULES_HELP, add_bj_pays_option, add_rule_options, rules_from_args
from .game_options import GAME_RULES_HELP, add_game_rule_options

DEFAULT_DIRECTORY = "bjexact-report"

EXAMPLES = """\
examples:
  bjexact report                                  # bjexact-report/report.html (.pdf, .md, .tex, figures/): 2 decks
  bjexact report -o out/ --decks 6 --h17 --das --surrender late   # finite shoes take a minute or two
  bjexact report -o out/ --decks inf --no-pdf --quiet
  bjexact report -o out/ --decks 8 --no-rule-effects   # without the effect of each rule: about 40 s less
  bjexact report --reference reports/             # maintainers: regenerate the committed reference reports
  bjexact report --sidebet buster --decks 1,2,6,8 -o buster/   # a side bet's one-section math report

--sidebet NAME|FILE writes the side bet's math report alone, one section (the bet's rules
and conventions, its pay table, the combinations of each line for bets on the first cards,
each line's chance and return for each --decks, comma-separated, default 2, the derivation,
and for bets paying on the dealer busting a diagram of the dealer's hand card by card with
its bust lines), not a section added to the report of the main game: a side bet's numbers
do not depend on the player's play, a regulator's lab asks for the bet's analysis on its
own, and it takes a second where the main game's report takes minutes on a finite shoe.
It writes report.md, report.tex, figures/bust-lines.* and (with TeX) report.pdf, replacing
a report already in the folder; --h17 and --hole-card apply, the other rules do not.

The report's first page is a summary: the rules in words, the house edge (optimal
play and the basic strategy chart), the net result's mean and standard deviation and
the colour chart; then the full game (every two-card hand's best move), the effect of
each common rule on the house edge (one exact solve per rule changed; exact fractions
in rule-effects.json), and the method
as an appendix (dealer tables, the absorbing chain, the hit/stand game, removal,
diagrams). The full game takes every rule option of 'bjexact edge'. The PDF is compiled with latexmk (or pdflatex)
in a temporary directory when TeX is installed; otherwise report.tex is written and a
message says how to get a PDF. report.html is one self-contained page for a browser (the colour
chart, the heat map and the diagrams inline, exact fractions on hover). Diagrams need Graphviz's 'dot'
(.svg for Markdown, .pdf for LaTeX); without it they are written as .dot files and the reports say
which were not drawn. A TeX error prints one line and the log's path, and exits 2.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "report", help="HTML, LaTeX/PDF and Markdown reports: house edge and colour chart first, then the method",
        description="An HTML, LaTeX (PDF) and Markdown report of a rule set: a summary page (the house edge, the "
                    "colour chart), the full game, then the method: dealer table, matrices, the hit/stand "
                    "game, effects of removal, diagrams.",
        epilog=RULES_HELP + "\n" + GAME_RULES_HELP + "\n" + EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    target = parser.add_mutually_exclusive_group()
    target.add_argument("-o", "--output", metavar="DIR",
                        help=f"the directory to write the report into (default: {DEFAULT_DIRECTORY}/)")
    target.add_argument("--reference", metavar="DIR",
                        help="regenerate the reference reports (infinite deck S17/H17, 1, 2, 6, 8 decks S17)")
    add_rule_options(parser)
    add_bj_pays_option(parser)
    add_game_rule_options(parser, title="full game rules")
    parser.add_argument("--objective", choices=("ev", "win"), default="ev",
                        help="ev: +1 win, 0 push, -1 loss (default); win: chance of winning, push = 1/2")
    parser.add_argument("--no-pdf", action="store_true", help="write report.tex without compiling it")
    parser.add_argument("--no-rule-effects", action="store_true",
                        help="leave out the effect of each rule (a full-game solve per rule changed: "
                             "1 to 5 s each on a finite shoe)")
    parser.add_argument("--sidebet", metavar="NAME|FILE", default=None,
                        help="a side bet's one-section math report instead (built-in name or bet file; see below)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar or notes")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from ..errors import BjexactError
    from ..render.report import REFERENCE_SETS, build_report, write_reference, write_report

    progress = False if args.quiet else None
    named = args.reference if args.reference is not None else args.output if args.output is not None \
        else DEFAULT_DIRECTORY
    if not named.strip():
        raise BjexactError("no report directory named: give one after -o")
    target = Path(named)
    if args.sidebet is not None:
        written = _sidebet_report(args, target)
    elif args.reference is not None:
        default_rules = (args.decks is None and args.shoe is None and not args.h17 and args.naturals == "as21"
                         and args.objective == "ev" and args.bj_pays == "3/2")
        if not default_rules:
            raise BjexactError("--reference regenerates the fixed reference rule sets: give no rule options")
        from .game_options import refuse_options

        refuse_options(args, "with --reference (the reference rule sets are fixed)")
        if args.no_rule_effects:
            raise BjexactError("--no-rule-effects is for one report: the reference reports hold every section")
        announce = None if args.quiet else (lambda text: print(text, file=sys.stderr))
        _check_target(target, {"index.md": False, **{slug: True for slug, _ in REFERENCE_SETS}})
        written = write_staged(target, lambda into: write_reference(
            into, compile_pdf=not args.no_pdf, quiet=args.quiet, progress=progress, announce=announce,
            shown_as=target))
    else:
        from .game_options import game_rules_from_args

        rules = rules_from_args(args)
        if rules.shoe is not None and sum(rules.shoe) < 20:
            raise BjexactError("a report needs a shoe of at least 20 cards")
        full_rules = game_rules_from_args(args)
        _check_target(target, REPORT_ENTRIES)
        report = build_report(rules, args.objective, progress=progress, full_rules=full_rules,
                              effects=not args.no_rule_effects)
        written = write_staged(target, lambda into: write_report(
            report, into, compile_pdf=not args.no_pdf, quiet=args.quiet, shown_as=target), stale=REPORT_ENTRIES)
    if not args.quiet:
        shown = [p for p in written if p.name.startswith("report.") or p.name == "index.md"]
        print("wrote " + ", ".join(str(p) for p in shown), file=sys.stderr)
    return 0


def _sidebet_report(args: argparse.Namespace, target) -> list:
    """``report --sidebet``: the side bet's math report (see the help), staged like the main report."""
    from ..errors import BjexactError
    from ..render.sidebet_report import SIDEBET_ENTRIES, SideBetReport, write_sidebet_report
    from ..sidebets.analysis import analyse, parse_deck_list
    from .game_options import GAME_OPTION_DEFAULTS
    from .sidebet import bet_from_text

    if args.reference is not None:
        raise BjexactError("--sidebet writes one report: give -o DIR, not --reference")
    if args.shoe is not None:
        raise BjexactError("--sidebet takes --decks (comma-separated), not --shoe")
    if args.naturals != "as21" or args.bj_pays != "3/2" or args.objective != "ev" or args.no_rule_effects:
        raise BjexactError("--naturals, --bj-pays, --objective and --no-rule-effects are for the main game's "
                           "report: a side bet's report takes --decks, --h17 and --hole-card")
    for dest, (option, default) in GAME_OPTION_DEFAULTS.items():
        if dest != "hole_card" and getattr(args, dest) != default:
            raise BjexactError(f"{option} is a rule of the full game: it does not apply to a side bet's report")
    bet = bet_from_text(args.sidebet)
    decks = parse_deck_list(args.decks or "2")
    peek = args.hole_card == "peek"
    analyses = tuple(analyse(bet, d, h17=args.h17, peek=peek) for d in decks)
    flags = [f"--decks {','.join('inf' if d == float('inf') else str(d) for d in decks)}"]
    flags += ["--h17"] if args.h17 else []
    flags += ["--hole-card enhc"] if not peek else []
    command = f"bjexact report --sidebet {args.sidebet} {' '.join(flags)} -o DIR"
    _check_target(target, SIDEBET_ENTRIES)
    report = SideBetReport(analyses, command)
    return write_staged(target, lambda into: write_sidebet_report(
        report, into, compile_pdf=not args.no_pdf, quiet=args.quiet, shown_as=target), stale=SIDEBET_ENTRIES)


# What a report directory holds (True: a directory); a new report replaces all of them, so that no old
# report.pdf of other rules is left beside a new report.md.
REPORT_ENTRIES = {"report.md": False, "report.html": False, "report.tex": False, "report.pdf": False,
                  "report.log": False, "rule-effects.json": False, "figures": True}


def _check_target(target, entries: dict[str, bool]) -> None:
    """Refuse a target that is a file or lies under one, or holds a file where the report puts a directory
    (or the reverse)."""
    from ..errors import BjexactError

    if target.exists() and not target.is_dir():
        raise BjexactError(f"cannot write the report into {target}: it is a file, not a directory")
    blocking = next((p for p in reversed(target.parents) if p.exists() and not p.is_dir()), None)
    if blocking is not None:  # said before the report's solves, not after
        raise BjexactError(f"cannot write the report into {target}: {blocking} is a file, not a directory")
    for name, directory in entries.items():
        path = target / name
        if path.exists() and path.is_dir() != directory:
            what = "a directory" if path.is_dir() else "a file"
            raise BjexactError(f"cannot write the report into {target}: {path} is {what}, "
                               f"where the report writes {'a directory' if directory else 'a file'}")


def write_staged(target, write, stale=()) -> list:
    """``write(directory)`` into a temporary directory beside ``target``, then move the result into place.

    A failed or interrupted run leaves ``target`` as it was (and no temporary directory);
    a LaTeX log that an error message names is kept. Entries of ``target`` named in
    ``stale`` are replaced even when the new report has no such file.
    """
    import os
    import shutil
    import tempfile
    from pathlib import Path

    from ..errors import BjexactError
    from ..files import os_error_message

    target = Path(os.path.realpath(target))  # a link to a folder elsewhere: stage beside the folder itself
    created = [p for p in (target, *target.parents) if not p.exists()]
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f".{target.name or 'report'}.", suffix=".tmp", dir=target.parent))
    except OSError as exc:
        _remove_empty(created)
        blocking = next((p for p in reversed(target.parents) if p.exists() and not p.is_dir()), None)
        reason = f"{blocking} is a file, not a directory" if blocking is not None else os_error_message(exc)
        raise BjexactError(f"cannot write the report into {target}: {reason}") from None
    try:
        try:
            written = write(staging)
        except BjexactError as exc:
            message = _keep_logs(staging, target, str(exc))
            raise BjexactError(message) from None
        _move_into_place(staging, target, stale)
    except OSError as exc:
        raise BjexactError(f"cannot write the report into {target}: {os_error_message(exc)}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        if not target.exists():
            _remove_empty(created)
    if target in created:  # mkdtemp made it private
        os.chmod(target, 0o777 & ~_umask())
    return [target / Path(p).relative_to(staging) for p in written]


def _move_into_place(staging, target, stale) -> None:
    import os

    entries = sorted(p.name for p in staging.iterdir())
    if not target.exists():
        os.rename(staging, target)
        staging.mkdir()  # for the caller's clean-up
        for name in entries:
            if (target / name).is_dir():
                _note_written(target / name, sorted(p.name for p in (target / name).iterdir()))
        return
    replaced = staging / ".replaced"
    replaced.mkdir()
    merged = {name for name in entries if (staging / name).is_dir() and (target / name).is_dir()
              and not (target / name).is_symlink()}
    for name in sorted(set(entries) | set(stale)):
        if name in merged or ((target / name).is_dir() and name not in entries):
            continue  # a directory of the report's (figures/) is merged into: the user's files in it stay
        if os.path.lexists(target / name):
            os.rename(target / name, replaced / name)
    for name in entries:
        written = None
        if name in merged:
            (replaced / name).mkdir()
            written = sorted(p.name for p in (staging / name).iterdir())
            for child in sorted(set(written) | _written_before(target / name)):
                if os.path.lexists(target / name / child):
                    os.rename(target / name / child, replaced / name / child)
                if child in written:
                    os.rename(staging / name / child, target / name / child)
        else:
            os.rename(staging / name, target / name)
            if (target / name).is_dir():
                written = sorted(p.name for p in (target / name).iterdir())
        if written is not None:
            _note_written(target / name, written)


# In a directory of the report's (figures/), the files the report wrote: a new report replaces them
# and leaves every other file there alone.
WRITTEN = ".bjexact-written"


def _note_written(directory, names) -> None:
    """Note what the report wrote in ``directory``: the next report replaces these files only."""
    (directory / WRITTEN).write_text("".join(f"{name}\n" for name in names))


def _written_before(directory) -> set[str]:
    try:
        return {line for line in (directory / WRITTEN).read_text().splitlines() if line and "/" not in line}
    except OSError:
        return set()



def _keep_logs(staging, target, message: str) -> str:
    """Move the LaTeX logs that ``message`` names from ``staging`` into ``target``; the message names them there."""
    import shutil

    for log in staging.rglob("*.log"):
        if str(log) in message:
            kept = target / log.relative_to(staging)
            try:
                kept.parent.mkdir(parents=True, exist_ok=True)
                shutil.move(str(log), str(kept))
            except OSError:
                continue
            message = message.replace(str(log), str(kept))
    return message


def _remove_empty(directories) -> None:
    for directory in directories:
        try:
            directory.rmdir()
        except OSError:
            pass


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask
