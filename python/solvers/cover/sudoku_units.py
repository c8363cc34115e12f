"""The units of a Sudoku grid other than its rows and columns: the boxes, or
jigsaw regions drawn in their place, the two diagonals of an X-Sudoku, and
extra regions (a windoku's four windows, any groups of cells), each holding
every digit once, or at most once for a region of fewer cells than the side.

:class:`Units` is what a :class:`~solvers.Sudoku` knows of its variant: the
unit items each cell's options cover (beside its cell, row and column), the
checks of the givens, and the region of each cell for the pictures.

>>> units = Units.of(4, (2, 2), regions="AABB\\nAABB\\nCCDD\\nCCDD", diagonals=True)
>>> units.items_of(0, 0, 3), units.items_of(1, 2, 3)
(('b0_3', 'd0_3'), ('b1_3', 'd1_3'))
>>> Units.of(4, (2, 2), extra=[[(0, 0), (1, 1)]]).secondary(4)
['x0_1', 'x0_2', 'x0_3', 'x0_4']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .._engine import _validate

__all__ = ["Units"]

Cell = tuple[int, int]


@dataclass(frozen=True)
class Units:
    """A grid's boxes or ``regions`` (a region number per cell, in reading
    order), whether its ``diagonals`` hold every digit once, and its
    ``extra`` regions (each a tuple of cells)."""

    side: int
    box: tuple[int, int]
    regions: tuple[int, ...] | None = None
    diagonals: bool = False
    extra: tuple[tuple[Cell, ...], ...] = ()

    @classmethod
    def of(
        cls,
        side: int,
        box: tuple[int, int],
        *,
        regions: Any = None,
        diagonals: Any = False,
        extra: Any = (),
    ) -> Units:
        """The units as given, checked (see :class:`~solvers.Sudoku`)."""
        drawn = None if regions is None else _read_regions(regions, side)
        return cls(
            side, box, drawn, _validate.flag(diagonals, "diagonals"), _read_extra(extra, side)
        )

    @property
    def plain(self) -> bool:
        """Boxes and nothing more: the classic grid."""
        return self.regions is None and not self.diagonals and not self.extra

    def region(self, r: int, c: int) -> int:
        """The box or jigsaw region of cell ``(r, c)``."""
        if self.regions is not None:
            return self.regions[r * self.side + c]
        high, wide = self.box
        return (r // high) * (self.side // wide) + c // wide

    def units_of(self, r: int, c: int) -> list[tuple[str, int]]:
        """The units of cell ``(r, c)`` beyond its row and column: ``("b", k)``
        its box or region, ``("d", 0)`` / ``("d", 1)`` the diagonals,
        ``("x", j)`` the extra regions."""
        units = [("b", self.region(r, c))]
        if self.diagonals:
            if r == c:
                units.append(("d", 0))
            if r + c == self.side - 1:
                units.append(("d", 1))
        units += [("x", j) for j, cells in enumerate(self.extra) if (r, c) in cells]
        return units

    def marked(self, r: int, c: int) -> bool:
        """Whether cell ``(r, c)`` is on a diagonal of an X-Sudoku or in an
        extra region (shaded in the pictures)."""
        return len(self.units_of(r, c)) > 1

    def items_of(self, r: int, c: int, d: int) -> tuple[str, ...]:
        """The items that digit ``d`` in cell ``(r, c)`` covers beyond its
        cell, row and column."""
        return tuple(f"{kind}{k}_{d}" for kind, k in self.units_of(r, c))

    def primary(self, side: int) -> list[str]:
        """The unit items every grid covers once: regions, diagonals, extra
        regions of ``side`` cells."""
        kinds = [("b", k) for k in range(side)]
        kinds += [("d", 0), ("d", 1)] if self.diagonals else []
        kinds += [("x", j) for j, cells in enumerate(self.extra) if len(cells) == side]
        return [f"{kind}{k}_{d}" for kind, k in kinds for d in range(1, side + 1)]

    def secondary(self, side: int) -> list[str]:
        """The items of the extra regions of fewer cells: each digit at most once."""
        return [
            f"x{j}_{d}"
            for j, cells in enumerate(self.extra)
            if len(cells) < side
            for d in range(1, side + 1)
        ]

    def named(self) -> list[tuple[str, Callable[[int, int], int | None]]]:
        """Each kind of unit: its name in messages, and which of its units
        a cell is in (``None``: none)."""
        units: list[tuple[str, Callable[[int, int], int | None]]] = [
            ("jigsaw region" if self.regions is not None else "box", lambda r, c: self.region(r, c))
        ]
        if self.diagonals:
            units.append(("diagonal", lambda r, c: 0 if r == c else None))
            units.append(("antidiagonal", lambda r, c: 0 if r + c == self.side - 1 else None))
        units += [(f"extra region {j}", _member(cells)) for j, cells in enumerate(self.extra)]
        return units

    def check(self, grid: list[list[int]]) -> None:
        """No digit twice in a unit (``ValueError`` naming the unit and both cells)."""
        for name, which in self.named():
            seen: dict[tuple[int, int], Cell] = {}
            for r, row in enumerate(grid):
                for c, d in enumerate(row):
                    unit = which(r, c) if d else None
                    if unit is None:
                        continue
                    if (unit, d) in seen:
                        place = f"{name} {unit}" if name in ("box", "jigsaw region") else name
                        raise ValueError(
                            f"{place} holds {d} twice: in cells {seen[unit, d]} and {(r, c)}"
                        )
                    seen[unit, d] = (r, c)

    def keywords(self) -> dict[str, Any]:
        """The variant as ``Sudoku``'s keywords (for a pickle, a repr)."""
        shown: dict[str, Any] = {}
        if self.regions is not None:
            shown["regions"] = regions_text(self.regions, self.side)
        if self.diagonals:
            shown["diagonals"] = True
        if self.extra:
            shown["extra"] = [list(cells) for cells in self.extra]
        return shown


