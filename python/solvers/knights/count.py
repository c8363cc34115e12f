"""Knight's tours: count, list, find and check them.

A square is ``(row, col)``, 0-based, row 0 at the top; the default start,
``start="lower-left"``, is the lower-left corner ``(rows - 1, 0)``.  A tour
visits every square of the board exactly once by knight moves; it is
*closed* if its last square is a knight's move from its first.  Boards may
be shaped: pass ``board=`` text with ``.`` for a square and ``#`` for a
missing one, one line per row.

>>> count_tours(3, 4)
2
>>> count_tours(4, 7, threads=2)
1682
>>> tour = find_tour(5, 5)
>>> tour.verify(), len(tour), tour.start
(True, 25, (4, 0))
"""

from __future__ import annotations

import functools
import os
import textwrap
from array import array
from collections.abc import Generator, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Literal, overload

from . import _args, _core, _frontier_dist, _packing, _plan, _progress, _validate, render

__all__ = [
    "COUNT_METHODS",
    "LOWER_LEFT",
    "MAX_FIND_CELLS",
    "MAX_FRONTIER_SIDE",
    "MAX_SEARCH_CELLS",
    "KnightBoard",
    "Square",
    "Start",
    "Tour",
    "count_tours",
    "find_tour",
    "is_tour",
    "tours",
]

Square = tuple[int, int]
#: The default start: the lower-left corner ``(rows - 1, 0)`` (shown as is by
#: ``help(count_tours)``).
LOWER_LEFT: Literal["lower-left"] = "lower-left"
#: A start square: ``(row, col)``, ``"lower-left"``, or for counting and
#: listing ``"all"`` (every square of the board in turn).
Start = Square | Literal["lower-left", "all"]

#: The exact search (counting, listing) keeps a board in one 64-bit word.
MAX_SEARCH_CELLS: int = _core.MAX_SEARCH_SQUARES
#: ``find_tour`` takes boards of up to this many cells.
MAX_FIND_CELLS: int = _core.MAX_FIND_SQUARES
#: The frontier count takes boards whose squares fit in a rectangle with a
#: shorter side of at most this many cells (the longer side any length).
MAX_FRONTIER_SIDE: int = _core.MAX_FRONTIER_SIDE
#: The ways ``count_tours`` can count; the answer never depends on the choice.
COUNT_METHODS: tuple[str, ...] = ("auto", "search", "frontier", "pairs")


