"""Reports: content, the PDF compile (and its failures), and the committed reference reports."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bjexact.cli import main
from bjexact.core.numbers import fraction_string, mpq
from bjexact.core.rules import GameRules, Rules
from bjexact.core.text import NumberStyle, Table
from bjexact.errors import BjexactError
from bjexact.render.document import (
    FIGURES,
    Code,
    Document,
    Heading,
    Math,
    TableBlock,
    Values,
    digit_lines,
    paragraph,
    table_is_wide,
    to_latex,
    to_markdown,
)
from bjexact.render.memory import Memory
from bjexact.render.report import (
    EFFECTS_BEGIN,
    EFFECTS_END,
    EFFECTS_FILE,
    GAME_BEGIN,
    GAME_END,
    PLAYER_BEGIN,
    PLAYER_END,
    REFERENCE_SETS,
    SUMMARY_BEGIN,
    SUMMARY_END,
    build_report,
    compile_latex,
    reference_texts,
    report_latex,
    report_markdown,
    write_report,
)
from bjexact.render.tables import decimal_string

ROOT = Path(__file__).resolve().parent.parent
HAVE_TEX = shutil.which("latexmk") is not None or shutil.which("pdflatex") is not None
HAVE_DOT = shutil.which("dot") is not None
INF = Rules(decks="inf")


def _outside_slow_sections(text: str) -> str:
    for begin, end in ((SUMMARY_BEGIN, SUMMARY_END), (GAME_BEGIN, GAME_END), (PLAYER_BEGIN, PLAYER_END)):
        text = _without(text, begin, end)
    return text


def _without(text: str, begin: str, end: str) -> str:
    head, _, rest = text.partition(begin)
    _, _, tail = rest.partition(end)
    return head + tail


# The committed reference reports. The infinite-deck and one-deck sets are regenerated in full
# (about 25 s); the full game and hit/stand analyses of 2, 6 and 8 decks take 30-60 s each, so for
# them everything but those two sections (dealer tables, matrices, removal, figures, method) is
# regenerated and compared. The effect of each rule (a full-game solve per rule changed, 15-45 s a
# set) is compared for the infinite deck S17 only, below. These tests come first: the one-deck
# report's full game is one of the rule sets of the infinite deck's effect of each rule (inf_report),
# whose house edge the report notes for it (render.effects.house_edge), solved once instead of twice.
@pytest.mark.parametrize("slug,rules", REFERENCE_SETS, ids=[slug for slug, _ in REFERENCE_SETS])
def test_reference_reports_are_current(slug, rules):
    full = rules.infinite or rules.decks == 1
    expected = reference_texts(rules, player=full, effects=False)
    for name, text in expected.items():
        path = ROOT / "reports" / slug / name
        assert path.exists(), f"{path} is missing: run 'bjexact report --reference reports/'"
        committed = path.read_text()
        committed, text = _without(committed, EFFECTS_BEGIN, EFFECTS_END), _without(text, EFFECTS_BEGIN, EFFECTS_END)
        if not full:
            committed, text = _outside_slow_sections(committed), _outside_slow_sections(text)
        assert committed == text, f"{path} is stale: run 'bjexact report --reference reports/'"


@pytest.fixture(scope="module")
def inf_report():
    return build_report(INF, progress=False)


def test_markdown_content(inf_report):
    text = report_markdown(inf_report)
    # Dealer bust with a 6 showing, infinite deck S17: the engine's value, cross-checked in the dealer tests.
    assert "345176856/815730721" in text
    assert "| 42.3150 |" in text  # 345176856/815730721 = 42.31504...%
    assert "| up 6 | 0 | 1/13 |" in text  # T: the up-card 6 reaches hard 8 on a 2
    assert "![" in text and "figures/dealer-6.svg" in text and "figures/player-6.svg" in text
    assert f"<!-- {PLAYER_BEGIN} -->" in text and f"<!-- {PLAYER_END} -->" in text
    assert f"<!-- {GAME_BEGIN} -->" in text and f"<!-- {GAME_END} -->" in text
    assert "| hard 16 | S | S | S | S | S | H | H | H | H | H |" in text  # basic strategy, hit/stand only
    assert "## The hit/stand game: the player's best play" in text
    # maths as maths: no sympy text or raw subscripts in the prose
    assert "CRootOf" not in text and "f = sum_j" not in text and "| D_" not in text
    assert "| $D_{\\mathrm{A}}$ |" in text and "$N = (I - T)^{-1}$" in text


def test_full_game_section(inf_report):
    """The full game on the infinite deck with the default rules: -0.511734% (the value the full game's
    own tests check against an independent brute force, and published tables print -0.51%)."""
    text = report_markdown(inf_report)
    game = text[text.index(GAME_BEGIN):text.index(GAME_END)]
    assert inf_report.game.rules == GameRules(decks="inf")
    assert "The house edge is 0.511734% of the initial bet" in game
    assert "Double down on any two cards, also after splitting (DAS)." in game
    # the chart, on the summary page: hard 16 v T hits (no surrender), 8,8 splits against everything,
    # 11 doubles but against an ace (S17)
    summary = text[text.index(SUMMARY_BEGIN):text.index(SUMMARY_END)]
    assert "| 16 | S | S | S | S | S | H | H | H | H | H |" in summary
    assert "| 8,8 | P | P | P | P | P | P | P | P | P | P |" in summary
    assert "| 11 | Dh | Dh | Dh | Dh | Dh | Dh | Dh | Dh | Dh | H |" in summary
    # every two-card hand's best move in the full game's section: T,2 v 4 stands like its row
    assert "| T,2 | H | H | S | S | S | H | H | H | H | H |" in game
    assert "Net result of a round" in game and "variance" in game
    # the exact value, in groups of five digits: the digits read back are the fraction
    values = game[game.index("expected result = "):]
    digits = values.split("```")[0].replace("expected result = ", "").replace(" ", "").replace("\n", "")
    numerator, denominator = digits.split("house")[0].split("/")
    assert mpq(int(numerator), int(denominator)) == inf_report.game.ev


def test_summary_comes_first_and_speaks_of_the_game_played(inf_report):
    text = report_markdown(inf_report)
    assert text.startswith("# Exact blackjack: infinite deck, S17, 3:2, peek, DAS, split to 4 hands\n")
    summary = text[text.index(SUMMARY_BEGIN):text.index(SUMMARY_END)]
    assert text.index(SUMMARY_END) < text.index(GAME_BEGIN) < text.index("## Appendix: the method")
    assert text.index("## Appendix: the method") < text.index("## The dealer's final outcome")
    assert "House edge with the best composition-dependent play: 0.5117% of the initial bet." in summary
    # the infinite deck: a hand's value depends only on its total, so the chart is the optimal play
    assert "House edge playing the basic strategy chart below (as published tables quote it): 0.5117%" in summary
    assert "mean -0.0051 units, standard deviation 1.1538 units" in summary
    assert "as21" not in summary and "+1 win" not in summary


@pytest.mark.skipif(not (HAVE_TEX and HAVE_DOT and shutil.which("pdftotext")), reason="needs TeX, Graphviz, poppler")
def test_report_with_casino_rule_options_has_the_edge_on_page_one(tmp_path, capsys):
    argv = ["report", "-o", str(tmp_path), "--decks", "inf", "--h17", "--das", "--surrender", "late", "--quiet",
            "--no-rule-effects"]
    assert main(argv) == 0
    assert not (tmp_path / EFFECTS_FILE).exists()
    page = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(tmp_path / "report.pdf"), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "infinite deck, H17, 3:2, peek, DAS, split to 4 hands, late surrender" in page
    assert "House edge with the best composition-dependent play: 0.6294% of the initial bet." in page
    assert "bjexact report -o DIR --decks inf --h17 --surrender late" in (tmp_path / "report.md").read_text()


def test_report_writes_a_new_folder_by_default(tmp_path, monkeypatch):
    import bjexact.render.report as report

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(report, "_tex_command", lambda: None)
    monkeypatch.setattr(report, "have_dot", lambda: False)
    assert main(["report", "--decks", "inf", "--quiet"]) == 0
    assert sorted(p.name for p in (tmp_path / "bjexact-report").iterdir()) == ["figures", "report.html", "report.md",
                                                                              "report.tex", EFFECTS_FILE]
    assert (tmp_path / "bjexact-report" / "figures" / ".bjexact-written").exists()


SMALL_SHOE = (2, 2, 2, 2, 2, 2, 2, 2, 2, 8)  # 26 cards: resplitting's lines are beyond the work limit


def _variance_json(capsys, *options: str) -> mpq:
    capsys.readouterr()
    assert main(["edge", *options, "--distribution", "--format", "json"]) == 0
    numerator, denominator = json.loads(capsys.readouterr().out)["variance"].split("/")
    return mpq(int(numerator), int(denominator))


def _sd(variance: mpq) -> str:
    return f"{float(variance) ** 0.5:.4f}"


def test_summary_gives_the_standard_deviation_on_a_finite_shoe(capsys):
    """On a finite shoe the summary gives the standard deviation as a number: exact where the split hands'
    lines can be followed (pairs split once), else the one of the same rules split once, beside what
    resplitting does to it on the infinite deck; each equal to bjexact edge --distribution's variance."""
    shoe = ",".join(map(str, SMALL_SHOE))
    once = _variance_json(capsys, "--shoe", shoe, "--split-hands", "2")
    inf_once, inf_four = (_variance_json(capsys, "--decks", "inf", "--split-hands", k) for k in ("2", "4"))
    rules = Rules(shoe=SMALL_SHOE)
    resplit = build_report(rules, progress=False, effects=False)
    summary = report_markdown(resplit).split(SUMMARY_END)[0]
    assert resplit.game.variance is None and resplit.spread.split_once == once
    assert (f"standard deviation {_sd(once)} units with pairs split once" in summary
            and f"resplitting takes it from {_sd(inf_once)} to {_sd(inf_four)} units" in summary), summary
    assert "about 1.15" not in summary
    split_once = build_report(rules, progress=False, effects=False,
                              full_rules=GameRules(shoe=SMALL_SHOE, split_hands=2))
    summary = report_markdown(split_once).split(SUMMARY_END)[0]
    assert split_once.game.variance == once and split_once.spread is None
    assert f"standard deviation {_sd(once)} units (per unit initial bet)" in summary


