"""Listing games: :func:`peg_solutions`, streamed lazily from a Rust thread."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .. import _core
from .._engine import _listing
from .._engine._deadline import Deadline
from .._engine._run import RunKeywords
from .board import PegBoard
from .calls import checked_board, finish_hole, kernel_fixing, reachable_class
from .solution import PegSolution, game_of

if TYPE_CHECKING:
    from typing_extensions import Unpack


def peg_solutions(
    board: PegBoard, *, start: Any, finish: Any = "start", **run: Unpack[RunKeywords]
) -> Iterator[PegSolution]:
    """Every solution, lazily, as :class:`PegSolution` objects found by a Rust
    thread as you iterate.

    ``finish`` is a hole, ``"start"`` (default) or ``None`` (the last peg
    anywhere).  The order is depth-first with the jumps tried in the order of
    ``board.jumps``: the solutions come in lexicographic order of their jump
    indices (``board.jumps.index(...)`` of each jump in turn).  Positions from
    which the finish cannot be reached are remembered (one per symmetry class,
    at most 16 million of them, so memory stays bounded) and never explored
    twice, so the first solution arrives at once even on the English board.
    There are as many solutions as :func:`count_peg_solutions` counts.
    Closing the iterator (or dropping it) stops the thread; ``timeout``
    (seconds, from this call) ends the listing with ``TimeoutError``.

    >>> games = peg_solutions(PegBoard.triangle(5), start=(0, 0), finish=None)
    >>> first = next(games)
    >>> len(first), first[0]
    (13, Jump(source=(2, 0), over=(1, 0), landing=(0, 0)))
    >>> games.close()
    >>> sum(1 for _ in peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3)))
    432
    """
    opts = _listing.options("peg_solutions", run)
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    f = finish_hole(board, finish, s)
    if not reachable_class(board, s, f):
        return _no_games()  # the finish is in another position class: none, at once
    stream = _core.PegStream(kernel_fixing(board, f), [s], f)
    return _listing.timed(
        stream, Deadline(opts.timeout), lambda found: game_of(board, s, found), "solutions"
    )


def _no_games() -> Iterator[PegSolution]:
    """An empty generator (a generator, like the others: it has ``close()``)."""
    yield from ()
