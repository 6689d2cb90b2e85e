"""A command run as a process and measured: wall time, processor time (user + sys, the fair measure
on a busy machine) and peak memory (the largest resident set of its processes). Shared by the
benchmarks that time a whole `bjexact` command."""

from __future__ import annotations

import os
import resource
import subprocess
import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Measured:
    done: subprocess.CompletedProcess[str]
    wall: float
    cpu: float
    peak_mb: float


def run_measured(command: list[str]) -> Measured:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=os.environ.copy())
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return Measured(done, wall, cpu, after.ru_maxrss / 1024)  # ru_maxrss: kB on Linux
