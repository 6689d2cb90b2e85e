"""A strict reader of DOT text into pydot's objects, for the diagram tests: the DOT bjexact writes, parsed back.

pydot's own parser (pyparsing) reads a dealer chart in about a second; this one reads it in a few
milliseconds, so that every chart the tests read back is read whole. It follows Graphviz's grammar
(https://graphviz.org/doc/info/lang.html) and builds the graph the way pydot's parser does (the same
``pydot.Dot``, ``Subgraph``, ``Node`` and ``Edge``, names and values as written, quotes kept; a
``node``/``edge``/``graph [...]`` default as a node of that name; ``a=b`` as a graph attribute).
test_diagrams.py checks that it reads the charts as pydot's parser does. It is stricter than pydot's
parser: an ID is a Graphviz ID (a name, a numeral, a double-quoted string, an HTML string), and
anything else, a missing bracket or brace, or text after the graph, raises ``DotSyntaxError``.
"""

from __future__ import annotations

import re

import pydot

__all__ = ["DotSyntaxError", "read_dot"]


class DotSyntaxError(ValueError):
    """The text is not DOT (the message says where)."""


_TOKENS = re.compile(r"""
    (?P<skip>\s+|//[^\n]*|/\*.*?\*/|(?<![^\n])\#[^\n]*)
  | (?P<edgeop>->|--)
  | (?P<quoted>"(?:[^"\\]|\\.)*")
  | (?P<numeral>-?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?![A-Za-z_\x80-\U0010ffff]))
  | (?P<name>[A-Za-z_\x80-\U0010ffff][A-Za-z_0-9\x80-\U0010ffff]*)
  | (?P<html><)
  | (?P<punct>[{}\[\];,=:+])
""", re.S | re.X)

_KEYWORDS = {"strict", "graph", "digraph", "subgraph", "node", "edge"}


def _tokens(text: str) -> list[tuple[str, str, int]]:
    """(kind, text, offset) of each token; an ID's kind is "id"; a keyword's kind is its lower-case self."""
    found, at = [], 0
    while at < len(text):
        match = _TOKENS.match(text, at)
        if match is None:
            raise DotSyntaxError(f"unexpected {text[at:at + 20]!r} at offset {at}")
        kind, value = match.lastgroup, match.group()
        if kind == "html":  # <...> with nested angle brackets
            depth, end = 0, at
            while end < len(text):
                depth += {"<": 1, ">": -1}.get(text[end], 0)
                end += 1
                if depth == 0:
                    break
            if depth:
                raise DotSyntaxError(f"unterminated HTML string at offset {at}")
            found.append(("id", text[at:end], at))
            at = end
            continue
        if kind == "quoted":
            found.append(("id", value.replace("\\\r\n", "").replace("\\\n", ""), at))
        elif kind == "name" and value.lower() in _KEYWORDS:
            found.append((value.lower(), value, at))
        elif kind in ("name", "numeral"):
            found.append(("id", value, at))
        elif kind != "skip":
            found.append((value, value, at))
        at = match.end()
    return found


class _Reader:
    def __init__(self, text: str) -> None:
        self.tokens = _tokens(text)
        self.at = 0
        self.directed = False

    def peek(self, ahead: int = 0) -> str:
        k = self.at + ahead
        return self.tokens[k][0] if k < len(self.tokens) else "end"

    def take(self, *kinds: str) -> str:
        kind = self.peek()
        if kind not in kinds:
            where = self.tokens[self.at][2] if self.at < len(self.tokens) else "the end"
            raise DotSyntaxError(f"expected {' or '.join(kinds)}, found {kind!r} at offset {where}")
        self.at += 1
        return self.tokens[self.at - 1][1]

    def optional(self, kind: str) -> bool:
        if self.peek() == kind:
            self.at += 1
            return True
        return False

    def id(self) -> str:
        """An ID; double-quoted strings joined by '+' become one quoted string."""
        value = self.take("id")
        if value.startswith('"') and self.peek() == "+":
            parts = [value]
            while self.optional("+"):
                part = self.take("id")
                if not part.startswith('"'):
                    raise DotSyntaxError("'+' joins double-quoted strings only")
                parts.append(part)
            value = '"' + "".join(part[1:-1] for part in parts) + '"'
        return value

    def graph(self) -> pydot.Dot:
        strict = self.optional("strict")
        graph_type = self.take("graph", "digraph").lower()
        self.directed = graph_type == "digraph"
        name = self.id() if self.peek() == "id" else ""
        graph = pydot.Dot(name, graph_type=graph_type, strict=strict)
        graph.set_parent_graph(graph)
        self.take("{")
        self.statements(graph)
        self.take("}")
        return graph

    def statements(self, graph) -> None:
        while self.peek() != "}":
            self.statement(graph)
            self.optional(";")

    def attributes(self) -> dict[str, str | None]:
        """One or more ``[a=b, c=d; e]`` lists, merged."""
        found: dict[str, str | None] = {}
        self.take("[")
        while True:
            while self.peek() != "]":
                name = self.id()
                found[name] = self.id() if self.optional("=") else None
                if not self.optional(","):
                    self.optional(";")
            self.take("]")
            if self.peek() != "[":
                return found
            self.take("[")

    def node_id(self) -> str:
        parts = [self.id()]
        while len(parts) < 3 and self.optional(":"):
            parts.append(self.id())
        return ":".join(parts)

    def subgraph(self) -> pydot.Subgraph:
        keyword = self.optional("subgraph")
        name = self.id() if keyword and self.peek() == "id" else ""
        subgraph = pydot.Subgraph(name)
        subgraph.obj_dict["show_keyword"] = keyword
        self.take("{")
        self.statements(subgraph)
        self.take("}")
        return subgraph

    def endpoint(self) -> str | pydot.Subgraph:
        return self.subgraph() if self.peek() in ("subgraph", "{") else self.node_id()

    def statement(self, graph) -> None:
        kind = self.peek()
        if kind in ("graph", "node", "edge"):
            self.at += 1
            graph.add_node(pydot.Node(kind, **self.attributes()))
            return
        if kind == "id" and self.peek(1) == "=":
            name = self.id()
            self.take("=")
            graph.obj_dict["attributes"][name] = self.id()
            return
        first = self.endpoint()
        if self.peek() not in ("->", "--"):
            if isinstance(first, pydot.Subgraph):
                graph.add_subgraph(first)
            else:
                graph.add_node(pydot.Node(first, **(self.attributes() if self.peek() == "[" else {})))
            return
        points = [first]
        while self.peek() in ("->", "--"):
            op = self.take("->", "--")
            if (op == "->") != self.directed:
                raise DotSyntaxError(f"edge operator {op} in a {'digraph' if self.directed else 'graph'}")
            points.append(self.endpoint())
        if any(isinstance(point, pydot.Subgraph) for point in points):
            raise DotSyntaxError("a subgraph as an edge's end is not read here")
        attributes = self.attributes() if self.peek() == "[" else {}
        for a, b in zip(points, points[1:]):
            graph.add_edge(pydot.Edge(a, b, **attributes))


def read_dot(text: str) -> pydot.Dot:
    """The one graph of ``text``, as pydot's objects (see the module's docstring)."""
    reader = _Reader(text)
    graph = reader.graph()
    if reader.peek() != "end":
        raise DotSyntaxError(f"text after the graph at offset {reader.tokens[reader.at][2]}")
    return graph
