"""Graphviz diagrams of the dealer's chain and of the player's hit chain (pydot, imported lazily).

Dealer chain (:func:`dealer_diagram`)
    One node per state of :meth:`bjexact.dealer.DealerGraph.weighted`: the
    up-card (a box), the hands still drawing (ellipses; soft hands shaded
    apart) and the absorbing outcomes (double octagons; ``bust`` filled red).
    ``dot`` lays it out left to right: the hands in columns by total (hard above
    soft), the outcomes in a last column in table order. Each edge carries its
    own label, P(next state | this state), the exact fraction or rounded to
    ``decimals`` places (the exact fraction is then the edge's tooltip), and is
    thicker when likelier. Edges from one state into several terminal states
    (no edges out) with the same probability p are drawn as one edge labelled
    ``k × p`` into a junction dot (``class=junction``) that fans out to them
    (``class=fan``), one dot per set of targets. Several up-cards give
    :class:`DiagramPages`, one graph per up-card: a PDF page each.

Finite shoes
    The exact chain is over multisets of dealer cards (hundreds of nodes per
    up-card), so two readable views are offered:

    ``merged`` (the default): hands with the same (total, soft) are merged into
    one node. A merged edge carries the *average* of the exact conditional
    probabilities of the hands merged, each weighted by the chance of reaching
    that hand from the up-card; it is P(the next state is Y | the dealer passes
    through X), exact as such. Labels say ``avg``. The merged chain is not
    Markov: its absorption probabilities are not the dealer's; the dealer
    table is. Each merged node shows P(the dealer passes through it).

    ``draws``: the exact multiset chain for the first ``depth`` draws after the
    up-card; hands that would draw further are drawn dashed, with no edges out.

Player (:func:`player_diagram`)
    The infinite-deck hit chain (states by total and softness, and ``bust``)
    against one up-card. Each state shows its optimal move and value; edges
    (the hit action's exact transition probabilities) leave only the states
    where hitting is best, so the picture is the chain the optimal player
    follows; the standing states form the last column. ``bust`` is left out when
    no such edge reaches it (against 4, 5 and 6), and the caption says why.

Rendering
    :func:`render` returns DOT text for ``dot`` and otherwise runs Graphviz's
    ``dot`` program (``neato -n2`` for the fixed positions of
    :mod:`bjexact.render.heatmaps`); without it, SVG/PNG/PDF raise
    :class:`BjexactError`. :func:`join_pdfs` puts the pages of several into one PDF.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import RANKS, Shoe, parse_rank, rank_symbol
from ..core.numbers import RATIONALS, fraction_string, mpq
from ..core.rules import Rules
from ..dealer.distributions import row_order
from ..dealer.graph import ShoeDraws, graph_for
from ..errors import BjexactError
from ..player.solver import solve_infinite
from ..player.states import player_hit_graph
from .memory import Memory
from .tables import NumberStyle

__all__ = [
    "DIAGRAM_FORMATS",
    "DEALER_STAGES",
    "DiagramLook",
    "DiagramPages",
    "PLAYER_STAGES",
    "PRINT",
    "SCREEN",
    "VIEWS",
    "EdgeStyle",
    "diagram_format",
    "dealer_diagram",
    "dealer_pages",
    "dealer_stage",
    "join_pdfs",
    "merged_chain",
    "player_diagram",
    "render",
    "have_dot",
    "stage_parts",
]

DIAGRAM_FORMATS = ("dot", "svg", "png", "pdf")
VIEWS = ("chain", "merged", "draws")
DOT_MISSING = (
    "SVG, PNG and PDF diagrams need Graphviz's 'dot' program: install graphviz "
    "(apt-get install graphviz, brew install graphviz, or conda install graphviz), or write a .dot file"
)

_FONT = "Helvetica"
_COLOURS = {
    "start": "#cfe2f3",
    "hard": "#ffffff",
    "soft": "#fff2cc",
    "final": "#d9ead3",
    "bust": "#cc0000",
    "blackjack": "#f1c232",
    "exhausted": "#eeeeee",
    "hit": "#fce5cd",
    "stand": "#d9ead3",
}
_OUTCOME_ORDER = ("17", "18", "19", "20", "21", "blackjack", "bust", "exhausted")


@dataclass(frozen=True)
class EdgeStyle:
    """How a probability is written on an edge: the exact fraction, or ``decimals`` places."""

    decimals: int | None = None
    prefix: str = ""

    def label(self, value: mpq) -> str:
        if self.decimals is None:
            text = fraction_string(value)
        else:
            text = NumberStyle(decimals=self.decimals, percent=False).plain(value)
        return self.prefix + text


def diagram_format(path: str) -> str:
    """The diagram format named by a file's extension: dot, svg, png or pdf."""
    extension = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if extension == "gv":
        return "dot"
    if extension not in DIAGRAM_FORMATS:
        raise BjexactError(f"a diagram file must end in .dot, .svg, .png or .pdf, not {path!r}")
    return extension


