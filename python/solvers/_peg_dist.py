"""The peg-solitaire DP on any :class:`concurrent.futures.Executor`: a process
pool, or a Dask cluster through ``dask.distributed.Client(...).get_executor()``.

:func:`solvers.count_peg_solutions` and :func:`solvers.finish_counts` come
here when given ``executor=``.

How the work is split.  A layer of the DP (the positions after some jumps, one
per symmetry class, with the number of sequences reaching each) is cut into
``parts`` parts by a fixed hash of each position: splitmix64's finalizer of its
canonical 64-bit key, modulo ``parts`` (``owner_of`` in ``src/peg.rs``; the
same in every process and on every machine).  Every layer is one round of at
most ``parts`` tasks, task ``o`` owning the positions that hash to ``o``:

1. it merges the pieces of the layer addressed to it, one from each task of
   the previous round (every parent of a position sends its contribution to
   the position's owner, so the merged part holds exact counts);
2. it expands its part with the Rust kernel on its own rayon pool, splitting
   the children by owner as they leave the kernel's tables;
3. it returns the ``parts`` pieces, as bytes (``PegLayer.to_bytes``).

The driver regroups the pieces by owner and submits the next round.  This is
the seed's scheme (MPI ranks exchanging boards by hash), with one difference:
the generic ``Executor`` interface has no channels between tasks, so every
piece travels from a worker through the driver to the next worker.  The
driver holds the pieces of one or two layers at a time (a few times a layer:
a position reached from several parts arrives in several pieces).  On Dask
the driver scatters a round's pieces to the workers before submitting its
tasks, so they reach the workers directly rather than inside the task graph.

A count to a fixed finish grows a search from the start and one from the
finish, as the local count does.  The search from the finish keeps the
complements of its positions and splits them by the owner of the position
they stand for, so a position has the same owner in both searches: each owner
joins its two parts alone, and the per-owner sums add up to the count.  The
local count joins the searches across the last jump; that join is not local
to an owner, so here, for an odd number of jumps, one side is expanded once
more instead.  For start = finish the one search serves both sides: its
meeting layer is split a second time, by the owner of the complements.

Tasks are module-level functions with plain arguments (the board as its hole
count, jumps and symmetry group, layers as bytes); each process builds the
board's kernel once and keeps it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_EXCEPTION, Executor, Future, wait
from typing import Any

from . import _core, _progress, _validate, distributed
from .pegboard import PegBoard

#: At most this many parts: a round moves up to ``parts ** 2`` pieces.
MAX_PARTS = 1024

#: Parts when the executor does not say how many workers it has.
DEFAULT_PARTS = 8

#: What a task gets to build its kernel: holes, jumps, symmetry group.
Spec = tuple[int, tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]]

#: A layer in flight: for each owner, the pieces (bytes) addressed to it.
Pieces = list[list[bytes]]

#: A task's output: for each owner, its piece as ``(positions, bytes)`` or None.
Packed = list[tuple[int, bytes] | None]

# ---------------------------------------------------------------- in the workers

_KERNELS: dict[Spec, _core.PegKernel] = {}
#: Kernels kept per process (a few boards at a time).
_KERNELS_KEPT = 4


def _kernel(spec: Spec) -> _core.PegKernel:
    """This process's kernel for the board and group of ``spec``."""
    kernel = _KERNELS.get(spec)
    if kernel is None:
        holes, jumps, group = spec
        kernel = _core.PegKernel(holes, list(jumps), [list(p) for p in group])
        if len(_KERNELS) >= _KERNELS_KEPT:
            _KERNELS.clear()
        _KERNELS[spec] = kernel
    return kernel


class _Clock:
    """The seconds a task has left (a task starts its own clock: the driver's
    and the workers' clocks need not agree)."""

    def __init__(self, timeout: float | None) -> None:
        self.end = None if timeout is None else time.monotonic() + timeout

    def left(self) -> float | None:
        return None if self.end is None else max(self.end - time.monotonic(), 0.0)


def _pack(layers: list[Any]) -> Packed:
    return [(len(layer), layer.to_bytes()) if len(layer) else None for layer in layers]


def _merged(kernel: _core.PegKernel, pieces: list[bytes], threads: int, clock: _Clock) -> Any:
    return kernel.merge([_core.PegLayer.from_bytes(p) for p in pieces], threads, clock.left())


def _round_task(
    spec: Spec,
    pieces: list[bytes],
    parts: int,
    grow: bool,
    complement: bool,
    mirror: bool,
    threads: int,
    timeout: float | None,
) -> tuple[int, Packed | None, Packed | None]:
    """One owner's share of a round: merge the pieces addressed to it; with
    ``grow``, expand the merged part and split the children by owner (by the
    owner of their complements for a search from the finish, ``complement``);
    with ``mirror``, split the merged part itself by the owner of its
    complements.  Returns the size of the merged part and the two splits."""
    clock = _Clock(timeout)
    kernel = _kernel(spec)
    workers = distributed.worker_threads(threads)
    part = _merged(kernel, pieces, workers, clock)
    children = mirrored = None
    if grow:
        children = _pack(kernel.expand_split(part, parts, workers, complement, clock.left()))
    if mirror:
        mirrored = _pack(kernel.split(part, parts, workers, True, clock.left()))
    return len(part), children, mirrored


