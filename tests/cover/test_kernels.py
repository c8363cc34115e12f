"""The search's two kernels: the bitset walk (the default for problems of at
most 8,192 options without bounds) and the dancing cells
(``SOLVERS_COVER_KERNEL=cells``, and every larger problem). Tiny random
problems against the brute force on both; larger problems of every width of
the bitset walk (one word to eight, and the lists of words past them): the
published counts on every thread count, the same covers in the same order, and
the same deterministic find on both."""

from __future__ import annotations

import itertools

import cover_oracle
import pytest
from cover_oracle import raw_problems
from hypothesis import given, settings
from solvers import ExactCover, TilingPuzzle, count_covers, covers, find_cover


def build(raw) -> ExactCover:
    options, primary, secondary = raw
    return ExactCover(options, primary=primary, secondary=secondary, colors=True)


def on_both(call):
    """``call()`` on the bitset walk, then on the dancing cells."""
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("SOLVERS_COVER_KERNEL", raising=False)
        bits = call()
        mp.setenv("SOLVERS_COVER_KERNEL", "cells")
        cells = call()
    return bits, cells


@settings(max_examples=60, deadline=None)
@given(raw_problems())
def test_both_kernels_agree_with_the_brute_force(raw) -> None:
    problem = build(raw)
    want = cover_oracle.search_order(raw[0], raw[1])
    for threads in (1, 2):
        bits, cells = on_both(lambda t=threads: count_covers(problem, method="search", threads=t))
        assert bits == cells == len(want)
    bits, cells = on_both(lambda: [tuple(c) for c in covers(problem)])
    assert bits == cells == want


def queens(n: int) -> ExactCover:
    """N-Queens: rows and columns primary, the diagonals secondary."""
    options = [[("r", r), ("c", c), ("d", r + c), ("a", r - c)] for r in range(n) for c in range(n)]
    primary = [("r", k) for k in range(n)] + [("c", k) for k in range(n)]
    diagonals = [("d", k) for k in range(2 * n - 1)] + [("a", k) for k in range(1 - n, n)]
    return ExactCover(options, primary=primary, secondary=diagonals)


def langford(n: int) -> ExactCover:
    """Langford pairs of 1..n: each value at slots j and j + value + 1."""
    options = [
        [("v", v), ("s", j), ("s", j + v + 1)]
        for v in range(1, n + 1)
        for j in range(2 * n - v - 1)
    ]
    return ExactCover(
        options, primary=[("v", v) for v in range(1, n + 1)] + [("s", j) for j in range(2 * n)]
    )


#: Problems of every width of the bitset walk (options: 64 to a word), with
#: their published counts (OEIS A000170, A014552 twice: both mirror images;
#: the 12 pentominoes in a 3x20 box, Haselgrove: 2 up to symmetry) or None
#: (counted to a limit only).
LARGER = [
    ("queens 8 (64 options, one word)", lambda: queens(8), 92),
    ("queens 10 (100 options, two words)", lambda: queens(10), 724),
    ("langford 11 (176 options, four words)", lambda: langford(11), 2 * 17792),
    ("queens 20 (400 options, eight words)", lambda: queens(20), None),
    ("queens 24 (576 options, listed words)", lambda: queens(24), None),
    (
        "pentominoes 3x20 (listed words)",
        lambda: TilingPuzzle((3, 20), "pentominoes", each="once").exact_cover(),
        8,
    ),
]


@pytest.mark.parametrize(("name", "make", "published"), LARGER, ids=[c[0] for c in LARGER])
def test_the_kernels_agree_on_larger_problems(name, make, published) -> None:
    problem = make()
    most = None if published is not None else 5_000
    counts = set()
    for threads in (1, 2, 8):
        bits, cells = on_both(
            lambda t=threads: count_covers(problem, method="search", threads=t, limit=most)
        )
        counts |= {bits, cells}
    assert counts == {published if most is None else most}
    bits, cells = on_both(lambda: [tuple(c) for c in itertools.islice(covers(problem), 200)])
    assert bits == cells
    for threads in (1, 2):
        bits, cells = on_both(lambda t=threads: find_cover(problem, deterministic=True, threads=t))
        assert bits == cells


def test_a_search_beyond_its_memory_budget_runs_on_the_cells(monkeypatch, capsys) -> None:
    from solvers._engine import _progress

    monkeypatch.setattr(_progress, "SILENT_SECONDS", 0.0)
    monkeypatch.setattr(_progress, "TEXT_EVERY", 0.0)
    monkeypatch.setitem(__import__("sys").modules, "tqdm", None)  # the plain line
    # 2,056 options: two walks' tables (one thread's and the plan's) pass 1 MiB.
    problem = TilingPuzzle((6, 10), "pentominoes", each="once").exact_cover()
    for memory, note in (("1MiB", True), ("64MiB", False)):
        got = count_covers(
            problem, method="search", threads=1, limit=50, memory=memory, progress=True
        )
        err = capsys.readouterr().err
        said = "pass the memory budget (1.0 MiB): searching on the dancing cells" in err
        assert (got, said) == (50, note), err
    with pytest.raises(ValueError, match="memory"):
        count_covers(problem, method="search", memory="1MiB", checkpoint="x")
