"""Every example of the documentation (``docs/``) and of the README runs and shows what the page says.

See :mod:`docexamples` for how the examples are read. Plain ``bjexact`` commands run in this process
(their standard output, then standard error); commands with pipes or other programs run in ``bash``.
Both run in a fresh directory holding the repository's ``tests/`` and ``examples/`` (as links), so
that they read the files the pages name and write theirs where nothing else is.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from docexamples import ROOT, Session, output_matches, python_blocks, run_python_block, sessions

from bjexact.cli import build_parser, main

PAGES = sorted([*(ROOT / "docs").rglob("*.md"), ROOT / "README.md"])
SESSIONS = [session for page in PAGES for session in sessions(page)]
SHELL = re.compile(r"[|<>;&`$()*]|^(?!bjexact )")
# a command drawing a picture through Graphviz's dot (a diagram or heat map written as SVG, PNG or PDF)
DRAWS = re.compile(r"^bjexact (graph|matrix) .*-o \S+\.(svg|png|pdf)\b")


def test_the_pages_have_examples():
    assert sum(len(s.commands) for s in SESSIONS) >= 40 and sum(len(python_blocks(page)) for page in PAGES) >= 6
    assert sum(not s.slow for s in SESSIONS) >= 2 * sum(s.slow for s in SESSIONS)


@pytest.mark.parametrize("page, line, block",
                         [(page, line, block) for page in PAGES for line, block in python_blocks(page)],
                         ids=lambda v: v if isinstance(v, int) else str(v.relative_to(ROOT)) if isinstance(v, Path)
                         else "")
def test_python_example_runs_and_shows_what_it_says(page, line, block):
    if "to_pandas" in block:
        pytest.importorskip("pandas")
    assert run_python_block(block, f"{page.name}:{line}"), "an example shows no value"


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    for name in ("tests", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _bash(command: str, cwd: Path) -> tuple[int, str]:
    """``command`` in bash (a pipeline fails where one of its commands does), with this Python's
    ``bjexact`` first on the path: its exit status and output."""
    scripts = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{scripts}{os.pathsep}{os.environ.get('PATH', '')}", COLUMNS="120")
    assert shutil.which("bjexact", path=env["PATH"]), "the bjexact command is not installed (pip install -e .)"
    done = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("session", [s for s in SESSIONS if not s.slow], ids=lambda s: s.name)
def test_command_example_prints_what_the_page_shows(session: Session, workdir, capsys):
    if shutil.which("dot") is None and any(DRAWS.search(command.text) for command in session.commands):
        pytest.skip("draws with Graphviz's dot, which is not installed (CI installs it)")
    for command in session.commands:
        if SHELL.search(command.text.split(" #")[0]):
            status, output = _bash(command.text, workdir)
        else:
            try:
                status = main(shlex.split(command.text, comments=True)[1:])
            except SystemExit as stop:  # argparse's errors: the page shows their one line
                status = stop.code
            captured = capsys.readouterr()
            output = captured.out + captured.err
        where = f"{session.page}:{command.line}: {command.text}\n--- printed:\n{output}"
        assert output_matches(command.shown, output), where
        # bad input exits 2, the example showing its error; an answer exits 0, or 1 when it is "no"
        assert status == 2 if any("error:" in line for line in command.shown) else status in (0, 1), where


@pytest.mark.parametrize("session", [s for s in SESSIONS if s.slow], ids=lambda s: s.name)
def test_slow_command_examples_are_accepted(session: Session):
    """Examples that take many seconds or a cluster: the options they show are the command's options."""
    for command in session.commands:
        words = shlex.split(command.text.split("|")[0], comments=True)
        if words[0] != "bjexact":
            continue
        assert build_parser().parse_args(words[1:]).run is not None
