"""Sphinx configuration for the solvers documentation site.

Build it with ``python -m sphinx -W -b html docs docs/_build/html`` (the
``docs`` extra installs what it needs); ``-b doctest`` runs the examples of
the pages and of the API reference.  The pages here (``*.md``) are the home of
the long-form text (the families, how it counts, the performance tables,
memory, scale-out, the layout, contributing); the README welcomes and links
to them.
"""

from __future__ import annotations

import solvers  # the installed package: autodoc documents what users get

# No network at build time (CI machines reach PyPI and crates.io only), so no
# intersphinx: links to Python's own docs are written out where needed.

project = "solvers"
author = "the solvers developers"
copyright = "2026, the solvers developers"
release = solvers.__version__
version = release

extensions = [
    "myst_nb",  # Markdown pages (MyST) and the executed notebook in examples/
    "sphinx.ext.autodoc",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
]

source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "pictures/*.html", "**.ipynb_checkpoints"]
# Headings are link targets across pages ([Memory](memory.md#memory)).
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence"]

# The notebook runs on every build, and a failing cell fails the build.
nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_timeout = 300

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

# The examples of a docstring see its module's names when pytest runs them
# (doctest.testmod); here they see the package's public names and modules.
doctest_global_setup = """
import solvers
from solvers import *
from solvers import cover, distributed, knights, nqueens, peg
from solvers.cover import piece_set, PIECE_SETS
from solvers.peg import board as pegboard
from solvers.distributed import *
from solvers._engine._plan import splittables
"""

html_theme = "pydata_sphinx_theme"
html_title = f"solvers {release}"
html_static_path: list[str] = []
html_theme_options = {"navigation_with_keys": False, "show_toc_level": 2}
# The pages are one level deep: the top bar lists them, so no empty left sidebar.
html_sidebars: dict[str, list[str]] = {"**": []}
