"""Golden outputs: each command in tests/golden/cases.txt prints exactly what was recorded.

The cases cover the documentation's tour and a spread of other invocations (every command, format and
naturals convention). An output that changes on purpose is recorded anew with
``python tests/test_golden.py --record`` (from the checkout's root); any other change is a regression.
"""

from __future__ import annotations

import io
import os
import shlex
import sys
from pathlib import Path

import pytest

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).parent.parent


def cases():
    """[(name, argv, stdin or None)] from cases.txt."""
    found = []
    for line in (GOLDEN / "cases.txt").read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        name, args, *stdin = (part.strip() for part in line.split("|"))
        found.append((name, shlex.split(args), stdin[0].replace("\\n", "\n") if stdin else None))
    return found


def render(status, out, err):
    """One file's text: the exit status, then standard output and standard error, each delimited."""
    return f"exit: {status}\n--- stdout\n{out}--- stderr\n{err}"


def run_case(argv, stdin, capsys, monkeypatch):
    from clirun import run

    monkeypatch.chdir(ROOT)
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    return render(*run(capsys, *argv))


@pytest.mark.parametrize(("name", "argv", "stdin"), cases(), ids=[case[0] for case in cases()])
def test_output_is_as_recorded(name, argv, stdin, capsys, monkeypatch):
    got = run_case(argv, stdin, capsys, monkeypatch)
    if os.environ.get("BJEXACT_RECORD_GOLDEN") == "1":
        (GOLDEN / f"{name}.out").write_text(got)
    assert got == (GOLDEN / f"{name}.out").read_text()


def test_every_recorded_output_has_a_case():
    names = {name for name, _, _ in cases()}
    assert len(names) == len(cases()), "two cases share a name"
    assert {path.stem for path in GOLDEN.glob("*.out")} == names


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    os.environ["BJEXACT_RECORD_GOLDEN"] = "1"
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))
