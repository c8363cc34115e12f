"""A peg count that needs more memory than it may have ends in ``MemoryError``
(naming what was being built and how much it needed), never in an allocation
abort, and the interpreter goes on working afterwards.

Each case runs in a child process under ``prlimit --as`` (an address-space
limit: the allocation itself fails, as on a machine that is full), so a
mistake cannot take the machine down.  The French board from (0, 2) with the
last peg anywhere needs many GiB (issue 12: it aborted the interpreter under
6 GB).  Under 1.5 GB the tables summing the 24-peg layer do not fit; under
2 GB they do, and the 24-peg layer itself does not.  (Under 3 GB it is the
23-peg layer, the same path a layer later and three times slower.)  The
child pins ``threads=2``: every worker thread takes address space (its stack
and its malloc arena), so the limits mean the same on every machine; and
``spill=False``: without it the count would spill its layers to disk.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(
    shutil.which("prlimit") is None or not sys.platform.startswith("linux"),
    reason="needs prlimit (util-linux) on Linux",
)

CHILD = textwrap.dedent(
    """
    from solvers import PegBoard, count_peg_solutions
    try:
        count_peg_solutions(PegBoard.french(), start=(0, 2), finish=None, threads=2, spill=False)
    except MemoryError as error:
        print("MemoryError:", error)
    else:
        print("no error")
    # The same interpreter still counts.
    print("after:", count_peg_solutions(PegBoard.triangle(5), start=(0, 0), finish=None))
    """
)


@pytest.mark.slow
def test_a_count_too_big_for_its_memory_is_a_memory_error():
    child = subprocess.run(
        ["prlimit", "--as=1500000000", sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "memory allocation of" not in child.stderr, child.stderr
    assert child.returncode == 0, (child.returncode, child.stderr)
    lines = child.stdout.splitlines()
    assert lines[0].startswith("MemoryError: not enough memory for the "), lines
    assert "it needs" in lines[0] and ("pegs" in lines[0] or "tables" in lines[0]), lines
    assert lines[1] == "after: 29760", lines
