"""The peg DP on executors through partition files (``executor=``, ``spill=``):
every task reads its pieces from files in a directory of the count's own and
writes its output to one new file there; the driver passes references
``(path, offset, size)``, never layer bytes.  The answers are the published
values, the separate oracle's and the local count's; the directory goes when
the count ends, however it ends; a damaged piece is an error naming its file."""

from __future__ import annotations

import os
import pickle
import random
import re
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import peg_oracle as oracle
import pytest
from engine.test_distributed import dask_client
from hang import HANG_GUARD
from solvers import PegBoard, count_peg_solutions, finish_counts
from solvers.peg import dist as _peg_dist

#: Layer bytes larger than this may not pass through the driver.
SMALL = 1024


@pytest.fixture
def threads():
    with ThreadPoolExecutor(2) as pool:
        yield pool


def _oracle(oracle_board, start, finish):
    ends = oracle.finish_counts_bruteforce(*oracle_board, start)
    if finish is None:
        return sum(ends.values())
    return ends[start if finish == "start" else finish]


#: (board, oracle board, start, finish): start = finish across an odd and an
#: even number of jumps, a fixed finish, anywhere.
SMALL_CASES = [
    (PegBoard.triangle(5), oracle.triangle(5), (0, 0), None),
    (PegBoard.triangle(5), oracle.triangle(5), (0, 0), "start"),
    (PegBoard.rectangle(3, 4), oracle.rectangle(3, 4), (0, 0), (0, 3)),
    (PegBoard.rectangle(4, 4), oracle.rectangle(4, 4), (0, 1), (3, 2)),
]


def _check_small_cases(executor, spill):
    for board, oracle_board, start, finish in SMALL_CASES:
        want = _oracle(oracle_board, start, finish)
        got = count_peg_solutions(board, start=start, finish=finish, executor=executor, spill=spill)
        assert got == want, (board, start, finish)
        assert os.listdir(spill) == []
    ends = finish_counts(PegBoard.triangle(5), start=(0, 0), executor=executor, spill=spill)
    assert ends == oracle.finish_counts_bruteforce(*oracle.triangle(5), (0, 0))
    assert os.listdir(spill) == []


@pytest.mark.slow
def test_a_process_pool_counts_through_files(processes, tmp_path):
    # (the English board's published count through files: on a Dask
    # cluster, below)
    _check_small_cases(processes, tmp_path)
    # a bigger board than the oracle's against the local count, every parts
    triangle = PegBoard.triangle(6)
    want = count_peg_solutions(triangle, start=(2, 1), finish=(5, 1))
    for parts in (1, 3, 7):
        got = count_peg_solutions(
            triangle, start=(2, 1), finish=(5, 1), executor=processes, parts=parts, spill=tmp_path
        )
        assert got == want, parts
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_a_real_dask_cluster_counts_through_files(tmp_path):
    with dask_client() as client:
        executor = client.get_executor()
        # a board of layers in the millions against the count in memory (the
        # English board's published counts: peg/test_peg.py, in memory)
        board = PegBoard.rectangle(5, 5)
        want = count_peg_solutions(board, start=(0, 2), finish=None)
        got = count_peg_solutions(
            board, start=(0, 2), finish=None, executor=executor, spill=tmp_path
        )
        assert got == want > 0
        assert os.listdir(tmp_path) == []
        _check_small_cases(executor, tmp_path)


# ---------------------------------------------------------------- what the driver passes


def _bytes_in(value):
    """Every bytes-like object inside ``value`` (through tuples, lists, dicts)."""
    if isinstance(value, bytes | bytearray | memoryview):
        yield value
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _bytes_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _bytes_in(item)


class Recording(ThreadPoolExecutor):
    """A thread pool that keeps every task's arguments and future, and what
    the count's directory inside ``spill`` holds at each submission."""

    def __init__(self, spill, workers=2):
        super().__init__(workers)
        self.spill = spill
        self.calls = []
        self.futures = []
        self.seen = []

    def submit(self, fn, /, *args, **kwargs):
        self.calls.append((fn, args))
        (directory,) = os.listdir(self.spill)
        self.seen.append((directory, sorted(os.listdir(os.path.join(self.spill, directory)))))
        future = super().submit(fn, *args, **kwargs)
        self.futures.append(future)
        return future


