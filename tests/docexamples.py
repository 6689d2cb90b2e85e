"""The examples of the README and the documentation, as the tests run them.

Two kinds of example are read from a Markdown page's fenced blocks:

- ``python`` blocks: run statement by statement; a line that is an expression followed by a comment
  shows the value's repr in that comment (``...`` in it stands for any text);
- console blocks (fenced with ``console`` or nothing) whose lines start with ``$ ``: each command is run
  and its output (standard output, then standard error) must begin with the lines below it, where a
  line ``...`` stands for any number of lines and ``...`` within a line for any text (an example may
  leave out the end of a long output). A command exits 0, or 1 when its answer is "no"; one whose
  output shows an ``error:`` line exits 2. A command continues
  on the next line after a backslash. A block preceded by the comment ``<!-- slow example: REASON -->``
  is parsed only (its ``bjexact`` commands' options must be accepted): it takes minutes or a cluster.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SLOW = re.compile(r"<!-- slow example: [^>]+-->\s*$")


@dataclass(frozen=True)
class Command:
    """One ``$ `` command of a console block and the output shown under it."""

    line: int
    text: str
    shown: tuple[str, ...]


@dataclass(frozen=True)
class Session:
    """A console block: its commands, run in order in one directory (a later one may read what an
    earlier one wrote)."""

    page: str
    line: int
    commands: tuple[Command, ...]
    slow: bool

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


def blocks(path: Path, kinds: tuple[str, ...]) -> list[tuple[int, str, bool]]:
    """The fenced blocks of ``path`` whose info string is one of ``kinds``: (first line, text, slow)."""
    lines = path.read_text().splitlines()
    found = []
    k = 0
    while k < len(lines):
        fence = re.match(r"^(```+)(\S*)\s*$", lines[k])
        if not fence:
            k += 1
            continue
        end = next((j for j in range(k + 1, len(lines)) if lines[j].startswith(fence.group(1))), len(lines))
        if fence.group(2) in kinds:
            before = next((lines[j] for j in range(k - 1, -1, -1) if lines[j].strip()), "")
            found.append((k + 2, "\n".join(lines[k + 1:end]) + "\n", bool(SLOW.match(before))))
        k = end + 1
    return found


def python_blocks(path: Path) -> list[tuple[int, str]]:
    return [(line, text) for line, text, _ in blocks(path, ("python",))]


def sessions(path: Path) -> list[Session]:
    """The console blocks of ``path`` that start with a ``$ `` command, each command with its output."""
    page = str(path.relative_to(ROOT))
    found: list[Session] = []
    for first, text, slow in blocks(path, ("console", "")):
        lines = text.splitlines()
        if not lines or not lines[0].startswith("$ "):
            continue
        commands = []
        k = 0
        while k < len(lines):
            start = k
            command = lines[k][2:]
            while command.endswith("\\") and k + 1 < len(lines):
                k += 1
                command = command[:-1] + " " + lines[k].strip()
            k += 1
            shown = []
            while k < len(lines) and not lines[k].startswith("$ "):
                shown.append(lines[k])
                k += 1
            commands.append(Command(first + start, command, tuple(shown)))
        found.append(Session(page, first, tuple(commands), slow))
    return found


def output_pattern(shown: tuple[str, ...]) -> re.Pattern[str]:
    """The regular expression the output must begin with: ``...`` lines any lines, ``...`` in a line any text."""
    parts = []
    for line in shown:
        if line.strip() == "...":
            parts.append(r"(?:[^\n]*\n)*?")
        else:
            parts.append(".*?".join(re.escape(piece) for piece in line.rstrip().split("...")) + r"[ \t]*\n")
    return re.compile("".join(parts))


def output_matches(shown: tuple[str, ...], output: str) -> bool:
    text = "\n".join(line.rstrip() for line in output.splitlines()) + "\n"
    if not shown:
        return True
    return output_pattern(shown).match(text) is not None


def comments(source: str) -> dict[int, str]:
    """Line number -> the comment's text, for every comment in ``source``."""
    found = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found[token.start[0]] = token.string[1:].strip()
    return found


def run_python_block(block: str, where: str) -> int:
    """Run ``block``; each expression with a comment must show that repr. The number of values checked."""
    tree = ast.parse(block)
    notes = comments(block)
    namespace: dict = {}
    checked = 0
    for statement in tree.body:
        if isinstance(statement, ast.Expr) and statement.end_lineno in notes:
            value = eval(compile(ast.Expression(statement.value), where, "eval"), namespace)
            expected = notes[statement.end_lineno]
            pattern = ".*".join(re.escape(part) for part in expected.split("..."))
            assert re.fullmatch(pattern, repr(value), re.S), (ast.unparse(statement), repr(value), expected)
            checked += 1
        else:
            exec(compile(ast.Module([statement], []), where, "exec"), namespace)
    return checked
