"""Frontier (transfer-matrix) count of knight's tours: states at the widest
step, peak memory and wall time of each case, each in a fresh Python process
(so the peak is the case's own), printed as a Markdown table on stdout::

    python benches/frontier_bench.py               # the quick cases
    python benches/frontier_bench.py --big         # also 6x7 and 7x7 (minutes, gigabytes)
    python benches/frontier_bench.py --search      # also time the search where it is feasible
    python benches/frontier_bench.py 3x16 6x6      # chosen cases

A case is ``RxC`` (all starts, open tours), optionally ``RxC@r,c`` (from one
square) and a trailing ``c`` for closed tours (``6x6@0,0c``).  A count past
128 bits is reported as an overflow (3x100: the count needs more bits).

Measured on the 2-core development machine (shared, so times vary by ~1.5x):
3x16 0.004 s (search 1.6 s), 3x73 (the longest 3xn whose count fits 128 bits)
0.02 s, 4x53 (the longest 4xn) 0.15 s, 5x8 0.28 s (search 1.2 s), 5x12 1.1 s,
6x6 1.35 s / 4.0 M states / 254 MB (search 0.11 s), 6x7 7.0 s / 11.7 M
states / 649 MB.  7x7 was not run to the end (its widest layers need about
10-15 GB): with the count stopped at 3.8 GB resident it had reached step
32 of 49 in 18 s, the layers growing 9.5 M, 23.6 M, 34.7 M, 56.3 M, 90.3 M
states over steps 28-32 (peak 3.2 GB while building the 90 M layer).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap

QUICK = ["3x16", "3x60", "3x100", "4x30", "4x60", "5x8", "5x12", "6x6", "6x6@0,0c", "6x6c"]
BIG = ["6x7", "7x7"]
SEARCH_FEASIBLE = {"3x16", "5x8", "6x6", "6x6@0,0c", "6x6c"}

SNIPPET = """
import json, resource, time
from solvers import _core
rows, cols, start, closed, method, threads = {args!r}
t = time.perf_counter()
widest = ""
try:
    if method == "frontier":
        high, low, widest = _core.count_tours_frontier(rows, cols, None, start, closed, threads)
        result = high << 128 | low
    else:
        result = _core.count_tours(rows, cols, None, start, closed, threads)
    result = str(result)
except OverflowError:
    result = "overflow"
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps([result, widest, peak, seconds]))
"""


def parse(case: str) -> tuple[int, int, tuple[int, int] | None, bool]:
    closed = case.endswith("c")
    body = case.rstrip("c")
    size, _, at = body.partition("@")
    rows, cols = (int(x) for x in size.split("x"))
    start = tuple(int(x) for x in at.split(",")) if at else None
    return rows, cols, start, closed


def run(case: str, method: str, threads: int) -> list:
    rows, cols, start, closed = parse(case)
    code = textwrap.dedent(SNIPPET).format(args=(rows, cols, start, closed, method, threads))
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*")
    parser.add_argument("--big", action="store_true", help="also 6x7 and 7x7")
    parser.add_argument("--search", action="store_true", help="also time the search")
    parser.add_argument("--threads", type=int, default=0, help="0: one per core")
    args = parser.parse_args()
    cases = args.cases or QUICK + (BIG if args.big else [])
    cores = args.threads or os.cpu_count()
    print(f"Threads: {cores}\n")
    print("| board | method | count | states at the widest step | peak MB | seconds |")
    print("|---|---|---:|---:|---:|---:|")
    for case in cases:
        methods = ["frontier"] + (["search"] if args.search and case in SEARCH_FEASIBLE else [])
        for method in methods:
            print(f"running {case} {method} ...", file=sys.stderr, flush=True)
            result, widest, peak, seconds = run(case, method, args.threads)
            widest = f"{widest:,}" if widest != "" else ""
            count = f"{int(result):,}" if result.isdigit() else result
            print(f"| {case} | {method} | {count} | {widest} | {peak:.0f} | {seconds:.2f} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
