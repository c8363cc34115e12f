"""The ``k`` cheapest covers side by side: ``solvers.cheapest_covers`` on 1
and 2 threads against Knuth's DLX5 (``k<K>``) on the same DLX files, in one
run::

    benches/peers/build_cover_peers.sh /work/peers      # once: peers + instances
    python benches/cheapest_bench.py --peers /work/peers --runs 3

The instances are the benchmark's exact-cover files (``cover_instances.py``)
with a cost on each option: option ``j`` (from 0, in file order) costs
``(7919 j + 13) mod 100``, appended as DLX5's ``|n`` (the files are written
beside the others as ``<name>_costs.dlx``).  Each run checks that ours and
DLX5 give the same ``k`` costs (DLX5 prints them at the end; the covers may
differ where costs tie, as DLX5's order is not ours).  What is timed: ours,
the call on a problem already read; DLX5, the whole process.  One Markdown
table of wall and CPU seconds, best of ``--runs``.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import solvers

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from cover_bench import DEFAULT_PEERS, peer_program, print_heading  # noqa: E402

#: (instance file, k): each at least 2 s for DLX5 on the benchmark machine.
CASES = [("pentominoes_6x10", 100), ("pentominoes_6x10", 1000)]


def priced(folder: Path, name: str) -> Path:
    """``<name>_costs.dlx`` beside ``<name>.dlx``: each option line with its cost."""
    out = folder / f"{name}_costs.dlx"
    if out.exists():
        return out
    lines, head, j = [], False, 0
    for line in (folder / f"{name}.dlx").read_text().splitlines():
        text = line.strip()
        if not text or text.startswith("|") or not head:
            head = head or bool(text and not text.startswith("|"))
            lines.append(line)
            continue
        lines.append(f"{line} |{(7919 * j + 13) % 100}")
        j += 1
    out.write_text("\n".join(lines) + "\n")
    return out


def dlx5_costs(text: str, total_tax: int = 0) -> list[int]:
    """The ``k`` best costs DLX5 prints at the end (``$c`` or ``$c (repeated n times)``)."""
    costs: list[int] = []
    for m in re.finditer(r"\$(\d+)(?: \(repeated (\d+) times\))?", text.split("solutions,")[-1]):
        costs += [int(m.group(1)) + total_tax] * int(m.group(2) or 1)
    return costs


def run_dlx5(binary: Path, path: Path, k: int, runs: int) -> tuple[float, float, list[int]]:
    best_wall = best_cpu = float("inf")
    costs: list[int] = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        with path.open() as f:
            done = subprocess.run([str(binary), f"k{k}"], stdin=f, capture_output=True, text=True)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
        costs = dlx5_costs(done.stderr)
    return best_wall, best_cpu, costs


def run_ours(problem: solvers.ExactCover, k: int, threads: int, runs: int):
    best_wall = best_cpu = float("inf")
    costs: list[int] = []
    for _ in range(runs):
        cpu0, start = time.process_time(), time.perf_counter()
        found = solvers.cheapest_covers(problem, k, threads=threads)
        best_wall = min(best_wall, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - cpu0)
        costs = [cover.cost for cover in found]
    return best_wall, best_cpu, costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, default=DEFAULT_PEERS, help="bin/ and instances/")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    binary = peer_program(args.peers, "dlx5")
    print_heading(args.runs)
    head = [
        "instance",
        "k",
        "k-th cost",
        "ours 1 thr",
        "ours 2 thr",
        "DLX5",
        "1 thr / DLX5",
        "2 thr / DLX5",
    ]
    print("wall seconds (CPU seconds in brackets):\n")
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))
    for name, k in CASES:
        path = priced(args.peers / "instances", name)
        problem = solvers.ExactCover.from_dlx(path.read_text())
        peer = run_dlx5(binary, path, k, args.runs)
        ours = [run_ours(problem, k, threads, args.runs) for threads in (1, 2)]
        for mine in ours:
            if collections.Counter(mine[2]) != collections.Counter(peer[2]):
                raise SystemExit(f"{name} k={k}: our costs differ from DLX5's")
        cells = [f"{w:.2f} ({c:.2f})" for w, c, _ in (*ours, peer)]
        ratios = [f"{w / peer[0]:.2f}x" for w, _, _ in ours]
        row = [f"{name} (costs)", str(k), str(max(peer[2])), *cells, *ratios]
        print("| " + " | ".join(row) + " |", flush=True)
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
