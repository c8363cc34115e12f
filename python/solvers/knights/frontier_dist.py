"""The frontier count of knight's tours on any :class:`concurrent.futures.Executor`
(a process pool, or a Dask cluster through ``Client(...).get_executor()``),
through partition files in a directory every worker can reach.
:func:`solvers.count_tours` comes here for ``method="frontier"`` with
``executor=``.

How the work is split (``src/knights/frontier/round.rs`` does a task's work).  Every
layer of the DP (the states after a sweep step, with their counts) is cut
into ``parts`` partitions by a fixed hash of the states, and every step is one
*round* of at most ``parts`` tasks, task ``o`` owning the states that hash to
``o``:

1. it reads the pieces addressed to it (records in the files the round before
   wrote: each checked by its checksum, step and owner): its partition of the
   layer, a state's count perhaps shared among several pieces;
2. it expands the pieces by the step on its own Rust pool (the step is
   linear: the children of a state's shares are summed as the state's
   would be);
3. it writes the children, split by owner, to one new file of its own, and
   returns only where each owner's piece lies (``(offset, states)``), the
   total of the counts it wrote and their type.

The driver passes those places on to the next round and removes a round's
input files once the round is done: no layer passes through it, and the disk
holds about two layers.  The last round returns the finished paths instead.
The count has a directory of its own, ``solvers-parts-<pid>-<n>`` inside
``spill=`` (the system's temporary directory if ``None``), removed when the
count ends, also on an error, a timeout or Ctrl-C.  On a cluster ``spill``
must name a shared filesystem, mounted at the same path on every worker.

The answer is the one counted in one process, for every ``parts``.
"""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import Executor
from typing import Any

from .. import _core
from .._engine import _args, _progress, _rounds, _run, _workers
from .._engine._deadline import Deadline
from .._engine._run import RunOptions

__all__ = ["count", "parts_for"]

#: A board as the tasks take it: rows, cols, mask, start, closed.
Spec = tuple[int, int, "list[bool] | None", "tuple[int, int] | None", bool]

#: A piece of a layer: its file, where its record starts, its states.
Piece = tuple[str, int, int]


def _round_task(
    spec: Spec,
    step: int,
    owner: int,
    parts: int,
    inputs: list[Piece],
    width: int,
    total: tuple[int, int],
    out: str,
    threads: int,
    timeout: float | None,
) -> tuple[list[tuple[int, int] | None], int, int, int, int]:
    """One owner's task in the round of sweep step ``step`` (runs on a worker)."""
    _workers.watch_parent()  # a worker whose driver is killed goes too
    rows, cols, mask, start, closed = spec
    run = _run.core(_args.worker_threads(threads), timeout)
    board = (rows, cols, mask)
    layer = (inputs, width, total)
    return _core.frontier_round(board, (start, closed), (step, owner, parts), layer, out, run)


def _halves(value: int) -> tuple[int, int]:
    """A count as ``(high, low)`` 128-bit halves; past 256 bits, the largest."""
    if value >= 1 << 256:
        return (1 << 128) - 1, (1 << 128) - 1
    return value >> 128, value & ((1 << 128) - 1)


def parts_for(executor: Executor) -> int:
    """One partition per worker where the executor tells how many it has."""
    return _rounds.parts(None, executor)


def count(spec: Spec, options: RunOptions, what: str) -> int:
    """The directed tours of the frontier count of ``spec``, round by round on
    ``executor`` (``threads`` per task; ``0``: the worker's), each layer cut
    into ``parts`` partitions (``None``: :func:`parts_for` the executor), its
    partition files in a new directory inside ``spill``."""
    rows, cols, mask, start, closed = spec
    executor = _args.check_executor(options.executor)
    threads = _args.task_threads(executor, options.threads)
    deadline = Deadline(options.timeout)
    steps, high, low = _core.frontier_steps((rows, cols, mask), start, closed)
    if steps == 0:
        return int(high) << 128 | int(low)
    parts = _rounds.parts(options.parts, executor)
    spill = _args.spill_directory(options.spill)
    parent = os.path.abspath(spill if spill is not None else tempfile.gettempdir())
    directory = _rounds.new_directory(parent)
    try:
        with _progress.shown(options.progress, what, unit="square", eta=False) as bar:
            paths = _sweep(spec, executor, (steps, parts), threads, deadline, directory, bar)
        board = (rows, cols, mask)
        high, low = _core.frontier_tours(board, start, closed, *_halves(paths))
        return int(high) << 128 | int(low)
    finally:
        _rounds.remove_directory(directory)


def _sweep(
    spec: Spec,
    executor: Executor,
    sizes: tuple[int, int],
    threads: int,
    deadline: Deadline,
    directory: str,
    bar: Any,
) -> int:
    """The undirected paths: every round, the pieces passed on by place."""
    steps, parts = sizes
    inputs: list[list[Piece]] = [[] for _ in range(parts)]
    width, total = 0, 1  # the first layer: one state, reached once
    for step in range(steps):
        owners = [0] if step == 0 else [o for o in range(parts) if inputs[o]]
        if not owners:
            return 0  # a layer with no states: no tour
        outs = {o: os.path.join(directory, f"round-{step}-{o}.bin") for o in owners}
        calls = [
            (
                _round_task,
                (spec, step, o, parts, inputs[o], width, _halves(total), outs[o], threads),
            )
            for o in owners
        ]
        deadline.where = f"after {step} of {steps} steps of the sweep"
        results = _rounds.run(executor, calls, deadline)
        for piece in {path for pieces in inputs for path, _, _ in pieces}:
            os.remove(piece)  # read by this round: no longer needed
        total = sum(int(r[2]) << 128 | int(r[3]) for r in results)
        if bar is not None:
            bar(step + 1, steps)
        if step + 1 == steps:
            if total >> 256:
                raise OverflowError("the number of paths does not fit 256 bits")
            return total
        inputs = [[] for _ in range(parts)]
        for o, (places, _states, _high, _low, wrote) in zip(owners, results, strict=True):
            width = int(wrote)
            for owner, place in enumerate(places):
                if place is not None:
                    inputs[owner].append((outs[o], int(place[0]), int(place[1])))
    return 0
