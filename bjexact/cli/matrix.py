"""``bjexact matrix``: the absorbing-chain matrices T, R, B, N and N R."""

from __future__ import annotations

import argparse

from .common import (
    RULES_HELP,
    add_bj_pays_option,
    add_rule_options,
    decimal_places,
    rules_from_args,
    write_output,
)

EXAMPLES = """\
examples:
  bjexact matrix --decks inf --upcard 6                  # T, R, B, N, N R as fractions
  bjexact matrix --decks inf --upcard 6 --format latex   # bmatrix environments with \\frac
  bjexact matrix --decks inf --upcard A --naturals separate --format json
  bjexact matrix --decks 2 --upcard T --format csv       # finite shoes: json or csv only
  bjexact matrix --player --decks inf --upcard T --format latex   # the player's hit chain

Transient states are listed in topological order, the up-card's one-card state
first. T: transient -> transient one-draw probabilities; R: transient -> absorbing;
B: the bust column of R; N = (I - T)^-1; N R: P(outcome | state), whose first row
is the dealer-table row. CSV is long form: matrix,row,column,value.

--player (infinite deck): the player's states ordered by hard sum; T: one hit's
transitions; B: the loss payoff times P(bust on the hit) (-P(bust) for --objective ev);
R_stand: the values of standing; V = max(R_stand, T V + B); policy: the best move.
JSON keys: rules, upcard, objective, states, T, B, R_stand, V, policy.
"""

MATRICES = ("T", "R", "B", "N", "absorption")


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "matrix", help="the absorbing-chain matrices T, R, B, N, N R for one up-card",
        description="The dealer's absorbing-chain canonical form for one up-card, exactly.",
        epilog=RULES_HELP + "\n" + EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--upcard", required=True, metavar="CARD", help="the dealer's up-card (A, 2..9, T/J/Q/K)")
    add_rule_options(parser)
    parser.add_argument("--player", action="store_true",
                        help="the player's hit chain (T, B, R_stand, V, policy) instead of the dealer's")
    parser.add_argument("--objective", choices=("ev", "win"), default="ev", help="with --player (default: ev)")
    add_bj_pays_option(parser)
    group = parser.add_argument_group("output")
    group.add_argument("--format", choices=("text", "json", "csv", "latex"), default="text")
    group.add_argument("--decimals", type=decimal_places, default=None, metavar="N",
                       help="text and latex: decimals with N places instead of fractions")
    group.add_argument("-o", "--output", default=None, metavar="FILE", help="write to FILE instead of standard output")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..core.cards import parse_rank, rank_symbol
    from ..dealer.matrices import dealer_matrices
    from ..errors import BjexactError

    rules = rules_from_args(args)
    upcard = parse_rank(args.upcard)
    if args.player:
        return run_player(args, rules, upcard)
    if not rules.infinite and args.format in ("text", "latex"):
        raise BjexactError("finite-shoe matrices are large: use --format json or csv")
    chain = dealer_matrices(rules, upcard)
    document = {"rules": rules.to_json(), "upcard": rank_symbol(upcard), **chain.to_json()}
    write_output(format_chain(chain, document, args.format, args.decimals), args.output)
    return 0