def test_finite_shoe_sections_say_only_what_they_hold():
    report = build_report(Rules(decks=2), player=False, progress=False)
    text = report_markdown(report)
    assert "## Effects of removal\n" in text and "ten density" not in text
    assert "n/a" not in text  # every rank of two decks can be removed
    assert "(left out)" in text


def test_latex_content(inf_report):
    text = report_latex(inf_report)
    assert text.startswith("\\documentclass") and "\\usepackage{booktabs}" in text
    assert "\\dfrac{345176856}{815730721}" in text
    assert "figures/dealer-6.pdf" in text and text.rstrip().endswith("\\end{document}")
    assert "$N = (I - T)^{-1}$" in text
    assert "CRootOf" not in text and "D\\_" not in text and "sum\\_j" not in text
    # the diagrams on turned pages, scaled into the page's box (their labels print at 6 pt or more, see
    # below); headings kept with what follows them
    assert "\\begin{landscape}\n\\begin{figure}" in text
    assert "\\includegraphics[width=731.2pt,height=400pt,keepaspectratio]{figures/dealer-6.pdf}" in text
    assert text.count("\\keepspace{") >= text.count("\\section{")


def test_long_values_break_between_digit_groups():
    value = mpq(-(10**59 + 12345), 7 * 10**11 + 3)
    lines = digit_lines(value)
    assert lines == ["-10000 00000 00000 00000 00000 00000 00000 00000 00000 00000",
                     "00000 12345", "/70 00000 00003"]
    assert all(len(line.replace(" ", "").lstrip("-/")) <= 50 for line in lines)
    document = Document("t", (Values((("v", value),)),))
    markdown = to_markdown(document)
    assert "v = -10000 00000" in markdown and "00000 \u21a9\n" in markdown  # the continuation is marked
    assert markdown.count("\u21a9") == 1  # only where one number goes on, not before its denominator
    assert "\\hookleftarrow" in to_latex(document)


