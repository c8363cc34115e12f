"""Exact cover side by side: ``solvers.count_covers`` on 1 and 2 threads (and on
1 thread over the dancing cells, ``SOLVERS_COVER_KERNEL=cells``: the search
before its bitset kernel) against
Knuth's DLX1, DLX2 and SSXCC and PyPI's ``exact-cover`` and ``xcover``, all on
the same Knuth DLX files, in one run::

    benches/peers/build_cover_peers.sh /work/peers      # once: peers + instances
    python benches/cover_bench.py --peers /work/peers --runs 3
    python benches/cover_bench.py --only pentominoes_6x10 langford_14 --programs ours1 ssxcc

The instances (``benches/cover_instances.py``): the 12 pentominoes in a 6x10
box, Langford pairs (n = 13 by default; 11, 12 and 14 on request), N-Queens 13
as exact cover, an 8x8 edge-matching puzzle (5,704 options, colours on the
secondary items), and a batch of 1,000 hard Sudokus (top1465) solved one by
one, each counted to the end (so its one solution is proved unique).

What is timed: ours, the count on a problem already read by
``ExactCover.from_dlx`` (``--method``, default ``"search"``: the enumeration,
the same work as the peers'); Knuth's programs, the whole process (reading the file
included: negligible except on the Sudoku batch, where the start-up of 1,000
processes is measured on a one-option file and the net time is shown in
brackets and used for the ratios); the PyPI packages, their solve on arrays
built beforehand, in their own venv (``PEERS/venv``), ``xcover`` after its JIT
has compiled.  ``exact-cover`` has no secondary items: each secondary item gets
a slack option of its own, which keeps the count.  Every count is checked
against the published value; a peer that is not installed is skipped with a
line saying so.  Prints two Markdown tables from the same runs, best of
``--runs`` each: wall seconds, and CPU seconds (user + system, all threads),
the steadier figure on a machine with other work running.  Unix only (the
children's CPU time comes from ``resource``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from cover_instances import EXPECTED, SUDOKU_COUNT  # noqa: E402

DEFAULT_PEERS = Path(os.environ.get("COVER_PEERS", "/work/peers"))
DEFAULT_INSTANCES = ["pentominoes_6x10", "langford_13", "queens_13", "edge_matching_8x8", "sudoku"]
KNUTH = {"dlx1": "DLX1", "dlx2": "DLX2", "ssxcc": "SSXCC"}
PYPI = {"exact-cover": "exact-cover", "xcover": "xcover"}
PROGRAMS = ["ours1", "ours2", "cells1", *KNUTH, *PYPI]


@dataclass
class Instance:
    name: str
    files: list[Path]
    expected: int  # total count (for the batch: the number of puzzles, one each)

    @property
    def batch(self) -> bool:
        return len(self.files) > 1


@dataclass
class Timing:
    """Best of the runs: wall seconds and CPU seconds (user + system) apart."""

    wall: float
    cpu: float

    def minus(self, other: Timing) -> Timing:
        return Timing(self.wall - other.wall, self.cpu - other.cpu)


@dataclass
class Cell:
    best: Timing | None  # None: not run (skipped) or over the time limit
    note: str = ""  # "> 300 s", "error", ...
    net: Timing | None = None  # Knuth's batch: less the process start-ups


# -- DLX text, read without the package (the Python peers' worker uses it) ------


def parse_dlx(text: str) -> tuple[list[str], list[str], list[list[tuple[str, str | None]]]]:
    """(primary, secondary, options); an entry is (item, colour or None)."""
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("|")]
    head = lines[0].split()
    if "|" in head:
        cut = head.index("|")
        primary, secondary = head[:cut], head[cut + 1 :]
    else:
        primary, secondary = head, []
    options = []
    for line in lines[1:]:
        option = []
        for entry in line.split():
            item, _, colour = entry.partition(":")
            option.append((item, colour or None))
        options.append(option)
    return primary, secondary, options


# -- the Python peers: run in their venv by this same file, ``--worker`` --------


def worker(kind: str, files: list[Path], runs: int, budget: float) -> dict:
    import numpy as np

    problems = [parse_dlx(f.read_text()) for f in files]
    if kind == "exact-cover":
        import exact_cover

        version = _version("exact_cover")
        matrices = []
        for primary, secondary, options in problems:
            if any(colour for option in options for _, colour in option):
                return {"error": "exact-cover has no colours"}
            index = {item: k for k, item in enumerate([*primary, *secondary])}
            # A slack option per secondary item makes "at most once" exact.
            matrix = np.zeros((len(options) + len(secondary), len(index)), dtype=bool)
            for row, option in enumerate(options):
                for item, _ in option:
                    matrix[row, index[item]] = True
            for k, item in enumerate(secondary):
                matrix[len(options) + k, index[item]] = True
            matrices.append(matrix)

        def solve_all() -> list[int]:
            return [int(exact_cover.get_solution_count(m)) for m in matrices]

    elif kind == "xcover":
        from xcover import algorithm_c

        version = _version("xcover")
        arrays = []
        for primary, secondary, options in problems:
            index = {item: k for k, item in enumerate([*primary, *secondary])}
            palette: dict[str, int] = {}
            flat, colours, ptr = [], [], [0]
            for option in options:
                for item, colour in option:
                    flat.append(index[item])
                    colours.append(palette.setdefault(colour, len(palette) + 1) if colour else 0)
                ptr.append(len(flat))
            arrays.append(
                (
                    np.array(flat, dtype=np.uint32),
                    np.array(ptr, dtype=np.uint32),
                    np.array(colours, dtype=np.uint32),
                    np.uint32(len(index)),
                    np.uint32(len(secondary)),
                )
            )
        # Warm the JIT (numba compiles algorithm_c on first call, or loads its cache).
        tiny = (np.array([0, 1, 0, 1], np.uint32), np.array([0, 1, 2, 4], np.uint32))
        sum(1 for _ in algorithm_c(*tiny, np.zeros(4, np.uint32), np.uint32(2), np.uint32(0)))

        def solve_all() -> list[int]:
            return [sum(1 for _ in algorithm_c(*a)) for a in arrays]

    else:
        return {"error": f"unknown worker {kind}"}
    wall = cpu = float("inf")
    counts: list[int] = []
    spent = 0.0
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        counts = solve_all()
        took = time.perf_counter() - t0
        wall, cpu = min(wall, took), min(cpu, time.process_time() - c0)
        spent += took
        if spent + took > budget:  # another run would pass the budget
            break
    return {"wall": wall, "cpu": cpu, "counts": counts, "version": version}


def _version(dist: str) -> str:
    from importlib.metadata import version

    return version(dist.replace("_", "-"))


# -- running each program -------------------------------------------------------


def check(name: str, program: str, counts: Sequence[int], inst: Instance) -> None:
    if inst.batch:
        bad = [k for k, c in enumerate(counts) if c != 1]
        if len(counts) != len(inst.files) or bad:
            raise SystemExit(f"{program} on {name}: puzzles {bad[:5]} do not have one solution")
    elif counts[0] != inst.expected:
        raise SystemExit(f"{program} on {name} counted {counts[0]}, expected {inst.expected}")


def best_of(runs: int, once: Callable[[], tuple[Timing, list[int]]]) -> tuple[Timing, list[int]]:
    best, counts = Timing(float("inf"), float("inf")), []
    for _ in range(runs):
        took, counts = once()
        best = Timing(min(best.wall, took.wall), min(best.cpu, took.cpu))
    return best, counts


def children_cpu() -> float:
    """CPU seconds of the waited-for child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_ours(
    inst: Instance, threads: int, method: str, runs: int, timeout: float, cells: bool = False
) -> Cell:
    import solvers

    # The kernel switch is read at each call: set only around ours on the cells.
    if cells:
        os.environ["SOLVERS_COVER_KERNEL"] = "cells"
    else:
        os.environ.pop("SOLVERS_COVER_KERNEL", None)

    problems = [solvers.ExactCover.from_dlx(f.read_text()) for f in inst.files]

    def once() -> tuple[Timing, list[int]]:
        # process_time: the CPU time of every thread of this process.
        t0, c0 = time.perf_counter(), time.process_time()
        counts = [
            solvers.count_covers(p, method=method, threads=threads, timeout=timeout)
            for p in problems
        ]
        return Timing(time.perf_counter() - t0, time.process_time() - c0), counts

    try:
        best, counts = best_of(runs, once)
    except TimeoutError:
        return Cell(None, f"> {timeout:g} s")
    check(inst.name, f"ours ({threads} threads)", counts, inst)
    return Cell(best)


