"""The memo side by side: ``count_covers(problem, method="memo")`` against
Knuth's DLX6 (his memo-cache counter after Nishino et al.'s DXZ, which also
writes the covers' ZDD) on tilings of rectangles by dominoes, trominoes and
tetrominoes (any number of each piece) and the domino tilings of a 2 x 60
strip, ours on one thread and on two (``--threads``), in one run::

    benches/peers/build_cover_peers.sh /work/peers      # once: the peers
    python benches/memo_bench.py --peers /work/peers

The instances are written here as DLX text (``TilingPuzzle(...,
each="any").exact_cover().to_dlx()``, and ``examples/strip.dlx``); every
count DLX6 finishes below 2**64 is compared with ours (past it, its 64-bit
total is shown beside ours modulo 2**64).
DLX6 is watched and killed past ``--memory`` GiB resident or ``--timeout``
seconds, so that an instance it cannot finish ends as such rather than
filling the machine.
Ours is the call on a problem already read, one thread and two in turn; DLX6's
the whole process.  One Markdown table of wall seconds, best of ``--runs``.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import solvers

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from cover_bench import DEFAULT_PEERS, peer_program, print_heading  # noqa: E402

#: (name, rows, cols, pieces): rectangles tiled by any number of each piece.
TILINGS = [
    ("2x60 dominoes (strip.dlx)", 0, 0, ""),
    ("3x40 trominoes", 3, 40, "trominoes"),
    ("4x20 tetrominoes", 4, 20, "tetrominoes"),
    ("6x12 trominoes", 6, 12, "trominoes"),
    ("7x12 trominoes", 7, 12, "trominoes"),
    ("9x9 trominoes", 9, 9, "trominoes"),
    ("8x12 trominoes", 8, 12, "trominoes"),
    ("7x16 tetrominoes", 7, 16, "tetrominoes"),
    ("16x16 dominoes", 16, 16, "domino"),
    ("8x16 tetrominoes", 8, 16, "tetrominoes"),
    ("10x10 tetrominoes", 10, 10, "tetrominoes"),
]


def instance(folder: Path, rows: int, cols: int, pieces: str) -> Path:
    if not pieces:
        return HERE.parent / "examples" / "strip.dlx"
    path = folder / f"memo_{rows}x{cols}_{pieces}.dlx"
    if not path.exists():
        puzzle = solvers.TilingPuzzle((rows, cols), pieces, each="any")
        path.write_text(puzzle.exact_cover().to_dlx())
    return path


def rss_bytes(pid: int) -> int:
    """The resident memory of process ``pid`` (0 once it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def dlx6_once(binary: Path, path: Path, timeout: float, gib: int) -> tuple[float | str, str]:
    """One DLX6 run: its wall seconds and stderr, or why it was stopped.
    DLX6 reserves its whole cache up front (16 GB of address space), so an
    address-space limit would stop it at once: its resident memory is
    watched instead, and it is killed past ``gib`` GiB or ``timeout``."""
    start = time.perf_counter()
    with path.open() as f, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen([str(binary)], stdin=f, stdout=subprocess.DEVNULL, stderr=err)
        while child.poll() is None:
            time.sleep(0.05)
            if time.perf_counter() - start > timeout or rss_bytes(child.pid) > gib << 30:
                child.kill()
                child.wait()
                return f"stopped at {time.perf_counter() - start:.0f} s", ""
        wall = time.perf_counter() - start
        err.seek(0)
        return wall, err.read()


def run_dlx6(
    binary: Path, path: Path, runs: int, timeout: float, gib: int
) -> tuple[str, int | None]:
    best = float("inf")
    count = None
    for _ in range(runs):
        wall, text = dlx6_once(binary, path, timeout, gib)
        if isinstance(wall, str):
            return f"{wall} (limits {timeout:g} s, {gib} GiB)", None
        found = re.search(r"Altogether (\d+) solutions", text)
        if found is None:
            return "failed", None
        count = int(found.group(1))
        best = min(best, wall)
    return f"{best:.3f}", count


def best_of(
    problem: solvers.ExactCover, counts: tuple[int, ...], runs: int, want: int
) -> list[float]:
    """Our best wall seconds of ``runs`` memo counts on each number of
    threads in ``counts``, the counts taken in turn (one round of each, then
    the next), so that a stretch of a busy host falls on every column."""
    best = [float("inf")] * len(counts)
    for _ in range(runs):
        for k, threads in enumerate(counts):
            start = time.perf_counter()
            got = solvers.count_covers(problem, method="memo", threads=threads)
            best[k] = min(best[k], time.perf_counter() - start)
            if got != want:
                raise SystemExit(f"the memo counts {got} on {threads} threads, {want} on one")
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, default=DEFAULT_PEERS, help="bin/ holds dlx6")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per DLX6 run")
    parser.add_argument("--memory", type=int, default=8, help="GiB of resident memory for DLX6")
    parser.add_argument("--threads", type=int, default=2, help="threads of our second column")
    parser.add_argument("--only", nargs="*", help="the instances whose names hold one of these")
    args = parser.parse_args()
    binary = peer_program(args.peers, "dlx6")
    print_heading(args.runs)
    threads = args.threads
    print(
        f"| instance | options | covers | ours (memo), 1 thread, s | ours, {threads} threads, "
        "s | ratio | DLX6, s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for name, rows, cols, pieces in TILINGS:
            if args.only and not any(word in name for word in args.only):
                continue
            path = instance(Path(folder), rows, cols, pieces)
            problem = solvers.ExactCover.from_dlx(path.read_text())
            ours = solvers.count_covers(problem, method="memo", threads=1)
            one, many = best_of(problem, (1, threads), args.runs, ours)
            peer, theirs = run_dlx6(binary, path, args.runs, args.timeout, args.memory)
            if theirs is not None and ours >= 2**64:
                peer += f" (its 64-bit total: {theirs:,}, ours mod 2**64: {ours % 2**64:,})"
            elif theirs is not None and theirs != ours:
                raise SystemExit(f"{name}: DLX6 counts {theirs}, ours {ours}")
            row = [name, f"{len(problem):,}", f"{ours:,}", f"{one:.3f}", f"{many:.3f}"]
            row += [f"{many / one:.2f}x", peer]
            print("| " + " | ".join(row) + " |", flush=True)
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
