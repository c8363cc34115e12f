"""The grids of peg-solitaire boards and what a set of holes on one has: its
bounding grid (:func:`grid`), its jumps (:func:`find_jumps`), its symmetries
(:func:`find_symmetries`) and where each hole stands in a picture
(:func:`centres`).  :class:`solvers.peg.board.PegBoard` is built from these.

Two grids: ``"square"`` (a peg jumps in the 4 orthogonal directions) and
``"triangle"`` (along the three lines of the triangular grid: the offsets
``(0, ±1)``, ``(±1, 0)`` and ``(1, 1)``/``(-1, -1)``).

>>> holes, rows, cols = grid([(0, 0), (0, 1), (0, 2)], "square")
>>> holes, rows, cols
(((0, 0), (0, 1), (0, 2)), 1, 3)
>>> index = {square: i for i, square in enumerate(holes)}
>>> find_jumps("square", index), len(find_symmetries("square", holes, index))
(((0, 1, 2), (2, 1, 0)), 2)
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from .._engine import _validate

__all__ = [
    "DIRECTIONS",
    "GEOMETRIES",
    "MAX_HOLES",
    "MAX_SPAN",
    "Jump",
    "Permutation",
    "Square",
    "centres",
    "find_jumps",
    "find_symmetries",
    "grid",
    "too_many",
]

Square = tuple[int, int]
Jump = tuple[int, int, int]
Permutation = tuple[int, ...]

#: A position is kept in one 64-bit word in the core: one bit per hole.
MAX_HOLES: int = 64
#: The holes of a board lie within this many rows and columns.  Holes that
#: jumps connect span at most 64; the limit keeps a drawing or a picture of a
#: board of far-flung holes small.
MAX_SPAN: int = 2 * MAX_HOLES

GEOMETRIES: tuple[str, ...] = ("square", "triangle")

#: Jump directions (row, col offsets) of each geometry.
DIRECTIONS: dict[str, tuple[Square, ...]] = {
    "square": ((-1, 0), (0, -1), (0, 1), (1, 0)),
    "triangle": ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, 0), (1, 1)),
}


def _lattice_maps(geometry: str) -> tuple[tuple[int, int, int, int], ...]:
    """The linear maps ``(a, b, c, d)``: ``(r, c) -> (a*r + b*c, c*r + d*c)`` that
    permute the jump directions of the grid: the point symmetries of the lattice
    (8 for the square grid, 12 for the triangular one)."""
    directions = set(DIRECTIONS[geometry])
    maps = []
    for a in (-1, 0, 1):
        for b in (-1, 0, 1):
            for c in (-1, 0, 1):
                for d in (-1, 0, 1):
                    if a * d - b * c not in (1, -1):
                        continue
                    image = {(a * dr + b * dc, c * dr + d * dc) for dr, dc in directions}
                    if image == directions:
                        maps.append((a, b, c, d))
    return tuple(maps)


_MAPS = {geometry: _lattice_maps(geometry) for geometry in GEOMETRIES}


def too_many(count: int, what: str) -> ValueError:
    """The error of ``what``, a board of ``count`` holes, past :data:`MAX_HOLES`."""
    return ValueError(
        f"a peg board has at most {MAX_HOLES} holes (the core stores a board in 64 bits); "
        f"{what} has {count}"
    )


def grid(holes: Iterable[Square], geometry: str) -> tuple[tuple[Square, ...], int, int]:
    """The holes of a board on ``geometry``, checked, in reading order, and
    the rows and columns of their bounding grid (of the enclosing triangle
    for a triangle board): ``TypeError`` or ``ValueError`` for anything that
    is not a board."""
    if not isinstance(geometry, str):
        raise TypeError(f"geometry must be 'square' or 'triangle', got {type(geometry).__name__}")
    if geometry not in GEOMETRIES:
        raise ValueError(f"geometry must be 'square' or 'triangle', got {geometry!r}")
    if isinstance(holes, (str, bytes)) or not isinstance(holes, Iterable):
        raise TypeError(
            "holes must be an iterable of (row, col) pairs; use PegBoard.parse() to read a drawing"
        )
    seen: set[Square] = set()
    for item in holes:
        square = _validate.square(item, "hole")
        if square in seen:
            raise ValueError(f"hole {square} is listed twice")
        seen.add(square)
        if len(seen) > MAX_HOLES:
            raise too_many(len(seen), "this board (at least)")
    if not seen:
        raise ValueError("a peg board needs at least one hole")
    ordered = tuple(sorted(seen))
    if geometry == "square":
        top = ordered[0][0]
        left = min(c for _, c in ordered)
        if top != 0 or left != 0:
            raise ValueError(
                "square boards use the coordinates of their bounding grid: the top row "
                "with a hole is row 0 and the leftmost column with a hole is column 0; "
                f"these holes start at row {top}, column {left}"
            )
        rows = ordered[-1][0] + 1
        cols = max(c for _, c in ordered) + 1
    else:
        for r, c in ordered:
            if not 0 <= c <= r:
                raise ValueError(
                    f"hole {(r, c)} is not on the triangular grid: "
                    "triangle boards have holes (r, c) with 0 <= c <= r"
                )
        rows = cols = ordered[-1][0] + 1
    if max(rows, cols) > MAX_SPAN:
        raise ValueError(
            f"the holes of a peg board lie within {MAX_SPAN} rows and {MAX_SPAN} columns; "
            f"these span {rows} x {cols}"
        )
    return ordered, rows, cols


def find_jumps(geometry: str, index: dict[Square, int]) -> tuple[Jump, ...]:
    """Every jump ``(from, over, to)`` between the holes ``index`` numbers, sorted."""
    jumps = []
    for (r, c), i in index.items():
        for dr, dc in DIRECTIONS[geometry]:
            over = index.get((r + dr, c + dc))
            to = index.get((r + 2 * dr, c + 2 * dc))
            if over is not None and to is not None:
                jumps.append((i, over, to))
    return tuple(sorted(jumps))


def find_symmetries(
    geometry: str, holes: tuple[Square, ...], index: dict[Square, int]
) -> tuple[Permutation, ...]:
    """The symmetries of the set of ``holes`` as permutations of their
    indices, the identity first, the others sorted."""
    # Every symmetry of the hole set is a symmetry of the grid: a point
    # symmetry of the lattice followed by the translation that maps the
    # (reading-order) first hole of the image onto the first hole.
    identity = tuple(range(len(holes)))
    found = {identity}
    for a, b, c, d in _MAPS[geometry]:
        image = [(a * r + b * k, c * r + d * k) for r, k in holes]
        low = min(image)
        dr, dc = holes[0][0] - low[0], holes[0][1] - low[1]
        perm = tuple(index.get((r + dr, k + dc), -1) for r, k in image)
        if -1 not in perm:
            found.add(perm)
    return (identity, *sorted(found - {identity}))


def centres(
    geometry: str, rows: int, cols: int, holes: tuple[Square, ...], size: float
) -> tuple[float, float, list[tuple[float, float]]]:
    """Picture width, height and the centre of every hole, in ``holes``
    order, when neighbouring holes are ``size`` apart.

    >>> centres("square", 1, 2, ((0, 0), (0, 1)), 10)
    (20, 10, [(5.0, 5.0), (15.0, 5.0)])
    """
    if geometry == "triangle":
        step = size * math.sqrt(3) / 2
        spots = [
            ((c - r / 2 + (rows - 1) / 2) * size + size / 2, r * step + size / 2) for r, c in holes
        ]
        return rows * size, (rows - 1) * step + size, spots
    spots = [(c * size + size / 2, r * size + size / 2) for r, c in holes]
    return cols * size, rows * size, spots
