"""What every peg call shares: the checks of its board and finish, the classes
of positions a start can reach (a quick "no solution" for the others), and
the DP's driver (:mod:`.dp` here, or on an executor with :mod:`.dist`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, Literal

from .. import _core
from .._engine import _args
from .._engine._run import RunOptions
from . import dp
from .board import Hole, PegBoard
from .dist import Distributed

#: Where the last peg must end: a hole, ``"start"`` (the start hole) or
#: ``None`` (anywhere).
Finish = Hole | Literal["start"] | None


def _parity_checks(board: PegBoard) -> list[int]:
    """A basis of the hole sets ``w`` (bit masks) that every jump meets an even
    number of times.  The parity of the pegs on ``w`` then never changes, so
    positions with different parities (the board's *position classes*) never
    reach each other: on the English board, 16 classes (Conway's rule of three).
    """
    pivots: dict[int, int] = {}  # pivot hole -> reduced jump row
    for jump in board.jumps:
        row = sum(1 << h for h in jump)
        for hole, reduced in pivots.items():
            if row >> hole & 1:
                row ^= reduced
        if row:
            hole = row.bit_length() - 1
            for other in pivots:
                if pivots[other] >> hole & 1:
                    pivots[other] ^= row
            pivots[hole] = row
    # Null space of the reduced rows: one vector per free hole.
    basis = []
    for free in range(len(board)):
        if free in pivots:
            continue
        w = 1 << free
        for hole, row in pivots.items():
            if row >> free & 1:
                w |= 1 << hole
        basis.append(w)
    return basis


def _position_class(checks: list[int], position: int) -> tuple[int, ...]:
    return tuple((position & w).bit_count() & 1 for w in checks)


def reachable_class(board: PegBoard, s: int, f: int | None) -> bool:
    """False when the finish is in another position class than the start."""
    checks = _parity_checks(board)
    full = (1 << len(board)) - 1
    start = _position_class(checks, full & ~(1 << s))
    finishes = range(len(board)) if f is None else [f]
    return any(_position_class(checks, 1 << h) == start for h in finishes)


def finish_hole(board: PegBoard, finish: Any, s: int) -> int | None:
    """The finish hole: ``"start"`` is the start, ``None`` any hole."""
    if isinstance(finish, str):
        if finish == "start":
            return s
        raise ValueError(
            f"finish must be a hole ((row, col) or a hole index), 'start' or None, got {finish!r}"
        )
    if finish is None:
        return None
    return board.normalize_square(finish, "finish")


def overflow(board: PegBoard, start: Hole, what: str = "solutions") -> OverflowError:
    return OverflowError(
        f"the number of {what} on {board!r} from {start!r} does not fit the 128-bit "
        "counter (no answer is better than a wrong one)"
    )


def dp_driver(board: PegBoard, group: Any, options: RunOptions) -> dp.Driver:
    """The DP's driver for a call: on the options' executor (cut into
    ``parts``, the pieces in files inside ``spill``), or here within
    ``memory`` bytes (without it, ``memory="auto"``'s, resolved in the
    core), spilling into ``spill``; all in memory with ``spill=False``.  The
    caller has already refused the options its method does not take
    (:func:`solvers._engine._methods.refuse`)."""
    executor, threads, progress, timeout = (
        options.executor,
        options.threads,
        options.progress,
        options.timeout,
    )
    _args.budget_of(options.memory, options.spill, executor)  # spill=False: no memory=, executor=
    spill_dir = _args.spill_directory(options.spill)
    if executor is not None:
        return Distributed(
            board, group, executor, options.parts, threads, progress, timeout, spill_dir
        )
    asked = options.memory_asked()  # resolved in the core
    if asked is not None and (asked != "default" or _core.available_memory() is not None):
        return dp.Budgeted(board, group, threads, progress, timeout, asked, spill_dir)
    return dp.Local(board, group, threads, progress, timeout)


@contextlib.contextmanager
def driving(
    board: PegBoard, group: Any, options: RunOptions, overflowed: OverflowError
) -> Iterator[tuple[dp.Driver, contextlib.ExitStack]]:
    """The DP's driver for a call (:func:`dp_driver`) and a stack for what the
    call holds beside it (a ledger, a lock), all closed however the call ends;
    an overflow in the core raises ``overflowed``, a timeout names the
    seconds the user gave."""
    driver = dp_driver(board, group, options)
    try:
        with contextlib.ExitStack() as held:
            try:
                yield driver, held
            except OverflowError as error:
                raise overflowed from error
            except TimeoutError as error:  # the core's names the seconds left, not the user's
                raise driver.deadline.restated(error) from None
    finally:
        driver.close()


def checked_board(board: Any) -> PegBoard:
    """``board``, if it is a :class:`PegBoard` (for every peg call's check)."""
    if not isinstance(board, PegBoard):
        raise TypeError(
            f"board must be a PegBoard (e.g. PegBoard.english()), got {type(board).__name__}"
        )
    return board


def kernel_fixing(board: PegBoard, f: int | None) -> Any:
    """A kernel whose group fixes the finish ``f`` (every symmetry for
    ``None``): whether a position can still be finished is then the same
    for all its images, so the depth-first searches remember dead positions
    once per class."""
    group = board.symmetries if f is None else board.symmetries_fixing(f)
    return dp.new_kernel(dp.spec_of(board, group))