def have_dot() -> bool:
    return shutil.which("dot") is not None


@dataclass(frozen=True)
class DiagramPages:
    """Several diagrams (``pydot.Dot`` graphs), one per page: a PDF page each, or DOT graphs one after another."""

    graphs: tuple[Any, ...]

    def to_string(self) -> str:
        return "".join(graph.to_string() for graph in self.graphs)


def render(graph: Any, fmt: str) -> bytes:
    """The diagram as DOT text (``fmt="dot"``) or laid out by Graphviz (svg, png, pdf).

    :class:`DiagramPages` become a PDF of a page each, or DOT text of one graph after
    another (``dot -Tsvg -O FILE.dot`` writes a file per graph); SVG and PNG hold one graph.
    """
    if fmt not in DIAGRAM_FORMATS:
        raise BjexactError(f"unknown diagram format {fmt!r} (use {', '.join(DIAGRAM_FORMATS)})")
    if isinstance(graph, DiagramPages):
        if fmt == "pdf":
            return join_pdfs([render(page, "pdf") for page in graph.graphs])
        if fmt != "dot":
            raise BjexactError(f"a .{fmt} file holds one up-card's chain: pick one with --upcard, "
                               "or write a .pdf (a page per up-card) or a .dot file")
    text = graph.to_string()
    if fmt == "dot":
        return text.encode()
    dot = shutil.which("dot")
    if dot is None:
        raise BjexactError(DOT_MISSING)
    command = [dot, f"-T{fmt}"]
    if graph.get("layout") == "neato":  # positions are given: keep them (and the edges' splines)
        command[1:1] = ["-Kneato", "-n2"]
    # Graphviz lays out the same text the same way: a diagram drawn again in the process (the same
    # report written twice) is remembered, keyed by the program and options run and the text
    return _DRAWN.recall((tuple(command), text), lambda: _run_dot(command, text, fmt))


def _run_dot(command: list[str], text: str, fmt: str) -> bytes:
    done = subprocess.run(command, input=text.encode(), capture_output=True, check=False)
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise BjexactError(f"dot failed: {message[-1] if message else 'exit status ' + str(done.returncode)}")
    output = done.stdout
    if fmt == "pdf":  # a fixed creation date of the same length: reproducible files, offsets unchanged
        output = re.sub(rb"/CreationDate \(D:\d{14}", b"/CreationDate (D:20260101000000", output)
    return output


_DRAWN: Memory[tuple[tuple[str, ...], str], bytes] = Memory(64)


_OBJECT = re.compile(rb"(\d+) 0 obj\b")
_REFERENCE = re.compile(rb"(\d+) 0 R\b")


def _renumber(head: bytes, numbers: dict[int, int]) -> bytes:
    """An object's header and dictionary with its own number and its references renumbered."""
    head = _OBJECT.sub(lambda m: b"%d 0 obj" % numbers[int(m.group(1))], head, count=1)
    return _REFERENCE.sub(lambda m: b"%d 0 R" % numbers.get(int(m.group(1)), 0), head)


def join_pdfs(documents: Sequence[bytes]) -> bytes:
    """The pages of PDF files (as Graphviz's cairo writes them: one cross-reference table, no
    object streams) in one PDF file, in order. Objects are renumbered; streams are copied as they are."""
    objects: list[bytes] = []
    pages: list[int] = []
    for document in documents:
        table = re.search(rb"xref\s+0 (\d+)\s+((?:\d{10} \d{5} [nf]\s*)+)trailer", document)
        if table is None or not document.startswith(b"%PDF"):
            raise BjexactError("cannot join these PDF pages: not a plain PDF file")
        entries = table.group(2).split()
        body = [(k, int(entries[3 * k])) for k in range(int(table.group(1))) if entries[3 * k + 2] == b"n"]
        base = len(objects) + 3  # 1: the new page tree, 2: the new catalog
        body.sort(key=lambda item: item[1])
        ends = [start for _, start in body[1:]] + [table.start()]
        skip = {int(m.group(1)) for m in re.finditer(rb"(\d+) 0 obj\s*<<\s*/(?:Type /Pages|Type /Catalog|Producer)",
                                                      document)}
        numbers = {number: base + k for k, (number, _) in enumerate(body)}
        if len(body) != len(set(numbers)):
            raise BjexactError("cannot join these PDF pages: not a plain PDF file")
        for (number, start), end in zip(body, ends):
            text = document[start:end]
            text = text[:text.rindex(b"endobj") + len(b"endobj")] + b"\n"
            head, stream, tail = text.partition(b"stream")
            head = _renumber(head, numbers)
            if number in skip:
                head, stream, tail = b"%d 0 obj\nnull\nendobj\n" % numbers[number], b"", b""
            elif re.search(rb"/Type\s*/Page\b", head):
                head = re.sub(rb"/Parent \d+ 0 R", b"/Parent 1 0 R", head)
                pages.append(numbers[number])
            objects.append(head + stream + tail)
    kids = b" ".join(b"%d 0 R" % n for n in pages)
    objects[0:0] = [b"1 0 obj\n<< /Type /Pages /Kids [ %s ] /Count %d >>\nendobj\n" % (kids, len(pages)),
                    b"2 0 obj\n<< /Type /Catalog /Pages 1 0 R >>\nendobj\n"]
    out = bytearray(b"%PDF-1.5\n%\xb5\xed\xae\xfb\n")
    offsets = []
    for obj in objects:
        offsets.append(len(out))
        out += obj
    start = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 2 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, start)
    return bytes(out)


