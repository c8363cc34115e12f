"""The peg-solitaire DP on any :class:`concurrent.futures.Executor`: a process
pool, or a Dask cluster through ``dask.distributed.Client(...).get_executor()``.
It owns the tasks the workers run and :class:`Distributed`, the
:class:`solvers._peg_dp.Driver` that ships layers to them; what to grow and
when to join is :mod:`solvers._peg_dp`'s, the same as for a count in this
process.  :func:`solvers.count_peg_solutions` and :func:`solvers.finish_counts`
come here when given ``executor=``.

How the work is split.  A layer of the DP (the positions after some jumps, one
per symmetry class, with the number of sequences reaching each) is cut into
``parts`` parts by a fixed hash of each position: splitmix64's finalizer of its
canonical 64-bit key, modulo ``parts`` (``owner_of`` in ``src/peg/``; the
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

from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, Executor, Future, wait
from typing import Any

from . import _args, _core, _validate
from ._deadline import Deadline
from ._peg_dp import Driver, Spec, new_kernel
from .pegboard import PegBoard

__all__ = ["DEFAULT_PARTS", "MAX_PARTS", "Distributed"]

#: At most this many parts: a round moves up to ``parts ** 2`` pieces.
MAX_PARTS = 1024

#: Parts when the executor does not say how many workers it has.
DEFAULT_PARTS = 8

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
        kernel = new_kernel(spec)
        if len(_KERNELS) >= _KERNELS_KEPT:
            _KERNELS.clear()
        _KERNELS[spec] = kernel
    return kernel


def _pack(layers: list[Any]) -> Packed:
    return [(len(layer), layer.to_bytes()) if len(layer) else None for layer in layers]


def _merged(kernel: _core.PegKernel, pieces: list[bytes], threads: int, clock: Deadline) -> Any:
    return kernel.merge([_core.PegLayer.from_bytes(p) for p in pieces], threads, clock.remaining())


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
    complements.  Returns the size of the merged part and the two splits.
    ``timeout``: the seconds the driver had left (a task starts its own clock:
    the driver's and the workers' clocks need not agree)."""
    clock = Deadline(timeout)
    kernel = _kernel(spec)
    workers = _args.worker_threads(threads)
    part = _merged(kernel, pieces, workers, clock)
    children = mirrored = None
    if grow:
        children = _pack(kernel.expand_split(part, parts, workers, complement, clock.remaining()))
    if mirror:
        mirrored = _pack(kernel.split(part, parts, workers, True, clock.remaining()))
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
    clock = Deadline(timeout)
    kernel = _kernel(spec)
    workers = _args.worker_threads(threads)
    merged = _merged(kernel, other, workers, clock)
    layers = [_core.PegLayer.from_bytes(p) for p in pieces]
    return kernel.meet_pieces(layers, merged, workers, clock.remaining())


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
    workers = _args.workers_of(executor)
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


class Distributed(Driver):
    """The DP on ``executor``: each layer cut into ``parts`` parts, one task
    per part and layer, ``threads`` per task.  The join of two sides one jump
    apart is one more round (the search from the smaller side expanded, or
    for start = finish the meeting layer split by the owner of complements),
    then a join of sides that meet."""

    join_rounds = 1

    def __init__(
        self,
        board: PegBoard,
        group: Any,
        executor: Any,
        parts: Any,
        threads: Any,
        progress: Any,
        timeout: Any,
    ) -> None:
        self.executor = _args.check_executor(executor)
        self.client = _args.dask_client(executor)
        self.parts = _parts(parts, executor)
        self.threads = _args.task_threads(executor, threads)
        super().__init__(board, group, progress, Deadline(timeout))

    def run(self, calls: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[Any]:
        """Submit every call (with the time left as its last argument) and
        wait for all.  The first failure, the deadline or Ctrl-C cancels what
        has not started and raises."""
        futures: list[Future[Any]] = []
        try:
            for function, args in calls:
                futures.append(self.executor.submit(function, *args, self.deadline.left()))
            done, pending = wait(futures, timeout=self.deadline.left(), return_when=FIRST_EXCEPTION)
            for future in done:
                if not future.cancelled() and future.exception() is not None:
                    if isinstance(future.exception(), TimeoutError):
                        raise self.deadline.expired() from future.exception()
                    future.result()  # raises the task's exception
            if pending:
                raise self.deadline.expired()
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

    def _regroup(self, packed: list[Packed]) -> tuple[Pieces, int]:
        pieces: Pieces = [[] for _ in range(self.parts)]
        positions = 0
        for outputs in packed:
            for owner, piece in enumerate(outputs):
                if piece is not None:
                    pieces[owner].append(piece[1])
                    positions += piece[0]
        return pieces, positions

    def _round(self, side: _Side, *, expand: bool = True, mirror: bool = False) -> Pieces | None:
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
        self.note(sum(result[0] for result in results), side.pegs)
        if expand:
            side.pieces, side.estimate = self._regroup([result[1] for result in results])
            side.pegs -= 1
        if mirror:
            return self._regroup([result[2] for result in results])[0]
        return None

    def _join(self, a: Pieces, b: Pieces) -> int:
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

    # ------------------------------------------------------------ the Driver

    def start(self, side: str, hole: int) -> _Side:
        """The search from "every hole full but ``hole``", split by owner;
        the search from the finish (side ``"b"``) by the owner of the
        positions its complements stand for, so both sides of a position
        have the same owner."""
        complement = side == "b"
        layer = self.kernel.start([hole])
        pieces = self.kernel.split(layer, self.parts, 1, complement, self.deadline.left())
        return _Side([[p.to_bytes()] if len(p) else [] for p in pieces], layer.pegs, complement)

    def expand(self, side: _Side, name: str) -> _Side:
        self._round(side)
        return side

    def pegs(self, side: _Side) -> int:
        return side.pegs

    def size(self, side: _Side) -> int:
        return 0 if side.empty() else side.estimate

    def meet(self, a: _Side, b: _Side) -> int:
        if a is b:  # its meeting layer split a second time, by the owner of complements
            mirrored = self._round(a, expand=False, mirror=True)
            assert mirrored is not None
            return self._join(a.pieces, mirrored)
        return self._join(a.pieces, b.pieces)

    def meet_across(self, small: _Side, large: _Side) -> int:
        # The kernel's join across a jump is not local to an owner: expand
        # one side once more instead, then join sides that meet.
        if small is large:  # one layer further on one side, the meeting layer on the other
            mirrored = self._round(small, expand=True, mirror=True)
            assert mirrored is not None
            return self._join(small.pieces, mirrored)
        self._round(small)
        if small.empty():
            return 0
        return self._join(small.pieces, large.pieces)

    def last(self, side: _Side) -> _core.PegLayer | None:
        """The pieces of the one-peg layer merged here (at most one position a hole)."""
        if side.empty():
            return None
        pieces = [_core.PegLayer.from_bytes(p) for owner in side.pieces for p in owner]
        last = self.kernel.merge(pieces, 1, self.deadline.left())
        self.note(len(last), last.pegs, layer=False)
        return last
