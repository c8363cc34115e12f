"""find_tour on long strips and a huge square (issue 27): prints a Markdown table.

Run once: ``python benches/find_bench.py`` (minutes; the 10^4 x 10^4 board needs
about 2 GB).
"""

from __future__ import annotations

import platform
import time

from solvers import find_tour

CASES = [(3, 1000), (3, 100_000), (3, 1_000_000), (4, 1_000_000), (10_000, 10_000)]
# Open tours from a start deep inside a strip (the start's colour/line allows one).
DEEP = [(3, 1_000_001, (1, 500_001)), (4, 1_000_000, (0, 500_000)), (4, 1_000_000, (1, 500_000))]


def row(rows: int, cols: int, start: tuple[int, int] | None, closed: bool) -> str:
    """One table row: find the tour, time it, check it."""
    where = {} if start is None else {"start": start}
    t = time.perf_counter()
    tour = find_tour(rows, cols, closed=closed, **where)
    took = time.perf_counter() - t
    if tour is None:
        result = "None"
    else:
        result = "verified tour" if tour.verify(closed=closed) else "WRONG"
    board = f"{rows}x{cols}" if start is None else f"{rows}x{cols} from {start}"
    return f"| {board} | {closed} | {result} | {took:.2f} |"


def main() -> None:
    print(f"machine: {platform.machine()}, {platform.processor() or 'cpu'}")
    print()
    print("| board | closed | result | seconds |")
    print("|---|---|---|--:|")
    for rows, cols in CASES:
        for closed in (False, True):
            print(row(rows, cols, None, closed), flush=True)
    for rows, cols, start in DEEP:
        print(row(rows, cols, start, False), flush=True)


if __name__ == "__main__":
    main()
