"""N-Queens counting side by side with the fastest public CPU counter we know:
the quarter-board join in C++ by Evgeny Kluev (github.com/EvgenyKluev/
N-Queens-Count-Sol, MIT), built here from its sources with ``-O3
-march=native`` and the per-size settings of its ``solcounter.h`` table.

    python benches/queens_peer.py --peer-src ~/N-Queens-Count-Sol 16 17 18
    python benches/queens_peer.py --peer-src DIR 19 --runs 1

Prints a markdown table: ``count_queens(n)`` (the join, and the frame
counter up to ``--frames-up-to``) on 1 and 2 threads, the peer on 1 and 2
threads, and our 2-thread time over the peer's best.  Every count is checked
against OEIS A000170 and against the peer's.  Best of ``--runs`` runs.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import solvers
from solvers import _core

# OEIS A000170, n = 1..23.
A000170 = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624, 4968057848, 39029188884, 314666222712, 2691008701644,
    24233937684440,
]  # fmt: skip

# The peer's tuning table (solcounter.h): sieve cuts, matcher minimum size,
# BMI2 and prefetch, by board size.
PEER_CONFIG = {
    16: (0, 40, False, True),
    17: (0, 40, False, True),
    18: (0, 40, False, True),
    19: (0, 40, True, True),
    20: (3, 60, True, True),
    21: (3, 60, True, False),
    22: (6, 80, True, True),
}


def build_peer(src: Path, n: int, into: Path) -> Path:
    """Compile the peer for board size ``n`` (its size is a compile-time constant)."""
    work = into / f"peer{n}"
    shutil.copytree(src, work, ignore=shutil.ignore_patterns(".git", "build*"))
    cuts, min_size, bmi, prefetch = PEER_CONFIG.get(n, (0, 40, False, False))
    counter = work / "solcounter.h"
    text = counter.read_text()
    text = re.sub(r"inline constexpr int size = \d+;", f"inline constexpr int size = {n};", text)
    text = re.sub(r"\.sieveCuts = \d+,", f".sieveCuts = {cuts},", text)
    text = re.sub(r"\.matchMinSize = \d+,", f".matchMinSize = {min_size},", text)
    text = re.sub(r"\.bmiIntrin = \w+,", f".bmiIntrin = {str(bmi).lower()},", text)
    text = re.sub(r"\.prefetch = \w+,", f".prefetch = {str(prefetch).lower()},", text)
    counter.write_text(text)
    if bmi:
        path = work / "bmintrin.h"
        path.write_text(path.read_text().replace('//#include "bmi2.h"', '#include "bmi2.h"'))
    if prefetch:
        path = work / "prefetch.h"
        path.write_text(
            path.read_text().replace('//#include "prefetchx86.h"', '#include "prefetchx86.h"')
        )
    binary = work / "nqueens"
    subprocess.run(
        ["g++", "-std=c++20", "-O3", "-march=native", "-pthread", "main.cpp", "-o", str(binary)],
        cwd=work,
        check=True,
    )
    return binary


def run_peer(binary: Path, threads: int) -> tuple[float, int]:
    out = subprocess.run(
        [str(binary), str(threads)], capture_output=True, text=True, check=True
    ).stdout
    count = int(re.search(r"Result: (\d+)", out).group(1))  # type: ignore[union-attr]
    return float(re.search(r"Elapsed time: ([\d.e+-]+)", out).group(1)), count  # type: ignore[union-attr]


def best_of(runs: int, call: Callable[[], tuple[float, int]]) -> tuple[float, int]:
    results = [call() for _ in range(runs)]
    counts = {c for _, c in results}
    if len(counts) != 1:
        raise AssertionError(f"runs disagree: {counts}")
    return min(t for t, _ in results), counts.pop()


def ours(n: int, threads: int, method: str) -> tuple[float, int]:
    start = time.perf_counter()
    count = solvers.count_queens(n, threads=threads, method=method)
    return time.perf_counter() - start, count


def seconds(t: float | None) -> str:
    return "-" if t is None else f"{t:.2f} s" if t < 100 else f"{t:.0f} s"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, default=[16, 17, 18])
    parser.add_argument("--peer-src", type=Path, help="a checkout of N-Queens-Count-Sol")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--frames-up-to", type=int, default=17)
    args = parser.parse_args(argv)
    print(f"CPU kernels: {_core.CPU_KERNELS}", file=sys.stderr)
    rows = [
        "| n | join 1 thread | join 2 threads | frames 2 threads | peer 1 thread "
        "| peer 2 threads | join 2 threads / peer best |",
        "|--:|--:|--:|--:|--:|--:|--:|",
    ]
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.sizes:
            want = A000170[n - 1]
            j1, c = best_of(args.runs, lambda n=n: ours(n, 1, "join"))
            j2, c2 = best_of(args.runs, lambda n=n: ours(n, 2, "join"))
            f2 = None
            if n <= args.frames_up_to:
                f2, c3 = best_of(1, lambda n=n: ours(n, 2, "frames"))
                assert c3 == want
            assert c == c2 == want, f"count_queens({n}) = {c}, {c2}; A000170 says {want}"
            p1 = p2 = None
            if args.peer_src is not None:
                binary = build_peer(args.peer_src, n, Path(tmp))
                p1, pc1 = best_of(args.runs, lambda b=binary: run_peer(b, 1))
                p2, pc2 = best_of(args.runs, lambda b=binary: run_peer(b, 2))
                assert pc1 == pc2 == want, f"the peer counts {pc1}, {pc2} for n = {n}"
            ratio = "-" if p1 is None or p2 is None else f"{j2 / min(p1, p2):.2f}"
            rows.append(
                f"| {n} | {seconds(j1)} | {seconds(j2)} | {seconds(f2)} | {seconds(p1)} "
                f"| {seconds(p2)} | {ratio} |"
            )
            print(rows[-1], file=sys.stderr)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
