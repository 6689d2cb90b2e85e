"""Diagrams: the DOT parsed back must be the engine's graph, with exact labels summing to 1."""

from __future__ import annotations

import re
import shutil
import subprocess
import warnings
import xml.etree.ElementTree as ET
from fractions import Fraction
from functools import cache

import pydot
import pytest
from dotread import DotSyntaxError, read_dot

from bjexact.cli import main
from bjexact.core.cards import Shoe
from bjexact.core.rules import Rules
from bjexact.dealer import ShoeDraws, graph_for
from bjexact.dealer.matrices import dealer_matrices
from bjexact.errors import BjexactError
from bjexact.render.diagrams import (
    DiagramPages,
    dealer_diagram,
    diagram_format,
    join_pdfs,
    merged_chain,
    player_diagram,
    render,
)

HAVE_DOT = shutil.which("dot") is not None
INF = Rules(decks="inf")


def _parse(graph) -> pydot.Dot:
    return _parse_text(render(graph, "dot").decode())


@cache
def _parse_text(text: str) -> pydot.Dot:
    """The DOT text parsed back, by the tests' own strict reader (:mod:`dotread`, a few milliseconds a
    chart where pydot's parser takes about a second; test_the_dot_reader_reads_charts_as_pydot_does checks
    that the two read the charts alike), once per text; the parsed graphs are only read."""
    return read_dot(text)


def _pydot_parse(text: str) -> pydot.Dot:
    """pydot's own parse of a DOT text. Its parser builds its pyparsing grammar on first use with names
    pyparsing 3 deprecates: that one warning is filtered, so that parsing warns of nothing."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"pydot(\.|$)")
        (parsed,) = pydot.graph_from_dot_data(text)
    return parsed


def _unquote(name: str) -> str:
    return name[1:-1] if name.startswith('"') and name.endswith('"') else name


def _all_subgraphs(graph):
    yield graph
    for sub in graph.get_subgraphs():
        yield from _all_subgraphs(sub)


def _attr(item, name):
    value = item.get(name)
    return None if value is None else _unquote(str(value))


def _states_and_edges(parsed):
    """State names (junction dots left out) and the edges {(a, b): label} they stand for.

    An edge ``k × p`` into a junction stands for k edges of p each, one to every state the
    junction fans out to; those come back here as (a, target): p.
    """
    nodes, drawn, fans = set(), [], {}
    for g in _all_subgraphs(parsed):
        for node in g.get_nodes():
            name = _unquote(node.get_name())
            if name in ("node", "edge", "graph") or _attr(node, "class") == "junction":
                continue
            if node.get("label") is not None:  # declared with attributes
                nodes.add(name)
        for edge in g.get_edges():
            if edge.get("style") == "invis":
                continue
            a, b = _unquote(edge.get_source()), _unquote(edge.get_destination())
            if _attr(edge, "class") == "fan":
                assert edge.get("label") is None
                fans.setdefault(a, []).append(b)
            else:
                label = _attr(edge, "label")
                assert label, f"edge {a} -> {b} has no label"
                drawn.append((a, b, label))
    edges = {}
    for a, b, label in drawn:
        if b in fans:
            count, _, each = label.partition(" × ")
            assert int(count) == len(fans[b]), (a, b, label)
            for target in fans[b]:
                assert (a, target) not in edges
                edges[a, target] = each
        else:
            assert (a, b) not in edges
            edges[a, b] = label
    return nodes, edges


def _number(label: str) -> Fraction:
    return Fraction(label.removeprefix("avg "))


CASES = [(INF, 1), (INF, 2), (INF, 6), (INF, 10), (Rules(decks="inf", h17=True), 1),
         (Rules(decks="inf", h17=True), 6), (Rules(decks="inf", naturals="separate"), 1),
         (Rules(decks="inf", naturals="peek"), 10)]


@pytest.mark.parametrize("rules,upcard", CASES, ids=[f"{r.describe()}-{u}" for r, u in CASES])
def test_dot_round_trip_equals_engine_graph(rules, upcard):
    """The DOT text parsed back: the engine's nodes and edges, exact labels summing to exactly 1."""
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



@pytest.mark.parametrize("rules,upcard", [(INF, 6), (Rules(decks="inf", naturals="peek"), 10)],
                         ids=["infinite deck, S17-6", "infinite deck, peek-10"])
