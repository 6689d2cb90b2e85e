"""The former home of :mod:`bjexact.checks.verify`, kept so that old imports work: the same module."""

import sys

from .checks import verify

sys.modules[__name__] = verify