@dataclass(frozen=True)
class KnightBoard:
    """A ``rows x cols`` board; ``mask[r * cols + c]`` is ``False`` for a missing square
    (``None`` for a full board, also when given all ``True``).  Boards compare
    and hash by ``(rows, cols, mask)``."""

    rows: int
    cols: int
    mask: tuple[bool, ...] | None = None

    def __post_init__(self) -> None:
        rows = _validate.positive(self.rows, "rows")
        cols = _validate.positive(self.cols, "cols")
        if rows * cols > MAX_FIND_CELLS:
            raise ValueError(
                f"boards have at most {MAX_FIND_CELLS} cells (the find_tour limit); "
                f"{rows}x{cols} has {rows * cols}"
            )
        mask = self.mask
        if mask is not None:
            mask = tuple(mask)
            if len(mask) != rows * cols:
                raise ValueError(
                    f"mask has {len(mask)} entries, a {rows}x{cols} board needs {rows * cols}"
                )
            if not all(isinstance(m, bool) for m in mask):
                raise TypeError("mask entries must be True (a square) or False (missing)")
            if not any(mask):
                raise ValueError("the board has no squares (the mask is all False)")
            if all(mask):
                mask = None  # a full board is one board, however it was given
        object.__setattr__(self, "rows", rows)
        object.__setattr__(self, "cols", cols)
        object.__setattr__(self, "mask", mask)

    @classmethod
    def parse(cls, text: str) -> KnightBoard:
        """Read a board drawn in text: ``.`` a square, ``#`` a missing square.

        >>> KnightBoard.parse('''
        ...     ..#
        ...     ...
        ... ''')
        KnightBoard(rows=2, cols=3, mask=(True, True, False, True, True, True))
        """
        if not isinstance(text, str):
            raise TypeError(f"board must be a str drawing the board, got {type(text).__name__}")
        lines = textwrap.dedent(text).strip("\n").splitlines()
        lines = [line.rstrip() for line in lines]
        if not lines or not any(lines):
            raise ValueError("board text is empty: draw one line per row, '.' a square, '#' none")
        width = max(len(line) for line in lines)
        mask: list[bool] = []
        for number, line in enumerate(lines, start=1):
            if len(line) != width:
                raise ValueError(
                    f"board line {number} has {len(line)} cells, the widest line has {width}: "
                    "draw every row in full, '#' for a missing square"
                )
            for column, char in enumerate(line, start=1):
                if char not in ".#":
                    raise ValueError(
                        f"board line {number}, column {column}: {char!r} is not allowed, "
                        "use '.' for a square and '#' for a missing square"
                    )
                mask.append(char == ".")
        if not any(mask):
            raise ValueError("the board has no squares ('.')")
        return cls(len(lines), width, None if all(mask) else tuple(mask))

    def is_square(self, row: int, col: int) -> bool:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            return False
        return self.mask is None or self.mask[row * self.cols + col]

    @property
    def cells(self) -> int:
        return self.rows * self.cols

    @property
    def span(self) -> tuple[int, int]:
        """``(rows, cols)`` of the smallest rectangle holding every square."""
        if self.mask is None:
            return self.rows, self.cols
        rows = [r for r in range(self.rows) if any(self.mask[r * self.cols : (r + 1) * self.cols])]
        cols = [c for c in range(self.cols) if any(self.mask[c :: self.cols])]
        return rows[-1] - rows[0] + 1, cols[-1] - cols[0] + 1

    @property
    def squares(self) -> int:
        return self.cells if self.mask is None else sum(self.mask)

    def text(self) -> str:
        """The board drawn as :meth:`parse` reads it."""
        return "\n".join(
            "".join("." if self.is_square(r, c) else "#" for c in range(self.cols))
            for r in range(self.rows)
        )

    @classmethod
    def from_args(cls, rows: Any, cols: Any, board: Any) -> KnightBoard:
        """The board of a call's ``rows``, ``cols`` and ``board=`` arguments
        (a drawing or a :class:`KnightBoard`; ``rows``/``cols`` then optional,
        checked against it), as every function of this module reads them.

        >>> KnightBoard.from_args(3, 4, None)
        KnightBoard(rows=3, cols=4, mask=None)
        """
        if board is not None:
            parsed = board if isinstance(board, KnightBoard) else cls.parse(board)
            for name, given, actual in (("rows", rows, parsed.rows), ("cols", cols, parsed.cols)):
                if given is not None and _validate.integer(given, name) != actual:
                    raise ValueError(
                        f"{name}={given} disagrees with the board text, which has {actual}"
                    )
            return parsed
        if rows is None or cols is None:
            raise TypeError("give the board size as rows and cols, or draw it with board=")
        return cls(_validate.positive(rows, "rows"), _validate.positive(cols, "cols"))

    def start_square(self, start: Any, *, allow_all: bool) -> Square | None:
        """The square of a call's ``start`` argument: ``(row, col)``,
        ``"lower-left"`` or, with ``allow_all``, ``"all"`` (``None``).

        >>> KnightBoard(3, 4).start_square("lower-left", allow_all=False)
        (2, 0)
        """
        if isinstance(start, str) and start == LOWER_LEFT:
            corner = (self.rows - 1, 0)
            if not self.is_square(*corner):
                raise ValueError(
                    f"the default start, the lower-left corner {corner}, is a missing square "
                    "of this board: pass start=(row, col)"
                )
            return corner
        if isinstance(start, str):
            if allow_all and start == "all":
                return None
            allowed = "a (row, col) pair or 'all'" if allow_all else "a (row, col) pair"
            raise ValueError(
                f"start must be {allowed}, got {_validate.shown(start)} "
                "(the default, 'lower-left', is the corner (rows - 1, 0))"
            )
        return self.square_of(start, "start")

    def square_of(self, value: Any, name: str) -> Square:
        """``value`` as a square of the board, ``(row, col)``, or a
        ``ValueError``/``TypeError`` naming the argument ``name``.

        >>> KnightBoard(3, 4).square_of((0, 4), "end")
        Traceback (most recent call last):
        ...
        ValueError: end (0, 4) is off the 3x4 board: rows are 0..2, columns 0..3
        """
        row, col = _validate.square(value, name)
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise ValueError(
                f"{name} {(row, col)} is off the {self.rows}x{self.cols} board: "
                f"rows are 0..{self.rows - 1}, columns 0..{self.cols - 1}"
            )
        if not self.is_square(row, col):
            raise ValueError(f"{name} {(row, col)} is a missing square ('#') of the board")
        return row, col

    def _mask_list(self) -> list[bool] | None:
        return None if self.mask is None else list(self.mask)


