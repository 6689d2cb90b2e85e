"""The former home of :mod:`bjexact.checks.simcheck`, kept so that old imports work: the same module."""

import sys

from .checks import simcheck

sys.modules[__name__] = simcheck
