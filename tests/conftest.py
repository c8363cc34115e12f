"""Fixtures shared by the test modules."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor

import pytest


@pytest.fixture(scope="module")
def processes():
    """A pool of two worker processes, spawned: they import solvers afresh,
    as on another machine."""
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool
