"""Pictures of knight's tours: the numbered text board and the SVG drawing
(:meth:`Tour.__str__` and :meth:`Tour.to_svg`).

>>> import solvers
>>> svg = tour_svg(solvers.find_tour(5, 6))
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="288" height="240"')
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._engine import _draw, _validate
from .._engine._draw import fmt

if TYPE_CHECKING:
    from .tour import Tour

__all__ = ["tour_svg", "tour_text"]


def tour_text(tour: Tour) -> str:
    """The board with each square's move number (1-based), row 0 on top, as the
    seed article prints it; ``#`` marks a missing square.

    Every cell is right-aligned to the width of the largest number plus one.
    """
    grid = tour.numbers()
    width = max(3, len(str(len(tour))) + 1)
    lines = []
    for row in grid:
        lines.append("".join(("#" if n is None else str(n)).rjust(width) for n in row))
    return "\n".join(lines)


def tour_svg(tour: Tour, *, cell: float | None = None, numbers: bool | None = None) -> str:
    """An SVG drawing of ``tour``: checkered squares, the knight's path as a
    line through the square centres, the start (green) and end (red) marked,
    and move numbers in the squares when they are large enough to read.

    A closed tour's path returns to its start.
    """
    rows, cols = tour.rows, tour.cols
    size = _draw.cell_size(rows, cols, cell)
    if numbers is None:
        numbers = size >= 18 and len(tour) <= 2500
    numbers = _validate.flag(numbers, "numbers")
    width, height = cols * size, rows * size
    board = tour.board
    parts = _draw.svg_head(width, height, repr(tour), "board", _draw.MISSING)
    if rows * cols <= 250_000:
        for r in range(rows):
            for c in range(cols):
                if not board.is_square(r, c):
                    continue
                colour = _draw.LIGHT if (r + c) % 2 == 0 else _draw.DARK
                parts.append(
                    f'<rect class="square" x="{fmt(c * size)}" y="{fmt(r * size)}" '
                    f'width="{fmt(size)}" height="{fmt(size)}" fill="{colour}"/>'
                )
    else:  # one rectangle for huge boards: the path is the picture
        parts.append(
            f'<rect x="0" y="0" width="{fmt(width)}" height="{fmt(height)}" fill="{_draw.LIGHT}"/>'
        )
    half = size / 2
    points = " ".join(f"{fmt(c * size + half)},{fmt(r * size + half)}" for r, c in tour)
    shape = "polygon" if tour.closed else "polyline"
    stroke = max(0.3, size / 12)
    parts.append(
        f'<{shape} class="path" points="{points}" fill="none" stroke="{_draw.PATH}" '
        f'stroke-width="{fmt(stroke)}" stroke-linejoin="round" stroke-linecap="round"/>'
    )
    (r0, c0), (r1, c1) = tour.start, tour.end
    mark = max(0.8, size / 5)
    parts.append(
        f'<circle class="start" cx="{fmt(c0 * size + half)}" cy="{fmt(r0 * size + half)}" '
        f'r="{fmt(mark)}" fill="{_draw.START}"/>'
    )
    parts.append(
        f'<rect class="end" x="{fmt(c1 * size + half - mark)}" '
        f'y="{fmt(r1 * size + half - mark)}" width="{fmt(2 * mark)}" '
        f'height="{fmt(2 * mark)}" fill="{_draw.END}"/>'
    )
    if numbers:
        font = fmt(size * 0.34)
        for move, (r, c) in enumerate(tour, start=1):
            parts.append(
                f'<text x="{fmt(c * size + size * 0.06)}" y="{fmt(r * size + size * 0.32)}" '
                f'font-family="sans-serif" font-size="{font}" fill="#000">{move}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts)
