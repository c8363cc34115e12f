"""N-Queens as exact cover: :class:`QueensCover`, a cross-check of
:func:`~solvers.count_queens` through the exact-cover search (and a small
example of secondary items).

Stated as exact cover (Knuth, TAOCP 7.2.2.1): the rows ``r{i}`` and the
columns ``c{j}`` are primary (each holds exactly one queen), the diagonals
``a{i+j}`` and the anti-diagonals ``b{i-j+n-1}`` secondary (at most one);
one option per square.  The primary items are listed from the middle of
the board outwards (Knuth's "organ-pipe" order), so that where several
items have equally few options left, the search branches on a middle row
or column, whose queens block the most squares.

>>> QueensCover(8).count()
92
>>> QueensCover(4).find(deterministic=True)
Placement(2, 0, 3, 1)
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Sequence
from typing import Any, overload

from .._engine import _validate
from ..nqueens.placement import Placement
from .model import Model
from .pieces import board_symmetries
from .problem import ExactCover, _assembled
from .symmetry import induced

__all__ = ["MAX_N", "QueensCover"]

#: The largest n (n squared options; counts end far sooner).
MAX_N = 1000


def organ_pipe(n: int) -> list[int]:
    """0..n-1 from the middle outwards: ``organ_pipe(5) == [2, 1, 3, 0, 4]``.

    >>> organ_pipe(5), organ_pipe(4)
    ([2, 1, 3, 0, 4], [1, 2, 0, 3])
    """
    return sorted(range(n), key=lambda k: (abs(2 * k - (n - 1)), k))


def _option(i: int, j: int, n: int) -> tuple[str, str, str, str]:
    """The lines of the queen on row ``i``, column ``j``: its row, column,
    diagonal and antidiagonal."""
    return (f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}")


class _Squares(Sequence[tuple[int, int]]):
    """Option ``k`` of an n-queens statement is the square ``divmod(k, n)``."""

    def __init__(self, n: int) -> None:
        self._n = n

    def __len__(self) -> int:
        return self._n * self._n

    @overload
    def __getitem__(self, k: int) -> tuple[int, int]: ...
    @overload
    def __getitem__(self, k: slice) -> list[tuple[int, int]]: ...
    def __getitem__(self, k: int | slice) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        if not -len(self) <= k < len(self):
            raise IndexError(k)
        return divmod(k % len(self), self._n)


class QueensCover(Model[Placement]):
    """The placements of ``n`` non-attacking queens, found as exact covers;
    each solution is a :class:`~solvers.Placement` (the queen's column in
    each row).  :meth:`count`, :meth:`solutions`, :meth:`find` and
    :meth:`exact_cover` come from the exact-cover functions."""

    __slots__ = ("n",)

    n: int

    def __init__(self, n: int) -> None:
        n = _validate.positive(n, "n")
        if n > MAX_N:
            raise ValueError(f"n must be at most {MAX_N}, got {n}")
        object.__setattr__(self, "n", n)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("QueensCover is immutable")

    def symmetries(self) -> list[dict[Hashable, Hashable]]:
        """The board's 8 symmetries as permutations of the lines (rows,
        columns, diagonals): ``count(unique=True)`` is
        :func:`~solvers.count_queens` ``(n, unique=True)``.

        >>> QueensCover(8).count(unique=True)   # OEIS A002562
        12
        """
        n = self.n
        if n == 1:
            return []  # one square: every line is the same cell
        square = [(i, j) for i in range(n) for j in range(n)]
        cells_of: dict[Hashable, list[tuple[int, int]]] = {}
        for cell in square:
            for item in _option(*cell, n):
                cells_of.setdefault(item, []).append(cell)
        return [induced(cells_of, images) for images in board_symmetries(square)]

    def _numbered(self) -> tuple[ExactCover, Sequence[Any]]:
        # A queen on each square covers its row and column (primary, in
        # organ-pipe order) and its two diagonals (secondary): each row's
        # options written into every fourth entry by slices, with no Python
        # step per option.
        n = self.n
        pipe = organ_pipe(n)
        row_item, col_item = [0] * n, [0] * n
        for place, k in enumerate(pipe):
            row_item[k], col_item[k] = 2 * place, 2 * place + 1
        diagonal = list(range(2 * n, 4 * n - 1))  # a{d}: the cells with i + j = d
        anti = list(range(4 * n - 1, 6 * n - 2))  # b{d}: the cells with i - j + n - 1 = d
        flat = [0] * (4 * n * n)
        for i in range(n):
            base = 4 * n * i
            flat[base : base + 4 * n : 4] = [row_item[i]] * n
            flat[base + 1 : base + 4 * n : 4] = col_item
            flat[base + 2 : base + 4 * n : 4] = diagonal[i : i + n]
            flat[base + 3 : base + 4 * n : 4] = anti[i : i + n][::-1]
        items = array("I", flat)
        starts = array("I", range(0, len(items) + 1, 4))
        primary = tuple(f"{kind}{k}" for k in pipe for kind in "rc")
        secondary = tuple(f"{kind}{d}" for kind in "ab" for d in range(2 * n - 1))
        numbered = (starts, items, array("I", bytes(4 * len(items))), ())
        return _assembled(None, primary, secondary, False, numbered), _Squares(n)

    def _result(self, meanings: list[Any]) -> Placement:
        cols = [0] * self.n
        for i, j in meanings:
            cols[i] = j
        return Placement(cols)

    def __repr__(self) -> str:
        return f"QueensCover({self.n})"
