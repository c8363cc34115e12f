"""Counts split into subproblems: plans, executors (threads, processes, a real
Dask cluster), checkpoints that survive SIGKILL, and files that are not ours.

Totals are checked against published values (OEIS) and the separate
brute-force oracle, never against the local count alone.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sqlite3
import subprocess
import sys
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import oracle
import pytest
import solvers
from hang import HANG_GUARD
from queens.test_queens import A000170, A002562
from solvers import count_queens, count_tours, distributed
from solvers._engine import _args
from solvers._engine._args import LEDGER_NAME
from solvers._engine._checkpoint import Checkpoint
from solvers._engine._sizing import FIRST_TASKS_PER_WORKER, LONGEST, TaskSizes

#: Solutions (A000170) and classes (A002562) of n queens, by n.
SOLUTIONS = dict(enumerate(A000170, start=1)) | {17: 95_815_104}
CLASSES = dict(enumerate(A002562, start=1))

#: Directed open tours from every square of 6x6 (OEIS A165134).
ALL_6X6 = 6_637_920


class RecordingExecutor(ThreadPoolExecutor):
    """A thread pool that remembers which subproblems it was asked to count."""

    def __init__(self, workers: int = 2) -> None:
        super().__init__(workers)
        self.asked: list[int] = []

    def submit(self, fn, /, *args, **kwargs):
        if fn is distributed.count_subproblems:
            self.asked.extend(s.index for s in args[0])
        return super().submit(fn, *args, **kwargs)


# ---------------------------------------------------------------- plans


@pytest.mark.parametrize(
    ("text", "start", "closed"),
    [
        ("....\n....\n....", None, False),  # 3x4
        ("....\n....\n....", "all", False),
        (".......\n.......\n.......", (1, 3), False),  # 3x7
        ("....\n.#..\n....\n....", (0, 0), False),
        ("....\n....\n....\n....\n....", "all", False),  # 5x4
        (".....\n.....\n.....\n.....", "all", True),
    ],
)
def test_tour_subproblems_add_up_to_the_oracle(text, start, closed):
    rows, cols, mask = oracle.parse(text)
    want = oracle.count(rows, cols, mask, start, closed)
    where = {} if start is None else {"start": start}
    work = distributed.plan(count_tours, board=text, closed=closed, subproblems=64, **where)
    counts = distributed.count_subproblems(work.subproblems, threads=1)
    assert len(counts) == len(work)
    assert sum(counts) == want == work.count()


@pytest.mark.parametrize("n", range(1, 11))
def test_queen_subproblems_add_up_to_oeis(n):
    for unique, table in ((False, SOLUTIONS), (True, CLASSES)):
        work = distributed.plan(count_queens, n, unique=unique, subproblems=32)
        assert sum(distributed.count_subproblems(work.subproblems)) == table[n]


def test_the_plan_is_the_same_everywhere_and_pickles():
    a = distributed.plan(count_queens, 11, subproblems=200)
    b = distributed.plan(count_queens, 11, subproblems=200)
    assert a == b and len(a) >= 200
    subs = a.subproblems
    assert pickle.loads(pickle.dumps(subs)) == subs
    # any split of the subproblems into batches gives the same total
    odd, even = subs[1::2], subs[::2]
    assert (
        sum(distributed.count_subproblems(odd)) + sum(distributed.count_subproblems(even)) == 2680
    )


class CostlyExecutor(ThreadPoolExecutor):
    """A thread pool whose every task costs ``fixed`` seconds more, as a
    remote executor's does, and that counts the tasks of each size."""

    def __init__(self, fixed: float, workers: int = 2) -> None:
        super().__init__(workers)
        self.fixed = fixed
        self.tasks: list[int] = []

    def submit(self, fn, /, *args, **kwargs):
        if fn is distributed.count_subproblems:
            self.tasks.append(len(args[0]))

        def costly():
            time.sleep(self.fixed)
            return fn(*args, **kwargs)

        return super().submit(costly)


