"""``count_tours_row``: a row of boards ``rows x 1 ... rows x n`` from one
sweep.  Each term equals the separate oracle's count (small boards), the
single-board frontier count and the published values (OEIS); the row is the
same for every thread count, memory budget and checkpoint; bad arguments
are refused with the limit named."""

from __future__ import annotations

import json
import os

import oracle
import pytest
import solvers
from solvers import _core, count_tours, count_tours_row
from solvers.knights import MAX_FRONTIER_SIDE, MAX_ROW_COLS

# Undirected Hamiltonian paths of 5 x n (OEIS A083386) and closed tours of
# 6 x n (A175881), n = 1, 2, ...
A083386 = (0, 0, 0, 82, 864, 18784, 622868, 18061054)
A175881 = (0, 0, 0, 0, 8, 9862, 1067638, 55488142, 3374967940)


def single(rows, cols, closed):
    return count_tours(rows, cols, start="all", closed=closed, method="frontier")


@pytest.mark.parametrize("closed", [False, True])
def test_the_short_rows_are_the_oracle_counts(closed):
    for rows in range(1, 5):
        cols = {1: 12, 2: 6, 3: 6, 4: 4}[rows]
        want = {c: oracle.count(rows, c, start="all", closed=closed) for c in range(1, cols + 1)}
        assert count_tours_row(rows, cols, closed=closed) == want, rows


@pytest.mark.parametrize(("rows", "cols"), [(3, 14), (4, 11), (5, 8), (6, 6), (7, 4), (8, 4)])
@pytest.mark.parametrize("closed", [False, True])
def test_each_term_is_the_single_board_count(rows, cols, closed):
    row = count_tours_row(rows, cols, closed=closed)
    assert list(row) == list(range(1, cols + 1))
    assert row == {c: single(rows, c, closed) for c in range(1, cols + 1)}


def test_the_published_rows():
    assert count_tours_row(5, 8) == {n + 1: 2 * p for n, p in enumerate(A083386)}
    closed = count_tours_row(6, 9, closed=True)
    assert closed == {n + 1: 2 * 6 * (n + 1) * c for n, c in enumerate(A175881)}


@pytest.mark.slow
def test_the_8_x_n_row_begins_as_a193055():
    # closed tours of 8 x n (OEIS A193055): 0, 0, 0, 0, 44202, 55488142
    row = count_tours_row(8, 6, closed=True, threads=2)
    assert [row[n] // (2 * 8 * n) for n in row] == [0, 0, 0, 0, 44202, 55488142]


def test_the_row_does_not_depend_on_threads_or_the_memory_budget(tmp_path):
    want = count_tours_row(5, 7)
    assert count_tours_row(5, 7, threads=1) == want
    assert count_tours_row(5, 7, threads=3) == want
    assert count_tours_row(5, 7, memory="1MiB", spill=tmp_path) == want  # through files
    assert os.listdir(tmp_path) == []


def test_a_checkpointed_row_resumes_and_a_rerun_returns_it(tmp_path):
    want = count_tours_row(5, 7, closed=False)
    directory = tmp_path / "row"
    # stopped once step 20 of 35 is saved: the terms of 5x1 .. 5x4 are in it
    with pytest.raises(RuntimeError, match="cancelled"):
        run = _core.RunOptions(1, checkpoint=str(directory), stop_after=20)
        _core.count_tours_row(5, 7, False, run)
    assert "\nstep 19\n" in (directory / "manifest").read_text()
    assert count_tours_row(5, 7, checkpoint=directory) == want
    assert count_tours_row(5, 7, checkpoint=directory, threads=1) == want  # from the last layer
    # a single-board count is another problem: its directory is refused
    with pytest.raises(ValueError, match="checkpoint"):
        count_tours(5, 7, start="all", method="frontier", checkpoint=directory)
    with pytest.raises(ValueError, match="checkpoint"):
        count_tours_row(5, 7, closed=True, checkpoint=directory)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((0, 5), {}, ValueError, "rows"),
        ((MAX_FRONTIER_SIDE + 1, 5), {}, ValueError, str(MAX_FRONTIER_SIDE)),
        ((5, 0), {}, ValueError, "max_cols"),
        ((5, MAX_ROW_COLS + 1), {}, ValueError, str(MAX_ROW_COLS)),
        ((5.0, 5), {}, TypeError, "rows"),
        ((5, "7"), {}, TypeError, "max_cols"),
        ((5, 5), {"closed": "yes"}, TypeError, "closed"),
        ((5, 5), {"start": (0, 0)}, ValueError, "start='all'"),
        ((5, 5), {"threads": 0}, ValueError, "threads"),
        ((5, 5), {"colour": 1}, TypeError, "colour"),
    ],
)
def test_bad_arguments_are_refused(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        count_tours_row(*args, **kwargs)


def test_an_executor_is_refused():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="executor"):
        count_tours_row(5, 5, executor=pool)


def test_the_row_overflows_with_an_error_not_a_wrapped_count():
    # 3 x n passes 2^256 directed tours well before n = 400 (3x100: about 10^53)
    with pytest.raises(OverflowError, match="256-bit"):
        count_tours_row(3, 400)


def test_the_cli_prints_the_table_and_json(capsys):
    from solvers import cli

    assert cli.main(["tours", "5", "6", "--row"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["cols", "tours"]
    assert [line.split() for line in out[1:]] == [
        [str(c), str(2 * p)] for c, p in enumerate(A083386[:6], start=1)
    ]
    assert cli.main(["tours", "6", "7", "--row", "--closed", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got == {
        "rows": 6,
        "closed": True,
        "counts": {str(c): single(6, c, True) for c in range(1, 8)},
    }
    assert solvers.count_tours_row is count_tours_row
