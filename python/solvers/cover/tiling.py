"""Polyomino tilings as exact cover: :class:`TilingPuzzle` (a board drawn in
text, a set of pieces, each used once or any number of times, turned freely,
only rotated, or fixed) and :class:`Tiling` (one tiling, with its text and
SVG pictures).

Stated as exact cover: one primary item per cell of the board (named
``r{row}c{col}``) and, when each piece is used once, one per piece (its
name); one option per piece, orientation and place where it fits, listing
its piece and its cells.  The cells come first among the items, column by
column when the board is wider than tall, else row by row, then the
pieces: the order that lets ``method="memo"`` count boxes and strips.

>>> puzzle = TilingPuzzle((3, 20), "pentominoes")   # the 3 x 20 box
>>> puzzle.count()   # 2 tilings, each in its 4 reflections
8
>>> print(TilingPuzzle("...\\n...", "domino", each="any").find(deterministic=True))
AAB
CCB
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from .._engine import _validate
from .._engine._draw import Drawn
from .._engine._value import Valued
from . import pictures
from .model import Model
from .pieces import (
    PIECE_SETS,
    TURNS,
    Framed,
    Piece,
    board_symmetries,
    extent,
    piece_set,
    read_cells,
)
from .placing import NO_CELL, placed
from .problem import ExactCover
from .symmetry import maps_options

__all__ = ["EACH", "Tiling", "TilingPuzzle"]

Cell = tuple[int, int]

#: How often each piece is used: ``"once"`` (every piece exactly once) or
#: ``"any"`` (each any number of times, none included).
EACH: tuple[str, ...] = ("once", "any")

#: The most cells a board may have (the options grow with cells x orientations).
MAX_CELLS = 100_000

_CELL_NAME = re.compile(r"r\d+c\d+")


def _board(board: Any) -> frozenset[Cell]:
    """The cells of ``board``: a drawing (``.`` a cell, ``#`` or a space
    none) or ``(rows, cols)`` for a rectangle."""
    if isinstance(board, str):
        return read_cells(board, "board", ".", "#")
    if isinstance(board, (tuple, list)) and len(board) == 2:
        rows = _validate.positive(board[0], "board rows")
        cols = _validate.positive(board[1], "board cols")
        if rows * cols > MAX_CELLS:
            raise ValueError(f"board {rows}x{cols} has more than {MAX_CELLS} cells")
        return frozenset((r, c) for r in range(rows) for c in range(cols))
    raise TypeError(
        "board must be a str drawing it (. a cell, # or a space none) or (rows, cols), "
        f"got {_validate.shown(board)}"
    )


def _pieces(pieces: Any) -> tuple[Piece, ...]:
    """The pieces of ``pieces``: a set's name, a :class:`Piece`, a mapping of
    names to pieces or drawings, or an iterable of pieces."""
    if isinstance(pieces, str):
        if pieces not in PIECE_SETS:
            raise ValueError(
                f"pieces: unknown set {_validate.shown(pieces)}; the sets are "
                f"{', '.join(PIECE_SETS)} (or give Piece objects, or a dict of name: drawing)"
            )
        found: tuple[Piece, ...] = piece_set(pieces)
    elif isinstance(pieces, Piece):
        found = (pieces,)
    elif isinstance(pieces, Mapping):
        found = tuple(
            shape if isinstance(shape, Piece) and shape.name == name else _drawn(name, shape)
            for name, shape in pieces.items()
        )
    else:
        found = tuple(_validate.iterable(pieces, "pieces", "a set's name, Pieces or a dict"))
        for piece in found:
            if not isinstance(piece, Piece):
                raise TypeError(
                    f"pieces must be Piece objects (or a set's name, or a dict of name: drawing), "
                    f"got {_validate.shown(piece)}"
                )
    if not found:
        raise ValueError("pieces is empty: give at least one piece")
    names = [piece.name for piece in found]
    for name in names:
        if names.count(name) > 1:
            raise ValueError(f"two pieces are named {name!r}: each piece needs its own name")
        if _CELL_NAME.fullmatch(name):
            raise ValueError(f"piece name {name!r} is taken by a cell item (r<row>c<col>)")
    return found


def _drawn(name: Any, shape: Any) -> Piece:
    if not isinstance(name, str):
        raise TypeError(f"a piece's name must be a str, got {_validate.shown(name)}")
    if isinstance(shape, Piece):
        return Piece(shape.cells, name=name)
    return Piece.parse(shape, name=name)


def cell_item(cell: Cell) -> str:
    """The item of a cell in the exact-cover problem: ``r{row}c{col}``."""
    return f"r{cell[0]}c{cell[1]}"


class TilingPuzzle(Model["Tiling"]):
    """Cover every cell of a board with pieces, no two overlapping.

    ``board``: a drawing (``.`` a cell to cover, ``#`` or a space none; one
    line per row) or ``(rows, cols)`` for a rectangle.  ``pieces``: the name
    of a standard set (:data:`~solvers.cover.pieces.PIECE_SETS`), a
    :class:`Piece`, a list of them, or a dict of ``name: drawing``.
    ``each="once"``: every piece exactly once (their cells must add up to
    the board's); ``"any"``: each any number of times.  ``turns``:
    ``"free"`` (rotations and reflections, the default), ``"rotate"``
    (rotations only) or ``"fixed"`` (as drawn).

    :meth:`count`, :meth:`solutions`, :meth:`find` and
    :meth:`exact_cover` come from the exact-cover functions.

    >>> board = '''
    ...     #...
    ...     ....
    ...     ....
    ...     ...#
    ... '''
    >>> TilingPuzzle(board, "domino", each="any").count()   # two corners cut off: none
    0
    >>> TilingPuzzle(board.replace("#", "."), "domino", each="any").count()
    36
    """

    __slots__ = ("cells", "cols", "each", "pieces", "rows", "turns")

    cells: frozenset[Cell]
    pieces: tuple[Piece, ...]
    each: str
    turns: str
    rows: int
    cols: int

    def __init__(
        self, board: Any, pieces: Any = "pentominoes", *, each: str = "once", turns: str = "free"
    ) -> None:
        cells = _board(board)
        found = _pieces(pieces)
        each = _validate.choice(each, "each", EACH)
        turns = _validate.choice(turns, "turns", TURNS)
        if each == "once" and sum(map(len, found)) != len(cells):
            raise ValueError(
                f"each piece once: the {len(found)} pieces cover {sum(map(len, found))} cells, "
                f"the board has {len(cells)} (give each='any' to use pieces any number of times)"
            )
        rows, cols = extent(cells)
        for name, value in (
            ("cells", cells),
            ("pieces", found),
            ("each", each),
            ("turns", turns),
            ("rows", rows),
            ("cols", cols),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("a TilingPuzzle is immutable")

    def symmetries(self) -> list[dict[Hashable, Hashable]]:
        """The board's symmetries (of the square's 8, those that map the
        board onto itself) under which every placement is another
        placement: all of them with ``turns="free"``, fewer where the pieces
        may not turn.  ``count(unique=True)`` counts up to these.

        >>> TilingPuzzle((6, 10)).count(unique=True)   # doctest: +SKIP
        2339
        >>> len(TilingPuzzle((3, 3), "domino", each="any").symmetries())
        7
        """
        problem = self.exact_cover()
        found: list[dict[Hashable, Hashable]] = []
        for images in board_symmetries(self.cells):
            moved: dict[Hashable, Hashable] = {
                cell_item(cell): cell_item(image) for cell, image in images.items()
            }
            if maps_options(problem, moved):
                found.append(moved)
        return found

    def _numbered(self) -> tuple[ExactCover, Sequence[Any]]:
        # Every piece in every orientation at every place where its first
        # cell lands on a board cell and the rest fit, placed in Rust with no
        # Python step per option (the tests hold it to a statement written
        # option by option).  The order of the items is the order in which
        # the memoised count (method="memo") covers them: the cells swept
        # along the board's longer side, so that the cells left form a
        # staircase whose front is as short as the shorter side (a 5x12 box
        # counts in a second, and in no time at all row by row), then the
        # pieces.  The search picks items by their options left and only
        # breaks ties by this order.
        cols = self.cols
        board = sorted(self.cells)
        swept = sorted(board, key=lambda cell: (cell[1], cell[0])) if cols > self.rows else board
        numbers = [NO_CELL] * (self.rows * cols)
        for i, (r, c) in enumerate(swept):
            numbers[r * cols + c] = i
        anchors = array("I", [r * cols + c for r, c in board])
        primary = [cell_item(cell) for cell in swept]
        if self.each == "once":
            primary += [piece.name for piece in self.pieces]
        shapes, kinds = [], []
        for k, piece in enumerate(self.pieces):
            head = len(swept) + k if self.each == "once" else None
            for shape in piece.orientations(self.turns):
                r0, c0 = shape.cells[0]
                offsets = [(dr - r0, dc - c0) for dr, dc in shape.cells]
                shapes.append((offsets, head, anchors))
                kinds.append((piece.name, offsets))

        def meaning(s: int, row: int, col: int) -> tuple[str, tuple[Cell, ...]]:
            name, offsets = kinds[s]
            return name, tuple((row + dr, col + dc) for dr, dc in offsets)

        return placed(cols, numbers, shapes, tuple(primary), meaning)

    def _result(self, meanings: list[Any]) -> Tiling:
        return Tiling(self.cells, meanings, names=[p.name for p in self.pieces], each=self.each)

    def __repr__(self) -> str:
        names = "".join(p.name for p in self.pieces)
        return (
            f"<TilingPuzzle: {len(self.cells)} cells in {self.rows}x{self.cols}, "
            f"pieces {names if len(names) <= 40 else str(len(self.pieces))}, "
            f"each {self.each!r}, turns {self.turns!r}>"
        )


class Tiling(Framed, Valued, Drawn):
    """One tiling: the board's cells and the placed pieces, each a
    ``(name, cells)`` pair, sorted by their first cell in reading order.
    Tilings are immutable, compare equal when they place the same pieces on
    the same cells, print as text (a letter per cell: the piece's name
    when each piece is used once and names are single letters, else letters
    that differ between neighbours) and draw themselves as SVG (a colour per
    piece, or per placement when pieces repeat).

    >>> square = {(0, 0), (0, 1), (1, 0), (1, 1)}
    >>> t = Tiling(square, [("D", ((0, 0), (1, 0))), ("D", ((0, 1), (1, 1)))])
    >>> print(t)
    AB
    AB
    >>> t.verify()
    True
    """

    __slots__ = ("board", "colours", "placements")

    board: frozenset[Cell]
    placements: tuple[tuple[str, tuple[Cell, ...]], ...]
    colours: tuple[int, ...]

    def __init__(
        self,
        board: Iterable[Cell],
        placements: Iterable[tuple[str, Iterable[Cell]]],
        *,
        names: Iterable[str] | None = None,
        each: str = "any",
    ) -> None:
        cells = frozenset(
            _validate.square(cell, "a board cell")
            for cell in _validate.iterable(board, "board", "an iterable of (row, col) cells")
        )
        placed = sorted(
            (tuple(sorted(_validate.square(c, "a placed cell") for c in where)), str(name))
            for name, where in placements
        )
        object.__setattr__(self, "board", cells)
        object.__setattr__(self, "placements", tuple((name, where) for where, name in placed))
        order = list(names) if names is not None else []
        colours = pictures.piece_colours(self.placements, order if each == "once" else None)
        object.__setattr__(self, "colours", colours)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("a Tiling is immutable")

    def _framed(self) -> frozenset[Cell]:
        return self.board

    def __len__(self) -> int:
        return len(self.placements)

    def piece_at(self, cell: Cell) -> str | None:
        """The name of the piece on ``cell`` (``None`` off the board)."""
        for name, where in self.placements:
            if cell in where:
                return name
        return None

    def verify(self) -> bool:
        """Whether the placed pieces cover every cell of the board exactly once."""
        covered = [cell for _, where in self.placements for cell in where]
        return len(covered) == len(set(covered)) and set(covered) == self.board

    def _key(self) -> tuple[Any, ...]:
        return (self.board, self.placements)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_tiling, (tuple(sorted(self.board)), self.placements, self.colours))

    def __repr__(self) -> str:
        return f"<Tiling of {len(self.board)} cells by {len(self.placements)} pieces>"

    def __str__(self) -> str:
        return pictures.tiling_text(self)

    def to_svg(self, *, cell: float | None = None) -> str:
        """The tiling as an SVG picture: each piece filled with its colour,
        thick lines between pieces."""
        return pictures.tiling_svg(self, cell=cell)


def _tiling(board: Any, placements: Any, colours: tuple[int, ...]) -> Tiling:
    """A pickled :class:`Tiling` back."""
    tiling = Tiling(board, placements)
    object.__setattr__(tiling, "colours", colours)
    return tiling
