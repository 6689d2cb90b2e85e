"""``bjexact dealer``: the dealer's final-outcome table per up-card."""

from __future__ import annotations

import argparse

from .common import RULES_HELP, add_output_options, add_rule_options, number_style, rules_from_args, write_outputs

EXAMPLES = """\
examples:
  bjexact dealer                                  # 2 decks, S17, naturals as21
  bjexact dealer --decks 6 --h17 --naturals separate --format latex
  bjexact dealer --decks inf --format json        # exact fractions, always
  bjexact dealer --decks inf --exact              # fractions in the text table too
  bjexact dealer --shoe 4,4,4,4,4,4,4,4,4,16      # one deck, given as counts
  bjexact dealer --rows ranks                     # one row per printed rank: 2..10, J, Q, K, A
  bjexact dealer --decks 6 --plot dealer.svg      # and the table as stacked bars by up-card (.png, .pdf:
                                                  # matplotlib, pip install 'bjexact[plot]')

Each row is P(final outcome | up-card). With finite shoes the up-card has left the
shoe; a custom shoe that can run out adds the column 'exhausted'. JSON:
{"rules": {...}, "outcomes": [...], "table": {"A": {"17": "p/q", ...}, ...},
"table_float": the same chances as floats}.
"""


def register(subparsers) -> None:
    from .symbolic import DEALER_SYMBOLIC_HELP, add_dealer_options

    parser = subparsers.add_parser(
        "dealer", help="the dealer's final-outcome probabilities per up-card",
        description="The dealer's exact final-outcome probabilities per up-card.",
        epilog=RULES_HELP + "\n" + EXAMPLES + "\n" + DEALER_SYMBOLIC_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(parser)
    add_output_options(parser)
    parser.add_argument("--rows", choices=("cards", "ranks"), default="cards",
                        help="'ranks': one row per printed rank 2..10, J, Q, K, A (default: cards)")
    add_dealer_options(parser)
    parser.set_defaults(run=run, output_options=(("output", "-o"), ("plot", "--plot"), ("full", "--full")))


def run(args: argparse.Namespace) -> int:
    from .symbolic import run_dealer, wants_symbolic

    if wants_symbolic(args):
        return run_dealer(args)
    from ..dealer.distributions import dealer_table
    from ..render.tables import dealer_tables, render

    rules = rules_from_args(args)
    style = number_style(args)
    figure = None
    if args.plot is not None:
        from .figures import figure_file

        figure = figure_file(args.plot, "--plot")
    table = dealer_table(rules)
    text = render(dealer_tables(table, style, rank_rows=args.rows == "ranks"), args.format, style, table.to_json())
    figures = []
    if figure is not None:
        from ..render.figures import dealer_outcome_figure
        from .figures import rendered

        figures = rendered([(figure, dealer_outcome_figure(table))])
    write_outputs(text, args.output, figures)
    return 0
