"""Peter Luschny's knight-graph challenge side by side with ours: the undirected
Hamiltonian paths (OEIS A390833) and cycles (A392000) of the knight's graph of
every ``k x n`` board with ``3 <= k, n <= 12`` and ``k n <= 40``, his programs
(``knightspaths.cpp``, ``knightscycles.cpp`` of
github.com/PeterLuschny/Hamiltonian_Paths_On_Knight_Graphs, MIT) and
``solvers.count_tours`` on the same boards, each value checked against the
other; printed as a Markdown table::

    git clone https://github.com/PeterLuschny/Hamiltonian_Paths_On_Knight_Graphs /work/peers/luschny
    python benches/luschny_bench.py --source /work/peers/luschny --threads 1 2
    python benches/luschny_bench.py --source DIR --extend 64 --limit 600   # ours past k n = 40

His programs are built unchanged (``g++ -O3 -march=native -fopenmp -std=c++20``)
into ``--build`` (default: a ``bin`` folder beside the sources), each with a
small driver that renames his ``main`` and counts the boards given on its
command line, one process a board so that ``--limit`` can stop it; OpenMP runs
``OMP_NUM_THREADS`` threads.  Ours: paths are ``count_tours(k, n, start="all")
// 2`` (directed tours from every square, each path once from each end), cycles
``count_tours(k, n, closed=True) // 2`` (the closed tours from the lower-left
square, each cycle once in each direction), ``threads`` given, the method the
package picks.  Times are wall seconds of the count alone (ours: the call; his:
the figure his program prints for the board).  ``--extend N`` adds the boards
up to ``k n <= N`` (``k <= n``, ours only, each within ``--limit`` seconds);
``--extension-only`` runs only those.  A value the OEIS has (the rows of
A390833 and A392000: ``PUBLISHED_PATHS``, ``PUBLISHED_CYCLES``) is checked
against it too, and marked ✓.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

LINE = re.compile(r"A\((\d+),(\d+)\) = (\d+)\s+Time: ([0-9.e+-]+)s")

# His file's ``main`` renamed, and a driver that counts the boards named on its
# command line (``k n`` pairs) with his own per-board function.
DRIVER = """#define main luschny_main
#include "{source}"
#undef main
#include <cstdlib>
int main(int argc, char **argv) {{
    for (int i = 1; i + 1 < argc; i += 2) {function}(std::atoi(argv[i]), std::atoi(argv[i + 1]));
    return 0;
}}
"""

# Published paths of k x n boards, the rows of A390833 (each sequence's terms
# from n = 1; OEIS data, 2025): the check of the boards past his benchmark.
PUBLISHED_PATHS = {
    3: (  # A169696
        0, 0, 0, 8, 0, 0, 52, 396, 560, 3048, 10672, 57248, 128864, 646272, 1838784, 8636880,
        23400992, 105865688, 305753680, 1322849752, 3862974304,
    ),
    4: (  # A079137
        0, 0, 8, 0, 82, 744, 6378, 31088, 189688, 1213112, 6683852, 36486328, 201282470,
        1083585304, 5706117458, 29819231288,
    ),
    5: (  # A083386
        0, 0, 0, 82, 864, 18784, 622868, 18061054, 264895640, 7886117822, 128411926952,
        3611823644006,
    ),
    6: (  # A306281
        0, 0, 0, 744, 18784, 3318960, 389969466, 24964893804, 1770631206422, 143827657320448,
    ),
    7: (0, 0, 52, 6378, 622868, 389969466, 82787609160, 20666425060328),  # A306283, A389760
    8: (0, 0, 396, 31088, 18061054, 24964893804, 20666425060328),  # A389760 (A390833's example)
}  # fmt: skip


# Published cycles of k x n boards, the rows of A392000 (terms from n = 1): no
# closed tour has an odd number of squares, nor a board 4 wide.
PUBLISHED_CYCLES = {
    3: (  # A169764
        0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 176, 0, 1536, 0, 15424, 0, 147728, 0, 1448416, 0,
    ),
    4: (0,) * 16,
    5: (0, 0, 0, 0, 0, 8, 0, 44202, 0, 13311268, 0, 4557702762),  # A175855 (5 x 2n)
    6: (0, 0, 0, 0, 8, 9862, 1067638, 55488142, 3374967940, 239187240144),  # A175881
    7: (0, 0, 0, 0, 0, 1067638, 0, 34524432316, 0),  # A193054 (A392000's example)
    8: (0, 0, 0, 0, 44202, 55488142, 34524432316, 13267364410532),  # A193055
}  # fmt: skip


def published(kind: str, k: int, n: int) -> int | None:
    rows = PUBLISHED_PATHS if kind == "paths" else PUBLISHED_CYCLES
    row = rows.get(min(k, n), ())
    return row[max(k, n) - 1] if max(k, n) <= len(row) else None


PROGRAMS = {"paths": ("knightspaths.cpp", "A390833"), "cycles": ("knightscycles.cpp", "A392000")}


@dataclass
class Result:
    value: int | None
    seconds: float | None  # None: not run or over the limit


def build(source: Path, out: Path) -> dict[str, Path]:
    out.mkdir(parents=True, exist_ok=True)
    binaries = {}
    for kind, (name, function) in PROGRAMS.items():
        driver = out / f"{kind}_driver.cpp"
        driver.write_text(DRIVER.format(source=(source / name).resolve(), function=function))
        binary = out / f"luschny_{kind}"
        if not binary.exists() or binary.stat().st_mtime < (source / name).stat().st_mtime:
            flags = ["-O3", "-march=native", "-fopenmp", "-std=c++20"]
            subprocess.run(["g++", *flags, str(driver), "-o", str(binary)], check=True)
        binaries[kind] = binary
    return binaries


def his(binary: Path, k: int, n: int, threads: int, limit: float) -> Result:
    env = {**os.environ, "OMP_NUM_THREADS": str(threads)}
    try:
        done = subprocess.run(
            [str(binary), str(k), str(n)], capture_output=True, text=True, timeout=limit, env=env
        )
    except subprocess.TimeoutExpired:
        return Result(None, None)
    found = LINE.search(done.stdout)
    if done.returncode != 0 or not found:
        raise SystemExit(f"{binary} {k} {n}: {done.stdout[-300:]} {done.stderr[-300:]}")
    return Result(int(found.group(3)), float(found.group(4)))


def ours(kind: str, k: int, n: int, threads: int, limit: float) -> Result:
    import solvers

    t0 = time.perf_counter()
    try:
        if kind == "paths":
            value = solvers.count_tours(k, n, start="all", threads=threads, timeout=limit)
        else:
            value = solvers.count_tours(k, n, closed=True, threads=threads, timeout=limit)
    except TimeoutError:
        return Result(None, None)
    return Result(value // 2, time.perf_counter() - t0)


def boards(most: int) -> list[tuple[int, int]]:
    """His benchmark's boards (both orientations) up to ``k n <= 40``; past it,
    each board once (``k <= n``) up to ``k n <= most``."""
    out = [(k, n) for k in range(3, 13) for n in range(3, 13) if k * n <= 40]
    out += [(k, n) for k in range(3, 9) for n in range(k, most // k + 1) if 40 < k * n <= most]
    return out


def seconds(r: Result) -> str:
    return "—" if r.seconds is None else f"{r.seconds:.3f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, required=True, help="his repository's folder")
    parser.add_argument("--build", type=Path, default=None, help="folder for his binaries")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--extend", type=int, default=40, metavar="N", help="ours up to k n <= N")
    parser.add_argument("--limit", type=float, default=3600.0, help="seconds a board, each program")
    parser.add_argument(
        "--extension-only", action="store_true", help="only the boards past k n = 40 (ours)"
    )
    parser.add_argument("--kinds", nargs="+", choices=list(PROGRAMS), default=list(PROGRAMS))
    args = parser.parse_args()
    binaries = build(args.source, args.build or args.source / "bin")
    print(
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; {cpu_model()}, "
        f"{os.cpu_count()} logical CPUs, {platform.system()} {platform.release()}"
    )
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    totals: dict[tuple[str, str, int], float] = {}
    for kind in args.kinds:
        head = ["board", kind]
        for t in args.threads:
            head += [f"his, {t} thr", f"ours, {t} thr"]
        print(f"| {' | '.join(head)} |")
        print("|---|" + "---:|" * (len(head) - 1))
        for k, n in boards(args.extend):
            if args.extension_only and k * n <= 40:
                continue
            row = [f"{k}x{n}", ""]
            value = None
            for t in args.threads:
                theirs = (
                    his(binaries[kind], k, n, t, args.limit) if k * n <= 40 else Result(None, None)
                )
                mine = ours(kind, k, n, t, args.limit)
                for who, r in (("his", theirs), ("ours", mine)):
                    if r.value is not None:
                        if value is not None and r.value != value:
                            raise SystemExit(f"{kind} {k}x{n}: {who} {r.value} against {value}")
                        value = r.value
                    if r.seconds is not None and k * n <= 40:
                        totals[kind, who, t] = totals.get((kind, who, t), 0.0) + r.seconds
                row += [seconds(theirs), seconds(mine)]
            known = published(kind, k, n)
            if known is not None and value is not None and value != known:
                raise SystemExit(f"{kind} {k}x{n}: {value} against the OEIS's {known}")
            row[1] = "?" if value is None else f"{value:,}" + ("" if known is None else " ✓")
            print(f"| {' | '.join(row)} |", flush=True)
        total = ["total, k n <= 40", ""]
        for t in args.threads:
            total += [f"{totals.get((kind, who, t), 0.0):.3f}" for who in ("his", "ours")]
        print(f"| {' | '.join(total)} |\n")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    sys.exit(main())
