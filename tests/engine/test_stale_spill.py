"""A count killed with ``kill -9`` cannot remove its spill directory; the
next count that spills in the same place removes it (and only directories of
processes of this host that no longer run)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

import pytest
from hang import HANG_GUARD
from solvers import count_tours

# 7x7 from every square runs for minutes; under a budget of 1 MiB its
# layers spill from the first steps.
SPILLING = """
import sys
from solvers import count_tours
count_tours(7, 7, start="all", method="frontier", memory="1MiB", spill=sys.argv[1], threads=1)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="processes are looked up in /proc")
def test_a_killed_counts_spill_directory_goes_with_the_next_count(tmp_path):
    killed = subprocess.Popen([sys.executable, "-c", SPILLING, str(tmp_path)])
    try:
        deadline = time.monotonic() + HANG_GUARD
        while not os.listdir(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        killed.send_signal(signal.SIGKILL)
        killed.wait()
    (left,) = os.listdir(tmp_path)
    # named for this host and the killed process (the hostname's '-' as '_')
    host = socket.gethostname()
    assert left.startswith(f"solvers-spill-{host.replace('-', '_')}-{killed.pid}-")
    another = tmp_path / "solvers-spill-another_host-1-0"  # another host's: stays
    another.mkdir()
    # a count that spills (the package's own example: docs/memory.md)
    spilled = count_tours(6, 6, start="all", method="frontier", memory="2MiB", spill=tmp_path)
    assert spilled == 6637920
    assert os.listdir(tmp_path) == [another.name]