SOLUTIONS = re.compile(r"Altogether (\d+) solutions?")


def knuth_once(binary: Path, files: list[Path], timeout: float) -> tuple[Timing, list[int]]:
    counts, wall, cpu = [], 0.0, 0.0
    for f in files:
        with f.open("rb") as stdin:
            t0, c0 = time.perf_counter(), children_cpu()
            done = subprocess.run(
                [str(binary)], stdin=stdin, capture_output=True, timeout=timeout, check=True
            )
            wall += time.perf_counter() - t0
            cpu += children_cpu() - c0
        found = SOLUTIONS.search(done.stderr.decode())
        if not found:
            raise SystemExit(f"{binary} printed no count: {done.stderr.decode()[-300:]}")
        counts.append(int(found.group(1)))
    return Timing(wall, cpu), counts


def startup(binary: Path, n: int, runs: int) -> Timing:
    """What ``n`` processes of ``binary`` cost on a one-option problem."""
    with tempfile.TemporaryDirectory() as tmp:
        trivial = Path(tmp) / "one.dlx"
        trivial.write_text("a\na\n")
        return best_of(runs, lambda: knuth_once(binary, [trivial] * n, 60))[0]


def run_knuth(binary: Path, inst: Instance, runs: int, timeout: float) -> Cell:
    try:
        best, counts = best_of(runs, lambda: knuth_once(binary, inst.files, timeout))
    except subprocess.TimeoutExpired:
        return Cell(None, f"> {timeout:g} s")
    check(inst.name, binary.name, counts, inst)
    if inst.batch:
        return Cell(best, net=best.minus(startup(binary, len(inst.files), runs)))
    return Cell(best)


