"""Running the bjexact command from tests: in-process (with capsys) or as a real process."""

from __future__ import annotations

import subprocess
import sys

from bjexact.cli import main


def run(capsys, *argv):
    """Run the command in-process: (exit status, stdout, stderr)."""
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse usage errors
        status = exc.code
    out, err = capsys.readouterr()
    return status, out, err


def run_process(*argv, timeout: float = 120):
    """Run ``python -m bjexact ARGS`` as a separate process (exit status, output and traceback as a user sees them)."""
    return subprocess.run([sys.executable, "-m", "bjexact", *argv], capture_output=True, text=True, timeout=timeout)