def _member(cells: tuple[Cell, ...]) -> Callable[[int, int], int | None]:
    """The test of membership in one extra region (its unit number 0)."""
    inside = frozenset(cells)
    return lambda r, c: 0 if (r, c) in inside else None


def regions_text(regions: tuple[int, ...], side: int) -> str:
    """The regions drawn back, a letter, digit or sign per region (enough
    for the 64 regions of the largest grid)."""
    marks = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&*+-/=?@^~"
    return "\n".join(
        "".join(marks[regions[r * side + c]] for c in range(side)) for r in range(side)
    )


def _read_regions(drawing: Any, side: int) -> tuple[int, ...]:
    """Jigsaw regions drawn as ``side`` lines of ``side`` characters, the
    same character for the cells of one region (spaces ignored): numbered
    in order of first appearance; ``side`` regions of ``side`` cells each."""
    if not isinstance(drawing, str):
        raise TypeError(
            f"regions must be a drawing (a str: one line per row, one character per cell, "
            f"the same character for one region), got {type(drawing).__name__}"
        )
    lines = [line.replace(" ", "") for line in drawing.strip("\n").splitlines()]
    lines = [line for line in lines if line]
    if len(lines) != side or any(len(line) != side for line in lines):
        shape = f"{len(lines)} lines of " + "/".join(sorted({str(len(x)) for x in lines}))
        raise ValueError(
            f"regions must draw the {side}x{side} grid: {side} lines of {side} characters, "
            f"got {shape} characters"
        )
    number: dict[str, int] = {}
    cells = [number.setdefault(ch, len(number)) for line in lines for ch in line]
    sizes = [cells.count(k) for k in range(len(number))]
    if len(number) != side or any(size != side for size in sizes):
        wrong = next((ch for ch, k in number.items() if sizes[k] != side), None)
        detail = f"region {wrong!r} has {sizes[number[wrong]]} cells" if wrong else ""
        raise ValueError(
            f"a grid of side {side} needs {side} regions of {side} cells each; the drawing has "
            f"{len(number)} regions{', ' + detail if detail else ''}"
        )
    return tuple(cells)


def _read_extra(extra: Any, side: int) -> tuple[tuple[Cell, ...], ...]:
    """Extra regions: each an iterable of 2 to ``side`` distinct cells."""
    regions = []
    for j, given in enumerate(_validate.iterable(extra, "extra", "an iterable of regions")):
        cells: list[Cell] = []
        for cell in _validate.iterable(
            given, f"extra region {j}", "an iterable of (row, col) cells"
        ):
            r, c = _validate.items(cell, 2, f"a cell of extra region {j}", "a (row, col) pair")
            r, c = _validate.integer(r, "row"), _validate.integer(c, "col")
            if not (0 <= r < side and 0 <= c < side):
                raise ValueError(f"extra region {j}: cell {(r, c)} is off the {side}x{side} grid")
            if (r, c) in cells:
                raise ValueError(f"extra region {j} holds the cell {(r, c)} twice")
            cells.append((r, c))
        if not 2 <= len(cells) <= side:
            raise ValueError(
                f"extra region {j} has {len(cells)} cells: a region holds 2 to {side} "
                "(each digit at most once; exactly once where it has all of them)"
            )
        regions.append(tuple(cells))
    return tuple(regions)
