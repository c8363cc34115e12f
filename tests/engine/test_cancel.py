"""Stopping long calls: timeouts, Ctrl-C, abandoned iterators, progress bars.

A test here checks that a call stops, and leaves nothing running, never how
fast: the bound is the suite's hang guard (``tests/hang.py``), far above what
a loaded machine shows.  The latencies themselves are measured by
``benches/cancel_bench.py`` (the ``LONG_CALLS`` below, each interrupted and
timed) and reported in ``docs/performance.md``.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time
import types

import pytest
import solvers
from hang import HANG_GUARD
from solvers import count_tours, find_tour, tours

HARD = (8, 8)  # far too many tours to count in a test run


def _threads() -> int | None:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:  # not Linux
        return None


def _settle(limit: int, seconds: float = 5.0) -> int | None:
    """Wait until the process has at most ``limit`` threads (or time runs out)."""
    deadline = time.monotonic() + seconds
    while True:
        now = _threads()
        if now is None or now <= limit or time.monotonic() > deadline:
            return now
        time.sleep(0.05)


@pytest.fixture
def baseline_threads():
    count_tours(4, 7)  # let any long-lived worker pool start
    time.sleep(0.2)
    return _threads()


# ---------------------------------------------------------------- timeout


def test_count_timeout_raises_promptly(baseline_threads):
    began = time.monotonic()
    with pytest.raises(TimeoutError, match="timeout"):
        count_tours(*HARD, timeout=0.3)
    elapsed = time.monotonic() - began
    assert 0.25 <= elapsed < HANG_GUARD
    # the interpreter and the package still work, and no worker is left running
    assert count_tours(4, 7) == 1682
    if baseline_threads is not None:
        assert _settle(baseline_threads) <= baseline_threads


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_count_timeout_with_any_number_of_threads(threads):
    began = time.monotonic()
    with pytest.raises(TimeoutError):
        count_tours(*HARD, start="all", timeout=0.2, threads=threads)
    assert time.monotonic() - began < HANG_GUARD


def test_zero_timeout_on_a_hard_count():
    with pytest.raises(TimeoutError):
        count_tours(*HARD, timeout=0)


def test_repeated_timeouts_leave_nothing_behind(baseline_threads):
    for _ in range(5):
        with pytest.raises(TimeoutError):
            count_tours(*HARD, timeout=0.05)
    assert count_tours(5, 5, start="all") == 1728
    if baseline_threads is not None:
        assert _settle(baseline_threads) <= baseline_threads


def test_find_tour_timeout_is_respected():
    # 8x8 without two corners of the same colour has no tour at all (30 squares
    # of one colour, 32 of the other); the answer, or the timeout, comes promptly
    text = "\n".join(["#......."] + ["........"] * 6 + [".......#"])
    began = time.monotonic()
    try:
        result = find_tour(board=text, start=(0, 1), timeout=0.5)
    except TimeoutError:
        pass
    else:
        assert result is None  # the colours are unbalanced: no tour
    assert time.monotonic() - began < HANG_GUARD


# ---------------------------------------------------------------- Ctrl-C


READY = "import sys, solvers; print('ready', flush=True); "


def _interrupt(code: str, after: float = 1.0, bound: float = 5.0, ready: bool = True):
    """Run ``python -c code``; once it has printed 'ready' (after its imports;
    at once with ``ready=False``), wait ``after`` seconds and send SIGINT.
    Returns (status, stdout, stderr, seconds from the signal to the exit)."""
    child = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        if ready:
            assert child.stdout.readline() == "ready\n", "the child did not start"
        time.sleep(after)
        assert child.poll() is None, "the child finished before the signal"
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        try:
            out, err = child.communicate(timeout=bound + 10)
        except subprocess.TimeoutExpired:
            pytest.fail("the child ignored SIGINT")
        return child.returncode, out, err, time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_a_count():
    code, _, err, elapsed = _interrupt(READY + "import solvers; solvers.count_tours(8, 8)")
    assert code != 0
    assert "KeyboardInterrupt" in err
    assert elapsed < HANG_GUARD


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_can_be_caught_and_work_goes_on():
    program = READY + (
        "import solvers\n"
        "try:\n"
        "    solvers.count_tours(8, 8, threads=2)\n"
        "except KeyboardInterrupt:\n"
        "    print('caught', solvers.count_tours(4, 7))\n"
    )
    code, out, err, elapsed = _interrupt(program)
    assert code == 0, err
    assert out.split() == ["caught", "1682"]
    assert elapsed < HANG_GUARD


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_the_command_line():
    program = READY + "from solvers.cli import main; sys.exit(main(['tours', '8', '8']))"
    code, _, err, elapsed = _interrupt(program)
    assert code == 130
    assert err.strip() == "solvers: interrupted"
    assert elapsed < HANG_GUARD


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_an_iterator_and_a_find():
    program = READY + (
        "import solvers\n"
        "try:\n"
        "    for tour in solvers.tours(8, 8, start='all'):\n"
        "        pass\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped', solvers.count_tours(3, 4))\n"
    )
    code, out, err, elapsed = _interrupt(program)
    assert code == 0, err
    assert out.split() == ["stopped", "2"]
    assert elapsed < HANG_GUARD


#: Long calls of every family, each interrupted ``after`` seconds into it.
LONG_CALLS = {
    "count_tours": (0.5, "solvers.count_tours(8, 8)"),
    "tours": (0.5, "[t for t in solvers.tours(8, 8, start='all')]"),
    "count_queens": (0.5, "solvers.count_queens(21)"),
    "count_queens_frames": (0.1, "solvers.count_queens(64)"),  # still building its frames
    "queens": (0.5, "[p for p in solvers.queens(40)]"),
    "find_queens": (0.5, "solvers.find_queens(64, method='search', deterministic=True)"),
    "peg_dp": (1.5, "solvers.count_peg_solutions(PegBoard.english(), start=(2, 4))"),
    "peg_finish_counts": (1.5, "solvers.finish_counts(PegBoard.english(), start=(2, 4))"),
    "find_peg_solution": (
        0.5,
        "solvers.find_peg_solution(PegBoard.french(), start=(2, 3), finish=None)",
    ),
    "peg_solutions": (
        0.5,
        "next(solvers.peg_solutions(PegBoard.french(), start=(2, 3), finish=None))",
    ),
}


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_ctrl_c_stops_every_long_call_promptly(name):
    # The child signals itself from a timer thread and measures, in-process,
    # the time from the signal to the KeyboardInterrupt (the target, 0.2 s,
    # is the benchmark's; here only a hang fails), then checks that its
    # worker threads are gone and that the package still answers.
    done = subprocess.run(
        [sys.executable, "-c", long_call_program(name)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout != "finished\n", f"{name} finished before the signal"
    latency, extra_threads, answer = done.stdout.split()
    assert float(latency) < HANG_GUARD, f"{name} took {latency} s to stop"
    assert int(extra_threads) <= 0, f"{name} left {extra_threads} threads behind"
    assert answer == "1682"


def long_call_program(name: str) -> str:
    """A child program that starts the long call ``name``, interrupts itself
    ``after`` seconds into it and prints the latency from the signal to the
    ``KeyboardInterrupt``, the worker threads left behind, and a count made
    after (``benches/cancel_bench.py`` runs it too)."""
    after, call = LONG_CALLS[name]
    return (
        "import os, signal, threading, time\n"
        "import solvers\n"
        "from solvers import PegBoard\n"
        "def threads():\n"
        "    return len(os.listdir('/proc/self/task'))\n"
        "solvers.count_tours(4, 7)  # start any long-lived pool before counting threads\n"
        "base = threads()\n"
        "sent = []\n"
        "def fire():\n"
        "    sent.append(time.monotonic())\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        f"threading.Timer({after}, fire).start()\n"
        "try:\n"
        f"    {call}\n"
        "    print('finished')\n"
        "    raise SystemExit(0)\n"
        "except KeyboardInterrupt:\n"
        "    latency = time.monotonic() - sent[0]\n"
        "# out of the except block, the traceback (and an iterator it holds) is gone\n"
        "deadline = time.monotonic() + 20\n"
        "while threads() > base and time.monotonic() < deadline:\n"
        "    time.sleep(0.01)\n"
        "print(f'{latency:.3f}', threads() - base, solvers.count_tours(4, 7))\n"
    )


# ---------------------------------------------------------------- abandoned iterators


def test_closing_an_abandoned_tours_iterator(baseline_threads):
    stream = tours(*HARD)
    first = next(stream)
    assert first.verify() and len(first) == 64
    stream.close()
    with pytest.raises(StopIteration):
        next(stream)
    assert count_tours(4, 7) == 1682
    if baseline_threads is not None:
        assert _settle(baseline_threads) <= baseline_threads


def test_dropping_iterators_without_closing_them(baseline_threads):
    streams = [tours(*HARD, start="all") for _ in range(4)]
    for stream in streams:
        next(stream)
    unstarted = tours(*HARD)
    del streams, stream, unstarted
    gc.collect()
    assert count_tours(5, 5, start="all") == 1728
    assert [list(t) for t in tours(3, 4)][0][:3] == [(2, 0), (1, 2), (0, 0)]
    if baseline_threads is not None:
        assert _settle(baseline_threads) <= baseline_threads


def test_an_iterator_resumes_where_it_stopped():
    # the search runs ahead in another thread, but what arrives is in order
    stream = tours(5, 5, start="all")
    head = [next(stream) for _ in range(10)]
    time.sleep(0.2)
    rest = list(stream)
    assert head + rest == list(tours(5, 5, start="all"))
    assert len(head) + len(rest) == 1728


# ---------------------------------------------------------------- progress


def test_progress_on_a_small_count(capsys):
    assert count_tours(5, 5, progress=True) == 304
    assert count_tours(3, 4, start="all", progress=True, threads=1) == 16
    out = capsys.readouterr().out
    assert out == ""  # progress goes to stderr, never stdout


class _FakeTqdm:
    made: list[_FakeTqdm] = []

    def __init__(self, total=None, **kwargs):
        self.total = total
        self.n = 0
        self.closed = False
        _FakeTqdm.made.append(self)

    def update(self, k):
        assert k >= 0
        self.n += k

    def close(self):
        self.closed = True


def test_progress_feeds_and_closes_a_tqdm_bar(monkeypatch):
    module = types.ModuleType("tqdm")
    module.tqdm = _FakeTqdm
    monkeypatch.setitem(sys.modules, "tqdm", module)
    _FakeTqdm.made.clear()
    # a count long enough to report progress, cut short by the timeout
    with pytest.raises(TimeoutError):
        count_tours(6, 7, progress=True, timeout=1.0, method="search")
    assert _FakeTqdm.made, "no progress bar was created"
    assert all(bar.closed for bar in _FakeTqdm.made)
    assert all(bar.total > 0 and 0 <= bar.n <= bar.total for bar in _FakeTqdm.made)
    _FakeTqdm.made.clear()
    assert count_tours(5, 5, start="all", progress=True) == 1728
    assert all(bar.closed for bar in _FakeTqdm.made)


def test_progress_without_tqdm_writes_text_to_stderr(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm fails
    with pytest.raises(TimeoutError):
        count_tours(6, 7, progress=True, timeout=1.0, method="search")
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "subproblems" in captured.err


class _FakeTqdmWithPostfix(_FakeTqdm):
    def __init__(self, total=None, **kwargs):
        super().__init__(total, **kwargs)
        self.kwargs = kwargs
        self.postfix = ""

    def set_postfix_str(self, text, refresh=True):
        self.postfix = text


def test_peg_progress_counts_layers_and_promises_no_time_left(monkeypatch):
    module = types.ModuleType("tqdm")
    module.tqdm = _FakeTqdmWithPostfix
    monkeypatch.setitem(sys.modules, "tqdm", module)
    monkeypatch.setattr(solvers._engine._progress, "SILENT_SECONDS", 0.0)
    _FakeTqdm.made.clear()
    board = solvers.PegBoard.triangle(5)
    assert solvers.count_peg_solutions(board, start=(0, 0), finish=None, progress=True) == 29760
    (bar,) = _FakeTqdm.made
    assert bar.closed and bar.n == bar.total == 13  # one layer per jump
    assert bar.kwargs["unit"] == "layer"
    assert "remaining" not in bar.kwargs["bar_format"] and "rate" not in bar.kwargs["bar_format"]
    # the last layer: one peg on (0, 0), on (4, 2), or on (3, 0) or its mirror image (3, 3)
    assert bar.postfix == "3 positions with 1 pegs"


def test_peg_progress_without_tqdm(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setattr(solvers._engine._progress, "SILENT_SECONDS", 0.0)
    board = solvers.PegBoard.rectangle(3, 4)
    assert solvers.finish_counts(board, start=(0, 0), progress=True)[(0, 3)] == 432
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "10/10 layers" in captured.err and "left" not in captured.err


def test_count_progress_text_shows_time_left(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    bar = solvers._engine._progress.ProgressBar("count")
    monkeypatch.setattr(solvers._engine._progress, "SILENT_SECONDS", 0.0)
    bar(5, 20)
    bar.close()
    err = capsys.readouterr().err
    assert "5/20 subproblems" in err and " s left" in err


def test_package_still_answers_after_all_this():
    assert solvers.count_tours(3, 4) == 2