def _search_limit(board: KnightBoard, what: str) -> None:
    rows, cols = board.span
    if rows * cols > MAX_SEARCH_CELLS:
        raise ValueError(
            f"{what} works on boards whose squares fit in a rectangle of at most "
            f"{MAX_SEARCH_CELLS} cells (rows x cols, missing squares inside included); "
            f"this one needs {rows}x{cols} = {rows * cols}. "
            "find_tour() handles boards of any size"
        )


def count_tours(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Start = LOWER_LEFT,
    closed: bool = False,
    threads: int | None = None,
    progress: bool = False,
    timeout: float | None = None,
    executor: Executor | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    method: str = "auto",
    memory: int | str | None = None,
    spill: str | os.PathLike[str] | None = None,
    end: Square | None = None,
) -> int:
    """The number of knight's tours of the board from ``start``.

    Tours are directed: a tour and its reverse count separately when they
    start on the same square.  ``start="all"`` sums over every square of the
    board; ``closed=True`` counts only tours that end a knight's move from
    their start (each cycle once per direction from the start).  The count is
    exact, the same for every ``threads`` (``None``: one per core).  Boards
    whose squares span at most 64 cells.  Ctrl-C stops it with ``KeyboardInterrupt``;
    ``timeout`` seconds with ``TimeoutError``.

    ``executor`` (any :class:`concurrent.futures.Executor`, e.g. a process
    pool or a Dask client's ``get_executor()``) counts the subproblems there,
    ``threads`` per task; ``checkpoint`` (a file) records each finished
    subproblem, and a rerun of the same call skips them (see :mod:`solvers.distributed`).
    With ``method="frontier"``, ``checkpoint`` is a directory instead (made
    if missing): each finished layer of the DP is saved there, so a count
    killed mid-way (even by SIGKILL or a power cut) goes on from its last
    layer when called again the same way (any ``threads`` or ``memory``), and
    a finished count's rerun returns its answer at once.  A directory of
    another count, or a damaged one, raises ``ValueError``, never a wrong count.

    ``method`` picks how to count; **the answer never depends on it**, only
    the time and memory do.  ``"search"`` is the pruned backtracking above
    (boards spanning at most 64 cells).  ``"frontier"`` is a transfer-matrix
    DP that sweeps the board along its longer side and never visits a tour:
    boards whose squares fit in a rectangle with a shorter side of at most
    ``MAX_FRONTIER_SIDE`` (8) and a longer side of any length (3x100, 4x60,
    7x7, 8x8 closed), memory growing steeply with the shorter side (7x7 takes
    gigabytes, 8x8 closed tens of them: give ``memory``).  ``"pairs"``
    counts open tours by their pairs of ends: one frontier count with both
    ends pinned per pair of squares up to the board's symmetries (8x8: 136
    pairs, as Chernov and Stertenbrink counted it), a plan of independent
    subproblems that runs on any ``executor`` (no shared filesystem) and
    records each finished pair in a ``checkpoint`` file like the search's
    plans (``memory`` is each pair's budget and may change between runs).
    ``"auto"`` (the default) takes the frontier for boards past the search's
    64 cells and for long narrow boards, where it is the faster (measured:
    from 3x10, 4x9, 5x8, 6x8), the search otherwise, and the search whenever
    ``executor`` or ``checkpoint`` is given without ``method="frontier"``
    or ``"pairs"``.  With the frontier ``progress`` counts squares swept;
    with the pairs, pairs counted.

    With ``method="frontier"``, ``executor`` runs each sweep step as a round
    of tasks, one per partition of the layer (one per worker where the
    executor tells, else 8), which pass the layer on through partition files
    in a new directory inside ``spill`` (the system's temporary directory if
    ``None``; on a cluster, a shared filesystem every worker mounts at the
    same path), removed when the count ends.  Not with ``checkpoint`` or
    ``memory`` (see :mod:`solvers._frontier_dist`).

    ``end`` (a square) counts only the open tours from ``start`` that end
    there (Hamiltonian paths with both ends fixed), by the frontier DP: not
    with ``start="all"``, ``closed=True`` or an ``executor``.

    ``memory`` (bytes, a size such as ``"4GB"``, or ``"auto"``: half of the
    memory available when the call starts) is the frontier's memory
    budget: a step whose layers would not fit goes through files in a new
    directory inside ``spill`` (the system's temporary directory if ``None``),
    removed when the count ends.  The answer is the same; peak memory stays
    near the budget and the step takes longer.  Without a budget a step that
    does not fit the machine raises ``MemoryError``.  The search needs a few
    MiB and takes no budget.

    >>> count_tours(5, 5, start=(0, 0))
    304
    >>> count_tours(5, 5, start="all")
    1728
    >>> count_tours(board='''
    ...     ....
    ...     ....
    ...     ...#
    ... ''', start=(0, 0))
    1
    >>> count_tours(3, 16, start="all", method="frontier")  # OEIS A118067
    17273760
    >>> count_tours(4, 40, start=(3, 0))  # past the search's 64 cells: the frontier
    60303938883691505682859195
    >>> count_tours(6, 6, start="all", method="frontier", memory="2MiB")  # spills to disk
    6637920
    >>> count_tours(5, 5, start=(0, 0), end=(4, 4))  # from one corner to the other
    56
    >>> count_tours(5, 6, start="all", method="pairs")  # 66 pairs of ends up to symmetry
    37568
    """
    kb = KnightBoard.from_args(rows, cols, board)
    budget = _validate.memory(memory)
    spill_dir = _args.spill_directory(spill)
    first = kb.start_square(start, allow_all=True)
    closed = _validate.flag(closed, "closed")
    workers = _validate.threads(threads)
    seconds = _validate.timeout(timeout)
    method = _validate.choice(method, "method", COUNT_METHODS)
    last = None if end is None else kb.square_of(end, "end")
    if last is not None:
        if first is None:
            raise ValueError("end= needs one start square, not start='all'")
        if closed:
            raise ValueError("end= counts open tours: not with closed=True")
        if method in ("search", "pairs") or executor is not None:
            raise ValueError(
                "end= is counted by the frontier DP in this process: use method='frontier' "
                "(or 'auto'), without executor="
            )
        method = "frontier"
    if method == "pairs" and closed:
        raise ValueError(
            "method='pairs' sums open tours over their pairs of ends: not with closed=True"
        )
    if kb.mask is None and _core.rectangle_rules_out(kb.rows, kb.cols, first, closed):
        # No tour by theorem (1xN, 2xN, 3x3, 3x5, 3x6, 4x4; Schwenk's for
        # closed ones; the minority colour of an odd board): known at once,
        # whatever the method (a 1 x 10^7 sweep would take minutes).
        return 0
    what = f"knight's tours {kb.rows}x{kb.cols}"
    if method == "pairs":
        work = _pair_plan(kb, first, budget, spill_dir, what)
        return work.count(
            executor=executor,
            checkpoint=checkpoint,
            threads=threads,
            progress=progress,
            timeout=timeout,
        )
    split = executor is not None or checkpoint is not None
    saved = None
    if method == "frontier" and executor is None and checkpoint is not None:
        saved, split = _args.checkpoint_directory(checkpoint), False
    if method == "auto":
        method = "search" if split else _auto_method(kb)
    elif method == "search" and (budget is not None or spill_dir is not None):
        raise ValueError("memory= and spill= are the frontier's budget: use method='frontier'")
    if method == "frontier":
        if executor is not None and (checkpoint is not None or budget is not None):
            raise ValueError(
                "the frontier count on an executor= takes neither checkpoint= nor memory= "
                "(each is for a count in this process): give spill=, a directory every "
                "worker reaches, for its partition files"
            )
        _frontier_limit(kb)
        try:
            if executor is not None:
                spec = (kb.rows, kb.cols, kb._mask_list(), first, closed)
                threads_each = _args.task_threads(_args.check_executor(executor), threads)
                return _frontier_dist.count(
                    spec, executor, threads_each, progress, timeout, spill_dir, what
                )
            with _progress.shown(progress, what, unit="square") as bar:
                high, low, _widest, _spilled = _core.count_tours_frontier(
                    kb.rows,
                    kb.cols,
                    kb._mask_list(),
                    first,
                    closed,
                    workers,
                    bar,
                    seconds,
                    budget,
                    spill_dir,
                    saved,
                    last,
                )
            return high << 128 | low  # 256-bit counts: 3x100 has about 10^53 tours
        except OverflowError:
            raise OverflowError(
                f"the number of tours of this {kb.rows}x{kb.cols} board does not fit the "
                "frontier DP's 256-bit counter (no answer is better than a wrong one)"
            ) from None
    _search_limit(kb, "count_tours")
    if split:
        work = _planned(kb, first, closed, _plan.DEFAULT_SUBPROBLEMS, what)
        return work.count(
            executor=executor,
            checkpoint=checkpoint,
            threads=threads,
            progress=progress,
            timeout=timeout,
        )
    with _progress.shown(progress, what) as bar:
        return _core.count_tours(
            kb.rows, kb.cols, kb._mask_list(), first, closed, workers, bar, seconds
        )