def test_one_model_two_renderings():
    table = Table("A table", ["rank", "x"], [[Math("D_{A}"), mpq(1, 3)]])
    document = Document("Title", (Heading("Part"), paragraph("text with ", Math("t^2"), " and ", Code("a --b")),
                                  TableBlock(table, NumberStyle(exact=True))))
    markdown, latex = to_markdown(document), to_latex(document)
    assert "## Part" in markdown and "text with $t^2$ and `a --b`" in markdown and "| $D_{A}$ | 1/3 |" in markdown
    assert "\\section{Part}" in latex and "text with $t^2$ and \\texttt{a -{}-b}" in latex
    assert "$D_{A}$ & $\\dfrac{1}{3}$" in latex


def test_only_wide_tables_are_wide():
    narrow = Table("", ["a", "b"], [["x", mpq(1, 3)]])
    wide = Table("", ["a", *"0123456789"], [["x", *[mpq(10**20 + 1, 10**21 + 7)] * 10]])
    exact = NumberStyle(exact=True)
    assert not table_is_wide(narrow, exact) and table_is_wide(wide, exact)
    assert "landscape" not in to_latex(Document("t", (TableBlock(narrow, exact),)))
    assert "landscape" in to_latex(Document("t", (TableBlock(wide, exact, wide=True),)))


