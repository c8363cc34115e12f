"""Frontier (transfer-matrix) count of knight's tours: states at the widest
step, peak memory and wall time of each case, each in a fresh Python process
(so the peak is the case's own), printed as a Markdown table on stdout::

    python benches/frontier_bench.py               # the quick cases
    python benches/frontier_bench.py --big         # also 6x7 and 7x7 (minutes, gigabytes)
    python benches/frontier_bench.py --search      # also time the search where it is feasible
    python benches/frontier_bench.py 3x16 6x6      # chosen cases
    python benches/frontier_bench.py --memory 4GB 7x7   # within a memory budget (spills to disk)
    python benches/frontier_bench.py --huge --memory 16GB --spill /scratch   # 8x8 closed (an hour)

A case is ``RxC`` (all starts, open tours), optionally ``RxC@r,c`` (from one
square) and a trailing ``c`` for closed tours (``6x6@0,0c``).  A count past
256 bits is reported as an overflow (3x146 and longer).

Measured on the 2-core development machine (see the table in docs/performance.md): 3x16
0.004 s (search 1.66 s), 3x100 0.03 s and 4x60 0.20 s (counts past 128 bits),
5x8 0.28 s (search 1.22 s), 6x6 1.32 s / 4.0 M states / 253 MB (search
0.11 s), 6x7 6.6 s / 11.7 M states / 649 MB, and 7x7 all starts
165,575,218,320 in 208 s with 229 M states at the widest step and a peak of
10.6 GB (run alone: ``cargo run --release --example frontier_count -- 7 7
all x 2``, which prints each step and the memory).  Those figures predate the
merging of mirror images and the outside-in order (issue 30); since then, on a
shared machine: 6x6 2.8 s / 1.24 M states / 93 MB (before 5.3 s / 4.05 M /
253 MB the same hour), 6x6 closed 27,177 states (137,245), 6x7 17 s / 7.2 M /
496 MB (35 s / 11.7 M / 650 MB), 6x7 closed 317,333 (521,266), 6x8 closed
639,085 (854,677), 5x8 390,059 (551,096), and 7x7 (run alone) 240 s /
146.6 M / 9,745 MB (208 s / 229 M / 10.6 GB): the before/after table is in
docs/performance.md, and ``cargo run --release --example frontier_layers --
6 7 all closed 2 both`` prints every step's states with and without the mirror.
Since the pruning of states without a completion (docs/performance.md, "States
without a completion"), alone: 7x7 165,575,218,320 in 92.8 s with 32.9 M states
at the widest step and a peak of 1,741 MB; 6x7 2.0 s / 1.83 M / 129 MB, 6x6
0.26 s / 276 K / 52 MB, 6x7 closed 54,018 states, 6x6 closed 5,057, 5x8 106,247.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap

from solvers._engine import _validate

QUICK = ["3x16", "3x60", "3x100", "4x30", "4x60", "5x8", "5x12", "6x6", "6x6@0,0c", "6x6c"]
BIG = ["6x7", "7x7"]
#: 8x8 closed tours from the lower-left corner: twice McKay's 13,267,364,410,532.
HUGE = ["8x8@7,0c"]
SEARCH_FEASIBLE = {"3x16", "5x8", "6x6", "6x6@0,0c", "6x6c"}

SNIPPET = """
import json, resource, time
from solvers import _core
rows, cols, start, closed, method, threads, memory, spill = {args!r}
t = time.perf_counter()
widest = ""
spilled = 0
try:
    if method == "frontier":
        run = _core.RunOptions(threads, None, None, memory, spill)
        board = (rows, cols, None)
        high, low, widest, spilled = _core.count_tours_frontier(board, start, closed, run)
        result = high << 128 | low
    else:
        result = _core.count_tours((rows, cols, None), start, closed, _core.RunOptions(threads))
    result = str(result)
except OverflowError:
    result = "overflow"
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps([result, widest, peak, seconds, spilled]))
"""


def parse(case: str) -> tuple[int, int, tuple[int, int] | None, bool]:
    closed = case.endswith("c")
    body = case.rstrip("c")
    size, _, at = body.partition("@")
    rows, cols = (int(x) for x in size.split("x"))
    start = tuple(int(x) for x in at.split(",")) if at else None
    return rows, cols, start, closed


def run(case: str, method: str, threads: int, memory: int | None, spill: str | None) -> list:
    rows, cols, start, closed = parse(case)
    args = (rows, cols, start, closed, method, threads, memory, spill)
    code = textwrap.dedent(SNIPPET).format(args=args)
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
    parser.add_argument("--huge", action="store_true", help="also 8x8 closed (an hour)")
    parser.add_argument("--memory", default=None, help="the frontier's memory budget (e.g. 4GB)")
    parser.add_argument("--spill", default=None, help="where layers past the budget go")
    args = parser.parse_args()
    memory = _validate.memory(args.memory)
    cases = args.cases or QUICK + (BIG if args.big else []) + (HUGE if args.huge else [])
    cores = args.threads or os.cpu_count()
    print(f"Threads: {cores}\n")
    if memory is not None:
        print(f"Memory budget: {memory:,} bytes\n")
    print("| board | method | count | states at the widest step | peak MB | GB spilled | seconds |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for case in cases:
        methods = ["frontier"] + (["search"] if args.search and case in SEARCH_FEASIBLE else [])
        for method in methods:
            print(f"running {case} {method} ...", file=sys.stderr, flush=True)
            result, widest, peak, seconds, spilled = run(
                case, method, args.threads, memory, args.spill
            )
            widest = f"{widest:,}" if widest != "" else ""
            count = f"{int(result):,}" if result.isdigit() else result
            print(
                f"| {case} | {method} | {count} | {widest} | {peak:.0f} "
                f"| {spilled / 1e9:.2f} | {seconds:.2f} |"
            )
            sys.stdout.flush()


if __name__ == "__main__":
    main()
