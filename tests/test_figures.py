"""The figures: dealer bars, strategy chart, value heat maps, result distribution (bjexact.render.figures).

Every figure is read back from its SVG (it must parse as XML) and its drawn data compared
exactly with the solver's: the colour and hover values of every chart cell, the stacked
bars summing to 1, the distribution's bars.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest

from bjexact.core.cards import UPCARD_ORDER, as_rank, rank_symbol
from bjexact.core.rules import GameRules, Rules
from bjexact.dealer.distributions import dealer_table
from bjexact.player.game import MOVES, solve_game
from bjexact.render.figures import (
    CHART_COLOURS,
    HEATMAP_MOVES,
    dealer_outcome_figure,
    ev_heatmap_figure,
    result_distribution_figure,
    strategy_chart_figure,
    write_figure,
)
from bjexact.render.svg import Drawing, Label
from tests.clirun import run

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode())
    assert root.tag == f"{SVG}svg"
    return root


def rects(root: ET.Element, role: str) -> list[ET.Element]:
    return [r for r in root.iter(f"{SVG}rect") if r.get("class") == role]


def title(rect: ET.Element) -> str:
    element = rect.find(f"{SVG}title")
    assert element is not None and element.text
    return element.text


def exact(text: str) -> Fraction:
    return Fraction(text)


@pytest.fixture(scope="module")
def finite_solution():
    """One deck, split once, early surrender: rows whose hands differ in their chance of a dealer natural."""
    return solve_game(GameRules(decks=1, split_hands=2, surrender="early"), with_distribution=False, progress=False)


@pytest.fixture(scope="module")
def infinite_solution():
    return solve_game(GameRules(decks="inf", split_hands=2, surrender="late", double="10-11"), progress=False)


def hands_of(section: str, row: str, upcard: int, solution) -> list[tuple[int, int]]:
    """The row's two-card hands, found from the hands themselves (not from the chart)."""
    found = []
    for (a, b, u) in solution.hands:
        if u != upcard:
            continue
        soft = a == 1 and b != 1
        if section == "pairs" and a == b and rank_symbol(a) == row:
            found.append((a, b))
        elif section == "soft" and soft and str(a + b + 10) == row:
            found.append((a, b))
        elif section == "hard" and a != b and not soft and str(a + b) == row:
            found.append((a, b))
    return found


def expected_values(solution, hands, upcard) -> dict[str, Fraction]:
    """E[the move's result | one of ``hands``, and no dealer natural where the player's values are conditioned
    on none (peek, a ten or ace up; not early surrender)]: from each hand's value as the player weighs it."""
    values: dict[str, Fraction] = {}
    for move in MOVES:
        if not all(move in solution.hands[(a, b, upcard)].w for a, b in hands):
            continue
        total = weight = Fraction(0)
        for a, b in hands:
            moves = solution.hands[(a, b, upcard)]
            p = Fraction(solution.deal_chance[(a, b, upcard)])
            conditioned = moves.peek and moves.natural and not (move == "surrender" and moves.early_surrender)
            keep = 1 - Fraction(moves.natural) if conditioned else Fraction(1)  # P(the condition | hand)
            total += p * keep * Fraction(moves.value(move))
            weight += p * keep
        values[move] = total / weight
    return values


def title_values(text: str) -> dict[str, Fraction]:
    """``move: decimal = p/q`` lines of a hover text."""
    values = {}
    for line in text.splitlines()[1:]:
        match = re.fullmatch(r"(\w+)( \(best\))?: ([-+]?[\d.]+) = (-?\d+(?:/\d+)?)", line)
        assert match, line
        values[match.group(1)] = exact(match.group(4))
        assert abs(float(match.group(3)) - float(values[match.group(1)])) <= 5e-7
    return values


