"""Replay a solved game of peg solitaire in the terminal, jump by jump
(``solvers peg --find --animate``).

>>> import io
>>> from solvers import PegBoard, find_peg_solution
>>> game = find_peg_solution(PegBoard.rectangle(1, 4), start=(0, 1), finish=None)
>>> peg_replay(game, delay=0, out=io.StringIO())
3
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TextIO

from .._engine import _screen
from .._engine._screen import square_text as _sq
from .solution import PegSolution

__all__ = ["peg_frames", "peg_replay"]


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


def peg_replay(
    solution: PegSolution, *, delay: float = _screen.DELAY, out: TextIO | None = None
) -> int:
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
    _, shown, _ = _screen.play(frames, lambda frame: frame, delay=delay, out=out, max_steps=None)
    _screen.write(out, f"one peg left, on {_sq(solution.finish)}\n")
    return shown
