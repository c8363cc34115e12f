"""A row of a table of knight's tours in one sweep: :func:`count_tours_row`,
the tours of every board ``rows x 1 ... rows x max_cols`` read off one
frontier sweep of ``rows x max_cols`` as each column ends."""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from .. import _core
from .._engine import _args, _progress, _validate
from .._engine._checkpoint import Lock
from .._engine._run import RunKeywords, RunOptions
from .board import MAX_FRONTIER_SIDE, Start

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: The most columns :func:`count_tours_row` reads in one sweep.
MAX_ROW_COLS: int = _core.MAX_ROW_COLS


def count_tours_row(
    rows: int,
    max_cols: int,
    *,
    closed: bool = False,
    start: Start = "all",
    **run: Unpack[RunKeywords],
) -> dict[int, int]:
    """The knight's tours of every board ``rows x 1``, ``rows x 2``, ...,
    ``rows x max_cols``, as ``{cols: count}``, from one sweep.

    Each count is the one ``count_tours(rows, cols, start="all",
    closed=closed)`` gives (directed tours over every start), but the whole
    row costs about one count of the longest board: the frontier DP sweeps
    ``rows x max_cols`` down its columns and reads each board's tours off
    its states as that board's last column ends (the way Knuth's DYNAHAM
    reads a table's terms).  ``rows`` is at most ``MAX_FRONTIER_SIDE`` (8);
    ``max_cols`` at most :data:`MAX_ROW_COLS`.  ``start`` is ``"all"``
    (a row from one square: ``count_tours`` per board).

    The run options are :func:`count_tours`' for the frontier in this
    process: ``threads``, ``timeout``, ``progress``, ``memory``, ``spill``
    and ``checkpoint`` (the directory keeps the row read so far with each
    layer, so a rerun goes on from the last step saved; not ``executor``).

    >>> count_tours_row(3, 8)  # OEIS A169696 doubled: 3x4, 3x7 and 3x8 have tours
    {1: 0, 2: 0, 3: 0, 4: 16, 5: 0, 6: 0, 7: 104, 8: 792}
    >>> count_tours_row(6, 8, closed=True)[6]  # 9,862 cycles, 36 starts, 2 ways
    710064
    """
    opts = RunOptions.of("count_tours_row", run)
    rows = _validate.between(rows, "rows", 1, MAX_FRONTIER_SIDE)
    max_cols = _validate.between(max_cols, "max_cols", 1, MAX_ROW_COLS)
    closed = _validate.flag(closed, "closed")
    if not (isinstance(start, str) and start == "all"):
        raise ValueError(
            f"count_tours_row counts the tours from every square (start='all'), got "
            f"start={_validate.shown(start)}; count_tours(rows, cols, start=...) counts "
            "from one square, a board at a time"
        )
    if opts.executor is not None:
        raise ValueError(
            "count_tours_row sweeps in this process: not with executor= "
            "(count_tours(rows, cols, executor=...) spreads one board's count)"
        )
    _args.budget_of(opts.memory, opts.spill)  # spill=False with memory= is refused
    saved = None if opts.checkpoint is None else _args.checkpoint_directory(opts.checkpoint)
    held = contextlib.nullcontext() if saved is None else Lock.of_layers(saved)
    what = f"knight's tours {rows}x1 to {rows}x{max_cols}"
    try:
        with held, _progress.shown(opts.progress, what, unit="square", eta=False) as bar:
            counts, _widest, _spilled = _core.count_tours_row(
                rows, max_cols, closed, opts.core(bar)
            )
    except OverflowError:
        raise OverflowError(
            f"the number of tours of a board of the row {rows}x1 to {rows}x{max_cols} does "
            "not fit the frontier DP's 256-bit counter (no answer is better than a wrong one)"
        ) from None
    return {cols: high << 128 | low for cols, (high, low) in enumerate(counts, start=1)}
