"""Exact cover with bounds side by side: ``solvers.count_covers`` on 1 and 2
threads against Knuth's DLX3 and SSMCC (his multiplicities, Algorithm M) on
the same DLX files, in one run::

    benches/peers/build_cover_peers.sh /work/peers      # once: peers + instances
    python benches/bounds_bench.py --peers /work/peers --runs 3

The instances (``benches/cover_instances.py``): two queens on every row and
column and at most one on each diagonal (``queens2_N``: rows and columns
``2|``), and boxes tiled by distinct pentominoes, any of the twelve
(``pentominoes_any_HxW``: each piece ``0:1|``).  Their counts are those on
which DLX3, SSMCC and ours agree (``BOUNDED`` in cover_instances.py; no
published figures are known to us).  What is timed is as in
``benches/cover_bench.py``: ours, the count of a problem already read; Knuth's,
the whole process.  Two Markdown tables, wall and CPU seconds, best of
``--runs``; the ratios are against the faster of DLX3 and SSMCC on each row.
"""

from __future__ import annotations

import argparse
import datetime
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from cover_bench import (  # noqa: E402
    DEFAULT_PEERS,
    Cell,
    Instance,
    fmt,
    machine,
    ratio,
    run_knuth,
    run_ours,
)
from cover_instances import BOUNDED  # noqa: E402

PEERS = {"dlx3": "DLX3", "ssmcc": "SSMCC"}


def faster(cells: dict[str, Cell], what: str) -> Cell | None:
    """The peer cell with the least time, if any ran."""
    ran = [c for p, c in cells.items() if p in PEERS and c.best is not None]
    return min(ran, key=lambda c: getattr(c.best, what), default=None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, default=DEFAULT_PEERS, help="bin/ and instances/")
    parser.add_argument("--only", nargs="+", default=sorted(BOUNDED), metavar="NAME")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per run")
    args = parser.parse_args()
    todo = []
    for name in args.only:
        path = args.peers / "instances" / f"{name}.dlx"
        if not path.exists():
            raise SystemExit(f"no {path}: run benches/cover_instances.py {path.parent}")
        todo.append(Instance(name, [path], BOUNDED[name]))
    programs = {
        "ours1": lambda inst: run_ours(inst, 1, "search", args.runs, args.timeout),
        "ours2": lambda inst: run_ours(inst, 2, "search", args.runs, args.timeout),
    }
    for peer, title in PEERS.items():
        binary = args.peers / "bin" / peer
        if os.access(binary, os.X_OK):
            programs[peer] = lambda inst, b=binary: run_knuth(b, inst, args.runs, args.timeout)
        else:
            print(f"skipped {title}: no {binary} (benches/peers/build_cover_peers.sh)")
    names = {"ours1": "ours 1 thr", "ours2": "ours 2 thr", **PEERS}
    load = os.getloadavg()
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}")
    print(f"load average before: {load[0]:.2f}; best of {args.runs}")
    results = [{p: run(inst) for p, run in programs.items()} for inst in todo]
    for what, title in (("wall", "wall seconds"), ("cpu", "CPU seconds (user + system)")):
        head = ["instance", "count", *(names[p] for p in programs), "1 thr / peer", "2 thr / peer"]
        print(f"\n{title}:\n")
        print("| " + " | ".join(head) + " |")
        print("|---|" + "---:|" * (len(head) - 1))
        for inst, cells in zip(todo, results, strict=True):
            best = faster(cells, what)
            row = [inst.name, f"{inst.expected:,}", *(fmt(cells[p], what) for p in programs)]
            row += [ratio(cells["ours1"], best, what), ratio(cells["ours2"], best, what)]
            print("| " + " | ".join(row) + " |", flush=True)
    load = os.getloadavg()
    print(f"\nload average after: {load[0]:.2f}")


if __name__ == "__main__":
    main()