def test_tasks_are_sized_from_what_the_executor_costs():
    # Subproblems of 13 queens take about a millisecond: where a task costs
    # 100 ms more, as on a remote executor, the plan goes in a few large
    # tasks once the first are measured (guided: each at most a quarter of
    # what is left, on 2 workers); the count is the same, every subproblem
    # counted once.
    work = distributed.plan(count_queens, 13, subproblems=4096)
    with CostlyExecutor(0.1) as costly:
        assert work.count(executor=costly, threads=1) == SOLUTIONS[13]
    assert sum(costly.tasks) == len(work)
    # The first tasks, before any is measured, cut the plan 64 ways a worker.
    first = -(-len(work) // 128)
    assert costly.tasks[:4] == [first] * 4
    assert max(costly.tasks) >= 4 * first
    assert len(costly.tasks) < len(work) // first // 2


def test_task_sizes_keep_the_fixed_cost_small_and_the_end_even():
    sizes = TaskSizes(100_000, workers=4, fixed=0.01)
    assert sizes.next(100_000) == -(-100_000 // (FIRST_TASKS_PER_WORKER * 4))
    sizes.done(1000, 1.0)  # 1 ms a subproblem
    # 10 ms of fixed cost is 5% of 200 subproblems' work.
    assert sizes.next(90_000) == 200
    # Near the end, at most an eighth of what is left (4 workers).
    assert sizes.next(800) == 100
    assert sizes.next(1) == 1
    # Costly subproblems: one a task, and never more than LONGEST seconds.
    slow = TaskSizes(1000, workers=2, fixed=0.01)
    slow.done(1, 2 * LONGEST)
    assert slow.next(1000) == 1
    quick = TaskSizes(10**9, workers=2, fixed=10.0)
    quick.done(10, 0.01)
    assert quick.next(10**9) == int(LONGEST / 0.001)
    # Tasks too quick for the clock: sized by what is left alone.
    instant = TaskSizes(1000, workers=2, fixed=0.01)
    instant.done(10, 0.0)
    assert instant.next(1000) == 250
    # A task that tells no time measures nothing.
    untold = TaskSizes(1000, workers=2, fixed=0.01)
    untold.done(10, None)
    assert untold.next(1000) == -(-1000 // 128)


def test_interleaved_batches_of_different_plans_keep_their_counts():
    # Memo tables pass between searches of equal size: entries of one search
    # must never answer for another, and each search's own entries may be reused.
    a = distributed.plan(count_tours, 5, 6, subproblems=64).subproblems
    b = distributed.plan(count_tours, 6, 5, start="all", subproblems=64).subproblems
    c = distributed.plan(count_tours, 5, 6, start=(0, 0), subproblems=64).subproblems
    totals = {"a": 0, "b": 0, "c": 0}
    for k in range(0, max(map(len, (a, b, c))), 7):
        for name, subs in (("a", a), ("b", b), ("c", c), ("a2", a)):
            part = sum(distributed.count_subproblems(subs[k : k + 7]))
            if name == "a2":
                assert part == sum(distributed.count_subproblems(a[k : k + 7]))
            else:
                totals[name] += part
    assert totals == {
        "a": count_tours(5, 6),
        "b": count_tours(6, 5, start="all"),
        "c": count_tours(5, 6, start=(0, 0)),
    }
    assert totals["a"] == 4542  # the 5x6 corner count in docs/performance.md


def test_plan_takes_partials_of_the_counts():
    # plan() used to compare the function with `is`: a partial was refused.
    from functools import partial

    corner = partial(count_tours, board="....\n....\n....", start=(0, 0))
    rows, cols, mask = oracle.parse("....\n....\n....")
    assert distributed.plan(corner, subproblems=8).count() == oracle.count(
        rows, cols, mask, (0, 0), False
    )
    unique = partial(partial(count_queens, 8), unique=True)
    work = distributed.plan(unique, subproblems=16)
    assert work == distributed.plan(count_queens, 8, unique=True, subproblems=16)
    assert work.count() == CLASSES[8]
    with pytest.raises(TypeError, match="count_tours and count_queens"):
        distributed.plan(partial(solvers.find_tour, 5, 5))


def test_plan_errors():
    with pytest.raises(TypeError, match="count_tours and count_queens"):
        distributed.plan(solvers.find_tour, 5, 5)
    with pytest.raises(ValueError, match="subproblems must be at least 1"):
        distributed.plan(count_queens, 8, subproblems=0)
    with pytest.raises(ValueError, match="count_tours works on boards"):
        distributed.plan(count_tours, 9, 9)
    queens8 = distributed.plan(count_queens, 8).subproblems
    tours = distributed.plan(count_tours, 3, 4).subproblems
    with pytest.raises(ValueError, match="one plan only"):
        distributed.count_subproblems([queens8[0], tours[0]])
    bad = distributed.Subproblem("queens", queens8[0].params, 10**6)
    with pytest.raises(ValueError, match="not in this plan"):
        distributed.count_subproblems([bad])
    assert distributed.count_subproblems([]) == []


# ---------------------------------------------------------------- executors


def test_threads_and_processes_give_the_published_counts(processes):
    with ThreadPoolExecutor(3) as threads:
        assert count_queens(12, executor=threads) == SOLUTIONS[12]
        assert count_tours(5, 5, start="all", executor=threads, threads=1) == 1728
    assert count_queens(12, unique=True, executor=processes, threads=1) == CLASSES[12]
    assert count_tours(6, 6, start="all", executor=processes) == ALL_6X6
    assert count_tours(4, 4, executor=processes) == 0


def test_bad_executor_and_checkpoint_arguments(tmp_path):
    with pytest.raises(TypeError, match="concurrent.futures.Executor"):
        count_queens(8, executor="dask://localhost:8786")
    with pytest.raises(TypeError, match="checkpoint must be a directory path"):
        count_queens(8, checkpoint=3)


def test_timeout_with_an_executor(processes):
    began = time.monotonic()
    with pytest.raises(TimeoutError):
        count_queens(19, executor=processes, timeout=0.5)
    assert time.monotonic() - began < HANG_GUARD


def test_progress_with_an_executor(capsys, monkeypatch, processes):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setattr(solvers._engine._progress, "SILENT_SECONDS", 0.0)
    assert count_queens(10, executor=processes, progress=True) == 724
    err = capsys.readouterr().err
    assert "subproblems" in err


def _dask_or_skip():
    if os.environ.get("SOLVERS_REQUIRE_DASK") == "1":
        import dask.distributed  # noqa: F401  (CI installs it: a failure, not a skip)
    return pytest.importorskip("dask.distributed")


@contextlib.contextmanager
def dask_client():
    """A client of a real Dask ``LocalCluster`` of two worker processes, one
    thread each (skipped without Dask, unless CI requires it)."""
    dask = _dask_or_skip()
    with (
        dask.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        dask.Client(cluster) as client,
    ):
        yield client


@pytest.mark.slow
def test_a_real_dask_cluster_counts_every_family():
    with dask_client() as client:
        executor = client.get_executor()
        # a task's Rust pool gets its worker's threads; the peg DP one part per worker
        assert client.submit(_args.worker_threads, 0).result() == 1
        assert _args.workers_of(executor) == 2
        assert count_queens(11, executor=executor) == SOLUTIONS[11]
        assert count_tours(5, 5, start="all", executor=executor) == 1728
        # (The English board on a real cluster, its published count past 2**53
        # through partition files: peg/test_files.py.)
        triangle = solvers.PegBoard.triangle(5)
        assert solvers.count_peg_solutions(triangle, start=(0, 0), finish=None,
                                           executor=executor) == 29760  # fmt: skip
        assert solvers.count_peg_solutions(triangle, start=(0, 0), executor=executor,
                                           parts=3) == 6816  # fmt: skip
        assert solvers.finish_counts(
            triangle, start=(0, 0), executor=executor
        ) == solvers.finish_counts(triangle, start=(0, 0))
        # the command line reaches the same scheduler by its address
        address = client.scheduler.address.removeprefix("tcp://")
        done = subprocess.run(
            [sys.executable, "-m", "solvers", "queens", "10", "--executor", f"dask://{address}"],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert (done.returncode, done.stdout) == (0, "724\n"), done.stderr


# ---------------------------------------------------------------- checkpoints


def kill_once(program: str, ready, wait: float = 60) -> None:
    """Run ``python -c program`` and SIGKILL it as soon as ``ready()`` (which
    may raise ``sqlite3.Error`` while the file is being made) says so."""
    child = subprocess.Popen([sys.executable, "-c", program])
    try:
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.02)
            try:
                if ready():
                    break
            except sqlite3.Error:
                pass
        assert child.poll() is None, "the count ended before it could be killed"
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def ledger_of(path) -> str:
    """The SQLite ledger inside the checkpoint directory ``path``."""
    return os.path.join(path, LEDGER_NAME)


def _ledger(path):
    with sqlite3.connect(ledger_of(path)) as db:
        rows = db.execute("SELECT idx, run FROM results").fetchall()
        runs = [r for (r,) in db.execute("SELECT run FROM runs ORDER BY run")]
    return rows, runs


def test_a_checkpoint_records_everything_and_a_rerun_computes_nothing(tmp_path):
    path = tmp_path / "q11"
    assert count_queens(11, checkpoint=path) == SOLUTIONS[11]
    rows, runs = _ledger(path)
    work = distributed.plan(count_queens, 11)
    assert sorted(i for i, _ in rows) == list(range(len(work)))
    assert runs == [1]
    again = RecordingExecutor()
    with again:
        assert count_queens(11, checkpoint=path, executor=again) == SOLUTIONS[11]
    assert again.asked == []
    assert len(_ledger(path)[0]) == len(work) and _ledger(path)[1] == [1, 2]


def test_a_partial_checkpoint_is_completed_without_recounting(tmp_path):
    path = str(tmp_path / "t")
    work = distributed.plan(count_tours, 6, 6, start="all")
    os.mkdir(path)
    ledger = Checkpoint(ledger_of(path), work.key(), len(work))
    first = work.subproblems[: len(work) // 3]
    ledger.record(zip(range(len(first)), distributed.count_subproblems(first), strict=True))
    ledger.close()
    pool = RecordingExecutor()
    with pool:
        assert count_tours(6, 6, start="all", checkpoint=path, executor=pool) == ALL_6X6
    assert sorted(pool.asked) == list(range(len(first), len(work)))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_sigkill_mid_count_then_resume(tmp_path):
    path = str(tmp_path / "q17")
    program = f"import solvers; solvers.count_queens(17, threads=2, checkpoint={path!r})"
    kill_once(program, lambda: len(_ledger(path)[0]) >= 5)  # a few batches recorded
    before, runs = _ledger(path)
    size = len(distributed.plan(count_queens, 17))
    assert runs == [1] and 0 < len(before) < size
    pool = RecordingExecutor()
    with pool:
        assert count_queens(17, checkpoint=path, executor=pool) == SOLUTIONS[17]
    kept = {i for i, _ in before}
    assert kept.isdisjoint(pool.asked)  # what was recorded is not recomputed
    assert sorted(pool.asked) == sorted(set(range(size)) - kept)
    after, runs = _ledger(path)
    assert runs == [1, 2] and len(after) == size
    assert {i for i, run in after if run == 1} == kept


def test_a_timed_out_checkpointed_count_keeps_what_it_finished(tmp_path):
    # The frame counter: the join counts n = 16 within the timeout.
    path = tmp_path / "q16"
    with pytest.raises(TimeoutError):
        count_queens(16, method="frames", checkpoint=path, timeout=0.3)
    before, runs = _ledger(path)
    plan = distributed.plan(count_queens, 16, method="frames")
    assert runs == [1] and 0 < len(before) < len(plan)
    pool = RecordingExecutor()
    with pool:
        assert count_queens(16, method="frames", checkpoint=path, executor=pool) == SOLUTIONS[16]
    assert {i for i, _ in before}.isdisjoint(pool.asked)


def test_foreign_and_damaged_files_are_refused(tmp_path):
    good = tmp_path / "good"
    assert count_queens(9, checkpoint=good) == 352
    with pytest.raises(ValueError, match="another problem"):
        count_queens(10, checkpoint=good)
    with pytest.raises(ValueError, match="another problem"):
        count_queens(9, unique=True, checkpoint=good)
    with pytest.raises(ValueError, match="another problem"):
        count_tours(5, 5, checkpoint=good)
    # another checkpoint format (a future release's)
    with sqlite3.connect(ledger_of(good)) as db:
        db.execute("UPDATE meta SET value = 'solvers-checkpoint/999' WHERE key = 'format'")
    with pytest.raises(ValueError, match="another format"):
        count_queens(9, checkpoint=good)
    # not SQLite at all: no checkpoint, and no warning that the old form
    # (a file) is deprecated before saying so (issue 46)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database" * 100)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="not a readable solvers checkpoint"):
            count_queens(9, checkpoint=junk)
    # an SQLite file of something else
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE notes(x)")
    with pytest.raises(ValueError, match="not a solvers checkpoint"):
        with pytest.warns(DeprecationWarning):
            count_queens(9, checkpoint=other)


def test_a_checkpoint_from_another_release_resumes(tmp_path):
    # Pinned to its format and its problem, not to the release that wrote it:
    # here a file as the release before run_versions left it, half done.
    path = tmp_path / "q10"
    assert count_queens(10, checkpoint=path) == SOLUTIONS[10]
    with sqlite3.connect(ledger_of(path)) as db:
        db.execute("UPDATE meta SET value = '0.0.1-older' WHERE key = 'version'")
        db.execute("DROP TABLE run_versions")
        db.execute("DELETE FROM results WHERE idx % 2 = 1")
        kept = {i for (i,) in db.execute("SELECT idx FROM results")}
    size = len(distributed.plan(count_queens, 10))
    assert 0 < len(kept) < size
    pool = RecordingExecutor()
    with pool:
        assert count_queens(10, checkpoint=path, executor=pool) == SOLUTIONS[10]
    assert sorted(pool.asked) == sorted(set(range(size)) - kept)
    with sqlite3.connect(ledger_of(path)) as db:
        meta = dict(db.execute("SELECT key, value FROM meta"))
        versions = db.execute("SELECT run, version FROM run_versions").fetchall()
    assert meta["version"] == "0.0.1-older"  # who made the file: kept, for information
    assert versions == [(2, solvers.__version__)]


def test_a_truncated_checkpoint_is_refused(tmp_path):
    path = tmp_path / "q12"
    assert count_queens(12, checkpoint=path) == SOLUTIONS[12]
    ledger = Path(ledger_of(path))
    data = ledger.read_bytes()
    for extra in path.glob(f"{LEDGER_NAME}-*"):  # no WAL left behind after a clean close
        extra.unlink()
    ledger.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="checkpoint"):
        count_queens(12, checkpoint=path)


def test_a_tampered_count_is_refused(tmp_path):
    path = tmp_path / "q8"
    assert count_queens(8, checkpoint=path) == 92
    with sqlite3.connect(ledger_of(path)) as db:
        db.execute("UPDATE results SET count = '-5' WHERE idx = 0")
    with pytest.raises(ValueError, match="corrupt"):
        count_queens(8, checkpoint=path)


# ---------------------------------------------------------------- command line


def test_cli_workers_and_checkpoint(tmp_path):
    path = tmp_path / "cli"
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-m", "solvers", "queens", "10", "--workers", "2",
             "--checkpoint", str(path)],
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert (done.returncode, done.stdout) == (0, "724\n"), done.stderr
    assert _ledger(path)[1] == [1, 2]
    done = subprocess.run(
        [sys.executable, "-m", "solvers", "tours", "5", "5", "--start", "all", "--workers", "2"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (0, "1728\n"), done.stderr


# ---------------------------------------------------------------- peg checkpoints
# A count all in memory (spill=False) keeps its newest layers in the core's
# layer files, as a count within a budget does; called again (either way),
# it goes on from there.


def _saved_pegs(path) -> dict[str, set[int]]:
    """The pegs of the layers saved for each side (``layer-<64 - pegs>.bin``):
    one, or two while the newer one is being saved."""
    saved = {}
    for side in ("a", "b"):
        if files := list(Path(path, side).glob("layer-*.bin")):
            saved[side] = {64 - int(f.stem.split("-")[1]) for f in files}
    return saved


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.slow
def test_a_killed_peg_count_goes_on_from_its_saved_layers(tmp_path, monkeypatch):
    from solvers.peg import dp

    path = str(tmp_path / "english")
    program = (
        "import solvers\n"
        "board = solvers.PegBoard.english()\n"
        f"solvers.count_peg_solutions(board, start=(3, 3), checkpoint={path!r}, spill=False)\n"
    )

    def into_the_wide_layers() -> bool:
        saved = _saved_pegs(path)
        return "a" in saved and min(saved["a"]) <= 20

    kill_once(program, into_the_wide_layers)
    first = _saved_pegs(path)
    assert "a" in first, first
    resumed, new_kernel = {}, dp.new_kernel

    class Watched:
        def __init__(self, kernel):
            self.kernel = kernel

        def __getattr__(self, name):
            return getattr(self.kernel, name)

        def resume_layer(self, directory, problem, name):
            layer = self.kernel.resume_layer(directory, problem, name)
            resumed[name] = None if layer is None else layer.pegs
            return layer

    board = solvers.PegBoard.english()
    with monkeypatch.context() as patch:
        patch.setattr(dp, "new_kernel", lambda spec: Watched(new_kernel(spec)))
        total = solvers.count_peg_solutions(board, start=(3, 3), checkpoint=path, spill=False)
    assert total == 40_861_647_040_079_968  # durangobill.com/Peg33.html
    # the second run went on from the layers the first saved
    assert all(resumed[side] in first[side] for side in first), (resumed, first)
    # and a third call, within a budget, answers from the directory at once
    began = time.monotonic()
    assert solvers.count_peg_solutions(board, start=(3, 3), checkpoint=path) == total
    assert time.monotonic() - began < HANG_GUARD
    with pytest.raises(ValueError, match="another count"):
        solvers.count_peg_solutions(board, start=(2, 3), checkpoint=path)


def test_a_damaged_peg_layer_is_refused(tmp_path):
    path = tmp_path / "tri"
    board = solvers.PegBoard.triangle(5)
    with pytest.raises(TimeoutError):  # stop it after some layers: keep them
        solvers.count_peg_solutions(
            solvers.PegBoard.english(), start=(2, 4), checkpoint=path, timeout=1.0, spill=False
        )
    layers = sorted(path.rglob("layer-*.bin"))
    assert layers, "the stopped count kept no layer"
    for layer in layers:
        layer.write_bytes(b"\x00\x01\x02\x03")
    with pytest.raises(ValueError, match="truncated"):
        solvers.count_peg_solutions(solvers.PegBoard.english(), start=(2, 4), checkpoint=path)
    with pytest.raises(ValueError, match="does not take executor= and checkpoint= together"):
        with ThreadPoolExecutor(1) as pool:
            solvers.count_peg_solutions(board, start=(0, 0), checkpoint=path, executor=pool)
