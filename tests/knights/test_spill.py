"""The frontier count within a memory budget: ``memory=`` spills layers to
files in a directory of their own inside ``spill=``, and the answer is the
one counted in memory (and the published one); bad budgets and directories
are refused with a clear error."""

from __future__ import annotations

import functools
import os

import pytest
import solvers
from engine.test_memory import MB, limited, needs_prlimit

# Directed open tours from every square (OEIS A165134) and from a corner
# (checked against the search in test_frontier.py); 4x30 has counts past
# 64 bits, so the wide counts spill too.
CASES = [
    ((5, 5), "all", 1728),
    pytest.param((6, 6), "all", 6_637_920, marks=pytest.mark.slow),
    pytest.param((6, 6), (0, 0), None, marks=pytest.mark.slow),
    ((4, 30), "all", None),
]


@functools.cache
def in_memory(rows: int, cols: int, start: object) -> int:
    return solvers.count_tours(rows, cols, start=start, method="frontier")


@pytest.mark.parametrize(("size", "start", "published"), CASES)
@pytest.mark.parametrize("memory", ["1MiB", 6 * 2**20])
def test_a_budget_gives_the_same_count(size, start, published, memory, tmp_path):
    rows, cols = size
    want = in_memory(rows, cols, start)
    if published is not None:
        assert want == published
    got = solvers.count_tours(
        rows, cols, start=start, method="frontier", memory=memory, spill=tmp_path, threads=2
    )
    assert got == want
    assert os.listdir(tmp_path) == []  # the spill directory went with the count


@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_a_small_budget_really_spills(tmp_path):
    # The bench reports the bytes written: here through the private core, to
    # see that a 1 MiB budget wrote files and the default wrote none.
    from solvers import _core

    *_, spilled = _core.count_tours_frontier(
        (6, 6, None), None, False, _core.RunOptions(2, memory=2**20)
    )
    assert spilled > MB
    *_, spilled = _core.count_tours_frontier((6, 6, None), None, False, _core.RunOptions(2))
    assert spilled == 0


def test_a_timeout_while_spilling_leaves_no_files(tmp_path):
    with pytest.raises(TimeoutError):
        solvers.count_tours(
            6, 7, start="all", method="frontier", memory="2MiB", spill=tmp_path, timeout=1.5
        )
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    ("memory", "error", "words"),
    [
        ("4XB", ValueError, "units"),
        ("abc", ValueError, "'4GB'"),
        ("-1GB", ValueError, "'4GB'"),
        ("inf GB", ValueError, "'4GB'"),
        (0, ValueError, "at least"),
        (1000, ValueError, "at least"),
        (1.5, TypeError, "memory"),
        ([1], TypeError, "memory"),
    ],
)
def test_bad_budgets_are_refused(memory, error, words):
    with pytest.raises(error, match=words):
        solvers.count_tours(5, 5, method="frontier", memory=memory)


def test_bad_spill_directories_are_refused(tmp_path):
    with pytest.raises(ValueError, match="existing directory"):
        solvers.count_tours(5, 5, method="frontier", memory="1GB", spill=tmp_path / "nope")
    with pytest.raises(TypeError, match="directory path"):
        solvers.count_tours(5, 5, method="frontier", memory="1GB", spill=3)
    with pytest.raises(ValueError, match="methods that take memory=: frontier, pairs"):
        solvers.count_tours(5, 5, method="search", memory="1GB")


@needs_prlimit
@pytest.mark.slow
def test_what_does_not_fit_in_memory_fits_within_an_automatic_budget():
    # 6x7 from every square does not fit a 200 MB address-space limit all in
    # memory (spill=False: a MemoryError about step 28 of 42; 325 MB before
    # the pruning of states without a completion narrowed its layers, and
    # 6x6 fits since the mirror merging); the plain call budgets from what
    # the limit leaves (as memory="auto" does), so it spills and counts (779,938,932, the
    # published figure of test_frontier_checkpoint.py). (Explicit budgets
    # spill and count in test_a_budget_gives_the_same_count.)
    call = 'solvers.count_tours(6, 7, start="all", method="frontier"{})'
    report = limited(call.format(", spill=False"), 200 * MB)
    assert report.startswith("raised MemoryError"), report
    report = limited(call.format(""), 200 * MB, timeout=300)
    assert report == "returned 779938932", report


def test_an_automatic_budget_is_a_share_of_the_available_memory():
    from solvers import _core
    from solvers._engine import _validate

    budget = _core.RunOptions(memory="auto").budget
    assert _validate.MIN_MEMORY <= budget <= _core.available_memory()
    assert solvers.count_tours(5, 5, start="all", method="frontier", memory="auto") == 1728
