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

import functools
import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from .._engine import _validate
from .._engine._draw import Drawn
from . import pictures, sudoku_make, sudoku_symmetry
from .model import Model, Stated
from .symmetry import maps_options

__all__ = ["MAX_SIDE", "Sudoku"]

#: The largest side of a grid (its options grow as the cube of the side).
MAX_SIDE = 64

#: The characters of a puzzle's string that stand for a blank cell.
BLANKS = ".0_"
#: Drawing characters a puzzle's string may hold between cells (ignored).
DECORATION = "|+-"

Grid = tuple[tuple[int, ...], ...]

#: Where each cell given as a character was typed: ``(row, col)`` to the
#: character and its place in the text ("line 1, column 3"), so that an
#: error can name what was typed rather than the number it stands for.
Typed = dict[tuple[int, int], tuple[str, str]]


def symbols(side: int) -> str:
    """The symbols of a grid of ``side``, in words.

    >>> symbols(4), symbols(9), symbols(10), symbols(16)
    ('1-4', '1-9', '1-9 and A', '1-9 and A-G')
    """
    digits = f"1-{min(side, 9)}" if side > 1 else "1"
    if side <= 9:
        return digits
    last = pictures.SYMBOLS[min(side, len(pictures.SYMBOLS)) - 1]
    return f"{digits} and {'A' if last == 'A' else f'A-{last}'}"


def _shape(box: Any) -> tuple[int, int]:
    """A box shape ``(rows, cols)`` given as a pair or as text ``"RxC"``."""
    if isinstance(box, str):
        parts = box.lower().split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"box must be written RxC (like 2x3), got {box!r}")
        high, wide = int(parts[0]), int(parts[1])
        if high < 1 or wide < 1:
            raise ValueError(f"box {box!r} must be at least 1x1")
        return high, wide
    high, wide = _validate.items(box, 2, "box", "a (rows, cols) pair or 'RxC'")
    return _validate.positive(high, "box rows"), _validate.positive(wide, "box cols")


def _box(box: Any, side: int) -> tuple[int, int]:
    """The box shape ``(rows, cols)`` for a grid of ``side``: as given (a
    pair, or text ``"RxC"``), else the most nearly square shape, its rows
    fewer (a 6 x 6 grid has boxes 2 high and 3 wide)."""
    if box is None:
        high = max(d for d in range(1, math.isqrt(side) + 1) if side % d == 0)
        return high, side // high
    high, wide = _shape(box)
    if high * wide != side:
        raise ValueError(
            f"box {high}x{wide} does not fit a grid of side {side}: its rows times its "
            f"columns must be {side}"
        )
    return high, wide


def _digit(char: str, where: str) -> int:
    if char in BLANKS:
        return 0
    if char.isascii() and char.isalnum():
        return int(char, 36)
    raise ValueError(
        f"{where}: unexpected {char!r} (digits 1-9 then letters A-Z, "
        f"{', '.join(BLANKS)} for a blank; spaces and {DECORATION} are ignored)"
    )


def _from_string(text: str, typed: Typed) -> list[list[int]]:
    cells = []
    places = []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines() or [""], start=1):
        for column, char in enumerate(line, start=1):
            if not char.isspace() and char not in DECORATION:
                where = f"line {number}, column {column}"
                cells.append(_digit(char, where))
                places.append((char, where))
    side = math.isqrt(len(cells))
    if not cells or side * side != len(cells):
        raise ValueError(
            f"a Sudoku has side x side cells; this one has {len(cells)} (not a square number)"
        )
    for k, place in enumerate(places):
        typed[divmod(k, side)] = place
    return [cells[r * side : (r + 1) * side] for r in range(side)]


def _from_rows(rows: Any, typed: Typed) -> list[list[int]]:
    given = list(_validate.iterable(rows, "puzzle", "a str or a list of rows"))
    grid = []
    for r, row in enumerate(given):
        if isinstance(row, str):
            grid.append([_digit(ch, f"row {r}, column {c}") for c, ch in enumerate(row)])
            for c, ch in enumerate(row):
                typed[r, c] = ch, f"row {r}, column {c}"
            continue
        values = _validate.iterable(row, f"row {r}", "a list of digits (0 or None for a blank)")
        grid.append(
            [
                0 if d is None else _validate.integer(d, f"row {r}, column {c}")
                for c, d in enumerate(values)
            ]
        )
    side = len(grid)
    for r, row in enumerate(grid):
        if len(row) != side:
            raise ValueError(
                f"a Sudoku is square: it has {side} rows, row {r} has {len(row)} cells"
            )
    return grid


