"""Symbolic results for people: tables of polynomials, decision boundaries, a report section.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from ..core.cards import rank_symbol
from ..core.choice import hit_or_stand
from ..core.numbers import fraction_string, mpq
from ..core.rules import Rules
from ..errors import BjexactError
from ..symbolic.boundaries import AlgebraicNumber, DecisionBoundaries, Piece, decision_boundaries, narrow_root
from ..symbolic.models import STANDARD_TEN_DENSITY, ten_density_model
from ..symbolic.polys import latex_lines, n_terms, polynomial_latex, polynomial_string, summary
from ..symbolic.removal import dealer_removal_effects
from ..symbolic.table import SymbolicTable, substitution_text, symbolic_dealer_table
from .document import Block, Bullets, DisplayMath, Inline, Math, TableBlock, blocks_latex, blocks_markdown, paragraph
from .removal import removal_tables
from .tables import NumberStyle, latex_escape

__all__ = ["SYMBOLIC_FORMATS", "render_symbolic", "render_boundaries", "REPORT_DECISIONS", "report_section",
           "report_blocks", "report_title"]

# --- rendering ---------------------------------------------------------------------------

SYMBOLIC_FORMATS = ("text", "csv", "json", "md", "latex")


def _cells(table: SymbolicTable):
    for u, row in table.rows.items():
        for o in table.outcomes:
            yield u, o, row[o]


def render_symbolic(
    table: SymbolicTable, fmt: str, style: Any, *, max_terms: int = 12, full_name: str | None = None
) -> tuple[str, str | None]:
    """``(document, full)``: the table in ``fmt``, and the long polynomials in full (or ``None``).

    In ``text``, ``md`` and ``latex`` a cell of more than ``max_terms`` terms is
    summarised (degree, number of terms) and written in full to the second
    document, which the caller saves as ``full_name``. ``csv`` and ``json`` always
    hold every polynomial in full (strings that sympy parses back). ``style`` (a
    :class:`bjexact.render.tables.NumberStyle`) prints the value at the standard deck.
    """
    import json

    if fmt == "json":
        return json.dumps(table.to_json(), indent=2) + "\n", None
    standard = table.evaluate()
    title = (f"P(dealer's final outcome | up-card) as {table.model.describe()}: {table.rules.describe()}")
    at = "at the standard deck" + (" (%)" if style.percent and not style.exact else "")
    if fmt == "csv":
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["up-card", "outcome", "polynomial", "standard deck"])
        for u, o, cell in _cells(table):
            writer.writerow([rank_symbol(u), o, polynomial_string(cell), fraction_string(standard[u][o])])
        return buffer.getvalue(), None
    long_cells = [(u, o) for u, o, cell in _cells(table) if n_terms(cell) > max_terms]
    where = f"in full in {full_name}" if full_name else "in full with --full FILE"
    note = (f"{len(long_cells)} polynomials of more than {max_terms} terms are summarised; {where}."
            if long_cells else "")
    if fmt == "latex":
        return _latex_document(table, standard, style, long_cells, note, title, at), (
            _latex_document(table, standard, style, [], "", title, at) if long_cells else None)
    if fmt == "md":
        return _md_document(table, standard, style, long_cells, note, title, at), (
            _md_document(table, standard, style, [], "", title, at) if long_cells else None)
    if fmt != "text":
        raise BjexactError(f"unknown format {fmt!r} (use {', '.join(SYMBOLIC_FORMATS)})")
    return _text_document(table, standard, style, long_cells, note, title, at), (
        _text_document(table, standard, style, [], "", title, at) if long_cells else None)


def _text_document(table, standard, style, long_cells, note, title, at) -> str:
    lines = [title, substitution_text(table.model), ""]
    width = max(len(o) for o in table.outcomes)
    for u, row in table.rows.items():
        lines.append(f"up-card {rank_symbol(u)}  ({at})")
        for o in table.outcomes:
            cell = row[o]
            shown = f"[{summary(cell)}]" if (u, o) in long_cells else polynomial_string(cell)
            lines.append(f"  {o.ljust(width)}  {style.plain(standard[u][o]).rjust(10)}  {shown}")
        lines.append("")
    if note:
        lines.append(note)
    return "\n".join(lines).rstrip() + "\n"


def _md_document(table, standard, style, long_cells, note, title, at) -> str:
    lines = [f"**{title}**", "", f"| up-card | outcome | {at} | polynomial |", "|:---|:---|---:|:---|"]
    for u, o, cell in _cells(table):
        shown = summary(cell) if (u, o) in long_cells else f"`{polynomial_string(cell)}`"
        lines.append(f"| {rank_symbol(u)} | {o} | {style.plain(standard[u][o])} | {shown} |")
    if note:
        lines += ["", f"*{note}*"]
    return "\n".join(lines) + "\n"


def _latex_document(table, standard, style, long_cells, note, title, at) -> str:
    lines = [
        "% needs \\usepackage{amsmath}",
        f"% {title}",
        f"% {substitution_text(table.model)}",
        "\\begin{align*}",
    ]
    cells = list(_cells(table))
    for k, (u, o, cell) in enumerate(cells):
        if (u, o) in long_cells:
            shown = rf"\text{{{latex_escape(summary(cell))}}}"
        else:
            shown = polynomial_latex(cell)
        value = style.latex(standard[u][o])
        end = r" \\" if k + 1 < len(cells) else ""
        lines.append(rf"P(\text{{{o}}} \mid {rank_symbol(u)}) &= {shown} && ({value}){end}")
    lines.append("\\end{align*}")
    lines.append(f"% right-hand column: {at}")
    if note:
        lines.append(f"% {note}")
    return "\n".join(lines) + "\n"


def render_boundaries(result: DecisionBoundaries, fmt: str, digits: int = 15) -> str:
    """``text``, ``json`` or ``latex`` for :func:`decision_boundaries`; roots with ``digits`` certain
    decimals (truncated, followed by ``...``)."""
    import json

    from sympy import Rational, latex

    if fmt == "json":
        return json.dumps(result.to_json(digits), indent=2) + "\n"
    t = result.model.variables[0]
    names = [f"{t}{k}" for k in range(1, len(result.boundaries) + 1)]
    point_name = {id(x): name for (x, _, _), name in zip(result.boundaries, names, strict=True)}

    def point(x: AlgebraicNumber | None, default: str) -> str:
        if x is None:
            return default
        return point_name.get(id(x)) or f"{x.decimals(digits)}..."

    stand, hit = result.at(Rational(fraction_string(STANDARD_TEN_DENSITY)))
    standard_best = hit_or_stand(stand, hit)
    moves = "; ".join(
        f"{p.best} for {point(p.left, '0')} < {t} < {point(p.right, '1')}" for p in _by_move(result.pieces)
    )
    if fmt == "latex":

        def frac(poly):
            if result.denominator.as_expr() == 1:
                return latex(poly.as_expr(), order="lex")
            return rf"\frac{{{latex(poly.as_expr(), order='lex')}}}{{{latex(result.denominator.as_expr())}}}"

        lines = ["% needs \\usepackage{amsmath}",
                 f"% {latex_escape(result.label())}: {latex_escape(result.rules.describe())}; "
                 f"{substitution_text(result.model)}",
                 "\\begin{align*}", rf"\mathrm{{stand}}({t}) &= {frac(result.stand)} \\"]
        def bound(x, default):
            return point(x, default).replace("...", r"\ldots").replace(t, f"{t}_", 1) if x is not None and \
                id(x) in point_name else point(x, default).replace("...", r"\ldots")

        for p in _by_hit(result.pieces):
            where = f"{bound(p.left, '0')} < {t} < {bound(p.right, '1')}"
            lines.append(rf"\mathrm{{hit}}({t}) &= {frac(p.hit)} && {where} \\")
        for (x, below, above), name in zip(result.boundaries, names, strict=True):
            lines.append(rf"{t}_{name[len(t):]} &\approx {x.decimals(digits)}\ldots && "
                         rf"\text{{{below} below, {above} above}} \\")
        lines[-1] = lines[-1].rstrip(" \\")
        lines.append("\\end{align*}")
        return "\n".join(lines) + "\n"
    if fmt != "text":
        raise BjexactError(f"unknown format {fmt!r} (use text, json or latex)")
    lines = [
        f"{result.label()}: {result.rules.describe()}, objective {result.objective}",
        substitution_text(result.model),
        "",
        f"stand({t}) = {result.value_string(result.stand)}",
    ]
    hit_pieces = _by_hit(result.pieces)
    if len(hit_pieces) == 1:
        lines.append(f"hit({t})   = {result.value_string(hit_pieces[0].hit)}")
    else:
        lines.append(f"hit({t}), one card and then the best play, piece by piece:")
        for p in hit_pieces:
            lines.append(f"  {point(p.left, '0')} < {t} < {point(p.right, '1')}:  {result.value_string(p.hit)}")
    lines += [
        "",
        f"at the standard deck ({t} = 4/13): stand {_decimal_text(stand)}, hit {_decimal_text(hit)}: "
        f"{standard_best}",
        f"best move: {moves}",
    ]
    for (x, below, above), name in zip(result.boundaries, names, strict=True):
        narrow = narrow_root(x, digits)
        lo, hi = narrow.bounds()
        lines.append(f"  {name} = {x.decimals(digits)}... = {x.expression()}")
        lines.append(f"       in [{fraction_string(lo)}, {fraction_string(hi)}]; {below} below, {above} above")
    if len(result.boundaries) == 1:
        x, below, above = result.boundaries[0]
        lines += ["", f"{result.label()}: {above} is right for {t} > {x.decimals(min(digits, 6))}..., "
                      f"{below} for {t} below it"]
    elif not result.boundaries:
        lines += ["", f"{result.label()}: {result.pieces[0].best} is right for every {t} in (0, 1)"]
    return "\n".join(lines) + "\n"


def _joined(pieces: Sequence[Piece], same: Callable[[Piece], Any]) -> list[Piece]:
    """Adjacent pieces with the same ``same(piece)`` joined into one (from the first one's left end
    to the last one's right end); the rest of a joined piece is its first piece's."""
    joined: list[Piece] = []
    for p in pieces:
        if joined and same(joined[-1]) == same(p):
            last = joined[-1]
            joined[-1] = Piece(last.left, p.right, last.best, last.value, last.hit, last.stand)
        else:
            joined.append(p)
    return joined


def _by_move(pieces: Sequence[Piece]) -> list[Piece]:
    """Pieces joined where only the hit polynomial changes (the best move stays)."""
    return _joined(pieces, lambda p: p.best)


def _by_hit(pieces: Sequence[Piece]) -> list[Piece]:
    """Pieces joined where the hit polynomial stays the same (only the best move changes), for
    showing hit(t) once per expression; ``best`` and ``value`` are then those of the first piece."""
    return _joined(pieces, lambda p: p.hit)


def _decimal_text(value: mpq) -> str:
    return NumberStyle(decimals=6, percent=False).plain(value)


# --- a section for reports ---------------------------------------------------------------

REPORT_DECISIONS = ((16, False, 10), (12, False, 2))


def report_title(rules: Rules) -> str:
    """The heading of :func:`report_blocks`: the ten density is only for the infinite deck."""
    return "Effects of removal and the ten density" if rules.infinite else "Effects of removal"


@functools.lru_cache(maxsize=16)
def report_blocks(rules: Rules, decisions: tuple[tuple[int, bool, int], ...] = REPORT_DECISIONS) -> tuple[Block, ...]:
    """The blocks (:mod:`bjexact.render.document`, without the heading) of a report section on
    the symbolic results for ``rules`` (a function of its arguments alone, remembered in the process
    for its next report of the same rules: seconds of sympy each time on the infinite deck).

    Every rule set: the effects of removal on the dealer's outcomes (exact for finite shoes,
    ``D_r f / 52`` for the infinite deck). The infinite deck also gets P(bust | up-card) as
    polynomials in the ten density ``t`` and the exact ``t`` where ``decisions`` flip
    ((total, soft, up-card) each; :data:`REPORT_DECISIONS` by default).
    """
    from dataclasses import replace

    from sympy import latex

    style = NumberStyle(decimals=4)
    base, changes = removal_tables(dealer_removal_effects(rules), style)
    condition = r", \text{no dealer natural}" if rules.naturals == "peek" else ""
    caption = (Math(rf"P(\text{{dealer's outcome}}{condition})"), f" (%): {rules.describe()}")
    blocks: list[Block] = [TableBlock(base, style, caption=caption)]
    signed = replace(style, signed=True)
    if not rules.infinite:
        return (*blocks, TableBlock(changes, signed))
    rows = [[Math(rf"D_{{\mathrm{{{row[0][2:]}}}}}"), *row[1:]] for row in changes.rows]
    changes = replace(changes, title="", rows=rows, columns=["rank", *changes.columns[1:]])
    blocks += [
        paragraph("The next table gives ", Math("D_r f"), ", the derivative of each outcome's probability ",
                  Math("f"), " in the direction of removing a card of rank ", Math("r"), ":"),
        DisplayMath((r"D_r f = \sum_j p_j \frac{\partial f}{\partial p_j} - \frac{\partial f}{\partial p_r}",)),
        TableBlock(changes, signed, caption=(Math("D_r f"), " in percentage points"), notes=(paragraph(
            "Removing one card of rank ", Math("r"), " from an ", Math("N"), "-card shoe changes ", Math("f"),
            " by about ", Math("D_r f / N"), " (one deck: ", Math("N = 52"), ")."),)),
    ]
    table = symbolic_dealer_table(rules, ten_density_model("t"))
    blocks.append(paragraph(
        "The chance that the dealer busts as polynomials in the ten density ", Math("t"), " (each other rank ",
        Math(r"(1 - t)/9"), "; the standard deck has ", Math(r"t = 4/13"), "):"))
    rows_tex = []
    for u in table.upcards:
        lines = latex_lines(table[u]["bust"])
        rows_tex.append(rf"P(\text{{bust}} \mid {rank_symbol(u)}) &= {lines[0]}")
        rows_tex += [rf"&\quad {line}" for line in lines[1:]]
    blocks.append(DisplayMath(tuple(rows_tex)))
    found = []
    for total, soft, upcard in decisions:
        result = decision_boundaries(rules, total, soft, upcard)
        for x, below, above in result.boundaries:
            if x.is_rational:
                where: tuple[Inline, ...] = (Math(rf"t = {latex(x.lo)}"),)
            else:
                where = (Math(rf"t \approx {x.decimals(12)}\ldots"), ", the root of ",
                         Math(latex(x.integer_poly().as_expr(), order="lex") + " = 0"), " there")
            found.append(paragraph(f"{result.label()}: {below} below, {above} above ", *where))
        if not result.boundaries:
            found.append(paragraph(f"{result.label()}: {result.pieces[0].best} for every ", Math("t"),
                                   " in ", Math("(0, 1)")))
    blocks += [paragraph("Where the best move flips as ", Math("t"), " varies:"), Bullets(tuple(found))]
    return tuple(blocks)


def report_section(rules: Rules, fmt: str = "md",
                   decisions: tuple[tuple[int, bool, int], ...] = REPORT_DECISIONS) -> str:
    """:func:`report_blocks` as ``md`` or ``latex`` text (without the heading)."""
    if fmt not in ("md", "latex"):
        raise BjexactError(f"a report section is md or latex, not {fmt!r}")
    blocks = report_blocks(rules, decisions)
    return blocks_markdown(blocks) if fmt == "md" else blocks_latex(blocks)