def test_the_driver_passes_references_not_layers(tmp_path):
    board = PegBoard.triangle(6)  # layers of hundreds of positions: pieces of kilobytes
    want = count_peg_solutions(board, start=(0, 0), finish="start")
    with Recording(tmp_path) as pool:
        got = count_peg_solutions(
            board, start=(0, 0), finish="start", executor=pool, parts=3, spill=tmp_path
        )
    assert got == want
    assert os.listdir(tmp_path) == []
    functions = {fn for fn, _ in pool.calls}
    assert functions == {_peg_dist._round_task, _peg_dist._meet_task}
    sizes = []
    for fn, args in pool.calls:
        assert all(len(data) <= SMALL for data in _bytes_in(args)), fn
        assert len(pickle.dumps(args)) < 4 * SMALL  # the board and a few references
        for path, offset, size in args[1]:  # the pieces: references into the count's files
            assert path.startswith(str(tmp_path)) and path.endswith(".peg")
            assert offset >= 0
            sizes.append(size)
    assert max(sizes) > 4 * SMALL  # the pieces themselves are large
    for future in pool.futures:
        assert all(len(data) <= SMALL for data in _bytes_in(future.result()))
        assert len(pickle.dumps(future.result())) < 4 * SMALL
    # the files were there while it counted, and no more than two layers of
    # one search and one of the other at a time (a round's inputs go after it)
    directories = {directory for directory, _ in pool.seen}
    assert len(directories) == 1 and directories.pop().startswith("solvers-parts-")
    assert all(files for _, files in pool.seen)
    # a piece file, or one a task still writes (renamed to ``.peg`` once complete)
    assert all(name.endswith((".peg", ".peg.tmp")) for _, files in pool.seen for name in files)
    for _, files in pool.seen:
        rounds = {name.split("-")[0] for name in files}
        assert len(rounds) <= 3, files
    assert len({name.split("-")[0] for _, files in pool.seen for name in files}) > 10