def _check(grid: list[list[int]], box: tuple[int, int], typed: Typed | None = None) -> None:
    """Every digit in range, none twice in a row, column or box.  A digit
    out of range that was typed as a character (``typed``) is named as typed."""
    side = len(grid)
    for r, row in enumerate(grid):
        for c, d in enumerate(row):
            if not 0 <= d <= side and typed and (r, c) in typed:
                char, where = typed[r, c]
                raise ValueError(
                    f"{where}: {char!r} is not a symbol of a {side} x {side} Sudoku: its "
                    f"symbols are {symbols(side)} ({', '.join(BLANKS)} for a blank)"
                )
            if not 0 <= d <= side:
                raise ValueError(
                    f"cell ({r}, {c}) holds {d}: the digits of a side-{side} grid are 1 to {side} "
                    "(0 for a blank)"
                )
    high, wide = box
    units: dict[str, Callable[[int, int], int]] = {
        "row": lambda r, c: r,
        "column": lambda r, c: c,
        "box": lambda r, c: (r // high) * (side // wide) + c // wide,
    }
    for unit, which in units.items():
        seen: dict[tuple[int, int], tuple[int, int]] = {}
        for r, row in enumerate(grid):
            for c, d in enumerate(row):
                if d:
                    key = (which(r, c), d)
                    if key in seen:
                        raise ValueError(
                            f"{unit} {key[0]} holds {d} twice: in cells {seen[key]} and {(r, c)}"
                        )
                    seen[key] = (r, c)


class Sudoku(Model["Sudoku"], Drawn):
    """A Sudoku grid of side ``n``, boxes ``r x c`` with ``r * c = n``: a
    puzzle (0 for a blank) or a solution.

    ``puzzle``: a string of the cells in reading order (digits 1-9 then
    letters A-Z, ``.``, ``0`` or ``_`` a blank; spaces, line breaks and
    ``| + -`` ignored, so the grid may be drawn), or a list of rows (each a
    list of ints, 0 or None a blank, or a string).  ``box``: ``(r, c)`` or
    ``"RxC"``; by default the most nearly square shape, fewer rows than
    columns (2x3 for side 6), 1 x n for a prime side (a Latin square).

    :meth:`count`, :meth:`solutions`, :meth:`find`, :meth:`is_unique` and
    :meth:`exact_cover` come from the exact-cover functions; :meth:`solve`
    is the first solution.  Solutions are grids too, remembering which
    digits were given (drawn darker in :meth:`to_svg`).
    """

    __slots__ = ("box", "given", "grid")

    grid: Grid
    given: tuple[tuple[bool, ...], ...]
    box: tuple[int, int]

    def __init__(self, puzzle: Any, *, box: Any = None) -> None:
        typed: Typed = {}
        grid = _from_string(puzzle, typed) if isinstance(puzzle, str) else _from_rows(puzzle, typed)
        side = len(grid)
        if side == 0:
            raise ValueError("a Sudoku needs at least one cell")
        if side > MAX_SIDE:
            raise ValueError(f"a Sudoku may have a side of at most {MAX_SIDE}, this one has {side}")
        shape = _box(box, side)
        _check(grid, shape, typed)
        given = tuple(tuple(d != 0 for d in row) for row in grid)
        self._set(tuple(map(tuple, grid)), given, shape)

    def _set(self, grid: Grid, given: tuple[tuple[bool, ...], ...], box: tuple[int, int]) -> None:
        object.__setattr__(self, "grid", grid)
        object.__setattr__(self, "given", given)
        object.__setattr__(self, "box", box)

    @classmethod
    def _of(cls, grid: list[list[int]], box: tuple[int, int]) -> Sudoku:
        """A grid known to be valid (the generator's, a solution with clues
        taken away): not read and checked again."""
        made = cls.__new__(cls)
        made._set(tuple(map(tuple, grid)), tuple(tuple(map(bool, row)) for row in grid), box)
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
        high, wide = _shape(box)
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
        the boxes whole) that map the given digits onto themselves: all 8
        for a blank grid of square boxes.  ``count(unique=True)`` counts up
        to them.

        >>> Sudoku.empty((2, 2)).count(unique=True)   # 288 grids
        39
        """
        problem = self.exact_cover()
        high, wide = self.box
        return [
            items
            for items in sudoku_symmetry.grid_symmetries(self.side, high, wide)
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
        once in every row, column and box."""
        if self.blanks:
            return False
        try:
            _check([list(row) for row in self.grid], self.box)
        except ValueError:
            return False
        return True

    def solve(self, *, timeout: float | None = None) -> Sudoku | None:
        """The first solution (in the order of :meth:`solutions`), or ``None``."""
        return self.find(deterministic=True, threads=1, timeout=timeout)

    def _state(self) -> Stated:
        side = self.side
        high, wide = self.box
        named, primary = _items(side, high, wide)
        per_row = side // wide
        # The digits each row, column and box holds, as bits.
        rows, cols, boxes = [0] * side, [0] * side, [0] * side
        for r, row in enumerate(self.grid):
            for c, d in enumerate(row):
                if d:
                    bit = 1 << d
                    rows[r] |= bit
                    cols[c] |= bit
                    boxes[(r // high) * per_row + c // wide] |= bit
        options, meanings = [], []
        digits = range(1, side + 1)
        for r, row in enumerate(self.grid):
            for c, given in enumerate(row):
                if given:
                    options.append(named[r][c][given - 1])
                    meanings.append((r, c, given))
                    continue
                taken = rows[r] | cols[c] | boxes[(r // high) * per_row + c // wide]
                for d in digits:
                    if not taken >> d & 1:
                        options.append(named[r][c][d - 1])
                        meanings.append((r, c, d))
        # every item is listed: one that no option reaches (a cell the givens
        # leave no digit) makes a puzzle without a solution, as it should
        return options, meanings, list(primary), ()

    def _result(self, meanings: list[Any]) -> Sudoku:
        grid = [list(row) for row in self.grid]
        for r, c, d in meanings:
            grid[r][c] = d
        solved = object.__new__(Sudoku)
        solved._set(tuple(map(tuple, grid)), self.given, self.box)
        return solved

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sudoku):
            return (self.grid, self.box, self.given) == (other.grid, other.box, other.given)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.grid, self.box, self.given))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_sudoku, (self.grid, self.given, self.box))

    def __repr__(self) -> str:
        side = self.side
        if side > 9:
            return (
                f"<Sudoku {side}x{side}, boxes {self.box[0]}x{self.box[1]}, {self.blanks} blanks>"
            )
        cells = "".join(pictures.symbol(d, side) for row in self.grid for d in row)
        return f"Sudoku({cells!r}, box={self.box})"

    def __str__(self) -> str:
        return pictures.sudoku_text(self.grid, self.box)

    def to_svg(self, *, cell: float | None = None) -> str:
        """The grid as an SVG picture: given digits dark, filled-in ones blue."""
        return pictures.sudoku_svg(self.grid, self.given, self.box, repr(self), cell=cell)