# --- building blocks --------------------------------------------------------------------


def _pydot():
    import pydot

    return pydot


@dataclass(frozen=True)
class DiagramLook:
    """Font sizes (points, before any scaling) and spacing (inches) of a chain diagram.

    :data:`SCREEN` is for ``bjexact graph``'s files, read zoomed in; :data:`PRINT` is for the
    report's pages, which are scaled to the page: larger labels, so that every label prints at
    6 pt or more on A4 once the report has scaled the diagram down.
    """

    title: float = 13
    node: float = 11
    edge: float = 9
    bust: float = 14
    nodesep: float = 0.12
    ranksep: float = 0.45
    long_captions: bool = True
    """The caption inside the diagram explains the labels (``bjexact graph``); ``False``: one short
    title line, the figure's caption in the report explaining the rest. Merged finite-shoe edges then
    carry their average without the ``avg`` prefix (the report's caption says what it is)."""

    @staticmethod
    def size(points: float) -> str:
        return f"{points:g}"


SCREEN = DiagramLook()
PRINT = DiagramLook(title=14, node=14, edge=14, bust=14, nodesep=0.08, ranksep=0.25, long_captions=False)


def new_graph(caption: str, fixed: bool = False, look: DiagramLook = SCREEN):
    """A digraph laid out by ``dot`` left to right, or (``fixed``) with positions given here."""
    pydot = _pydot()
    layout = (dict(layout="neato", notranslate="true", outputorder="edgesfirst") if fixed else
              dict(rankdir="LR", nodesep=f"{look.nodesep:g}", ranksep=f"{look.ranksep:g}", newrank="true"))
    graph = pydot.Dot(graph_type="digraph", fontname=_FONT, fontsize=look.size(look.title), labelloc="t",
                      labeljust="l", label=dot_quote(caption), **layout)
    graph.set_node_defaults(fontname=_FONT, fontsize=look.size(look.node), style="filled",
                            fillcolor=_COLOURS["hard"])
    graph.set_edge_defaults(fontname=_FONT, fontsize=look.size(look.edge), arrowsize="0.6", color="#555555")
    return graph


def dot_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _node_style(name: str, attrs: dict[str, Any], look: DiagramLook = SCREEN) -> dict[str, str]:
    """Graphviz attributes of a dealer state by its kind (see the module docstring)."""
    kind = attrs.get("kind")
    if kind == "start":
        return dict(shape="box", fillcolor=_COLOURS["start"], penwidth="1.5")
    if kind == "absorbing":
        if name == "bust":
            return dict(shape="doubleoctagon", fillcolor=_COLOURS["bust"], fontcolor="white",
                        fontname=_FONT + "-Bold", fontsize=look.size(look.bust), penwidth="2")
        if name == "blackjack":
            return dict(shape="doubleoctagon", fillcolor=_COLOURS["blackjack"], penwidth="1.5")
        if name == "exhausted":
            return dict(shape="doubleoctagon", fillcolor=_COLOURS["exhausted"], style="filled,dashed")
        return dict(shape="doubleoctagon", fillcolor=_COLOURS["final"], penwidth="1.5")
    return dict(shape="ellipse", fillcolor=_COLOURS["soft" if attrs.get("soft") else "hard"])


def _outcome_label(name: str) -> str:
    return {"bust": "BUST", "blackjack": "blackjack\n(natural)", "exhausted": "shoe\nexhausted"}.get(
        name, f"stands\n{name}")


def _edge_colour(target: str, kind: str | None) -> str:
    if target == "bust":
        return "#cc0000"
    if kind == "absorbing" or kind == "terminal":
        return "#38761d"
    return "#555555"


