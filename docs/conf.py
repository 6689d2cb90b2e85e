"""Sphinx configuration of bjexact's documentation.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (``.ci/run`` does, with warnings
as errors). The pages are Markdown (MyST), their examples run by ``tests/test_docs.py``; the API reference
is generated from the package's docstrings (autodoc, numpy-style sections through napoleon).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SYMPY_GROUND_TYPES", "gmpy")

project = "bjexact"
author = "the bjexact authors"
copyright = "2026, the bjexact authors"
release = version = "0.1.0"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 4

autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": False}
autodoc_typehints = "description"
autodoc_preserve_defaults = True
napoleon_numpy_docstring = True
napoleon_google_docstring = False

html_theme = "alabaster"
html_title = "bjexact"
html_static_path: list[str] = []
html_theme_options = {"description": "Exact blackjack, as fractions", "page_width": "1100px"}