def _sudoku(grid: Grid, given: Sequence[Sequence[bool]], box: tuple[int, int]) -> Sudoku:
    """A pickled :class:`Sudoku` back (checked again)."""
    sudoku = Sudoku([list(row) for row in grid], box=box)
    sudoku._set(sudoku.grid, tuple(map(tuple, given)), sudoku.box)
    return sudoku


#: Each digit's option in each cell, ``[r][c][d - 1]``.
Named = tuple[tuple[tuple[tuple[str, str, str, str], ...], ...], ...]


@functools.lru_cache(maxsize=16)
def _items(side: int, high: int, wide: int) -> tuple[Named, tuple[str, ...]]:
    """The option of each digit ``d`` in each cell ``(r, c)`` (``[r][c][d - 1]``:
    the cell, and ``d`` in its row, column and box) and every item, named
    once for each shape of grid (naming them cost most of a puzzle's time)."""
    per_row = side // wide
    named = tuple(
        tuple(
            tuple(
                (f"p{r}_{c}", f"r{r}_{d}", f"c{c}_{d}", f"b{(r // high) * per_row + c // wide}_{d}")
                for d in range(1, side + 1)
            )
            for c in range(side)
        )
        for r in range(side)
    )
    cells = [f"p{r}_{c}" for r in range(side) for c in range(side)]
    units = [f"{kind}{i}_{d}" for kind in "rcb" for i in range(side) for d in range(1, side + 1)]
    return named, (*cells, *units)