def test_text_does_not_depend_on_the_machine(monkeypatch, inf_report):
    import bjexact.render.diagrams as diagrams

    before = report_latex(inf_report), report_markdown(inf_report)
    monkeypatch.setattr(diagrams.shutil, "which", lambda name: None)
    assert (report_latex(inf_report), report_markdown(inf_report)) == before


@pytest.mark.skipif(not (HAVE_TEX and HAVE_DOT), reason="needs TeX and Graphviz")
def test_pdf_compiles_and_page_one_renders(tmp_path, inf_report):
    written = write_report(inf_report, tmp_path, quiet=True)
    pdf = tmp_path / "report.pdf"
    assert pdf in written and pdf.read_bytes().startswith(b"%PDF")
    assert (tmp_path / "figures" / "dealer-6.svg").exists() and (tmp_path / "figures" / "dealer-6.pdf").exists()
    assert not list(tmp_path.glob("*.aux")) and not list(tmp_path.glob("*.log"))
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", "1", "-l", "1", str(pdf), str(tmp_path / "page")],
                   check=True)
    (page,) = tmp_path.glob("page*.png")
    assert page.read_bytes().startswith(b"\x89PNG") and page.stat().st_size > 5000


@pytest.mark.skipif(not HAVE_TEX, reason="needs TeX")
def test_tex_error_is_one_line_with_the_log(tmp_path):
    tex = tmp_path / "bad.tex"
    tex.write_text("\\documentclass{article}\\begin{document}\\nosuchcommand\\end{document}\n")
    with pytest.raises(BjexactError) as caught:
        compile_latex(tex)
    message = str(caught.value)
    assert "\n" not in message and "Undefined control sequence" in message
    assert str(tmp_path / "bad.log") in message and (tmp_path / "bad.log").exists()


def test_without_tex_the_tex_is_written(monkeypatch, tmp_path, capsys):
    import bjexact.render.report as report

    monkeypatch.setattr(report, "_tex_command", lambda: None)
    assert main(["report", "-o", str(tmp_path), "--decks", "inf"]) == 0
    assert (tmp_path / "report.tex").exists() and (tmp_path / "report.md").exists()
    assert not (tmp_path / "report.pdf").exists()
    err = capsys.readouterr().err
    assert "latexmk -pdf report.tex" in err
    # the message names the report's folder, not the staging folder it was written in before the move
    assert f"{tmp_path / 'report.tex'} is written" in err and f"in {tmp_path}\n" in err and ".tmp" not in err


LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|(?:src|href)=\"([^\"]+)\"")


def _links(text: str) -> list[str]:
    """The targets of the Markdown links and images and the HTML src/href attributes of ``text``."""
    return [a or b for a, b in LINK.findall(text)]


