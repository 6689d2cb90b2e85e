"""Reports: content, the PDF compile (and its failures), and the committed reference reports."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from bjexact.cli import main
from bjexact.core.rules import Rules
from bjexact.errors import BjexactError
from bjexact.render.report import (
    PLAYER_BEGIN,
    PLAYER_END,
    REFERENCE_SETS,
    build_report,
    compile_latex,
    reference_texts,
    report_latex,
    report_markdown,
    write_report,
)

ROOT = Path(__file__).resolve().parent.parent
HAVE_TEX = shutil.which("latexmk") is not None or shutil.which("pdflatex") is not None
HAVE_DOT = shutil.which("dot") is not None
INF = Rules(decks="inf")


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
    assert "| hard 16 | S | S | S | S | S | H | H | H | H | H |" in text  # basic strategy, hit/stand only


def test_latex_content(inf_report):
    text = report_latex(inf_report)
    assert text.startswith("\\documentclass") and "\\usepackage{booktabs}" in text
    assert "\\dfrac{345176856}{815730721}" in text
    assert text.count("\\begin{landscape}") >= 2
    assert "figures/dealer-6.pdf" in text and text.rstrip().endswith("\\end{document}")
    assert "(I - T)$^{-1}$" in text


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
    assert "latexmk -pdf report.tex" in capsys.readouterr().err


def test_bad_options(tmp_path, capsys):
    assert main(["report", "--reference", str(tmp_path), "--h17"]) == 2
    assert main(["report", "-o", str(tmp_path / "no" / "such"), "--decks", "inf", "--shoe", "1,1"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 2


def _outside_player(text: str) -> str:
    head, _, rest = text.partition(PLAYER_BEGIN)
    _, _, tail = rest.partition(PLAYER_END)
    return head + tail


# The committed reference reports. The infinite-deck and one-deck sets are regenerated in full
# (about 12 s); the 2-, 6- and 8-deck player analyses take 20-40 s each, so for them everything but
# the player section (dealer tables, matrices, figures, method) is regenerated and compared.
@pytest.mark.parametrize("slug,rules", REFERENCE_SETS, ids=[slug for slug, _ in REFERENCE_SETS])
def test_reference_reports_are_current(slug, rules):
    full = rules.infinite or rules.decks == 1
    expected = reference_texts(rules, player=full)
    for name, text in expected.items():
        path = ROOT / "reports" / slug / name
        assert path.exists(), f"{path} is missing: run 'bjexact report --reference reports/'"
        committed = path.read_text()
        if not full:
            committed, text = _outside_player(committed), _outside_player(text)
        assert committed == text, f"{path} is stale: run 'bjexact report --reference reports/'"
