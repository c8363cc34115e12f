"""Hard Sudokus end to end, as a Python user calls each library: the puzzle
built, solved, and proved unique (at most two solutions looked for), for the
first puzzles of ``benches/data/top1465.txt``, side by side with PyPI's
``xcover`` and ``exact_cover`` where they are installed in this interpreter
(or in ``--peers``' venv, run there in a child process).

    python benches/sudoku_bench.py [--puzzles 1000] [--runs 3] [--peers DIR]

Prints a table of the best of ``--runs`` for each library (the peers' module
import and JIT warm-up come before the clock).  The peers' problems are
stated the way their documentation states a Sudoku: item names for
``xcover``, a 0/1 numpy matrix for ``exact_cover``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

DATA = Path(__file__).parent / "data" / "top1465.txt"


def puzzles(n: int) -> list[str]:
    lines = [line.strip() for line in DATA.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")][:n]


def candidates(p: str):
    """(row, col, digit, box) of each option of the puzzle (every digit of a blank)."""
    for i, ch in enumerate(p):
        r, c = divmod(i, 9)
        for d in [int(ch)] if ch not in ".0" else range(1, 10):
            yield r, c, d, (r // 3) * 3 + c // 3


def run_solvers(p: str) -> bool:
    from solvers import Sudoku

    s = Sudoku(p)
    return s.solve() is not None and s.is_unique()


def run_xcover(p: str) -> bool:
    from xcover import covers

    options = [[f"p{r}{c}", f"r{r}{d}", f"c{c}{d}", f"b{b}{d}"] for r, c, d, b in candidates(p)]
    found = 0
    for _ in covers(options):
        found += 1
        if found == 2:
            break
    return found == 1


def run_exact_cover(p: str) -> bool:
    import exact_cover
    import numpy as np

    rows = list(candidates(p))
    m = np.zeros((len(rows), 324), dtype=np.int32)
    for k, (r, c, d, b) in enumerate(rows):
        m[k, [r * 9 + c, 81 + r * 9 + d - 1, 162 + c * 9 + d - 1, 243 + b * 9 + d - 1]] = 1
    return len(exact_cover.get_all_solutions(m, max_count=2)) == 1


RUNS = {"solvers": run_solvers, "xcover": run_xcover, "exact_cover": run_exact_cover}


def timed(name: str, n: int, runs: int) -> dict[str, object]:
    """Best of ``runs`` over the first ``n`` puzzles, in this process."""
    run, todo = RUNS[name], puzzles(n)
    run(todo[0])  # imports and JIT compilation before the clock
    best, unique = float("inf"), 0
    for _ in range(runs):
        began = time.perf_counter()
        unique = sum(map(run, todo))
        best = min(best, time.perf_counter() - began)
    return {"name": name, "seconds": best, "unique": unique}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--puzzles", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--peers", type=Path, default=None, help="a folder with venv/ of the peers")
    parser.add_argument("--one", choices=sorted(RUNS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(timed(args.one, args.puzzles, args.runs)))
        return
    python = str(args.peers / "venv" / "bin" / "python") if args.peers else sys.executable
    rows = [timed("solvers", args.puzzles, args.runs)]
    for name in ("xcover", "exact_cover"):
        command = [python, __file__, "--one", name, "--puzzles", str(args.puzzles)]
        done = subprocess.run(
            [*command, "--runs", str(args.runs)], capture_output=True, text=True, check=False
        )
        lines = done.stdout.strip().splitlines()
        rows.append(json.loads(lines[-1]) if done.returncode == 0 and lines else {"name": name})
    ours = float(rows[0]["seconds"])  # type: ignore[arg-type]
    print(f"{args.puzzles} puzzles of top1465, build + solve + unique, best of {args.runs}\n")
    print("| library | seconds | unique | solvers is faster by |")
    print("|---|---:|---:|---:|")
    for row in rows:
        if "seconds" not in row:
            print(f"| {row['name']} | not installed | | |")
            continue
        seconds = float(row["seconds"])  # type: ignore[arg-type]
        print(f"| {row['name']} | {seconds:.2f} | {row['unique']} | {seconds / ours:.1f}x |")


if __name__ == "__main__":
    main()
