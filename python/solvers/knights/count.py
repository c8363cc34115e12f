"""Counting knight's tours: :func:`count_tours`, which checks its arguments and
picks the method (the search, the frontier DP, pairs of ends; in this
process, on an executor or resumed from a checkpoint)."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from .. import _core
from .._engine import _args, _methods, _plan, _progress, _rounds, _validate
from .._engine._checkpoint import Lock
from .._engine._run import RunKeywords, RunOptions
from . import frontier_dist
from .board import LOWER_LEFT, KnightBoard, Square, Start, frontier_limit, search_limit
from .methods import METHODS, preferred
from .plan import pair_plan, search_plan

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: The ways ``count_tours`` can count; the answer never depends on the choice.
COUNT_METHODS: tuple[str, ...] = _methods.names(METHODS)


def count_tours(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Start = LOWER_LEFT,
    closed: bool = False,
    end: Square | None = None,
    method: str = "auto",
    **run: Unpack[RunKeywords],
) -> int:
    """The number of knight's tours of the board from ``start``.

    Tours are directed: a tour and its reverse count separately when they
    start on the same square.  ``start="all"`` sums over every square of the
    board; ``closed=True`` counts only tours that end a knight's move from
    their start (each cycle once per direction from the start).  The count is
    exact, the same for every ``threads`` (``None``: one per core).  Ctrl-C
    stops it with ``KeyboardInterrupt``; ``timeout`` seconds with ``TimeoutError``.

    ``method`` picks how to count (:data:`solvers.knights.methods.METHODS`;
    **the answer never depends on it**, only the time and memory do):
    ``"search"``, pruned backtracking (boards spanning at most 64 cells);
    ``"frontier"``, a transfer-matrix DP swept along the longer side (a
    shorter side of at most ``MAX_FRONTIER_SIDE``, 8, any length; memory
    grows steeply with the shorter side); ``"pairs"``, open tours by their
    pairs of ends, one frontier count per pair up to symmetry (8x8: 136
    pairs, as Chernov and Stertenbrink counted it).  ``"auto"`` (the
    default) takes the faster of the search and the frontier for the board
    (the frontier past 64 cells and from 3x10, 4x9, 5x8), or else the first
    method that takes every keyword given.  A keyword the method does not
    take raises ``ValueError`` naming the methods that do.

    The run options (``**run``: :class:`solvers.RunOptions`' fields as
    keywords, or ``options=RunOptions(...)``) mean the same for every count
    of the package: ``executor`` (any :class:`concurrent.futures.Executor`, e.g. a process
    pool or a Dask client's ``get_executor()``) runs the count's tasks
    there, ``threads`` each; ``parts`` cuts each layer of a layered DP into
    that many partitions on the executor (``None``: one per worker where the
    executor tells, else 8); ``checkpoint`` (a directory, made if missing)
    keeps what is finished, so a rerun of the same call, even after a kill,
    goes on from there and a finished count's rerun returns at once (a
    directory of another count, or a damaged one, raises ``ValueError``,
    never a wrong count); ``memory`` (bytes, a size such as ``"4GB"``, or
    ``"auto"``: half of the memory available) is the budget of a layered
    count in this process, past which layers go through files; without it
    (``None``, the default) the budget is that of ``"auto"``, so a count
    too wide for memory spills instead of failing; ``spill`` is the
    directory for those files and an executor's partition files (``None``:
    the system's temporary directory; on a cluster, a shared filesystem every
    worker mounts at the same path), removed when the count ends; before
    layers are written there, the disk's free space is checked against what
    they take (``OSError``, errno ``ENOSPC``, naming the estimate, the free
    bytes and the directory: the disk is never filled), and from the
    board's middle on a count whose next steps are projected not to
    fit is refused the same way before it gets there.  ``spill=False``
    writes no files: every layer in memory, ``MemoryError`` where a step
    does not fit the machine (not with ``memory`` or ``executor``).

    ``end`` (a square) counts only the open tours from ``start`` that end
    there (Hamiltonian paths with both ends fixed), by the frontier DP in
    this process: not with ``start="all"``, ``closed=True`` or an ``executor``.

    >>> count_tours(5, 5, start=(0, 0))
    304
    >>> count_tours(5, 5, start="all")
    1728
    >>> count_tours(board='''
    ...     ....
    ...     ....
    ...     ...#
    ... ''', start=(0, 0))
    1
    >>> count_tours(3, 16, start="all", method="frontier")  # OEIS A118067
    17273760
    >>> count_tours(4, 40, start=(3, 0))  # past the search's 64 cells: the frontier
    60303938883691505682859195
    >>> count_tours(6, 6, start="all", method="frontier", memory="2MiB")  # spills to disk
    6637920
    >>> count_tours(5, 5, start=(0, 0), end=(4, 4))  # from one corner to the other
    56
    >>> count_tours(5, 6, start="all", method="pairs")  # 66 pairs of ends up to symmetry
    37568
    """
    opts = RunOptions.of("count_tours", run)
    executor, checkpoint, parts = opts.executor, opts.checkpoint, opts.parts
    kb = KnightBoard.from_args(rows, cols, board)
    _args.budget_of(opts.memory, opts.spill, executor)  # spill=False refuses executor=
    first = kb.start_square(start, allow_all=True)
    closed = _validate.flag(closed, "closed")
    last = None if end is None else kb.square_of(end, "end")
    chosen = _methods.pick(
        "count_tours", METHODS, method, opts.given(), _problem_order(kb, closed, last)
    ).name
    if last is not None:
        if first is None:
            raise ValueError("count_tours(end=) needs one start square, not start='all'")
        if closed:
            raise ValueError("count_tours(end=) counts open tours: not with closed=True")
        if chosen != "frontier" or executor is not None:
            raise ValueError(
                "count_tours(end=) is counted by method='frontier' in this process: "
                "not with executor= or another method"
            )
    if chosen == "pairs" and closed:
        raise ValueError(
            "count_tours(method='pairs') sums open tours over their pairs of ends: "
            "not with closed=True"
        )
    if parts is not None and executor is not None:
        _rounds.parts(parts, _args.check_executor(executor))  # checked before any work
    if kb.mask is None and _core.rectangle_rules_out(kb.rows, kb.cols, first, closed):
        # No tour by theorem (1xN, 2xN, 3x3, 3x5, 3x6, 4x4; Schwenk's for
        # closed ones; the minority colour of an odd board): known at once,
        # whatever the method (a 1 x 10^7 sweep would take minutes).
        return 0
    what = f"knight's tours {kb.rows}x{kb.cols}"

    def split(work: _plan.Plan) -> int:
        """``work`` (a plan of subproblems) counted with this call's options."""
        return work.count(options=opts.without("memory", "spill", "parts"))

    if chosen == "pairs":
        spill_dir = _args.spill_directory(opts.spill)
        return split(pair_plan(kb, first, opts.memory_asked(), spill_dir, what))
    if chosen == "frontier":
        frontier_limit(kb)
        try:
            if executor is not None:
                spec = (*kb.spec, first, closed)
                return frontier_dist.count(spec, opts, what)
            saved = None if checkpoint is None else _args.checkpoint_directory(checkpoint)
            held = contextlib.nullcontext() if saved is None else Lock.of_layers(saved)
            with held, _progress.shown(opts.progress, what, unit="square", eta=False) as bar:
                core = opts.core(bar)
                high, low, _widest, _spilled = _core.count_tours_frontier(
                    kb.spec, first, closed, core, last
                )
            return high << 128 | low  # 256-bit counts: 3x100 has about 10^53 tours
        except OverflowError:
            raise OverflowError(
                f"the number of tours of this {kb.rows}x{kb.cols} board does not fit the "
                "frontier DP's 256-bit counter (no answer is better than a wrong one)"
            ) from None
    search_limit(kb, "count_tours")
    if executor is not None or checkpoint is not None:
        return split(search_plan(kb, first, closed, _plan.DEFAULT_SUBPROBLEMS, what))
    with _progress.shown(opts.progress, what) as bar:
        return _core.count_tours(kb.spec, first, closed, opts.core(bar))


def _problem_order(board: KnightBoard, closed: bool, end: Square | None) -> tuple[str, ...]:
    """The methods ``auto`` may pick for this problem, best first: only the
    frontier counts tours to a given end; the pairs count no closed tours."""
    if end is not None:
        return ("frontier",)
    order = preferred(board)
    return tuple(m for m in order if m != "pairs") if closed else order
