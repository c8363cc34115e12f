"""Watch a search in the terminal: queens sliding along their rows, the knight
stepping forward and backing up, pegs jumping.

As the 1987 article on the eight queens did it ("Damenwandern"): every row
shows its queen while the loop slides it along the row, and a row is cleared
when the search gives up on it and backs up to the row above.

The searches here are deliberately plain depth-first searches in pure Python,
written to be watched, not to be fast (the real search cores are in Rust).
They try the squares in exactly the package's documented order, so the first
solution shown is the first one that :func:`solvers.queens` and
:func:`solvers.tours` list.

* :func:`queens_steps` and :func:`tour_steps` yield one :class:`Step` per
  thing the search does; :func:`queens_frame` and :func:`tour_frame` draw a
  step as text (``Q``/``.`` boards, numbered squares as ``str(tour)``) with a
  status line.
* :func:`animate_queens` and :func:`animate_tours` show the search until the
  first solution or until the search space is exhausted, and return an
  :class:`Outcome`; :func:`peg_replay` replays a solved peg-solitaire game
  jump by jump.

On a terminal each frame is redrawn in place (ANSI escapes; the cursor is
hidden while it runs and always shown again, also on Ctrl-C).  Anywhere else (a
pipe, a file, a test) every frame is written, one after the other, separated
by a blank line.  ``delay`` seconds pass between frames in both cases
(``delay=0`` for none).  The last frame is followed by one line saying how it
ended.

>>> import io
>>> out = io.StringIO()
>>> animate_queens(4, delay=0, out=out)
Outcome(solution=Placement(1, 3, 0, 2), steps=30, nodes=26, backtracks=4, stopped=False)
>>> print(out.getvalue().split("\\n\\n")[-1], end="")
. Q . .
. . . Q
Q . . .
. . Q .
queens 4/4   squares tried 26   backtracks 4
solution after 30 steps: 1 3 0 2
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any, Literal, NamedTuple, TextIO

from . import _validate, knights
from .knights import KnightBoard, Tour
from .nqueens import Placement
from .peg import PegSolution

__all__ = [
    "DELAY",
    "MAX_DELAY",
    "MAX_QUEENS",
    "MAX_TOUR_CELLS",
    "MAX_TOUR_SIDE",
    "MOVES",
    "Outcome",
    "Step",
    "animate_queens",
    "animate_tours",
    "peg_frames",
    "peg_replay",
    "queens_frame",
    "queens_steps",
    "tour_frame",
    "tour_steps",
]

Square = tuple[int, int]

#: Seconds between frames unless told otherwise: slow enough to follow.
DELAY = 0.05
#: The longest pause between frames (a longer one is surely a typo).
MAX_DELAY = 60.0
#: Largest board animated: a frame (n rows and a status line) and the line
#: under it fit a 24-line terminal.
MAX_QUEENS = 20
#: Largest knight's-tour board animated: at most this many squares ...
MAX_TOUR_CELLS = 100
#: ... and at most this many rows or columns, so a frame fits an 80x24 terminal.
MAX_TOUR_SIDE = 16

#: The knight's moves as (row, column) offsets in the package's search order.
MOVES = ((2, 1), (1, 2), (-2, 1), (-1, 2), (2, -1), (1, -2), (-2, -1), (-1, -2))

_HIDE_CURSOR = "\x1b[?25l"
_SHOW_CURSOR = "\x1b[?25h"
_CLEAR_LINE = "\x1b[K"  # from the cursor to the end of the line
_CLEAR_BELOW = "\x1b[J"  # from the cursor to the end of the screen
_HOME = "\x1b[H"


class Step(NamedTuple):
    """One step of an animated search, with the state after it.

    ``kind`` is one of

    * ``"try"``: a queen tried on ``square``, which is attacked: it slides on;
    * ``"place"``: a queen placed on ``square`` (safe), or ``"move"``: the
      knight stepped onto ``square``;
    * ``"back"``: the search backs up: the queens' row ``square[0]`` has no
      square left and is cleared, or the knight leaves ``square`` and returns
      to the square before;
    * ``"solved"``: the last queen placed or the knight's last move, on
      ``square``: ``path`` is the first solution;
    * ``"exhausted"``: nothing left to try: there is no solution.

    ``path`` holds the queens placed (``(row, col)``, row by row; a queen on
    trial is not in it) or the knight's squares so far.  ``number`` counts the
    steps from 1, ``nodes`` the squares tried (queens) or the knight's moves forward,
    ``backtracks`` the ``"back"`` steps.
    """

    kind: str
    square: Square | None
    path: tuple[Square, ...]
    number: int
    nodes: int
    backtracks: int


class Outcome(NamedTuple):
    """How an animation ended: the first solution (a :class:`~solvers.Placement`
    or :class:`~solvers.Tour`) or ``None``, the steps shown, the squares tried,
    the backtracks, and whether it was ``stopped`` at ``max_steps`` before the
    search ended (then ``solution`` is ``None`` and says nothing)."""

    solution: Placement | Tour | None
    steps: int
    nodes: int
    backtracks: int
    stopped: bool


# ---------------------------------------------------------------- N-Queens


def _queens_n(value: Any) -> int:
    n = _validate.integer(value, "n")
    if not 1 <= n <= MAX_QUEENS:
        raise ValueError(
            f"the animation shows boards of 1 to {MAX_QUEENS} queens (it must fit a terminal), "
            f"got {n}"
        )
    return n


def queens_steps(n: int) -> Iterator[Step]:
    """The plain row-by-row search for ``n`` queens, one :class:`Step` at a time.

    The queen of row ``r`` tries columns ``0 .. n-1`` in turn; when the row is
    exhausted the search backs up to row ``r - 1``, whose queen moves on.  The
    solutions come in lexicographic order, as from :func:`solvers.queens`.

    >>> steps = list(queens_steps(4))
    >>> [(s.kind, s.square) for s in steps[:6]]
    [('place', (0, 0)), ('try', (1, 0)), ('try', (1, 1)), ('place', (1, 2)), ('try', (2, 0)), \
('try', (2, 1))]
    >>> steps[-1].kind, [col for _, col in steps[-1].path]
    ('solved', [1, 3, 0, 2])
    >>> [s.kind for s in queens_steps(3)][-1]
    'exhausted'
    """
    return _queens_search(_queens_n(n))  # arguments checked now, not at the first step


def _queens_search(n: int) -> Iterator[Step]:
    placed: list[int] = []  # the column of the queen in each row filled so far
    col = 0  # the next column to try in row len(placed)
    number = nodes = backtracks = 0

    def step(kind: str, square: Square | None) -> Step:
        path = tuple(enumerate(placed))
        return Step(kind, square, path, number, nodes, backtracks)

    while True:
        row = len(placed)
        number += 1
        if col == n:  # every column of this row tried: back up
            if not placed:
                yield step("exhausted", None)
                return
            backtracks += 1
            yield step("back", (row, n - 1))  # row `row` is cleared
            col = placed.pop() + 1
            continue
        nodes += 1
        attacked = any(c == col or abs(c - col) == row - r for r, c in enumerate(placed))
        if attacked:
            yield step("try", (row, col))
            col += 1
            continue
        placed.append(col)
        if row == n - 1:
            yield step("solved", (row, col))
            return
        yield step("place", (row, col))
        col = 0


def queens_frame(n: int, step: Step) -> str:
    """A step drawn as the package draws a placement (``Q`` a queen, ``.`` an
    empty square), the queen on trial included, and a status line under it.

    >>> print(queens_frame(4, list(queens_steps(4))[4]))
    Q . . .
    . . Q .
    Q . . .
    . . . .
    queens 2/4   squares tried 5   backtracks 0
    """
    queen_in_row: dict[int, int] = dict(step.path)
    if step.kind == "try" and step.square is not None:
        queen_in_row[step.square[0]] = step.square[1]
    lines = [
        " ".join("Q" if queen_in_row.get(row) == col else "." for col in range(n))
        for row in range(n)
    ]
    lines.append(
        f"queens {len(step.path)}/{n}   squares tried {step.nodes}   backtracks {step.backtracks}"
    )
    return "\n".join(lines)


def animate_queens(
    n: int,
    *,
    delay: float = DELAY,
    out: TextIO | None = None,
    max_steps: int | None = None,
) -> Outcome:
    """Show the search for ``n`` queens on ``out`` (default: standard output)
    until the first solution, which it returns, or until it is exhausted.
    ``max_steps`` (default: no limit) stops it early.
    """
    n = _queens_n(n)
    last, shown, stopped = _play(
        queens_steps(n), lambda s: queens_frame(n, s), delay=delay, out=out, max_steps=max_steps
    )
    solution = None
    if last.kind == "solved":
        solution = Placement(col for _, col in last.path)
        ending = f"solution after {last.number} steps: {' '.join(map(str, solution))}"
    else:
        ending = _ending(last, stopped)
    _write(out, ending + "\n")
    return Outcome(solution, shown, last.nodes, last.backtracks, stopped)


# ---------------------------------------------------------------- knight's tours


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
    start: knights.Square | Literal["lower-left"] = knights.LOWER_LEFT,
    closed: bool = False,
) -> Iterator[Step]:
    """The plain search for a knight's tour, one :class:`Step` at a time.

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


