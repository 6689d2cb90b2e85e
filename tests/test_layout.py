"""The package's import graph: layers import only downwards and there are no cycles.

The graph is read from the source (every ``import`` statement, at module level or inside a
function), so an import hidden in a function counts as much as one at the top.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parent.parent / "bjexact"

# From the bottom up. A module may import from its own layer and the layers before it.
LAYERS = ("base", "core", "chain", "dealer", "player", "sidebets", "symbolic", "checks", "render", "apps", "counting",
          "web", "cli")
# modules directly in bjexact/ that belong to the bottom layer (no imports of other layers)
BASE = {"bjexact.collector", "bjexact.errors", "bjexact.files", "bjexact.progress"}
# the package itself and its entry point
FACADES = {"bjexact", "bjexact.__main__"}
# the layers that must not know about presentation, checking or applications
DOMAIN = ("core", "chain", "dealer", "player", "sidebets")
ABOVE_DOMAIN = ("checks", "render", "apps", "counting", "web", "cli")


@cache
def parsed(path: Path) -> ast.Module:
    """The syntax tree of ``path``, parsed once for every test of the module (the trees are only read)."""
    return ast.parse(path.read_text())


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """The bjexact modules that ``path`` imports, resolved to module names."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(parsed(path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "bjexact")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "bjexact":
                continue
            for alias in node.names:  # ``from . import x`` may name a module
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in MODULES else target)
    return found


def string_imports(path: Path) -> set[str]:
    """The bjexact modules that ``path`` imports by name at run time: ``importlib.import_module``
    or ``__import__`` called with a string (or f-string) that begins with ``bjexact``."""
    found = set()
    for node in ast.walk(parsed(path)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        called = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if called not in ("import_module", "__import__"):
            continue
        argument = node.args[0]
        if isinstance(argument, ast.JoinedStr):  # f"bjexact.render.{name}": its constant beginning
            first = argument.values[0] if argument.values else None
            argument = first if isinstance(first, ast.Constant) else argument
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
            if argument.value.split(".")[0] == "bjexact":
                found.add(argument.value.rstrip("."))
    return found


MODULES = {module_name(path): path for path in PACKAGE.rglob("*.py")}


@cache
def graph() -> nx.DiGraph:
    """The import graph, built once for every test of the module (the tests only read it)."""
    g = nx.DiGraph()
    g.add_nodes_from(MODULES)
    for name, path in MODULES.items():
        for target in imports(path) | string_imports(path):
            assert target in MODULES, f"{name} imports {target}, which does not exist"
            if target != name:
                g.add_edge(name, target)
    return g


def layer(name: str) -> str | None:
    if name in BASE:
        return "base"
    if name in FACADES:
        return None
    return name.split(".")[1]


def test_every_module_is_in_a_layer():
    for name in MODULES:
        assert name in FACADES or layer(name) in LAYERS, f"{name} is in no layer"


def test_the_import_graph_has_no_cycles():
    g = graph()
    cycles = list(nx.simple_cycles(g))
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c + [c[0]]) for c in cycles[:5])


def test_domain_layers_do_not_import_presentation_checks_apps_or_the_command_line():
    bad = [(a, b) for a, b in graph().edges
           if layer(a) in DOMAIN and layer(b) in ABOVE_DOMAIN]
    assert not bad, "upward imports: " + ", ".join(f"{a} -> {b}" for a, b in bad)


def test_layers_import_only_downwards():
    bad = [(a, b) for a, b in graph().edges
           if layer(a) is not None and layer(b) is not None and LAYERS.index(layer(b)) > LAYERS.index(layer(a))]
    assert not bad, "upward imports: " + ", ".join(f"{a} -> {b}" for a, b in bad)


def test_modules_do_not_import_the_package_by_name_strings():
    # importlib.import_module("bjexact.render.x") hides an import from the reader and the type checker
    found = {name: sorted(string_imports(path)) for name, path in MODULES.items() if name not in FACADES}
    found = {name: targets for name, targets in found.items() if targets}
    assert not found, found


def test_string_imports_are_found():
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "m.py"
        path.write_text("import importlib\n"
                        "def f(name):\n"
                        "    importlib.import_module('bjexact.render.symbolic')\n"
                        "    return importlib.import_module(f'bjexact.render.{name}')\n")
        assert string_imports(path) == {"bjexact.render.symbolic", "bjexact.render"}


def test_nothing_imports_the_old_module_names():
    users = [(a, b) for a, b in graph().edges if b in FACADES - {"bjexact"} and a not in FACADES]
    assert not users, ", ".join(f"{a} -> {b}" for a, b in users)


def private_imports() -> list[tuple[str, str, str]]:
    """(importer, module, name) for every ``_name`` imported from another module."""
    found = []
    for name, path in MODULES.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(parsed(path)):
            if not isinstance(node, ast.ImportFrom) or not node.level:
                continue
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__") and target != name:
                    found.append((name, target, alias.name))
    return found