def _frontier_limit(board: KnightBoard) -> None:
    rows, cols = board.span
    if min(rows, cols) > MAX_FRONTIER_SIDE:
        raise ValueError(
            "the frontier count works on boards whose squares fit in a rectangle with a "
            f"shorter side of at most {MAX_FRONTIER_SIDE} (the longer side may be any length); "
            f"this one needs {rows}x{cols}"
        )


def _auto_method(board: KnightBoard) -> str:
    """The faster method for ``board`` (measured on 2 cores, see the frontier bench).

    The search is fast on compact boards (6x6, all starts: 0.1 s) and slows
    by orders of magnitude per added column on narrow ones; the frontier's
    work grows with the length of its sweep but steeply with the shorter side.
    """
    rows, cols = board.span
    short, long = min(rows, cols), max(rows, cols)
    if short > MAX_FRONTIER_SIDE:
        return "search"
    if rows * cols > MAX_SEARCH_CELLS:
        return "frontier"
    return "frontier" if long >= _FRONTIER_FROM[short] else "search"


#: The longer side from which the frontier beats the search, by shorter side
#: (all starts, 2 cores: 3x10 0.004 s search / 0.002 s frontier, 4x8 0.011 /
#: 0.009, 4x9 0.11 / 0.035, 5x7 0.045 / 0.077, 5x8 3.1 / 0.7, 6x6 0.11 / 1.4;
#: 6x7 over 20 / 6.6, from a corner 4.7-11.5 / 3.4, closed 0.30 / 0.26; a 7x7
#: search would visit 1.6e11 tours).
_FRONTIER_FROM: dict[int, int] = {1: 1, 2: 1, 3: 10, 4: 9, 5: 8, 6: 7, 7: 7, 8: 8}


