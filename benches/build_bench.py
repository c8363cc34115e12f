"""Stating exact-cover problems and counting up to symmetry (issue 48): the
seconds to build an ``ExactCover`` of a million options from Python tuples,
from a scipy sparse matrix (where scipy is installed) and from Knuth's DLX
text, and the 6x10 pentomino count in all and up to the box's symmetries.

    python benches/build_bench.py [--options N] [--threads T]

Each figure is the best of ``--repeat`` runs (default 3) on the same random
problem (a seeded generator: five distinct items of 2,000 per option).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from solvers import ExactCover, TilingPuzzle


def best(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--options", type=int, default=1_000_000)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(48)
    n_items = 2000
    options = [tuple(rng.sample(range(n_items), 5)) for _ in range(args.options)]
    named = [tuple(f"i{j}" for j in option) for option in options]
    text = " ".join(f"i{j}" for j in range(n_items)) + "\n"
    text += "\n".join(" ".join(option) for option in named) + "\n"
    rows = [
        (f"ExactCover of {args.options:,} tuples", lambda: ExactCover(named)),
        (f"ExactCover.from_dlx of {args.options:,} lines", lambda: ExactCover.from_dlx(text)),
    ]
    try:
        import numpy as np
        from scipy import sparse

        flat = np.array(options, dtype=np.int64).ravel()
        starts = np.arange(0, 5 * args.options + 1, 5)
        data = np.ones(len(flat), dtype=np.uint8)
        matrix = sparse.csr_array((data, flat, starts), shape=(args.options, n_items))
        rows.append(
            (
                f"ExactCover.from_matrix of a {args.options:,}-row CSR",
                lambda: ExactCover.from_matrix(matrix),
            )
        )
    except ImportError:
        print("(scipy is not installed: no sparse-matrix row)")
    print(f"| what | seconds (best of {args.repeat}) |")
    print("|---|---:|")
    for what, run in rows:
        seconds, _ = best(args.repeat, run)
        print(f"| {what} | {seconds:.2f} |")
    box = TilingPuzzle((6, 10))
    box.exact_cover()  # stated once, outside the clocks
    plain, every = best(args.repeat, lambda: box.count(threads=args.threads))
    unique, classes = best(args.repeat, lambda: box.count(unique=True, threads=args.threads))
    print(f"| 6x10 pentominoes, all {every:,} tilings | {plain:.2f} |")
    print(f"| 6x10 pentominoes, {classes:,} up to the box's symmetries | {unique:.2f} |")


if __name__ == "__main__":
    main()
