"""Exact cover on huge problems (issue 46): the 2 x n domino strip, whose
1,000,000s of options once made ``find_cover`` quadratic and timeouts late.

Prints two Markdown tables:

* finding one cover (``find_cover``, 1 and 2 threads) and the first of the
  listing (``next(covers(...))``) on strips of 10^4 to 2 x 10^6 columns, with
  the time to state the problem (``ExactCover(options)``) apart;
* how late a timeout and a Ctrl-C stop a count (``count_covers(...,
  method="search")``, whose covers are far too many to count) and a find
  (``finished`` where it ends first): the time past the deadline, and from
  SIGINT to ``KeyboardInterrupt``, measured in a child process on 2 threads.

Run once: ``python benches/strip_bench.py`` (a few minutes; the 2 x 10^6
strip needs about 3 GB).  ``--quick`` stops at 2 x 350,000.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import subprocess
import sys
import time

import solvers
from cover_bench import machine

COLUMNS = [10_000, 40_000, 350_000, 1_000_000, 2_000_000]


def strip_options(n: int) -> list[tuple[tuple[int, int], ...]]:
    """The dominoes of a 2 x n strip: a vertical one at each column, then the
    two horizontal ones to the next column."""
    options: list[tuple[tuple[int, int], ...]] = []
    for c in range(n):
        options.append(((0, c), (1, c)))
        if c + 1 < n:
            options.append(((0, c), (0, c + 1)))
            options.append(((1, c), (1, c + 1)))
    return options


def timed(call):  # type: ignore[no-untyped-def]
    began = time.perf_counter()
    result = call()
    return result, time.perf_counter() - began


def find_rows(columns: list[int]) -> None:
    print(
        "| strip | options | state it (s) | find, 1 thread (s) | find, 2 threads (s) "
        "| first listed (s) |"
    )
    print("|---|--:|--:|--:|--:|--:|")
    for n in columns:
        problem, stated = timed(lambda n=n: solvers.ExactCover(strip_options(n)))
        cells = []
        for threads in (1, 2):
            cover, took = timed(lambda t=threads, p=problem: solvers.find_cover(p, threads=t))
            assert cover is not None and solvers.is_cover(problem, cover)
            cells.append(f"{took:.2f}")
        first, took = timed(lambda p=problem: next(solvers.covers(p)))
        assert solvers.is_cover(problem, first)
        cells.append(f"{took:.2f}")
        print(
            f"| 2 x {n:,} | {len(problem):,} | {stated:.2f} | " + " | ".join(cells) + " |",
            flush=True,
        )


#: A child that states the strip, then runs ``call`` (a timeout of
#: ``TIMEOUT`` s, or SIGINT sent at ``AFTER`` s) and prints how late it stopped.
CHILD = """
import os, signal, sys, threading, time
sys.path.insert(0, {here!r})
import solvers
from strip_bench import strip_options
n, kind, call = {n}, {kind!r}, {call!r}
problem = solvers.ExactCover(strip_options(n))
calls = {{
    'count': lambda **k: solvers.count_covers(problem, method='search', threads=2, **k),
    'find': lambda **k: solvers.find_cover(problem, threads=2, **k),
}}
began = time.monotonic()
if kind == 'timeout':
    try:
        calls[call](timeout={timeout})
        print('finished')
    except TimeoutError:
        print(f'{{time.monotonic() - began - {timeout}:.3f}}')
else:
    sent = []
    def fire():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)
    threading.Timer({after}, fire).start()
    try:
        calls[call]()
        print('finished')
    except KeyboardInterrupt:
        print(f'{{time.monotonic() - sent[0]:.3f}}')
"""


def stop_rows(columns: list[int], timeout: float, after: float) -> None:
    here = str(__import__("pathlib").Path(__file__).resolve().parent)
    print(f"| strip | call | past a timeout of {timeout:g} s | SIGINT to KeyboardInterrupt |")
    print("|---|---|--:|--:|")
    for n in columns:
        for call in ("count", "find"):
            cells = []
            for kind in ("timeout", "sigint"):
                program = CHILD.format(
                    here=here, n=n, kind=kind, call=call, timeout=timeout, after=after
                )
                done = subprocess.run(
                    [sys.executable, "-c", program], capture_output=True, text=True, timeout=600
                )
                out = done.stdout.strip() or done.stderr.strip().splitlines()[-1]
                cells.append(out if out == "finished" else f"{float(out):.3f} s")
            print(f"| 2 x {n:,} | {call} | " + " | ".join(cells) + " |", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="strips up to 2 x 350,000")
    args = parser.parse_args()
    columns = [n for n in COLUMNS if not args.quick or n <= 350_000]
    print(f"{datetime.date.today()}, {machine()}, Python {platform.python_version()}")
    print()
    find_rows(columns)
    print()
    stop_rows([n for n in columns if n >= 350_000], timeout=8.0, after=8.0)


if __name__ == "__main__":
    main()