def _tour_search(kb: KnightBoard, first: Square, closed: bool) -> Iterator[Step]:
    squares = kb.squares
    path = [first]
    visited = {first}
    next_move = [0]  # per square of the path: the index in MOVES to try next
    number, nodes, backtracks = 1, 0, 0
    kind, square = "move", first

    def step(kind: str, square: Square | None) -> Step:
        return Step(kind, square, tuple(path), number, nodes, backtracks)

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


def tour_frame(board: KnightBoard, step: Step) -> str:
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
    start: knights.Square | Literal["lower-left"] = knights.LOWER_LEFT,
    closed: bool = False,
    delay: float = DELAY,
    out: TextIO | None = None,
    max_steps: int | None = None,
) -> Outcome:
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
    last, shown, stopped = _play(
        steps, lambda s: tour_frame(kb, s), delay=delay, out=out, max_steps=max_steps
    )
    solution = None
    if last.kind == "solved":
        solution = Tour(last.path, board=kb)
        kind = "closed tour" if closed else "tour"
        ending = f"{kind} after {last.number} steps, from {last.path[0]} to {last.path[-1]}"
    else:
        ending = _ending(last, stopped)
    _write(out, ending + "\n")
    return Outcome(solution, shown, last.nodes, last.backtracks, stopped)