def test_the_dot_reader_reads_charts_as_pydot_does(rules, upcard):
    """The tests read charts back with their own reader (dotread): on a chart of each kind of statement the
    DOT has (graph attributes, node and edge defaults, nodes, edges into and out of fan dots, subgraphs,
    quoted labels with escapes), it reads what pydot's parser reads, and it refuses what is not DOT."""
    text = render(dealer_diagram(rules, [upcard]), "dot").decode()
    ours, theirs = read_dot(text), _pydot_parse(text)
    assert ours.to_string() == theirs.to_string() == text
    assert _states_and_edges(ours) == _states_and_edges(theirs)
    assert [(n.get_name(), n.get_attributes()) for n in ours.get_nodes()] == \
        [(n.get_name(), n.get_attributes()) for n in theirs.get_nodes()]
    assert ours.get_attributes() == theirs.get_attributes() and ours.get_name() == theirs.get_name()
    for broken in (text.replace("]", "", 1), text.rstrip().removesuffix("}"),
                   text.replace('"', "", 1), text.replace("->", "--", 1), text.replace("->", "- >", 1),
                   text + "}", text.replace('label="', "label=", 1)):
        with pytest.raises(DotSyntaxError):
            read_dot(broken)

def test_infinite_chain_by_hand():
    """Up-card 6, S17: 6 + A is soft 17 (stands), 6 + T is hard 16; hard 16 busts on 6..T = 8/13."""
    parsed = _parse(dealer_diagram(INF, [6]))
    _, edges = _states_and_edges(parsed)
    assert edges[("6", "17")] == "1/13"
    assert edges[("6", "hard 16")] == "4/13"
    assert edges[("hard 16", "bust")] == "8/13"
    assert edges[("hard 12", "bust")] == "4/13"
    assert all(edges[("hard 12", str(t))] == "1/13" for t in range(17, 22))
    # hard 12 to hard 16 reach 17..21 on one card each, 1/13 apiece: one bundled edge each, one shared dot.
    text = render(dealer_diagram(INF, [6]), "dot").decode()
    for total in range(12, 17):
        assert f'"hard {total}" -> "one of 17, 18, 19, 20, 21" [label="5 × 1/13"' in text
    assert text.count('"one of 17, 18, 19, 20, 21" ->') == 5
    # Thicker when likelier: the 8/13 edge is wider than a 1/13 one.
    widths = {(_unquote(e.get_source()), _unquote(e.get_destination())): float(e.get("penwidth"))
              for e in parsed.get_edges() if e.get("penwidth")}
    assert widths[("hard 16", "bust")] > widths[("hard 12", "bust")] > widths[("hard 12", "hard 13")]
    _, h17 = _states_and_edges(_parse(dealer_diagram(Rules(decks="inf", h17=True), [6])))
    assert h17[("6", "soft 17")] == "1/13" and ("6", "17") not in h17


def test_columns_by_total():
    """Drawing states stand in columns by total (rank=same), the outcomes in table order last."""
    parsed = _parse(dealer_diagram(INF, [1]))
    columns = [[_unquote(n.get_name()) for n in sub.get_nodes()] for sub in parsed.get_subgraphs()
               if sub.get("rank") == "same"]
    assert ["hard 12", "soft 12"] in columns and ["hard 16", "soft 16"] in columns
    assert columns[-1] == ["17", "18", "19", "20", "21", "bust"]
    assert parsed.get("rankdir") == "LR"


def test_dot_output_is_deterministic():
    assert render(dealer_diagram(Rules(decks=2), [6]), "dot") == render(dealer_diagram(Rules(decks=2), [6]), "dot")


def test_every_upcard_is_a_page():
    pages = dealer_diagram(INF)
    assert isinstance(pages, DiagramPages) and len(pages.graphs) == 10
    names = [g.get_name() for g in pages.graphs]
    assert names == [f"dealer_{u}" for u in "23456789TA"]  # the dealer table's order
    text = render(pages, "dot").decode()
    assert text.count("digraph dealer_") == 10
    _, edges = _states_and_edges(pages.graphs[4])
    assert edges[("hard 16", "bust")] == "8/13"
    with pytest.raises(BjexactError, match="pick one with --upcard"):
        render(pages, "svg")


def _pdf_pages(data: bytes) -> int:
    if shutil.which("pdfinfo"):
        info = subprocess.run(["pdfinfo", "-"], input=data, capture_output=True, check=True).stdout.decode()
        return int(re.search(r"Pages:\s+(\d+)", info).group(1))
    return len(re.findall(rb"/Type\s*/Page\b", data))


@pytest.mark.skipif(not HAVE_DOT, reason="Graphviz's dot is not installed")
def test_every_upcard_pdf_has_ten_pages(tmp_path):
    assert main(["graph", "--decks", "inf", "-o", str(tmp_path / "all.pdf")]) == 0
    data = (tmp_path / "all.pdf").read_bytes()
    assert _pdf_pages(data) == 10
    assert data == render(dealer_diagram(INF), "pdf")  # reproducible
    assert main(["graph", "--decks", "inf", "-o", str(tmp_path / "all.svg")]) == 2
    assert not (tmp_path / "all.svg").exists()


