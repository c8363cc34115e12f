"""The terminal shell of every animation, naming no family: a search's
:class:`Step` and an animation's :class:`Outcome`, and :func:`play`, which
shows frames one after another.  Each family writes its own plain search and
draws its own frames (its ``animation`` module).

On a terminal each frame is redrawn in place (ANSI escapes; the cursor is
hidden while it runs and always shown again, also on Ctrl-C).  Anywhere else (a
pipe, a file, a test) every frame is written, one after the other, separated
by a blank line.  ``delay`` seconds pass between frames in both cases
(``delay=0`` for none).

>>> import io
>>> out = io.StringIO()
>>> play(["a", "b"], str.upper, delay=0, out=out, max_steps=None)
('b', 2, False)
>>> out.getvalue().split()
['A', 'B']
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable
from typing import Any, NamedTuple, TextIO

from . import _validate

__all__ = ["DELAY", "MAX_DELAY", "Outcome", "Step", "ending", "play", "square_text", "write"]

Square = tuple[int, int]

#: Seconds between frames unless told otherwise: slow enough to follow.
DELAY = 0.05
#: The longest pause between frames (a longer one is surely a typo).
MAX_DELAY = 60.0
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

    solution: Any
    steps: int
    nodes: int
    backtracks: int
    stopped: bool


# ---------------------------------------------------------------- drawing


def square_text(square: Square) -> str:
    return f"({square[0]},{square[1]})"


def ending(last: Step, stopped: bool) -> str:
    if stopped:
        return f"stopped after {last.number} steps: no solution yet"
    return f"no solution: the search is exhausted after {last.number} steps"


def write(out: TextIO | None, text: str) -> None:
    out = sys.stdout if out is None else out
    out.write(text)
    out.flush()


def check_delay(delay: Any) -> float:
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


def play(
    steps: Iterable[Any],
    draw: Any,
    *,
    delay: Any,
    out: TextIO | None,
    max_steps: Any,
) -> tuple[Any, int, bool]:
    """Show ``draw(step)`` for each step, ``delay`` seconds apart, at most
    ``max_steps`` of them: (the last step shown, how many, stopped early?)."""
    delay = check_delay(delay)
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