def test_the_default_directory_is_the_temporary_one(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with Recording(tmp_path) as pool:
        assert count_peg_solutions(PegBoard.triangle(5), start=(0, 0), executor=pool) == 6816
    assert pool.seen and os.listdir(tmp_path) == []


# ---------------------------------------------------------------- damaged files


class Damaging(ThreadPoolExecutor):
    """A one-thread pool that damages the first piece file of the fifth round
    task it is given, before the task runs: ``how`` is "truncate", "flip"
    (one bit of the piece) or "remove"."""

    def __init__(self, how, seed):
        super().__init__(1)
        self.how = how
        self.rng = random.Random(seed)
        self.rounds = 0
        self.damaged = None

    def submit(self, fn, /, *args, **kwargs):
        if fn is _peg_dist._round_task:
            self.rounds += 1
            if self.rounds == 5:
                self.damaged = args[1][0]
                _damage(self.damaged, self.how, self.rng)
        return super().submit(fn, *args, **kwargs)


def _damage(ref, how, rng):
    path, offset, size = ref
    if how == "remove":
        os.remove(path)
    elif how == "truncate":
        os.truncate(path, offset + rng.randrange(size))
    else:
        with open(path, "r+b") as file:
            at = offset + rng.randrange(size)
            file.seek(at)
            byte = file.read(1)[0]
            file.seek(at)
            file.write(bytes([byte ^ 1 << rng.randrange(8)]))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("how", ["truncate", "flip", "remove"])
def test_a_damaged_piece_is_refused_naming_its_file(tmp_path, how, seed):
    error = FileNotFoundError if how == "remove" else ValueError
    with Damaging(how, seed) as pool:
        with pytest.raises(error) as caught:
            count_peg_solutions(
                PegBoard.triangle(6), start=(0, 0), finish=None, executor=pool, parts=3,
                spill=tmp_path,
            )  # fmt: skip
    path = pool.damaged[0]
    assert path in str(caught.value)
    if how == "truncate":
        assert re.search("truncated|peg layer", str(caught.value))
    assert os.listdir(tmp_path) == []


def test_a_task_reads_only_whole_pieces(tmp_path):
    # a task called as a worker would, with a reference into a damaged file
    board = PegBoard.triangle(5)
    spec = (len(board), tuple(board.jumps), ((*range(len(board)),),))
    layer = _peg_dist._kernel(spec).start([0])
    (packed,) = _peg_dist._write(str(tmp_path / "r00001-0000"), [layer])
    [(positions, ref)] = packed
    assert positions == 1
    path, offset, size = ref
    assert os.listdir(tmp_path) == [os.path.basename(path)]  # no temporary left

    def task(ref, name):  # grow the merged part into 2 parts, 1 thread, no timeout
        prefix = str(tmp_path / name)
        return _peg_dist._round_task(spec, [ref], prefix, 2, True, False, False, False, 1, None)

    count, children, mirrored, ended = task(ref, "r00002-0000")
    assert count == 1 and mirrored is None and ended == 0
    assert sum(piece[0] for piece in children if piece) == 2  # two first jumps
    data = bytearray(open(path, "rb").read())
    data[-1] ^= 0x10
    with open(path, "wb") as file:
        file.write(data)
    with pytest.raises(ValueError, match=re.escape(repr(path))):
        task(ref, "r00003-0000")
    child = next(piece[1] for piece in children if piece)
    with pytest.raises(FileNotFoundError, match="every worker sees at the same path"):
        _peg_dist._meet_task(spec, [(str(tmp_path / "nope.peg"), 0, size)], [child], 1, None)
    # a task run twice writes two files: each run's references point into its own
    again = _peg_dist._write(str(tmp_path / "r00004-0000"), [layer])
    twice = _peg_dist._write(str(tmp_path / "r00004-0000"), [layer])
    assert again[0][0][1][0] != twice[0][0][1][0]


# ---------------------------------------------------------------- however it ends


def test_the_directory_goes_after_an_error_in_a_task(tmp_path, monkeypatch, threads):
    merged = _peg_dist._merged
    calls = []
    lock = threading.Lock()

    def failing(kernel, pieces, workers, clock):
        with lock:
            calls.append(1)
            if len(calls) == 12:
                raise RuntimeError("a worker fell over")
        return merged(kernel, pieces, workers, clock)

    monkeypatch.setattr(_peg_dist, "_merged", failing)
    with pytest.raises(RuntimeError, match="fell over"):
        count_peg_solutions(
            PegBoard.triangle(6), start=(0, 0), executor=threads, parts=3, spill=tmp_path
        )
    assert os.listdir(tmp_path) == []


def test_the_directory_goes_after_a_timeout(tmp_path, processes):
    begin = time.monotonic()
    with pytest.raises(TimeoutError):
        count_peg_solutions(
            PegBoard.english(), start=(3, 3), executor=processes, timeout=0.8, spill=tmp_path
        )
    assert time.monotonic() - begin < HANG_GUARD
    assert os.listdir(tmp_path) == []


class _Interrupted(ThreadPoolExecutor):
    """A pool whose tenth submission is interrupted, as by Ctrl-C while the
    driver submits a round."""

    def __init__(self):
        super().__init__(2)
        self.submitted = 0

    def submit(self, fn, /, *args, **kwargs):
        self.submitted += 1
        if self.submitted == 10:
            raise KeyboardInterrupt
        return super().submit(fn, *args, **kwargs)


def test_the_directory_goes_after_ctrl_c(tmp_path):
    with _Interrupted() as pool, pytest.raises(KeyboardInterrupt):
        finish_counts(PegBoard.triangle(6), start=(0, 0), executor=pool, parts=2, spill=tmp_path)
    assert pool.submitted == 10
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------- arguments


def test_spill_with_an_executor(tmp_path, threads):
    board = PegBoard.triangle(5)
    # spill= alone is the shared directory; memory= stays refused
    assert finish_counts(board, start=(0, 0), executor=threads, spill=str(tmp_path))[(0, 0)] == 6816
    with pytest.raises(ValueError, match="does not take executor= and memory= together"):
        count_peg_solutions(board, start=(0, 0), executor=threads, memory="1GB", spill=tmp_path)
    with pytest.raises(ValueError, match="existing directory"):
        count_peg_solutions(board, start=(0, 0), executor=threads, spill=tmp_path / "nope")
    with pytest.raises(TypeError, match="spill must be a directory path"):
        finish_counts(board, start=(0, 0), executor=threads, spill=3)
    # no executor and no memory=: spill= is taken (the automatic budget's
    # directory), and a count that fits it writes nothing there
    assert count_peg_solutions(board, start=(0, 0), spill=tmp_path) == 6816
    assert os.listdir(tmp_path) == []
