"""Peg solitaire: count the jump sequences that leave a single peg, on any board.

A game starts with a peg in every hole but ``start``; a jump takes a peg over
a neighbouring peg into an empty hole and removes the peg jumped over.  A
solution is a sequence of jumps that leaves one peg (on ``finish``, if given).
Counts are exact (``u128`` in the core, checked), and the same for every
``threads``.

>>> count_peg_solutions(PegBoard.triangle(5), start=(0, 0), finish=None)
29760
>>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3))
432

How it counts: Python drives a layer-by-layer DP, the Rust kernel
(``src/peg/``) turns one layer of positions into the next.  Positions are
kept once per class of the board symmetries that fix the start (and the
finish), and a count with a given finish runs two searches, one from the start
and one backwards from the finish (a backward jump is a jump on the
complemented board), that meet in the middle layer, so only positions both can
reach are ever joined.  With ``executor=`` the layers are cut into parts by a
hash of the positions and expanded part by part in the executor's tasks.
One driver, :mod:`solvers._peg_dp`, decides what to grow and when to join for
both ways of running (:mod:`solvers._peg_dist` runs the layers on an
executor); this module owns the public face: arguments, solutions, finding
and listing them.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Executor
from typing import Any, Literal, NamedTuple, overload

from . import _args, _core, _peg_dp, _validate, render
from ._peg_dist import Distributed
from .checkpoint import Checkpoint
from .pegboard import Hole, PegBoard, Square

__all__ = [
    "MAX_HOLES",
    "Finish",
    "Jump",
    "PegBoard",
    "PegSolution",
    "count_peg_solutions",
    "find_peg_solution",
    "finish_counts",
    "is_peg_solution",
    "peg_solutions",
    "solve_peg",
]

#: Where the last peg must end: a hole, ``"start"`` (the start hole) or
#: ``None`` (anywhere).
Finish = Hole | Literal["start"] | None

#: Boards are stored in 64 bits: at most this many holes.
MAX_HOLES: int = _core.MAX_PEG_HOLES

_METHODS = ("meet", "forward")


class Jump(NamedTuple):
    """One move: the peg on ``source`` jumps over ``over`` into the empty ``landing``."""

    source: tuple[int, int]
    over: tuple[int, int]
    landing: tuple[int, int]


class PegSolution(Sequence[Jump]):
    """A game of peg solitaire: the board, the empty start hole and the jumps,
    checked on construction (every jump legal, one peg left at the end).

    It is an immutable sequence of :class:`Jump`; it replays itself
    (:meth:`positions`), prints as a numbered list of jumps, and draws itself
    as a strip of boards (:meth:`to_svg`, shown by Jupyter) or as one HTML page
    that steps through the jumps (:meth:`to_html`).

    Solutions compare equal, and hash alike, when board, start and jumps
    are the same; they pickle (to move between processes).

    >>> game = PegSolution(PegBoard.rectangle(1, 3), [((0, 2), (0, 1), (0, 0))], start=(0, 0))
    >>> game
    PegSolution(PegBoard.rectangle(1, 3), start=(0, 0), 1 jump, last peg on (0, 0))
    >>> print(game)
    1. (0,2) over (0,1) to (0,0)
    >>> [sorted(pegs) for pegs in game.positions()]
    [[(0, 1), (0, 2)], [(0, 0)]]
    """

    __slots__ = ("_board", "_start", "_jumps")

    def __init__(self, board: PegBoard, jumps: Iterable[Any], *, start: Hole) -> None:
        board = checked_board(board)
        first = board.holes[board.normalize_square(start, "start")]
        moves = _jumps(jumps)
        problem = _replay_defect(board, first, moves)
        if problem is not None:
            raise ValueError(f"not a peg solitaire solution: {problem}")
        self._board, self._start, self._jumps = board, first, moves

    def __reduce__(self) -> tuple[Any, ...]:
        # Trusted on the way back, as every pickle is: it can run any code anyway.
        return (_solution, (self._board, self._start, self._jumps))

    @classmethod
    def _trusted(cls, board: PegBoard, start: Square, jumps: tuple[Jump, ...]) -> PegSolution:
        game = cls.__new__(cls)
        game._board, game._start, game._jumps = board, start, jumps
        return game

    @property
    def board(self) -> PegBoard:
        return self._board

    @property
    def start(self) -> Square:
        """The hole that is empty when the game starts."""
        return self._start

    @property
    def finish(self) -> Square:
        """The hole of the last peg."""
        if self._jumps:
            return self._jumps[-1].landing
        (last,) = set(self._board.holes) - {self._start}
        return last

    @property
    def jumps(self) -> tuple[Jump, ...]:
        return self._jumps

    def positions(self) -> list[frozenset[Square]]:
        """The pegs on the board before the first jump and after each jump:
        ``len(self) + 1`` sets of squares."""
        pegs = set(self._board.holes) - {self._start}
        out = [frozenset(pegs)]
        for source, over, landing in self._jumps:
            pegs -= {source, over}
            pegs.add(landing)
            out.append(frozenset(pegs))
        return out

    def __len__(self) -> int:
        return len(self._jumps)

    def __iter__(self) -> Iterator[Jump]:
        return iter(self._jumps)

    @overload
    def __getitem__(self, i: int) -> Jump: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Jump, ...]: ...
    def __getitem__(self, i: int | slice) -> Jump | tuple[Jump, ...]:
        return self._jumps[i]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PegSolution):
            return (self._board, self._start, self._jumps) == (
                other._board,
                other._start,
                other._jumps,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._board, self._start, self._jumps))

    def __repr__(self) -> str:
        count = len(self._jumps)
        return (
            f"PegSolution({self._board!r}, start={self._start}, "
            f"{count} jump{'' if count == 1 else 's'}, last peg on {self.finish})"
        )

    def __str__(self) -> str:
        def sq(square: Square) -> str:
            return f"({square[0]},{square[1]})"

        return "\n".join(
            f"{number}. {sq(a)} over {sq(b)} to {sq(c)}"
            for number, (a, b, c) in enumerate(self._jumps, start=1)
        )

    def to_svg(self, *, cell: float | None = None, columns: int | None = None) -> str:
        """A strip of boards, one per position, each labelled with its jump."""
        return render.peg_solution_svg(self, cell=cell, columns=columns)

    def to_html(self, *, cell: float | None = None) -> str:
        """One self-contained HTML page that steps through the jumps (buttons,
        arrow keys, or play), with every position drawn as inline SVG."""
        return render.peg_solution_html(self, cell=cell)

    def _repr_svg_(self) -> str:
        return self.to_svg()


def _solution(board: PegBoard, start: Square, jumps: tuple[Jump, ...]) -> PegSolution:
    """A pickled :class:`PegSolution` back."""
    return PegSolution._trusted(board, start, tuple(Jump(*jump) for jump in jumps))


def _jumps(jumps: Any) -> tuple[Jump, ...]:
    """``jumps`` as :class:`Jump` s of ``(row, col)`` squares (``TypeError`` if
    they are not three squares each)."""
    what = "an iterable of (source, over, landing) triples of (row, col) squares"
    out = []
    for number, jump in enumerate(_validate.iterable(jumps, "jumps", what), start=1):
        parts = _validate.items(
            jump, 3, f"jump {number}", "three (row, col) squares (source, over, landing)"
        )
        out.append(Jump(*(_validate.square(part, f"jump {number} square") for part in parts)))
    return tuple(out)


def _replay_defect(
    board: PegBoard, start: Square, jumps: tuple[Jump, ...], finish: Square | None = None
) -> str | None:
    """Why ``jumps`` is not a game from ``start`` to one peg (on ``finish`` if
    given), or ``None``."""
    legal = {tuple(board.holes[h] for h in jump) for jump in board.jumps}
    pegs = set(board.holes) - {start}
    for number, jump in enumerate(jumps, start=1):
        if tuple(jump) not in legal:
            return f"jump {number} {tuple(jump)} is not a jump of this board"
        source, over, landing = jump
        if source not in pegs or over not in pegs or landing in pegs:
            return f"jump {number} {tuple(jump)} is not legal in its position"
        pegs -= {source, over}
        pegs.add(landing)
    if len(pegs) != 1:
        return f"{len(pegs)} pegs are left after {len(jumps)} jumps, not 1"
    if finish is not None and finish not in pegs:
        return f"the last peg is on {next(iter(pegs))}, not on {finish}"
    return None


def is_peg_solution(
    board: PegBoard, jumps: Iterable[Any], *, start: Hole, finish: Finish = "start"
) -> bool:
    """Whether ``jumps`` (``(source, over, landing)`` triples of ``(row, col)``
    squares, or a :class:`PegSolution`) plays ``board``, full but ``start``,
    down to one peg on ``finish``: a hole, ``"start"`` (the default, as for
    :func:`count_peg_solutions`) or ``None`` (anywhere).  Every jump must be a
    jump of the board, over a peg, from a peg, into an empty hole.

    >>> board = PegBoard.rectangle(1, 3)
    >>> is_peg_solution(board, [((0, 2), (0, 1), (0, 0))], start=(0, 0))
    True
    >>> is_peg_solution(board, [((0, 2), (0, 1), (0, 0))], start=(0, 0), finish=(0, 2))
    False
    >>> is_peg_solution(board, [], start=(0, 0), finish=None)  # two pegs left
    False
    """
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    f = _finish(board, finish, s)
    moves = _jumps(jumps)
    last = None if f is None else board.holes[f]
    return _replay_defect(board, board.holes[s], moves, last) is None


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


def _reachable_class(board: PegBoard, s: int, f: int | None) -> bool:
    """False when the finish is in another position class than the start."""
    checks = _parity_checks(board)
    full = (1 << len(board)) - 1
    start = _position_class(checks, full & ~(1 << s))
    finishes = range(len(board)) if f is None else [f]
    return any(_position_class(checks, 1 << h) == start for h in finishes)


def _finish(board: PegBoard, finish: Any, s: int) -> int | None:
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


def _overflow(board: PegBoard, start: Hole) -> OverflowError:
    return OverflowError(
        f"the number of solutions on {board!r} from {start!r} does not fit the 128-bit "
        "counter (no answer is better than a wrong one)"
    )


def dp_driver(
    board: PegBoard,
    group: Any,
    executor: Executor | None,
    parts: Any,
    threads: Any,
    progress: Any,
    timeout: Any,
    memory: Any = None,
    spill: Any = None,
) -> _peg_dp.Driver:
    """The DP's driver for a call: on ``executor`` (cut into ``parts``, the
    pieces in files inside ``spill``), or here (within ``memory`` bytes,
    spilling into ``spill``, if given)."""
    budget = _validate.memory(memory)
    spill_dir = _args.spill_directory(spill)
    if budget is None and spill_dir is not None and executor is None:
        raise ValueError(
            "spill= is where layers past the memory budget go (or, with executor=, the "
            "directory the tasks share): give memory= too"
        )
    if budget is not None:
        if executor is not None or parts is not None:
            raise ValueError(
                "memory= is the budget of a count in this process: no executor= or parts="
            )
        return _peg_dp.Budgeted(board, group, threads, progress, timeout, budget, spill_dir)
    if executor is None and parts is None:
        return _peg_dp.Local(board, group, threads, progress, timeout)
    if executor is None:
        raise ValueError("parts= cuts the layers for executor=; give an executor too")
    return Distributed(board, group, executor, parts, threads, progress, timeout, spill_dir)


def checked_board(board: Any) -> PegBoard:
    """``board``, if it is a :class:`PegBoard` (for every peg call's check)."""
    if not isinstance(board, PegBoard):
        raise TypeError(
            f"board must be a PegBoard (e.g. PegBoard.english()), got {type(board).__name__}"
        )
    return board


def count_peg_solutions(
    board: PegBoard,
    *,
    start: Hole,
    finish: Finish = "start",
    threads: int | None = None,
    progress: bool = False,
    timeout: float | None = None,
    method: str = "meet",
    executor: Executor | None = None,
    parts: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    memory: int | str | None = None,
    spill: str | os.PathLike[str] | None = None,
) -> int:
    """The number of jump sequences from ``board`` full but ``start`` to a single
    peg on ``finish``: a hole, ``"start"`` (the default: the classic
    single-vacancy problem) or ``None`` (the last peg anywhere).

    ``method="meet"`` (default) meets a search from the start and one from the
    finish in the middle; ``"forward"`` goes all the way from the start (the
    seed's way).  Both give the same number.

    ``executor=`` (any :class:`concurrent.futures.Executor`: a
    ``ProcessPoolExecutor``, or ``dask.distributed.Client(...).get_executor()``)
    spreads the layers over its workers: each layer is cut into ``parts`` parts
    by a fixed hash of the positions (``None``: one per worker where the
    executor tells, else 8), one task per part and layer, each running the
    kernel on ``threads`` threads (``None``: the worker's).  Between layers the
    pieces pass through files: each task writes its own in a new directory
    inside ``spill`` (``None``: the system's temporary directory; on a cluster
    of several machines, a directory on a shared filesystem that every worker
    sees at the same path), and this process passes on only where they lie.
    The directory goes, with every file in it, when the count ends, however it
    ends.  The answer is the same for every ``parts``; see
    ``solvers._peg_dist`` for the scheme.

    ``checkpoint`` (a file, without an executor) saves the newest layer of
    each search as it is built, and the total at the end: a count that was
    killed goes on from its last layers when called again the same way.
    With ``memory=`` the checkpoint is a directory instead (made if
    missing), a subdirectory per search holding its newest layer in checked
    files, written so that a kill at any moment leaves the last layer whole;
    at the end it keeps only the total.  A directory of another count, or a
    damaged one, raises ``ValueError``, never a wrong count.

    ``memory`` (bytes, a size such as ``"1GB"``, or ``"auto"``: half of
    the memory available when the call starts; not with ``executor=``) is
    a budget for a count in this process: a step whose layers would not fit goes through files in a
    new directory inside ``spill`` (the system's temporary directory if
    ``None``), removed when the count ends, and the two searches meet shard
    by shard.  The answer is the same; peak memory stays near the budget.
    ``None`` (the default) keeps every layer in memory.

    >>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3))
    432
    >>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3), method="forward")
    432
    >>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3), memory="1MiB")
    432
    """
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    method = _validate.choice(method, "method", _METHODS)
    f = _finish(board, finish, s)
    if checkpoint is not None and (executor is not None or parts is not None):
        raise ValueError("checkpoint= saves the layers of a count in this process: no executor")
    group = board.symmetries_fixing(s) if f is None else board.symmetries_fixing(s, f)
    driver = dp_driver(board, group, executor, parts, threads, progress, timeout, memory, spill)
    ledger = None
    saved = None
    try:
        if checkpoint is not None and isinstance(driver, _peg_dp.Budgeted):
            saved = _args.checkpoint_directory(checkpoint), _problem_tag(board, s, f, method)
            answer = driver.kernel.saved_answer(*saved)
            if answer is not None:
                return answer  # counted to the end before
            driver.keep_in(*saved)
        elif checkpoint is not None:
            assert isinstance(driver, _peg_dp.Local)
            ledger = _ledger(checkpoint, board, s, f, method)
            if 0 in ledger.done:
                return ledger.done[0]  # counted to the end before
            driver.keep(ledger)
        reachable = _reachable_class(board, s, f)
        count = _peg_dp.count(driver, board, s, f, method, reachable=reachable)
        if ledger is not None:
            ledger.record([(0, count)])
        if saved is not None:
            driver.kernel.save_answer(*saved, count)
            for side in ("a", "b"):  # the answer is all a rerun needs
                shutil.rmtree(os.path.join(saved[0], side), ignore_errors=True)
        return count
    except OverflowError as error:
        raise _overflow(board, start) from error
    finally:
        driver.close()
        if ledger is not None:
            ledger.close()


def _problem(board: PegBoard, s: int, f: int | None, method: str) -> str:
    """What a checkpoint of one peg count is pinned to."""
    return json.dumps(
        {
            "family": "peg",
            "geometry": board.geometry,
            "holes": board.holes,
            "start": s,
            "finish": f,
            "method": method,
        }
    )


def _ledger(
    path: str | os.PathLike[str], board: PegBoard, s: int, f: int | None, method: str
) -> Checkpoint:
    """A checkpoint file of one peg count: its newest layers, then its total."""
    _args.checkpoint_path(path)
    return Checkpoint(path, _problem(board, s, f, method), 1)


def _problem_tag(board: PegBoard, s: int, f: int | None, method: str) -> int:
    """The 64-bit tag of one peg count in a checkpoint directory's files."""
    digest = hashlib.blake2b(_problem(board, s, f, method).encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "little")


def finish_counts(
    board: PegBoard,
    *,
    start: Hole,
    threads: int | None = None,
    progress: bool = False,
    timeout: float | None = None,
    executor: Executor | None = None,
    parts: int | None = None,
    memory: int | str | None = None,
    spill: str | os.PathLike[str] | None = None,
) -> dict[tuple[int, int], int]:
    """The number of solutions ending on each hole, from one forward pass:
    ``{square: count}`` for every hole of the board.  ``executor=`` and
    ``parts=`` spread the pass over an executor's workers, and ``memory=``
    and ``spill=`` keep it within a memory budget, as in
    :func:`count_peg_solutions` (with ``executor=``, ``spill=`` is the
    directory the tasks share).

    >>> ends = finish_counts(PegBoard.rectangle(3, 4), start=(0, 0))
    >>> ends[(0, 3)], sum(ends.values())
    (432, 852)
    """
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    counts = dict.fromkeys(board.holes, 0)
    group = board.symmetries_fixing(s)
    driver = dp_driver(board, group, executor, parts, threads, progress, timeout, memory, spill)
    try:
        for hole, count in _peg_dp.finish_counts(driver, board, s):
            counts[board.holes[hole]] = count
        return counts
    except OverflowError as error:
        raise _overflow(board, start) from error
    finally:
        driver.close()


def find_peg_solution(
    board: PegBoard,
    *,
    start: Hole,
    finish: Finish = "start",
    timeout: float | None = None,
) -> PegSolution | None:
    """One solution, as a :class:`PegSolution` (a sequence of jumps), or
    ``None`` when there is none.  ``solve_peg`` is another name for it.

    ``finish`` is a hole, ``"start"`` (default) or ``None`` (any single peg).
    A depth-first search in Rust that remembers the positions it has proved
    dead (one per symmetry class), so ``None`` is certain.  The jumps are tried
    in the board's jump order, so the answer is the same on every run.

    >>> board = PegBoard.english()
    >>> moves = find_peg_solution(board, start=(3, 3))
    >>> len(moves), moves[0]
    (31, Jump(source=(1, 3), over=(2, 3), landing=(3, 3)))
    >>> find_peg_solution(PegBoard.rectangle(3, 4), start=(0, 0), finish=(1, 1)) is None
    True
    """
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    f = _finish(board, finish, s)
    seconds = _validate.timeout(timeout)
    if not _reachable_class(board, s, f):
        return None
    # Whether a position can still be finished is the same for its images
    # under the symmetries that fix the finish (all of them for "anywhere").
    found = _kernel_fixing(board, f).solve([s], f, seconds)
    if found is None:
        return None
    return _game(board, s, found)


def _kernel_fixing(board: PegBoard, f: int | None) -> Any:
    """A kernel whose group fixes the finish ``f`` (every symmetry for
    ``None``): whether a position can still be finished is then the same
    for all its images, so the depth-first searches remember dead positions
    once per class."""
    group = board.symmetries if f is None else board.symmetries_fixing(f)
    return _peg_dp.new_kernel(_peg_dp.spec_of(board, group))


def _game(board: PegBoard, s: int, found: Sequence[int]) -> PegSolution:
    """The solution from hole ``s`` made of the jumps ``found`` (indices into
    ``board.jumps``), as the core found it: trusted, not replayed."""
    holes = board.holes
    jumps = tuple(Jump(*(holes[i] for i in board.jumps[j])) for j in found)
    return PegSolution._trusted(board, holes[s], jumps)


def peg_solutions(board: PegBoard, *, start: Any, finish: Any = "start") -> Iterator[PegSolution]:
    """Every solution, lazily, as :class:`PegSolution` objects found by a Rust
    thread as you iterate.

    ``finish`` is a hole, ``"start"`` (default) or ``None`` (the last peg
    anywhere).  The order is depth-first with the jumps tried in the order of
    ``board.jumps``: the solutions come in lexicographic order of their jump
    indices (``board.jumps.index(...)`` of each jump in turn).  Positions from
    which the finish cannot be reached are remembered (one per symmetry class,
    at most 16 million of them, so memory stays bounded) and never explored
    twice, so the first solution arrives at once even on the English board.
    There are as many solutions as :func:`count_peg_solutions` counts.
    Closing the iterator (or dropping it) stops the thread.

    >>> games = peg_solutions(PegBoard.triangle(5), start=(0, 0), finish=None)
    >>> first = next(games)
    >>> len(first), first[0]
    (13, Jump(source=(2, 0), over=(1, 0), landing=(0, 0)))
    >>> games.close()
    >>> sum(1 for _ in peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3)))
    432
    """
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    f = _finish(board, finish, s)
    if not _reachable_class(board, s, f):
        return _no_games()  # the finish is in another position class: none, at once
    stream = _core.PegStream(_kernel_fixing(board, f), [s], f)
    return _games_from(stream, board, s)


def _no_games() -> Iterator[PegSolution]:
    """An empty generator (a generator, like the others: it has ``close()``)."""
    yield from ()


def _games_from(stream: Any, board: PegBoard, s: int) -> Iterator[PegSolution]:
    try:
        for found in stream:
            yield _game(board, s, found)
    finally:
        stream.close()


#: The older name of :func:`find_peg_solution` (the same function).
solve_peg = find_peg_solution
