"""A side bet's math report: one section, as Markdown and LaTeX (compiled to PDF where TeX is installed).

The section holds the bet's rules (when it is settled, what it sees, the conventions its numbers
follow), its pay table, the combinations of each line (bets on the first cards), each line's chance
and return for each number of decks asked, the summary figures, every line's exact chance, the
derivation in a paragraph and, for bets that pay on the dealer busting, a diagram of the dealer's
chain by the number of cards, its bust outcomes split by the pay line they take
(:func:`bust_lines_diagram`). It is built once as a :class:`~bjexact.render.document.Document`.

The diagram's states are "the dealer draws a k-th card" and the final hands of k cards grouped by
what the pay table makes of them (the dealer's part of each line; suits are not split): a chain of
nested events, so each edge's P(next | state) is exact as such and the product along the path to a
final node is its chance. Hands of ``K`` cards or more (``K`` past the last number of cards a line
reads) are pooled in a last column.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import floor, log10
from pathlib import Path
from typing import Any

from ..core.cards import rank_symbol
from ..core.numbers import mpq
from ..core.text import NumberStyle, Table
from ..errors import BjexactError
from ..files import text_bytes, write_atomically
from ..sidebets.analysis import LOSES, SideBetAnalysis
from ..sidebets.bets import Settled, SideBet, pays_text
from ..sidebets.dealer import DealerHand, dealer_hands
from ..sidebets.events import Condition, Deal, Sees
from .diagrams import PRINT, dot_quote, have_dot, new_graph
from .diagrams import render as render_diagram
from .document import (
    FIGURES,
    Block,
    Bullets,
    Code,
    Document,
    Figure,
    Heading,
    TableBlock,
    Values,
    paragraph,
    to_latex,
    to_markdown,
)
from .report import compile_latex

__all__ = ["SIDEBET_ENTRIES", "DIAGRAM", "SideBetReport", "sidebet_document", "bust_lines_diagram",
           "write_sidebet_report", "derivation"]

DIAGRAM = "bust-lines"
SIDEBET_ENTRIES = {"report.md": False, "report.tex": False, "report.pdf": False, "report.log": False,
                   "report.html": False, "rule-effects.json": False, "figures": True}
"""What a report folder holds (True: a folder): a side-bet report replaces a main report's files too, so
that a folder holds one report."""


@dataclass(frozen=True)
class SideBetReport:
    """A side bet's analyses for the decks asked (in order) and the command that regenerates the report."""

    analyses: tuple[SideBetAnalysis, ...]
    command: str

    @property
    def bet(self) -> SideBet:
        return self.analyses[0].bet

    @property
    def diagram(self) -> Any:
        """The dealer chain's bust lines for the first shoe, or ``None`` (no line pays on a bust)."""
        return bust_lines_diagram(self.analyses[0])


def _decks(a: SideBetAnalysis) -> str:
    return a.shoe.describe()


def _pays_table(bet: SideBet) -> Table:
    rows = [[line.name, pays_text(line.pays), line.describe()] for line in bet.lines]
    rows.append([LOSES, "-1 (the stake)", "any other deal"])
    return Table("The pay table (to 1; each deal is paid by the first line it matches)",
                 ["line", "pays", "when"], rows)


def _combinations_table(analyses: Sequence[SideBetAnalysis]) -> Table | None:
    counted = [a for a in analyses if a.total_combinations is not None]
    if not counted:
        return None
    rows: list[list[Any]] = [[line.name] + [f"{a.lines[k].combinations:,}" for a in counted]
                             for k, line in enumerate(counted[0].lines)]
    rows.append(["total"] + [f"{a.total_combinations:,}" for a in counted])
    return Table("Combinations: the ways to take each line's cards from the shoe", ["line"] + [_decks(a)
                                                                                              for a in counted], rows)


def _by_decks_table(analyses: Sequence[SideBetAnalysis], title: str, column: str, field: str) -> Table:
    """Each line's ``field`` (``chance`` or ``contribution``) by decks, with the total."""
    rows: list[list[Any]] = []
    for k, line in enumerate(analyses[0].lines):
        rows.append([line.name, "-" if line.pays is None else pays_text(line.pays)]
                    + [getattr(a.lines[k], field) for a in analyses])
    rows.append(["total", ""] + [mpq(1) if field == "chance" else a.expected for a in analyses])
    return Table(title, ["line", "pays"] + [f"{_decks(a)}: {column}" for a in analyses], rows)


def _summary_table(analyses: Sequence[SideBetAnalysis]) -> Table:
    rows = [[_decks(a), a.returned, a.house_edge, a.hit_frequency,
             f"{a.standard_deviation(30):.4f}"] for a in analyses]
    return Table("The bet's figures", ["shoe", "return (%)", "house edge (%)", "hit frequency (%)",
                                       "standard deviation (units)"], rows)


