"""Peg-solitaire boards drawn in text: reading a drawing into its holes and
pegs (:func:`read_drawing`) and drawing holes with their pegs
(:func:`draw_holes`), the text :meth:`PegBoard.parse` reads and
:meth:`PegBoard.draw` writes.

``o``, ``x`` or ``1`` is a hole with a peg, ``.`` or ``0`` an empty hole, a
space or ``#`` no hole.  A triangle board is drawn staggered, row ``r``
holding ``r + 1`` cells.

>>> cells = read_drawing(" o.\\n oo", triangle=False)
>>> sorted(cells.items())
[((0, 0), True), ((0, 1), False), ((1, 0), True), ((1, 1), True)]
>>> print(draw_holes("square", 2, 2, cells, {(0, 1)}))
o.
oo
"""

from __future__ import annotations

from collections.abc import Container

from .._engine import _validate
from .geometry import MAX_HOLES, Square, too_many

__all__ = ["EMPTY_CHARS", "NO_HOLE_CHARS", "PEG_CHARS", "draw_holes", "read_drawing"]

PEG_CHARS = "ox1"
EMPTY_CHARS = ".0"
NO_HOLE_CHARS = " #"
_EXPECTED = "expected o, x, 1 for a peg, . or 0 for an empty hole, space or # for no hole"


def _lines(text: str) -> list[tuple[int, str]]:
    """The lines of a drawing with their numbers in the text as given: no
    tabs, trailing spaces and the blank lines around the drawing left out."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for number, line in enumerate(lines, start=1):
        if "\t" in line:
            raise ValueError(
                f"line {number}, column {line.index(chr(9)) + 1}: tab characters are not "
                "allowed; use spaces (or # for no hole)"
            )
    numbered = [(number, line.rstrip(" ")) for number, line in enumerate(lines, start=1)]
    while numbered and not numbered[0][1]:
        numbered.pop(0)
    while numbered and not numbered[-1][1]:
        numbered.pop()
    if not numbered:
        raise ValueError(
            "board text is empty: draw the board one line per row, "
            "o for a hole with a peg, . for an empty hole, space or # for no hole"
        )
    return numbered


def read_drawing(text: str, *, triangle: bool) -> dict[Square, bool]:
    """The holes of a drawn position, each with whether it holds a peg; the
    coordinates of a square board's are those of its bounding grid.  Errors
    name the line and column of the text as given."""
    if not isinstance(text, str):
        raise TypeError(f"board must be a str drawing the board, got {type(text).__name__}")
    triangle = _validate.flag(triangle, "triangle")
    numbered = _lines(text)
    indent = min(len(line) - len(line.lstrip(" ")) for _, line in numbered if line)
    cells: dict[Square, bool] = {}  # hole -> has a peg
    for row, (number, line) in enumerate(numbered):
        found = 0
        for column in range(indent, len(line)):
            char = line[column]
            if char == " " and triangle:
                continue
            if char not in PEG_CHARS and char not in EMPTY_CHARS and char not in NO_HOLE_CHARS:
                raise ValueError(
                    f"line {number}, column {column + 1}: unexpected {char!r} ({_EXPECTED})"
                )
            square = (row, found) if triangle else (row, column - indent)
            found += 1
            if triangle and found > row + 1:
                break
            if char not in NO_HOLE_CHARS:
                cells[square] = char in PEG_CHARS
                if len(cells) > MAX_HOLES:
                    raise too_many(len(cells), "the drawing (at least)")
        if triangle and found != row + 1:
            many = "more" if found > row + 1 else f"only {found}"
            raise ValueError(
                f"line {number}: row {row} of a triangle has {row + 1} "
                f"{'hole' if row == 0 else 'holes'} (o, x, 1, . or 0; # for a missing one), "
                f"this line has {many}"
            )
    if not cells:
        raise ValueError("the drawing has no holes (o, x, 1 for a peg, . or 0 for an empty hole)")
    if not triangle:
        top = min(r for r, _ in cells)
        left = min(c for _, c in cells)
        cells = {(r - top, c - left): peg for (r, c), peg in cells.items()}
    return cells


def draw_holes(
    geometry: str, rows: int, cols: int, holes: Container[Square], empty: Container[Square]
) -> str:
    """The ``holes`` of a board on ``geometry`` (of ``rows`` by ``cols``)
    drawn in text: ``o`` a peg, ``.`` a hole in ``empty``; on the triangular
    grid staggered, ``#`` for a missing hole."""

    def char(square: Square, missing: str) -> str:
        if square not in holes:
            return missing
        return "." if square in empty else "o"

    if geometry == "triangle":
        return "\n".join(
            " " * (rows - 1 - r) + " ".join(char((r, c), "#") for c in range(r + 1))
            for r in range(rows)
        )
    return "\n".join("".join(char((r, c), " ") for c in range(cols)).rstrip() for r in range(rows))
