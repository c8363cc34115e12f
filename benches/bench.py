"""End-to-end benchmark of the installed ``solvers`` package, as a Python user calls it.

Prints a Markdown table of best-of-N wall times (``time.perf_counter``) of
``solvers.count_tours`` on one and two threads, ``solvers.find_tour`` on a
1000x1000 board (open and closed), the time to the first tour of
``solvers.tours(6, 6)``, ``solvers.count_queens(n)`` for n = 10..14 on one and
two threads, ``solvers.find_queens(10_000_000)`` (with its ``.verify()``) and
``solvers.find_queens(16, method="search")``.  Progress goes to stderr, the
table to stdout::

    python benches/bench.py
    python benches/bench.py --runs 3
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any

import solvers

#: Stop repeating a measurement once its runs have taken this long in all.
BUDGET_S = 2.0

#: (rows, cols, start): the lower-left corner, or "all" for the sum over every start.
COUNT_CASES: list[tuple[int, int, Any]] = [
    (3, 4, None),
    (4, 7, None),
    (4, 8, None),
    (5, 6, None),
    (5, 7, None),
    (6, 6, None),
    (5, 5, "all"),
    (6, 6, "all"),
]

#: OEIS A000170: the number of n-queens solutions, n = 1, 2, ...
A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512]

#: count_queens(n) rows.
QUEENS_COUNT_NS = [10, 11, 12, 13, 14]

#: find_queens(n) by the explicit construction, and by parallel search.
QUEENS_CONSTRUCT_N = 10_000_000
QUEENS_SEARCH_N = 16


def best_of(runs: int, fn: Callable[[], Any]) -> tuple[float, Any, int]:
    """Best wall time in seconds of up to ``runs`` calls (fewer once they pass
    ``BUDGET_S`` in all), the last result, and the number of calls."""
    best = float("inf")
    spent = 0.0
    done = 0
    result = None
    while True:
        t0 = time.perf_counter()
        result = fn()
        elapsed = time.perf_counter() - t0
        best = min(best, elapsed)
        spent += elapsed
        done += 1
        if done >= runs or spent >= BUDGET_S:
            return best, result, done


def ms(seconds: float) -> str:
    value = seconds * 1e3
    if value < 1:
        return f"{value:.4f}"
    if value < 10:
        return f"{value:.3f}"
    if value < 1000:
        return f"{value:.1f}"
    return f"{value:.0f}"


def speedup(t1: float, t2: float) -> str:
    return f"{t1 / t2:.2f}x"


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def count_row(rows: int, cols: int, start: Any, runs: int) -> str:
    square = (rows - 1, 0) if start is None else start
    label = "every square" if start == "all" else str(square)
    log(f"count_tours({rows}, {cols}, start={square!r}) ...")
    results = {}
    for threads in (1, 2):
        best, count, done = best_of(
            runs, lambda t=threads: solvers.count_tours(rows, cols, start=square, threads=t)
        )
        results[threads] = (best, count)
        log(f"  threads={threads}: {count} tours, {best * 1e3:.3f} ms (best of {done})")
    (t1, c1), (t2, c2) = results[1], results[2]
    if c1 != c2:
        raise AssertionError(f"{rows}x{cols}: threads=1 counts {c1}, threads=2 counts {c2}")
    call = f"`count_tours({rows}, {cols})`"
    return f"| {call} | {label} | {c1} | {ms(t1)} | {ms(t2)} | {speedup(t1, t2)} |"


def find_row(n: int, closed: bool, runs: int) -> str:
    kind = "closed" if closed else "open"
    log(f"find_tour({n}, {n}, closed={closed}) ...")
    results = {}
    for threads in (1, 2):
        best, tour, done = best_of(
            min(runs, 3),
            lambda t=threads: solvers.find_tour(n, n, closed=closed, threads=t),
        )
        if tour is None or not tour.verify(closed=closed):
            raise AssertionError(f"find_tour({n}, {n}, closed={closed}) gave no valid tour")
        results[threads] = best
        log(f"  threads={threads}: {best * 1e3:.1f} ms (best of {done})")
    t1, t2 = results[1], results[2]
    call = f"`find_tour({n}, {n}, closed={closed})`"
    result = f"{kind} tour of {n * n} squares (verified)"
    return f"| {call} | {(n - 1, 0)} | {result} | {ms(t1)} | {ms(t2)} | {speedup(t1, t2)} |"


def first_tour() -> solvers.Tour:
    stream = solvers.tours(6, 6)
    try:
        return next(stream)
    finally:
        stream.close()


def first_tour_row(runs: int) -> str:
    log("next(tours(6, 6)) ...")
    best, tour, done = best_of(runs, first_tour)
    if not tour.verify():
        raise AssertionError("tours(6, 6) gave an invalid first tour")
    log(f"  {best * 1e3:.3f} ms (best of {done})")
    call = "first of `tours(6, 6)`"
    return f"| {call} | {tour.start} | 1 tour (verified) | {ms(best)} | - | - |"


def queens_count_row(n: int, runs: int) -> str:
    log(f"count_queens({n}) ...")
    results = {}
    for threads in (1, 2):
        best, count, done = best_of(runs, lambda t=threads: solvers.count_queens(n, threads=t))
        results[threads] = (best, count)
        log(f"  threads={threads}: {count} solutions, {best * 1e3:.3f} ms (best of {done})")
    (t1, c1), (t2, c2) = results[1], results[2]
    if c1 != c2:
        raise AssertionError(f"count_queens({n}): threads=1 counts {c1}, threads=2 counts {c2}")
    if c1 != A000170[n - 1]:
        raise AssertionError(f"count_queens({n}) = {c1}, but OEIS A000170 says {A000170[n - 1]}")
    return f"| `count_queens({n})` | - | {c1} | {ms(t1)} | {ms(t2)} | {speedup(t1, t2)} |"


def construct_and_verify(n: int) -> solvers.Placement:
    placement = solvers.find_queens(n)
    if placement is None or len(placement) != n or not placement.verify():
        raise AssertionError(f"find_queens({n}) gave no valid placement")
    return placement


def queens_construct_row(n: int, runs: int) -> str:
    # The construction is sequential (threads does not apply): one column.
    log(f"find_queens({n}).verify() ...")
    best, _, done = best_of(min(runs, 3), lambda: construct_and_verify(n))
    log(f"  {best * 1e3:.1f} ms (best of {done})")
    call = f"`find_queens({n:_})` + `.verify()`"
    return f"| {call} | - | {n} queens (verified) | {ms(best)} | - | - |"


def queens_search_row(n: int, runs: int) -> str:
    log(f'find_queens({n}, method="search") ...')
    results = {}
    for threads in (1, 2):
        best, placement, done = best_of(
            runs, lambda t=threads: solvers.find_queens(n, method="search", threads=t)
        )
        if placement is None or len(placement) != n or not placement.verify():
            raise AssertionError(f'find_queens({n}, method="search") gave no valid placement')
        results[threads] = best
        log(f"  threads={threads}: {best * 1e3:.3f} ms (best of {done})")
    t1, t2 = results[1], results[2]
    call = f'`find_queens({n}, method="search")`'
    return f"| {call} | - | {n} queens (verified) | {ms(t1)} | {ms(t2)} | {speedup(t1, t2)} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="most timed runs per cell")
    args = parser.parse_args(argv)
    runs = max(1, args.runs)

    lines = [
        "| call | start | result | threads=1 (ms) | threads=2 (ms) | 1->2 speed-up |",
        "|---|---|--:|--:|--:|--:|",
    ]
    for rows, cols, start in COUNT_CASES:
        lines.append(count_row(rows, cols, start, runs))
    for closed in (False, True):
        lines.append(find_row(1000, closed, runs))
    lines.append(first_tour_row(runs))
    for n in QUEENS_COUNT_NS:
        lines.append(queens_count_row(n, runs))
    lines.append(queens_construct_row(QUEENS_CONSTRUCT_N, runs))
    lines.append(queens_search_row(QUEENS_SEARCH_N, runs))

    print(
        f"`solvers` {solvers.__version__}, Python {sys.version.split()[0]}, "
        f"{os.cpu_count()} logical core(s). Wall time of each call from Python, best of up to "
        f"{runs} runs (fewer once a cell has taken {BUDGET_S:g} s; at most 3 for find_tour "
        "and the 10-million-queens construction)."
    )
    print()
    print("\n".join(lines))
    print()
    print(
        '`count_tours` counts directed open tours; start `every square` is `start="all"`. '
        "The tours() row times `tours(6, 6)` up to its first tour (producer thread start, "
        "search, transfer) and closing the stream. `count_queens` counts all solutions "
        "(checked against OEIS A000170); the construction row includes re-checking the "
        "placement in Rust and is sequential; the search rows stop at the first placement "
        "any thread finds."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
