"""Diagrams: the DOT parsed back must be the engine's graph, with exact labels summing to 1."""

from __future__ import annotations

import shutil
from fractions import Fraction

import pydot
import pytest

from bjexact.cli import main
from bjexact.core.cards import Shoe
from bjexact.core.rules import Rules
from bjexact.dealer import ShoeDraws, graph_for
from bjexact.errors import BjexactError
from bjexact.render.diagrams import dealer_diagram, diagram_format, merged_chain, player_diagram, render

HAVE_DOT = shutil.which("dot") is not None
INF = Rules(decks="inf")


def _parse(graph) -> pydot.Dot:
    (parsed,) = pydot.graph_from_dot_data(render(graph, "dot").decode())
    return parsed


def _unquote(name: str) -> str:
    return name[1:-1] if name.startswith('"') and name.endswith('"') else name


def _all_subgraphs(graph):
    yield graph
    for sub in graph.get_subgraphs():
        yield from _all_subgraphs(sub)


def _states_and_edges(parsed):
    """Node names (edge-label boxes left out) and visible edges {(a, b): label}."""
    nodes, edges = set(), {}
    for g in _all_subgraphs(parsed):
        for node in g.get_nodes():
            name = _unquote(node.get_name())
            if name in ("node", "edge", "graph") or _unquote(str(node.get("class"))) == "edge-label":
                continue
            if node.get("label") is not None:  # declared with attributes (rank groups only repeat the name)
                nodes.add(name)
        for edge in g.get_edges():
            if edge.get("style") == "invis":
                continue
            key = (_unquote(edge.get_source()), _unquote(edge.get_destination()))
            edges[key] = _unquote(edge.get("label"))
    return nodes, edges


CASES = [(INF, 1), (INF, 2), (INF, 10), (Rules(decks="inf", h17=True), 1), (Rules(decks="inf", h17=True), 6),
         (Rules(decks="inf", naturals="separate"), 1), (Rules(decks="inf", naturals="peek"), 10)]


@pytest.mark.parametrize("rules,upcard", CASES, ids=[f"{r.describe()}-{u}" for r, u in CASES])
def test_dot_round_trip_equals_engine_graph(rules, upcard):
    """The DOT text parsed back by pydot: the engine's nodes and edges, exact labels summing to 1."""
    engine = graph_for(rules).weighted(ShoeDraws(Shoe.infinite()), [upcard])
    nodes, edges = _states_and_edges(_parse(dealer_diagram(rules, [upcard])))
    assert nodes == set(engine.nodes)
    assert set(edges) == set(engine.edges)
    for (a, b), label in edges.items():
        w = engine.edges[a, b]["weight"]
        assert Fraction(label) == Fraction(int(w.numerator), int(w.denominator))
    for node in engine.nodes:
        if engine.nodes[node]["kind"] != "absorbing":
            assert sum(Fraction(label) for (a, _), label in edges.items() if a == node) == 1


def test_infinite_chain_by_hand():
    """Up-card 6, S17: 6 + A is soft 17 (stands), 6 + T is hard 16; hard 16 busts on 6..T = 8/13."""
    _, edges = _states_and_edges(dealer_diagram(INF, [6]))
    assert edges[("6", "17")] == "1/13"
    assert edges[("6", "hard 16")] == "4/13"
    assert edges[("hard 16", "bust")] == "8/13"
    assert edges[("hard 12", "bust")] == "4/13"
    _, h17 = _states_and_edges(dealer_diagram(Rules(decks="inf", h17=True), [6]))
    assert h17[("6", "soft 17")] == "1/13" and ("6", "17") not in h17


def test_all_upcards_as_clusters():
    parsed = dealer_diagram(INF)  # inspected in memory: parsing 2,000 edges back takes half a minute
    clusters = [s for s in parsed.get_subgraphs() if s.get_name().startswith("cluster")]
    assert len(clusters) == 10
    nodes, edges = _states_and_edges(parsed)
    draws = ShoeDraws(Shoe.infinite())
    expected = sum(graph_for(INF).weighted(draws, [u]).number_of_nodes() for u in range(1, 11))
    assert len(nodes) == expected
    assert ("6/hard 16", "6/bust") in edges and edges[("6/hard 16", "6/bust")] == "8/13"