def _meet_task(
    spec: Spec,
    pieces: list[bytes],
    other: list[bytes],
    threads: int,
    timeout: float | None,
) -> int:
    """One owner's share of the join of the two searches: ``other`` (the
    smaller side) merged, ``pieces`` joined with it piece by piece (the join
    is linear in that side: no need to merge the larger layer)."""
    clock = _Clock(timeout)
    kernel = _kernel(spec)
    workers = distributed.worker_threads(threads)
    merged = _merged(kernel, other, workers, clock)
    layers = [_core.PegLayer.from_bytes(p) for p in pieces]
    return kernel.meet_pieces(layers, merged, workers, clock.left())


# ---------------------------------------------------------------- in the driver


def _parts(value: Any, executor: Executor) -> int:
    if value is None:
        return _default_parts(executor)
    parts = _validate.positive(value, "parts")
    if parts > MAX_PARTS:
        raise ValueError(f"parts must be at most {MAX_PARTS}, got {parts}")
    return parts


def _default_parts(executor: Executor) -> int:
    """One part per worker where the executor tells how many it has."""
    workers = distributed.workers_of(executor)
    return DEFAULT_PARTS if workers is None else min(workers, MAX_PARTS)


class _Side:
    """One search in flight: the pieces of its newest layer, not yet merged."""

    def __init__(self, pieces: Pieces, pegs: int, complement: bool) -> None:
        self.pieces = pieces
        self.pegs = pegs
        self.complement = complement
        #: Positions in the pieces: an upper bound of the layer's size (a
        #: position may come in several pieces), to choose the side to grow.
        self.estimate = 1

    def empty(self) -> bool:
        return not any(self.pieces)