def format_chain(chain, document: dict, fmt: str, decimals: int | None) -> str:
    """Render an :class:`~bjexact.matrices.AbsorbingChain` (its JSON ``document`` for json)."""
    import csv
    import io
    import json

    from ..core.numbers import fraction_string
    from ..render.tables import NumberStyle, latex_escape

    if fmt == "json":
        return json.dumps(document, indent=2) + "\n"
    labels = {
        "T": (chain.transient, chain.transient),
        "R": (chain.transient, chain.absorbing),
        "B": (chain.transient, ("bust",)),
        "N": (chain.transient, chain.transient),
        "absorption": (chain.transient, chain.absorbing),
    }
    grids = {name: ([[x] for x in chain.B] if name == "B" else getattr(chain, name)) for name in MATRICES}
    if fmt == "csv":
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["matrix", "row", "column", "value"])
        for name in MATRICES:
            rows, columns = labels[name]
            for r, row in zip(rows, grids[name]):
                for c, value in zip(columns, row):
                    writer.writerow([name, r, c, fraction_string(value)])
        return buffer.getvalue()
    style = NumberStyle(decimals=4 if decimals is None else decimals, percent=False, exact=decimals is None)
    if fmt == "latex":
        parts = []
        for name in MATRICES:
            body = " \\\\\n".join(" & ".join(style.latex(x) for x in row) for row in grids[name])
            symbol = "NR" if name == "absorption" else name
            parts.append(f"% rows: {', '.join(labels[name][0])}\n% columns: {', '.join(labels[name][1])}\n"
                         f"\\[ {symbol} = \\begin{{bmatrix}}\n{body}\n\\end{{bmatrix}} \\]\n")
        return f"% {latex_escape(str(document['rules']))}\n% needs \\usepackage{{amsmath}}\n" + "\n".join(parts)
    out = []
    for name in MATRICES:
        rows, columns = labels[name]
        cells = [[style.plain(x) for x in row] for row in grids[name]]
        width = max([len(c) for row in cells for c in row] + [len(c) for c in columns])
        label_width = max(len(r) for r in rows)
        out.append(f"{'N R (absorption)' if name == 'absorption' else name}:")
        out.append(" " * label_width + "  " + "  ".join(c.rjust(width) for c in columns))
        for r, row in zip(rows, cells):
            out.append(r.ljust(label_width) + "  " + "  ".join(c.rjust(width) for c in row))
        out.append("")
    return "\n".join(out)


def run_player(args: argparse.Namespace, rules, upcard: int) -> int:
    """The player's hit chain for one up-card (infinite deck only)."""
    from ..core.cards import rank_symbol
    from ..core.numbers import fraction_string
    from ..errors import BjexactError
    from ..player.solver import solve_infinite
    from ..render.tables import NumberStyle, Table, render

    if not rules.infinite:
        raise BjexactError("--player matrices are for the infinite deck (--decks inf); "
                           "finite shoes are composition-dependent: see 'bjexact player --moves hit-stand'")
    if args.format == "csv":
        raise BjexactError("--player: use --format text, json or latex")
    chain = solve_infinite(rules, args.objective).matrices(upcard)
    document = {"rules": {**rules.to_json(), "bj_pays": fraction_string(rules.bj_pays)}, "upcard": rank_symbol(upcard),
                "objective": args.objective, **chain.to_json()}
    if args.format == "json":
        import json

        write_output(json.dumps(document, indent=2) + "\n", args.output)
        return 0
    style = NumberStyle(decimals=4 if args.decimals is None else args.decimals, percent=False,
                        exact=args.decimals is None)
    if args.format == "latex":
        body = " \\\\\n".join(" & ".join(style.latex(x) for x in row) for row in chain.T)
        vectors = {name: getattr(chain, name) for name in ("B", "R_stand", "V")}
        parts = [f"% states: {', '.join(chain.states)}\n% needs \\usepackage{{amsmath}}\n"
                 f"\\[ T = \\begin{{bmatrix}}\n{body}\n\\end{{bmatrix}} \\]"]
        for name, vector in vectors.items():
            column = " \\\\ ".join(style.latex(x) for x in vector)
            symbol = "R_{\\mathrm{stand}}" if name == "R_stand" else name
            parts.append(f"\\[ {symbol} = \\begin{{bmatrix}} {column} \\end{{bmatrix}} \\]")
        parts.append("% policy: " + ", ".join(f"{s} {p}" for s, p in zip(chain.states, chain.policy)))
        write_output("\n".join(parts) + "\n", args.output)
        return 0
    t_table = Table(f"T (one hit), up-card {rank_symbol(upcard)}: {rules.describe()}",
                    ["state", *chain.states], [[s, *row] for s, row in zip(chain.states, chain.T)])
    v_table = Table("B, R_stand, V and the policy", ["state", "B", "R_stand", "V", "policy"],
                    [[s, b, r, v, p] for s, b, r, v, p in
                     zip(chain.states, chain.B, chain.R_stand, chain.V, chain.policy)])
    write_output(render([t_table, v_table], "text", style), args.output)
    return 0