def _node_look(name: str, attrs: dict[str, Any], extra_labels: dict[str, str],
               look: DiagramLook = SCREEN) -> tuple[dict[str, str], str]:
    """The Graphviz style and the label of a state."""
    style = _node_style(name, attrs, look)
    style.update(attrs.get("style", {}))
    kind = attrs.get("kind")
    if kind == "absorbing":
        label = _outcome_label(name)
    elif kind == "start":
        label = f"up-card {name.rsplit('/', 1)[-1]}"
    else:
        label = attrs.get("label", name)
    if name in extra_labels:
        label += "\n" + extra_labels[name]
    return style, label


# An edge of a diagram: source, target, P(target | source), its label and its tooltip.
DiagramEdge = tuple[str, str, mpq, str, str]

_JUNCTION = "one of "


def _width(weight: mpq) -> str:
    """Edge thickness in points: grows with the probability the edge carries."""
    return f"{0.7 + 4.5 * float(weight):.2f}"


def _state_key(name: str, attrs: dict[str, Any]) -> tuple[Any, ...]:
    """Top-to-bottom order within a column: the start, hard then soft by total, outcomes in table order."""
    kind = attrs.get("kind")
    if kind == "absorbing":
        return (3, _outcome_key(name), name)
    if kind == "start":
        return (0, 0, name)
    return (1, attrs.get("total", 0), bool(attrs.get("soft")), _card_order(name))


def _card_order(name: str) -> tuple[int, ...]:
    """``6+A+T`` -> the cards' values (A first, T last), so that multisets sort as a reader expects."""
    try:
        return tuple(parse_rank(card) for card in name.rsplit("/", 1)[-1].split("+"))
    except BjexactError:
        return ()


def _bundles(edges: Sequence[DiagramEdge], terminal: set[str],
             labels: dict[str, str]) -> tuple[list[DiagramEdge], dict[tuple[str, ...], list[tuple[str, mpq]]]]:
    """Edges of one source into terminal states that share a probability, drawn as one edge.

    Returns the edges left as they are and, per junction (the tuple of targets it
    fans out to), the (source, probability per target) of the edges bundled into it.
    """
    kept: list[DiagramEdge] = []
    groups: dict[tuple[str, mpq], list[DiagramEdge]] = {}
    for edge in edges:
        source, target, weight = edge[:3]
        if target in terminal:
            groups.setdefault((source, weight), []).append(edge)
        else:
            kept.append(edge)
    junctions: dict[tuple[str, ...], list[tuple[str, mpq]]] = {}
    for (source, weight), group in groups.items():
        if len(group) == 1:
            kept.append(group[0])
        else:
            targets = tuple(sorted((e[1] for e in group), key=lambda t: labels[t]))
            junctions.setdefault(targets, []).append((source, weight))
    return kept, junctions