# --- the strategy chart ------------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["finite", "infinite"])
def test_every_chart_cell_has_its_code_colour_and_exact_values(which, finite_solution, infinite_solution):
    solution = finite_solution if which == "finite" else infinite_solution
    root = parse(strategy_chart_figure(solution).svg())
    chart = solution.chart(das_codes=True)
    cells = rects(root, "cell")
    assert len(cells) == sum(len(row) for rows in chart.values() for row in rows.values())
    expected_colours = {"S": "#f0e442", "H": "#ffffff", "D": "#56b4e9", "P": "#009e73", "R": "#d55e00"}
    for rect in cells:
        section, row, upcard = rect.get("data-section"), rect.get("data-row"), as_rank(rect.get("data-upcard"))
        cell = chart[section][row][upcard]
        assert rect.get("data-code") == cell.code
        assert rect.get("fill") == expected_colours[cell.code[0]] == CHART_COLOURS[cell.code[0]]
        hands = hands_of(section, row, upcard, solution)
        assert sorted(hands) == sorted(cell.hands)
        shown = title_values(title(rect))
        assert shown == expected_values(solution, hands, upcard)
        if len(hands) == 1:  # every pair: the hand's own values, as `bjexact hand` shows them
            (a, b), = hands
            assert shown == {m: Fraction(v) for m, v in solution.hands[(a, b, upcard)].values.items()}
        best = max(shown, key=lambda m: (shown[m], -MOVES.index(m)))
        if not (solution.rules.surrender == "early" and "surrender" in shown):  # early: compared unconditionally
            assert cell.best == best


def test_chart_values_match_the_dealer_table(infinite_solution):
    """Standing on hard 16 against a ten wins only when the dealer busts: 2 P(bust | T, no natural) - 1."""
    root = parse(strategy_chart_figure(infinite_solution).svg())
    (rect,) = [r for r in rects(root, "cell") if (r.get("data-section"), r.get("data-row"), r.get("data-upcard"))
               == ("hard", "16", "T")]
    bust = Fraction(dealer_table(Rules(decks="inf", naturals="peek"))[10]["bust"])
    assert title_values(title(rect))["stand"] == 2 * bust - 1
    assert rect.get("data-code") == "Rh"


def test_chart_legend_and_text_fit(infinite_solution):
    drawing = strategy_chart_figure(infinite_solution)
    labels = [s.text for s in drawing.shapes if isinstance(s, Label)]
    assert "Codes" in labels and any("surrender" in t for t in labels)
    for shape in drawing.shapes:
        assert 0 <= getattr(shape, "x", 0) <= drawing.width and 0 <= getattr(shape, "y", 0) <= drawing.height


# --- heat maps ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("move", HEATMAP_MOVES)
def test_heatmap_cells_are_the_exact_values_of_the_move(move, infinite_solution):
    solution = infinite_solution
    root = parse(ev_heatmap_figure(solution, move).svg())
    chart = solution.chart(das_codes=True)
    cells = rects(root, "cell")
    assert len(cells) == sum(len(row) for rows in chart.values() for row in rows.values())
    drawn = 0
    for rect in cells:
        section, row, upcard = rect.get("data-section"), rect.get("data-row"), as_rank(rect.get("data-upcard"))
        values = expected_values(solution, hands_of(section, row, upcard, solution), upcard)
        chosen = chart[section][row][upcard].best if move == "best" else move
        if chosen not in values:  # doubling 10 and 11 only; splitting pairs only
            assert rect.get("data-move") == "" and rect.get("fill") == "#e0e0e0"
            continue
        drawn += 1
        value = exact(rect.get("data-value"))
        assert rect.get("data-move") == chosen and value == values[chosen]
        red, blue = int(rect.get("fill")[1:3], 16), int(rect.get("fill")[5:7], 16)
        assert (red > blue) == (value < 0) or abs(value) < Fraction(1, 100)
    assert drawn == {"double": 3 * 10, "split": 10 * 10}.get(move, len(cells))  # double: 10, 11, 5,5


def test_heatmap_refuses_an_unknown_move(infinite_solution):
    from bjexact.errors import BjexactError

    with pytest.raises(BjexactError):
        ev_heatmap_figure(infinite_solution, "insure")


# --- the dealer's outcomes ---------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [Rules(decks=6), Rules(decks="inf", naturals="separate"),
                                   Rules(decks=1, h17=True, naturals="peek"),
                                   Rules(shoe=(1, 0, 0, 0, 0, 2, 0, 0, 0, 0))])