@pytest.mark.parametrize("dot", [True, False], ids=["with dot", "without dot"])
def test_no_file_of_the_report_links_to_a_missing_file(tmp_path, monkeypatch, inf_report, dot):
    import bjexact.render.report as report

    if dot and not HAVE_DOT:
        pytest.skip("needs Graphviz")
    monkeypatch.setattr(report, "have_dot", lambda: dot)
    write_report(inf_report, tmp_path, compile_pdf=False, quiet=True)
    markdown, page = (tmp_path / "report.md").read_text(), (tmp_path / "report.html").read_text()
    targets = _links(markdown) + _links(page)
    assert any(t.endswith("ev-heatmap.svg") for t in targets)  # the walk sees the links there are
    for target in targets:
        assert target.startswith("#") or (tmp_path / target).is_file(), f"{target} is linked but missing"
    assert not _links(page), "report.html is one file: it links to no other"
    diagrams = [figure.name for figure in inf_report.figures]
    assert all((tmp_path / FIGURES / f"{name}.dot").is_file() for name in diagrams)
    for text in markdown, page:
        if dot:
            assert "were not drawn" not in text
        else:  # says which diagrams are missing, and the command that draws them
            assert "were not drawn" in text and "bjexact report -o DIR --decks inf" in text
            assert all(f"{FIGURES}/{name}.dot" in text for name in diagrams)
    svgs = page.count("<svg")
    assert svgs == 3 + (len(diagrams) if dot else 0)  # colour chart, heat map, distribution (+ the diagrams)


def test_the_html_report_shows_exact_fractions_on_hover(inf_report):
    from html.parser import HTMLParser

    from bjexact.render.report import report_html

    page = report_html(inf_report, drawn=False)
    edge = fraction_string(-inf_report.game.ev)
    assert f'title="{edge}"' in page  # the house edge, exactly
    cells = re.findall(r'<td title="(-?\d+(?:/\d+)?)" data-exact="\1">([^<]+)</td>', page)
    assert len(cells) > 100
    for exact, shown in cells[:200]:  # each cell's decimal rounds its exact value (percent or plain)
        value = mpq(exact)
        assert shown == exact or shown in (decimal_string(value * 100, len(shown.split(".")[-1])),
                         decimal_string(value, len(shown.split(".")[-1]))) or "%" in shown, (exact, shown)
    assert 'class="chart"' in page or "data-section=" in page  # the colour chart's cells
    assert "<script" not in page and "http://" not in page.replace("http://www.w3.org", "")

    class Balanced(HTMLParser):
        VOID = {"meta", "br", "img", "hr", "input", "link"}

        def __init__(self):
            super().__init__()
            self.open: list[str] = []

        def handle_starttag(self, tag, attrs):
            if tag not in self.VOID:
                self.open.append(tag)

        def handle_startendtag(self, tag, attrs):
            pass

        def handle_endtag(self, tag):
            assert self.open and self.open[-1] == tag, (tag, self.open[-5:])
            self.open.pop()

    checker = Balanced()
    checker.feed(page)
    assert checker.open == []


