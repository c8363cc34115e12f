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
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


@pytest.mark.slow
def test_the_examples_exist():
    # the knights module documents its API with runnable examples
    knights = importlib.import_module("solvers.knights")
    assert doctest.testmod(knights).attempted >= 15
    assert doctest.testmod(importlib.import_module("solvers")).attempted >= 2


@pytest.mark.slow
def test_the_readme_examples():
    # The README's Python session is run as written.
    readme = Path(__file__).resolve().parents[1] / "README.md"
    result = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10
    assert result.failed == 0, f"{result.failed} of {result.attempted} README examples failed"