def test_decimals_labels_are_rounded_and_exact_in_tooltip():
    text = render(dealer_diagram(INF, [6], decimals=3), "dot").decode()
    assert 'label="0.077"' in text and 'label="0.615"' in text  # 1/13, 8/13
    assert "8/13 (cards 6,7,8,9,T)" in text


def test_merged_view_is_labelled_as_averages_and_consistent_with_the_dealer_table():
    from bjexact.dealer import dealer_table

    rules = Rules(decks=1)
    through, averages = merged_chain(rules, 6)
    for state in through:
        out = [q for (a, _), q in averages.items() if a == state]
        if out:
            assert sum(out) == 1
    # The flow into each outcome is the sum over merged states of P(through) * average: exact.
    row = dealer_table(rules)[6]
    for outcome in ("17", "18", "19", "20", "21", "bust"):
        flow = sum(through[a] * q for (a, b), q in averages.items() if b == outcome)
        assert flow == row[outcome]
    _, edges = _states_and_edges(_parse(dealer_diagram(rules, [6])))
    assert edges and all(label.startswith("avg ") for label in edges.values())


def test_first_draws_view_is_exact():
    _, edges = _states_and_edges(_parse(dealer_diagram(Rules(decks=1), [6], view="draws", depth=1)))
    # One deck, up-card 6 gone: 51 cards, 16 tens, 4 of each other rank.
    assert edges[("6", "6+T")] == "16/51"
    assert edges[("6", "17")] == "4/51"  # an ace: soft 17 stands
    assert sum(Fraction(v) for v in edges.values()) == 1


def test_player_chain_shows_basic_strategy():
    text = render(player_diagram(INF, 10), "dot").decode()
    assert 'label="hard 16\\nHIT' in text
    assert 'label="hard 17\\nSTAND' in text
    nodes, edges = _states_and_edges(player_diagram(INF, 6))
    assert ("hard 12", "hard 13") not in edges  # 12 v 6: stand, so no edges leave it
    assert edges[("hard 11", "hard 21")] == "4/13"
    assert ("hard 16", "bust") not in edges  # 16 v 6: stand
    _, edges = _states_and_edges(player_diagram(INF, 10))
    assert edges[("hard 16", "bust")] == "8/13"  # 16 v T: hit, busting on 6..T
    with pytest.raises(BjexactError, match="infinite deck"):
        player_diagram(Rules(decks=2), 6)


def test_bad_input():
    with pytest.raises(BjexactError, match="must end in"):
        diagram_format("chain.jpg")
    with pytest.raises(BjexactError, match="finite shoes"):
        dealer_diagram(INF, [6], view="merged")
    with pytest.raises(BjexactError, match="cannot be the up-card"):
        dealer_diagram(Rules(shoe=(0, 4, 4, 4, 4, 4, 4, 4, 4, 16)), [1])


def test_no_dot_program(monkeypatch, tmp_path, capsys):
    import bjexact.render.diagrams as diagrams

    monkeypatch.setattr(diagrams.shutil, "which", lambda name: None)
    assert main(["graph", "--decks", "inf", "--upcard", "6", "-o", str(tmp_path / "x.dot")]) == 0
    assert (tmp_path / "x.dot").read_text().startswith("digraph")
    assert main(["graph", "--decks", "inf", "--upcard", "6", "-o", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "install graphviz" in err[0]
    assert not (tmp_path / "x.svg").exists()


@pytest.mark.skipif(not HAVE_DOT, reason="Graphviz's dot is not installed")
def test_cli_writes_svg_png_pdf(tmp_path):
    for name, magic in (("d.svg", b"<svg"), ("d.png", b"\x89PNG"), ("d.pdf", b"%PDF")):
        assert main(["graph", "--decks", "inf", "--upcard", "A", "-o", str(tmp_path / name)]) == 0
        assert magic in (tmp_path / name).read_bytes()[:400]
    assert main(["graph", "--player", "--decks", "inf", "--upcard", "T", "-o", str(tmp_path / "p.svg")]) == 0
    assert main(["graph", "--decks", "1", "--upcard", "6", "--view", "draws", "-o", str(tmp_path / "w.svg")]) == 0