def _add_chain(container: Any, nodes: dict[str, dict[str, Any]], edges: Sequence[DiagramEdge],
               prefix: str, extra_labels: dict[str, str] | None = None, *, bundle: bool = True,
               edge_style: EdgeStyle | None = None, look: DiagramLook = SCREEN) -> None:
    """Add states and labelled edges to a graph or cluster, laid out in columns by ``dot``.

    ``nodes`` maps a state's name to its attributes (``kind``, ``total``, ``soft``,
    optionally ``label`` and ``style``). States still drawing stand in columns by
    total (hard above soft), the outcomes in a last column in table order. With
    ``bundle``, the edges from one state into several terminal states (no edges
    out) with the same probability p are drawn as one edge labelled ``k × p`` into
    a junction dot that fans out to them.
    """
    pydot = _pydot()
    extra_labels = extra_labels or {}
    edge_style = edge_style or EdgeStyle()
    order = sorted(nodes, key=lambda n: _state_key(n, nodes[n]))
    sources = {e[0] for e in edges}
    terminal = {n for n in nodes if n not in sources and nodes[n].get("kind") != "start"}
    columns: dict[Any, list[str]] = {}
    for name in order:
        attrs = nodes[name]
        kind = attrs.get("kind")
        column = ("outcomes" if kind == "absorbing" or (name in terminal and kind != "truncated") else
                  None if kind == "start" else attrs.get("column", attrs.get("total")))
        columns.setdefault(column, []).append(name)
    for column, names in columns.items():
        target = container if column is None else pydot.Subgraph(rank="same")
        for name in names:
            style, label = _node_look(name, nodes[name], extra_labels, look)
            target.add_node(pydot.Node(dot_quote(prefix + name), label=dot_quote(label), **style))
        if column is not None:
            container.add_subgraph(target)
    # Columns in order of total, the outcomes last: invisible edges between the columns' first states.
    ordered = sorted((c for c in columns if c is not None),
                     key=lambda c: (c == "outcomes", 0 if c == "outcomes" else c))
    for left, right in zip(ordered, ordered[1:]):
        container.add_edge(pydot.Edge(dot_quote(prefix + columns[left][0]), dot_quote(prefix + columns[right][0]),
                                      style="invis", weight="0"))
    outcomes = columns.get("outcomes", [])
    for a, b in zip(outcomes, outcomes[1:]):  # keep the outcomes in table order, top to bottom
        container.add_edge(pydot.Edge(dot_quote(prefix + a), dot_quote(prefix + b), style="invis"))
    position = {name: k for k, name in enumerate(order)}
    labels = {name: f"{position[name]:04d}" for name in order}
    kept, junctions = _bundles(edges, terminal, labels) if bundle else (list(edges), {})
    rank = {name: k for k, column in enumerate(ordered) for name in columns[column]}
    for source, target, weight, label, tooltip in sorted(kept, key=lambda e: (position[e[0]], position[e[1]])):
        kind = nodes[target].get("kind")
        colour = ("#555555" if nodes[target].get("continues") else
                  _edge_colour(target, "terminal" if target in terminal and kind != "truncated" else kind))
        backward = {"constraint": "false"} if rank[target] <= rank.get(source, -1) else {}
        container.add_edge(pydot.Edge(dot_quote(prefix + source), dot_quote(prefix + target), label=dot_quote(label),
                                      tooltip=dot_quote(tooltip), color=colour, fontcolor=colour,
                                      penwidth=_width(weight), **backward))
    for targets, members in junctions.items():
        junction = prefix + _JUNCTION + ", ".join(targets)
        colour = "#555555" if nodes[targets[0]].get("continues") else _edge_colour(targets[0], "terminal")
        container.add_node(pydot.Node(dot_quote(junction), shape="point", width="0.08", color=colour,
                                      fillcolor=colour, label='""', tooltip=dot_quote(_JUNCTION + ", ".join(targets)),
                                      **{"class": "junction"}))
        for source, weight in sorted(members, key=lambda m: position[m[0]]):
            text = f"{len(targets)} × {edge_style.label(weight)}"
            container.add_edge(pydot.Edge(
                dot_quote(prefix + source), dot_quote(junction), label=dot_quote(text), color=colour, fontcolor=colour,
                penwidth=_width(weight * len(targets)), arrowhead="none",
                tooltip=dot_quote(f"{fraction_string(weight)} to each of {', '.join(targets)}"),
                **{"class": "bundle"}))
        for target in targets:
            container.add_edge(pydot.Edge(dot_quote(junction), dot_quote(prefix + target), color=colour,
                                          penwidth="0.8", **{"class": "fan"}))


def _outcome_key(name: str) -> int:
    name = name.rsplit("/", 1)[-1]
    return _OUTCOME_ORDER.index(name) if name in _OUTCOME_ORDER else len(_OUTCOME_ORDER)


def _ranks_text(ranks: Sequence[int]) -> str:
    return "cards " + ",".join(rank_symbol(r) for r in ranks) if ranks else "no card left"


# --- the dealer -------------------------------------------------------------------------


def _upcards(rules: Rules, upcards: Iterable[int] | None) -> list[int]:
    shoe = rules.make_shoe()
    wanted = list(RANKS if upcards is None else upcards)
    missing = [u for u in wanted if not shoe.has(u)]
    if missing:
        raise BjexactError(f"the shoe holds no {rank_symbol(missing[0])}, so it cannot be the up-card")
    return sorted(dict.fromkeys(wanted), key=row_order)


def _weighted(rules: Rules, upcard: int):
    return graph_for(rules).weighted(ShoeDraws(rules.make_shoe()), [upcard])


def _chain_parts(rules: Rules, upcard: int, edge_style: EdgeStyle):
    """Nodes and labelled edges of the exact chain for one up-card (infinite deck or finite)."""
    weighted = _weighted(rules, upcard)
    nodes = {n: dict(d) for n, d in weighted.nodes(data=True)}
    edges = [(a, b, d["weight"], edge_style.label(d["weight"]),
              f"{fraction_string(d['weight'])} ({_ranks_text(d['ranks'])})")
             for a, b, d in weighted.edges(data=True)]
    if not rules.infinite:  # finite: a node is a multiset of cards; show its value too
        for name, attrs in nodes.items():
            if attrs.get("kind") == "transient":
                attrs["label"] = f"{name}\n{'soft' if attrs['soft'] else 'hard'} {attrs['total']}"
    return nodes, edges


