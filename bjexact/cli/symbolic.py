"""Symbolic results on the command line: ``bjexact dealer --symbolic`` and ``bjexact boundaries``.

``dealer --symbolic`` is dispatched here by :mod:`bjexact.cli.dealer`; this module
also registers the ``boundaries`` command (where hit and stand swap as the ten
density varies).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from ..errors import BjexactError
from ..files import text_bytes
from .common import (
    RULES_HELP,
    add_rule_options,
    check_output_files,
    is_stdout,
    output_path,
    rules_from_args,
    write_output,
    write_outputs,
)

DEALER_SYMBOLIC_HELP = """\
symbolic (infinite deck only; --decks defaults to inf with these options):
  bjexact dealer --symbolic                       # polynomials in p_A, p_2, ..., p_9, p_T
  bjexact dealer --ten-density t                  # p_T = t, every other rank (1 - t)/9
  bjexact dealer --ten-density t --format latex -o dealer.tex   # long ones in dealer.full.tex
  bjexact dealer --ten-density t --plot dealer.svg              # outcomes against t (matplotlib)
  bjexact dealer --symbolic --format json         # every polynomial as a string sympy parses back
Under --naturals peek the A and T rows are rational functions (denominator 1 - p_T or 1 - p_A).
"""


def add_dealer_options(parser: argparse.ArgumentParser) -> None:
    """The ``--symbolic`` options of ``bjexact dealer``."""
    group = parser.add_argument_group("symbolic (infinite deck)")
    group.add_argument("--symbolic", action="store_true",
                       help="outcome probabilities as polynomials in the card probabilities p_A..p_T")
    group.add_argument("--ten-density", default=None, metavar="NAME",
                       help="one variable NAME = P(ten-valued card), the other ranks (1 - NAME)/9 "
                            "(a symbolic table of its own: not with --symbolic)")
    group.add_argument("--max-terms", type=int, default=12, metavar="N",
                       help="text/md/latex: summarise polynomials of more than N terms (default: 12)")
    group.add_argument("--full", default=None, metavar="FILE",
                       help="with --symbolic/--ten-density: write the summarised polynomials in full to FILE "
                            "(default with -o OUT.EXT: OUT.full.EXT)")
    group.add_argument("--plot", default=None, metavar="FILE",
                       help="also draw a figure to FILE (.svg, .png, .pdf): the table as stacked bars by up-card "
                            "(.svg needs nothing), or with --ten-density the outcomes against it (matplotlib)")


def wants_symbolic(args: argparse.Namespace) -> bool:
    """Whether ``bjexact dealer`` is asked for a symbolic table; ``--full``, which needs one, is refused
    without it, and ``--symbolic`` with ``--ten-density`` (two different tables) is refused."""
    symbolic, density = getattr(args, "symbolic", False), getattr(args, "ten_density", None)
    if symbolic and density is not None:
        raise BjexactError("--symbolic (polynomials in p_A..p_T) and --ten-density (in one variable) "
                           "are different tables: give one of them")
    if not symbolic and density is None and getattr(args, "full", None) is not None:
        raise BjexactError("--full is for symbolic tables: add --ten-density NAME or --symbolic")
    return bool(symbolic or density is not None)


def check_variable_name(name: str) -> str:
    """``--ten-density NAME``: a plain symbol name that sympy parses back as itself (not exp, E, I, pi, lambda)."""
    import keyword
    import re

    shown = name if len(name) <= 24 else name[:16] + "..."
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,30}", name) or keyword.iskeyword(name):
        raise BjexactError(f"--ten-density needs a variable name such as t or x (letters, digits, _), not {shown!r}")
    import sympy

    try:
        parsed = sympy.sympify(name)
    except Exception:  # sympy cannot read it back: refuse it
        parsed = None
    if parsed != sympy.Symbol(name):
        raise BjexactError(f"--ten-density {name}: sympy reads {name!r} as something else than a variable "
                           "(a function or a constant): choose another name, such as t")
    return name


def _infinite_rules(args: argparse.Namespace):
    if args.shoe is not None:
        raise BjexactError("symbolic results are for the infinite deck: --shoe cannot be combined with them")
    if args.decks is None:
        args.decks = "inf"
    rules = rules_from_args(args)
    if not rules.infinite:
        raise BjexactError("symbolic results are for the infinite deck (--decks inf); "
                           "for finite shoes see 'bjexact eor'")
    return rules


def full_path(output: str | None, full: str | None) -> str | None:
    """Where the long polynomials go: ``--full``, else next to ``-o OUT.EXT`` as ``OUT.full.EXT``."""
    if full is not None:
        return full
    if output is None or is_stdout(output):
        return None
    path = Path(output)
    return str(path.with_name(f"{path.stem}.full{path.suffix}"))


def run_dealer(args: argparse.Namespace) -> int:
    """``bjexact dealer --symbolic``."""
    from ..render.plots import outcome_plot
    from ..render.svg import figure_format
    from ..render.symbolic import render_symbolic
    from ..symbolic.models import per_rank_model, ten_density_model
    from ..symbolic.table import symbolic_dealer_table
    from .common import number_style

    rules = _infinite_rules(args)
    check_output_files([("-o", args.output), ("--plot", args.plot), ("--full", full_path(args.output, args.full))])
    if args.rows != "cards":
        raise BjexactError("--rows ranks is for numeric tables: symbolic rows are the ten ranks")
    if args.max_terms < 1:
        raise BjexactError("--max-terms must be at least 1")
    if args.plot is not None:
        fmt = figure_format(args.plot)
        if not args.ten_density:
            raise BjexactError("--plot draws against the ten density: add --ten-density NAME")
    density = args.ten_density
    model = ten_density_model(check_variable_name(density)) if density is not None else per_rank_model()
    table = symbolic_dealer_table(rules, model)
    full_name = full_path(args.output, args.full)
    text, full = render_symbolic(table, args.format, number_style(args), max_terms=args.max_terms,
                                 full_name=full_name)
    files = []
    if args.plot is not None:
        files.append((output_path(args.plot), outcome_plot(table, fmt)))
    if full is not None and full_name is not None:
        files.append((output_path(full_name), text_bytes(full)))
    write_outputs(text, args.output, files)
    return 0


# --- bjexact boundaries -------------------------------------------------------------------

BOUNDARIES_EXAMPLES = """\
examples:
  bjexact boundaries --upcard T --total 16          # 16 v T: where hit and stand swap as t varies
  bjexact boundaries --upcard 2 --total 12 --digits 30
  bjexact boundaries --upcard A --total 18 --soft --h17
  bjexact boundaries --upcard T --total 16 --format json

