"""``bjexact report --sidebet``: the side bet's one-section math report, its files and its links."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import bjexact.render.sidebet_report as sidebet_report
from bjexact.cli import main
from bjexact.render.document import digit_lines
from bjexact.sidebets import analyse, built_in
from bjexact.sidebets.bets import pays_text


def texttt(line: str) -> str:
    return "\\texttt{" + line.replace(" ", "~") + "}"


def links(folder: Path) -> list[Path]:
    """Every file the report's Markdown and LaTeX refer to."""
    found = [folder / m for m in re.findall(r"\]\(([^)]+)\)", (folder / "report.md").read_text())]
    found += [folder / m for m in re.findall(r"\\includegraphics\[[^]]*\]\{([^}]+)\}",
                                              (folder / "report.tex").read_text())]
    return found


def test_a_dealer_bets_report_holds_the_pay_table_every_exact_chance_and_the_diagram(tmp_path, capsys):
    folder = tmp_path / "buster"
    tex_engine = shutil.which("latexmk") or shutil.which("pdflatex")
    argv = ["report", "--sidebet", "buster", "--decks", "1,6", "--h17", "-o", str(folder)]
    assert main(argv + ([] if tex_engine else ["--no-pdf"])) == 0
    err = capsys.readouterr().err
    for named in re.findall(r"(/\S+?)(?:,|$)", err.strip()):
        assert Path(named).exists(), named
    tex = (folder / "report.tex").read_text()
    assert tex.count("\\section{") == 1
    for decks in (1, 6):
        analysis = analyse(built_in("buster"), decks, h17=True)
        for line in analysis.lines:
            assert all(texttt(part) in tex for part in digit_lines(line.chance)), (decks, line.name)
    for line in built_in("buster").lines:
        assert line.name in tex and f" & {pays_text(line.pays)} & " in tex
    assert "dealer.cards = \"8+\"" in (folder / "report.md").read_text()
    assert {p.name for p in (folder / "figures").iterdir()} >= {"bust-lines.dot", "bust-lines.svg", "bust-lines.pdf"}
    assert all(path.exists() for path in links(folder)) and links(folder)
    if tex_engine:
        assert (folder / "report.pdf").read_bytes().startswith(b"%PDF")
    assert "bjexact report --sidebet buster --decks 1,6 --h17 -o DIR" in (folder / "report.md").read_text()


def test_a_first_card_bets_report_has_the_combinations_and_no_diagram(tmp_path):
    folder = tmp_path / "r"
    assert main(["report", "--sidebet", "perfect-pairs", "--decks", "6", "-o", str(folder), "--no-pdf", "-q"]) == 0
    text = (folder / "report.md").read_text()
    assert "Combinations" in text and "| total | 48,516 |" in text  # C(312, 2) two-card hands of six decks
    assert not (folder / "figures").exists() and not links(folder)


def test_without_graphviz_the_diagram_is_written_as_dot_and_the_report_says_how_to_draw_it(tmp_path, monkeypatch):
    monkeypatch.setattr(sidebet_report, "have_dot", lambda: False)
    folder = tmp_path / "r"
    assert main(["report", "--sidebet", "bust", "--decks", "2", "-o", str(folder), "--no-pdf", "-q"]) == 0
    assert sorted(p.name for p in (folder / "figures").iterdir() if not p.name.startswith(".")) == ["bust-lines.dot"]
    text = (folder / "report.md").read_text()
    assert "not drawn" in text and "dot -Tpdf -O figures/bust-lines.dot" in text
    assert not links(folder)


@pytest.mark.parametrize("argv,words", [
    (["--sidebet", "no-such-bet"], "unknown side bet"),
    (["--sidebet", "bust", "--shoe", "4,4,4,4,4,4,4,4,4,16"], "not --shoe"),
    (["--sidebet", "bust", "--no-das"], "does not apply to a side bet"),
    (["--sidebet", "bust", "--decks", "2,x"], "decks"),
])
def test_bad_side_bet_reports_get_one_line_errors(tmp_path, capsys, argv, words):
    code = main(["report", *argv, "-o", str(tmp_path / "r"), "--no-pdf", "-q"])
    err = capsys.readouterr().err
    assert code == 2 and words in err and err.count("\n") == 1
    assert not (tmp_path / "r").exists()
