"""Peg solitaire: every game, not only the wins.

A *game* is a sequence of jumps from the board full but ``start``, played
until no jump is left: it ends with one peg (a win) or stuck with more.
:func:`count_peg_games` counts them all in one forward pass of the layer DP
(:mod:`solvers.peg.dp`, the pass :func:`~solvers.peg.finish_counts` makes):
the sequences reaching a position with no jump are the games that end there.

The same pass counts the distinct positions after each number of jumps
(:attr:`PegGames.positions`), as the DP keeps them: one per class of the
board's symmetries that leave the start hole in place.

>>> games = count_peg_games(PegBoard.rectangle(3, 3), start=(0, 0))
>>> games.total, games.dead_end_table
(14, {5: 4, 4: 10})
>>> games.shortest_stuck, games.stuck_example[0]
(3, Jump(source=(0, 2), over=(0, 1), landing=(0, 0)))
>>> games.positions, games.positions_total
((1, 1, 2, 4, 2, 0, 0, 0), 10)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from .._engine import _args, _methods
from .._engine._checkpoint import Checkpoint, Lock
from .._engine._run import RunKeywords, RunOptions
from . import dp
from .board import Hole, PegBoard, Square
from .calls import checked_board, driving, overflow
from .count import _problem, _problem_tag
from .methods import EVERY_GAME
from .solution import Jump

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["PegGames", "count_peg_games"]

_K = TypeVar("_K")
_V = TypeVar("_V")


class _ReadOnlyDict(dict[_K, _V]):
    """A ``dict`` that cannot change after it is made, and so hashes: the
    tables of a :class:`PegGames`.  It reads, prints, compares and
    serialises (``json``, ``pickle``) as the dict it holds.

    >>> table = _ReadOnlyDict({5: 4, 4: 10})
    >>> table, table == {4: 10, 5: 4}, hash(table) == hash(_ReadOnlyDict({4: 10, 5: 4}))
    ({5: 4, 4: 10}, True, True)
    >>> table[1] = 0
    Traceback (most recent call last):
    ...
    TypeError: the tables of a PegGames are read-only: copy one with dict(...) to change it
    """

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(
            "the tables of a PegGames are read-only: copy one with dict(...) to change it"
        )

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (dict(self),))


@dataclass(frozen=True)
class PegGames:
    """Every game from one start: the counts by how they end, and a
    shortest game that gets stuck.  Counts are exact.

    ``dead_end_table`` maps the pegs left at the end to the number of games
    that end with that many (only the numbers that occur, most pegs first;
    ``1``: the wins).  ``wins`` maps every hole to the number of games that
    end with the last peg there.  ``shortest_stuck`` is the fewest jumps of
    a game that gets stuck with more than one peg (``None``: every game is
    won), and ``stuck_example`` one such game: the first in the order of
    ``board.jumps``.

    ``positions[n]`` is the number of distinct positions after ``n`` jumps
    (``n`` from 0, the start, to ``len(board) - 2``, the layer of one peg:
    a position after ``n`` jumps has ``len(board) - 1 - n`` pegs), counted
    *up to symmetry*: two positions that one of the board's symmetries
    leaving ``start`` in place maps onto each other count once (those are
    the symmetries the DP keeps; from the English centre, all 8, as OEIS
    A112737 counts them; from a start no symmetry fixes but the identity,
    every position counts).  A layer that no game reaches counts 0.
    ``positions_total`` is their sum.

    A ``PegGames`` is immutable and hashable: its tables are read-only
    mappings (``dict(games.wins)`` is a copy to change).
    """

    board: PegBoard
    start: Square
    dead_end_table: Mapping[int, int]
    wins: Mapping[Square, int]
    shortest_stuck: int | None
    stuck_example: tuple[Jump, ...] | None
    positions: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        # Read-only tables (and a tuple of jumps): a PegGames never changes,
        # and hashes like the package's other results.
        object.__setattr__(self, "dead_end_table", _ReadOnlyDict(self.dead_end_table))
        object.__setattr__(self, "wins", _ReadOnlyDict(self.wins))
        if self.stuck_example is not None:
            object.__setattr__(self, "stuck_example", tuple(self.stuck_example))
        object.__setattr__(self, "positions", tuple(self.positions))

    @property
    def total(self) -> int:
        """The number of games, won or stuck."""
        return sum(self.dead_end_table.values())

    @property
    def positions_total(self) -> int:
        """The distinct positions of every layer (up to symmetry, as
        :attr:`positions` counts them), in all."""
        return sum(self.positions)

    @property
    def won(self) -> int:
        """The number of games that end with one peg, anywhere."""
        return self.dead_end_table.get(1, 0)

    def __str__(self) -> str:
        rows = [f"games on {self.board!r} from {self.start}: {self.total:,}"]
        rows += [
            f"  {pegs:>2} peg{'' if pegs == 1 else 's'} left: {games:,}"
            for pegs, games in self.dead_end_table.items()
        ]
        if self.shortest_stuck is not None:
            rows.append(f"  shortest stuck game: {self.shortest_stuck} jumps")
        if self.positions:
            rows.append(f"  distinct positions (up to symmetry): {self.positions_total:,}")
        return "\n".join(rows)


def count_peg_games(
    board: PegBoard,
    *,
    start: Hole,
    method: str = "auto",
    **run: Unpack[RunKeywords],
) -> PegGames:
    """Every game of peg solitaire on ``board`` from the vacancy ``start``,
    played until no jump is left: the number of games by the pegs left at
    the end, the wins by finishing hole, a shortest game that gets stuck,
    and the distinct positions after each number of jumps (up to the
    symmetries that leave ``start`` in place: see :class:`PegGames`).

    Two games are different when their sequences of jumps differ (as Durango
    Bill counts them: the English board from the centre has
    577,116,156,815,309,849,672 games).  ``threads``, ``progress``,
    ``timeout``, ``executor``, ``parts``, ``checkpoint``, ``memory`` and
    ``spill`` are those of :func:`~solvers.peg.count_peg_solutions`; the
    answer does not depend on them.  A checkpoint keeps the newest layer and
    the figures of the layers before it (positions, games ended); a count
    run to the end resumes from its one-peg layer at once.  Counts are
    ``u128`` in the core, checked: a count that does not fit raises
    ``OverflowError``.  One method counts: ``"forward"`` (``"auto"``).

    >>> games = count_peg_games(PegBoard.triangle(5), start=(0, 0))
    >>> games.won, games.total
    (29760, 568630)
    >>> games.shortest_stuck, len(games.stuck_example)
    (6, 6)
    >>> games.positions[:6], games.positions_total
    ((1, 1, 4, 19, 62, 149), 1544)
    >>> count_peg_games(PegBoard.triangle(5), start=(0, 0), memory="1MiB").total
    568630
    """
    opts = RunOptions.of("count_peg_games", run)
    _methods.pick("count_peg_games", (EVERY_GAME,), method, opts.given())
    checkpoint = opts.checkpoint
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    group = board.symmetries_fixing(s)
    with driving(board, group, opts, overflow(board, start, "games")) as (driver, held):
        tally = dp.Games()
        if checkpoint is not None:
            ledger, lock = _keep(driver, checkpoint, board, s)
            held.callback(lock.release)
            held.callback(ledger.close)
            where = f"checkpoint {ledger.path!r}"
            tally = dp.Games(_saved_figures(ledger), _recorder(ledger), where)
        table, ends, positions = dp.games(driver, s, tally)
        shortest = max((pegs for pegs in table if pegs > 1), default=None)
        example = None
        if shortest is not None:
            jumps = len(board) - 1 - shortest
            found = driver.kernel.stuck_game([s], jumps, driver.core_options())
            assert found is not None  # the DP saw a game stuck after `jumps` jumps
            holes = board.holes
            example = tuple(Jump(*(holes[i] for i in board.jumps[j])) for j in found)
    wins = dict.fromkeys(board.holes, 0)
    for hole, games in ends:
        wins[board.holes[hole]] = games
    return PegGames(
        board=board,
        start=board.holes[s],
        dead_end_table=dict(sorted(table.items(), reverse=True)),
        wins=wins,
        shortest_stuck=None if shortest is None else len(board) - 1 - shortest,
        stuck_example=example,
        positions=positions,
    )


#: The method a checkpoint of a count of every game is pinned to (those of
#: ``count_peg_solutions`` are "meet" and "forward": never the same count).
_METHOD = "every-game"


def _keep(driver: dp.Driver, checkpoint: Any, board: PegBoard, s: int) -> tuple[Checkpoint, Lock]:
    """The ledger of the figures of the layers, and the driver set to save
    its layers in the core's layer files in the checkpoint directory (beside
    the ledger) and resume from those saved; and the checkpoint's lock, held
    (a count of every game writes as it goes: a checkpoint it may not write
    is refused with ``PermissionError``)."""
    problem = _problem(board, s, None, _METHOD)
    directory = _args.checkpoint_directory(checkpoint)
    driver.keep_in(directory, _problem_tag(board, s, None, _METHOD))
    path = _args.checkpoint_ledger(checkpoint)
    lock = Lock.of_ledger(path)
    try:
        ledger = Checkpoint(path, problem, 2 * (len(board) + 1))
    except BaseException:
        lock.release()
        raise
    try:
        ledger.need_writing()
    except BaseException:
        ledger.close()
        lock.release()
        raise
    return ledger, lock


# The ledger keeps, for the layer of ``pegs`` pegs, its positions as the
# result ``2 * pegs`` and its games ended as ``2 * pegs + 1``.


def _saved_figures(ledger: Checkpoint) -> dict[int, tuple[int, int]]:
    """``{pegs: (positions, games ended)}`` of the layers the ledger holds."""
    done = ledger.done
    return {
        idx // 2: (done[idx], done[idx + 1]) for idx in done if idx % 2 == 0 and idx + 1 in done
    }


def _recorder(ledger: Checkpoint) -> Any:
    """What records one layer's figures in ``ledger`` (one transaction)."""

    def record(pegs: int, positions: int, ended: int) -> None:
        ledger.record([(2 * pegs, positions), (2 * pegs + 1, ended)])

    return record
