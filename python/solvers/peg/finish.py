"""The number of games ending on each hole: :func:`finish_counts`, from one
forward pass of the DP."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._engine import _methods
from .._engine._run import RunKeywords, RunOptions
from . import dp
from .board import Hole, PegBoard
from .calls import checked_board, driving, overflow
from .methods import FINISH_PASS

if TYPE_CHECKING:
    from typing_extensions import Unpack


def finish_counts(
    board: PegBoard,
    *,
    start: Hole,
    method: str = "auto",
    **run: Unpack[RunKeywords],
) -> dict[tuple[int, int], int]:
    """The number of solutions ending on each hole, from one forward pass:
    ``{square: count}`` for every hole of the board.  ``executor=`` and
    ``parts=`` spread the pass over an executor's workers, and ``memory=``
    and ``spill=`` keep it within a memory budget, as in
    :func:`count_peg_solutions` (with ``executor=``, ``spill=`` is the
    directory the tasks share).  One method counts: ``"forward"``
    (``"auto"``), one pass from the start; no checkpoint is kept.

    >>> ends = finish_counts(PegBoard.rectangle(3, 4), start=(0, 0))
    >>> ends[(0, 3)], sum(ends.values())
    (432, 852)
    """
    opts = RunOptions.of("finish_counts", run)
    _methods.pick("finish_counts", (FINISH_PASS,), method, opts.given())
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    counts = dict.fromkeys(board.holes, 0)
    group = board.symmetries_fixing(s)
    with driving(board, group, opts, overflow(board, start)) as (driver, _):
        for hole, count in dp.finish_counts(driver, board, s):
            counts[board.holes[hole]] = count
    return counts
