"""A row of a table of knight's tours in one sweep (``count_tours_row``):
the time, the widest layer's states as the bar reports them, and each term
against the OEIS where it has the board.

    python benches/row_bench.py 6 12 --closed --threads 2
    python benches/row_bench.py 8 12 --closed --checkpoint /var/tmp/row8 --memory 16GB

The OEIS rows below count undirected paths (cycles); ``count_tours_row``
counts directed tours over every start: ``2 P`` open, ``2 n C`` closed on a
board of ``n`` squares.  The bench prints a markdown table (a row a board)
and the machine, ``lscpu``'s model name first.
"""

from __future__ import annotations

import argparse
import datetime
import platform
import subprocess
import sys
import time

import solvers
from solvers import _core

# Undirected Hamiltonian paths of rows x n, n = 1, 2, ... (OEIS A169696,
# A079137, A083386, A306281, A306283; 7x8 and 8 x n from A389760).
PATHS = {
    3: (0, 0, 0, 8, 0, 0, 52, 396, 560, 3048, 10672, 57248),
    4: (0, 0, 8, 0, 82, 744, 6378, 31088, 189688, 1213112, 6683852, 36486328),
    5: (0, 0, 0, 82, 864, 18784, 622868, 18061054, 264895640, 7886117822, 128411926952,
        3611823644006),
    6: (0, 0, 0, 744, 18784, 3318960, 389969466, 24964893804, 1770631206422, 143827657320448,
        10668015492137018),
    7: (0, 0, 52, 6378, 622868, 389969466, 82787609160, 20666425060328),
    8: (0, 0, 396, 31088, 18061054, 24964893804, 20666425060328),
}  # fmt: skip

# Undirected closed tours of rows x n (OEIS A175855 for 5 x 2n, A175881,
# A193054 for 7 x 2n, A193055); odd boards have none.
CYCLES = {
    5: (0, 0, 0, 0, 0, 8, 0, 44202, 0, 13311268, 0, 4557702762),
    6: (0, 0, 0, 0, 8, 9862, 1067638, 55488142, 3374967940, 239187240144, 15360134570696,
        964730606632516),
    7: (0, 0, 0, 0, 0, 1067638, 0, 34524432316, 0, 1250063279938854, 0,
        38350427205194670084),
    8: (0, 0, 0, 0, 44202, 55488142, 34524432316, 13267364410532, 7112881119092574,
        4235482818156697040, 2122880233853945590892, 1105420672289849239070962),
}  # fmt: skip


def published(rows: int, cols: int, closed: bool) -> int | None:
    """The directed tours of ``rows x cols`` over every start that the OEIS
    gives, or None."""
    table = CYCLES if closed else PATHS
    row = table.get(rows, ())
    if cols > len(row):
        return None
    undirected = row[cols - 1]
    return undirected * 2 * rows * cols if closed else undirected * 2


def cpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or "unknown CPU"
    for line in out.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


class Widest:
    """A progress callback that says where the sweep is, once a minute."""

    def __init__(self) -> None:
        self.last = time.monotonic()
        self.said = ""

    def __call__(self, done: int, total: int) -> None:
        if time.monotonic() - self.last > 60:
            self.last = time.monotonic()
            stamp = time.strftime("%H:%M:%S")
            print(f"  {stamp} step {done} of {total}: {self.said}", file=sys.stderr, flush=True)

    def note(self, text: str) -> None:
        self.said = text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rows", type=int)
    parser.add_argument("max_cols", type=int)
    parser.add_argument("--closed", action="store_true")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--memory", default=None)
    parser.add_argument("--spill", default=None)
    parser.add_argument("--checkpoint", default=None)
    args = parser.parse_args()
    bar = Widest()
    opts = solvers.RunOptions(
        threads=args.threads, memory=args.memory, spill=args.spill, checkpoint=args.checkpoint
    )
    began = time.perf_counter()
    counts, widest, spilled = _core.count_tours_row(
        args.rows, args.max_cols, args.closed, opts.core(bar)
    )
    row = {cols: high << 128 | low for cols, (high, low) in enumerate(counts, start=1)}
    seconds = time.perf_counter() - began
    kind = "closed" if args.closed else "open"
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{args.rows} x 1 .. {args.rows} x {args.max_cols}, {kind}, {args.threads} threads:")
    print(f"{seconds:.1f} s, widest layer {widest:,} states, {spilled:,} bytes spilled")
    print(f"({cpu_model()}, {stamp})\n")
    print("| board | directed tours | OEIS |")
    print("|---|---:|---|")
    wrong = 0
    for cols, count in row.items():
        want = published(args.rows, cols, args.closed)
        mark = "-" if want is None else ("=" if want == count else f"DIFFERS: {want}")
        wrong += want is not None and want != count
        print(f"| {args.rows}x{cols} | {count:,} | {mark} |")
    if wrong:
        raise SystemExit(f"{wrong} terms differ from the OEIS")


if __name__ == "__main__":
    main()
