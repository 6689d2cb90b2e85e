"""Assertions for test suites: the same module as :mod:`bjexact.checks.testing`.

    from bjexact.testing import assert_dealer_table_matches
"""

import sys

from .checks import testing

sys.modules[__name__] = testing
