"""Sphinx configuration for the solvers documentation site.

Build it with ``python -m sphinx -W -b html docs docs/_build/html`` (the
``docs`` extra installs what it needs); ``-b doctest`` runs the examples of the
API reference.  The long-form sections (the families, how it counts, the
performance tables, memory, scale-out) are written once, in the README, and
:mod:`readme_pages` cuts them into ``docs/_readme/*.md`` for the pages here to
include, so the site and the README never disagree.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import readme_pages  # noqa: E402  (needs the path above)
import solvers  # noqa: E402  (the installed package: autodoc documents what users get)

# No network at build time (CI machines reach PyPI and crates.io only), so no
# intersphinx: links to Python's own docs are written out where needed.

readme_pages.write(HERE.parent / "README.md", HERE / "_readme")

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
exclude_patterns = ["_build", "_readme", "pictures/*.html", "**.ipynb_checkpoints"]
# The README's headings are link targets across pages ([Memory](memory.md#memory)).
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
from solvers import distributed, knights, nqueens, peg
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
