"""The README is a front door: short, the two set-up commands, links that lead somewhere, a picture that
is current; the names the README and the docs mention exist. (Their examples run in test_docs.py.)"""

from __future__ import annotations

import ast
import importlib
import re

import pytest
from docexamples import ROOT, python_blocks

import bjexact

README = ROOT / "README.md"
PAGES = sorted([*(ROOT / "docs").rglob("*.md"), README])


def test_the_readme_is_a_short_front_door():
    text = README.read_text()
    assert len(text.splitlines()) <= 250
    setup = text[text.index("## Set up"):text.index("## Five commands")]
    commands = [line.strip().split("#")[0].strip() for line in setup.splitlines() if line.startswith("    ")]
    assert commands == ["pip install -e . && bjexact report", "pip install -e '.[test]' && python -m pytest"]
    assert text.index("## Set up") < text.index("## Five commands") < text.index("## The documentation")
    assert len(re.findall(r"^\$ bjexact ", text, flags=re.M)) == 5


def test_every_link_of_the_readme_and_the_docs_leads_to_a_file():
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text()):
            if target.startswith(("http://", "https://", "#")):
                continue
            path = (page.parent / target.split("#")[0]).resolve()
            assert path.exists(), f"{page.relative_to(ROOT)} links to {target}, which does not exist"


def test_every_docs_page_is_linked_from_the_readme():
    text = README.read_text()
    for page in (ROOT / "docs").rglob("*.md"):
        if page.name != "api.md":
            assert str(page.relative_to(ROOT)) in text, f"the README does not link {page.relative_to(ROOT)}"


def test_the_readmes_chart_is_the_one_the_command_draws(tmp_path):
    """docs/images/chart.svg is what `bjexact chart --decks 6 --h17 --surrender late -o chart.svg` draws."""
    from bjexact.cli import main

    assert "bjexact chart --decks 6 --h17 --surrender late -o\nchart.svg" in README.read_text()
    assert main(["chart", "--decks", "6", "--h17", "--surrender", "late", "-o", str(tmp_path / "chart.svg")]) == 0
    committed = ROOT / "docs" / "images" / "chart.svg"
    assert committed.read_text() == (tmp_path / "chart.svg").read_text(), \
        "docs/images/chart.svg is stale: run bjexact chart --decks 6 --h17 --surrender late -o docs/images/chart.svg"


def test_every_name_the_examples_import_is_exported_by_the_package():
    imported = set()
    for page in PAGES:
        for _, block in python_blocks(page):
            for node in ast.walk(ast.parse(block)):
                if isinstance(node, ast.ImportFrom) and node.module == "bjexact":
                    imported.update(alias.name for alias in node.names)
                elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                      and node.value.id == "bjexact"):
                    imported.add(node.attr)
    assert imported
    missing = imported - set(bjexact.__all__)
    assert not missing, f"not in bjexact.__all__: {sorted(missing)}"
    assert imported <= set(dir(bjexact))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_package_name_a_page_mentions_exists(page):
    # `bjexact.x.y` in the text: modules import and names resolve
    for dotted in set(re.findall(r"`bjexact((?:\.[A-Za-z_]\w*)+)", page.read_text())):
        parts = dotted.strip(".").split(".")
        target, rest = None, []
        for i in range(len(parts), 0, -1):
            try:
                target = importlib.import_module("bjexact." + ".".join(parts[:i]))
                rest = parts[i:]
                break
            except ImportError:
                continue
        target = target or bjexact
        for name in rest if target is not bjexact else parts:
            target = getattr(target, name)


def test_every_exported_name_resolves():
    for name in bjexact.__all__:
        assert getattr(bjexact, name) is not None, name
    namespace: dict = {}
    exec("from bjexact import *", namespace)
    assert set(bjexact.__all__) <= set(namespace)


def test_the_docs_state_the_limits_of_the_constants():
    from bjexact.core.cards import MAX_DECKS
    from bjexact.dealer.batch import MAX_ENGINE_CARDS

    text = " ".join((ROOT / "docs" / "errors.md").read_text().split())
    assert (f"at most {MAX_DECKS:,} decks for the dealer's and the hit/stand tables, {MAX_ENGINE_CARDS:,} cards "
            f"({MAX_ENGINE_CARDS // 52:,} decks) for the whole round's engine") in text
