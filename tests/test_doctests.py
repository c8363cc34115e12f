"""The examples in the docstrings are run as tests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest
import solvers

#: Every module of the package but the compiled core and ``__main__`` (which
#: runs the CLI when imported): a new module's examples run with no list to edit.
MODULES = ["solvers"] + sorted(
    info.name
    for info in pkgutil.walk_packages(solvers.__path__, "solvers.")
    if info.name not in ("solvers._core", "solvers.__main__")
    # the old paths kept for one release (they only warn and re-export)
    and info.name not in ("solvers.checkpoint", "solvers.pegboard", "solvers.peg_games")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


@pytest.mark.slow
def test_the_examples_exist():
    # the knights subpackage documents its API with runnable examples
    knights = [name for name in MODULES if name.startswith("solvers.knights")]
    attempted = sum(doctest.testmod(importlib.import_module(name)).attempted for name in knights)
    assert attempted >= 15
    assert doctest.testmod(importlib.import_module("solvers")).attempted >= 2


ROOT = Path(__file__).resolve().parents[1]

#: The README's taste of each family and the documentation pages' sessions,
#: each file run as written in a namespace of its own.
WRITTEN = [ROOT / "README.md"] + sorted(
    p for p in (ROOT / "docs").glob("*.md") if ">>> " in p.read_text(encoding="utf-8")
)


@pytest.mark.parametrize(
    "path",
    # The README's taste is quick; the pages' sessions (a few seconds each)
    # also run in the docs' doctest build.
    [p if p.name == "README.md" else pytest.param(p, marks=pytest.mark.slow) for p in WRITTEN],
    ids=lambda p: p.relative_to(ROOT).as_posix(),
)
def test_the_written_examples(path):
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 1
    failed = f"{result.failed} of {result.attempted} examples failed in {path.name}"
    assert result.failed == 0, failed


def test_each_family_page_has_its_session():
    names = {p.stem for p in WRITTEN}
    assert {"README", "knights", "queens", "peg", "scale-out"} <= names
