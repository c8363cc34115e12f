"""The end-to-end timings the house refactors (issues 28, 47) must keep: tours of
6x6 from every start, the frontier on 6x7, Q(18), the pentominoes in 6x10 (the
cover search), and the English board's centre game.  Best of ``--runs`` wall
times on ``--threads`` threads, a Markdown table on stdout::

    python benches/house_bench.py --runs 3
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import solvers


def cases(threads: int) -> list[tuple[str, Callable[[], Any], int]]:
    english = solvers.PegBoard.english()
    return [
        (
            "count_tours(6, 6, start='all')",
            lambda: solvers.count_tours(6, 6, start="all", threads=threads),
            6637920,
        ),
        (
            "count_tours(6, 7, method='frontier')",
            lambda: solvers.count_tours(6, 7, method="frontier", threads=threads),
            None,
        ),
        ("count_queens(18)", lambda: solvers.count_queens(18, threads=threads), 666090624),
        (
            "TilingPuzzle((6, 10)).count()",
            lambda: solvers.TilingPuzzle((6, 10)).count(threads=threads),
            9356,
        ),
        (
            "count_peg_solutions(english, start=(3, 3))",
            lambda: solvers.count_peg_solutions(english, start=(3, 3), threads=threads),
            None,
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    print(f"| call (threads={args.threads}) | best of {args.runs} (s) | answer |")
    print("|---|---:|---:|")
    for name, fn, expected in cases(args.threads):
        best = float("inf")
        answer = None
        for _ in range(args.runs):
            t0 = time.perf_counter()
            answer = fn()
            best = min(best, time.perf_counter() - t0)
        if expected is not None and answer != expected:
            raise SystemExit(f"{name} = {answer}, expected {expected}")
        print(f"| `{name}` | {best:.3f} | {answer} |", flush=True)


if __name__ == "__main__":
    main()