@pytest.mark.skipif(not HAVE_DOT, reason="Graphviz's dot is not installed")
def test_join_pdfs_keeps_every_page_in_order():
    one = render(dealer_diagram(INF, [6]), "pdf")
    two = render(dealer_diagram(INF, [1]), "pdf")
    joined = join_pdfs([one, two, one])
    assert _pdf_pages(joined) == 3
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", "-", "-"], input=joined, capture_output=True, check=True).stdout
        assert [m.decode() for m in re.findall(rb"up-card (\w)\b", text)][::2][:3] == ["6", "A", "6"]
    with pytest.raises(BjexactError, match="not a plain PDF"):
        join_pdfs([b"not a pdf"])


def test_decimals_labels_are_rounded_and_exact_in_tooltip():
    text = render(dealer_diagram(INF, [6], decimals=3), "dot").decode()
    assert 'label="0.077"' in text and 'label="0.615"' in text  # 1/13, 8/13
    assert 'label="5 × 0.077"' in text
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
    assert set(edges) == set(averages)


def test_first_draws_view_is_exact_and_in_order_of_total():
    parsed = _parse(dealer_diagram(Rules(decks=1), [6], view="draws", depth=1))
    _, edges = _states_and_edges(parsed)
    # One deck, up-card 6 gone: 51 cards, 16 tens, 4 of each other rank.
    assert edges[("6", "6+T")] == "16/51"
    assert edges[("6", "17")] == "4/51"  # an ace: soft 17 stands
    assert sum(Fraction(v) for v in edges.values()) == 1
    two = _parse(dealer_diagram(Rules(decks=1), [6], view="draws", depth=2))
    assert two.get("ordering") == "out"
    first = [_unquote(e.get_destination()) for e in two.get_edges()
             if _unquote(e.get_source()) == "6" and e.get("style") != "invis"]
    assert first[:8] == ["2+6", "3+6", "4+6", "5+6", "6+6", "6+7", "6+8", "6+9"]
    assert first.index("6+T") == 8  # hard 16 after hard 15, before the outcome 17
    columns = [[_unquote(n.get_name()) for n in sub.get_nodes()] for sub in two.get_subgraphs()
               if sub.get("rank") == "same"]
    assert columns[0] == first[:9]


def _player_edges(rules, upcard):
    """The player's chain as drawn: its DOT text parsed back."""
    return _states_and_edges(_parse(player_diagram(rules, upcard)))


def test_player_chain_shows_basic_strategy():
    text = render(player_diagram(INF, 10), "dot").decode()
    assert 'label="hard 16\\nHIT' in text
    assert 'label="hard 17\\nSTAND' in text
    nodes, edges = _player_edges(INF, 6)
    assert ("hard 12", "hard 13") not in edges  # 12 v 6: stand, so no edges leave it
    assert edges[("hard 11", "hard 21")] == "4/13"
    assert ("hard 16", "bust") not in edges  # 16 v 6: stand
    _, edges = _player_edges(INF, 10)
    assert edges[("hard 16", "bust")] == "8/13"  # 16 v T: hit, busting on 6..T
    with pytest.raises(BjexactError, match="infinite deck"):
        player_diagram(Rules(decks=2), 6)


@pytest.mark.parametrize("upcard", range(1, 11))
def test_player_chain_edges_sum_to_one_out_of_every_hit_state(upcard):
    from bjexact.player.solver import solve_infinite

    chain = solve_infinite(INF, "ev").matrices(upcard)
    nodes, edges = _player_edges(INF, upcard)
    for state, move, row, bust in zip(chain.states, chain.policy, chain.T, chain.B):
        out = {b: Fraction(label) for (a, b), label in edges.items() if a == state}
        if move == "stand":
            assert not out
            continue
        assert sum(out.values()) == 1
        assert out.get("bust", 0) == -bust  # B is -P(bust) for the ev objective
        for target, t in zip(chain.states, row):
            assert out.get(target, 0) == t
    busts = any(b == "bust" for _, b in edges)
    assert ("bust" in nodes) == busts


def test_player_chain_against_a_six_never_busts_and_says_so():
    """Against 2..6 the best play hits only hard <= 11 and soft <= 17, which no card can bust."""
    graph = player_diagram(INF, 6)
    nodes, edges = _states_and_edges(_parse(graph))
    assert "bust" not in nodes and not any(b == "bust" for _, b in edges)
    assert "no BUST: against a 6" in graph.get("label")
    hits = {a for a, _ in edges}
    assert max(int(s.split()[1]) for s in hits if s.startswith("hard")) == 11
    assert max(int(s.split()[1]) for s in hits if s.startswith("soft")) == 17
    ten = player_diagram(INF, 10)
    nodes, edges = _states_and_edges(_parse(ten))
    assert "bust" in nodes and {a for a, b in edges if b == "bust"} >= {"hard 12", "hard 16"}
    assert _states_and_edges(ten) == (nodes, edges)  # the graph reads as its DOT text parsed
    # Basic strategy hits hard 12 against 2, 3 and 7..A (BUST drawn), stands on it against 4, 5, 6 (none).
    for rules in (INF, Rules(decks="inf", h17=True)):
        for upcard in range(1, 11):
            nodes, edges = _states_and_edges(player_diagram(rules, upcard))
            assert ("bust" in nodes) == (upcard not in (4, 5, 6)) == (("hard 12", "bust") in edges)


