"""N-Queens: count, list, find and check placements of n non-attacking queens.

A placement is the column of the queen in each row, 0-based, row 0 at the top.
(The module is ``nqueens``: ``solvers.queens`` is the listing function.)

>>> count_queens(8)
92
>>> count_queens(8, unique=True)
12
>>> next(queens(8))
Placement(0, 4, 7, 5, 2, 6, 1, 3)
>>> find_queens(1_000).verify()
True
"""

from __future__ import annotations

import functools
import os
from array import array
from collections.abc import Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from typing import Any, overload

from . import _core, _packing, _plan, _progress, _validate, render

__all__ = [
    "COUNT_METHODS",
    "FIND_METHODS",
    "MAX_CONSTRUCT_N",
    "MAX_JOIN_N",
    "MAX_SEARCH_N",
    "Placement",
    "count_queens",
    "find_queens",
    "is_queens_solution",
    "queens",
]

#: Counting and listing take boards up to this size (bitmasks in 64 bits).
MAX_SEARCH_N: int = _core.MAX_QUEENS_SEARCH_N
#: ``find_queens`` constructs placements up to this size.
MAX_CONSTRUCT_N: int = _core.MAX_QUEENS_CONSTRUCT_N
#: The ways ``find_queens`` can find a placement.
FIND_METHODS: tuple[str, ...] = ("construct", "search")


def _search_n(value: Any, what: str) -> int:
    n = _validate.positive(value, "n")
    if n > MAX_SEARCH_N:
        raise ValueError(f"{what} works for n up to {MAX_SEARCH_N}, got {n}")
    return n


#: The largest board ``method="join"`` counts (its tables grow about 8x per
#: two sizes: see the README's memory table).
MAX_JOIN_N: int = _core.MAX_QUEENS_JOIN_N

#: The ways :func:`count_queens` can count.
COUNT_METHODS: tuple[str, ...] = ("auto", "join", "frames")


def _method(value: Any) -> str:
    return _validate.choice(value, "method", COUNT_METHODS)


