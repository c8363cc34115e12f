"""Pictures of the exact-cover models' results: the text and the SVG of a
Sudoku grid, of a tiling and of a Langford sequence (the queens model's
placements draw themselves as in the N-Queens family).

Tilings are coloured from :data:`PALETTE`: by piece when each piece is used
once (the piece's place in the set picks its colour), else so that pieces
that touch differ where the palette allows (a greedy colouring in the order
of the placements).  Nothing here depends on anything but the arguments, so
a picture is made again byte for byte.

>>> print(sudoku_text([[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 0]], (2, 2)))
1 2 | 3 4
3 4 | 1 2
----+----
2 1 | 4 3
4 3 | 2 .
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from .._engine import _draw
from .._engine._draw import fmt

if TYPE_CHECKING:
    from .langford import LangfordSequence
    from .tiling import Tiling

__all__ = [
    "BORDER",
    "GIVEN",
    "GRID",
    "PALETTE",
    "SOLVED",
    "langford_svg",
    "langford_text",
    "piece_colours",
    "sudoku_svg",
    "sudoku_text",
    "symbol",
    "tiling_svg",
    "tiling_text",
]

Cell = tuple[int, int]

#: Piece colours (ColorBrewer's Set3, 12 light colours far apart; the
#: picture tests tell them apart by these values).
PALETTE: tuple[str, ...] = (
    "#8dd3c7",
    "#ffffb3",
    "#bebada",
    "#fb8072",
    "#80b1d3",
    "#fdb462",
    "#b3de69",
    "#fccde5",
    "#d9d9d9",
    "#bc80bd",
    "#ccebc5",
    "#ffed6f",
)
#: The lines between pieces, and the thick lines of a Sudoku grid.
BORDER = "#222222"
#: The thin lines between a Sudoku's cells.
GRID = "#a0a0a0"
#: A Sudoku's given digits, and the digits a solution filled in.
GIVEN = "#111111"
SOLVED = "#1f4e9e"
#: The shade of a variant's marked cells (its diagonals, its extra regions).
MARKED = "#e8e8e8"

#: The letters a tiling's text uses when it cannot use the pieces' names.
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: Larger boards or grids print as a one-line summary.
MAX_TEXT = 200

# ---------------------------------------------------------------- Sudoku

#: How a Sudoku digit is written in text: 1-9, then A-Z (10-35).
SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def symbol(digit: int, side: int) -> str:
    """``digit`` as text: ``.`` for a blank; 1-9 then A-Z up to a side of
    35, else the number itself (a grid of such sides is written with spaces)."""
    if digit == 0:
        return "."
    return SYMBOLS[digit - 1] if side <= len(SYMBOLS) else str(digit)


def sudoku_text(grid: Sequence[Sequence[int]], box: tuple[int, int]) -> str:
    """The grid, one line per row, blanks as ``.``, boxes set apart by
    ``|`` and lines of ``-``."""
    side = len(grid)
    if side > MAX_TEXT:
        return f"<{side}x{side} Sudoku: too large to print; use .to_svg()>"
    width = max(len(symbol(side, side)), 1)
    high, wide = box
    lines = []
    for r, row in enumerate(grid):
        if r and r % high == 0:
            lines.append("-+-".join("-" * ((width + 1) * wide - 1) for _ in range(side // wide)))
        parts = [
            " ".join(symbol(d, side).rjust(width) for d in row[c : c + wide])
            for c in range(0, side, wide)
        ]
        lines.append(" | ".join(parts))
    return "\n".join(lines)


def sudoku_svg(
    grid: Sequence[Sequence[int]],
    given: Sequence[Sequence[bool]],
    box: tuple[int, int],
    title: str,
    *,
    cell: float | None = None,
    regions: Sequence[int] | None = None,
    marked: Collection[Cell] = (),
) -> str:
    """The grid drawn: thin lines between cells, thick ones between boxes
    (or between the jigsaw ``regions``, a region number per cell in reading
    order), the ``marked`` cells (a variant's diagonals and extra regions)
    shaded, given digits in :data:`GIVEN`, filled-in ones in :data:`SOLVED`."""
    side = len(grid)
    size = _draw.cell_size(side, side, cell)
    whole = side * size
    thick, thin = max(1.0, size * 0.08), max(0.5, size * 0.025)
    parts = _draw.svg_head(whole, whole, title, "grid", _draw.MISSING)
    if marked:
        parts.append(f'<g class="marked" fill="{MARKED}">')
        parts += [
            f'<rect x="{fmt(c * size)}" y="{fmt(r * size)}" width="{fmt(size)}" '
            f'height="{fmt(size)}"/>'
            for r, c in sorted(marked)
        ]
        parts.append("</g>")
    wide, high = (side, side) if regions is not None else (box[1], box[0])
    thin_lines = [
        *(f"M{fmt(k * size)} 0V{fmt(whole)}" for k in range(1, side) if k % wide),
        *(f"M0 {fmt(k * size)}H{fmt(whole)}" for k in range(1, side) if k % high),
    ]
    if thin_lines:
        parts.append(
            f'<path class="cells" d="{"".join(thin_lines)}" stroke="{GRID}" '
            f'stroke-width="{fmt(thin)}" fill="none"/>'
        )
    thick_lines = [
        *(f"M{fmt(k * size)} 0V{fmt(whole)}" for k in range(0, side + 1, wide)),
        *(f"M0 {fmt(k * size)}H{fmt(whole)}" for k in range(0, side + 1, high)),
    ]
    if regions is not None:  # a segment wherever two neighbours' regions differ
        for r in range(side):
            for c in range(side):
                here = regions[r * side + c]
                if c + 1 < side and regions[r * side + c + 1] != here:
                    x = fmt((c + 1) * size)
                    thick_lines.append(f"M{x} {fmt(r * size)}V{fmt((r + 1) * size)}")
                if r + 1 < side and regions[(r + 1) * side + c] != here:
                    y = fmt((r + 1) * size)
                    thick_lines.append(f"M{fmt(c * size)} {y}H{fmt((c + 1) * size)}")
    parts.append(
        f'<path class="boxes" d="{"".join(thick_lines)}" stroke="{BORDER}" '
        f'stroke-width="{fmt(2 * thick)}" stroke-linecap="square" fill="none"/>'
    )
    font = size * (0.62 if side <= 9 else 0.5 if side <= 99 else 0.36)
    for kind, colour, shown in (("given", GIVEN, True), ("solved", SOLVED, False)):
        texts = [
            f'<text x="{fmt((c + 0.5) * size)}" y="{fmt((r + 0.5) * size)}">{d}</text>'
            for r, row in enumerate(grid)
            for c, d in enumerate(row)
            if d and given[r][c] == shown
        ]
        if texts:
            parts.append(
                f'<g class="{kind}" fill="{colour}" font-family="sans-serif" '
                f'font-size="{fmt(font)}" text-anchor="middle" dominant-baseline="central">'
            )
            parts.extend(texts)
            parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


# ---------------------------------------------------------------- tilings


def piece_colours(
    placements: Sequence[tuple[str, Sequence[Cell]]], names: Sequence[str] | None
) -> tuple[int, ...]:
    """The colour (an index into :data:`PALETTE`) of each placement: its
    piece's place in ``names`` when given, else the first colour that no
    earlier neighbouring placement has (the placement's own index when the
    palette is used up around it)."""
    if names:
        place = {name: k for k, name in enumerate(names)}
        return tuple(place.get(name, k) % len(PALETTE) for k, (name, _) in enumerate(placements))
    owner = {cell: k for k, (_, cells) in enumerate(placements) for cell in cells}
    colours: list[int] = []
    for k, (_, cells) in enumerate(placements):
        taken = {
            colours[j]
            for r, c in cells
            for j in (owner.get(n, k) for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)))
            if j < k
        }
        free = [i for i in range(len(PALETTE)) if i not in taken]
        colours.append(free[0] if free else k % len(PALETTE))
    return tuple(colours)


def _labels(tiling: Tiling) -> dict[Cell, str]:
    names = [name for name, _ in tiling.placements]
    own = all(len(n) == 1 for n in names) and len(set(names)) == len(names)
    return {
        cell: name if own else LETTERS[colour % len(LETTERS)]
        for (name, cells), colour in zip(tiling.placements, tiling.colours, strict=True)
        for cell in cells
    }


def tiling_text(tiling: Tiling) -> str:
    """A letter per cell (``#`` off the board), one line per row."""
    if max(tiling.rows, tiling.cols) > MAX_TEXT:
        return f"<tiling of {len(tiling.board)} cells: too large to print; use .to_svg()>"
    labels = _labels(tiling)
    return "\n".join(
        "".join(labels.get((r, c), "#") for c in range(tiling.cols)).rstrip()
        for r in range(tiling.rows)
    )


def tiling_svg(tiling: Tiling, *, cell: float | None = None) -> str:
    """Each piece filled with its colour, a line of :data:`BORDER` along
    every edge between two pieces or between a piece and no board."""
    rows, cols = tiling.rows, tiling.cols
    size = _draw.cell_size(rows, cols, cell)
    parts = _draw.svg_head(cols * size, rows * size, repr(tiling), "board", _draw.MISSING)
    owner = {cell: k for k, (_, cells) in enumerate(tiling.placements) for cell in cells}
    s = fmt(size)
    for k, (_, cells) in enumerate(tiling.placements):
        d = "".join(f"M{fmt(c * size)} {fmt(r * size)}h{s}v{s}h-{s}z" for r, c in cells)
        colour = PALETTE[tiling.colours[k] % len(PALETTE)]
        parts.append(f'<path class="piece" d="{d}" fill="{colour}"/>')
    edges = []
    for (r, c), k in sorted(owner.items()):
        x, y = fmt(c * size), fmt(r * size)
        x1, y1 = fmt((c + 1) * size), fmt((r + 1) * size)
        if owner.get((r - 1, c)) != k:
            edges.append(f"M{x} {y}H{x1}")
        if owner.get((r + 1, c)) != k:
            edges.append(f"M{x} {y1}H{x1}")
        if owner.get((r, c - 1)) != k:
            edges.append(f"M{x} {y}V{y1}")
        if owner.get((r, c + 1)) != k:
            edges.append(f"M{x1} {y}V{y1}")
    width = max(1.0, size * 0.08)
    parts.append(
        f'<path class="borders" d="{"".join(edges)}" stroke="{BORDER}" '
        f'stroke-width="{fmt(width)}" stroke-linecap="square" fill="none"/>'
    )
    parts.append("</svg>")
    return "\n".join(parts)


# ---------------------------------------------------------------- Langford


def langford_text(sequence: LangfordSequence) -> str:
    return " ".join(map(str, sequence))


def langford_svg(sequence: LangfordSequence, *, cell: float | None = None) -> str:
    """The sequence as a row of cells, each in the colour of its value with
    the value written in it, and an arc above joining the two cells of each
    value."""
    values = list(sequence)
    length = len(values)
    size = _draw.cell_size(1, length, cell)
    n = max(values)
    # the widest arc (value n spans n + 1 cells) fixes the height above the row
    rise = size * (0.35 + 0.25 * math.log2(n + 1))
    height = rise + size
    parts = _draw.svg_head(length * size, height, repr(sequence), "board", _draw.MISSING)
    s = fmt(size)
    for k, value in enumerate(values):
        colour = PALETTE[(value - 1) % len(PALETTE)]
        parts.append(
            f'<rect class="value" x="{fmt(k * size)}" y="{fmt(rise)}" width="{s}" height="{s}" '
            f'fill="{colour}" stroke="{BORDER}" stroke-width="{fmt(max(0.5, size * 0.03))}"/>'
        )
    arcs = []
    seen: dict[int, int] = {}
    for k, value in enumerate(values):
        if value in seen:
            x0, x1 = (seen[value] + 0.5) * size, (k + 0.5) * size
            top = rise * (0.35 + 0.25 * math.log2(value + 1)) / (0.35 + 0.25 * math.log2(n + 1))
            arcs.append(
                f"M{fmt(x0)} {fmt(rise)}C{fmt(x0)} {fmt(rise - top * 1.3)} "
                f"{fmt(x1)} {fmt(rise - top * 1.3)} {fmt(x1)} {fmt(rise)}"
            )
        seen[value] = k
    parts.append(
        f'<path class="arcs" d="{"".join(arcs)}" stroke="{BORDER}" '
        f'stroke-width="{fmt(max(0.5, size * 0.04))}" fill="none"/>'
    )
    parts.append(
        f'<g class="numbers" fill="{GIVEN}" font-family="sans-serif" '
        f'font-size="{fmt(size * 0.5)}" text-anchor="middle" dominant-baseline="central">'
    )
    parts.extend(
        f'<text x="{fmt((k + 0.5) * size)}" y="{fmt(rise + size / 2)}">{value}</text>'
        for k, value in enumerate(values)
    )
    parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)