def test_stacked_bars_are_the_table_and_sum_to_one(rules):
    table = dealer_table(rules)
    root = parse(dealer_outcome_figure(table).svg())
    segments = rects(root, "outcome")
    totals: dict[str, Fraction] = {}
    for rect in segments:
        upcard, outcome, p = rect.get("data-upcard"), rect.get("data-outcome"), exact(rect.get("data-p"))
        assert p == table.rows[as_rank(upcard)][outcome] and p > 0
        assert "P(" in title(rect) and title(rect).endswith(rect.get("data-p"))
        totals[upcard] = totals.get(upcard, Fraction(0)) + p
    assert totals == {rank_symbol(u): 1 for u in UPCARD_ORDER if u in table.rows}
    # drawn heights: every bar equally high, each segment in proportion to its chance
    heights: dict[str, float] = {}
    for rect in segments:
        heights[rect.get("data-upcard")] = heights.get(rect.get("data-upcard"), 0) + float(rect.get("height"))
    assert max(heights.values()) - min(heights.values()) < 0.05
    # stacked without gaps or overlaps, from the bottom: 17 .. 21 (natural), bust, shoe run out
    order = [o for o in ("17", "18", "19", "20", "21", "blackjack", "bust", "exhausted") if o in table.outcomes]
    bottoms = set()
    for upcard in totals:
        bar = sorted((r for r in segments if r.get("data-upcard") == upcard), key=lambda r: -float(r.get("y")))
        assert [r.get("data-outcome") for r in bar] == [o for o in order if table.rows[as_rank(upcard)][o]]
        bottoms.add(round(float(bar[0].get("y")) + float(bar[0].get("height")), 1))
        for lower, upper in zip(bar, bar[1:]):
            assert float(upper.get("y")) + float(upper.get("height")) == pytest.approx(float(lower.get("y")), abs=0.02)
    assert len(bottoms) == 1
    if rules.shoe is not None:
        assert any(r.get("data-outcome") == "exhausted" for r in segments)


def test_dealer_plot_from_the_command_line(tmp_path, capsys):
    status, out, err = run(capsys, "dealer", "--decks", "6", "--plot", str(tmp_path / "dealer.svg"))
    assert status == 0 and "Dealer's final outcome" in out, err
    root = parse((tmp_path / "dealer.svg").read_text())
    assert len(rects(root, "outcome")) == 60
    status, out, err = run(capsys, "dealer", "--decks", "6", "--plot", str(tmp_path / "dealer.gif"))
    assert status == 2 and ".svg, .png or .pdf" in err and err.count("\n") == 1
    # all or nothing: an -o that cannot be written leaves no figure either
    status, out, err = run(capsys, "dealer", "--plot", str(tmp_path / "d2.svg"), "-o", str(tmp_path / "no" / "x"))
    assert status == 2 and not (tmp_path / "d2.svg").exists()


# --- the round's result distribution ------------------------------------------------------------------------


def test_distribution_bars_are_the_distribution(infinite_solution):
    solution = infinite_solution
    drawing = result_distribution_figure(solution)
    root = parse(drawing.svg())
    bars = rects(root, "bar")
    shown = {exact(r.get("data-result")): exact(r.get("data-p")) for r in bars}
    assert shown == {Fraction(r): Fraction(p) for r, p in solution.distribution.items()}
    assert sum(shown.values()) == 1 and Fraction(3, 2) in shown and Fraction(-1, 2) in shown
    assert [exact(r.get("data-result")) for r in bars] == sorted(shown)  # in order of the result
    tallest = max(bars, key=lambda r: exact(r.get("data-p")))
    unit = float(tallest.get("height")) / float(exact(tallest.get("data-p")))  # pixels per unit of probability
    for rect in bars:
        assert float(rect.get("height")) == pytest.approx(unit * float(exact(rect.get("data-p"))), abs=0.01)
    texts = " ".join(t.text for t in root.iter(f"{SVG}text"))
    sd = float(solution.variance) ** 0.5
    assert f"Mean {float(solution.ev):+.6f}" in texts and f"standard deviation {sd:.6f}" in texts


def test_distribution_needs_one(finite_solution):
    from bjexact.errors import BjexactError

    with pytest.raises(BjexactError, match="no distribution of the net result to draw: it was not computed"):
        result_distribution_figure(finite_solution)


def test_edge_plot_from_the_command_line(tmp_path, capsys, monkeypatch):
    status, out, err = run(capsys, "edge", "--decks", "inf", "--split-hands", "2", "--quiet",
                           "--plot", str(tmp_path / "dist.svg"))
    assert status == 0 and "House edge" in out, err
    bars = rects(parse((tmp_path / "dist.svg").read_text()), "bar")
    assert {b.get("data-result") for b in bars} >= {"-4", "-1", "0", "1", "3/2", "4"}
    import bjexact.player.game as game

    monkeypatch.setattr(game, "SPLIT_WORK_LIMIT", 0)  # the split hands' lines too many to follow, as for resplits
    # (one deck: a finite shoe whose pairs are split, as two decks, in two thirds of the time)
    status, out, err = run(capsys, "edge", "--decks", "1", "--split-hands", "2", "--quiet",
                           "--plot", str(tmp_path / "none.svg"), "-o", str(tmp_path / "edge.txt"))
    assert status == 2 and "no distribution of the net result to draw" in err and err.count("\n") == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dist.svg"]