def _planned(
    kb: KnightBoard, first: Square | None, closed: bool, subproblems: int, what: str
) -> _plan.Plan:
    mask = kb._mask_list()
    params = (kb.rows, kb.cols, None if mask is None else tuple(mask), first, closed, subproblems)
    return _plan.make_plan("tours", params, what)


def _plan_tours(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Start = LOWER_LEFT,
    closed: bool = False,
    method: str = "search",
    memory: int | str | None = None,
    spill: str | os.PathLike[str] | None = None,
    subproblems: int,
) -> _plan.Plan:
    """:func:`solvers.distributed.plan` for :func:`count_tours` (registered
    below): the search's subtrees, or with ``method="pairs"`` one frontier
    count per pair of ends up to symmetry (``subproblems`` does not apply)."""
    kb = KnightBoard.from_args(rows, cols, board)
    first = kb.start_square(start, allow_all=True)
    closed = _validate.flag(closed, "closed")
    method = _validate.choice(method, "method", ("search", "pairs"))
    what = f"knight's tours {kb.rows}x{kb.cols}"
    if method == "pairs":
        if closed:
            raise ValueError(
                "method='pairs' sums open tours over their pairs of ends: not with closed=True"
            )
        return _pair_plan(kb, first, _validate.memory(memory), _args.spill_directory(spill), what)
    if memory is not None or spill is not None:
        raise ValueError("memory= and spill= are the frontier's budget: use method='pairs'")
    _search_limit(kb, "count_tours")
    return _planned(kb, first, closed, subproblems, what)


