"""The peg-solitaire count within a memory budget: ``memory=`` keeps each
search's newest layer in the layer engine's shards, spilling to files in a
directory of their own inside ``spill=``, and the answer is the separate
oracle's (``peg_oracle.py``), the published one (DESIGN.md section 8) and the
in-memory count's; bad arguments are refused with a clear error."""

from __future__ import annotations

import os

import peg_oracle as oracle
import pytest
from solvers import PegBoard, count_peg_solutions, finish_counts
from test_memory import MB, limited, needs_prlimit

ENGLISH_CENTRE = 40_861_647_040_079_968  # DESIGN.md section 8
ENGLISH_2_4 = 138_409_681_956_904_365_268  # DESIGN.md section 8: (2, 4) to (2, 4)

SMALL = [
    (PegBoard.rectangle(3, 4), oracle.rectangle(3, 4)),
    (PegBoard.rectangle(4, 4), oracle.rectangle(4, 4)),
    (PegBoard.triangle(5), oracle.triangle(5)),
    (PegBoard.rectangle(3, 5), oracle.rectangle(3, 5)),
]


@pytest.mark.parametrize(("board", "oracle_board"), SMALL, ids=[repr(b) for b, _ in SMALL])
def test_a_budget_gives_the_oracle_counts(board, oracle_board, tmp_path):
    holes, jumps = oracle_board
    budget = {"memory": "1MiB", "spill": tmp_path}
    solvable = 0
    for start in holes:
        want = oracle.finish_counts_bruteforce(holes, jumps, start)
        assert finish_counts(board, start=start, **budget) == want
        assert count_peg_solutions(board, start=start, finish=None, **budget) == sum(want.values())
        for finish in holes:
            for method in ("meet", "forward"):
                got = count_peg_solutions(
                    board, start=start, finish=finish, method=method, **budget
                )
                assert got == want[finish], (start, finish, method)
            solvable += want[finish] > 0
    assert solvable > 0, "no solvable problem: a weak test"
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("threads", [1, 3, 8])
def test_a_spilling_count_is_the_published_one_for_every_thread_count(threads, tmp_path):
    got = count_peg_solutions(
        PegBoard.english(), start=(3, 3), memory="8MB", spill=tmp_path, threads=threads
    )
    assert got == ENGLISH_CENTRE
    assert os.listdir(tmp_path) == []  # the spill directory went with the count


def test_a_small_budget_really_spills(tmp_path):
    # The bytes written, through the private driver (the public call only
    # shows them on its progress bar).
    from solvers import _peg_dp

    board = PegBoard.english()
    s = board.index((3, 3))
    group = board.symmetries_fixing(s, s)
    budgeted = _peg_dp.Budgeted(board, group, 2, False, None, 8 * MB, str(tmp_path))
    assert _peg_dp.count(budgeted, board, s, s, "meet") == ENGLISH_CENTRE
    assert budgeted.spill.written > 100 * MB
    roomy = _peg_dp.Budgeted(board, group, 2, False, None, 10**12, str(tmp_path))
    assert _peg_dp.count(roomy, board, s, s, "meet") == ENGLISH_CENTRE
    assert roomy.spill.written == 0


def test_finish_counts_within_a_budget(tmp_path):
    board = PegBoard.english()
    want = finish_counts(board, start=(3, 3))
    assert want[(3, 3)] == ENGLISH_CENTRE
    assert finish_counts(board, start=(3, 3), memory="16MB", spill=tmp_path) == want


def test_a_timeout_while_spilling_leaves_no_files(tmp_path):
    with pytest.raises(TimeoutError):
        count_peg_solutions(
            PegBoard.english(), start=(2, 4), memory="4MB", spill=tmp_path, timeout=1.5
        )
    assert os.listdir(tmp_path) == []


def test_bad_arguments_are_refused(tmp_path):
    board = PegBoard.triangle(5)
    with pytest.raises(ValueError, match="at least"):
        count_peg_solutions(board, start=(0, 0), memory=1000)
    with pytest.raises(ValueError, match="units"):
        finish_counts(board, start=(0, 0), memory="4XB")
    with pytest.raises(ValueError, match="existing directory"):
        count_peg_solutions(board, start=(0, 0), memory="1GB", spill=tmp_path / "nope")
    with pytest.raises(ValueError, match="give memory="):
        count_peg_solutions(board, start=(0, 0), spill=tmp_path)
    with pytest.raises(ValueError, match="checkpoint"):
        count_peg_solutions(board, start=(0, 0), memory="1GB", checkpoint=tmp_path / "run.sqlite")
    with pytest.raises(ValueError, match="no executor"):
        count_peg_solutions(board, start=(0, 0), memory="1GB", parts=2)


@needs_prlimit
def test_what_does_not_fit_in_memory_fits_within_a_budget():
    # English (2, 4) to (2, 4) peaks near 1.9 GB in memory: under a 1.2 GB
    # address-space limit it is a MemoryError, within a 400 MB budget it
    # spills and counts.
    call = "solvers.count_peg_solutions(solvers.PegBoard.english(), start=(2, 4), threads=2{})"
    report = limited(call.format(""), 1200 * MB)
    assert report.startswith("raised MemoryError"), report
    report = limited(call.format(', memory="400MB"'), 1200 * MB, timeout=300)
    assert report == f"returned {ENGLISH_2_4}", report
