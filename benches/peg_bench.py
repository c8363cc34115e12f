"""Peg-solitaire benchmark: wall time and peak memory of each count, each case
in a fresh Python process (so the peak is the case's own), printed as a
Markdown table on stdout (progress on stderr)::

    python benches/peg_bench.py              # quick cases
    python benches/peg_bench.py --table      # also the 33-hole single-vacancy table (minutes)
    python benches/peg_bench.py --no-huge-pages   # refuse transparent huge pages (Linux)
    python benches/peg_bench.py --memory 1GB --only english-2-4   # within a memory budget
    python benches/peg_bench.py --french --memory 16GB --spill DIR --only french-0-2-every-game

Cases: the English board centre to centre, and from the seed's start (2,4)
back to it (only 2 symmetries fix that hole); the 15-hole triangle from every
start (every finish, in one forward pass per start); the seed's method
(forward DP, no symmetry, no pruning: our kernel given only the identity)
against ours on the 21-hole triangle and on the English board itself; with
``--table`` the whole table of English single-vacancy problems (start =
finish, all 33 holes; holes in one symmetry class share a count, so each
class is counted once); every game (won or stuck) on the English board from
the centre, and with ``--french`` on the French board from (0,2).
``--memory`` gives the DP counts (not the seed's method) a memory budget:
layers past it spill to files (in ``--spill``); without ``--memory`` or
``--spill`` they run all in memory (``spill=False``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import textwrap

# Each case is a snippet run in a fresh interpreter; it sets `result`.
CASES: dict[str, str] = {
    "english-centre": """
        board = PegBoard.english()
        result = count_peg_solutions(board, start=(3, 3), threads=THREADS, **BUDGET)
    """,
    "english-2-4": """
        board = PegBoard.english()
        result = count_peg_solutions(board, start=(2, 4), threads=THREADS, **BUDGET)
    """,
    "triangle-15-all-starts": """
        board = PegBoard.triangle(5)
        result = sum(
            sum(finish_counts(board, start=s, threads=THREADS, **BUDGET).values())
            for s in board.holes
        )
    """,
    "seed-method-triangle-21": """
        board = PegBoard.triangle(6)
        result = seed_method(board, (0, 0))
    """,
    "ours-triangle-21": """
        board = PegBoard.triangle(6)
        result = count_peg_solutions(
            board, start=(0, 0), finish=None, threads=THREADS, **BUDGET
        )
    """,
    "seed-method-english-centre": """
        board = PegBoard.english()
        result = seed_method(board, (3, 3), finish=(3, 3))
    """,
    "english-centre-every-game": """
        board = PegBoard.english()
        result = count_peg_games(board, start=(3, 3), threads=THREADS, **BUDGET).total
    """,
    "french-0-2-every-game": """
        # Hours and tens of GB: give --memory (and a --spill directory with room).
        games = count_peg_games(
            PegBoard.french(), start=(0, 2), threads=THREADS, **BUDGET,
            progress=True,
        )
        print(games, file=sys.stderr)
        print({hole: n for hole, n in games.wins.items() if n}, file=sys.stderr)
        result = games.total
    """,
    "english-33-hole-table": """
        board = PegBoard.english()
        counts = {}
        for hole in board.holes:
            i = board.index(hole)
            twin = min(board.holes[p[i]] for p in board.symmetries)
            if twin not in counts:
                counts[twin] = count_peg_solutions(
                    board, start=twin, threads=THREADS, **BUDGET
                )
            counts[hole] = counts[twin]
        result = sum(counts.values())
    """,
}

PRELUDE = """
import json, resource, sys, time
THREADS = int(sys.argv[1])
MEMORY = None if sys.argv[3] == "none" else sys.argv[3]
# Without --memory and --spill, every layer in memory (spill=False: the
# in-memory path, as the tables' "none" rows); the plain call would keep
# to memory="auto"'s budget.
SPILL = (False if MEMORY is None else None) if sys.argv[4] == "none" else sys.argv[4]
BUDGET = {"memory": MEMORY, "spill": SPILL}
if sys.argv[2] == "off":
    # PR_SET_THP_DISABLE: no transparent huge pages for this process,
    # whatever the tables ask for (madvise), to measure what they bring.
    import ctypes
    assert ctypes.CDLL(None).prctl(41, 1, 0, 0, 0) == 0
from solvers import PegBoard, count_peg_games, count_peg_solutions, finish_counts
from solvers import _core

def seed_method(board, start, finish=None):
    # The seed's DP: every layer in full, no symmetry, no pruning.
    identity = [list(range(len(board)))]
    kernel = _core.PegKernel(len(board), list(board.jumps), identity)
    layer = kernel.start([board.index(start)])
    while layer.pegs > 1 and len(layer):
        layer = kernel.expand(layer, _core.RunOptions(THREADS))
    if finish is None:
        return layer.total()
    return dict(kernel.finish_counts(layer)).get(board.index(finish), 0)

t0 = time.perf_counter()
"""

EPILOGUE = """
seconds = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"result": result, "seconds": seconds, "peak_mb": peak}))
"""


def run_case(
    name: str,
    threads: int,
    huge_pages: bool = True,
    memory: str | None = None,
    spill: str | None = None,
) -> dict:
    code = PRELUDE + textwrap.dedent(CASES[name]) + EPILOGUE
    pages = "on" if huge_pages else "off"
    done = subprocess.run(
        [sys.executable, "-c", code, str(threads), pages, memory or "none", spill or "none"],
        stdout=subprocess.PIPE,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", action="store_true", help="also the 33-hole table (minutes)")
    parser.add_argument(
        "--french",
        action="store_true",
        help="also every game on the French board from (0,2) (hours; give --memory)",
    )
    parser.add_argument("--spill", metavar="DIR", help="where layers past --memory go")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--no-huge-pages",
        action="store_true",
        help="refuse transparent huge pages to the counts (Linux), to compare",
    )
    parser.add_argument("--only", nargs="*", metavar="CASE", help="run only these cases")
    parser.add_argument(
        "--memory", metavar="BUDGET", help="a memory budget for the DP counts, e.g. 1GB"
    )
    args = parser.parse_args(argv)
    optional = {"english-33-hole-table": args.table, "french-0-2-every-game": args.french}
    names = [n for n in CASES if optional.get(n, True)]
    if args.only:
        names = [n for n in args.only if n in CASES]
    rows = []
    for name in names:
        print(f"{name} ...", file=sys.stderr, flush=True)
        out = run_case(name, args.threads, not args.no_huge_pages, args.memory, args.spill)
        print(f"  {out}", file=sys.stderr, flush=True)
        rows.append(f"| {name} | {out['result']} | {out['seconds']:.2f} | {out['peak_mb']:.0f} |")
    cores = os.cpu_count()
    huge = "refused" if args.no_huge_pages else "as the tables ask"
    budget = f"memory={args.memory}" if args.memory else "no memory budget"
    print(
        f"{cores} logical core(s), threads={args.threads}, huge pages {huge}, {budget}; "
        "each case in its own process."
    )
    print()
    print("| case | result | seconds | peak MB |")
    print("|---|--:|--:|--:|")
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
