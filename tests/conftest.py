"""Fixtures shared by the test modules."""

from __future__ import annotations

import multiprocessing
import signal
from concurrent.futures import ProcessPoolExecutor

import pytest


def pytest_configure(config):
    # A run started in the background by a shell without job control (`cmd &`
    # in a script, nohup, some CI runners) inherits SIGINT ignored, and so do
    # the children it starts: Python then installs no KeyboardInterrupt
    # handler, and every Ctrl-C test waits for a signal that does nothing.
    # A handler here is reset to the default in every child at exec.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(scope="module")
def processes():
    """A pool of two worker processes, spawned: they import solvers afresh,
    as on another machine."""
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
        yield pool


#: The limit for a test not marked ``slow``, in seconds: such a test takes
#: under about 2 s on a quiet 2-core machine, so this leaves room for a loaded
#: one while catching a hang long before the 600 s of pyproject.toml.
QUICK_TIMEOUT = 120


def pytest_collection_modifyitems(config, items):
    # The slow tests first (in their order): on two workers the longest ones
    # then overlap the many short ones, instead of one of them running alone
    # at the end while the other worker idles.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    # Only with pytest-timeout installed (the test extra has it): without it
    # the marker would be an unknown one.
    if not config.pluginmanager.hasplugin("timeout"):
        return
    for item in items:
        if item.get_closest_marker("slow") is None and item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(QUICK_TIMEOUT))
