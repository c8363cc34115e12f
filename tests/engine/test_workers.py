"""Worker processes that die with their run: the command line's ``--workers``
pool and a user's process pool, their parent SIGKILLed mid-count, and Ctrl-C
on ``--workers``, which stops at once (``solvers._engine._workers``).

The workers are found in ``/proc`` (their ``PPid``), so these tests run on
Linux only.  Every bound is a hang guard, not a timing: the workers are gone
in well under a second on an idle machine.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import solvers
from solvers._engine import _workers

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")

#: Seconds a killed run's workers may take to go (the watcher looks every 0.5 s).
GONE = 10

#: Seconds a run may take to start its workers and their first tasks.
STARTED = 120


def _status(pid: int) -> dict[str, str]:
    """The fields of ``/proc/pid/status`` (empty once the process is gone)."""
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
            return dict(line.rstrip("\n").split(":\t", 1) for line in handle if ":\t" in line)
    except OSError:
        return {}


def _started(pid: int) -> str | None:
    """When ``pid`` started (field 22 of ``/proc/pid/stat``): a process, not a reused pid."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            return handle.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def _children(parent: int) -> list[int]:
    pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    return [pid for pid in pids if _status(pid).get("PPid") == str(parent)]


def _busy_workers(child: subprocess.Popen[bytes], workers: int) -> dict[int, str | None]:
    """The ``workers`` worker processes of ``child`` (pid: start time), once
    each counts (a worker starts with one thread; its first task starts the
    watcher and the Rust pool)."""
    deadline = time.monotonic() + STARTED
    while time.monotonic() < deadline:
        assert child.poll() is None, "the run ended before its workers counted"
        found = _children(child.pid)
        if len(found) >= workers and all(
            int(_status(pid).get("Threads", "0")) >= 2 for pid in found
        ):
            return {pid: _started(pid) for pid in found}
        time.sleep(0.05)
    pytest.fail(f"no {workers} busy workers within {STARTED} s")


def _alive(workers: dict[int, str | None]) -> list[int]:
    """The workers still running (a zombie has finished; a pid that now
    names another process has too)."""
    return [
        pid
        for pid, start in workers.items()
        if _started(pid) == start and not _status(pid).get("State", "Z").startswith("Z")
    ]


def _gone(workers: dict[int, str | None]) -> list[int]:
    """Wait up to :data:`GONE` seconds for ``workers`` to go; those left (killed here)."""
    deadline = time.monotonic() + GONE
    while _alive(workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _alive(workers)
    for pid in left:  # no stray processes for the rest of the suite
        os.kill(pid, signal.SIGKILL)
    return left


def _start(argv: list[str], tmp_path, **popen) -> subprocess.Popen[bytes]:
    """``python argv`` with stderr to a file (a pipe would wait on every
    process that holds it: the orphans too)."""
    err = open(tmp_path / "stderr", "wb")
    with err:
        return subprocess.Popen(
            [sys.executable, *argv], stdout=subprocess.DEVNULL, stderr=err, **popen
        )


def _cli(tmp_path, **popen) -> subprocess.Popen[bytes]:
    """``solvers queens 19 --workers 2 --checkpoint DIR``: minutes of counting."""
    checkpoint = str(tmp_path / "q19")
    argv = ["-m", "solvers", "queens", "19", "--workers", "2", "--checkpoint", checkpoint]
    return _start(argv, tmp_path, **popen)


def _ended(child: subprocess.Popen[bytes]) -> int:
    try:
        return child.wait(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def _killed_leaves_no_worker(child: subprocess.Popen[bytes]) -> None:
    """SIGKILL ``child`` once its 2 workers count: they must go with it."""
    try:
        workers = _busy_workers(child, 2)
        child.send_signal(signal.SIGKILL)
        assert _ended(child) == -signal.SIGKILL
        assert _gone(workers) == []
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_the_command_line_s_workers_die_with_it(tmp_path):
    _killed_leaves_no_worker(_cli(tmp_path))


def test_a_user_s_process_pool_dies_with_its_driver(tmp_path):
    program = (
        "from concurrent.futures import ProcessPoolExecutor\n"
        "import solvers\n"
        "with ProcessPoolExecutor(2) as pool:\n"
        "    solvers.count_queens(19, executor=pool)\n"
    )
    _killed_leaves_no_worker(_start(["-c", program], tmp_path))


@pytest.mark.parametrize("group", [False, True], ids=["the-parent", "the-terminal-s-group"])
def test_ctrl_c_stops_the_workers_at_once(tmp_path, group):
    # A terminal's Ctrl-C reaches every process of the group, the workers too;
    # `kill -INT` only the parent.
    child = _cli(tmp_path, start_new_session=True)
    try:
        workers = _busy_workers(child, 2)
        if group:
            os.killpg(child.pid, signal.SIGINT)
        else:
            child.send_signal(signal.SIGINT)
        assert _ended(child) == 130
        assert _gone(workers) == []
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    checkpoint = tmp_path / "q19"
    assert (tmp_path / "stderr").read_text().splitlines() == [
        "solvers: stopping the 2 worker processes (Ctrl-C)",
        f"solvers: interrupted (run the same command, with --checkpoint {checkpoint}, "
        "to go on from there)",
    ]


def test_no_watcher_in_the_driver():
    # A task run in the process that submits it (a thread pool): its parent
    # is the user's shell, which may go without the run ending.
    with ThreadPoolExecutor(2) as pool:
        assert solvers.count_queens(8, executor=pool) == 92
    assert not _workers.watching()
    assert "solvers-parent-watcher" not in [thread.name for thread in threading.enumerate()]


def test_the_pools_initializer(tmp_path):
    program = (
        "import ctypes, os, signal, sys\n"
        "from solvers._engine import _workers\n"
        "_workers.die_with_parent(os.getppid())\n"
        "libc = ctypes.CDLL(None)\n"
        "sig = ctypes.c_int(0)\n"
        "libc.prctl(2, ctypes.byref(sig), 0, 0, 0)  # PR_GET_PDEATHSIG\n"
        "print(sig.value, signal.getsignal(signal.SIGINT) is signal.SIG_IGN)\n"
        "_workers.die_with_parent(os.getppid() + 1)  # the parent is gone: exits\n"
        "print('not reached')\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (_workers.EXIT_STATUS, f"{signal.SIGKILL} True\n")
