"""Reports for people: a LaTeX document (compiled to PDF when TeX is present) and a Markdown page.

A report holds, for one rule set: the rules and conventions; the dealer's table
as decimals and as exact fractions; for the infinite deck the absorbing-chain
matrices T, B and N R of up-card 6; the player's best moves and the values of
standing and hitting; diagrams (:mod:`bjexact.render.diagrams`); and a short method
section. The text of ``report.md`` and ``report.tex`` depends only on the rules
(never on the machine, the date or which programs are installed), so the
reference reports in the repository can be checked for staleness by
regenerating them.

The player analysis is enclosed in marker comments (:data:`PLAYER_BEGIN`,
:data:`PLAYER_END`) so that the rest of a report can be compared on its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.cards import rank_symbol
from ..core.rules import Rules
from ..dealer.distributions import dealer_table
from ..dealer.matrices import dealer_matrices
from ..errors import BjexactError
from ..files import write_atomically
from ..player.solver import solve
from .diagrams import dealer_diagram, have_dot, player_diagram
from .diagrams import render as render_diagram
from .symbolic import report_section
from .tables import NumberStyle, Table, dealer_tables, decimal_string, game_lines, latex_escape, player_tables, render

__all__ = [
    "REFERENCE_SETS",
    "PLAYER_BEGIN",
    "PLAYER_END",
    "Figure",
    "Report",
    "build_report",
    "report_markdown",
    "report_latex",
    "write_report",
    "compile_latex",
    "write_reference",
]

# The reference rule sets of reports/: directory name -> rules.
REFERENCE_SETS: tuple[tuple[str, Rules], ...] = (
    ("infinite-s17", Rules(decks="inf")),
    ("infinite-h17", Rules(decks="inf", h17=True)),
    ("1-deck-s17", Rules(decks=1)),
    ("2-decks-s17", Rules(decks=2)),
    ("6-decks-s17", Rules(decks=6)),
    ("8-decks-s17", Rules(decks=8)),
)
PLAYER_BEGIN = "player analysis: begin"
PLAYER_END = "player analysis: end"
MATRIX_UPCARD = 6
FIGURES = "figures"
_SOURCE_DATE = "1767225600"  # 2026-01-01: PDFs carry this date, so that they are reproducible


@dataclass(frozen=True)
class Figure:
    """A diagram of the report: ``name`` is the file stem under ``figures/``."""

    name: str
    caption: str
    graph: Any = field(repr=False)


@dataclass(frozen=True)
class Report:
    """Everything a report shows; ``solution`` is ``None`` when the player analysis is left out."""

    rules: Rules
    objective: str
    dealer: Any
    chain: Any
    solution: Any
    figures: tuple[Figure, ...]
    symbolic: Mapping[str, str] = field(default_factory=dict)  # "md"/"latex" -> the symbolic section


def build_report(rules: Rules, objective: str = "ev", *, player: bool = True,
                 progress: bool | None = None) -> Report:
    """Compute what a report shows (the player analysis of finite shoes takes seconds)."""

    dealer = dealer_table(rules)
    chain = dealer_matrices(rules, MATRIX_UPCARD) if rules.infinite else None
    solution = solve(rules, objective, progress=progress) if player else None
    shoe = rules.make_shoe()
    figures = []
    for upcard in (6, 1):
        if not shoe.has(upcard):
            continue
        symbol = rank_symbol(upcard)
        what = ("every state, exact transition probabilities" if rules.infinite else
                "hands merged by (total, soft); edges are averages of conditional probabilities")
        figures.append(Figure(f"dealer-{symbol}", f"The dealer's chain from up-card {symbol} ({what}).",
                              dealer_diagram(rules, [upcard])))
    if rules.infinite:
        figures.append(Figure("player-6", "The player's hit chain against up-card 6 under the best play: "
                              "each state with its best move and value; edges leave the states where "
                              "hitting is best.", player_diagram(rules, 6, objective=objective)))

    symbolic = {fmt: report_section(rules, fmt) for fmt in ("md", "latex")}
    return Report(rules, objective, dealer, chain, solution, tuple(figures), symbolic)


# --- the shared text --------------------------------------------------------------------


def _title(rules: Rules) -> str:
    return f"Exact blackjack analysis: {rules.describe()}"


_NATURALS = {
    "as21": "A dealer natural (ace and ten-valued card as the first two cards) counts as a final 21, "
            "and a player natural is simply a 21.",
    "separate": "A dealer natural is its own outcome, 'blackjack'; the 21 column holds 21s of three or more "
                "cards. A player natural is not played: it wins the blackjack payout, or pushes against "
                "a dealer natural.",
    "peek": "The dealer checks for a natural first: the dealer table and the player's values are "
            "conditioned on the dealer not holding a natural (the A and T rows are renormalised).",
}


def _shoe_words(rules: Rules) -> str:
    if rules.shoe is None:
        return f"{rules.describe().split(',')[0]} of 52 cards"
    return f"A shoe of {sum(rules.shoe)} cards (A,2,...,9,T: {','.join(map(str, rules.shoe))})"


def _conventions(rules: Rules, objective: str) -> list[str]:
    if rules.infinite:
        shoe = ("The infinite deck: every card is drawn with replacement, so aces and 2 to 9 each have "
                "probability 1/13 and ten-valued cards 4/13, whatever has been dealt.")
    else:
        shoe = (f"{_shoe_words(rules)}, drawn without replacement. A dealer row is "
                "conditioned on the up-card alone (it has left the shoe). The player's values are "
                "composition-dependent: the player's cards and the up-card have left the shoe, and the "
                "dealer's hole card is one of the unseen cards.")
    dealer = ("The dealer hits soft 17 (H17) and stands on hard 17 and on 18 or more." if rules.h17 else
              "The dealer draws to 16 and stands on every 17 (S17), soft or hard.")
    value = ("Values are expected results per unit bet: +1 for a win, 0 for a push, -1 for a loss."
             if objective == "ev" else "Values are the chance of winning, a push counted as half a win.")
    return [
        shoe,
        dealer,
        "An ace counts 11 unless that would take the hand over 21; at most one ace counts 11.",
        _NATURALS[rules.naturals],
        "The player may only hit or stand (no doubling, splitting, insurance or surrender); "
        "going over 21 loses at once, before the dealer plays. Ties between hitting and standing go to "
        "standing.",
        value,
        "Every number is computed as an exact fraction; decimals are rounded (half away from zero) only "
        "when printed.",
    ]


def _method(rules: Rules) -> list[str]:
    finite = not rules.infinite
    return [
        "The dealer's play is a directed acyclic graph: its start states are the up-cards, its absorbing "
        "states the outcomes 17 to 21 and bust, and every other state a hand still drawing"
        + (" (for a finite shoe, the multiset of the dealer's cards, since the chance of the next card "
           "depends on which cards are gone)" if finite else " (its total and whether it is soft)")
        + ". Each edge carries the exact chance of the card or cards that take it.",
        "The absorption probabilities are solved exactly over the rationals in topological order; in "
        "matrix form, with T the transitions among the drawing states and R those into the outcomes, "
        "N = (I - T)^-1 and N R gives P(outcome | state), whose start row is the dealer-table row.",
        "The player's decision is solved by backward induction: the value of standing compares the player's "
        "total with the dealer's outcome distribution"
        + (" computed for exactly the cards left (once per multiset of the player's cards)" if finite else "")
        + "; the value of hitting averages the best values of the next states, a bust losing at once. "
        "Because drawing always raises the hard sum, the recursion is finite and exact.",
        "Conditioning: a dealer row is P(outcome | up-card); a player value is conditioned on the player's "
        "cards and the up-card" + (" (and on no dealer natural under 'peek')" if rules.naturals == "peek" else "")
        + ". The game value from the deal is unconditional.",
    ]


def _dealer_tables(report: Report) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    decimal = NumberStyle(decimals=4, percent=True)
    exact = NumberStyle(exact=True)
    return (dealer_tables(report.dealer, decimal)[0], decimal), (dealer_tables(report.dealer, exact)[0], exact)


def _matrix_tables(report: Report) -> list[tuple[Any, Any]]:
    chain = report.chain
    if chain is None:
        return []
    exact = NumberStyle(exact=True)
    states = list(chain.transient)
    short = [_short_state(s) for s in states]
    up = rank_symbol(MATRIX_UPCARD)
    return [
        (Table(f"T for up-card {up}: P(next state | state) among the drawing states (row: from, column: to)",
               ["from/to", *short], [[s, *row] for s, row in zip(short, chain.T)]), exact),
        (Table(f"B for up-card {up}: P(bust on the next card | state)", ["state", "B"],
               [[s, b] for s, b in zip(short, chain.B)]), exact),
        (Table(f"N R for up-card {up}: P(final outcome | state); the first row is the dealer-table row",
               ["state", *chain.absorbing], [[s, *row] for s, row in zip(short, chain.absorption)]), exact),
    ]


def _short_state(state: str) -> str:
    """``hard 12`` -> ``h12``, ``soft 15`` -> ``s15``: matrix headers stay narrow."""
    kind, _, total = state.partition(" ")
    return {"hard": "h", "soft": "s"}.get(kind, kind) + total if total else f"up {state}"


def _player_tables(report: Report):
    moves = NumberStyle()
    values = NumberStyle(decimals=4, percent=False, signed=report.objective == "ev")
    return ([(t, moves) for t in player_tables(report.solution, moves, "policy")]
            + [(t, values) for t in player_tables(report.solution, values, "values")])


def _game_lines(report: Report) -> list[str]:
    return game_lines(report.solution.game, report.objective)


# --- Markdown ---------------------------------------------------------------------------


def report_markdown(report: Report) -> str:
    """The Markdown report; figures are ``figures/NAME.svg`` beside it."""
    rules = report.rules
    out = [f"# {_title(rules)}", "", "## Rules and conventions", ""]
    out += [f"- {line}" for line in _conventions(rules, report.objective)]
    out += ["", "## The dealer's final outcome", "",
            "Each row is P(final outcome | up-card), first as percentages rounded to 4 places, then exactly.", ""]
    for table, style in _dealer_tables(report):
        out += [render([table], "md", style).rstrip(), ""]
    out += ["## The dealer's absorbing chain", ""]
    if report.chain is None:
        out += ["For a finite shoe the chain's states are the multisets of the dealer's cards (hundreds per "
                "up-card); `bjexact matrix --decks N --upcard 6 --format json` prints T, R, B, N and N R "
                "exactly.", ""]
    else:
        out += ["States: `up 6` is the up-card alone, `h12` hard 12, `s15` soft 15. T is strictly upper "
                "triangular in this order.", ""]
        for table, style in _matrix_tables(report):
            out += [render([table], "md", style).rstrip(), ""]
    out += [f"<!-- {PLAYER_BEGIN} -->", "## The player's best play", ""]
    if report.solution is None:
        out += ["(left out)", ""]
    else:
        out += [f"{line.strip()}  " for line in _game_lines(report)] + [""]
        for table, style in _player_tables(report):
            out += [render([table], "md", style).rstrip(), ""]
    out += [f"<!-- {PLAYER_END} -->"]
    if report.symbolic:
        out += ["## Effects of removal and the ten density", "", report.symbolic["md"].rstrip(), ""]
    out += ["## Diagrams", ""]
    for figure in report.figures:
        out += [f"![{figure.caption}]({FIGURES}/{figure.name}.svg)", "", f"*{figure.caption}*", ""]
    out += ["## Method", ""] + [f"{line}\n" for line in _method(rules)]
    out += ["Regenerate: `bjexact report -o DIR " + _rule_flags(rules) + "`.", ""]
    return "\n".join(out).rstrip() + "\n"


def _rule_flags(rules: Rules) -> str:
    flags = ["--decks inf" if rules.infinite else f"--decks {rules.decks}"]
    if rules.h17:
        flags.append("--h17")
    if rules.naturals != "as21":
        flags.append(f"--naturals {rules.naturals}")
    return " ".join(flags)


# --- LaTeX ------------------------------------------------------------------------------

_PREAMBLE = r"""\documentclass[a4paper,10pt]{article}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage[margin=2cm]{geometry}
\usepackage{amsmath}
\allowdisplaybreaks
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{pdflscape}
\usepackage{float}
\usepackage[hidelinks]{hyperref}
\pdfinfoomitdate=1
\pdftrailerid{}
\setlength{\tabcolsep}{4pt}
% a table wider than the line is scaled down to fit it, never overflowing
\newsavebox{\widetable}
\newcommand{\fitwidth}[1]{\sbox{\widetable}{#1}%
  \ifdim\wd\widetable>\linewidth\resizebox{\linewidth}{!}{\usebox{\widetable}}\else\usebox{\widetable}\fi}
"""


def _tex(text: str) -> str:
    """Text for LaTeX: the table escapes plus the superscript of ``(I - T)^-1``."""

    return latex_escape(text).replace("^-1", "$^{-1}$")


def _breakable(text: str) -> str:
    """Let TeX break long runs of digits (exact fractions) every 30 digits."""
    import re

    return re.sub(r"\d{30}(?=\d)", lambda m: m.group(0) + "\\allowbreak{}", text)


def _latex_table(table: Any, style: Any, size: str = "small") -> str:
    text = render([table], "latex", style)
    text = "\n".join(line for line in text.splitlines() if not line.startswith("% needs"))
    text = text.replace("\\begin{tabular}", "\\fitwidth{\\begin{tabular}", 1).replace(
        "\\end{tabular}", "\\end{tabular}}", 1)
    if list(table.columns[-1:]) == ["hands"]:  # lists of hands read from the left
        text = text.replace("{tabular}{lrr}", "{tabular}{lcl}", 1)
    if style.exact:  # fractions at full size, rows spaced for them
        text = text.replace("\\frac", "\\dfrac").replace("$ \\\\\n", "$ \\\\[10pt]\n")
    return text.replace("\\centering", f"\\centering\\{size}", 1).replace("[htbp]", "[H]", 1) + "\n"


def report_latex(report: Report) -> str:
    """The LaTeX report (article, booktabs); figures are ``figures/NAME.pdf`` beside it."""

    rules = report.rules
    out = [_PREAMBLE, f"\\title{{{latex_escape(_title(rules))}}}", "\\author{bjexact}", "\\date{}",
           "\\begin{document}", "\\maketitle", "", "\\section{Rules and conventions}", "\\begin{itemize}"]
    out += [f"\\item {_tex(line)}" for line in _conventions(rules, report.objective)]
    out += ["\\end{itemize}", "", "\\section{The dealer's final outcome}",
            "Each row is $P(\\text{final outcome} \\mid \\text{up-card})$, first as percentages rounded to 4 "
            "places, then exactly.", ""]
    decimal, exact = _dealer_tables(report)
    out += [_latex_table(*decimal)]
    out += ["\\begin{landscape}", _latex_table(*exact, size="footnotesize"), "\\end{landscape}", ""]
    out += ["\\section{The dealer's absorbing chain}"]
    if report.chain is None:
        out += ["For a finite shoe the chain's states are the multisets of the dealer's cards (hundreds per "
                "up-card); \\texttt{bjexact matrix -{}-decks N -{}-upcard 6 -{}-format json} prints $T$, $R$, $B$, "
                "$N$ and $NR$ exactly.", ""]
    else:
        out += ["States: \\emph{up 6} is the up-card alone, \\emph{h12} hard 12, \\emph{s15} soft 15. $T$ is "
                "strictly upper triangular in this order; $N = (I - T)^{-1}$.", ""]
        tables = _matrix_tables(report)
        out += [_latex_table(*tables[0], size="footnotesize"), _latex_table(*tables[1], size="footnotesize")]
        out += ["\\begin{landscape}", _latex_table(*tables[2], size="footnotesize"), "\\end{landscape}", ""]
    out += [f"% {PLAYER_BEGIN}", "\\section{The player's best play}"]
    if report.solution is None:
        out += ["(left out)", ""]
    else:
        out += ["\\begin{flushleft}", " \\\\\n".join(_breakable(latex_escape(line.strip()))
                                                     for line in _game_lines(report)),
                "\\end{flushleft}", ""]
        for table, style in _player_tables(report):
            size = "scriptsize" if len(table.rows) > 30 else "small"
            out += ["\\clearpage" if len(table.rows) > 30 else "", _latex_table(table, style, size)]
    out += [f"% {PLAYER_END}"]
    if report.symbolic:
        out += ["\\section{Effects of removal and the ten density}", report.symbolic["latex"].rstrip(), ""]
    out += ["\\section{Diagrams}",
            "The diagrams are vector graphics: zoom in to read the edge labels.", ""]
    for figure in report.figures:
        path = f"{FIGURES}/{figure.name}.pdf"
        out += ["\\begin{landscape}", "\\begin{figure}[p]", "\\centering",
                f"\\IfFileExists{{{path}}}{{\\includegraphics[width=\\linewidth,height=0.8\\textheight,"
                f"keepaspectratio]{{{path}}}}}{{\\fbox{{{FIGURES}/{figure.name}.pdf is drawn by Graphviz "
                "(not installed)}}",
                f"\\caption{{{latex_escape(figure.caption)}}}", "\\end{figure}", "\\end{landscape}", ""]
    out += ["\\section{Method}"] + [f"{_tex(line)}\n" for line in _method(rules)]
    flags = latex_escape(_rule_flags(rules)).replace("--", "-{}-")  # no en dash in typewriter type
    out += [f"Regenerate: \\texttt{{bjexact report -o DIR {flags}}}.", "",
            "\\end{document}"]
    return "\n".join(line for line in out) .rstrip() + "\n"


# --- files ------------------------------------------------------------------------------


def _say(message: str, quiet: bool) -> None:
    if not quiet:
        import sys

        print(message, file=sys.stderr)


def write_report(report: Report, directory: Path, *, compile_pdf: bool = True, quiet: bool = False) -> list[Path]:
    """Write report.md, report.tex, the figures and (with TeX) report.pdf into ``directory``.

    Without Graphviz the figures are written as .dot only; without TeX the .tex
    is written and a message says how to get a PDF. A TeX error raises
    :class:`BjexactError` naming the log.
    """
    if directory.exists() and not directory.is_dir():
        raise BjexactError(f"cannot write the report into {directory}: it is a file, not a directory")
    directory.mkdir(parents=True, exist_ok=True)
    figures = directory / FIGURES
    figures.mkdir(exist_ok=True)
    written = []
    dot = have_dot()
    for figure in report.figures:
        for fmt in ("dot", "svg", "pdf") if dot else ("dot",):
            path = figures / f"{figure.name}.{fmt}"
            write_atomically(path, render_diagram(figure.graph, fmt))
            written.append(path)
    if not dot:
        _say("note: Graphviz's 'dot' is not installed: figures written as .dot only "
             "(apt-get install graphviz, brew install graphviz), then run the report again", quiet)
    for name, text in (("report.md", report_markdown(report)), ("report.tex", report_latex(report))):
        write_atomically(directory / name, text.encode())
        written.append(directory / name)
    if compile_pdf:
        pdf = compile_latex(directory / "report.tex", quiet=quiet)
        if pdf is not None:
            written.append(pdf)
    return written


def _tex_command() -> list[str] | None:
    if shutil.which("latexmk"):
        return ["latexmk", "-pdf", "-interaction=nonstopmode", "-halt-on-error", "-quiet"]
    if shutil.which("pdflatex"):
        return ["pdflatex", "-interaction=nonstopmode", "-halt-on-error"]
    return None


def compile_latex(tex: Path, *, quiet: bool = False) -> Path | None:
    """Compile ``tex`` (with its figures/) in a temporary directory; the PDF lands beside it.

    Returns the PDF's path, or ``None`` when no TeX is installed (with a message).
    """
    command = _tex_command()
    if command is None:
        _say(f"note: no latexmk or pdflatex: {tex} is written; for a PDF install TeX Live "
             f"(apt-get install texlive-latex-recommended latexmk) and run 'latexmk -pdf {tex.name}' "
             f"in {tex.parent}", quiet)
        return None
    env = dict(os.environ, SOURCE_DATE_EPOCH=_SOURCE_DATE, FORCE_SOURCE_DATE="1")
    with tempfile.TemporaryDirectory(prefix="bjexact-tex-") as tmp:
        work = Path(tmp)
        shutil.copy(tex, work / tex.name)
        if (tex.parent / FIGURES).is_dir():
            shutil.copytree(tex.parent / FIGURES, work / FIGURES)
        runs = 1 if command[0] == "latexmk" else 2  # pdflatex: twice, for the references
        for _ in range(runs):
            done = subprocess.run([*command, tex.name], cwd=work, env=env, capture_output=True,
                                  stdin=subprocess.DEVNULL, check=False)
            if done.returncode != 0:
                log = tex.with_suffix(".log")
                produced = work / log.name
                if produced.exists():
                    shutil.copy(produced, log)
                raise BjexactError(f"LaTeX failed on {tex.name}: {_first_error(log)} (log: {log})")
        pdf = tex.with_suffix(".pdf")

        write_atomically(pdf, (work / pdf.name).read_bytes())
    return pdf


def _first_error(log: Path) -> str:
    try:
        lines = log.read_text(errors="replace").splitlines()
    except OSError:
        return "no log was written"
    for line in lines:
        if line.startswith("!"):
            return line.lstrip("! ").strip()
    return "see the log"


# --- the reference set ------------------------------------------------------------------


def reference_texts(rules: Rules, *, player: bool = True) -> dict[str, str]:
    """The Markdown and LaTeX of one reference report (no files written)."""
    report = build_report(rules, player=player, progress=False)
    return {"report.md": report_markdown(report), "report.tex": report_latex(report)}


def index_markdown(games: Sequence[tuple[str, Rules, Any]]) -> str:
    """The index page of the reference reports: one line per rule set."""

    lines = [
        "# Reference reports",
        "",
        "Exact dealer tables, absorbing-chain matrices, the player's best hit/stand play and diagrams for",
        "the reference rule sets (naturals as21, values +1 win, 0 push, -1 loss). Regenerate them all with",
        "`bjexact report --reference reports/`; a test fails when they are stale.",
        "",
        "| rules | Markdown | LaTeX | PDF | game value (exact in the report) |",
        "|:---|:---|:---|:---|---:|",
    ]
    for slug, rules, game in games:
        value = f"{decimal_string(game.value * 100, 4, signed=True)}%" if game is not None else ""
        lines.append(f"| {rules.describe()} | [report.md]({slug}/report.md) | [report.tex]({slug}/report.tex) "
                     f"| [report.pdf]({slug}/report.pdf) | {value} |")
    return "\n".join(lines) + "\n"


def write_reference(directory: Path, *, compile_pdf: bool = True, quiet: bool = False,
                    progress: bool | None = None, announce: Callable[[str], None] | None = None) -> list[Path]:
    """Regenerate every reference report under ``directory`` and its index page."""

    written = []
    games = []
    for slug, rules in REFERENCE_SETS:
        if announce:
            announce(f"{slug}: {rules.describe()}")
        report = build_report(rules, progress=progress)
        written += write_report(report, directory / slug, compile_pdf=compile_pdf, quiet=quiet)
        games.append((slug, rules, report.solution.game))
    index = directory / "index.md"
    write_atomically(index, index_markdown(games).encode())
    return [*written, index]
