"""Pictures of solutions: text boards and self-contained SVG.

Every drawing function takes a result object and returns a ``str``; nothing
here writes files or needs a third-party package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

if TYPE_CHECKING:
    from .knights import Tour
    from .queens import Placement

#: Colours of the SVG pictures.
LIGHT = "#f0d9b5"
DARK = "#b58863"
MISSING = "#ffffff"
PATH = "#1f4e9e"
START = "#2e8b57"
END = "#c0392b"

#: The longest side of a picture, in pixels, when the cell size is automatic.
MAX_PICTURE = 800


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


def _cell_size(rows: int, cols: int, cell: float | None) -> float:
    if cell is not None:
        if isinstance(cell, bool) or not isinstance(cell, (int, float)) or not cell > 0:
            raise ValueError(f"cell must be a positive number of pixels, got {cell!r}")
        return float(cell)
    return max(1.0, min(48.0, MAX_PICTURE / max(rows, cols)))


def _fmt(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def tour_svg(tour: Tour, *, cell: float | None = None, numbers: bool | None = None) -> str:
    """An SVG drawing of ``tour``: checkered squares, the knight's path as a
    line through the square centres, the start (green) and end (red) marked,
    and move numbers in the squares when they are large enough to read.

    A closed tour's path returns to its start.
    """
    rows, cols = tour.rows, tour.cols
    size = _cell_size(rows, cols, cell)
    if numbers is None:
        numbers = size >= 18 and len(tour) <= 2500
    width, height = cols * size, rows * size
    board = tour.board
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(width)}" '
        f'height="{_fmt(height)}" viewBox="0 0 {_fmt(width)} {_fmt(height)}">',
        f"<title>{escape(repr(tour))}</title>",
        f'<rect class="board" x="0" y="0" width="{_fmt(width)}" height="{_fmt(height)}" '
        f'fill="{MISSING}"/>',
    ]
    if rows * cols <= 250_000:
        for r in range(rows):
            for c in range(cols):
                if not board.is_square(r, c):
                    continue
                colour = LIGHT if (r + c) % 2 == 0 else DARK
                parts.append(
                    f'<rect class="square" x="{_fmt(c * size)}" y="{_fmt(r * size)}" '
                    f'width="{_fmt(size)}" height="{_fmt(size)}" fill="{colour}"/>'
                )
    else:  # one rectangle for huge boards: the path is the picture
        parts.append(
            f'<rect x="0" y="0" width="{_fmt(width)}" height="{_fmt(height)}" fill="{LIGHT}"/>'
        )
    half = size / 2
    points = " ".join(f"{_fmt(c * size + half)},{_fmt(r * size + half)}" for r, c in tour)
    shape = "polygon" if tour.closed else "polyline"
    stroke = max(0.3, size / 12)
    parts.append(
        f'<{shape} class="path" points="{points}" fill="none" stroke="{PATH}" '
        f'stroke-width="{_fmt(stroke)}" stroke-linejoin="round" stroke-linecap="round"/>'
    )
    (r0, c0), (r1, c1) = tour.start, tour.end
    mark = max(0.8, size / 5)
    parts.append(
        f'<circle class="start" cx="{_fmt(c0 * size + half)}" cy="{_fmt(r0 * size + half)}" '
        f'r="{_fmt(mark)}" fill="{START}"/>'
    )
    parts.append(
        f'<rect class="end" x="{_fmt(c1 * size + half - mark)}" '
        f'y="{_fmt(r1 * size + half - mark)}" width="{_fmt(2 * mark)}" '
        f'height="{_fmt(2 * mark)}" fill="{END}"/>'
    )
    if numbers:
        font = _fmt(size * 0.34)
        for move, (r, c) in enumerate(tour, start=1):
            parts.append(
                f'<text x="{_fmt(c * size + size * 0.06)}" y="{_fmt(r * size + size * 0.32)}" '
                f'font-family="sans-serif" font-size="{font}" fill="#000">{move}</text>'
            )
    parts.append("</svg>")
    return "\n".join(parts)


#: Boards larger than this print as a summary instead of a grid.
MAX_TEXT_QUEENS = 64


def placement_text(placement: Placement) -> str:
    """The board with ``Q`` for a queen and ``.`` for an empty square, row 0
    on top; for more than 64 queens, a one-line summary."""
    n = len(placement)
    if n > MAX_TEXT_QUEENS:
        return f"<{n} queens: too large to draw as text; use .to_svg()>"
    return "\n".join(" ".join("Q" if c == col else "." for c in range(n)) for col in placement)


def placement_svg(placement: Placement, *, cell: float | None = None) -> str:
    """An SVG drawing of a queens placement: a checkered board with a queen
    (a dark disc with a crown mark) on each occupied square."""
    n = len(placement)
    size = _cell_size(n, n, cell)
    side = n * size
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(side)}" height="{_fmt(side)}" '
        f'viewBox="0 0 {_fmt(side)} {_fmt(side)}">',
        f"<title>{escape(repr(placement))}</title>",
        f'<rect class="board" x="0" y="0" width="{_fmt(side)}" height="{_fmt(side)}" '
        f'fill="{LIGHT}"/>',
    ]
    if n <= 500:
        for r in range(n):
            for c in range(n):
                if (r + c) % 2 == 1:
                    parts.append(
                        f'<rect x="{_fmt(c * size)}" y="{_fmt(r * size)}" width="{_fmt(size)}" '
                        f'height="{_fmt(size)}" fill="{DARK}"/>'
                    )
    half, radius = size / 2, max(0.4, size * 0.32)
    for r, c in enumerate(placement):
        parts.append(
            f'<circle class="queen" cx="{_fmt(c * size + half)}" cy="{_fmt(r * size + half)}" '
            f'r="{_fmt(radius)}" fill="#222"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
