"""The peg-solitaire DP on any :class:`concurrent.futures.Executor`: a process
pool, or a Dask cluster through ``dask.distributed.Client(...).get_executor()``.
It owns the tasks the workers run and :class:`Distributed`, the
:class:`solvers.peg.dp.Driver` that coordinates them; what to grow and when
to join is :mod:`solvers.peg.dp`'s, the same as for a count in this process.
:func:`solvers.count_peg_solutions` and :func:`solvers.finish_counts` come
here when given ``executor=``.

How the work is split.  A layer of the DP (the positions after some jumps, one
per symmetry class, with the number of sequences reaching each) is cut into
``parts`` parts by a fixed hash of each position: splitmix64's finalizer of its
canonical 64-bit key, modulo ``parts`` (``owner_of`` in ``src/peg/``; the
same in every process and on every machine).  Every layer is one round of at
most ``parts`` tasks, task ``o`` owning the positions that hash to ``o``:

1. it reads the pieces of the layer addressed to it, one from each task of
   the previous round, and merges them (every parent of a position sends its
   contribution to the position's owner, so the merged part holds exact
   counts);
2. it expands its part with the Rust kernel on its own rayon pool, splitting
   the children by owner as they leave the kernel's tables;
3. it writes the ``parts`` pieces to one new file and returns where they lie.

How the layers travel: through files, not through the driver.  Every count
gets a directory of its own, ``solvers-parts-<pid>-<n>-<random>`` inside
``spill`` (the system's temporary directory by default; on a cluster, a
shared filesystem that every worker sees at the same path), made by the
driver when the count needs it.  Each task writes its pieces to one file of
its own and returns only references to them (:mod:`solvers.peg.piece_files`
owns the files and their checks); the driver regroups the references by
owner and hands each task of the next round the references addressed to it.
No layer passes through the driver, which only writes the start (one
position) and reads the one-peg layer at the end (at most one position a
hole).

Who deletes what.  The driver removes a round's input files (all the files
of the round that wrote them, leftovers of a task run twice included) once
the round that read them is done, so the disk holds about two layers of the
growing search (its newest, the next being written) and the other search's
newest.  The directory goes, with all it holds, when the count ends, however
it ends: an answer, an error in a task, the timeout or Ctrl-C
(:meth:`Distributed.close`, which the public functions call in a
``finally``).  A task still running after the end then finds no directory
and fails, unheard.

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
count, jumps and symmetry group, pieces as references, the name of the file
to write); each process builds the board's kernel once and keeps it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from typing import Any

from .. import _core
from .._engine import _args, _rounds, _run, _workers
from .._engine._deadline import Deadline
from .._engine._rounds import DEFAULT_PARTS, MAX_PARTS
from .board import PegBoard
from .dp import Driver, Spec, Tally, new_kernel
from .piece_files import Packed, Ref, read_piece, write_pieces

__all__ = ["DEFAULT_PARTS", "MAX_PARTS", "Distributed", "Ref"]


#: A layer in flight: for each owner, the references of the pieces addressed to it.
Pieces = list[list[Ref]]

#: The old name of :func:`write_pieces`, which tests/peg/test_files.py calls here.
_write = write_pieces


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


def _merged(kernel: _core.PegKernel, pieces: list[Ref], threads: int, clock: Deadline) -> Any:
    return kernel.merge([read_piece(ref) for ref in pieces], _run.core(threads, clock.remaining()))


def _round_task(
    spec: Spec,
    pieces: list[Ref],
    prefix: str,
    parts: int,
    grow: bool,
    complement: bool,
    mirror: bool,
    stuck: bool,
    threads: int,
    timeout: float | None,
) -> tuple[int, Packed | None, Packed | None, int]:
    """One owner's share of a round: read and merge the pieces addressed to
    it; with ``grow``, expand the merged part and split the children by owner
    (by the owner of their complements for a search from the finish,
    ``complement``); with ``mirror``, split the merged part itself by the
    owner of its complements.  The splits go to one new file named from
    ``prefix``.  Returns the size of the merged part and where the pieces of
    the two splits lie, and with ``stuck`` the games that end in the merged
    part (the sequences reaching its positions with no jump; 0 without).
    ``timeout``: the seconds the driver had left (a task starts its own
    clock: the driver's and the workers' clocks need not agree)."""
    _workers.watch_parent()  # a worker whose driver is killed goes too
    clock = Deadline(timeout)
    kernel = _kernel(spec)
    workers = _args.worker_threads(threads)
    part = _merged(kernel, pieces, workers, clock)
    ended = int(kernel.stuck(part, _run.core(workers, clock.remaining()))) if stuck else 0
    groups = []
    if grow:
        groups.append(
            kernel.expand_split(part, parts, _run.core(workers, clock.remaining()), complement)
        )
    if mirror:
        groups.append(kernel.split(part, parts, _run.core(workers, clock.remaining()), True))
    written = iter(write_pieces(prefix, *groups))
    children = next(written) if grow else None
    mirrored = next(written) if mirror else None
    return len(part), children, mirrored, ended


def _meet_task(
    spec: Spec,
    pieces: list[Ref],
    other: list[Ref],
    threads: int,
    timeout: float | None,
) -> int:
    """One owner's share of the join of the two searches: ``other`` (the
    smaller side) merged, ``pieces`` joined with it piece by piece (the join
    is linear in that side: no need to merge the larger layer)."""
    _workers.watch_parent()  # a worker whose driver is killed goes too
    clock = Deadline(timeout)
    kernel = _kernel(spec)
    workers = _args.worker_threads(threads)
    merged = _merged(kernel, other, workers, clock)
    layers = [read_piece(ref) for ref in pieces]
    return kernel.meet_pieces(layers, merged, _run.core(workers, clock.remaining()))


# ---------------------------------------------------------------- in the driver


class _Side:
    """One search in flight: where the pieces of its newest layer lie (not
    yet merged), and the round that wrote them."""

    def __init__(self, pieces: Pieces, pegs: int, complement: bool, tag: str) -> None:
        self.pieces = pieces
        self.pegs = pegs
        self.complement = complement
        self.tag = tag
        #: Positions in the pieces: an upper bound of the layer's size (a
        #: position may come in several pieces), to choose the side to grow.
        self.estimate = 1

    def empty(self) -> bool:
        return not any(self.pieces)


class Distributed(Driver):
    """The DP on ``executor``: each layer cut into ``parts`` parts, one task
    per part and layer, ``threads`` per task, the pieces in files in a
    directory of the count's own inside ``spill`` (``None``: the system's
    temporary directory), removed by :meth:`close`.  The join of two sides
    one jump apart is one more round (the search from the smaller side
    expanded, or for start = finish the meeting layer split by the owner of
    complements), then a join of sides that meet."""

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
        spill: str | None = None,
    ) -> None:
        self.executor = _args.check_executor(executor)
        self.parts = _rounds.parts(parts, executor)
        self.threads = _args.task_threads(executor, threads)
        #: Where the count's directory goes, and the directory (made when
        #: the first piece is written).
        self.spill = os.path.abspath(tempfile.gettempdir() if spill is None else spill)
        self.directory: str | None = None
        self.rounds = 0
        super().__init__(board, group, progress, Deadline(timeout))

    def close(self) -> None:
        """The count's directory removed with every file in it, then the bar closed."""
        try:
            if self.directory is not None:
                _rounds.remove_directory(self.directory)
                self.directory = None
        finally:
            super().close()

    def run(self, calls: list[tuple[Callable[..., Any], tuple[Any, ...]]]) -> list[Any]:
        """One round of ``calls`` on the executor (see :func:`solvers._engine._rounds.run`)."""
        return _rounds.run(self.executor, calls, self.deadline)

    # ------------------------------------------------------------ the files

    def _tag(self) -> str:
        """The name of a new round's files (made the count's directory first)."""
        if self.directory is None:
            self.directory = _rounds.new_directory(self.spill)
        self.rounds += 1
        return f"r{self.rounds:05d}"

    def _prefix(self, tag: str, owner: int) -> str:
        """The start of the name of the file the task of ``owner`` writes in round ``tag``."""
        assert self.directory is not None
        return os.path.join(self.directory, f"{tag}-{owner:04d}")

    def _release(self, tag: str) -> None:
        """The files of round ``tag`` removed, once the round that read them is done
        (with them anything a task of ``tag`` left: a second run's file, a temporary)."""
        assert self.directory is not None
        for name in os.listdir(self.directory):
            if name.startswith(f"{tag}-"):
                with contextlib.suppress(FileNotFoundError):
                    os.remove(os.path.join(self.directory, name))

    def _regroup(self, packed: list[Packed]) -> tuple[Pieces, int]:
        pieces: Pieces = [[] for _ in range(self.parts)]
        positions = 0
        for outputs in packed:
            for owner, piece in enumerate(outputs):
                if piece is not None:
                    pieces[owner].append(piece[1])
                    positions += piece[0]
        return pieces, positions

    def _round(
        self, side: _Side, *, expand: bool = True, mirror: bool = False, stuck: bool = False
    ) -> tuple[int, int, Pieces | None]:
        """One round on ``side``: its layer merged by owner, then expanded
        into the next (``expand``; the files of the layer it read are removed)
        and/or split by the owner of its complements (``mirror``).  Returns
        the positions of the layer (merged: exact), the games that end in it
        (with ``stuck``; else 0), and the mirrored pieces (or None)."""
        owners = [owner for owner in range(self.parts) if side.pieces[owner]]
        tag = self._tag()
        results = self.run(
            [
                (
                    _round_task,
                    (
                        self.spec,
                        side.pieces[owner],
                        self._prefix(tag, owner),
                        self.parts,
                        expand,
                        side.complement,
                        mirror,
                        stuck,
                        self.threads,
                    ),
                )
                for owner in owners
            ]
        )
        size = sum(result[0] for result in results)
        ended = sum(result[3] for result in results)
        if ended >= 1 << 128:
            raise OverflowError("the count does not fit the 128-bit counter")
        self.note(size, side.pegs)
        if expand:
            self._release(side.tag)
            side.pieces, side.estimate = self._regroup([result[1] for result in results])
            side.pegs -= 1
            side.tag = tag
        mirrored = self._regroup([result[2] for result in results])[0] if mirror else None
        return size, ended, mirrored

    def _join(self, a: Pieces, b: Pieces) -> int:
        """The sequences through two searches that meet, owner by owner (the
        join is symmetric: the side with fewer bytes is the one merged)."""
        calls: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []
        for owner in range(self.parts):
            if a[owner] and b[owner]:
                x, y = a[owner], b[owner]
                if sum(ref[2] for ref in x) < sum(ref[2] for ref in y):
                    x, y = y, x
                calls.append((_meet_task, (self.spec, x, y, self.threads)))
        total: int = sum(self.run(calls))
        if total >= 1 << 128:
            raise OverflowError("the count does not fit the 128-bit counter")
        return total

    # ------------------------------------------------------------ the Driver

    def start(self, side: str, hole: int) -> _Side:
        """The search from "every hole full but ``hole``", split by owner and
        written here; the search from the finish (side ``"b"``) by the owner
        of the positions its complements stand for, so both sides of a
        position have the same owner."""
        complement = side == "b"
        layer = self.kernel.start([hole])
        pieces = self.kernel.split(
            layer, self.parts, _run.core(1, self.deadline.left()), complement
        )
        tag = self._tag()
        written = write_pieces(self._prefix(tag, 0), pieces)
        return _Side(self._regroup(written)[0], layer.pegs, complement, tag)

    def expand(self, side: _Side, name: str) -> _Side:
        self._round(side)
        return side

    def step(self, side: _Side, name: str, tally: Tally | None = None) -> tuple[_Side, int, int]:
        pegs = side.pegs
        size, ended, _ = self._round(side, stuck=True)
        if tally is not None:
            tally(pegs, size, ended)
        return side, size, ended

    def pegs(self, side: _Side) -> int:
        return side.pegs

    def size(self, side: _Side) -> int:
        return 0 if side.empty() else side.estimate

    def meet(self, a: _Side, b: _Side, *, across: bool = False) -> int:
        # The kernel's join across a jump is not local to an owner: across
        # one, expand the smaller side once more, then join sides that meet.
        if a is b:
            # The meeting layer split a second time, by the owner of
            # complements (across a jump: one layer further on one side).
            mirrored = self._round(a, expand=across, mirror=True)[2]
            assert mirrored is not None
            return self._join(a.pieces, mirrored)
        if across:
            self._round(a)
            if a.empty():
                return 0
        return self._join(a.pieces, b.pieces)

    def last(self, side: _Side) -> _core.PegLayer | None:
        """The pieces of the one-peg layer read and merged here (at most one
        position a hole)."""
        if side.empty():
            return None
        pieces = [read_piece(ref) for owner in side.pieces for ref in owner]
        last = self.kernel.merge(pieces, _run.core(1, self.deadline.left()))
        self.note(len(last), last.pegs, layer=False)
        return last
