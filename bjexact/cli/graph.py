"""``bjexact graph``: Graphviz diagrams of the dealer's chain and of the player's hit chain."""

from __future__ import annotations

import argparse

from .common import RULES_HELP, add_rule_options, rules_from_args

EXAMPLES = """\
examples:
  bjexact graph --decks inf --upcard 6 -o dealer-6.svg     # also .dot, .png, .pdf
  bjexact graph --decks inf -o dealer.pdf                  # every up-card, a page each
  bjexact graph --decks inf --upcard A --decimals 3 -o dealer-A.png
  bjexact graph --decks 1 --upcard 6 -o merged-6.svg        # finite: hands merged by (total, soft)
  bjexact graph --decks 1 --upcard 6 --view draws --depth 2 -o draws-6.svg
  bjexact graph --player --decks inf --upcard T -o hit-T.svg

Dealer: one node per state, in columns by total left to right; the outcomes (double
octagons, bust in red) in the last column; each edge is P(next state | state), exact
unless --decimals, and thicker when likelier. Edges from one state to several outcomes
with the same probability p are one edge 'k x p' into a dot that fans out to them.
Every up-card (no --upcard): a .pdf has a page per up-card, a .dot one graph per
up-card ('dot -Tsvg -O FILE.dot' writes a file each); .svg/.png need --upcard.
Finite shoes have hundreds of exact states per up-card: --view merged (default)
merges hands by (total, soft) and labels each edge 'avg', the average of the
conditional probabilities weighted by the chance of reaching each hand (not a
Markov chain); --view draws shows the exact chain for the first --depth draws.
Player (--player, infinite deck): the hit chain against one up-card, each state with
its best move and value; edges leave the states where hitting is best.
A .dot file needs nothing else (lay it out with 'dot -Tsvg FILE.dot'); .svg/.png/.pdf
need Graphviz's 'dot' program. When a chain is too dense to follow, draw its matrices:
'bjexact matrix --decks inf --upcard 6 --heatmap T -o t.svg'.
"""


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "graph", help="Graphviz diagrams of the dealer's chain and the player's hit chain",
        description="Graphviz diagrams of the dealer's chain (exact edge probabilities) and the player's hit chain.",
        epilog=RULES_HELP + "\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--upcard", default=None, metavar="CARD",
                        help="one up-card (A, 2..9, T/J/Q/K); default: every up-card (.pdf or .dot only: a page each)")
    parser.add_argument("--player", action="store_true", help="the player's hit chain (needs --upcard, --decks inf)")
    parser.add_argument("--objective", choices=("ev", "win"), default="ev",
                        help="with --player: the value shown (default: ev)")
    parser.add_argument("--view", choices=("chain", "merged", "draws"), default=None,
                        help="finite shoes: merged (default) or draws; the infinite deck: chain")
    parser.add_argument("--depth", type=int, default=2, metavar="K", help="with --view draws: draws shown (default: 2)")
    parser.add_argument("--decimals", type=int, default=None, metavar="N",
                        help="edge probabilities rounded to N places instead of exact fractions")
    add_rule_options(parser)
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="the diagram file: .dot, .svg, .png or .pdf ('-' writes DOT to standard output)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..core.cards import parse_rank
    from ..errors import BjexactError
    from ..files import write_atomically
    from ..render.diagrams import dealer_diagram, diagram_format, player_diagram, render
    from .common import is_stdout, output_path, write_output

    rules = rules_from_args(args)
    fmt = "dot" if is_stdout(args.output) else diagram_format(str(output_path(args.output)))
    upcard = parse_rank(args.upcard) if args.upcard is not None else None
    if args.player:
        if upcard is None:
            raise BjexactError("--player needs --upcard")
        if args.view is not None:
            raise BjexactError("--view is for the dealer's chain, not with --player")
        graph = player_diagram(rules, upcard, objective=args.objective, decimals=args.decimals)
    else:
        graph = dealer_diagram(rules, None if upcard is None else [upcard], decimals=args.decimals,
                               view=args.view, depth=args.depth)
    data = render(graph, fmt)
    if is_stdout(args.output):
        write_output(data.decode(), None)
    else:
        write_atomically(output_path(args.output), data)
    return 0
