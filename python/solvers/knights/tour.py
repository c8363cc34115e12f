"""A knight's tour as a result: :class:`Tour` (an immutable sequence of
squares with its pictures) and :func:`is_tour`, the check of any list of squares."""

from __future__ import annotations

import functools
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, overload

from .. import _core
from .._engine import _packing, _validate
from .._engine._draw import Drawn
from . import pictures
from .board import KnightBoard, Square


def is_tour(
    squares: Iterable[Square],
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    closed: bool = False,
) -> bool:
    """Whether ``squares`` visits every square of the board once by knight moves
    (and, with ``closed=True``, ends a knight's move from its start).

    A :class:`Tour` carries its board, so ``is_tour(tour)`` needs no size.

    >>> is_tour([(2, 0), (1, 2), (0, 0), (2, 1), (1, 3), (0, 1),
    ...          (2, 2), (0, 3), (1, 1), (2, 3), (0, 2), (1, 0)], 3, 4)
    True
    >>> is_tour([(0, 0), (1, 2)], 3, 4)
    False
    """
    closed = _validate.flag(closed, "closed")
    if isinstance(squares, Tour) and rows is None and cols is None and board is None:
        return squares.verify(closed=closed)
    kb = KnightBoard.from_args(rows, cols, board)
    order = array("I")
    for step, item in enumerate(_validate.iterable(squares, "squares", _SQUARES)):
        row, col = _validate.square(item, f"square {step}")
        if not kb.is_square(row, col):
            return False
        order.append(row * kb.cols + col)
    return _defect(kb, order, closed) is None


_SQUARES = "an iterable of (row, col) squares"


def _defect(kb: KnightBoard, order: array[int], closed: bool) -> str | None:
    return _core.tour_defect(kb.spec, _packing.pack(order), closed)


@functools.total_ordering
class Tour(Sequence[Square], Drawn):
    """A knight's tour: an immutable sequence of ``(row, col)`` squares.

    Tours keep their squares packed (4 bytes each), so a million-square tour
    costs 4 MB, not a million tuples.  They compare (``==``, ``<``: by board,
    then squares) and hash by board and squares, pickle, print as the board
    with move numbers, and draw themselves as SVG.

    >>> from solvers import tours
    >>> tour = next(tours(3, 4))
    >>> print(tour)
      3  6 11  8
     12  9  2  5
      1  4  7 10
    >>> tour[0], tour[-1], tour.closed
    ((2, 0), (1, 0), False)
    """

    __slots__ = ("_board", "_order", "_hash")

    def __init__(
        self,
        squares: Iterable[Square],
        rows: int | None = None,
        cols: int | None = None,
        *,
        board: str | KnightBoard | None = None,
    ) -> None:
        kb = KnightBoard.from_args(rows, cols, board)
        order = array("I")
        for step, item in enumerate(_validate.iterable(squares, "squares", _SQUARES)):
            row, col = _validate.square(item, f"square {step}")
            if not kb.is_square(row, col):
                raise ValueError(f"square {step} {(row, col)} is not on the board")
            order.append(row * kb.cols + col)
        problem = _defect(kb, order, False)
        if problem is not None:
            raise ValueError(f"not a knight's tour: {problem}")
        self._board = kb
        self._order = order
        self._hash: int | None = None

    @classmethod
    def _from_order(cls, kb: KnightBoard, order: array[int]) -> Tour:
        tour = cls.__new__(cls)
        tour._board = kb
        tour._order = order
        tour._hash = None
        return tour

    def __reduce__(self) -> tuple[Any, ...]:
        # The squares travel packed (the core's little-endian wire format), and
        # are trusted on the way back, as every pickle is (it can run any code).
        return (_tour, (self._board, _packing.pack(self._order)))

    @property
    def board(self) -> KnightBoard:
        return self._board

    @property
    def rows(self) -> int:
        return self._board.rows

    @property
    def cols(self) -> int:
        return self._board.cols

    @property
    def squares(self) -> tuple[Square, ...]:
        """The squares in order, as a tuple of ``(row, col)`` (builds one tuple
        per square), as :attr:`Placement.squares <solvers.Placement.squares>`."""
        return tuple(self)

    @property
    def start(self) -> Square:
        return self[0]

    @property
    def end(self) -> Square:
        return self[-1]

    @property
    def closed(self) -> bool:
        """Whether the last square is a knight's move from the first (a cycle:
        at least three squares)."""
        (r0, c0), (r1, c1) = self.start, self.end
        return len(self) >= 3 and sorted((abs(r0 - r1), abs(c0 - c1))) == [1, 2]

    def indices(self) -> array[int]:
        """The squares as row-major indices ``row * cols + col`` (a copy)."""
        return array("I", self._order)

    def __len__(self) -> int:
        return len(self._order)

    def __iter__(self) -> Iterator[Square]:
        cols = self._board.cols
        for index in self._order:
            yield divmod(index, cols)

    @overload
    def __getitem__(self, i: int) -> Square: ...
    @overload
    def __getitem__(self, i: slice) -> list[Square]: ...
    def __getitem__(self, i: int | slice) -> Square | list[Square]:
        cols = self._board.cols
        if isinstance(i, slice):
            return [divmod(index, cols) for index in self._order[i]]
        return divmod(self._order[i], cols)

    def _key(self) -> tuple[Any, ...]:
        kb = self._board
        return (kb.rows, kb.cols, kb.mask or (), self._order.tobytes())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tour):
            return NotImplemented
        return self._key() == other._key()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Tour):
            return NotImplemented
        mine, theirs = self._key(), other._key()
        if mine[:3] != theirs[:3]:
            return mine[:3] < theirs[:3]
        return list(self._order) < list(other._order)

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._key())
        return self._hash

    def __repr__(self) -> str:
        kind = "closed" if self.closed else "open"
        return (
            f"<Tour {self.rows}x{self.cols} {kind}, {len(self)} squares, "
            f"start={self.start}, end={self.end}>"
        )

    def __str__(self) -> str:
        return pictures.tour_text(self)

    def numbers(self) -> list[list[int | None]]:
        """The board as rows of move numbers (1-based; ``None`` for missing squares)."""
        grid: list[list[int | None]] = [[None] * self.cols for _ in range(self.rows)]
        for move, (row, col) in enumerate(self, start=1):
            grid[row][col] = move
        return grid

    def verify(self, *, closed: bool = False) -> bool:
        """Check the tour again from scratch (in Rust): every square once, knight moves."""
        return _defect(self._board, self._order, _validate.flag(closed, "closed")) is None

    def to_svg(self, *, cell: float | None = None, numbers: bool | None = None) -> str:
        """The tour as an SVG picture: the board, the knight's path, numbered squares."""
        return pictures.tour_svg(self, cell=cell, numbers=numbers)


def _tour(board: KnightBoard, packed: bytes) -> Tour:
    """A pickled :class:`Tour` back."""
    return Tour._from_order(board, _packing.unpack(packed))
