"""Timing of the reference reports (``bjexact report --reference``), as one whole process.

Run:  python benchmarks/report.py [--no-pdf]

Regenerates every reference report into a temporary directory (nothing in the
repository changes) and prints the wall time and the processor time of the process
and its children (LaTeX, Graphviz). The processor time is the fairer measure on a
shared machine. Target: the one-command set-up stays within 3 minutes of processor
time, PDFs included (about 2 minutes measured: the full games of 2, 6 and 8 decks
take some 12 to 16 s each, their hit/stand games most of the rest).
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_SECONDS = 180.0


def main() -> int:
    extra = ["--no-pdf"] if "--no-pdf" in sys.argv[1:] else []
    with tempfile.TemporaryDirectory(prefix="bjexact-reports-") as tmp:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "bjexact", "report", "--reference", str(Path(tmp) / "reports"),
                        "--quiet", *extra], check=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    verdict = "ok" if cpu <= TARGET_SECONDS else "over target"
    print(f"reference reports{' (no PDF)' if extra else ''}: wall {wall:.1f} s, processor {cpu:.1f} s "
          f"(target {TARGET_SECONDS:.0f} s): {verdict}")
    return 0 if cpu <= TARGET_SECONDS else 1


if __name__ == "__main__":
    sys.exit(main())
