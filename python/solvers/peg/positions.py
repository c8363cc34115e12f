"""Peg solitaire: the positions of each layer, and those on a winning line.

:func:`count_peg_positions` counts, after each number of jumps from the
start, the distinct positions a game can reach and those of them from which
the game can still be won: finished with one peg on ``finish``.  It has
``finish`` for the reason :func:`~solvers.count_peg_solutions` has it, and
with the same meaning (a hole, ``"start"``, or ``None``: anywhere): the
winning positions are those of the solutions that call counts.  Every game,
won or not, is :func:`~solvers.count_peg_games`'s, whose result has the
positions of each layer too (:attr:`~solvers.PegGames.positions`); this
call adds the winning ones, which need a second search.

How.  A position ``p`` after ``n`` jumps is on a winning line when the
search from the start reaches it in ``n`` jumps and one peg on ``finish``
can be reached from it; the latter holds when the search from "every hole
full but ``finish``" reaches the complement of ``p`` (a jump backwards is a
jump on the complemented board).  So both searches run all the way, the
layers of the one from the finish kept in memory, and layer ``n`` of the
one from the start is joined with layer ``len(board) - 2 - n`` of the other
(``PegKernel.meeting_positions``).  For ``finish`` equal to the start the
two searches are one, run once.

>>> found = count_peg_positions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3))
>>> found.reachable
(1, 2, 4, 9, 17, 28, 28, 17, 8, 5, 2)
>>> found.winning
(1, 2, 3, 7, 15, 22, 15, 7, 3, 2, 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import _core
from .._engine import _methods
from .._engine._run import RunKeywords, RunOptions
from . import dp
from .board import Hole, PegBoard, Square
from .calls import Finish, checked_board, finish_hole
from .methods import LAYERS

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["PegPositions", "count_peg_positions"]


@dataclass(frozen=True)
class PegPositions:
    """The distinct positions after each number of jumps from ``start``.

    ``reachable[n]``: the positions some game reaches after ``n`` jumps
    (``n`` from 0, the start, to ``len(board) - 2``, one peg left);
    ``winning[n]``: those of them from which one peg on ``finish`` can still
    be reached (``finish`` ``None``: one peg anywhere).  Both count *up to
    symmetry*: two positions that one of the board's symmetries leaving the
    start and the finish in place maps onto each other count once (from the
    English centre to the centre, all 8, as OEIS A112737 and A112738 count
    them).  The tuples are immutable: a ``PegPositions`` hashes.
    """

    board: PegBoard
    start: Square
    finish: Square | None
    reachable: tuple[int, ...]
    winning: tuple[int, ...]

    def __str__(self) -> str:
        to = "one peg anywhere" if self.finish is None else f"one peg on {self.finish}"
        rows = [
            f"positions on {self.board!r} from {self.start} (to {to}), up to symmetry:",
            f"{'jumps':>5} {'reachable':>12} {'winning':>12}",
        ]
        rows += [
            f"{n:>5} {a:>12,} {b:>12,}"
            for n, (a, b) in enumerate(zip(self.reachable, self.winning, strict=True))
        ]
        rows.append(f"{'total':>5} {sum(self.reachable):>12,} {sum(self.winning):>12,}")
        return "\n".join(rows)


def count_peg_positions(
    board: PegBoard,
    *,
    start: Hole,
    finish: Finish = "start",
    method: str = "auto",
    **run: Unpack[RunKeywords],
) -> PegPositions:
    """The distinct positions after each number of jumps from ``start``, and
    those from which one peg can still end on ``finish`` (a hole,
    ``"start"``, the default, or ``None``: anywhere), up to the symmetries
    that leave both in place (see :class:`PegPositions`).

    ``threads``, ``progress`` and ``timeout`` are those of
    :func:`~solvers.count_peg_solutions`; the answer does not depend on
    them; no other run option applies (one method, ``"layers"``, the
    default ``"auto"``).  The layers of the search from the finish are all held in memory
    (about 24 bytes a position: some 600 MB for the English board, whose
    two searches are one from the centre to the centre).

    >>> corner = count_peg_positions(PegBoard.triangle(5), start=(0, 0), finish=None)
    >>> corner.reachable[:6], corner.winning[:6], sum(corner.reachable), sum(corner.winning)
    ((1, 1, 4, 19, 62, 149), (1, 1, 4, 13, 35, 61), 1544, 390)
    """
    opts = RunOptions.of("count_peg_positions", run)
    _methods.pick("count_peg_positions", (LAYERS,), method, opts.given())
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    f = finish_hole(board, finish, s)
    group = board.symmetries_fixing(s) if f is None else board.symmetries_fixing(s, f)
    driver = dp.Local(board, group, opts.threads, opts.progress, opts.timeout)
    try:
        reachable, winning = _layers(driver, len(board), s, f)
    except TimeoutError as error:  # the core's names the seconds left, not the user's
        raise driver.deadline.restated(error) from None
    finally:
        driver.close()
    return PegPositions(
        board=board,
        start=board.holes[s],
        finish=None if f is None else board.holes[f],
        reachable=reachable,
        winning=winning,
    )


def _search(driver: dp.Local, layer: _core.PegLayer, steps: int) -> list[_core.PegLayer]:
    """``layer`` and the ``steps`` layers after it (empty ones included)."""
    layers = [layer]
    for _ in range(steps):
        layers.append(driver.expand(layers[-1], "a"))
    return layers


def _layers(
    driver: dp.Local, holes: int, s: int, f: int | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    kernel = driver.kernel
    steps = holes - 2  # the jumps from one empty hole to one peg
    if steps < 0:  # one hole: the start is the only position, with no peg
        return (1,), (0,)
    driver.plan(steps if f == s else 2 * steps)
    if f is None:
        # The search from every one-peg position at once: all the vacancies.
        ends = [kernel.start([hole]) for hole in range(holes)]
        first = kernel.merge(ends, driver.core_options())
    else:
        first = kernel.start([f])
    # The search from the finish, whole; for start = finish it is also the
    # search from the start.
    backward: list[_core.PegLayer | None] = list(_search(driver, first, steps))
    same = f == s
    layer = kernel.start([s])
    reachable, winning = [], []
    for n in range(steps + 1):
        if same:
            found = backward[n]
            assert found is not None
            layer = found
        elif n:
            layer = driver.expand(layer, "a")
        other = backward[steps - n]
        assert other is not None
        reachable.append(len(layer))
        on_lines = 0
        if len(layer) and len(other):
            on_lines = kernel.meeting_positions(layer, other, driver.core_options())
        winning.append(int(on_lines))
        if not same:
            backward[steps - n] = None  # joined for the last time: freed
    return tuple(reachable), tuple(winning)
