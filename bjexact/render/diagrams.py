"""Graphviz diagrams of the dealer's chain and of the player's hit chain (pydot, imported lazily).

Dealer chain (:func:`dealer_diagram`)
    One node per state of :meth:`bjexact.dealer.DealerGraph.weighted`: the
    up-card (a box), the hands still drawing (ellipses; soft hands shaded
    apart) and the absorbing outcomes (double octagons on the right; ``bust``
    filled red). States are laid out left to right by total. Each edge is
    labelled with P(next state | this state), the exact fraction, or rounded to
    ``decimals`` places when asked (the exact fraction is then the edge's
    tooltip). With several up-cards each one is a cluster of its own, node
    names prefixed by the up-card (``"6/hard 12"``).

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
    where hitting is best, so the picture is the chain the optimal player follows.

Rendering
    :func:`render` returns DOT text for ``dot`` and otherwise runs Graphviz's
    ``dot`` program; without it, SVG/PNG/PDF raise :class:`BjexactError`.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.cards import RANKS, Shoe, rank_symbol
from ..core.numbers import RATIONALS, fraction_string, mpq
from ..core.rules import Rules
from ..dealer.distributions import row_order
from ..dealer.graph import ShoeDraws, graph_for
from ..errors import BjexactError
from ..player.solver import solve_infinite
from ..player.states import player_hit_graph
from .tables import NumberStyle

__all__ = [
    "DIAGRAM_FORMATS",
    "VIEWS",
    "EdgeStyle",
    "diagram_format",
    "dealer_diagram",
    "merged_chain",
    "player_diagram",
    "render",
    "have_dot",
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


def render(graph: Any, fmt: str) -> bytes:
    """The diagram as DOT text (``fmt="dot"``) or laid out by Graphviz (svg, png, pdf)."""
    if fmt not in DIAGRAM_FORMATS:
        raise BjexactError(f"unknown diagram format {fmt!r} (use {', '.join(DIAGRAM_FORMATS)})")
    text = graph.to_string()
    if fmt == "dot":
        return text.encode()
    dot = shutil.which("dot")
    if dot is None:
        raise BjexactError(DOT_MISSING)
    command = [dot, f"-T{fmt}"]
    if graph.get("layout") == "neato":  # positions are given: keep them (and the edges' splines)
        command[1:1] = ["-Kneato", "-n2"]
    done = subprocess.run(command, input=text.encode(), capture_output=True, check=False)
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip().splitlines()
        raise BjexactError(f"dot failed: {message[-1] if message else 'exit status ' + str(done.returncode)}")
    output = done.stdout
    if fmt == "pdf":  # a fixed creation date of the same length: reproducible files, offsets unchanged
        output = re.sub(rb"/CreationDate \(D:\d{14}", b"/CreationDate (D:20260101000000", output)
    return output


# --- building blocks --------------------------------------------------------------------


def _pydot():
    import pydot

    return pydot


def _new_graph(caption: str, fixed: bool = False):
    """A digraph laid out by ``dot`` left to right, or (``fixed``) with positions given here."""
    pydot = _pydot()
    layout = (dict(layout="neato", notranslate="true", outputorder="edgesfirst") if fixed else
              dict(rankdir="LR", nodesep="0.18", ranksep="0.55", newrank="true"))
    graph = pydot.Dot(graph_type="digraph", fontname=_FONT, fontsize="13", labelloc="t", labeljust="l",
                      label=_quote(caption), **layout)
    graph.set_node_defaults(fontname=_FONT, fontsize="11", style="filled", fillcolor=_COLOURS["hard"])
    graph.set_edge_defaults(fontname=_FONT, fontsize="9", arrowsize="0.6", color="#555555")
    return graph


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _node_style(name: str, attrs: dict[str, Any]) -> dict[str, str]:
    """Graphviz attributes of a dealer state by its kind (see the module docstring)."""
    kind = attrs.get("kind")
    if kind == "start":
        return dict(shape="box", fillcolor=_COLOURS["start"], penwidth="1.5")
    if kind == "absorbing":
        if name == "bust":
            return dict(shape="doubleoctagon", fillcolor=_COLOURS["bust"], fontcolor="white",
                        fontname=_FONT + "-Bold", fontsize="14", penwidth="2")
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
    if kind == "absorbing":
        return "#38761d"
    return "#555555"


def _node_look(name: str, attrs: dict[str, Any], extra_labels: dict[str, str]) -> tuple[dict[str, str], str]:
    """The Graphviz style and the label of a state."""
    style = _node_style(name, attrs)
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


def _add_chain(container: Any, nodes: dict[str, dict[str, Any]], edges: Iterable[tuple[str, str, str, str]],
               prefix: str, extra_labels: dict[str, str] | None = None) -> None:
    """Add states and labelled edges to a graph or cluster, laid out by ``dot`` (the draws view).

    ``nodes`` maps a state's name to its attributes (``kind``, ``total``, ``soft``,
    optionally ``label`` and ``style``); ``edges`` are (source, target, label, tooltip).
    """
    pydot = _pydot()
    extra_labels = extra_labels or {}
    outcomes = []
    for name, attrs in nodes.items():
        style, label = _node_look(name, attrs, extra_labels)
        if attrs.get("kind") == "absorbing":
            outcomes.append(name)
        container.add_node(pydot.Node(_quote(prefix + name), label=_quote(label), **style))
    # Hands fall into columns by the number of cards drawn (dot's ranks); the outcomes form the last.
    ordered = sorted(outcomes, key=_outcome_key)
    sink = pydot.Subgraph(rank="sink" if not prefix else "same")
    for name in ordered:
        sink.add_node(pydot.Node(_quote(prefix + name)))
    container.add_subgraph(sink)
    for a, b in zip(ordered, ordered[1:]):  # keep the outcomes in table order, top to bottom
        container.add_edge(pydot.Edge(_quote(prefix + a), _quote(prefix + b), style="invis"))
    for source, target, label, tooltip in edges:
        kind = nodes[target].get("kind")
        container.add_edge(pydot.Edge(_quote(prefix + source), _quote(prefix + target), label=_quote(label),
                                      tooltip=_quote(tooltip), color=_edge_colour(target, kind),
                                      fontcolor=_edge_colour(target, kind)))


# The number-line layout: x is the total. Hard hands and the outcomes (17..21, then the others)
# lie on one line, every edge between them an arc above it whose height grows with its length;
# soft hands lie on a second line below, their edges to each other arcs below that line and
# their edges up to the hard line straight. Positions are fixed ("neato -n2").
_SOFT_DROP = 300.0
_ARC_STEP = 20.0
_ARROW = 8.0
_LABEL_NODE = "label of "


def _line_x(name: str, attrs: dict[str, Any], dx: float) -> float:
    if attrs.get("kind") == "absorbing":
        base = name.rsplit("/", 1)[-1]
        return dx * (int(base) if base.isdigit() else 22 + _OUTCOME_ORDER.index(base) - 5)
    return dx * attrs["total"]


def _on_soft_line(attrs: dict[str, Any]) -> bool:
    return attrs.get("kind") != "absorbing" and bool(attrs.get("soft"))


def _point(x: float, y: float) -> str:
    return f"{x:.1f},{y:.1f}"


def _add_line_chain(container: Any, nodes: dict[str, dict[str, Any]], edges: Sequence[tuple[str, str, str, str]],
                    prefix: str, extra_labels: dict[str, str], top: float, dx: float) -> tuple[float, float, float]:
    """Add a chain laid out on the number line of totals, below height ``top``.

    Returns the chain's bottom and its left and right ends.
    """
    pydot = _pydot()
    lines = [len(extra_labels.get(n, "").split("\n")) for n in nodes]
    half = 14.0 + 6.0 * max([0, *lines]) if extra_labels else 16.0
    spans = [abs(_line_x(b, nodes[b], dx) - _line_x(a, nodes[a], dx)) / dx
             for a, b, *_ in edges if not _on_soft_line(nodes[a]) and not _on_soft_line(nodes[b])]
    hard_y = top - half - 16.0 - _ARC_STEP * (max(spans, default=0) + 1)
    soft_spans = [abs(_line_x(b, nodes[b], dx) - _line_x(a, nodes[a], dx)) / dx
                  for a, b, *_ in edges if _on_soft_line(nodes[a]) and _on_soft_line(nodes[b])]
    has_soft = any(_on_soft_line(a) for a in nodes.values())
    soft_y = hard_y - _SOFT_DROP - 2 * half
    bottom = (soft_y - half - 16.0 - _ARC_STEP * (max(soft_spans, default=0) + 1)) if has_soft else hard_y - half - 8

    where = {}
    for name, attrs in nodes.items():
        y = soft_y if _on_soft_line(attrs) else hard_y
        where[name] = (_line_x(name, attrs, dx), y)
        style, label = _node_look(name, attrs, extra_labels)
        container.add_node(pydot.Node(_quote(prefix + name), label=_quote(label),
                                      pos=_quote(_point(*where[name]) + "!"),
                                      width=f"{(dx - 8) / 72:.3f}", height=f"{2 * half / 72:.3f}", fixedsize="true",
                                      **style))
    fan: dict[str, list[str]] = {}
    for source, target, *_ in edges:
        if where[source][1] != where[target][1]:
            fan.setdefault(source, []).append(target)
    heads = sorted({t for targets in fan.values() for t in targets}, key=lambda t: (*where[t], t))
    for source, target, label, tooltip in edges:
        (x1, y1), (x2, y2) = where[source], where[target]
        colour = _edge_colour(target, nodes[target].get("kind"))
        if y1 == y2:
            # Arcs leave from the right half of a node's top and arrive on the left half, the
            # longer ones nearer the middle, so that arcs sharing an end nest without crossing.
            sign = 1.0 if y1 == hard_y else -1.0
            span = abs(x2 - x1) / dx
            inset = (dx - 8) / 2 * (1 - span / 12) * 0.9
            x1, x2 = x1 + inset, x2 - inset
            height = _ARC_STEP * (span + 1)
            start, end = y1 + sign * (half - 4), y2 + sign * (half - 4)
            lift = y1 + sign * (half + height * 4 / 3)
            spline = [(x1, start), (x1, lift), (x2, lift), (x2, end + sign * _ARROW)]
            label_at = ((x1 + x2) / 2, y1 + sign * (half + height + 4))
            tip = (x2, end)
        else:  # soft line up to the hard line: straight
            up = 1.0 if y2 > y1 else -1.0
            tail, head = (x1, y1 + up * half), (x2, y2 - up * half)
            length = ((head[0] - tail[0]) ** 2 + (head[1] - tail[1]) ** 2) ** 0.5
            ux, uy = (head[0] - tail[0]) / length, (head[1] - tail[1]) / length
            base = (head[0] - ux * _ARROW, head[1] - uy * _ARROW)
            spline = [tail, (tail[0] + (base[0] - tail[0]) / 3, tail[1] + (base[1] - tail[1]) / 3),
                      (tail[0] + 2 * (base[0] - tail[0]) / 3, tail[1] + 2 * (base[1] - tail[1]) / 3), base]
            # Labels of lines to the same target sit at the same height, one band per target.
            rank = heads.index(target)
            along = 0.16 + 0.36 * rank / max(len(heads) - 1, 1)
            label_at = (tail[0] + along * (head[0] - tail[0]), tail[1] + along * (head[1] - tail[1]))
            tip = head
        container.add_edge(pydot.Edge(
            _quote(prefix + source), _quote(prefix + target), label=_quote(label), tooltip=_quote(tooltip),
            color=colour, fontcolor=colour,
            pos=_quote("e," + _point(*tip) + " " + " ".join(_point(*p) for p in spline)),
            lp=_quote(_point(*label_at)),
        ))
        # The same label again as a boxed node, drawn over the edges (outputorder=edgesfirst),
        # so that arcs passing behind a label do not cross its text.
        container.add_node(pydot.Node(_quote(f"{_LABEL_NODE}{prefix}{source}->{target}"), label=_quote(label),
                                      pos=_quote(_point(*label_at) + "!"), shape="plaintext", style="filled",
                                      fillcolor="white", fontcolor=colour, fontsize="9", width="0", height="0",
                                      margin="0.01", **{"class": "edge-label"}))
    xs = [x for x, _ in where.values()]
    return bottom, min(xs) - dx / 2 - 6, max(xs) + dx / 2 + 6


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
    edges = [(a, b, edge_style.label(d["weight"]), f"{fraction_string(d['weight'])} ({_ranks_text(d['ranks'])})")
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
                    attrs = dict(weighted.nodes[target])
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
                edges.append((node, target, edge_style.label(w), tooltip))
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


def _merged_parts(rules: Rules, upcard: int, edge_style: EdgeStyle):
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
    avg = EdgeStyle(edge_style.decimals, prefix="avg ")
    edges = [(a, b, avg.label(q), f"average of conditional probabilities: {fraction_string(q)}")
             for (a, b), q in averages.items()]
    return nodes, edges, reached


def dealer_diagram(rules: Rules, upcards: Iterable[int] | None = None, *, decimals: int | None = None,
                   view: str | None = None, depth: int = 2):
    """The dealer's chain as a ``pydot.Dot`` graph, for one up-card or several (as clusters).

    ``view``: ``chain`` (exact states; the default for the infinite deck),
    ``merged`` (finite default) or ``draws`` (the first ``depth`` draws); see the
    module docstring. ``decimals``: edge labels rounded to that many places
    instead of exact fractions (merged views default to 4 places).
    """
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
    wanted = _upcards(rules, upcards)
    if view == "merged" and decimals is None:
        decimals = 4
    edge_style = EdgeStyle(decimals)
    captions = {
        "chain": "edges: P(next state | state)" + (" (exact)" if decimals is None else f", {decimals} places"),
        "merged": "hands merged by (total, soft); edges: avg = average of P(next state | hand) over the hands "
                  "merged,\nweighted by the chance of reaching them (the merged chain is not Markov: "
                  "outcome probabilities are in the dealer table)",
        "draws": f"the first {depth} draw{'s' if depth > 1 else ''} after the up-card; edges: "
                 "P(next card | cards drawn)" + (" (exact)" if decimals is None else f", {decimals} places"),
    }
    caption = f"Dealer's chain: {rules.describe()}; {captions[view]}"
    if view == "draws":
        graph = _new_graph(caption)
    else:
        graph = _new_graph(caption, fixed=True)
    pydot = _pydot()
    dx = 110.0 if view == "merged" else 66.0
    top = 0.0
    ends: list[tuple[float, float]] = []
    for upcard in wanted:
        reached: dict[str, str] = {}
        if view == "chain":
            nodes, edges = _chain_parts(rules, upcard, edge_style)
        elif view == "draws":
            nodes, edges = _draws_parts(rules, upcard, depth, edge_style)
        else:
            nodes, edges, reached = _merged_parts(rules, upcard, edge_style)
        symbol = rank_symbol(upcard)
        prefix = "" if len(wanted) == 1 else f"{symbol}/"
        container = graph
        if len(wanted) > 1:
            container = pydot.Cluster(f"up{symbol}", label=_quote(f"up-card {symbol}"), style="rounded",
                                      color="#999999", fontname=_FONT, labeljust="l")
            graph.add_subgraph(container)
        if view == "draws":
            _add_chain(container, nodes, edges, prefix, reached)
            continue
        bottom, left, right = _add_line_chain(container, nodes, edges, prefix, reached,
                                              top - (24 if prefix else 0), dx)
        ends.append((left, right))
        if prefix:
            container.set("bb", _quote(f"{left:.1f},{bottom - 6:.1f},{right:.1f},{top:.1f}"))
            container.set("lp", _quote(f"{left + 40:.1f},{top - 12:.1f}"))
        top = bottom - 24
    if view != "draws":
        _set_bounds(graph, caption, top, min(e[0] for e in ends), max(e[1] for e in ends))
    return graph


def _set_bounds(graph: Any, caption: str, bottom: float, left: float, right: float) -> None:
    """The bounding box of a fixed layout, wide enough for the caption, with room for it above."""
    wanted = 7.0 * max(len(line) for line in caption.split("\n"))
    right = max(right, left + wanted)
    graph.set("bb", _quote(f"{left:.1f},{bottom:.1f},{right:.1f},44"))
    graph.set("lp", _quote(f"{(left + right) / 2:.1f},22"))


# --- the player -------------------------------------------------------------------------


def player_diagram(rules: Rules, upcard: int, *, objective: str = "ev", decimals: int | None = None):
    """The infinite-deck hit chain against ``upcard`` under the optimal policy (``pydot.Dot``)."""

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
    nodes: dict[str, dict[str, Any]] = {"bust": dict(kind="absorbing")}
    values = {}
    for state, move, value in zip(matrices.states, matrices.policy, matrices.V):
        attrs = dict(hit_graph.nodes[state])
        attrs["style"] = dict(fillcolor=_COLOURS[move], shape="box" if move == "stand" else "ellipse",
                              style="filled,rounded" if move == "stand" else "filled")
        nodes[state] = attrs
        values[state] = f"{move.upper()} {value_style.plain(value)}"
    edges = []
    for state, move in zip(matrices.states, matrices.policy):
        if move != "hit":
            continue
        for _, target, data in hit_graph.out_edges(state, data=True):
            w = sum((p[r - 1] for r in data["ranks"]), RATIONALS.zero)
            edges.append((state, target, edge_style.label(w), f"{fraction_string(w)} ({_ranks_text(data['ranks'])})"))
    unit = "expected value (+1 win, 0 push, -1 loss)" if objective == "ev" else "chance of winning (push = 1/2)"
    caption = (f"Player's hit chain against up-card {rank_symbol(upcard)}: {rules.describe()}; "
               f"each state: best move and its {unit};\nedges (out of HIT states only): "
               "P(next state | hit)" + (" (exact)" if decimals is None else f", {decimals} places"))
    graph = _new_graph(caption, fixed=True)
    bottom, left, right = _add_line_chain(graph, nodes, edges, "", values, 0.0, 96.0)
    _set_bounds(graph, caption, bottom, left, right)
    return graph
