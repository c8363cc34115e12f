"""Exact cover past 4,096 primary items, where the search chooses its items by
a tree instead of a scan (issue 46: ``find_cover`` was quadratic in the items).

The oracles are independent of the search: tilings of 2 x n strips of dominoes
are Fibonacci numbers (OEIS A000045: F(n + 1) for 2 x n), a disjoint union of
blocks has the product of its blocks' counts, and every cover is checked by
:func:`solvers.is_cover` or the tests' own checker.  How fast these calls are is measured by
``benches/strip_bench.py``, never here.
"""

from __future__ import annotations

import time

import cover_oracle
import pytest
import solvers
from hang import HANG_GUARD

#: The search chooses by the tree from this many primary items on (src/cover/cells.rs).
TREE_ITEMS = 4096


def fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


def strip(n: int, tag: object = None) -> list[tuple[tuple[object, int, int], ...]]:
    """The dominoes of a 2 x n strip, its cells named ``(tag, row, column)``."""
    options = []
    for c in range(n):
        options.append(((tag, 0, c), (tag, 1, c)))
        if c + 1 < n:
            options.append(((tag, 0, c), (tag, 0, c + 1)))
            options.append(((tag, 1, c), (tag, 1, c + 1)))
    return options


def blocks(lengths: list[int]) -> solvers.ExactCover:
    """Disjoint 2 x n strips, one per length: F(n + 1) tilings each."""
    return solvers.ExactCover([o for k, n in enumerate(lengths) for o in strip(n, k)])


def test_strips_count_as_fibonacci_numbers():
    assert [solvers.count_covers(blocks([n])) for n in range(1, 12)] == [
        fibonacci(n + 1) for n in range(1, 12)
    ]


@pytest.mark.parametrize("threads", [1, 2, 8])
@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_a_union_of_blocks_past_the_tree_threshold(threads):
    # 2,100 strips of one column (one tiling each) and three longer ones:
    # 4,232 primary items, 5 * 8 * 13 covers.
    lengths = [1] * 2100 + [4, 5, 6]
    problem = blocks(lengths)
    assert len(problem.primary) >= TREE_ITEMS
    want = fibonacci(5) * fibonacci(6) * fibonacci(7)
    assert solvers.count_covers(problem, method="search", threads=threads) == want
    listed = list(solvers.covers(problem))
    assert len(listed) == len(set(listed)) == want
    # The tests' own checker (cover_oracle.py), not the package's is_cover.
    options = [[(item, None) for item in option] for option in problem.options]
    primary = set(problem.primary)
    assert all(cover_oracle.is_cover(options, primary, cover) for cover in listed)
    # The deterministic find is the first of the listing, whatever the threads.
    assert solvers.find_cover(problem, threads=threads, deterministic=True) == listed[0]


@pytest.mark.parametrize("n", [TREE_ITEMS // 2 + 1, 20_000])
def test_one_cover_of_a_long_strip(n):
    problem = solvers.ExactCover(strip(n))
    began = time.monotonic()
    for threads in (1, 2):
        cover = solvers.find_cover(problem, threads=threads)
        assert cover is not None and solvers.is_cover(problem, cover)
    first = next(solvers.covers(problem))
    assert solvers.is_cover(problem, first)
    assert solvers.find_cover(problem, deterministic=True) == first
    assert time.monotonic() - began < HANG_GUARD  # it was quadratic: minutes at 350,000


def test_no_cover_past_the_threshold():
    # One more item, covered only with the strip's first cell: the cells
    # left are odd in number, so nothing tiles them.
    n = TREE_ITEMS // 2 + 1
    problem = solvers.ExactCover([*strip(n), (("lonely",), (None, 0, 0))])
    assert len(problem.primary) > TREE_ITEMS
    assert solvers.count_covers(problem, method="search") == 0
    assert solvers.find_cover(problem) is None
    assert list(solvers.covers(problem)) == []


@pytest.mark.slow
def test_a_timeout_stops_a_count_of_a_million_options():
    problem = solvers.ExactCover(strip(350_000))
    began = time.monotonic()
    with pytest.raises(TimeoutError, match="timeout of 1 s"):
        solvers.count_covers(problem, method="search", threads=2, timeout=1)
    assert time.monotonic() - began < HANG_GUARD
    cover = solvers.find_cover(problem, threads=2, timeout=HANG_GUARD)
    assert cover is not None and solvers.is_cover(problem, cover)