# ---------------------------------------------------------------- peg solitaire


def peg_frames(solution: PegSolution) -> Iterator[str]:
    """The positions of a game, drawn as :meth:`PegBoard.draw` draws them
    (``o`` a peg, ``.`` an empty hole), each with the jump that led to it.

    >>> from solvers import PegBoard, find_peg_solution
    >>> game = find_peg_solution(PegBoard.rectangle(1, 4), start=(0, 1), finish=None)
    >>> for frame in peg_frames(game):
    ...     print(frame)
    o.oo
    start: (0,1) empty, 3 pegs
    oo..
    jump 1/2: (0,3) over (0,2) to (0,1), 2 pegs
    ..o.
    jump 2/2: (0,0) over (0,1) to (0,2), 1 peg
    """
    if not isinstance(solution, PegSolution):
        raise TypeError(f"expected a PegSolution, got {type(solution).__name__}")
    return _peg_frames(solution)


def _peg_frames(solution: PegSolution) -> Iterator[str]:
    board = solution.board
    holes = board.holes
    jumps = len(solution)
    for number, pegs in enumerate(solution.positions()):
        picture = board.draw(empty=[hole for hole in holes if hole not in pegs])
        count = f"{len(pegs)} peg{'' if len(pegs) == 1 else 's'}"
        if number == 0:
            status = f"start: {_sq(solution.start)} empty, {count}"
        else:
            source, over, landing = solution[number - 1]
            status = (
                f"jump {number}/{jumps}: {_sq(source)} over {_sq(over)} to {_sq(landing)}, {count}"
            )
        yield f"{picture}\n{status}"


