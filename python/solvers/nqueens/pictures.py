"""Pictures of queens placements: the text board and the SVG drawing
(:meth:`Placement.__str__` and :meth:`Placement.to_svg`).

>>> import solvers
>>> print(placement_text(solvers.find_queens(4)))
. Q . .
. . . Q
Q . . .
. . Q .
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._engine import _draw
from .._engine._draw import fmt

if TYPE_CHECKING:
    from .placement import Placement

__all__ = ["MAX_TEXT_QUEENS", "QUEEN", "placement_svg", "placement_text"]

#: The colour of a queen in a picture.
QUEEN = _draw.BLACK


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
    size = _draw.cell_size(n, n, cell)
    side = n * size
    parts = _draw.svg_head(side, side, repr(placement), "board", _draw.LIGHT)
    if n <= 500:
        for r in range(n):
            for c in range(n):
                if (r + c) % 2 == 1:
                    parts.append(
                        f'<rect x="{fmt(c * size)}" y="{fmt(r * size)}" width="{fmt(size)}" '
                        f'height="{fmt(size)}" fill="{_draw.DARK}"/>'
                    )
    half, radius = size / 2, max(0.4, size * 0.32)
    for r, c in enumerate(placement):
        parts.append(
            f'<circle class="queen" cx="{fmt(c * size + half)}" cy="{fmt(r * size + half)}" '
            f'r="{fmt(radius)}" fill="{QUEEN}"/>'
        )
    parts.append("</svg>")
    return "\n".join(parts)