def _upcard_table(a: SideBetAnalysis) -> Table:
    rows = [[rank_symbol(u.upcard), u.chance, u.paid, u.expected] for u in a.by_upcard]
    return Table(f"By up-card, {_decks(a)}", ["up-card", "chance (%)", "paid (%)", "expected (% of bet)"], rows)


def derivation(a: SideBetAnalysis) -> str:
    """How the chances were computed, in a paragraph (by what the bet sees)."""
    bet = a.bet
    if bet.first_cards_only:
        return ("Every configuration of the cards the bet sees (the player's two cards, the up-card, or both: a "
                "card may appear twice in a shoe of several decks) is classified once by the pay table; its "
                "number of combinations is the number of ways to take those cards from the shoe's physical "
                "cards, the player's pair unordered (for N decks a polynomial in N fixed by which of the cards "
                "coincide). A line's chance is its combinations over all of them"
                + (", unordered sets of three cards, as the published combination tables count them."
                   if a.total_combinations is not None and Sees.UPCARD_CARD in bet.needs
                   and Sees.HAND in bet.needs else "."))
    text = ("The dealer's chain is followed card by card: its states are the multisets of the dealer's card "
            "values, and each final hand is kept with its exact chance, the number of ordered ways to draw "
            "its cards (products of the counts left) over the falling factorial of the shoe's size; paths "
            "into a state are added as they meet, so no card order is listed. Each final hand is then "
            "classified by the pay table (its number of cards, the card that ended it, its values).")
    if Sees.DEALER_SUITS in bet.needs:
        text += (" Suits: the drawing rule sees values only, so given the values drawn the cards of each value "
                 "are a uniform draw from that value's cards, and the chance that they are all of one suit is a "
                 "product of falling factorials, value by value.")
    if Sees.HAND in bet.needs:
        text += (" The player's two cards leave the shoe before the dealer draws: the pairs are grouped by what "
                 "the pay table reads of them, and each group's joint chances are its pairs' chances times the "
                 "dealer's final hands from the shoe less those cards.")
    elif bet.settled is Settled.BEFORE_DEAL:
        text += (" The cards the players take unseen change no chance of the dealer's hand (the chance of any "
                 "event of the dealer's draws given the cards seen is a martingale as cards are dealt), so the "
                 "dealer's hands are those of the whole shoe.")
    if bet.settled is Settled.AFTER_UPCARD and a.peek:
        text += (" After the up-card under peek, a hand that is a natural with an ace or ten up ends the round "
                 "before the bet is made: the chances are divided by the chance that the bet is made.")
    return text


# --- the dealer chain's bust lines --------------------------------------------------------------------


def _dealer_only(conditions: Sequence[Condition]) -> tuple[Condition, ...]:
    """What a line asks of the dealer's hand, suits left out (the diagram does not split them)."""
    return tuple(c for c in conditions if c.feature.sees != {Sees.HAND} and Sees.DEALER_SUITS not in c.feature.sees)


def _last_column(bet: SideBet) -> int:
    """The number of cards from which the hands are pooled: past every number of cards a line tells
    apart, at least 5 and at most 9."""
    edges = [n + 1 for line in bet.lines for c in line.conditions if c.feature.name == "dealer.cards"
             for n in range(2, 26) if (n in c.allowed) != (n + 1 in c.allowed)]
    return min(9, max([5, *edges]))


def _percent(p: mpq) -> str:
    """A chance in percent to 4 significant digits, never in scientific notation (``0.0002743%``)."""
    value = float(p) * 100
    if value <= 0:
        return "0%"
    places = max(0, 3 - floor(log10(value)))
    return f"{value:.{places}f}%"


def _group(bet: SideBet, hand: DealerHand, wanted: Sequence[tuple[int, tuple[Condition, ...]]],
           peek: bool) -> tuple[Any, ...]:
    if hand.exhausted:
        return ("exhausted",)
    if hand.natural and peek and bet.settled is Settled.AFTER_UPCARD:
        return ("no bet", ())
    deal = Deal(dealer=hand)
    lines = tuple(i for i, conditions in wanted if all(c.holds(deal) for c in conditions))
    return ("bust" if hand.bust else "natural" if hand.natural else "stands", lines)


