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
            assert re.fullmatch(pattern, repr(value)), (ast.unparse(statement), repr(value), expected)
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