def test_bad_options(tmp_path, capsys):
    assert main(["report", "--reference", str(tmp_path), "--h17"]) == 2
    assert main(["report", "--reference", str(tmp_path), "--surrender", "late"]) == 2
    assert main(["report", "--reference", str(tmp_path), "--no-rule-effects"]) == 2
    assert main(["report", "-o", str(tmp_path / "no" / "such"), "--decks", "inf", "--shoe", "1,1"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 4


def _effects_section(text: str) -> str:
    return text[text.index(EFFECTS_BEGIN):text.index(EFFECTS_END)]


def test_reference_effects_are_current(inf_report):
    """The infinite deck S17's effect of each rule, as committed, is the one solved now."""
    for name, text in (("report.md", report_markdown(inf_report)), ("report.tex", report_latex(inf_report))):
        committed = (ROOT / "reports" / "infinite-s17" / name).read_text()
        assert _effects_section(committed) == _effects_section(text), f"reports/infinite-s17/{name} is stale"


# --- the effect of each rule ------------------------------------------------------------------------


def _edge_json(capsys, *options: str) -> dict:
    capsys.readouterr()
    assert main(["edge", "--decks", "inf", *options, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_effect_of_each_rule(inf_report, capsys):
    """The section after the full game: the house edge with one rule changed at a time, each equal to an
    independent solve by bjexact edge, with the signs every published rule-effect table gives."""
    tex = report_latex(inf_report)
    assert "\\section{Effect of each rule}" in tex
    assert tex.index(GAME_END) < tex.index(EFFECTS_BEGIN) < tex.index("Appendix: the method")
    effects = {effect.change.label: effect for effect in inf_report.effects.effects}
    base = -inf_report.game.ev
    assert inf_report.effects.house_edge == base
    for label, options in (("H17 instead of S17", ["--h17"]), ("no DAS", ["--no-das"]),
                           ("blackjack pays 6:5 instead of 3:2", ["--bj-pays", "6/5"])):
        solved = _edge_json(capsys, *options)
        edge = effects[label].house_edge
        assert fraction_string(edge) == solved["house_edge"]
        assert effects[label].change_in_edge == edge - base
        row = f"| {label} | {decimal_string(edge * 100, 4)}% | {decimal_string((edge - base) * 100, 4, signed=True)}% |"
        assert row in report_markdown(inf_report)
    change = {label: effect.change_in_edge for label, effect in effects.items()}
    assert change["H17 instead of S17"] > 0 and change["no DAS"] > 0  # H17 raises the edge, DAS lowers it
    assert mpq(13, 10) < change["blackjack pays 6:5 instead of 3:2"] * 100 < mpq(145, 100)  # about 1.4 %
    assert change["late surrender"] < 0 and change["RSA"] < 0 and change["split once (2 hands) instead of to 4"] > 0
    assert change["ENHC (no hole card) instead of peek"] > 0
    # more decks, a higher edge: 1 < 2 < 6 < 8 decks < the infinite deck
    decks = [change[f"{n} instead of the infinite deck"] for n in ("1 deck", "2 decks", "6 decks", "8 decks")]
    assert decks == sorted(decks) and decks[-1] < 0


def test_a_rule_change_that_cannot_be_solved_is_named(monkeypatch):
    import bjexact.render.effects as effects

    real, real_changes = effects.solve_game, effects.rule_changes

    def refuse_h17(rules, **options):
        if rules.h17:
            raise BjexactError("the shoe runs out")
        return real(rules, **options)

    monkeypatch.setattr(effects, "solve_game", refuse_h17)
    monkeypatch.setattr(effects, "_REMEMBERED", Memory(64))
    base = GameRules(decks="inf")
    monkeypatch.setattr(effects, "rule_changes", lambda rules: real_changes(rules)[:2])  # H17, DAS: quick
    solved = effects.rule_effects(base)
    assert [(change.label, reason) for change, reason in solved.unsolved] == [("H17 instead of S17",
                                                                               "the shoe runs out")]
    assert [e.change.label for e in solved.effects] == ["no DAS"]
    assert solved.to_json()["unsolved"] == [{"rule": "H17 instead of S17", "reason": "the shoe runs out"}]


def test_effects_file_is_exact(tmp_path, inf_report):
    write_report(inf_report, tmp_path, compile_pdf=False, quiet=True)
    data = json.loads((tmp_path / EFFECTS_FILE).read_text())
    assert data["house_edge"] == fraction_string(-inf_report.game.ev)
    assert [change["rule"] for change in data["changes"]] == [e.change.label for e in inf_report.effects.effects]
    for change, effect in zip(data["changes"], inf_report.effects.effects):
        numerator, denominator = change["change"].split("/")
        assert mpq(int(numerator), int(denominator)) == effect.change_in_edge
        assert GameRules.from_json(change["rules"]) == effect.change.rules


# --- printed label sizes ----------------------------------------------------------------------------

_TEX_LENGTHS = {"pt": 1.0, "\\linewidth": 483.69684, "\\textheight": 731.23584}  # A4, 2 cm margins


def _printed_label_sizes(directory: Path) -> dict[str, float]:
    """The smallest label of each figure of a written report, in points as printed on A4: the smallest font
    size of the figure (``fontsize`` in its .dot, or ``font-size`` in its .svg for a drawing) times the scale
    at which report.tex includes its PDF (the box of ``\\includegraphics[width=..,height=..,keepaspectratio]``
    over the PDF's natural size)."""
    tex = (directory / "report.tex").read_text()
    sizes = {}
    for options, name in re.findall(r"\\includegraphics\[([^\]]*)\]\{figures/([^}]*)\.pdf\}", tex):
        box = {}
        for key, number, unit in re.findall(r"(width|height)=([\d.]*)(pt|\\linewidth|\\textheight)", options):
            box[key] = float(number or 1) * _TEX_LENGTHS[unit]
        pdf = (directory / FIGURES / f"{name}.pdf").read_bytes()
        found = re.search(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", pdf)
        assert found is not None, f"{name}.pdf has no page size"
        width, height = float(found.group(1)), float(found.group(2))
        dot = directory / FIGURES / f"{name}.dot"
        fonts = (re.findall(r'fontsize="?([\d.]+)', dot.read_text()) if dot.exists() else
                 re.findall(r'font-size="([\d.]+)"', (directory / FIGURES / f"{name}.svg").read_text()))
        sizes[name] = min(map(float, fonts)) * min(box["width"] / width, box["height"] / height)
    return sizes


@pytest.mark.parametrize("slug", [slug for slug, _ in REFERENCE_SETS])
def test_reference_report_labels_print_at_6_points_or_more(slug):
    """Every label of every figure of the committed reference reports (diagrams and drawings) is at least
    6 pt on A4 paper: the PDFs used to shrink the dealer's chain to the text width (1.6 to 4.2 pt)."""
    sizes = _printed_label_sizes(ROOT / "reports" / slug)
    assert sizes and "dealer-6" in sizes
    small = {name: round(size, 2) for name, size in sizes.items() if size < 6}
    assert not small, f"labels below 6 pt in reports/{slug}: {small}"


@pytest.mark.skipif(not HAVE_DOT, reason="needs Graphviz")
@pytest.mark.parametrize("rules", [INF, Rules(decks=6)], ids=["inf", "6-decks"])
def test_new_report_diagrams_print_at_6_points_or_more(tmp_path, rules):
    write_report(build_report(rules, player=False, progress=False), tmp_path, compile_pdf=False, quiet=True)
    sizes = _printed_label_sizes(tmp_path)
    assert len(sizes) >= 4 and min(sizes.values()) >= 6, sizes
    # the merged chain's labels are bare numbers: the caption says they are averages
    text = (tmp_path / "report.md").read_text()
    assert ("avg" not in (tmp_path / FIGURES / "dealer-6.dot").read_text()) and (
        rules.infinite or "is the average of P(next state | hand)" in text)


def test_the_regenerate_line_reproduces_the_report(tmp_path):
    """The command a report ends with makes the same report: every rule option and the sections left out."""
    first = tmp_path / "first"
    options = ["--decks", "inf", "--hit-split-aces", "--double-split-aces", "--surrender", "late",
               "--no-rule-effects", "--no-pdf", "--quiet"]
    assert main(["report", "-o", str(first), *options]) == 0
    text = (first / "report.md").read_text()
    command = re.search(r"Regenerate: `bjexact report -o DIR ([^`]*)`", text)
    assert command, text[-400:]
    flags = command.group(1).split()
    assert "--double-split-aces" in flags and "--no-rule-effects" in flags and "--hit-split-aces" in flags
    second = tmp_path / "second"
    assert main(["report", "-o", str(second), *flags, "--no-pdf", "--quiet"]) == 0
    assert (second / "report.md").read_text() == text


def test_a_new_report_leaves_the_users_files_in_its_figures_folder(tmp_path, monkeypatch):
    import bjexact.render.report as report

    monkeypatch.setattr(report, "_tex_command", lambda: None)
    monkeypatch.setattr(report, "have_dot", lambda: False)
    target = tmp_path / "out"
    assert main(["report", "-o", str(target), "--decks", "inf", "--quiet", "--no-rule-effects"]) == 0
    manifest = target / "figures" / ".bjexact-written"
    first = set(manifest.read_text().split())
    assert first == {p.name for p in (target / "figures").iterdir()} - {manifest.name} and first
    (target / "figures" / "mine.txt").write_text("my notes\n")
    # H17 draws other diagrams (the casino rules of the test above: a process solves and draws them once)
    assert main(["report", "-o", str(target), "--decks", "inf", "--h17", "--das", "--surrender", "late", "--quiet",
                 "--no-rule-effects"]) == 0
    second = set(manifest.read_text().split())
    assert (target / "figures" / "mine.txt").read_text() == "my notes\n"  # the user's file stays
    # the first report's figures are replaced by the second's, those it no longer draws removed
    assert {p.name for p in (target / "figures").iterdir()} == second | {"mine.txt", manifest.name}
    assert first != second and "H17" in (target / "report.md").read_text()
    # -o a link to a folder: the report is written into the folder the link names
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
    assert main(["report", "-o", str(tmp_path / "link"), "--decks", "inf", "--quiet", "--no-rule-effects"]) == 0
    assert (tmp_path / "elsewhere" / "report.md").exists() and (tmp_path / "link").is_symlink()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