def test_private_names_stay_inside_their_module():
    assert not private_imports(), ", ".join(f"{a} imports {b}.{n}" for a, b, n in private_imports())


def test_imports_of_the_package_inside_functions_are_only_in_the_command_line():
    # function-level imports are for optional heavy dependencies (sympy, pydot, matplotlib, gymnasium);
    # the command line's modules import lazily so that `bjexact --help` stays fast
    inside = []
    for name, path in MODULES.items():
        if name.startswith("bjexact.cli") or name in FACADES:
            continue
        tree = parsed(path)
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for node in ast.walk(function):
                    if isinstance(node, ast.ImportFrom) and node.level:
                        inside.append(f"{name}:{node.lineno}")
    assert not inside, inside


def test_the_former_module_names_are_gone():
    # the 0.1 package's names (bjexact.rules, bjexact.verify, ...) no longer import anything
    import importlib.machinery

    import bjexact

    for former in ("rules", "cards", "solve", "game", "verify", "simcheck", "testing"):
        assert importlib.machinery.PathFinder.find_spec(f"bjexact.{former}", [str(PACKAGE)]) is None, former
    assert not any(type(finder).__module__ == "bjexact" for finder in __import__("sys").meta_path)
    assert type(bjexact).__module__ != "bjexact"


# Underscore names of the standard library and of IPython that the package may use on objects it
# does not own: they are public APIs despite the underscore.
FOREIGN_UNDERSCORE_APIS = frozenset({
    "_replace", "_asdict", "_fields", "_make",  # collections.namedtuple
    "_getframe",  # sys
    "_option_string_actions", "_actions", "_subparsers", "_group_actions",  # argparse parsers
    "_repr_html_", "_repr_markdown_", "_repr_svg_", "_repr_latex_", "_repr_png_",  # IPython display
})


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_definitions(tree: ast.AST) -> set[str]:
    """The ``_names`` a module defines: its functions, classes and methods, module and class
    variables, and attributes it assigns (``self._x = ...``)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
        elif isinstance(node, (ast.Name, ast.Attribute)) and isinstance(node.ctx, ast.Store):
            found.add(node.id if isinstance(node, ast.Name) else node.attr)
    return {name for name in found if _is_private(name)}


def foreign_private_uses(trees: dict[str, ast.AST]) -> list[str]:
    """``module:line name`` for every read, call or override of a ``_name`` that another module of the
    package defines and this module does not: ``obj._name`` on any object (``self`` included, so a
    subclass in another module calling its base's private method counts), and a method ``_name`` that
    overrides a private method of a base class defined in another module."""
    defined = {name: private_definitions(tree) for name, tree in trees.items()}
    classes: dict[str, tuple[str, set[str]]] = {}  # class name -> (module, its private methods)
    for name, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                methods = {f.name for f in node.body
                           if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_private(f.name)}
                classes[node.name] = (name, methods)
    found = []
    for name, tree in trees.items():
        elsewhere = set().union(*(d for other, d in defined.items() if other != name))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _is_private(node.attr):
                if node.attr in FOREIGN_UNDERSCORE_APIS or node.attr in defined[name]:
                    continue
                if node.attr in elsewhere:
                    found.append(f"{name}:{node.lineno} .{node.attr}")
            elif isinstance(node, ast.ClassDef):
                for base in node.bases:
                    base_name = base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")
                    home, methods = classes.get(base_name, (name, set()))
                    if home == name:
                        continue
                    for method in node.body:
                        if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)) and method.name in methods:
                            found.append(f"{name}:{method.lineno} overrides {base_name}.{method.name}")
    return found


def test_modules_do_not_reach_into_each_others_private_attributes():
    # the package's modules, and the benchmarks and examples that use it as its users do
    trees = {name: parsed(path) for name, path in MODULES.items()}
    for folder in ("benchmarks", "examples"):
        for path in sorted((PACKAGE.parent / folder).rglob("*.py")):
            trees[f"{folder}/{path.relative_to(PACKAGE.parent / folder)}"] = parsed(path)
    uses = foreign_private_uses(trees)
    assert not uses, ", ".join(uses)


def test_foreign_private_uses_are_found():
    owner = ast.parse("class Base:\n"
                      "    def __init__(self):\n"
                      "        self._table = {}\n"
                      "    def _look(self, x):\n"
                      "        return self._table[x]\n")
    user = ast.parse("import collections, sys\n"
                     "from owner import Base\n"
                     "class Child(Base):\n"
                     "    def _look(self, x):\n"
                     "        return self._table\n"
                     "    def own(self):\n"
                     "        self._mine = sys._getframe(0)\n"
                     "        return self._mine, collections.namedtuple('P', 'a')(1)._replace(a=2)\n"
                     "def peek(base):\n"
                     "    return base._table, base.__class__\n")
    assert foreign_private_uses({"owner": owner, "user": user}) == [
        "user:4 overrides Base._look", "user:5 ._table", "user:10 ._table"]
