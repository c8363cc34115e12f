"""A game of peg solitaire as a result: :class:`Jump`, :class:`PegSolution`
(the board, the start and the jumps, with its positions and pictures) and
:func:`is_peg_solution`, the check of any list of jumps."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, overload

from .._engine import _validate
from .._engine._draw import Drawn
from .._engine._sequence import Stored
from .._engine._value import Valued
from . import pictures
from .board import Hole, PegBoard, Square
from .calls import Finish, checked_board, finish_hole


class Jump(NamedTuple):
    """One move: the peg on ``source`` jumps over ``over`` into the empty ``landing``."""

    source: tuple[int, int]
    over: tuple[int, int]
    landing: tuple[int, int]


class PegSolution(Stored[Jump], Valued, Drawn):
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

    def _stored(self) -> tuple[Jump, ...]:
        return self._jumps

    @overload
    def __getitem__(self, i: int) -> Jump: ...
    @overload
    def __getitem__(self, i: slice) -> tuple[Jump, ...]: ...
    def __getitem__(self, i: int | slice) -> Jump | tuple[Jump, ...]:
        return self._jumps[i]

    def _key(self) -> tuple[Any, ...]:
        return (self._board, self._start, self._jumps)

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
        return pictures.peg_solution_svg(self, cell=cell, columns=columns)

    def to_html(self, *, cell: float | None = None) -> str:
        """One self-contained HTML page that steps through the jumps (buttons,
        arrow keys, or play), with every position drawn as inline SVG."""
        return pictures.peg_solution_html(self, cell=cell)


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
    f = finish_hole(board, finish, s)
    moves = _jumps(jumps)
    last = None if f is None else board.holes[f]
    return _replay_defect(board, board.holes[s], moves, last) is None


def game_of(board: PegBoard, s: int, found: Sequence[int]) -> PegSolution:
    """The solution from hole ``s`` made of the jumps ``found`` (indices into
    ``board.jumps``), as the core found it: trusted, not replayed."""
    holes = board.holes
    jumps = tuple(Jump(*(holes[i] for i in board.jumps[j])) for j in found)
    return PegSolution._trusted(board, holes[s], jumps)