class _Driver:
    """One call's executor, parts, deadline and progress bar."""

    def __init__(
        self,
        board: PegBoard,
        group: Sequence[Sequence[int]],
        executor: Any,
        parts: Any,
        threads: Any,
        progress: Any,
        timeout: Any,
    ) -> None:
        self.executor = distributed.check_executor(executor)
        self.client = distributed.dask_client(executor)
        self.parts = _parts(parts, executor)
        self.threads = distributed.task_threads(executor, threads)
        self.timeout = _validate.timeout(timeout)
        self.deadline = None if self.timeout is None else time.monotonic() + self.timeout
        self.bar = _progress.make(progress, "peg solitaire", unit="layer", eta=False)
        self.planned = 1
        self.done = 0
        self.spec: Spec = (
            len(board),
            board.jumps,
            tuple(tuple(perm) for perm in group),
        )
        # The driver's own kernel: start layers and the tiny last layer.
        self.kernel = _core.PegKernel(len(board), list(board.jumps), [list(p) for p in group])

    def left(self) -> float | None:
        if self.deadline is None:
            return None
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise self.timed_out()
        return left

    def timed_out(self) -> TimeoutError:
        return TimeoutError(f"no answer within the timeout of {self.timeout} s")

    def note(self, size: int, pegs: int) -> None:
        """Progress: ``self.done`` rounds, the last on ``size`` positions."""
        if self.bar is not None:
            self.bar.note(f"{size:,} positions with {pegs} pegs")
            self.bar(self.done, self.planned)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

    def run(self, calls: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[Any]:
        """Submit every call (with the time left as its last argument) and
        wait for all.  The first failure, the deadline or Ctrl-C cancels what
        has not started and raises."""
        futures: list[Future[Any]] = []
        try:
            for function, args in calls:
                futures.append(self.executor.submit(function, *args, self.left()))
            done, pending = wait(futures, timeout=self.left(), return_when=FIRST_EXCEPTION)
            for future in done:
                if not future.cancelled() and future.exception() is not None:
                    if isinstance(future.exception(), TimeoutError):
                        raise self.timed_out() from future.exception()
                    future.result()  # raises the task's exception
            if pending:
                raise self.timed_out()
            return [future.result() for future in futures]
        except BaseException:
            for future in futures:
                future.cancel()
            raise

    def ship(self, batches: list[list[bytes]]) -> list[Any]:
        """The pieces for a round's tasks, one list per task.  On Dask they are
        scattered to the workers first: arguments of a task go through the
        scheduler as part of its graph, which is slow for megabytes (and
        Dask warns about it), while scattered data goes to a worker directly
        and the task gets it by reference."""
        if self.client is None:
            return batches
        futures = iter(self.client.scatter([p for batch in batches for p in batch], hash=False))
        return [[next(futures) for _ in batch] for batch in batches]

    def start(self, hole: int, complement: bool) -> _Side:
        """The search from "every hole full but ``hole``", split by owner."""
        layer = self.kernel.start([hole])
        pieces = self.kernel.split(layer, self.parts, 1, complement, self.left())
        return _Side([[p.to_bytes()] if len(p) else [] for p in pieces], layer.pegs, complement)

    def _regroup(self, packed: list[Packed]) -> tuple[Pieces, int]:
        pieces: Pieces = [[] for _ in range(self.parts)]
        positions = 0
        for outputs in packed:
            for owner, piece in enumerate(outputs):
                if piece is not None:
                    pieces[owner].append(piece[1])
                    positions += piece[0]
        return pieces, positions

    def grow(self, side: _Side, *, expand: bool = True, mirror: bool = False) -> Pieces | None:
        """One round on ``side``: its layer merged by owner, then expanded
        into the next (``expand``) and/or split by the owner of its
        complements (``mirror``, returned)."""
        owners = [owner for owner in range(self.parts) if side.pieces[owner]]
        shipped = self.ship([side.pieces[owner] for owner in owners])
        results = self.run(
            [
                (
                    _round_task,
                    (self.spec, pieces, self.parts, expand, side.complement, mirror, self.threads),
                )
                for pieces in shipped
            ]
        )
        self.done += 1
        self.note(sum(result[0] for result in results), side.pegs)
        if expand:
            side.pieces, side.estimate = self._regroup([result[1] for result in results])
            side.pegs -= 1
        if mirror:
            return self._regroup([result[2] for result in results])[0]
        return None

    def join(self, a: Pieces, b: Pieces) -> int:
        """The sequences through two searches that meet, owner by owner (the
        join is symmetric: the side with fewer bytes is the one merged)."""
        batches = []
        for owner in range(self.parts):
            if a[owner] and b[owner]:
                x, y = a[owner], b[owner]
                if sum(map(len, x)) < sum(map(len, y)):
                    x, y = y, x
                batches += [x, y]
        shipped = self.ship(batches)
        calls = [
            (_meet_task, (self.spec, shipped[i], shipped[i + 1], self.threads))
            for i in range(0, len(shipped), 2)
        ]
        total: int = sum(self.run(calls))
        if total >= 1 << 128:
            raise OverflowError("the count does not fit the 128-bit counter")
        return total

    def last_layer(self, hole: int, holes: int) -> _core.PegLayer | None:
        """The search from ``hole`` carried to one peg, merged here (a layer
        of at most one position per hole), or None if no game gets there."""
        self.planned = max(holes - 2, 1)
        side = self.start(hole, False)
        while side.pegs > 1 and not side.empty():
            self.grow(side)
        if side.empty() or side.pegs != 1:
            return None
        pieces = [_core.PegLayer.from_bytes(p) for owner in side.pieces for p in owner]
        last = self.kernel.merge(pieces, 1, self.left())
        self.note(len(last), last.pegs)
        return last

    def meet(self, s: int, f: int, steps: int) -> int:
        """Sequences from ``s`` to ``f``: the two searches grown (the smaller
        side first) until they are ``steps`` jumps apart, then joined."""
        self.planned = max(steps, 1)
        a, b = self.start(s, False), self.start(f, True)
        for _ in range(steps):
            side = a if a.estimate <= b.estimate else b
            self.grow(side)
            if side.empty():
                return 0
        return self.join(a.pieces, b.pieces)

    def meet_itself(self, s: int, steps: int) -> int:
        """Sequences from ``s`` back to ``s``: one search, joined with itself
        (its meeting layer split a second time by the owner of complements)."""
        self.planned = steps // 2 + 1
        a = self.start(s, False)
        for _ in range(steps // 2):
            self.grow(a)
            if a.empty():
                return 0
        # Odd: one layer further on one side (a), the meeting layer on the other.
        mirrored = self.grow(a, expand=steps % 2 == 1, mirror=True)
        assert mirrored is not None
        return self.join(a.pieces, mirrored)


def count_peg_solutions(
    board: PegBoard,
    s: int,
    f: int | None,
    *,
    reachable: bool,
    method: str,
    executor: Any,
    parts: Any,
    threads: Any,
    progress: Any,
    timeout: Any,
) -> int:
    """``solvers.count_peg_solutions`` on ``executor`` (holes ``s``, ``f``
    already checked; ``reachable`` False: no game, 0 after the argument checks)."""
    group = board.symmetries_fixing(s) if f is None else board.symmetries_fixing(s, f)
    driver = _Driver(board, group, executor, parts, threads, progress, timeout)
    try:
        if not reachable:
            return 0
        steps = len(board) - 2
        if f is None or method == "forward":
            last = driver.last_layer(s, len(board))
            if last is None:
                return 0
            if f is None:
                return last.total()
            return dict(driver.kernel.finish_counts(last)).get(f, 0)
        if s == f:
            return driver.meet_itself(s, steps)
        return driver.meet(s, f, steps)
    finally:
        driver.close()


def finish_counts(
    board: PegBoard,
    s: int,
    *,
    executor: Any,
    parts: Any,
    threads: Any,
    progress: Any,
    timeout: Any,
) -> list[tuple[int, int]]:
    """``solvers.finish_counts`` on ``executor``: ``(hole, count)`` pairs."""
    driver = _Driver(board, board.symmetries_fixing(s), executor, parts, threads, progress, timeout)
    try:
        if len(board) < 2:
            return []
        last = driver.last_layer(s, len(board))
        return [] if last is None else driver.kernel.finish_counts(last)
    finally:
        driver.close()
