"""What splitting a count costs: each count run locally (``threads=2``), with
a checkpoint file, on a ``ProcessPoolExecutor(2)`` and on a Dask
``LocalCluster`` of 2 worker processes (1 thread each, ``threads=1`` per task),
printed as a Markdown table with the overhead over the local call::

    python benches/dist_bench.py            # tours 4x12 and 18 queens, the layered DPs
    python benches/dist_bench.py --quick    # tours 4x12 and 17 queens, the layered DPs

The layered DPs (the frontier count of 6x7 tours from every square, the peg
count of the English board) go on the executors as rounds of tasks passing
partition files; the frontier's checkpoint is a directory of layers, the
peg's a file.

Needs ``pip install ".[dist]"``.  Every way must give the same count.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor

import solvers


def _timed(call: Callable[[], int], runs: int = 1) -> tuple[int, float]:
    """The result of ``call`` and its least wall time over ``runs`` calls."""
    best = float("inf")
    for _ in range(max(1, runs)):
        began = time.perf_counter()
        result = call()
        best = min(best, time.perf_counter() - began)
    return result, best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="17 queens instead of 18")
    parser.add_argument(
        "--runs", type=int, default=1, help="time each way this often, keep the least"
    )
    parser.add_argument("--only", help="the counts whose name holds this text")
    args = parser.parse_args(argv)
    from dask.distributed import Client, LocalCluster

    n = 17 if args.quick else 18
    cases: list[tuple[str, Callable[..., int]]] = [
        (
            "knight's tours 4x12 from the corner",
            lambda **kw: solvers.count_tours(4, 12, method="search", **kw),
        ),
        (f"{n} queens", lambda **kw: solvers.count_queens(n, **kw)),
        (
            "knight's tours 6x7, all starts, frontier",
            lambda **kw: solvers.count_tours(6, 7, start="all", method="frontier", **kw),
        ),
        (
            "pentominoes on 6x10 (exact cover)",
            lambda **kw: solvers.count_covers(
                solvers.TilingPuzzle((6, 10), "pentominoes").exact_cover(), method="search", **kw
            ),
        ),
        (
            "peg, English centre to centre",
            lambda **kw: solvers.count_peg_solutions(
                solvers.PegBoard.english(), start=(3, 3), **kw
            ),
        ),
    ]
    if args.only:
        cases = [case for case in cases if args.only in case[0]]
    print(f"{os.cpu_count()} logical core(s); 2 workers of 1 thread for the executors.\n")
    print("| count | result | local t=2 (s) | checkpoint (s) | process pool (s) | Dask (s) |")
    print("|---|--:|--:|--:|--:|--:|")
    with (
        ProcessPoolExecutor(2) as pool,
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
        tempfile.TemporaryDirectory() as scratch,
    ):
        dask = client.get_executor()
        for name, count in cases:
            # warm the workers (import, first plan) before timing them
            solvers.count_queens(8, executor=pool)
            solvers.count_queens(8, executor=dask)
            runs = args.runs
            local, t_local = _timed(lambda count=count: count(threads=2), runs)
            # (the frontier's checkpoint is a directory, made at this name)
            ledger = os.path.join(scratch, f"{len(name)}.sqlite")
            kept, t_kept = _timed(
                lambda count=count, ledger=ledger: count(threads=2, checkpoint=ledger)
            )
            pooled, t_pool = _timed(lambda count=count: count(threads=1, executor=pool), runs)
            spread, t_dask = _timed(lambda count=count: count(threads=1, executor=dask), runs)
            if not local == kept == pooled == spread:
                raise SystemExit(f"{name}: the counts differ: {local} {kept} {pooled} {spread}")

            def cell(t: float, t_local: float = t_local) -> str:
                return f"{t:.2f} ({100 * (t / t_local - 1):+.0f}%)"

            print(
                f"| {name} | {local} | {t_local:.2f} | {cell(t_kept)} | {cell(t_pool)} | "
                f"{cell(t_dask)} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