def count_queens(
    n: int,
    *,
    unique: bool = False,
    method: str = "auto",
    threads: int | None = None,
    progress: bool = False,
    timeout: float | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> int:
    """The number of ways to place ``n`` non-attacking queens on an ``n x n`` board
    (OEIS A000170), or with ``unique=True`` the number of those distinct under
    the 8 rotations and reflections of the board (A002562).

    Two methods count, with the same answer (exact, the same for every
    ``threads``):

    * ``"join"`` (the default from n = 12 to n = 23, :data:`MAX_JOIN_N`): the
      quarter-board join.  Every placement of queens on a quarter of the
      board is tabled once; for each choice of the rows whose queen is in
      the right half, the halves are built from quarters and the pairs of
      halves that share no diagonal are counted by a bit-sliced join
      (``src/queens/join.rs``).  Memory grows with n (the README's table:
      about 0.6 GB at n = 22); a board the machine cannot hold is refused
      with the estimate.  ``unique=True`` adds the few solutions fixed by a
      half or quarter turn and divides by 8 (Burnside's lemma).
    * ``"frames"`` (any n up to 64): backtracking over one border frame per
      symmetry class, most constrained row first (``src/queens/frames.rs``).

    ``method="auto"`` picks the join where it applies.  ``executor`` and
    ``checkpoint`` split the count into subproblems run elsewhere and recorded
    in a file, as for :func:`solvers.count_tours` (see
    :mod:`solvers.distributed`).

    >>> [count_queens(n) for n in range(1, 11)]
    [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]
    >>> [count_queens(n, unique=True) for n in range(1, 11)]
    [1, 0, 0, 1, 2, 1, 6, 12, 46, 92]
    """
    n = _search_n(n, "count_queens")
    unique = _validate.flag(unique, "unique")
    method = _core.queens_method(n, _method(method))
    workers = _validate.threads(threads)
    seconds = _validate.timeout(timeout)
    if executor is not None or checkpoint is not None:
        work = _plan_queens(n, unique=unique, subproblems=_plan.DEFAULT_SUBPROBLEMS, method=method)
        return work.count(
            executor=executor,
            checkpoint=checkpoint,
            threads=threads,
            progress=progress,
            timeout=timeout,
        )
    with _progress.shown(progress, f"{n}-queens") as bar:
        return _core.count_queens(n, unique, workers, bar, seconds, method)


def _plan_queens(
    n: int, *, unique: bool = False, subproblems: int, method: str = "auto"
) -> _plan.Plan:
    """:func:`solvers.distributed.plan` for :func:`count_queens` (registered below)."""
    n = _search_n(n, "count_queens")
    unique = _validate.flag(unique, "unique")
    method = _core.queens_method(n, _method(method))
    return _plan.make_plan("queens", (n, unique, subproblems, method), f"{n}-queens")


_plan.register(_plan.Family("queens", _core.CountPlan.queens, count_queens, _plan_queens))


def queens(n: int, *, unique: bool = False) -> Generator[Placement, None, None]:
    """Every solution, lazily, in lexicographic order of the column lists,
    streamed from a Rust thread with constant memory.  With ``unique=True``,
    one per symmetry class: the lexicographically smallest of its images.

    >>> [tuple(p) for p in queens(4)]
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    >>> [tuple(p) for p in queens(4, unique=True)]
    [(1, 3, 0, 2)]
    """
    n = _search_n(n, "queens")
    unique = _validate.flag(unique, "unique")
    return _placements(_core.QueenStream(n, unique))


def _placements(stream: _core.QueenStream) -> Generator[Placement, None, None]:
    try:
        for packed in stream:  # one byte per row (n <= 64)
            yield Placement._from_columns(array("I", array("B", packed)))
    finally:
        stream.close()


def find_queens(
    n: int,
    *,
    method: str = "construct",
    deterministic: bool = False,
    threads: int | None = None,
    timeout: float | None = None,
) -> Placement | None:
    """One solution, or ``None`` for n = 2 and 3 (which have none).

    ``method="construct"`` (default) builds one in O(n) by the classic explicit
    construction: ten million queens in a fraction of a second.
    ``method="search"`` (n up to 64) backtracks in parallel, most constrained
    row first, and stops every thread at the first hit: a millisecond even for
    n = 64.  With ``deterministic=True`` it returns the lexicographically first
    solution whatever the thread count; that search goes row by row and grows
    steeply with n (seconds in the low thirties, use ``timeout=`` beyond).

    >>> tuple(find_queens(8, method="search", deterministic=True))
    (0, 4, 7, 5, 2, 6, 1, 3)
    >>> find_queens(3) is None
    True
    """
    n = _validate.positive(n, "n")
    deterministic = _validate.flag(deterministic, "deterministic")
    workers = _validate.threads(threads)
    seconds = _validate.timeout(timeout)
    method = _validate.choice(method, "method", FIND_METHODS)
    if method == "construct":
        if n > MAX_CONSTRUCT_N:
            raise ValueError(f"find_queens constructs for n up to {MAX_CONSTRUCT_N}, got {n}")
        packed = _core.construct_queens(n)
        return None if packed is None else Placement._from_columns(_packing.unpack(packed))
    if method == "search":
        n = _search_n(n, 'find_queens(method="search")')
        packed = _core.search_queens(n, workers, deterministic, seconds)
        if packed is None:
            return None
        return Placement._from_columns(array("I", array("B", packed)))
    raise AssertionError(method)  # pragma: no cover - checked above


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
class Placement(Sequence[int]):
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

    def __len__(self) -> int:
        return len(self._cols)

    def __iter__(self) -> Iterator[int]:
        return iter(self._cols)

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
        return render.placement_text(self)

    def to_svg(self, *, cell: float | None = None) -> str:
        """The placement as an SVG picture of the board with its queens."""
        return render.placement_svg(self, cell=cell)

    def _repr_svg_(self) -> str:
        return self.to_svg()


def _placement(packed: bytes) -> Placement:
    """A pickled :class:`Placement` back."""
    return Placement._from_columns(_packing.unpack(packed))