def _draws_parts(rules: Rules, upcard: int, depth: int, edge_style: EdgeStyle):
    """The exact multiset chain for the first ``depth`` draws after the up-card."""
    weighted = _weighted(rules, upcard)
    start = rank_symbol(upcard)
    nodes = {start: dict(weighted.nodes[start])}
    edges = []
    frontier = [start]
    for level in range(1, depth + 1):
        following = []
        for node in frontier:
            for _, target, data in weighted.out_edges(node, data=True):
                if target not in nodes:
                    attrs = dict(weighted.nodes[target], column=level)
                    if attrs.get("kind") == "transient":
                        attrs["label"] = f"{target}\n{'soft' if attrs['soft'] else 'hard'} {attrs['total']}"
                        if level == depth:
                            attrs["kind"] = "truncated"
                            attrs["style"] = dict(style="filled,dashed")
                            attrs["label"] += "\n(draws on)"
                        else:
                            following.append(target)
                    nodes[target] = attrs
                w = data["weight"]
                tooltip = f"{fraction_string(w)} ({_ranks_text(data['ranks'])})"
                edges.append((node, target, w, edge_style.label(w), tooltip))
        frontier = following
    return nodes, edges


def merged_chain(rules: Rules, upcard: int):
    """The dealer's chain for one up-card with hands merged by (total, soft); exact rationals.

    Returns ``(reach, edges)``: ``reach[state]`` is P(the dealer passes through
    ``state``) and ``edges[(x, y)]`` is P(the next state is ``y`` | the dealer
    passes through ``x``), the reach-weighted average of the conditional
    probabilities of the hands merged into ``x``. States are the up-card symbol,
    ``"hard 12"``/``"soft 15"`` and the outcomes. A hand passes through a merged
    state at most once (its hard sum grows with every card), so these are
    probabilities of events, and each state's edges sum to 1.
    """
    import networkx as nx

    weighted = _weighted(rules, upcard)
    start = rank_symbol(upcard)

    def merged(node: str) -> str:
        attrs = weighted.nodes[node]
        if attrs["kind"] == "transient":
            return f"{'soft' if attrs['soft'] else 'hard'} {attrs['total']}"
        return node

    reach: dict[str, mpq] = {start: RATIONALS.one}
    through: dict[str, mpq] = {}
    flow: dict[tuple[str, str], mpq] = {}
    for node in nx.topological_sort(weighted):
        p = reach.get(node, RATIONALS.zero)
        if not p:
            continue
        source = merged(node)
        through[source] = through.get(source, RATIONALS.zero) + p
        for _, target, data in weighted.out_edges(node, data=True):
            q = p * data["weight"]
            reach[target] = reach.get(target, RATIONALS.zero) + q
            key = (source, merged(target))
            flow[key] = flow.get(key, RATIONALS.zero) + q
    return through, {(a, b): q / through[a] for (a, b), q in flow.items()}


def _merged_parts(rules: Rules, upcard: int, edge_style: EdgeStyle, prefix: str = "avg "):
    weighted = _weighted(rules, upcard)
    through, averages = merged_chain(rules, upcard)
    nodes: dict[str, dict[str, Any]] = {}
    for name in through:
        if name in weighted.nodes:
            nodes[name] = dict(weighted.nodes[name])
        else:
            soft, total = name.split(" ")
            nodes[name] = dict(kind="transient", total=int(total), soft=soft == "soft")
    reached = {name: "reached " + EdgeStyle(4 if edge_style.decimals is None else edge_style.decimals).label(p)
               for name, p in through.items() if nodes[name]["kind"] == "transient"}
    avg = EdgeStyle(edge_style.decimals, prefix=prefix)
    edges = [(a, b, q, avg.label(q), f"average of conditional probabilities: {fraction_string(q)}")
             for (a, b), q in averages.items()]
    return nodes, edges, reached


DEALER_STAGES = {
    "opening": "edges out of the up-card and the hands below 12",
    "soft": "edges out of the soft hands",
    "hard": "edges out of the hard hands of 12 or more",
}
"""A dealer diagram cut in stages, a page each, so that each is small enough to print: the name of
each stage and what its diagram shows."""


def dealer_stage(attrs: dict[str, Any]) -> str:
    """The stage of :data:`DEALER_STAGES` whose diagram draws the edges out of a dealer state."""
    if attrs.get("kind") == "start":
        return "opening"
    if attrs.get("soft"):
        return "soft"
    return "opening" if attrs.get("total", 0) < 12 else "hard"


