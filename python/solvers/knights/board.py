"""The board of a knight's tour: :class:`KnightBoard` (a rectangle, or a shape
drawn in text), squares and start squares, and the size limits of each method."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Any, Literal

from .. import _core
from .._engine import _validate
from .._engine._deprecated import moved

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

    def draw(self) -> str:
        """The board drawn as :meth:`parse` reads it (``.`` a square, ``#`` a
        missing one), as :meth:`PegBoard.draw <solvers.PegBoard.draw>` draws
        its board."""
        return "\n".join(
            "".join("." if self.is_square(r, c) else "#" for c in range(self.cols))
            for r in range(self.rows)
        )

    def text(self) -> str:
        """The old name of :meth:`draw` (deprecated: it goes in the next release)."""
        return moved("KnightBoard.text()", "KnightBoard.draw()", self.draw)()

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

    @property
    def spec(self) -> tuple[int, int, list[bool] | None]:
        """The board as the core takes it: ``(rows, cols, mask)``, the mask
        (row by row, ``True`` on a square) ``None`` for the whole rectangle."""
        return self.rows, self.cols, self._mask_list()


def search_limit(board: KnightBoard, what: str) -> None:
    rows, cols = board.span
    if rows * cols > MAX_SEARCH_CELLS:
        raise ValueError(
            f"{what} works on boards whose squares fit in a rectangle of at most "
            f"{MAX_SEARCH_CELLS} cells (rows x cols, missing squares inside included); "
            f"this one needs {rows}x{cols} = {rows * cols}. "
            "find_tour() handles boards of any size"
        )


def frontier_limit(board: KnightBoard) -> None:
    rows, cols = board.span
    if min(rows, cols) > MAX_FRONTIER_SIDE:
        raise ValueError(
            "the frontier count works on boards whose squares fit in a rectangle with a "
            f"shorter side of at most {MAX_FRONTIER_SIDE} (the longer side may be any length); "
            f"this one needs {rows}x{cols}"
        )
