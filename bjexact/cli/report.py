"""``bjexact report``: LaTeX (and PDF) and Markdown reports of a rule set; the reference reports."""

from __future__ import annotations

import argparse

from .common import RULES_HELP, add_bj_pays_option, add_rule_options, rules_from_args

EXAMPLES = """\
examples:
  bjexact report -o out/ --decks inf              # out/report.tex, report.pdf, report.md, figures/
  bjexact report -o out/ --decks 6 --h17          # finite shoes take 10 to 40 seconds (a progress bar)
  bjexact report -o out/ --decks 2 --no-pdf --quiet
  bjexact report --reference reports/             # regenerate every reference report and reports/index.md

The PDF is compiled with latexmk (or pdflatex) in a temporary directory when TeX is
installed; otherwise report.tex is written and a message says how to get a PDF. Figures
need Graphviz's 'dot' (.svg for Markdown, .pdf for LaTeX); without it they are written
as .dot files. A TeX error prints one line and the log's path, and exits 2.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "report", help="LaTeX/PDF and Markdown reports with tables, matrices and diagrams",
        description="A LaTeX (PDF) and Markdown report of a rule set: dealer table, matrices, "
                    "the player's best play, diagrams and the method.",
        epilog=RULES_HELP + "\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("-o", "--output", metavar="DIR", help="the directory to write the report into")
    target.add_argument("--reference", metavar="DIR",
                        help="regenerate the reference reports (infinite deck S17/H17, 1, 2, 6, 8 decks S17)")
    add_rule_options(parser)
    add_bj_pays_option(parser)
    parser.add_argument("--objective", choices=("ev", "win"), default="ev",
                        help="ev: +1 win, 0 push, -1 loss (default); win: chance of winning, push = 1/2")
    parser.add_argument("--no-pdf", action="store_true", help="write report.tex without compiling it")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bar or notes")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from ..errors import BjexactError
    from ..render.report import build_report, write_reference, write_report

    progress = False if args.quiet else None
    if args.reference is not None:
        default_rules = (args.decks is None and args.shoe is None and not args.h17 and args.naturals == "as21"
                         and args.objective == "ev" and args.bj_pays == "3/2")
        if not default_rules:
            raise BjexactError("--reference regenerates the fixed reference rule sets: give no rule options")
        announce = None if args.quiet else (lambda text: print(text, file=sys.stderr))
        written = write_reference(Path(args.reference), compile_pdf=not args.no_pdf, quiet=args.quiet,
                                  progress=progress, announce=announce)
    else:
        rules = rules_from_args(args)
        if rules.shoe is not None and sum(rules.shoe) < 20:
            raise BjexactError("a report needs a shoe of at least 20 cards")
        report = build_report(rules, args.objective, progress=progress)
        written = write_report(report, Path(args.output), compile_pdf=not args.no_pdf, quiet=args.quiet)
    if not args.quiet:
        shown = [p for p in written if p.name.startswith("report.") or p.name == "index.md"]
        print("wrote " + ", ".join(str(p) for p in shown), file=sys.stderr)
    return 0
