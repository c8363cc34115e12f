"""Memory: a call that needs more than it can have ends in a clean
``MemoryError``, or a ``ValueError`` naming the estimate and the limit,
never an allocation abort; and no thread outlives a call.

Each memory case runs in a child interpreter under ``prlimit --as`` (an
address-space limit, so a mistake cannot take the machine down) and is
chosen to fail early, within seconds.  The child prints what the call
raised, then shows the interpreter still works by counting the 1728
directed tours of the 5x5 board (OEIS A165134).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import solvers
from hang import HANG_GUARD

from engine.test_cancel import READY, _interrupt

PRLIMIT = shutil.which("prlimit")
LINUX = sys.platform.startswith("linux")

needs_prlimit = pytest.mark.skipif(
    PRLIMIT is None or not LINUX, reason="needs prlimit (util-linux) on Linux"
)

GB = 10**9
MB = 10**6

CHILD = """
import solvers
try:
    result = {call}
except (MemoryError, ValueError) as e:
    print("raised", type(e).__name__, e)
else:
    print("returned", result)
print("after", solvers.count_tours(5, 5, start="all"))
"""


def limited(call: str, limit: int, timeout: float = 120, arenas: int | None = None) -> str:
    """The child's report of ``call`` under an address-space ``limit``
    (bytes), after checking that it exited cleanly and still counted;
    ``arenas``: at most that many malloc arenas in the child (glibc's
    ``MALLOC_ARENA_MAX``: each thread's arena reserves 64 MB of address
    space, so the room a limit leaves depends on how many threads ran)."""
    env = dict(os.environ)
    if arenas is not None:
        env["MALLOC_ARENA_MAX"] = str(arenas)
    child = subprocess.run(
        [PRLIMIT, f"--as={limit}", sys.executable, "-c", CHILD.format(call=call)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )
    out = child.stdout + child.stderr
    assert "memory allocation of" not in out, out  # Rust's abort message
    assert child.returncode == 0, f"exit status {child.returncode} (134: an abort)\n{out}"
    lines = child.stdout.splitlines()
    assert lines[-1] == "after 1728", out
    return lines[-2]


@needs_prlimit
@pytest.mark.slow
def test_a_frontier_count_past_the_limit_is_a_memory_error():
    # 7x9 from every square needs tens of GB at its widest step; under
    # 800 MB the tables of step 27 or so of 63 no longer fit (seconds in).
    # (spill=False: without it the count would spill its layers to disk.)
    report = limited('solvers.count_tours(7, 9, start="all", spill=False)', 800 * MB)
    assert report.startswith("raised MemoryError"), report
    assert "frontier count's tables at step" in report
    assert "available): it needs" in report


@needs_prlimit
def test_find_queens_past_the_limit_is_refused_up_front():
    # 2**30 queens: 4 GiB of columns, twice (the bytes and the array).
    report = limited("solvers.find_queens(2**30)", 2 * GB)
    assert report.startswith("raised ValueError find_queens(1073741824) needs about 8.0 GiB")
    assert "available" in report


@needs_prlimit
@pytest.mark.parametrize("closed", [False, True])
def test_find_tour_on_the_largest_board_is_refused_up_front(closed):
    side = 10_000  # 10**8 cells, the largest board find_tour takes
    assert side * side == solvers.knights.MAX_FIND_CELLS
    report = limited(f"solvers.find_tour({side}, {side}, closed={closed})", 3 * GB // 2)
    assert report.startswith(f"raised ValueError find_tour on a {side}x{side} board"), report
    assert "needs about 2.1 GiB" in report and "available" in report


@needs_prlimit
def test_even_the_largest_board_past_the_limit_is_a_memory_error():
    # 100 MB of cells do not fit beside the interpreter under 120 MB.
    report = limited("solvers.find_tour(10_000, 10_000)", 120 * MB)
    assert report.startswith(("raised MemoryError", "raised ValueError")), report
    assert "the board" in report or "needs about" in report


@needs_prlimit
@pytest.mark.slow
def test_a_plan_past_the_limit_is_a_memory_error_and_past_the_cap_a_value_error():
    plan = "solvers.distributed.plan(solvers.count_tours, 8, 8, subproblems={})"
    report = limited(plan.format(2**24), 3 * GB // 2)
    assert report.startswith("raised MemoryError"), report
    assert "the subproblems of a plan" in report
    report = limited(plan.format(2**24 + 1), 1 * GB)
    assert report == (
        "raised ValueError subproblems must be at least 1 and at most 16777216 (2**24), "
        "got 16777217"
    )


@needs_prlimit
@pytest.mark.parametrize(
    ("call", "published"),
    [
        ("solvers.count_tours(6, 6, start=(0, 0), threads=8)", 524486),  # A165134 corner
        ("solvers.count_queens(13, threads=8)", 73712),  # A000170
    ],
)
def test_many_threads_under_a_tight_limit_still_count(call, published):
    # Each worker thread reserves address space (its stack and a 64 MiB
    # allocator arena); under 200 MB the count runs on fewer workers
    # rather than aborting on a small allocation.
    assert limited(call, 200 * MB) == f"returned {published}"


def test_a_count_that_needs_no_memory_works_with_eight_threads():
    assert solvers.count_tours(5, 5, start="all", threads=8) == 1728
    assert solvers.count_tours(3, 16, start="all", method="frontier", threads=8) == 17273760
    assert solvers.count_queens(10, threads=8) == 724


NO_THREAD_LEFT = """
import os, time
import solvers
from solvers import distributed

solvers.count_tours(5, 5, start="all")
solvers.count_tours(3, 16, start="all", method="frontier")
solvers.count_queens(10)
solvers.find_queens(12, method="search")
solvers.find_tour(8, 8)
work = distributed.plan(solvers.count_tours, 5, 5, start="all", subproblems=64)
assert sum(distributed.count_subproblems(work.subproblems)) == 1728
# Per-call pools end with their call; give their threads a moment to exit.
deadline = time.monotonic() + 10
while len(os.listdir("/proc/self/task")) > 1 and time.monotonic() < deadline:
    time.sleep(0.05)
names = []
for task in sorted(os.listdir("/proc/self/task")):
    with open(f"/proc/self/task/{task}/comm") as f:
        names.append(f.read().strip())
print(len(names), names)
"""


@pytest.mark.skipif(not LINUX, reason="reads /proc/self/task")
def test_no_thread_outlives_its_call():
    # rayon's global pool, once started, idles for the life of the process;
    # every pool here is built for one call and gone after it.
    child = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(NO_THREAD_LEFT)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "RAYON_NUM_THREADS": "3"},
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.split(" ", 1)[0] == "1", child.stdout


@pytest.mark.skipif(not LINUX, reason="POSIX signals and RLIMIT_AS")
def test_ctrl_c_stops_a_plan_being_built():
    # Planning 8x8 into 2**24 subproblems takes seconds (and then runs out
    # of the 3 GB the child allows itself): Ctrl-C must not wait for it.
    program = READY + (
        "import resource; resource.setrlimit(resource.RLIMIT_AS, (3 * 10**9, 3 * 10**9))\n"
        "import solvers\n"
        "solvers.distributed.plan(solvers.count_tours, 8, 8, subproblems=2**24)\n"
    )
    code, _, err, elapsed = _interrupt(program, after=0.5)
    assert code != 0
    assert "KeyboardInterrupt" in err, err
    assert elapsed < HANG_GUARD