def bust_lines_diagram(a: SideBetAnalysis) -> Any:
    """The dealer's chain by number of cards, its final hands grouped by the pay lines they take (see the
    module docstring), as a ``pydot.Dot`` graph; ``None`` where no line pays on the dealer busting."""
    bet = a.bet
    if not any(c.feature.name == "dealer.bust" and True in c.allowed for line in bet.lines for c in line.conditions):
        return None
    hands = dealer_hands(a.shoe.value_shoe(), a.h17).chances
    last = _last_column(bet)
    wanted = [(i, _dealer_only(line.conditions)) for i, line in enumerate(bet.lines)]
    finals: dict[tuple[int, tuple[Any, ...]], mpq] = {}
    drawing: dict[int, mpq] = {}
    for hand, p in hands.items():
        column = min(hand.size, last)
        key = (column, _group(bet, hand, wanted, a.peek))
        finals[key] = finals.get(key, mpq(0)) + p
        for k in range(2, min(hand.size, last)):
            drawing[k] = drawing.get(k, mpq(0)) + p
    graph = new_graph(f"{bet.title}: the dealer's hand card by card, {a.rules_text} "
                      "(edges: P(next | state); nodes: their chance)", look=PRINT)
    graph.set_name("bust_lines")
    graph.set("rankdir", "TB")  # a row per number of cards: the drawing state first, then its final hands
    graph.set("ranksep", "0.3")
    graph.set("nodesep", "0.25")
    pydot = _pydot()
    columns = {k: pydot.Subgraph(f"column_{k}", rank="same") for k in range(2, last + 1)}
    columns[2].add_node(pydot.Node("d2", label=dot_quote("2 cards dealt\n100%"), shape="box", fillcolor="#cfe2f3",
                                   style="filled"))
    for k in range(3, last):
        if drawing.get(k - 1):
            columns[k].add_node(pydot.Node(f"d{k}", label=dot_quote(f"draws card {k}\n{_percent(drawing[k - 1])}"),
                                           shape="ellipse", fillcolor="#ffffff", style="filled"))
    ordered = sorted(finals.items(), key=lambda item: (item[0][0], item[0][1][0] != "bust", str(item[0][1])))
    for n, ((column, group), p) in enumerate(ordered):
        name = f"f{n}"
        kind = group[0]
        cards = f"{column} cards" if column < last else f"{last}+ cards"
        lines = [bet.lines[i] for i in group[1]] if len(group) > 1 else []
        title = {"bust": f"BUST, {cards}", "natural": "natural", "stands": f"stands, {cards}",
                 "exhausted": "shoe ran out", "no bet": "natural: the round ends\nat the peek, no bet"}[kind]
        paid = "\n".join(f"{line.name}: {pays_text(line.pays)}" for line in lines)
        label = title + (f"\n{paid}" if paid else "\nloses" if kind not in ("exhausted", "no bet") else "") \
            + f"\n{_percent(p)}"
        fill = "#cc0000" if kind == "bust" and lines else "#f4cccc" if kind == "bust" else "#d9ead3"
        columns[column].add_node(pydot.Node(name, label=dot_quote(label), shape="box", style="filled,rounded",
                                            fillcolor=fill, fontcolor="white" if fill == "#cc0000" else "black"))
        source = 2 if column == 2 else column - 1
        base = mpq(1) if source == 2 else drawing[source - 1]
        colour = "#cc0000" if kind == "bust" else "#38761d"
        if column == 2:  # a final hand of the first two cards: below the start, in its column
            graph.add_edge(pydot.Edge("d2", name, label=dot_quote(_percent(p / base)), color=colour,
                                      fontcolor=colour))
        else:
            graph.add_edge(pydot.Edge(f"d{source}", name, label=dot_quote(_percent(p / base)), color=colour,
                                      fontcolor=colour))
    for column in columns.values():
        graph.add_subgraph(column)
    for k in range(3, last):
        if drawing.get(k - 1):
            base = mpq(1) if k == 3 else drawing[k - 2]
            graph.add_edge(pydot.Edge(f"d{k - 1}", f"d{k}", label=dot_quote(_percent(drawing[k - 1] / base)),
                                      penwidth="2"))
    return graph


def _pydot() -> Any:
    import pydot

    return pydot


_SEEN = {"hand": "the player's two cards", "upcard": "the up-card", "dealer": "the dealer's final hand"}


def _seen(bet: SideBet) -> str:
    parts = [_SEEN[word] for word in bet.sees]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


# --- the document --------------------------------------------------------------------------------------


def _among_all_deals(a: SideBetAnalysis) -> str:
    if a.bet.settled is Settled.AFTER_UPCARD and a.peek:
        return (" (a chance among all deals: the tables' chances are these divided by the chance that the bet "
                "is made, the round going on after the peek)")
    return ""