def _svg_cells(path):
    """{(row, column): exact value} from a heatmap SVG: each cell's title and its link's tooltip."""
    ns = {"svg": "http://www.w3.org/2000/svg", "xlink": "http://www.w3.org/1999/xlink"}
    cells = {}
    for group in ET.parse(path).getroot().iter("{http://www.w3.org/2000/svg}g"):
        if "cell" not in group.get("class", "").split():
            continue
        row, column = group.find("svg:title", ns).text.split(" -> ")
        link = group.find(".//svg:a", ns)
        cells[row, column] = Fraction(link.get("{http://www.w3.org/1999/xlink}title"))
    return cells


@pytest.mark.skipif(not HAVE_DOT, reason="Graphviz's dot is not installed")
@pytest.mark.parametrize("name", ["T", "R", "N", "NR"])
def test_heatmap_cells_are_the_exact_matrix_entries(tmp_path, name):
    assert main(["matrix", "--decks", "inf", "--upcard", "A", "--heatmap", name, "-o", str(tmp_path / "h.svg")]) == 0
    chain = dealer_matrices(INF, 1)
    grid = {"T": chain.T, "R": chain.R, "N": chain.N, "NR": chain.absorption}[name]
    columns = chain.transient if name in ("T", "N") else chain.absorbing
    expected = {(r, c): Fraction(int(x.numerator), int(x.denominator))
                for r, row in zip(chain.transient, grid) for c, x in zip(columns, row)}
    assert _svg_cells(tmp_path / "h.svg") == expected


@pytest.mark.skipif(not HAVE_DOT, reason="Graphviz's dot is not installed")
def test_player_heatmap_and_formats(tmp_path):
    from bjexact.player.solver import solve_infinite

    assert main(["matrix", "--player", "--decks", "inf", "--upcard", "6", "--heatmap", "T",
                 "-o", str(tmp_path / "p.svg")]) == 0
    chain = solve_infinite(INF, "ev").matrices(6)
    expected = {(r, c): Fraction(int(x.numerator), int(x.denominator))
                for r, row in zip(chain.states, chain.T) for c, x in zip(chain.states, row)}
    assert _svg_cells(tmp_path / "p.svg") == expected
    for name, magic in (("p.png", b"\x89PNG"), ("p.pdf", b"%PDF")):
        assert main(["matrix", "--decks", "inf", "--upcard", "6", "--heatmap", "T", "-o", str(tmp_path / name)]) == 0
        assert (tmp_path / name).read_bytes().startswith(magic)


def test_heatmap_bad_input(tmp_path, capsys):
    base = ["matrix", "--decks", "inf", "--upcard", "6", "--heatmap", "T"]
    assert main(base) == 2  # no -o
    assert main([*base, "--format", "csv", "-o", str(tmp_path / "x.svg")]) == 2
    assert main([*base, "-o", str(tmp_path / "x.jpg")]) == 2
    assert main(["matrix", "--player", "--decks", "inf", "--upcard", "6", "--heatmap", "NR",
                 "-o", str(tmp_path / "x.svg")]) == 2
    assert main(["matrix", "--decks", "2", "--upcard", "6", "--heatmap", "T", "-o", str(tmp_path / "x.svg")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 5 and all(line.startswith("bjexact: error:") for line in err)
    assert not list(tmp_path.iterdir())


def test_player_matrix_is_in_reading_order_and_narrow():
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["matrix", "--player", "--decks", "inf", "--upcard", "T"]) == 0
    text = out.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 100
    rows = [line.split()[0] + " " + line.split()[1] for line in text.splitlines()
            if re.match(r"(hard|soft) \d+ ", line)]
    states = [f"hard {t}" for t in range(4, 22)] + [f"soft {t}" for t in range(12, 22)]
    assert rows[:28] == states
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["matrix", "--player", "--decks", "inf", "--upcard", "T", "--format", "csv"]) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "matrix,row,column,value"
    assert "T,hard 12,hard 16,1/13" in lines and "T,soft 16,hard 16,4/13" in lines
    assert "B,hard 16,B,-8/13" in lines and "policy,hard 16,policy,hit" in lines


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
    assert main(["graph", "--decks", "2", "--upcard", "6", "-o", str(tmp_path / "m.svg")]) == 0
