"""How fast Ctrl-C stops each long call of the package (issue 46): the
latencies the tests no longer assert (``tests/engine/test_cancel.py`` only checks
that a call stops, against its hang guard).

Each call of ``LONG_CALLS`` (the tests' list: every family's long counts,
listings and finds) runs in a child process that sends itself SIGINT a
moment into the call and measures the time from the signal to the
``KeyboardInterrupt``.  Prints a Markdown table: median and worst of
``--runs`` children per call, and the load average while they ran, since a
loaded machine stretches every figure.

Run: ``python benches/cancel_bench.py --runs 5`` (about a minute).
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from cover_bench import machine  # noqa: E402
from test_cancel import LONG_CALLS, long_call_program  # noqa: E402


def latency(name: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", long_call_program(name)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if done.returncode != 0 or done.stdout.startswith("finished"):
        raise RuntimeError(f"{name}: {done.stdout or done.stderr}")
    return float(done.stdout.split()[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="+", choices=sorted(LONG_CALLS), default=None)
    args = parser.parse_args()
    names = args.only or sorted(LONG_CALLS)
    print(f"{datetime.date.today()}, {machine()}")
    print()
    print("| call | median (s) | worst (s) | load average |")
    print("|---|--:|--:|--:|")
    for name in names:
        seconds = [latency(name) for _ in range(args.runs)]
        load = os.getloadavg()[0]
        print(
            f"| {name} | {statistics.median(seconds):.3f} | {max(seconds):.3f} | {load:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