def sidebet_document(report: SideBetReport, *, drawn: bool = True) -> Document:
    """The report: one section (see the module docstring). ``drawn=False`` (no Graphviz): the diagram is
    written as a .dot file only, and a paragraph says how to draw it."""
    analyses = report.analyses
    bet = report.bet
    first = analyses[0]
    percent = NumberStyle(decimals=4, percent=True)
    settled = ("before the deal" if bet.settled is Settled.BEFORE_DEAL else "after the up-card is seen")
    blocks: list[Block] = [
        Heading(f"{bet.title}"),
        paragraph(f"{bet.about} The bet is placed {settled} and sees {_seen(bet)}. "
                  f"Shoes: {', '.join(_decks(a) for a in analyses)}"
                  + (f"; the dealer {'hits' if first.h17 else 'stands on'} soft 17" if Sees.DEALER in bet.needs
                     or bet.settled is Settled.AFTER_UPCARD else "") + ". Every number is an exact fraction, "
                  "rounded only when printed; the last subsection gives every line's chance exactly."),
        Heading("Rules and conventions", 2),
        Bullets(tuple(paragraph(text) for text in first.conventions)),
        Heading("Pay table", 2),
        TableBlock(_pays_table(bet), percent, left=(2,)),
    ]
    combinations = _combinations_table(analyses)
    if combinations is not None:
        blocks += [Heading("Combinations", 2), TableBlock(combinations, percent)]
    blocks += [Heading("Chances and returns", 2),
               TableBlock(_by_decks_table(analyses, "Each line's chance", "%", "chance"), percent),
               TableBlock(_by_decks_table(analyses, "Each line's return: its chance times its result (the total: "
                                          "the expected result per unit staked)", "% of bet", "contribution"),
                          percent),
               TableBlock(_summary_table(analyses), percent)]
    if first.by_upcard:
        blocks.append(TableBlock(_upcard_table(first), percent))
    blocks += [Heading("Derivation", 2), paragraph(derivation(first))]
    diagram = report.diagram
    if diagram is not None:
        blocks.append(Heading("The dealer's chain of the bust lines", 2))
        if drawn:
            blocks += [paragraph("The dealer's hand card by card: a state \"draws a card\" is the dealer drawing its "
                                 "k-th card; the boxes are the final hands of k cards grouped by the pay line they "
                                 "take (suits not split). The states are nested events, so each edge's chance, "
                                 "P(next | state), is exact as such, and the product along the path to a box is "
                                 "its chance, printed in it" + _among_all_deals(first) + "."),
                       Figure(DIAGRAM, f"The dealer's hand card by card and the bust lines of {bet.title}, "
                                       f"{first.rules_text} (4 significant digits).", diagram, landscape=True)]
        else:
            blocks.append(paragraph(f"The diagram was not drawn: Graphviz's dot program is not installed. Its source "
                                    f"is written ({FIGURES}/{DIAGRAM}.dot); draw it with ",
                                    Code(f"dot -Tpdf -O {FIGURES}/{DIAGRAM}.dot"),
                                    " or install Graphviz (apt-get install graphviz, brew install graphviz) and "
                                    "run the report again."))
    blocks.append(Heading("Every line's chance, exactly", 2))
    for a in analyses:
        blocks += [paragraph(f"{_decks(a)}:"),
                   Values(tuple((line.name, line.chance) for line in a.lines) + (("house edge", a.house_edge),))]
    blocks.append(paragraph("Regenerate: ", Code(report.command), "."))
    rules = f"{', '.join(_decks(a) for a in analyses)}"
    return Document(f"Side bet: {bet.title} ({rules})", tuple(blocks))


def write_sidebet_report(report: SideBetReport, directory: Path, *, compile_pdf: bool = True, quiet: bool = False,
                         shown_as: Path | None = None) -> list[Path]:
    """Write report.md, report.tex, the diagram (figures/) and, with TeX, report.pdf into ``directory``.

    Without Graphviz the diagram is written as .dot only and the report says how to draw it; without
    TeX the .tex is written and a message says how to get a PDF (as :func:`~bjexact.render.report.write_report`).
    """
    if directory.exists() and not directory.is_dir():
        raise BjexactError(f"cannot write the report into {directory}: it is a file, not a directory")
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    dot = have_dot()
    diagram = report.diagram
    if diagram is not None:
        figures = directory / FIGURES
        figures.mkdir(exist_ok=True)
        for fmt in ("dot", "svg", "pdf") if dot else ("dot",):
            path = figures / f"{DIAGRAM}.{fmt}"
            write_atomically(path, render_diagram(diagram, fmt))
            written.append(path)
    document = sidebet_document(report, drawn=dot)
    for name, text in (("report.md", to_markdown(document)), ("report.tex", to_latex(document))):
        write_atomically(directory / name, text_bytes(text))
        written.append(directory / name)
    if compile_pdf:
        pdf = compile_latex(directory / "report.tex", quiet=quiet, shown_as=shown_as)
        if pdf is not None:
            written.append(pdf)
    return written