def run_pypi(kind: str, python: Path, inst: Instance, runs: int, timeout: float) -> Cell:
    command = [str(python), __file__, "--worker", kind, "--runs", str(runs)]
    command += ["--budget", str(timeout), *map(str, inst.files)]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout + 120)
    except subprocess.TimeoutExpired:
        return Cell(None, f"> {timeout:g} s")
    if done.returncode:
        return Cell(None, "error: " + done.stderr.strip().splitlines()[-1][:60])
    answer = json.loads(done.stdout)
    if "error" in answer:
        return Cell(None, answer["error"])
    check(inst.name, kind, answer["counts"], inst)
    return Cell(Timing(answer["wall"], answer["cpu"]))


# -- the table ------------------------------------------------------------------


def instances(folder: Path, names: Sequence[str], n_sudokus: int) -> list[Instance]:
    out = []
    for name in names:
        if name == "sudoku":
            files = sorted((folder / "sudoku").glob("top1465_*.dlx"))[:n_sudokus]
            if len(files) < n_sudokus:
                raise SystemExit(
                    f"{folder}/sudoku has {len(files)} puzzles: run cover_instances.py"
                )
            out.append(Instance(f"sudoku x{n_sudokus}", files, n_sudokus))
        else:
            path = folder / f"{name}.dlx"
            if not path.exists():
                raise SystemExit(f"no {path}: run benches/cover_instances.py {folder}")
            out.append(Instance(name, [path], EXPECTED[name]))
    return out


def available(peers: Path, wanted: Sequence[str], method: str) -> dict[str, Callable[..., Cell]]:
    """The programs that can run here; a line for each that cannot."""
    runners: dict[str, Callable[..., Cell]] = {}
    for program in wanted:
        if program in ("ours1", "ours2", "cells1"):
            try:
                import solvers

                solvers.ExactCover, solvers.count_covers  # noqa: B018
            except (ImportError, AttributeError) as err:
                print(f"skipped {program}: solvers has no exact cover here ({err})")
                continue
            threads, cells = int(program[-1]), program.startswith("cells")
            runners[program] = lambda inst, runs, t, n=threads, c=cells: run_ours(
                inst, n, method, runs, t, c
            )
        elif program in KNUTH:
            binary = peers / "bin" / program
            if not os.access(binary, os.X_OK):
                print(f"skipped {KNUTH[program]}: no {binary} (benches/peers/build_cover_peers.sh)")
                continue
            runners[program] = lambda inst, runs, t, b=binary: run_knuth(b, inst, runs, t)
        else:
            python = peers / "venv" / "bin" / "python"
            module = program.replace("-", "_")
            ok = python.exists() and (
                subprocess.run(
                    [str(python), "-c", f"import {module}"], capture_output=True
                ).returncode
                == 0
            )
            if not ok:
                print(
                    f"skipped {PYPI[program]}: not importable by {python} "
                    "(benches/peers/build_cover_peers.sh)"
                )
                continue
            runners[program] = lambda inst, runs, t, k=program, p=python: run_pypi(
                k, p, inst, runs, t
            )
    return runners


