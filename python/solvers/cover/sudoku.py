"""Sudoku of any box shape as exact cover: :class:`Sudoku`, a grid (a puzzle
with blanks, or a solution) that counts, lists and finds its solutions and
draws itself.

A grid of side ``n = r * c`` is split into boxes ``r`` rows high and ``c``
columns wide; each row, column and box holds each digit 1..n once.  Stated
as exact cover (Knuth, TAOCP 7.2.2.1): the primary items are ``p{r}_{c}``
(cell (r, c) is filled), ``r{r}_{d}``, ``c{c}_{d}`` and ``b{b}_{d}`` (row,
column, box holds digit d; boxes numbered in reading order); one option per
cell and digit the givens allow, a given cell having its digit only.

>>> puzzle = Sudoku('''
...     1 2 | 3 .
...     . . | . .
...     ----+----
...     . . | . .
...     4 . | . 1
... ''')
>>> puzzle.box, puzzle.blanks, puzzle.is_unique()
((2, 2), 11, True)
>>> print(puzzle.solve())
1 2 | 3 4
3 4 | 1 2
----+----
2 1 | 4 3
4 3 | 2 1
>>> Sudoku("12..34..2....3.1").count()
2
>>> Sudoku.empty((2, 2)).count()   # every 4 x 4 grid
288
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from .._engine import _validate
from .._engine._draw import Drawn
from .._engine._value import Valued
from . import pictures, sudoku_make, sudoku_numbering, sudoku_symmetry
from .find import first_covers
from .model import Model, Stated
from .problem import ExactCover
from .result import Cover
from .sudoku_reading import (
    Grid,
    Typed,
    box_of,
    box_shape,
    check_givens,
    grid_from_rows,
    grid_from_text,
)
from .sudoku_units import Units
from .symmetry import maps_options

__all__ = ["MAX_SIDE", "Sudoku"]

#: The largest side of a grid (its options grow as the cube of the side).
MAX_SIDE = 64


class Sudoku(Model["Sudoku"], Valued, Drawn):
    """A Sudoku grid of side ``n``, boxes ``r x c`` with ``r * c = n``: a
    puzzle (0 for a blank) or a solution.

    ``puzzle``: a string of the cells in reading order (digits 1-9 then
    letters A-Z, ``.``, ``0`` or ``_`` a blank; spaces, line breaks and
    ``| + -`` ignored, so the grid may be drawn), or a list of rows (each a
    list of ints, 0 or None a blank, or a string).  ``box``: ``(r, c)`` or
    ``"RxC"``; by default the most nearly square shape, fewer rows than
    columns (2x3 for side 6), 1 x n for a prime side (a Latin square).

    Variants, as constraints beside the rows and columns
    (:mod:`~solvers.cover.sudoku_units`): ``regions``, a drawing of the
    grid with one character per cell, the same for the cells of one jigsaw
    region, replaces the boxes; ``diagonals=True`` has both diagonals hold
    every digit once (X-Sudoku); ``extra``, groups of cells that hold each
    digit at most once (exactly once where a group has ``n`` cells: a
    windoku's windows).

    :meth:`count`, :meth:`solutions`, :meth:`find`, :meth:`is_unique` and
    :meth:`exact_cover` come from the exact-cover functions; :meth:`solve`
    is the first solution.  Solutions are grids too, remembering which
    digits were given (drawn darker in :meth:`to_svg`).

    >>> Sudoku("." * 16, diagonals=True).count()   # 4x4 X-Sudoku grids
    48
    """

    __slots__ = ("_two", "box", "given", "grid", "units")

    grid: Grid
    given: tuple[tuple[bool, ...], ...]
    box: tuple[int, int]
    units: Units
    _two: list[Cover]  # the first two solutions' covers, once solve() looked

    def __init__(
        self,
        puzzle: Any,
        *,
        box: Any = None,
        regions: Any = None,
        diagonals: bool = False,
        extra: Any = (),
    ) -> None:
        typed: Typed = {}
        grid = (
            grid_from_text(puzzle, typed)
            if isinstance(puzzle, str)
            else grid_from_rows(puzzle, typed)
        )
        side = len(grid)
        if side == 0:
            raise ValueError("a Sudoku needs at least one cell")
        if side > MAX_SIDE:
            raise ValueError(f"a Sudoku may have a side of at most {MAX_SIDE}, this one has {side}")
        if regions is not None and box is not None:
            raise ValueError(
                "give box= or regions= (jigsaw regions in place of the boxes), not both"
            )
        shape = box_of(box, side)
        units = Units.of(side, shape, regions=regions, diagonals=diagonals, extra=extra)
        check_givens(grid, units, typed)
        given = tuple(tuple(d != 0 for d in row) for row in grid)
        self._set(tuple(map(tuple, grid)), given, units)

    def _set(self, grid: Grid, given: tuple[tuple[bool, ...], ...], units: Units) -> None:
        object.__setattr__(self, "grid", grid)
        object.__setattr__(self, "given", given)
        object.__setattr__(self, "box", units.box)
        object.__setattr__(self, "units", units)

    @classmethod
    def _of(cls, grid: list[list[int]], units: Units) -> Sudoku:
        """A grid known to be valid (the generator's, a solution with clues
        taken away): not read and checked again."""
        made = cls.__new__(cls)
        made._set(tuple(map(tuple, grid)), tuple(tuple(map(bool, row)) for row in grid), units)
        return made

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("a Sudoku is immutable")

    @classmethod
    def empty(cls, box: Any = (3, 3)) -> Sudoku:
        """The grid with no digit given, of boxes ``box`` (its solutions
        are every Sudoku grid of that shape).

        >>> Sudoku.empty("2x3").side
        6
        """
        high, wide = box_shape(box)
        side = high * wide
        if side > MAX_SIDE:
            raise ValueError(f"a Sudoku may have a side of at most {MAX_SIDE}, this one has {side}")
        return cls([[0] * side for _ in range(side)], box=(high, wide))

    @classmethod
    def generate(
        cls,
        box: Any = (3, 3),
        *,
        seed: Any,
        clues: int | None = None,
        symmetric: bool = False,
        timeout: float | None = None,
    ) -> Sudoku:
        """A puzzle with exactly one solution, made from ``seed`` (an int,
        str or bytes: the same seed gives the same puzzle): minimal (no clue
        can be taken away) unless ``clues`` asks to stop taking them away at
        that many; with ``symmetric`` its clues stand in pairs under the half
        turn.  ``timeout``: seconds, then ``TimeoutError`` (a 9x9 takes
        about 45 ms; grids of side 25 and more can take very long).  See
        :mod:`solvers.cover.sudoku_make` for how.

        >>> puzzle = Sudoku.generate((2, 2), seed=7)
        >>> puzzle.is_unique(), puzzle == Sudoku.generate((2, 2), seed=7)
        (True, True)
        """
        return sudoku_make.generate(cls.empty(box), seed, clues, symmetric, timeout)

    @classmethod
    def essentially_different(cls, box: Any = (2, 2), *, relabel: bool = True, **run: Any) -> int:
        """The number of grids of boxes ``box`` up to the group that keeps
        every grid a grid: permutations of the rows within a band of boxes,
        of the bands, of the columns within a stack and of the stacks, the
        transposition where boxes are square, and with ``relabel`` the
        digits (:mod:`solvers.cover.sudoku_symmetry`).  ``run``: the run
        options of :func:`~solvers.count_covers`.  The group may have at most
        :data:`~solvers.cover.symmetry.MAX_GROUP` elements: 3,072 for side 4,
        millions from side 6 on (refused).

        >>> Sudoku.essentially_different((2, 2)), Sudoku.empty((2, 2)).count()
        (2, 288)
        """
        blank = cls.empty(box)
        high, wide = blank.box
        moves = sudoku_symmetry.whole_group(
            blank.side, high, wide, _validate.flag(relabel, "relabel")
        )
        return blank.count(symmetries=moves, **run)

    def symmetries(self) -> list[dict[Hashable, Hashable]]:
        """The grid's symmetries of the square (turns and flips that keep
        the boxes, or the variant's units, whole) that map the given digits onto themselves: all 8
        for a blank grid of square boxes.  ``count(unique=True)`` counts up
        to them.

        >>> Sudoku.empty((2, 2)).count(unique=True)   # 288 grids
        39
        """
        problem = self.exact_cover()
        return [
            items
            for items in sudoku_symmetry.grid_symmetries(self.units)
            if maps_options(problem, items)
        ]

    @property
    def side(self) -> int:
        return len(self.grid)

    @property
    def blanks(self) -> int:
        """The number of blank cells."""
        return sum(d == 0 for row in self.grid for d in row)

    def verify(self) -> bool:
        """Whether the grid is a solved Sudoku: every cell filled, each digit
        once in every row, column and box (and the variant's units)."""
        if self.blanks:
            return False
        try:
            check_givens([list(row) for row in self.grid], self.units)
        except ValueError:
            return False
        return True

    def solve(self, *, timeout: float | None = None) -> Sudoku | None:
        """The first solution (in the order of :meth:`solutions`), or ``None``.
        The search goes on to a second solution or the end (a fifth or so
        more work on hard puzzles), and remembers: :meth:`is_unique` then
        answers at once."""
        first = self._first_two(timeout)
        return self.read(first[0]) if first else None

    def is_unique(self, *, timeout: float | None = None) -> bool:
        """Whether there is exactly one solution (known at once after
        :meth:`solve`; else a count that stops at two)."""
        try:
            return len(self._two) == 1
        except AttributeError:
            return super().is_unique(timeout=timeout)

    def _first_two(self, timeout: float | None) -> list[Cover]:
        try:
            return self._two
        except AttributeError:
            two = first_covers(self.exact_cover(), 2, timeout=timeout)
            object.__setattr__(self, "_two", two)
            return two

    def _numbered(self) -> tuple[ExactCover, list[Any]] | None:
        if not self.units.plain:
            return None  # a variant's units: stated option by option
        return sudoku_numbering.numbered(self.grid, self.box)

    def _state(self) -> Stated:
        return _variant_state(self.grid, self.units)

    def _result(self, meanings: list[Any]) -> Sudoku:
        grid = [list(row) for row in self.grid]
        for r, c, d in meanings:
            grid[r][c] = d
        solved = object.__new__(Sudoku)
        solved._set(tuple(map(tuple, grid)), self.given, self.units)
        return solved

    def _key(self) -> tuple[Any, ...]:
        return (self.grid, self.units, self.given)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_sudoku, (self.grid, self.given, self.box, self.units.keywords()))

    def __repr__(self) -> str:
        side = self.side
        if side > 9:
            return (
                f"<Sudoku {side}x{side}, boxes {self.box[0]}x{self.box[1]}, {self.blanks} blanks>"
            )
        cells = "".join(pictures.symbol(d, side) for row in self.grid for d in row)
        variant = "".join(f", {key}={value!r}" for key, value in self.units.keywords().items())
        shape = "" if self.units.regions is not None else f", box={self.box}"
        return f"Sudoku({cells!r}{shape}{variant})"

    def __str__(self) -> str:
        jigsaw = self.units.regions is not None  # no box lines: the regions are not boxes
        return pictures.sudoku_text(self.grid, (self.side, self.side) if jigsaw else self.box)

    def to_svg(self, *, cell: float | None = None) -> str:
        """The grid as an SVG picture: given digits dark, filled-in ones
        blue, jigsaw regions outlined, diagonals and extra regions shaded."""
        units = self.units
        marked = {(r, c) for r in range(self.side) for c in range(self.side) if units.marked(r, c)}
        return pictures.sudoku_svg(
            self.grid,
            self.given,
            self.box,
            repr(self),
            cell=cell,
            regions=units.regions,
            marked=marked,
        )


def _sudoku(
    grid: Grid,
    given: Sequence[Sequence[bool]],
    box: tuple[int, int],
    variant: dict[str, Any] | None = None,
) -> Sudoku:
    """A pickled :class:`Sudoku` back (checked again)."""
    variant = variant or {}
    shape = None if "regions" in variant else box
    sudoku = Sudoku([list(row) for row in grid], box=shape, **variant)
    sudoku._set(sudoku.grid, tuple(map(tuple, given)), sudoku.units)
    return sudoku


def _variant_state(grid: Grid, units: Units) -> Stated:
    """The options of a variant's grid: a cell's digit covers its cell, row
    and column and each of its units, and is an option unless a given digit
    of one of those already holds it."""
    side = len(grid)
    cells = [(r, c) for r in range(side) for c in range(side)]
    unit_of = {cell: [("r", cell[0]), ("c", cell[1]), *units.units_of(*cell)] for cell in cells}
    taken: set[tuple[str, int, int]] = set()
    for r, c in cells:
        if grid[r][c]:
            taken.update((kind, k, grid[r][c]) for kind, k in unit_of[r, c])
    options, meanings = [], []
    for r, c in cells:
        digits = [grid[r][c]] if grid[r][c] else range(1, side + 1)
        for d in digits:
            if grid[r][c] or not any((kind, k, d) in taken for kind, k in unit_of[r, c]):
                options.append((f"p{r}_{c}", f"r{r}_{d}", f"c{c}_{d}", *units.items_of(r, c, d)))
                meanings.append((r, c, d))
    named_cells = [f"p{r}_{c}" for r, c in cells]
    lines = [f"{kind}{i}_{d}" for kind in "rc" for i in range(side) for d in range(1, side + 1)]
    return options, meanings, [*named_cells, *lines, *units.primary(side)], units.secondary(side)
