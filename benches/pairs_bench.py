"""Open tours by pairs of ends (``count_tours(..., method="pairs")``): the
cost of single pairs and a projection of the whole plan, or the whole plan
on a Dask ``LocalCluster``; a Markdown table on stdout::

    python benches/pairs_bench.py 8x8 --pairs 0,60,135     # three 8x8 pairs, then the projection
    python benches/pairs_bench.py 8x8 --pairs 135 --memory 16GB   # one pair within a budget
    python benches/pairs_bench.py 6x7 7x7 --dask           # whole plans on a LocalCluster

Each pair runs in a fresh Python process (so its peak memory is its own),
on every core, its progress on stderr; with ``--checkpoint DIR`` each pair
saves its layers in a directory of its own there, and a rerun goes on
from them (an 8x8 pair takes hours).  The projection multiplies the mean time of the pairs run by
the plan's length: pair costs differ (a pair near the corners pins the
sweep's first squares, one in the middle does not), so spread the sample
over the plan.  Measured figures are in docs/performance.md ("8x8").
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import textwrap
import time

from solvers import _core, count_tours
from solvers._engine import _validate

SNIPPET = """
import json, resource, time
from solvers import _core, count_tours
from solvers._engine import _progress
rows, cols, start, end, threads, memory, spill, saved = {args!r}
bar = _progress.ProgressBar(f"pair {{start}} -> {{end}}", unit="square")
t = time.perf_counter()
run = _core.RunOptions(threads, bar, None, memory, spill, saved)
high, low, widest, spilled = _core.count_tours_frontier((rows, cols, None), start, False, run, end)
seconds = time.perf_counter() - t
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps([str(high << 128 | low), widest, peak, seconds, spilled]))
"""


def board(case: str) -> tuple[int, int]:
    rows, cols = (int(x) for x in case.split("x"))
    return rows, cols


def one_pair(rows, cols, start, end, threads, memory, spill, saved) -> list:
    args = (rows, cols, start, end, threads, memory, spill, saved)
    code = textwrap.dedent(SNIPPET).format(args=args)
    out = subprocess.run(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, check=True
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def pairs(case: str, which: list[int], threads: int, memory, spill, checkpoint) -> None:
    rows, cols = board(case)
    plan = _core.tour_pairs_plan((rows, cols, None), None, _core.RunOptions())[1]
    print(f"{case}: {len(plan)} pairs of ends up to symmetry\n")
    print("| pair | start | end | weight | paths | states at the widest step | peak MB "
          "| GB spilled | seconds |")  # fmt: skip
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|")
    times = []
    for i in which:
        (start, end), weight = plan[i]
        print(f"running pair {i} {start} -> {end} ...", file=sys.stderr, flush=True)
        saved = None if checkpoint is None else f"{checkpoint}/{case}-pair-{i}"
        paths, widest, peak, seconds, spilled = one_pair(
            rows, cols, start, end, threads, memory, spill, saved
        )
        times.append(seconds)
        print(
            f"| {i} | {start} | {end} | {weight} | {int(paths):,} | {widest:,} | {peak:.0f} "
            f"| {spilled / 1e9:.2f} | {seconds:.1f} |"
        )
        sys.stdout.flush()
    mean = sum(times) / len(times)
    hours = mean * len(plan) / 3600
    print(
        f"\nMean {mean:.1f} s a pair over {len(times)}; the plan of {len(plan)} pairs: about "
        f"{hours:.1f} hours here, {hours / 10:.2f} on 10 such machines (one pair a machine at a "
        "time, from a shared checkpoint file)."
    )


def dask_plans(cases: list[str]) -> None:
    from dask.distributed import Client, LocalCluster

    print("| board | pairs | tours (all starts) | seconds on a LocalCluster (2 workers) |")
    print("|---|---:|---:|---:|")
    with (
        LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        Client(cluster) as client,
    ):
        executor = client.get_executor()
        for case in cases:
            rows, cols = board(case)
            size = len(_core.tour_pairs_plan((rows, cols, None), None, _core.RunOptions())[0])
            print(f"running {case} on Dask ...", file=sys.stderr, flush=True)
            t = time.perf_counter()
            n = count_tours(rows, cols, start="all", method="pairs", executor=executor)
            print(f"| {case} | {size} | {n:,} | {time.perf_counter() - t:.1f} |")
            sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="+", help="boards RxC")
    parser.add_argument("--pairs", default="0", help="indices of the plan's pairs to run")
    parser.add_argument("--dask", action="store_true", help="run whole plans on a LocalCluster")
    parser.add_argument("--threads", type=int, default=0, help="0: one per core")
    parser.add_argument("--memory", default=None, help="each pair's memory budget (e.g. 16GB)")
    parser.add_argument("--spill", default=None, help="where layers past the budget go")
    parser.add_argument(
        "--checkpoint", default=None, help="a directory: each pair saves its layers there"
    )
    args = parser.parse_args()
    if args.dask:
        dask_plans(args.cases)
        return
    memory = _validate.memory(args.memory)
    which = [int(i) for i in args.pairs.split(",")]
    threads = args.threads or _validate.threads(None)
    for case in args.cases:
        pairs(case, which, threads, memory, args.spill, args.checkpoint)


if __name__ == "__main__":
    main()