def fmt(cell: Cell | None, what: str) -> str:
    if cell is None:
        return "-"
    if cell.best is None:
        return cell.note
    text = f"{getattr(cell.best, what):.2f}"
    if cell.net is not None:
        text += f" ({getattr(cell.net, what):.2f})"
    return text


def ratio(ours: Cell | None, peer: Cell | None, what: str) -> str:
    if ours is None or peer is None or ours.best is None or peer.best is None:
        return "-"
    base = getattr(peer.net if peer.net is not None else peer.best, what)
    return f"{getattr(ours.best, what) / base:.2f}x" if base > 0 else "-"


def peer_program(peers: Path, name: str) -> Path:
    """Knuth's program ``name`` in ``peers/bin``; exits, naming the script
    that builds it, where it is missing."""
    binary = peers / "bin" / name
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"no {binary}: run benches/peers/build_cover_peers.sh")
    return binary


def print_heading(runs: int) -> None:
    """The first lines of a bench's output: when, where, how loaded."""
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}")
    print(f"load average before: {os.getloadavg()[0]:.2f}; best of {runs}\n")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs, {platform.system()} {platform.release()}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, default=DEFAULT_PEERS, help="bin/, venv/, instances/")
    parser.add_argument("--instances", type=Path, default=None, help="default PEERS/instances")
    parser.add_argument("--only", nargs="+", default=DEFAULT_INSTANCES, metavar="NAME")
    parser.add_argument("--programs", nargs="+", default=PROGRAMS, choices=PROGRAMS)
    parser.add_argument("--sudokus", type=int, default=SUDOKU_COUNT)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument(
        "--method", default="search", help="count_covers' method for ours (search, memo, auto)"
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per run")
    parser.add_argument("--worker", choices=list(PYPI), help=argparse.SUPPRESS)
    parser.add_argument("--budget", type=float, default=300.0, help=argparse.SUPPRESS)
    parser.add_argument("files", nargs="*", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.worker, args.files, args.runs, args.budget)))
        return

    folder = args.instances or args.peers / "instances"
    todo = instances(folder, args.only, args.sudokus)
    runners = available(args.peers, args.programs, args.method)
    names = {
        "ours1": "ours 1 thr",
        "ours2": "ours 2 thr",
        "cells1": "ours 1 thr, cells",
        **KNUTH,
        **PYPI,
    }
    shown = [p for p in PROGRAMS if p in runners]
    ratios = [p for p in ("ours1", "ours2", "cells1") if p in runners and "ssxcc" in runners]
    load0 = os.getloadavg()
    print(f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC; {machine()}")
    print(f"load average before: {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}; best of {args.runs}")
    if any(p.startswith("ours") for p in runners):
        print(f"ours: solvers.count_covers(problem, method={args.method!r}, threads=...)")
    head = ["instance", "count", *(names[p] for p in shown)]
    head += [f"{names[p]} / SSXCC" for p in ratios]
    results = []
    for what, title in (("wall", "wall seconds"), ("cpu", "CPU seconds (user + system)")):
        print()
        print(f"{title}:")
        print()
        print("| " + " | ".join(head) + " |")
        print("|---|" + "---:|" * (len(head) - 1))
        for k, inst in enumerate(todo):
            if what == "wall":  # run once, print both tables from the same runs
                results.append({p: runners[p](inst, args.runs, args.timeout) for p in shown})
            cells = results[k]
            row = [inst.name, f"{inst.expected:,}" if not inst.batch else "1 each"]
            row += [fmt(cells[p], what) for p in shown]
            row += [ratio(cells[p], cells["ssxcc"], what) for p in ratios]
            print("| " + " | ".join(row) + " |", flush=True)
    load1 = os.getloadavg()
    print()
    print(f"load average after: {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}")


if __name__ == "__main__":
    main()
