"""Open tours by pairs of ends (``count_tours(..., method="pairs")``): one
frontier count with both ends pinned per pair of squares up to symmetry.
Checked against the separate oracle, the search, and the classes of pairs
counted here by brute force; in plans, on executors (a process pool, a real
Dask cluster) and through a checkpoint file."""

from __future__ import annotations

import itertools
import json
import sqlite3

import oracle
import pytest
from engine.test_distributed import RecordingExecutor, dask_client
from solvers import _core, count_tours, distributed
from solvers._engine._args import LEDGER_NAME
from solvers.cli import main


@pytest.mark.parametrize(
    ("rows", "cols", "text", "every"),
    [
        (3, 4, None, None),
        (4, 5, None, None),
        # 5x5 over every start: OEIS A165134(5), the directed open tours (the
        # oracle takes about a second a square, so it checks the first three)
        pytest.param(5, 5, None, 1728, marks=pytest.mark.slow),
        (None, None, "....\n.#..\n....\n....", None),  # a shaped board: no symmetry left
        (None, None, ".....\n.....\n..#..\n.....\n.....", None),  # a holed square: 8 symmetries
    ],
)
def test_pairs_agree_with_the_oracle(rows, cols, text, every):
    if text is not None:
        rows, cols, mask = oracle.parse(text)
        kwargs = {"board": text}
    else:
        mask, kwargs = None, {"rows": rows, "cols": cols}
    squares = oracle.squares(rows, cols, mask)
    starts = squares[:3]
    # each square's count once (the sum over every square holds the first three)
    want = {s: oracle.count(rows, cols, mask, s) for s in (starts if every else squares)}
    if every is None:
        every = sum(want.values())
    assert count_tours(**kwargs, start="all", method="pairs") == every
    for start in starts:
        assert count_tours(**kwargs, start=start, method="pairs") == want[start]


@pytest.mark.parametrize(("rows", "cols"), [(5, 6), (6, 6)])
@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_pairs_agree_with_the_search(rows, cols):
    assert count_tours(rows, cols, start="all", method="pairs") == count_tours(
        rows, cols, start="all", method="search"
    )
    for start in [(0, 0), (2, 3)]:
        assert count_tours(rows, cols, start=start, method="pairs") == count_tours(
            rows, cols, start=start, method="search"
        )


def _classes(rows, cols):
    """The classes of unordered pairs of squares of unlike colour under the
    rectangle's symmetries, by brute force: {canonical pair: class size}."""

    maps = []
    for flip_r, flip_c, swap in itertools.product([0, 1], [0, 1], [0, 1]):
        if swap and rows != cols:
            continue

        def g(p, fr=flip_r, fc=flip_c, sw=swap):
            r, c = p
            if sw:
                r, c = c, r
            return (rows - 1 - r if fr else r, cols - 1 - c if fc else c)

        maps.append(g)
    squares = [(r, c) for r in range(rows) for c in range(cols)]
    classes: dict[tuple, int] = {}
    for s, t in itertools.combinations(squares, 2):
        if (sum(s) + sum(t)) % 2 == 0:
            continue
        orbit = {tuple(sorted((g(s), g(t)))) for g in maps}
        classes[min(orbit)] = len(orbit)
    return classes


@pytest.mark.parametrize(("rows", "cols"), [(4, 6), (6, 6), (8, 8)])
def test_the_plan_is_one_subproblem_per_class_of_pairs(rows, cols):
    work = distributed.plan(count_tours, rows, cols, start="all", method="pairs")
    classes = _classes(rows, cols)
    assert len(work) == len(classes)
    _plan, pairs = _core.tour_pairs_plan((rows, cols, None), None, _core.RunOptions())
    got = {tuple(sorted(pair)): weight for pair, weight in pairs}
    assert got == classes
    if (rows, cols) == (8, 8):
        assert len(work) == 136  # Chernov and Stertenbrink's 136 counts


def test_subproblems_anywhere_add_up(processes):
    work = distributed.plan(count_tours, 5, 6, start="all", method="pairs")
    want = count_tours(5, 6, start="all", method="search")
    counts = distributed.count_subproblems(work.subproblems)
    assert work.count() == want
    # the sum of the weighted pair counts is every path once: tours are twice it
    assert 2 * sum(counts) == want
    assert count_tours(5, 6, start="all", method="pairs", executor=processes) == want


@pytest.mark.slow
def test_a_real_dask_cluster_counts_by_pairs():
    want = count_tours(6, 6, start="all", method="search")
    with dask_client() as client:
        executor = client.get_executor()
        assert count_tours(6, 6, start="all", method="pairs", executor=executor) == want
        assert count_tours(6, 6, start=(1, 2), method="pairs", executor=executor) == count_tours(
            6, 6, start=(1, 2), method="search"
        )


def test_a_checkpoint_keeps_finished_pairs_across_budgets(tmp_path):
    path = tmp_path / "pairs"
    want = count_tours(5, 6, start="all", method="search")
    assert count_tours(5, 6, start="all", method="pairs", checkpoint=path) == want
    with sqlite3.connect(path / LEDGER_NAME) as db:
        (problem,) = db.execute("SELECT value FROM meta WHERE key = 'problem'").fetchone()
    assert json.loads(problem)["family"] == "tour-pairs"
    # a rerun with another budget is the same problem: nothing is counted again
    again = RecordingExecutor()
    with again:
        got = count_tours(
            5, 6, start="all", method="pairs", checkpoint=path, executor=again, memory="1GB"
        )
    assert got == want and again.asked == []
    # another start is another problem
    with pytest.raises(ValueError):
        count_tours(5, 6, start=(0, 0), method="pairs", checkpoint=path)


@pytest.mark.slow
def test_pairs_within_a_small_budget_spill_and_agree(tmp_path):
    want = count_tours(6, 6, start=(0, 0), method="search")
    got = count_tours(6, 6, start=(0, 0), method="pairs", memory="1MiB", spill=tmp_path)
    assert got == want
    assert list(tmp_path.iterdir()) == []  # each pair's files are gone


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="closed"):
        count_tours(6, 6, start="all", closed=True, method="pairs")
    with pytest.raises(ValueError, match="end="):
        count_tours(6, 6, start=(0, 0), end=(5, 5), method="pairs")
    with pytest.raises(ValueError, match="at most 8"):
        count_tours(9, 9, start="all", method="pairs")
    with pytest.raises(ValueError, match="closed"):
        distributed.plan(count_tours, 6, 6, start="all", closed=True, method="pairs")
    with pytest.raises(ValueError, match="method"):
        distributed.plan(count_tours, 6, 6, start="all", method="frontier")
    with pytest.raises(ValueError, match="memory"):
        distributed.plan(count_tours, 6, 6, start="all", memory="1GB")


def test_the_command_line_counts_by_pairs(capsys):
    assert main(["tours", "5", "5", "--start", "all", "--method", "pairs"]) == 0
    assert capsys.readouterr().out == "1728\n"
