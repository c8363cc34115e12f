"""Watch the search for a knight's tour in the terminal (``solvers tours
--animate``): the knight steps forward and backs up.  The search here is a
plain depth-first search in pure Python, written to be watched, not to be fast
(the real search cores are in Rust); it tries the moves in the package's
documented order, so the first tour shown is the first one that
:func:`solvers.tours` lists.

>>> import io
>>> animate_tours(3, 4, delay=0, out=io.StringIO()).solution
<Tour 3x4 open, 12 squares, start=(2, 0), end=(1, 0)>
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal, TextIO

from .._engine import _screen, _validate
from .board import LOWER_LEFT, KnightBoard, Square
from .tour import Tour

__all__ = ["MAX_TOUR_CELLS", "MAX_TOUR_SIDE", "MOVES", "animate_tours", "tour_frame", "tour_steps"]

#: Largest knight's-tour board animated: at most this many squares ...
MAX_TOUR_CELLS = 100
#: ... and at most this many rows or columns, so a frame fits an 80x24 terminal.
MAX_TOUR_SIDE = 16

#: The knight's moves as (row, column) offsets in the package's search order.
MOVES = ((2, 1), (1, 2), (-2, 1), (-1, 2), (2, -1), (1, -2), (-2, -1), (-1, -2))


def _tour_board(rows: Any, cols: Any, board: Any) -> KnightBoard:
    kb = KnightBoard.from_args(rows, cols, board)
    if kb.cells > MAX_TOUR_CELLS or max(kb.rows, kb.cols) > MAX_TOUR_SIDE:
        raise ValueError(
            f"the animation shows boards of at most {MAX_TOUR_CELLS} squares and "
            f"{MAX_TOUR_SIDE} rows or columns (it must fit a terminal), got {kb.rows}x{kb.cols}"
        )
    return kb


def tour_steps(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Square | Literal["lower-left"] = LOWER_LEFT,
    closed: bool = False,
) -> Iterator[_screen.Step]:
    """The plain search for a knight's tour, one step at a time
    (a :class:`~solvers._engine._screen.Step`).

    From each square the knight tries the moves ``(+2,+1) (+1,+2) (-2,+1)
    (-1,+2) (+2,-1) (+1,-2) (-2,-1) (-1,-2)`` in turn, as :func:`solvers.tours`
    does, from ``start`` (default: the lower-left corner); when no move is left
    it backs up.  The arguments are those of :func:`solvers.tours` (not
    ``start="all"``).

    >>> steps = list(tour_steps(3, 4))
    >>> [(s.kind, s.square) for s in steps[:4]]
    [('move', (2, 0)), ('move', (0, 1)), ('move', (2, 2)), ('move', (0, 3))]
    >>> [s.kind for s in steps].count("back"), steps[-1].kind, len(steps)
    (50, 'solved', 112)
    """
    kb = _tour_board(rows, cols, board)
    first = kb.start_square(start, allow_all=False)
    assert first is not None  # not "all"
    # arguments checked now, not at the first step
    return _tour_search(kb, first, _validate.flag(closed, "closed"))


def _tour_search(kb: KnightBoard, first: Square, closed: bool) -> Iterator[_screen.Step]:
    squares = kb.squares
    path = [first]
    visited = {first}
    next_move = [0]  # per square of the path: the index in MOVES to try next
    number, nodes, backtracks = 1, 0, 0
    kind, square = "move", first

    def step(kind: str, square: Square | None) -> _screen.Step:
        return _screen.Step(kind, square, tuple(path), number, nodes, backtracks)

    while True:
        if len(path) == squares and (not closed or _knight_move(path[-1], first)):
            yield step("solved", square)
            return
        yield step(kind, square)
        number += 1
        row, col = path[-1]
        while next_move[-1] < len(MOVES):
            dr, dc = MOVES[next_move[-1]]
            next_move[-1] += 1
            target = (row + dr, col + dc)
            if target not in visited and kb.is_square(*target):
                path.append(target)
                visited.add(target)
                next_move.append(0)
                nodes += 1
                kind, square = "move", target
                break
        else:
            if len(path) == 1:
                yield step("exhausted", None)
                return
            square = path.pop()  # the knight backs up from here
            visited.discard(square)
            next_move.pop()
            backtracks += 1
            kind = "back"


def _knight_move(a: Square, b: Square) -> bool:
    return {abs(a[0] - b[0]), abs(a[1] - b[1])} == {1, 2}


def tour_frame(board: KnightBoard, step: _screen.Step) -> str:
    """A step drawn as ``str(tour)`` draws a tour: each square the knight has
    visited shows its move number (the knight stands on the highest), ``.`` an
    unvisited square, ``#`` a missing one; a status line under it.

    >>> kb = KnightBoard(3, 4)
    >>> print(tour_frame(kb, list(tour_steps(3, 4))[3]))
      .  2  .  4
      .  .  .  .
      1  .  3  .
    square 4/12   moves tried 3   backtracks 0
    """
    numbers = {square: number for number, square in enumerate(step.path, start=1)}
    width = max(3, len(str(board.squares)) + 1)

    def cell(row: int, col: int) -> str:
        if not board.is_square(row, col):
            return "#"
        return str(numbers.get((row, col), "."))

    lines = [
        "".join(cell(row, col).rjust(width) for col in range(board.cols))
        for row in range(board.rows)
    ]
    lines.append(
        f"square {len(step.path)}/{board.squares}   moves tried {step.nodes}   "
        f"backtracks {step.backtracks}"
    )
    return "\n".join(lines)


def animate_tours(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Square | Literal["lower-left"] = LOWER_LEFT,
    closed: bool = False,
    delay: float = _screen.DELAY,
    out: TextIO | None = None,
    max_steps: int | None = None,
) -> _screen.Outcome:
    """Show the search for a knight's tour on ``out`` (default: standard
    output) until the first tour, which it returns, or until it is exhausted.
    The board arguments are those of :func:`tour_steps`; ``max_steps``
    (default: no limit) stops it early.

    >>> import io
    >>> animate_tours(4, 4, delay=0, out=io.StringIO())
    Outcome(solution=None, steps=..., nodes=..., backtracks=..., stopped=False)
    """
    steps = tour_steps(rows, cols, board=board, start=start, closed=closed)
    kb = _tour_board(rows, cols, board)
    last, shown, stopped = _screen.play(
        steps, lambda s: tour_frame(kb, s), delay=delay, out=out, max_steps=max_steps
    )
    solution = None
    if last.kind == "solved":
        solution = Tour(last.path, board=kb)
        kind = "closed tour" if closed else "tour"
        last_line = f"{kind} after {last.number} steps, from {last.path[0]} to {last.path[-1]}"
    else:
        last_line = _screen.ending(last, stopped)
    _screen.write(out, last_line + "\n")
    return _screen.Outcome(solution, shown, last.nodes, last.backtracks, stopped)
