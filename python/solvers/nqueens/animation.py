"""Watch the search for N queens in the terminal (``solvers queens --animate``).

As the 1987 article on the eight queens did it ("Damenwandern"): every row
shows its queen while the loop slides it along the row, and a row is cleared
when the search gives up on it and backs up to the row above.  The search here
is a plain depth-first search in pure Python, written to be watched, not to be
fast (the real search cores are in Rust); it tries the squares in the
package's documented order, so the first solution shown is the first one that
:func:`solvers.queens` lists.

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

from collections.abc import Iterator
from typing import Any, TextIO

from .._engine import _screen, _validate
from .placement import Placement

__all__ = ["MAX_QUEENS", "animate_queens", "queens_frame", "queens_steps"]

Square = tuple[int, int]

#: Largest board animated: a frame (n rows and a status line) and the line
#: under it fit a 24-line terminal.
MAX_QUEENS = 20


def _queens_n(value: Any) -> int:
    n = _validate.integer(value, "n")
    if not 1 <= n <= MAX_QUEENS:
        raise ValueError(
            f"the animation shows boards of 1 to {MAX_QUEENS} queens (it must fit a terminal), "
            f"got {n}"
        )
    return n


def queens_steps(n: int) -> Iterator[_screen.Step]:
    """The plain row-by-row search for ``n`` queens, one step at a time
    (a :class:`~solvers._engine._screen.Step`).

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


def _queens_search(n: int) -> Iterator[_screen.Step]:
    placed: list[int] = []  # the column of the queen in each row filled so far
    col = 0  # the next column to try in row len(placed)
    number = nodes = backtracks = 0

    def step(kind: str, square: Square | None) -> _screen.Step:
        path = tuple(enumerate(placed))
        return _screen.Step(kind, square, path, number, nodes, backtracks)

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


def queens_frame(n: int, step: _screen.Step) -> str:
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
    delay: float = _screen.DELAY,
    out: TextIO | None = None,
    max_steps: int | None = None,
) -> _screen.Outcome:
    """Show the search for ``n`` queens on ``out`` (default: standard output)
    until the first solution, which it returns, or until it is exhausted.
    ``max_steps`` (default: no limit) stops it early.
    """
    n = _queens_n(n)
    last, shown, stopped = _screen.play(
        queens_steps(n), lambda s: queens_frame(n, s), delay=delay, out=out, max_steps=max_steps
    )
    solution = None
    if last.kind == "solved":
        solution = Placement(col for _, col in last.path)
        last_line = f"solution after {last.number} steps: {' '.join(map(str, solution))}"
    else:
        last_line = _screen.ending(last, stopped)
    _screen.write(out, last_line + "\n")
    return _screen.Outcome(solution, shown, last.nodes, last.backtracks, stopped)
