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
  bjexact matrix --player --decks inf --upcard T --format csv     # long form, for spreadsheets
  bjexact matrix --decks inf --upcard 6 --heatmap T -o t.svg      # a heatmap: T, R, N or NR
  bjexact matrix --player --decks inf --upcard 6 --heatmap T -o p.png

Transient states are listed in topological order, the up-card's one-card state
first. T: transient -> transient one-draw probabilities; R: transient -> absorbing;
B: the bust column of R; N = (I - T)^-1; N R: P(outcome | state), whose first row
is the dealer-table row. CSV is long form: matrix,row,column,value.

--player (infinite deck): text, csv and --heatmap list the player's states hard 4..21,
then soft 12..21 (text: T in blocks of 14 columns, headed h12 = hard 12, s15 = soft
15); json and latex by hard sum, which makes T strictly upper triangular. T: one
hit's transitions;
B: the loss payoff times P(bust on the hit) (-P(bust) for --objective ev); R_stand:
the values of standing; V = max(R_stand, T V + B); policy: the best move.
JSON keys: rules, upcard, objective, states, T, B, R_stand, V, policy.
CSV (long form): matrix,row,column,value for T, then B, R_stand, V and policy.

--heatmap MATRIX -o FILE draws one matrix (T, R, N or NR; the player: T) as coloured
cells, darker for larger entries, each with its exact fraction as tooltip (SVG);
.svg, .png and .pdf need Graphviz's 'dot' program.
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
    group.add_argument("--heatmap", choices=HEATMAPS, default=None, metavar="MATRIX",
                       help="draw one matrix as a heatmap to -o FILE (.svg, .png, .pdf or .dot) instead: "
                            "T, R, N or NR (the player: T)")
    parser.set_defaults(run=run)


HEATMAPS = ("T", "R", "N", "NR")
_HEATMAP_NAMES = {"T": "T: P(next state | state) among the drawing states",
                  "R": "R: P(outcome on the next card | state)",
                  "N": "N = (I - T)^-1: expected visits to a state (column) from a state (row)",
                  "NR": "N R: P(final outcome | state)"}


def run_heatmap(args: argparse.Namespace, title: str, rows, columns, grid) -> int:
    """Write the heatmap of one matrix to ``args.output``."""
    from ..errors import BjexactError
    from ..files import write_atomically
    from ..render.diagrams import diagram_format, render
    from ..render.heatmaps import heatmap
    from .common import is_stdout, output_path, write_output

    if args.output is None:
        raise BjexactError("--heatmap needs -o FILE (.svg, .png, .pdf, or .dot; '-' for DOT on standard output)")
    if args.format != "text" or args.decimals is not None:
        raise BjexactError("--heatmap draws a picture: leave out --format and --decimals")
    fmt = "dot" if is_stdout(args.output) else diagram_format(str(output_path(args.output)))
    data = render(heatmap(title, rows, columns, grid), fmt)
    if is_stdout(args.output):
        write_output(data.decode(), None)
    else:
        write_atomically(output_path(args.output), data)
    return 0


def run(args: argparse.Namespace) -> int:
    from ..core.cards import parse_rank, rank_symbol
    from ..dealer.matrices import dealer_matrices
    from ..errors import BjexactError

    rules = rules_from_args(args)
    upcard = parse_rank(args.upcard)
    if args.player:
        return run_player(args, rules, upcard)
    if not rules.infinite and args.format in ("text", "latex") and args.heatmap is None:
        raise BjexactError("finite-shoe matrices are large: use --format json or csv")
    chain = dealer_matrices(rules, upcard)
    if args.heatmap is not None:
        columns = {"T": chain.transient, "N": chain.transient}.get(args.heatmap, chain.absorbing)
        grid = {"T": chain.T, "R": chain.R, "N": chain.N, "NR": chain.absorption}[args.heatmap]
        title = f"Dealer, up-card {rank_symbol(upcard)}: {rules.describe()}; {_HEATMAP_NAMES[args.heatmap]}"
        return run_heatmap(args, title, chain.transient, columns, grid)
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
    from ..render.heatmaps import short_state
    from ..render.tables import NumberStyle, Table, render

    if not rules.infinite:
        raise BjexactError("--player matrices are for the infinite deck (--decks inf); "
                           "finite shoes are composition-dependent: see 'bjexact player --moves hit-stand'")
    solved = solve_infinite(rules, args.objective).matrices(upcard)  # by hard sum: T strictly upper triangular
    chain = readable_order(solved)
    if args.heatmap is not None:
        if args.heatmap != "T":
            raise BjexactError("--player --heatmap: the player's chain has T only (one hit's transitions)")
        title = (f"Player's hit chain, up-card {rank_symbol(upcard)}: {rules.describe()}; "
                 "T: P(next state | hit) (bust left out)")
        return run_heatmap(args, title, chain.states, chain.states, chain.T)
    if args.format == "csv":
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["matrix", "row", "column", "value"])
        for s, row in zip(chain.states, chain.T):
            writer.writerows(["T", s, c, fraction_string(x)] for c, x in zip(chain.states, row))
        for name in ("B", "R_stand", "V"):
            writer.writerows([name, s, name, fraction_string(x)] for s, x in zip(chain.states, getattr(chain, name)))
        writer.writerows(["policy", s, "policy", p] for s, p in zip(chain.states, chain.policy))
        write_output(buffer.getvalue(), args.output)
        return 0
    document = {"rules": {**rules.to_json(), "bj_pays": fraction_string(rules.bj_pays)}, "upcard": rank_symbol(upcard),
                "objective": args.objective, **solved.to_json()}
    if args.format == "json":
        import json

        write_output(json.dumps(document, indent=2) + "\n", args.output)
        return 0
    style = NumberStyle(decimals=4 if args.decimals is None else args.decimals, percent=False,
                        exact=args.decimals is None)
    if args.format == "latex":
        chain = solved
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
    t_tables = [Table(f"T (one hit), up-card {rank_symbol(upcard)}: {rules.describe()}; "
                      f"columns {chain.states[start]} to {chain.states[end - 1]}",
                      ["state", *(short_state(c) for c in chain.states[start:end])],
                      [[s, *row[start:end]] for s, row in zip(chain.states, chain.T)])
                for start, end in _column_blocks(len(chain.states))]
    v_table = Table("B, R_stand, V and the policy", ["state", "B", "R_stand", "V", "policy"],
                    [[s, b, r, v, p] for s, b, r, v, p in
                     zip(chain.states, chain.B, chain.R_stand, chain.V, chain.policy)])
    write_output(render([*t_tables, v_table], "text", style), args.output)
    return 0


_BLOCK = 14


def _column_blocks(n: int) -> list[tuple[int, int]]:
    """The columns of a wide text matrix in blocks of at most 14, printed one below the other."""
    return [(start, min(start + _BLOCK, n)) for start in range(0, n, _BLOCK)]


def readable_order(chain):
    """The player's matrices with the states in reading order: hard 4..21, then soft 12..21.

    (The solver orders them by hard sum, which makes T triangular but interleaves hard and soft.)
    """
    from dataclasses import replace

    def key(state: str) -> tuple[bool, int]:
        kind, _, total = state.partition(" ")
        return kind == "soft", int(total)

    order = sorted(range(len(chain.states)), key=lambda i: key(chain.states[i]))

    def pick(vector):
        return tuple(vector[i] for i in order)

    return replace(chain, states=pick(chain.states), T=tuple(pick(chain.T[i]) for i in order), B=pick(chain.B),
                   R_stand=pick(chain.R_stand), V=pick(chain.V), policy=pick(chain.policy))
