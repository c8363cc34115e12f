"""Finding one game: :func:`find_peg_solution` (its deprecated alias
``solve_peg`` is kept in :mod:`solvers.peg`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._engine import _run, _validate
from .._engine._run import RunKeywords
from .board import Hole, PegBoard
from .calls import Finish, checked_board, finish_hole, kernel_fixing, reachable_class
from .solution import PegSolution, game_of

if TYPE_CHECKING:
    from typing_extensions import Unpack


def find_peg_solution(
    board: PegBoard,
    *,
    start: Hole,
    finish: Finish = "start",
    deterministic: bool = False,
    **run: Unpack[RunKeywords],
) -> PegSolution | None:
    """One solution, as a :class:`PegSolution` (a sequence of jumps), or
    ``None`` when there is none.  ``solve_peg``, its old name, still works
    for one release, with a :class:`DeprecationWarning`.

    ``finish`` is a hole, ``"start"`` (default) or ``None`` (any single peg).
    A depth-first search in Rust that remembers the positions it has proved
    dead (one per symmetry class), so ``None`` is certain.  The jumps are tried
    in the board's jump order, so the answer is the same on every run, for
    every ``threads`` (the search runs on one), with ``deterministic=True``
    (a promise) or without it.

    >>> board = PegBoard.english()
    >>> moves = find_peg_solution(board, start=(3, 3))
    >>> len(moves), moves[0]
    (31, Jump(source=(1, 3), over=(2, 3), landing=(3, 3)))
    >>> find_peg_solution(PegBoard.rectangle(3, 4), start=(0, 0), finish=(1, 1)) is None
    True
    """
    opts = _run.taken("find_peg_solution", _run.FINDING, run)
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    f = finish_hole(board, finish, s)
    _validate.flag(deterministic, "deterministic")
    if not reachable_class(board, s, f):
        return None
    # Whether a position can still be finished is the same for its images
    # under the symmetries that fix the finish (all of them for "anywhere").
    found = kernel_fixing(board, f).solve([s], f, opts.core())
    if found is None:
        return None
    return game_of(board, s, found)