Infinite deck, p_T = t and every other rank (1 - t)/9 (the standard deck is t = 4/13).
Prints the stand and hit values as polynomials in t (hitting: one card, then the
best play for that t), and each t in (0, 1) where hit - stand changes sign: an
exact real algebraic number (a root of the printed polynomial, within a rational
isolating interval), with its decimals.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "boundaries", help="where hit and stand swap as the ten density t varies (infinite deck)",
        description="Stand and hit values as polynomials in the ten density t, and the exact t where the "
                    "best move flips.",
        epilog=RULES_HELP + "\n" + BOUNDARIES_EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--upcard", required=True, metavar="CARD", help="the dealer's up-card (A, 2..9, T)")
    parser.add_argument("--total", required=True, type=int, metavar="N", help="the player's total (4..21)")
    parser.add_argument("--soft", action="store_true", help="a soft total (an ace counting 11)")
    parser.add_argument("--ten-density", default="t", metavar="NAME", help="the variable's name (default: t)")
    parser.add_argument("--objective", choices=("ev", "win"), default="ev",
                        help="ev: +1/0/-1; win: 1 for a win, 1/2 for a push (default: ev)")
    parser.add_argument("--digits", type=int, default=15, metavar="N",
                        help="decimals of each root (default: 15)")
    add_rule_options(parser)
    group = parser.add_argument_group("output")
    group.add_argument("--format", choices=("text", "json", "latex"), default="text")
    group.add_argument("-o", "--output", default=None, metavar="FILE",
                       help="write to FILE instead of standard output")
    parser.set_defaults(run=run_boundaries)


def run_boundaries(args: argparse.Namespace) -> int:
    from ..core.cards import parse_rank
    from ..render.symbolic import render_boundaries
    from ..symbolic.boundaries import decision_boundaries

    rules = _infinite_rules(args)
    if not 1 <= args.digits <= 1000:
        raise BjexactError("--digits must be between 1 and 1000")
    result = decision_boundaries(rules, args.total, args.soft, parse_rank(args.upcard),
                                 variable=check_variable_name(args.ten_density), objective=args.objective)
    write_output(render_boundaries(result, args.format, args.digits), args.output)
    return 0