def stage_parts(nodes: dict[str, dict[str, Any]], edges: Sequence[DiagramEdge],
                drawn: Callable[[dict[str, Any]], bool]) -> tuple[dict[str, dict[str, Any]], list[DiagramEdge]]:
    """Part of a chain: the edges out of the states ``drawn`` accepts, and the states they join.

    A state they reach that has edges of its own in another part is drawn dashed, in the last
    column, marked ``continues`` (its edges are grey, not green: it is no outcome).
    """
    kept = [edge for edge in edges if drawn(nodes[edge[0]])]
    sources = {edge[0] for edge in edges}
    names = {edge[0] for edge in kept} | {edge[1] for edge in kept}
    part = {}
    for name in sorted(names, key=lambda n: _state_key(n, nodes[n])):
        attrs = dict(nodes[name])
        if name in sources and not drawn(attrs):
            attrs["continues"] = True
            attrs["style"] = dict(attrs.get("style", {}), style="filled,dashed")
        part[name] = attrs
    return part, kept


def dealer_diagram(rules: Rules, upcards: Iterable[int] | None = None, *, decimals: int | None = None,
                   view: str | None = None, depth: int = 2, stage: str | None = None, look: DiagramLook = SCREEN):
    """The dealer's chain as a ``pydot.Dot`` graph for one up-card, or :class:`DiagramPages` for several.

    ``view``: ``chain`` (exact states; the default for the infinite deck),
    ``merged`` (finite default) or ``draws`` (the first ``depth`` draws); see the
    module docstring. ``decimals``: edge labels rounded to that many places
    instead of exact fractions (merged views default to 4 places). ``stage``: only the edges out of
    the states of one of :data:`DEALER_STAGES` (see :func:`stage_parts`); ``look``: font sizes.
    :func:`dealer_pages` gives one graph per up-card instead.
    """
    pages = dealer_pages(rules, upcards, decimals=decimals, view=view, depth=depth, stage=stage, look=look)
    return pages[0] if len(pages) == 1 else DiagramPages(tuple(pages))


def dealer_pages(rules: Rules, upcards: Iterable[int] | None = None, *, decimals: int | None = None,
                 view: str | None = None, depth: int = 2, stage: str | None = None,
                 look: DiagramLook = SCREEN) -> list[Any]:
    """The dealer's chain as one ``pydot.Dot`` graph per up-card (in table order), for a page each
    (``stage`` and ``look``: as :func:`dealer_diagram`)."""
    if view is None:
        view = "chain" if rules.infinite else "merged"
    if view not in VIEWS:
        raise BjexactError(f"unknown view {view!r} (use {', '.join(VIEWS)})")
    if view == "draws" and (depth < 1 or depth > 4):
        raise BjexactError("--depth must be between 1 and 4")
    if decimals is not None and not 0 <= decimals <= 20:
        raise BjexactError("--decimals must be between 0 and 20")
    if rules.infinite and view != "chain":
        raise BjexactError(f"the {view} view is for finite shoes: the infinite-deck chain is drawn whole")
    if stage is not None and (stage not in DEALER_STAGES or view == "draws"):
        raise BjexactError(f"unknown stage {stage!r} (use {', '.join(DEALER_STAGES)}; not with the draws view)")
    wanted = _upcards(rules, upcards)
    if view == "merged" and decimals is None:
        decimals = 4
    edge_style = EdgeStyle(decimals)
    prefix = "avg " if look.long_captions else ""
    places = " (exact)" if decimals is None else f", {decimals} places"
    bundled = "; k × p: k edges of p each, to the outcomes the dot fans out to"
    captions = {
        "chain": f"edges: P(next state | state){places}, thicker when likelier{bundled}",
        "merged": "hands merged by (total, soft); edges: avg = average of P(next state | hand) over the hands "
                  "merged,\nweighted by the chance of reaching them (the merged chain is not Markov: "
                  f"outcome probabilities are in the dealer table){bundled}",
        "draws": f"the first {depth} draw{'s' if depth > 1 else ''} after the up-card, one column per draw; "
                 f"edges: P(next card | cards drawn){places}",
    }
    pages = []
    for upcard in wanted:
        reached: dict[str, str] = {}
        if view == "chain":
            nodes, edges = _chain_parts(rules, upcard, edge_style)
        elif view == "draws":
            nodes, edges = _draws_parts(rules, upcard, depth, edge_style)
        else:
            nodes, edges, reached = _merged_parts(rules, upcard, edge_style, prefix)
        if stage is not None:
            nodes, edges = stage_parts(nodes, edges, lambda attrs: dealer_stage(attrs) == stage)
        symbol = rank_symbol(upcard)
        title = f"Dealer's chain, up-card {symbol}: {rules.describe()}"
        if stage is not None:
            title += f"; {DEALER_STAGES[stage]}"
        graph = new_graph(title + (f";\n{captions[view]}" if look.long_captions else ""), look=look)
        graph.set_name(f"dealer_{symbol}" + (f"_{stage}" if stage is not None else ""))
        if view == "draws":
            graph.set("ordering", "out")
        bundle_style = EdgeStyle(decimals, prefix=prefix) if view == "merged" else edge_style
        _add_chain(graph, nodes, edges, "", reached, bundle=view != "draws", edge_style=bundle_style, look=look)
        pages.append(graph)
    return pages


