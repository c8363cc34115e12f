"""A placement of queens as a result: :class:`Placement` (an immutable sequence
of columns with its pictures) and :func:`is_queens_solution`, the check of any
list of columns in O(n)."""

from __future__ import annotations

import functools
from array import array
from collections.abc import Iterable
from typing import Any, overload

from .. import _core
from .._engine import _packing, _validate
from .._engine._draw import Drawn
from .._engine._sequence import Stored
from . import pictures


def is_queens_solution(cols: Iterable[int]) -> bool:
    """Whether ``cols`` (the column of the queen in each row) places ``len(cols)``
    queens on an ``n x n`` board with no two attacking each other.  O(n).

    >>> is_queens_solution([1, 3, 0, 2]), is_queens_solution([0, 1, 2, 3])
    (True, False)
    """
    if isinstance(cols, Placement):
        return cols.verify()
    packed = array("I")
    n = 0
    for row, col in enumerate(_validate.iterable(cols, "cols", _COLUMNS)):
        col = _validate.integer(col, f"column of row {row}")
        n += 1
        if col < 0 or col >= 2**32:
            return False
        packed.append(col)
    if n == 0:
        return False
    return _defect(packed) is None


_COLUMNS = "an iterable of column numbers, one per row"


def _defect(cols: array[int]) -> str | None:
    return _core.placement_defect(_packing.pack(cols))


@functools.total_ordering
class Placement(Stored[int], Drawn):
    """A placement of queens: an immutable sequence of columns, one per row.

    Columns are kept packed (4 bytes a queen), so ten million queens cost
    40 MB.  Placements compare like tuples of their columns (``==``, ``<``)
    and hash alike when equal (a placement is not equal to a tuple), pickle,
    print as a board (for small n) and draw themselves as SVG.

    >>> p = Placement([1, 3, 0, 2])
    >>> print(p)
    . Q . .
    . . . Q
    Q . . .
    . . Q .
    >>> p.squares
    ((0, 1), (1, 3), (2, 0), (3, 2))
    """

    __slots__ = ("_cols", "_hash")

    def __init__(self, cols: Iterable[int]) -> None:
        packed = array("I")
        for row, col in enumerate(_validate.iterable(cols, "cols", _COLUMNS)):
            col = _validate.integer(col, f"column of row {row}")
            if col < 0 or col >= 2**32:
                raise ValueError(f"row {row}: column {col} is off the board")
            packed.append(col)
        problem = _defect(packed)
        if problem is not None:
            raise ValueError(f"not an n-queens solution: {problem}")
        self._cols = packed
        self._hash: int | None = None

    @classmethod
    def _from_columns(cls, cols: array[int]) -> Placement:
        placement = cls.__new__(cls)
        placement._cols = cols
        placement._hash = None
        return placement

    def __reduce__(self) -> tuple[Any, ...]:
        # Packed as the core's wire format; trusted on the way back, as every
        # pickle is (it can run any code).
        return (_placement, (_packing.pack(self._cols),))

    @property
    def n(self) -> int:
        return len(self._cols)

    @property
    def squares(self) -> tuple[tuple[int, int], ...]:
        """The queens as a tuple of ``(row, col)`` squares, row by row, as
        :attr:`Tour.squares <solvers.Tour.squares>`."""
        return tuple(enumerate(self._cols))

    def columns(self) -> array[int]:
        """The columns as an ``array('I')`` (a copy)."""
        return array("I", self._cols)

    def verify(self) -> bool:
        """Check the placement again from scratch (in Rust, O(n))."""
        return _defect(self._cols) is None

    def _stored(self) -> array[int]:
        return self._cols

    @overload
    def __getitem__(self, i: int) -> int: ...
    @overload
    def __getitem__(self, i: slice) -> list[int]: ...
    def __getitem__(self, i: int | slice) -> int | list[int]:
        if isinstance(i, slice):
            return list(self._cols[i])
        return self._cols[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placement):
            return self._cols == other._cols
        return NotImplemented

    def __lt__(self, other: object) -> bool:
        if isinstance(other, Placement):
            return self._cols < other._cols
        return NotImplemented

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._cols.tobytes())
        return self._hash

    def __repr__(self) -> str:
        if len(self) <= 32:
            return f"Placement({', '.join(map(str, self._cols))})"
        return f"<Placement of {len(self)} queens>"

    def __str__(self) -> str:
        return pictures.placement_text(self)

    def to_svg(self, *, cell: float | None = None) -> str:
        """The placement as an SVG picture of the board with its queens."""
        return pictures.placement_svg(self, cell=cell)


def _placement(packed: bytes) -> Placement:
    """A pickled :class:`Placement` back."""
    return Placement._from_columns(_packing.unpack(packed))
