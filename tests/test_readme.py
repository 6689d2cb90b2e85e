"""The README's Python examples run as written and print what their comments say.

In each ```python block, a line that is an expression followed by a comment shows the value's
repr in that comment (``...`` stands for any text); the blocks import only from ``bjexact``,
whose ``__all__`` and ``dir()`` list every name they use.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

import bjexact

README = Path(__file__).resolve().parent.parent / "README.md"


def python_blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def comments(source: str) -> dict[int, str]:
    """Line number -> the comment's text, for every comment in ``source``."""
    found = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found[token.start[0]] = token.string[1:].strip()
    return found


def test_the_readme_has_python_examples():
    assert len(python_blocks()) >= 3


@pytest.mark.parametrize("block", python_blocks(), ids=lambda b: b.splitlines()[-1][:40])
def test_readme_example_runs_and_shows_what_it_says(block):
    pytest.importorskip("pandas") if "to_pandas" in block else None
    tree = ast.parse(block)
    notes = comments(block)
    namespace: dict = {}
    checked = 0
    for statement in tree.body:
        code = compile(ast.Module([statement], []), "<README>", "exec")
        if isinstance(statement, ast.Expr) and statement.end_lineno in notes:
            value = eval(compile(ast.Expression(statement.value), "<README>", "eval"), namespace)
            expected = notes[statement.end_lineno]
            pattern = ".*".join(re.escape(part) for part in expected.split("..."))
            assert re.fullmatch(pattern, repr(value), re.S), (ast.unparse(statement), repr(value), expected)
            checked += 1
        else:
            exec(code, namespace)
    assert checked, "a README example shows no value"


def test_every_name_the_examples_import_is_exported_by_the_package():
    imported = set()
    for block in python_blocks():
        for node in ast.walk(ast.parse(block)):
            if isinstance(node, ast.ImportFrom):
                assert node.module == "bjexact", f"the README imports from {node.module}, not from bjexact"
                imported.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "bjexact":
                imported.add(node.attr)
    assert imported
    missing = imported - set(bjexact.__all__)
    assert not missing, f"not in bjexact.__all__: {sorted(missing)}"
    assert imported <= set(dir(bjexact))
    for name in imported:
        assert getattr(bjexact, name) is not None


def test_every_package_name_the_readme_mentions_exists():
    # `bjexact.x.y` and `bjexact.name` in the text: modules import and names resolve
    import importlib

    for dotted in set(re.findall(r"`bjexact((?:\.[A-Za-z_]\w*)+)", README.read_text())):
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


def quick_start_commands() -> list[list[str]]:
    """The ``bjexact ...`` lines of the README's quick start, as argument lists (comments dropped)."""
    text = README.read_text()
    block = text[text.index("## Quick start"):text.index("## Contents")]
    return [line.split("#")[0].split()[1:] for line in block.splitlines() if line.startswith("bjexact ")]


def test_the_readme_opens_with_a_short_quick_start_then_contents():
    text = README.read_text()
    quick = text[text.index("## Quick start"):text.index("## Contents")]
    assert text.index("## Quick start") < text.index("## Contents") < text.index("## Set up")
    code = [line for line in quick.split("\n\n")[1].splitlines() if line and not line.startswith("```")]
    assert len(code) <= 10  # commands and a notebook snippet, ten lines at most
    assert [argv[0] for argv in quick_start_commands()] == ["edge", "hand", "chart", "report"]
    # the game people play first, the dealer's tour after it
    assert text.index("### The full game") < text.index("### The player") < text.index("### The dealer")
    setup = text[text.index("## Set up"):text.index("## A tour")]
    assert "pip install -e . && bjexact report " in setup and "pip install -e '.[test]' && python -m pytest" in setup


def test_quick_start_commands_parse_and_the_fast_one_runs(capsys):
    from bjexact.cli import build_parser, main

    parser = build_parser()
    for argv in quick_start_commands():
        args = parser.parse_args(argv)
        assert args.run is not None
    hand = next(argv for argv in quick_start_commands() if argv[0] == "hand")
    assert main(hand) == 0 and "split" in capsys.readouterr().out


def test_the_readme_states_the_limits_of_the_constants():
    from bjexact.core.cards import MAX_DECKS
    from bjexact.dealer.batch import MAX_ENGINE_CARDS

    text = " ".join(README.read_text().split())
    assert (f"at most {MAX_DECKS:,} decks for the dealer's and the hit/stand tables, {MAX_ENGINE_CARDS:,} cards "
            f"({MAX_ENGINE_CARDS // 52:,} decks) for the whole round's engine") in text