def peg_replay(solution: PegSolution, *, delay: float = DELAY, out: TextIO | None = None) -> int:
    """Replay a peg-solitaire game (from :func:`solvers.find_peg_solution`) jump by jump
    on ``out`` (default: standard output); returns the number of frames shown,
    one more than the jumps.

    >>> import io
    >>> from solvers import PegBoard, find_peg_solution
    >>> out = io.StringIO()
    >>> peg_replay(find_peg_solution(PegBoard.english(), start=(3, 3)), delay=0, out=out)
    32
    >>> out.getvalue().splitlines()[-2:]
    ['jump 31/31: (5,3) over (4,3) to (3,3), 1 peg', 'one peg left, on (3,3)']
    """
    frames = peg_frames(solution)
    _, shown, _ = _play(frames, lambda frame: frame, delay=delay, out=out, max_steps=None)
    _write(out, f"one peg left, on {_sq(solution.finish)}\n")
    return shown


def _sq(square: Square) -> str:
    return f"({square[0]},{square[1]})"


# ---------------------------------------------------------------- drawing


def _ending(last: Step, stopped: bool) -> str:
    if stopped:
        return f"stopped after {last.number} steps: no solution yet"
    return f"no solution: the search is exhausted after {last.number} steps"


def _write(out: TextIO | None, text: str) -> None:
    out = sys.stdout if out is None else out
    out.write(text)
    out.flush()


def _check_delay(delay: Any) -> float:
    pause = _validate.seconds(delay, "delay")
    if pause > MAX_DELAY:
        raise ValueError(f"delay must be at most {MAX_DELAY:g} seconds, got {pause:g}")
    return pause


def _is_terminal(out: TextIO) -> bool:
    try:
        return out.isatty() and os.environ.get("TERM") != "dumb"
    except (AttributeError, ValueError):  # no isatty, or closed
        return False


def _terminal_lines(out: TextIO) -> int:
    try:
        lines = os.get_terminal_size(out.fileno()).lines
    except (AttributeError, ValueError, OSError):
        lines = 0
    return lines or 24  # 0: the terminal does not say


class _Screen:
    """Where the frames go: redrawn in place on a terminal, written one after
    another (a blank line between) anywhere else."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.live = _is_terminal(out)
        self.height = 0  # lines of the last frame shown; 0 before the first

    def __enter__(self) -> _Screen:
        if self.live:
            self.out.write(_HIDE_CURSOR)
            self.out.flush()
        return self

    def show(self, frame: str) -> None:
        lines = frame.split("\n")
        if not self.live:
            text = ("\n" if self.height else "") + frame + "\n"
        else:
            if len(lines) >= _terminal_lines(self.out):
                back = _HOME  # too tall to move back up to: draw from the top
            else:
                back = f"\x1b[{self.height}A\r" if self.height else ""
            # one write per frame, every line cleared to its end: no flicker
            text = back + "".join(line + _CLEAR_LINE + "\n" for line in lines) + _CLEAR_BELOW
        self.out.write(text)
        self.out.flush()
        self.height = len(lines)

    def __exit__(self, *exc: object) -> None:
        if self.live:
            self.out.write(_SHOW_CURSOR)
            self.out.flush()


def _play(
    steps: Iterable[Any],
    draw: Any,
    *,
    delay: Any,
    out: TextIO | None,
    max_steps: Any,
) -> tuple[Any, int, bool]:
    """Show ``draw(step)`` for each step, ``delay`` seconds apart, at most
    ``max_steps`` of them: (the last step shown, how many, stopped early?)."""
    delay = _check_delay(delay)
    if max_steps is not None:
        max_steps = _validate.positive(max_steps, "max_steps")
    out = sys.stdout if out is None else out
    last: Any = None
    shown = 0
    with _Screen(out) as screen:
        for step in steps:
            if shown == max_steps:
                return last, shown, True
            if shown and delay:
                time.sleep(delay)
            screen.show(draw(step))
            last = step
            shown += 1
    return last, shown, False