# --- the player -------------------------------------------------------------------------


PLAYER_STAGES = {"hard": "edges out of the hard hands of 8 or less",
                 "hard 9": "edges out of the hard hands of 9 or more",
                 "soft": "edges out of the soft hands"}
"""The player's diagram cut in three, a page each: the name of each part and what it shows."""


def player_stage(attrs: dict[str, Any]) -> str:
    """The part of :data:`PLAYER_STAGES` whose diagram draws the edges out of a player's state."""
    if attrs.get("soft"):
        return "soft"
    return "hard" if attrs.get("total", 0) <= 8 else "hard 9"


def player_diagram(rules: Rules, upcard: int, *, objective: str = "ev", decimals: int | None = None,
                   stage: str | None = None, look: DiagramLook = SCREEN):
    """The infinite-deck hit chain against ``upcard`` under the optimal policy (``pydot.Dot``).

    Edges leave the states where hitting is best. ``bust`` is drawn only when one
    of them can bust: against a 4, 5 or 6 (infinite deck, S17 or H17) the best
    play hits only hard 11 or less and soft 17 or less, which no card can bust,
    and the caption says so. ``stage`` (``hard``, ``soft``): only the edges out of those hands
    (:func:`stage_parts`); ``look``: font sizes (:class:`DiagramLook`).
    """

    if not rules.infinite:
        raise BjexactError("the player's hit chain is drawn for the infinite deck: use --decks inf")
    if decimals is not None and not 0 <= decimals <= 20:
        raise BjexactError("--decimals must be between 0 and 20")
    _upcards(rules, [upcard])
    solution = solve_infinite(rules, objective)
    matrices = solution.matrices(upcard)
    hit_graph = player_hit_graph()
    p = Shoe.infinite().draw_probabilities()
    value_style = NumberStyle(decimals=4, percent=False, signed=True)
    edge_style = EdgeStyle(decimals)
    nodes: dict[str, dict[str, Any]] = {}
    values = {}
    for state, move, value in zip(matrices.states, matrices.policy, matrices.V):
        attrs = dict(hit_graph.nodes[state])
        attrs["style"] = dict(fillcolor=_COLOURS[move], shape="box" if move == "stand" else "ellipse",
                              style="filled,rounded" if move == "stand" else "filled")
        nodes[state] = attrs
        values[state] = f"{move.upper()} {value_style.plain(value)}"
    edges: list[DiagramEdge] = []
    for state, move in zip(matrices.states, matrices.policy):
        if move != "hit":
            continue
        for _, target, data in hit_graph.out_edges(state, data=True):
            w = sum((p[r - 1] for r in data["ranks"]), RATIONALS.zero)
            edges.append((state, target, w, edge_style.label(w),
                          f"{fraction_string(w)} ({_ranks_text(data['ranks'])})"))
    busts = any(target == "bust" for _, target, *_ in edges)
    if busts:
        nodes["bust"] = dict(kind="absorbing")
    if stage is not None:
        if stage not in PLAYER_STAGES:
            raise BjexactError(f"unknown stage {stage!r} (use {', '.join(PLAYER_STAGES)})")
        nodes, edges = stage_parts(nodes, edges, lambda attrs: player_stage(attrs) == stage)
    symbol = rank_symbol(upcard)
    unit = "expected value (+1 win, 0 push, -1 loss)" if objective == "ev" else "chance of winning (push = 1/2)"
    caption = (f"Player's hit chain against up-card {symbol}: {rules.describe()}; "
               f"each state: best move and its {unit};\nedges (out of HIT states only): "
               "P(next state | hit)" + (" (exact)" if decimals is None else f", {decimals} places")
               + ", thicker when likelier; k × p: k edges of p each, to the states the dot fans out to")
    if not busts:
        caption += (f"\nno BUST: against a {symbol} the best play hits only hands no card can bust "
                    "(the player stands before any risk of busting)")
    if not look.long_captions:
        caption = (f"Player's hit chain against up-card {symbol}: {rules.describe()}"
                   + (f"; {PLAYER_STAGES[stage]}" if stage is not None else ""))
    graph = new_graph(caption, look=look)
    graph.set_name(f"player_{symbol}" + (f"_{stage}" if stage is not None else ""))
    _add_chain(graph, nodes, edges, "", values, edge_style=edge_style, look=look)
    return graph