# --- chart on the command line -------------------------------------------------------------------------------


def test_chart_figures_from_the_command_line(tmp_path, capsys):
    base = ["chart", "--decks", "inf", "--split-hands", "2", "--quiet"]
    status, out, err = run(capsys, *base, "-o", str(tmp_path / "chart.svg"), "--heatmap", str(tmp_path / "ev.svg"),
                           "--move", "stand")
    assert status == 0 and out == "", err
    assert len(rects(parse((tmp_path / "chart.svg").read_text()), "cell")) == 330
    assert {r.get("data-move") for r in rects(parse((tmp_path / "ev.svg").read_text()), "cell")} == {"stand"}
    status, out, err = run(capsys, *base, "--format", "svg")
    assert status == 0 and len(rects(parse(out), "cell")) == 330
    status, out, err = run(capsys, *base, "--heatmap", str(tmp_path / "best.svg"))
    assert status == 0 and out.startswith("Basic strategy, hard totals")  # the table, and the heat map
    assert (tmp_path / "best.svg").exists()


@pytest.mark.parametrize("argv, words", [
    (["--move", "hit"], "add --heatmap"),
    (["--format", "png"], "add -o FILE.png"),
    (["--format", "svg", "-o", "x.png"], "disagree"),
    (["--by", "hand", "-o", "x.svg"], "--by hand is a table"),
    (["--heatmap", "x.svg", "--move", "surrender"], "no surrender"),
    (["--heatmap", "x.svg", "--move", "split", "--split-hands", "1"], "no splitting"),
    (["--heatmap", "x.txt"], "--heatmap: a figure file must end in .svg, .png or .pdf"),
    (["-o", "x.svg", "--heatmap", "missing/x.svg"], "does not exist"),
    (["--heatmap", "x.svg", "-o", "missing/x.txt"], "does not exist"),
    (["-o", "same.svg", "--heatmap", "same.svg"], "name the same file"),
    (["-o", "x.svg", "--format", "csv"], "a .svg file is a figure"),
])
def test_chart_figure_mistakes_are_one_line(argv, words, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = run(capsys, "chart", "--decks", "inf", "--split-hands", "2", "--quiet", *argv)
    assert status == 2 and words in err and err.count("\n") == 1, err
    assert not list(tmp_path.iterdir())


# --- without matplotlib, PNG and PDF ------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["dealer", "--decks", "inf", "--plot", "a.png"],
    ["edge", "--decks", "inf", "--plot", "a.pdf"],
    ["chart", "--decks", "inf", "-o", "a.png"],
    ["chart", "--decks", "inf", "--heatmap", "a.pdf"],
])
def test_missing_matplotlib_says_how_to_install_it(argv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib raises ImportError
    status, out, err = run(capsys, *argv)
    assert status == 2 and err.count("\n") == 1 and "pip install 'bjexact[plot]'" in err, err
    assert not list(tmp_path.iterdir())
    drawing = Drawing(10, 10, [])
    with pytest.raises(Exception, match=r"bjexact\[plot\]"):
        drawing.render("png")
    assert drawing.render("svg").startswith(b"<?xml")


def test_png_and_pdf_through_matplotlib(tmp_path, infinite_solution):
    pytest.importorskip("matplotlib")
    drawing = strategy_chart_figure(infinite_solution)
    write_figure(drawing, tmp_path / "chart.png")
    write_figure(drawing, tmp_path / "chart.pdf")
    png = (tmp_path / "chart.png").read_bytes()
    assert png.startswith(b"\x89PNG") and (tmp_path / "chart.pdf").read_bytes().startswith(b"%PDF")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert (width, height) == pytest.approx((drawing.width / 72 * 144, drawing.height / 72 * 144), abs=2)


def test_small_negative_heatmap_values_keep_their_sign():
    """A cell worth -0.0019 is labelled -0.00, as one worth +0.0041 is +0.00."""
    from bjexact.core.text import decimal_string

    assert decimal_string(Fraction(-19, 10000), 2, signed=True) == "-0.00"
    assert decimal_string(Fraction(41, 10000), 2, signed=True) == "+0.00"
    assert decimal_string(Fraction(-19, 10000), 2) == "0.00"


def test_text_is_escaped():
    drawing = Drawing(100, 40, [Label(5, 20, "a < b & \"c\"")], title="<x>")
    root = parse(drawing.svg())
    assert [t.text for t in root.iter(f"{SVG}text")] == ["a < b & \"c\""]