def _build_plan(
    rows: int,
    cols: int,
    mask: tuple[bool, ...] | None,
    start: Square | None,
    closed: bool,
    size: int,
) -> _core.CountPlan:
    """The core's plan of a tour count, from the parameters a :class:`Plan` carries."""
    return _core.CountPlan.tours(
        rows, cols, None if mask is None else list(mask), start, closed, size
    )


_plan.register(_plan.Family("tours", _build_plan, count_tours, _plan_tours))


def _pair_plan(
    kb: KnightBoard,
    first: Square | None,
    budget: int | None,
    spill_dir: str | None,
    what: str,
) -> _plan.Plan:
    """The plan of open tours from ``first`` (every square if ``None``) by
    pairs of ends up to symmetry, each pair's count within ``budget``."""
    _frontier_limit(kb)
    mask = kb._mask_list()
    params = (kb.rows, kb.cols, None if mask is None else tuple(mask), first, budget, spill_dir)
    return _plan.make_plan("tour-pairs", params, f"{what} by pairs of ends")


def _build_pairs(
    rows: int,
    cols: int,
    mask: tuple[bool, ...] | None,
    start: Square | None,
    memory: int | None,
    spill: str | None,
) -> _core.CountPlan:
    """The core's plan of ``count_tours(..., method="pairs")``."""
    return _core.CountPlan.tour_pairs(
        rows, cols, None if mask is None else list(mask), start, memory, spill
    )


