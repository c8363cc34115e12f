"""Peg-solitaire boards: the holes, the jumps between them and their symmetries.

A :class:`PegBoard` is a set of holes on one of two grids:

* ``"square"``: holes ``(row, col)`` on a square grid, row 0 at the top; a peg
  jumps over a neighbouring peg in one of the 4 orthogonal directions into an
  empty hole.  Coordinates are those of the board's bounding grid: the top row
  with a hole is row 0 and the leftmost column with a hole is column 0.
* ``"triangle"``: holes ``(r, c)`` with ``0 <= c <= r``, ``(0, 0)`` the top
  corner, row ``r`` holding up to ``r + 1`` holes; jumps run along the three
  lines of the triangular grid, the offsets ``(0, ±1)``, ``(±1, 0)`` and
  ``(1, 1)``/``(-1, -1)``.

Holes are numbered in reading order (row, then column); hole ``i`` is
``board.holes[i]`` and is bit ``i`` of a position in the core, so a board has
at most 64 holes.  Boards are immutable and hashable and compare equal when
they have the same geometry and the same holes.  This module owns the class
and its catalog; the grids, jumps and symmetries are worked out in
:mod:`solvers.peg.geometry`, the text drawings in :mod:`solvers.peg.board_text`.

>>> board = PegBoard.english()
>>> len(board), len(board.jumps), len(board.symmetries), board.center
(33, 76, 8, (3, 3))
>>> print(PegBoard.triangle(4).draw(empty=[(0, 0)]))
   .
  o o
 o o o
o o o o
>>> board, empty = PegBoard.parse_position('''
...     o.o
...     ooo
... ''')
>>> board, sorted(empty)
(PegBoard.rectangle(2, 3), [(0, 1)])
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .._engine import _validate
from .._engine._draw import Drawn
from . import pictures
from .board_text import draw_holes, read_drawing
from .geometry import DIRECTIONS as DIRECTIONS  # read here by tests/peg/test_board.py
from .geometry import (
    GEOMETRIES,
    MAX_HOLES,
    MAX_SPAN,
    Jump,
    Permutation,
    Square,
    centres,
    find_jumps,
    find_symmetries,
    grid,
    too_many,
)

__all__ = ["GEOMETRIES", "MAX_HOLES", "MAX_SPAN", "Hole", "PegBoard", "Square"]

#: A hole, given as a ``(row, col)`` square or as its index in ``board.holes``.
Hole = Square | int


class PegBoard(Drawn):
    """A peg-solitaire board: a set of holes on a square or triangular grid.

    ``PegBoard(holes, geometry="square")`` builds one from ``(row, col)``
    pairs; square boards must have a hole in row 0 and one in column 0 (their
    coordinates are those of the bounding grid), triangle boards need
    ``0 <= col <= row`` for every hole.  Usually a board comes from the catalog
    (:meth:`english`, :meth:`french`, :meth:`wiegleb`, :meth:`diamond`,
    :meth:`triangle`, :meth:`rectangle`) or from a drawing (:meth:`parse`).

    >>> PegBoard([(0, 0), (0, 1), (0, 2)])
    PegBoard.rectangle(1, 3)
    >>> PegBoard([(0, 0), (0, 1), (0, 2)]).jumps
    ((0, 1, 2), (2, 1, 0))
    """

    __slots__ = (
        "_geometry",
        "_holes",
        "_index",
        "_rows",
        "_cols",
        "_jumps",
        "_symmetries",
        "_hash",
    )
    _geometry: str
    _holes: tuple[Square, ...]
    _index: dict[Square, int]
    _rows: int
    _cols: int
    _jumps: tuple[Jump, ...]
    _symmetries: tuple[Permutation, ...]
    _hash: int

    def __init__(self, holes: Iterable[Square], geometry: str = "square") -> None:
        ordered, rows, cols = grid(holes, geometry)
        index = {square: i for i, square in enumerate(ordered)}
        set_ = object.__setattr__
        set_(self, "_geometry", geometry)
        set_(self, "_holes", ordered)
        set_(self, "_index", index)
        set_(self, "_rows", rows)
        set_(self, "_cols", cols)
        set_(self, "_jumps", find_jumps(geometry, index))
        set_(self, "_symmetries", find_symmetries(geometry, ordered, index))
        set_(self, "_hash", hash((geometry, ordered)))

    # ------------------------------------------------------------ immutability

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("PegBoard objects are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("PegBoard objects are immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (PegBoard, (self._holes, self._geometry))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PegBoard):
            return NotImplemented
        return self._geometry == other._geometry and self._holes == other._holes

    def __hash__(self) -> int:
        return self._hash

    # ------------------------------------------------------------ geometry

    @property
    def geometry(self) -> str:
        """``"square"`` or ``"triangle"``."""
        return self._geometry

    @property
    def holes(self) -> tuple[Square, ...]:
        """Every hole ``(row, col)`` in reading order; hole ``i`` is ``holes[i]``."""
        return self._holes

    @property
    def rows(self) -> int:
        """Rows of the bounding grid (of the enclosing triangle for triangle boards)."""
        return self._rows

    @property
    def cols(self) -> int:
        """Columns of the bounding grid (``rows`` for triangle boards)."""
        return self._cols

    @property
    def jumps(self) -> tuple[Jump, ...]:
        """Every jump as ``(from, over, to)`` hole indices, each direction
        separately (``(a, b, c)`` and ``(c, b, a)`` both appear), sorted."""
        return self._jumps

    @property
    def symmetries(self) -> tuple[Permutation, ...]:
        """The symmetry group of the board as permutations of hole indices:
        ``perm[i]`` is the index of the image of hole ``i``.  The identity comes
        first, the others follow in sorted order.  Every permutation maps jumps
        onto jumps.

        >>> len(PegBoard.english().symmetries), len(PegBoard.rectangle(3, 4).symmetries)
        (8, 4)
        >>> len(PegBoard.triangle(5).symmetries)
        6
        """
        return self._symmetries

    def symmetries_fixing(self, *squares: Square | int | None) -> tuple[Permutation, ...]:
        """The symmetries that leave every given square (a ``(row, col)`` pair or a
        hole index) in place; ``None`` arguments are skipped (a finish "anywhere").

        >>> board = PegBoard.english()
        >>> len(board.symmetries_fixing((3, 3))), len(board.symmetries_fixing((2, 4)))
        (8, 2)
        >>> len(board.symmetries_fixing((3, 3), None, (0, 3)))
        2
        """
        fixed = [self.normalize_square(s) for s in squares if s is not None]
        return tuple(p for p in self._symmetries if all(p[i] == i for i in fixed))

    @property
    def center(self) -> Square | None:
        """The hole that every symmetry leaves in place, or ``None`` if there is none.

        >>> PegBoard.english().center, PegBoard.triangle(4).center, PegBoard.triangle(5).center
        ((3, 3), (2, 1), None)
        """
        fixed = [i for i in range(len(self._holes)) if all(p[i] == i for p in self._symmetries)]
        return self._holes[fixed[0]] if len(fixed) == 1 else None

    def __len__(self) -> int:
        return len(self._holes)

    def __iter__(self) -> Iterator[Square]:
        return iter(self._holes)

    def __contains__(self, square: object) -> bool:
        return square in self._index

    def index(self, square: Square) -> int:
        """The index of hole ``(row, col)``.

        >>> PegBoard.english().index((3, 3))
        16
        """
        row, col = _validate.square(square, "square")
        try:
            return self._index[(row, col)]
        except KeyError:
            raise ValueError(f"{(row, col)} is not a hole of {self!r}") from None

    def normalize_square(self, square: Square | int, name: str = "square") -> int:
        """The hole index of ``square``, given as a ``(row, col)`` pair or as a hole
        index; ``TypeError`` for anything else, ``ValueError`` if it is not a
        hole.  ``name`` is the argument name used in the messages.

        >>> board = PegBoard.english()
        >>> board.normalize_square((3, 3)), board.normalize_square(16)
        (16, 16)
        >>> board.normalize_square((0, 0), "start")
        Traceback (most recent call last):
        ...
        ValueError: start (0, 0) is not a hole of PegBoard.english()
        """
        if isinstance(square, bool):
            raise TypeError(f"{name} must be a (row, col) pair or a hole index, not a bool")
        if isinstance(square, (str, bytes)) or not (
            hasattr(square, "__index__") or hasattr(square, "__len__")
        ):
            raise TypeError(
                f"{name} must be a (row, col) pair or a hole index, got {type(square).__name__}"
            )
        if not hasattr(square, "__len__"):
            i = _validate.integer(square, name)
            if not 0 <= i < len(self._holes):
                raise ValueError(
                    f"{name} {i} is not a hole index of {self!r}: "
                    f"hole indices are 0..{len(self._holes) - 1}"
                )
            return i
        row, col = _validate.square(square, name)
        hole = self._index.get((row, col))
        if hole is None:
            raise ValueError(f"{name} {(row, col)} is not a hole of {self!r}")
        return hole

    def normalize_squares(self, squares: Any, name: str = "squares") -> frozenset[int]:
        """Hole indices of a collection of squares (``(row, col)`` pairs or
        hole indices, as :meth:`normalize_square` reads one); one
        ``(row, col)`` tuple counts as one square.

        >>> sorted(PegBoard.rectangle(1, 3).normalize_squares([(0, 2), 0]))
        [0, 2]
        """
        if (
            isinstance(squares, tuple)
            and len(squares) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in squares)
        ):
            return frozenset((self.normalize_square(squares, f"{name} square"),))
        if isinstance(squares, (str, bytes)) or not isinstance(squares, Iterable):
            raise TypeError(
                f"{name} must be a collection of squares ((row, col) pairs or hole indices), "
                f"got {type(squares).__name__}"
            )
        return frozenset(self.normalize_square(s, f"{name} square") for s in squares)

    # ------------------------------------------------------------ the catalog

    @classmethod
    def english(cls) -> PegBoard:
        """The English board: 33 holes in a plus shape on a 7x7 grid, arms 3 wide;
        the centre hole is ``(3, 3)``.

        >>> len(PegBoard.english())
        33
        """
        return cls(_plus(7, 2))

    @classmethod
    def french(cls) -> PegBoard:
        """The French (European) board: 37 holes, the English board plus
        ``(1, 1)``, ``(1, 5)``, ``(5, 1)`` and ``(5, 5)``.

        >>> len(PegBoard.french())
        37
        >>> print(PegBoard.french())
          ooo
         ooooo
        ooooooo
        ooooooo
        ooooooo
         ooooo
          ooo
        """
        return cls(_plus(7, 2) + [(1, 1), (1, 5), (5, 1), (5, 5)])

    @classmethod
    def wiegleb(cls) -> PegBoard:
        """Wiegleb's board: 45 holes in a plus shape on a 9x9 grid, arms 3 wide and
        3 long; the centre hole is ``(4, 4)``.

        >>> len(PegBoard.wiegleb())
        45
        """
        return cls(_plus(9, 3))

    @classmethod
    def diamond(cls, n: int) -> PegBoard:
        """The diamond of the holes ``(r, c)`` with ``|r - (n-1)| + |c - (n-1)| <= n - 1``
        on a ``(2n - 1) x (2n - 1)`` grid: rows of 1, 3, ..., 2n - 1, ..., 3, 1
        holes, ``2n^2 - 2n + 1`` in all (``diamond(5)`` is the 41-hole board).

        >>> len(PegBoard.diamond(5)), len(PegBoard.diamond(3))
        (41, 13)
        """
        n = _validate.positive(n, "n")
        count = 2 * n * n - 2 * n + 1
        if count > MAX_HOLES:
            raise too_many(count, f"diamond({n})")
        m = n - 1
        return cls(
            [
                (r, c)
                for r in range(2 * n - 1)
                for c in range(2 * n - 1)
                if abs(r - m) + abs(c - m) <= m
            ]
        )

    @classmethod
    def triangle(cls, rows: int) -> PegBoard:
        """The triangular board of ``rows`` rows: holes ``(r, c)`` with
        ``0 <= c <= r < rows``, ``rows * (rows + 1) / 2`` in all.

        >>> len(PegBoard.triangle(5))
        15
        """
        rows = _validate.positive(rows, "rows")
        count = rows * (rows + 1) // 2
        if count > MAX_HOLES:
            raise too_many(count, f"triangle({rows})")
        return cls([(r, c) for r in range(rows) for c in range(r + 1)], "triangle")

    @classmethod
    def rectangle(cls, rows: int, cols: int) -> PegBoard:
        """A full ``rows x cols`` board on the square grid.

        >>> len(PegBoard.rectangle(3, 4))
        12
        """
        rows = _validate.positive(rows, "rows")
        cols = _validate.positive(cols, "cols")
        if rows * cols > MAX_HOLES:
            raise too_many(rows * cols, f"rectangle({rows}, {cols})")
        return cls([(r, c) for r in range(rows) for c in range(cols)])

    def _catalog_name(self) -> str | None:
        n, rows, cols = len(self), self._rows, self._cols
        if self._geometry == "triangle":
            if n == rows * (rows + 1) // 2:
                return f"PegBoard.triangle({rows})"
            return None
        if n == rows * cols:
            return f"PegBoard.rectangle({rows}, {cols})"
        if rows == cols == 7 and n == 33 and self == PegBoard.english():
            return "PegBoard.english()"
        if rows == cols == 7 and n == 37 and self == PegBoard.french():
            return "PegBoard.french()"
        if rows == cols == 9 and n == 45 and self == PegBoard.wiegleb():
            return "PegBoard.wiegleb()"
        if rows == cols and rows % 2 == 1:
            m = (rows + 1) // 2
            if n == 2 * m * m - 2 * m + 1 and self == PegBoard.diamond(m):
                return f"PegBoard.diamond({m})"
        return None

    def __repr__(self) -> str:
        name = self._catalog_name()
        if name is not None:
            return name
        return f"PegBoard({len(self)} holes, {self._geometry} {self._rows}x{self._cols})"

    # ------------------------------------------------------------ text

    @classmethod
    def parse(cls, text: str, *, triangle: bool = False) -> PegBoard:
        """Read a board drawn in text: ``o``, ``x`` or ``1`` a hole with a peg,
        ``.`` or ``0`` an empty hole, a space or ``#`` no hole.  The board is the
        set of holes; the pegs drawn are ignored (:meth:`parse_position` returns
        them too).

        Square boards: one character per cell; the coordinates are those of the
        bounding grid of the holes.  With ``triangle=True``: row ``r`` (line
        ``r + 1`` of the drawing) has exactly ``r + 1`` cells, written in the
        usual staggered layout (spaces between cells are ignored; ``#`` marks a
        missing hole).  Leading and trailing blank lines, a common indentation
        and trailing spaces are ignored; errors name the line and column of the
        text as given.

        >>> PegBoard.parse('''
        ...       o
        ...      o o
        ...     o . o
        ... ''', triangle=True)
        PegBoard.triangle(3)
        >>> PegBoard.parse("oo\\noz")
        Traceback (most recent call last):
        ...
        ValueError: line 2, column 2: unexpected 'z' (expected o, x, 1 for a peg, . or 0 for an empty hole, space or # for no hole)
        """  # noqa: E501
        return cls.parse_position(text, triangle=triangle)[0]

    @classmethod
    def parse_position(
        cls, text: str, *, triangle: bool = False
    ) -> tuple[PegBoard, frozenset[Square]]:
        """Read a drawn position: ``(board, empty)`` where ``empty`` is the set of
        the holes drawn empty (``.`` or ``0``).  See :meth:`parse`.

        >>> board, empty = PegBoard.parse_position('''
        ...       .
        ...      o o
        ...     o . o
        ... ''', triangle=True)
        >>> sorted(empty)
        [(0, 0), (2, 1)]
        """
        cells = read_drawing(text, triangle=triangle)
        board = cls(cells, "triangle" if triangle else "square")
        return board, frozenset(square for square, peg in cells.items() if not peg)

    def draw(self, empty: Iterable[Square | int] = ()) -> str:
        """The board as text with a peg (``o``) in every hole but those in
        ``empty`` (``(row, col)`` pairs or hole indices; one ``(row, col)`` tuple
        is taken as one square), drawn ``.``.  :meth:`parse_position` reads it back.

        >>> print(PegBoard.english().draw(empty=(3, 3)))
          ooo
          ooo
        ooooooo
        ooo.ooo
        ooooooo
          ooo
          ooo
        """
        gone = {self._holes[i] for i in self.normalize_squares(empty, "empty")}
        return draw_holes(self._geometry, self._rows, self._cols, self._index, gone)

    def __str__(self) -> str:
        return self.draw()

    # ------------------------------------------------------------ pictures

    def centres(self, size: float) -> tuple[float, float, list[tuple[float, float]]]:
        """Picture width, height and the centre of every hole, in
        :attr:`holes` order, when neighbouring holes are ``size`` apart (the
        layout :mod:`solvers.peg.pictures` draws).

        >>> PegBoard.rectangle(1, 2).centres(10)
        (20, 10, [(5.0, 5.0), (15.0, 5.0)])
        """
        return centres(self._geometry, self._rows, self._cols, self._holes, size)

    def to_svg(self, empty: Iterable[Square | int] = (), *, cell: float | None = None) -> str:
        """An SVG picture of the board with a peg (a filled disc) in every hole
        but those in ``empty`` (hollow circles); ``cell`` is the distance between
        neighbouring holes in pixels (automatic by default).  See
        :func:`solvers.peg.pictures.peg_position_svg`.

        >>> PegBoard.triangle(3).to_svg(empty=[(0, 0)]).count("<circle")
        6
        """
        return pictures.peg_position_svg(self, empty, cell=cell)


def _plus(side: int, arm: int) -> list[Square]:
    """The plus shape on a ``side x side`` grid whose corners of ``arm x arm``
    cells are cut away."""
    low, high = arm, side - arm
    return [(r, c) for r in range(side) for c in range(side) if low <= r < high or low <= c < high]
