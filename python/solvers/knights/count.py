"""Counting knight's tours: :func:`count_tours`, which checks its arguments and
picks the method (the search, the frontier DP, pairs of ends; in this
process, on an executor or resumed from a checkpoint)."""

from __future__ import annotations

import os
from concurrent.futures import Executor

from .. import _core
from .._engine import _args, _plan, _progress, _validate
from . import frontier_dist
from .board import (
    LOWER_LEFT,
    MAX_FRONTIER_SIDE,
    MAX_SEARCH_CELLS,
    KnightBoard,
    Square,
    Start,
    frontier_limit,
    search_limit,
)
from .plan import pair_plan, search_plan

#: The ways ``count_tours`` can count; the answer never depends on the choice.
COUNT_METHODS: tuple[str, ...] = ("auto", "search", "frontier", "pairs")


def count_tours(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Start = LOWER_LEFT,
    closed: bool = False,
    threads: int | None = None,
    progress: bool = False,
    timeout: float | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    method: str = "auto",
    memory: int | str | None = None,
    spill: str | os.PathLike[str] | None = None,
    end: Square | None = None,
) -> int:
    """The number of knight's tours of the board from ``start``.

    Tours are directed: a tour and its reverse count separately when they
    start on the same square.  ``start="all"`` sums over every square of the
    board; ``closed=True`` counts only tours that end a knight's move from
    their start (each cycle once per direction from the start).  The count is
    exact, the same for every ``threads`` (``None``: one per core).  Boards
    whose squares span at most 64 cells.  Ctrl-C stops it with ``KeyboardInterrupt``;
    ``timeout`` seconds with ``TimeoutError``.

    ``executor`` (any :class:`concurrent.futures.Executor`, e.g. a process
    pool or a Dask client's ``get_executor()``) counts the subproblems there,
    ``threads`` per task; ``checkpoint`` (a file) records each finished
    subproblem, and a rerun of the same call skips them (see :mod:`solvers.distributed`).
    With ``method="frontier"``, ``checkpoint`` is a directory instead (made
    if missing): each finished layer of the DP is saved there, so a count
    killed mid-way (even by SIGKILL or a power cut) goes on from its last
    layer when called again the same way (any ``threads`` or ``memory``), and
    a finished count's rerun returns its answer at once.  A directory of
    another count, or a damaged one, raises ``ValueError``, never a wrong count.

    ``method`` picks how to count; **the answer never depends on it**, only
    the time and memory do.  ``"search"`` is the pruned backtracking above
    (boards spanning at most 64 cells).  ``"frontier"`` is a transfer-matrix
    DP that sweeps the board along its longer side and never visits a tour:
    boards whose squares fit in a rectangle with a shorter side of at most
    ``MAX_FRONTIER_SIDE`` (8) and a longer side of any length (3x100, 4x60,
    7x7, 8x8 closed), memory growing steeply with the shorter side (7x7 takes
    gigabytes, 8x8 closed tens of them: give ``memory``).  ``"pairs"``
    counts open tours by their pairs of ends: one frontier count with both
    ends pinned per pair of squares up to the board's symmetries (8x8: 136
    pairs, as Chernov and Stertenbrink counted it), a plan of independent
    subproblems that runs on any ``executor`` (no shared filesystem) and
    records each finished pair in a ``checkpoint`` file like the search's
    plans (``memory`` is each pair's budget and may change between runs).
    ``"auto"`` (the default) takes the frontier for boards past the search's
    64 cells and for long narrow boards, where it is the faster (measured:
    from 3x10, 4x9, 5x8, 6x8), the search otherwise, and the search whenever
    ``executor`` or ``checkpoint`` is given without ``method="frontier"``
    or ``"pairs"``.  With the frontier ``progress`` counts squares swept;
    with the pairs, pairs counted.

    With ``method="frontier"``, ``executor`` runs each sweep step as a round
    of tasks, one per partition of the layer (one per worker where the
    executor tells, else 8), which pass the layer on through partition files
    in a new directory inside ``spill`` (the system's temporary directory if
    ``None``; on a cluster, a shared filesystem every worker mounts at the
    same path), removed when the count ends.  Not with ``checkpoint`` or
    ``memory`` (see :mod:`solvers.frontier_dist`).

    ``end`` (a square) counts only the open tours from ``start`` that end
    there (Hamiltonian paths with both ends fixed), by the frontier DP: not
    with ``start="all"``, ``closed=True`` or an ``executor``.

    ``memory`` (bytes, a size such as ``"4GB"``, or ``"auto"``: half of the
    memory available when the call starts) is the frontier's memory
    budget: a step whose layers would not fit goes through files in a new
    directory inside ``spill`` (the system's temporary directory if ``None``),
    removed when the count ends.  The answer is the same; peak memory stays
    near the budget and the step takes longer.  Without a budget a step that
    does not fit the machine raises ``MemoryError``.  The search needs a few
    MiB and takes no budget.

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
    kb = KnightBoard.from_args(rows, cols, board)
    budget = _validate.memory(memory)
    spill_dir = _args.spill_directory(spill)
    first = kb.start_square(start, allow_all=True)
    closed = _validate.flag(closed, "closed")
    workers = _validate.threads(threads)
    seconds = _validate.timeout(timeout)
    method = _validate.choice(method, "method", COUNT_METHODS)
    last = None if end is None else kb.square_of(end, "end")
    if last is not None:
        if first is None:
            raise ValueError("end= needs one start square, not start='all'")
        if closed:
            raise ValueError("end= counts open tours: not with closed=True")
        if method in ("search", "pairs") or executor is not None:
            raise ValueError(
                "end= is counted by the frontier DP in this process: use method='frontier' "
                "(or 'auto'), without executor="
            )
        method = "frontier"
    if method == "pairs" and closed:
        raise ValueError(
            "method='pairs' sums open tours over their pairs of ends: not with closed=True"
        )
    if kb.mask is None and _core.rectangle_rules_out(kb.rows, kb.cols, first, closed):
        # No tour by theorem (1xN, 2xN, 3x3, 3x5, 3x6, 4x4; Schwenk's for
        # closed ones; the minority colour of an odd board): known at once,
        # whatever the method (a 1 x 10^7 sweep would take minutes).
        return 0
    what = f"knight's tours {kb.rows}x{kb.cols}"
    if method == "pairs":
        work = pair_plan(kb, first, budget, spill_dir, what)
        return work.count(
            executor=executor,
            checkpoint=checkpoint,
            threads=threads,
            progress=progress,
            timeout=timeout,
        )
    split = executor is not None or checkpoint is not None
    saved = None
    if method == "frontier" and executor is None and checkpoint is not None:
        saved, split = _args.checkpoint_directory(checkpoint), False
    if method == "auto":
        method = "search" if split else _auto_method(kb)
    elif method == "search" and (budget is not None or spill_dir is not None):
        raise ValueError("memory= and spill= are the frontier's budget: use method='frontier'")
    if method == "frontier":
        if executor is not None and (checkpoint is not None or budget is not None):
            raise ValueError(
                "the frontier count on an executor= takes neither checkpoint= nor memory= "
                "(each is for a count in this process): give spill=, a directory every "
                "worker reaches, for its partition files"
            )
        frontier_limit(kb)
        try:
            if executor is not None:
                spec = (kb.rows, kb.cols, kb._mask_list(), first, closed)
                threads_each = _args.task_threads(_args.check_executor(executor), threads)
                return frontier_dist.count(
                    spec, executor, threads_each, progress, timeout, spill_dir, what
                )
            with _progress.shown(progress, what, unit="square") as bar:
                high, low, _widest, _spilled = _core.count_tours_frontier(
                    kb.rows,
                    kb.cols,
                    kb._mask_list(),
                    first,
                    closed,
                    workers,
                    bar,
                    seconds,
                    budget,
                    spill_dir,
                    saved,
                    last,
                )
            return high << 128 | low  # 256-bit counts: 3x100 has about 10^53 tours
        except OverflowError:
            raise OverflowError(
                f"the number of tours of this {kb.rows}x{kb.cols} board does not fit the "
                "frontier DP's 256-bit counter (no answer is better than a wrong one)"
            ) from None
    search_limit(kb, "count_tours")
    if split:
        work = search_plan(kb, first, closed, _plan.DEFAULT_SUBPROBLEMS, what)
        return work.count(
            executor=executor,
            checkpoint=checkpoint,
            threads=threads,
            progress=progress,
            timeout=timeout,
        )
    with _progress.shown(progress, what) as bar:
        return _core.count_tours(
            kb.rows, kb.cols, kb._mask_list(), first, closed, workers, bar, seconds
        )


def _auto_method(board: KnightBoard) -> str:
    """The faster method for ``board`` (measured on 2 cores, see the frontier bench).

    The search is fast on compact boards (6x6, all starts: 0.1 s) and slows
    by orders of magnitude per added column on narrow ones; the frontier's
    work grows with the length of its sweep but steeply with the shorter side.
    """
    rows, cols = board.span
    short, long = min(rows, cols), max(rows, cols)
    if short > MAX_FRONTIER_SIDE:
        return "search"
    if rows * cols > MAX_SEARCH_CELLS:
        return "frontier"
    return "frontier" if long >= _FRONTIER_FROM[short] else "search"


#: The longer side from which the frontier beats the search, by shorter side
#: (all starts, 2 cores: 3x10 0.004 s search / 0.002 s frontier, 4x8 0.011 /
#: 0.009, 4x9 0.11 / 0.035, 5x7 0.045 / 0.077, 5x8 3.1 / 0.7, 6x6 0.11 / 1.4;
#: 6x7 over 20 / 6.6, from a corner 4.7-11.5 / 3.4, closed 0.30 / 0.26; a 7x7
#: search would visit 1.6e11 tours).
_FRONTIER_FROM: dict[int, int] = {1: 1, 2: 1, 3: 10, 4: 9, 5: 8, 6: 7, 7: 7, 8: 8}