def _pairs_problem(params: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a pairs plan's checkpoint records as its problem: the board and
    start, not the budget (a rerun may give a pair more or less memory)."""
    return params[:4]


# Registered after "tours", so that plan(count_tours, ...) finds that one
# first (and goes on to this one by method="pairs").
_plan.register(
    _plan.Family("tour-pairs", _build_pairs, count_tours, _plan_tours, problem=_pairs_problem)
)


def tours(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Start = LOWER_LEFT,
    closed: bool = False,
) -> Generator[Tour, None, None]:
    """Every tour of the board, lazily, produced by a Rust thread as you iterate.

    The order is the seed article's: depth-first, trying the knight's moves
    ``(+2,+1) (+1,+2) (-2,+1) (-1,+2) (+2,-1) (+1,-2) (-2,-1) (-1,-2)``
    (row, column offsets) in turn; with ``start="all"``, start squares in
    row-major order.  Memory stays constant however many tours there are, and
    the first tour arrives as soon as the search reaches it.

    >>> [tour.squares[:3] for tour in tours(3, 4)]
    [((2, 0), (1, 2), (0, 0)), ((2, 0), (1, 2), (0, 0))]
    """
    kb = KnightBoard.from_args(rows, cols, board)
    first = kb.start_square(start, allow_all=True)
    closed = _validate.flag(closed, "closed")
    _search_limit(kb, "tours")
    stream = _core.TourStream(kb.rows, kb.cols, kb._mask_list(), first, closed)
    return _tours_from(stream, kb)


def _tours_from(stream: _core.TourStream, kb: KnightBoard) -> Generator[Tour, None, None]:
    try:
        for packed in stream:
            yield Tour._from_order(kb, _packing.unpack(packed))
    finally:
        stream.close()


def find_tour(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Square | Literal["lower-left"] = LOWER_LEFT,
    closed: bool = False,
    threads: int | None = None,
    timeout: float | None = None,
) -> Tour | None:
    """One tour from ``start``, found fast, or ``None`` if the board has none.

    On a full rectangle of more than 64 cells a block construction comes
    first (linear in the squares): closed tours wherever Schwenk's theorem
    allows one (and, read from ``start``, open tours from every square of such
    a board), open tours on the other boards from starts near an end of a 3-
    or 4-wide strip or inside the start's block of an odd board.  Otherwise,
    and on shaped boards, Warnsdorff's rule (move to the square with the
    fewest onward moves, with bounded backtracking and retries; closed tours
    by rotating an open tour shut).  On boards spanning at most 64 cells a
    failed heuristic falls back to the exact search, so ``None`` is certain
    there; on larger boards ``None`` comes only from exact arguments (colours,
    connectivity, Schwenk's theorem, the outer lines of 4-wide boards) and a
    failure of every method raises ``RuntimeError``.

    >>> find_tour(4, 4) is None
    True
    >>> big = find_tour(300, 300)
    >>> len(big), big.verify()
    (90000, True)
    """
    kb = KnightBoard.from_args(rows, cols, board)
    first = kb.start_square(start, allow_all=False)
    assert first is not None  # only "all" gives None, refused here
    closed = _validate.flag(closed, "closed")
    workers = _validate.threads(threads)
    seconds = _validate.timeout(timeout)
    if kb.cells > MAX_FIND_CELLS:
        raise ValueError(
            f"find_tour works on boards of at most {MAX_FIND_CELLS} cells; "
            f"a {kb.rows}x{kb.cols} board has {kb.cells}"
        )
    packed = _core.find_tour(kb.rows, kb.cols, kb._mask_list(), first, closed, workers, seconds)
    if packed is None:
        return None
    return Tour._from_order(kb, _packing.unpack(packed))


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
    return _core.tour_defect(kb.rows, kb.cols, kb._mask_list(), _packing.pack(order), closed)


@functools.total_ordering
class Tour(Sequence[Square]):
    """A knight's tour: an immutable sequence of ``(row, col)`` squares.

    Tours keep their squares packed (4 bytes each), so a million-square tour
    costs 4 MB, not a million tuples.  They compare (``==``, ``<``: by board,
    then squares) and hash by board and squares, pickle, print as the board
    with move numbers, and draw themselves as SVG.

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
        return render.tour_text(self)

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
        return render.tour_svg(self, cell=cell, numbers=numbers)

    def _repr_svg_(self) -> str:
        return self.to_svg()


def _tour(board: KnightBoard, packed: bytes) -> Tour:
    """A pickled :class:`Tour` back."""
    return Tour._from_order(board, _packing.unpack(packed))
