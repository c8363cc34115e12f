"""Polyomino pieces for tilings: :class:`Piece` (a set of cells with a name,
drawn in text, turned and flipped), the catalogue of standard sets
(:func:`piece_set`: the 12 pentominoes under their usual letters, the 5
tetrominoes, trominoes, the domino, the monomino) and what boards share with
pieces: the reading of cells drawn in text (:func:`read_cells`) and the grid
that cells span (:func:`extent`, :class:`Framed`).

Cells are ``(row, col)``, row 0 at the top, as everywhere in the package.  A
piece is kept *normalised*: moved so that its topmost row and leftmost column
are 0, its cells sorted, so two pieces of the same shape in the same
orientation compare equal.

>>> [p.name for p in piece_set("pentominoes")]
['F', 'I', 'L', 'N', 'P', 'T', 'U', 'V', 'W', 'X', 'Y', 'Z']
>>> f = piece_set("pentominoes")[0]
>>> print(f)
.##
##.
.#.
>>> len(f.orientations()), len(f.orientations("rotate")), len(f.orientations("fixed"))
(8, 4, 1)
>>> Piece.parse("##\\n#.", name="corner").cells
((0, 0), (0, 1), (1, 0))
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .._engine import _validate
from .._engine._value import Valued

__all__ = [
    "PIECE_SETS",
    "TURNS",
    "Piece",
    "Framed",
    "board_symmetries",
    "extent",
    "piece_set",
    "read_cells",
]

Cell = tuple[int, int]

#: How a piece may be turned when it is placed: ``"free"`` (rotations and
#: reflections: the 8 symmetries of the square), ``"rotate"`` (the 4 rotations,
#: a one-sided piece) or ``"fixed"`` (as drawn).
TURNS: tuple[str, ...] = ("free", "rotate", "fixed")

#: The largest piece or board side read from text: a slip, not a puzzle, past it.
MAX_SIDE = 1000

# The 8 symmetries of the square as maps of (row, col); the first 4 are the
# rotations (identity first), the last 4 the reflections.
_SYMMETRIES: tuple[Callable[[int, int], Cell], ...] = (
    lambda r, c: (r, c),
    lambda r, c: (c, -r),
    lambda r, c: (-r, -c),
    lambda r, c: (-c, r),
    lambda r, c: (r, -c),
    lambda r, c: (c, r),
    lambda r, c: (-r, c),
    lambda r, c: (-c, -r),
)
_USED = {"free": 8, "rotate": 4, "fixed": 1}


def read_cells(text: Any, what: str, filled: str, blank: str) -> frozenset[Cell]:
    """The cells drawn in ``text``: one line per row, a character of
    ``filled`` for a cell, of ``blank`` (or a space) for none.  Blank lines
    around the drawing, a common indentation and trailing spaces are ignored;
    a bad character is a ``ValueError`` naming its line and column (of the
    text as given); ``what`` names the drawing in messages.

    >>> sorted(read_cells(" ..\\n .#", "board", ".", "#"))
    [(0, 0), (0, 1), (1, 0)]
    """
    if not isinstance(text, str):
        raise TypeError(f"{what} must be a str drawing it, got {type(text).__name__}")
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = [(number, line.rstrip(" ")) for number, line in enumerate(lines, start=1)]
    while numbered and not numbered[0][1]:
        numbered.pop(0)
    while numbered and not numbered[-1][1]:
        numbered.pop()
    expected = (
        f"expected {' or '.join(filled)} for a cell, {' or '.join(blank)} or a space for none"
    )
    if not numbered:
        raise ValueError(f"{what} text is empty: draw it one line per row ({expected})")
    if len(numbered) > MAX_SIDE or max(len(line) for _, line in numbered) > MAX_SIDE:
        raise ValueError(f"{what} is more than {MAX_SIDE} rows or columns")
    indent = min(len(line) - len(line.lstrip(" ")) for _, line in numbered if line)
    cells = set()
    for row, (number, line) in enumerate(numbered):
        for column in range(indent, len(line)):
            char = line[column]
            if char in filled:
                cells.add((row, column - indent))
            elif char != " " and char not in blank:
                raise ValueError(
                    f"{what}: line {number}, column {column + 1}: unexpected {char!r} ({expected})"
                )
    if not cells:
        raise ValueError(f"{what} has no cell ({expected})")
    return frozenset(cells)


def extent(cells: Iterable[Cell]) -> tuple[int, int]:
    """The rows and columns of the grid, from row and column 0, that
    ``cells`` (not empty) reach.

    >>> extent([(0, 3), (2, 1)])
    (3, 4)
    """
    cells = list(cells)
    return max(r for r, _ in cells) + 1, max(c for _, c in cells) + 1


class Framed:
    """``rows`` and ``cols``: the grid from row and column 0 that the cells
    of ``self._framed()`` reach (:func:`extent`), for pieces and tilings."""

    __slots__ = ()

    def _framed(self) -> Iterable[Cell]:
        raise NotImplementedError

    @property
    def rows(self) -> int:
        return extent(self._framed())[0]

    @property
    def cols(self) -> int:
        return extent(self._framed())[1]


def _normalised(cells: Iterable[Cell]) -> tuple[Cell, ...]:
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return tuple(sorted((r - top, c - left) for r, c in cells))


def board_symmetries(cells: Iterable[Cell]) -> list[dict[Cell, Cell]]:
    """The symmetries of the square (rotations first) that map the set
    ``cells`` onto itself, other than the identity, each as ``{cell: image}``.

    >>> len(board_symmetries([(0, 0), (0, 1), (1, 0), (1, 1)]))
    7
    >>> board_symmetries([(0, 0), (0, 1), (0, 2), (1, 0)])
    []
    >>> [images[(5, 5)] for images in board_symmetries([(5, 5), (5, 6)])]
    [(5, 6), (5, 6), (5, 5)]
    """
    cells = sorted(cells)
    board, shape = set(cells), _normalised(cells)
    top, left = min(r for r, _ in cells), min(c for _, c in cells)
    found = []
    for move in _SYMMETRIES[1:]:
        moved = [move(r, c) for r, c in cells]
        if _normalised(moved) != shape:
            continue
        dr = top - min(r for r, _ in moved)
        dc = left - min(c for _, c in moved)
        images = {cell: (r + dr, c + dc) for cell, (r, c) in zip(cells, moved, strict=True)}
        assert set(images.values()) == board
        found.append(images)
    return found


class Piece(Framed, Valued):
    """A polyomino (any non-empty set of cells) with a name.

    ``Piece(cells, name=...)`` takes ``(row, col)`` cells; :meth:`parse` reads
    a drawing (``#`` a cell, ``.`` or a space none).  Pieces are immutable,
    hashable and equal when their names and normalised cells are equal.

    >>> Piece([(5, 5), (5, 6)], name="domino")
    Piece('##', name='domino')
    >>> Piece.parse("#.\\n##", name="v").orientations()[1].cells
    ((0, 0), (0, 1), (1, 0))
    """

    __slots__ = ("cells", "name")

    cells: tuple[Cell, ...]
    name: str

    def __init__(self, cells: Iterable[Cell], *, name: str) -> None:
        if not isinstance(name, str) or not name or not name.isprintable() or " " in name:
            raise ValueError(
                "a piece's name must be a non-empty str without spaces, "
                f"got {_validate.shown(name)}"
            )
        given = [
            _validate.square(cell, "a cell of a piece")
            for cell in _validate.iterable(cells, "cells", "an iterable of (row, col) cells")
        ]
        if not given:
            raise ValueError(f"piece {name!r} has no cell")
        if len(set(given)) != len(given):
            raise ValueError(f"piece {name!r} has a cell twice")
        object.__setattr__(self, "cells", _normalised(given))
        object.__setattr__(self, "name", name)

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("a Piece is immutable")

    @classmethod
    def parse(cls, text: str, *, name: str) -> Piece:
        """A piece drawn in text: ``#`` (or any of ``X``, ``x``, ``o``, ``O``)
        a cell, ``.`` or a space none.

        >>> Piece.parse("o.\\noo", name="L3")
        Piece('#.\\n##', name='L3')
        """
        return cls(read_cells(text, f"piece {name!r}", "#XxoO", "."), name=name)

    def _framed(self) -> tuple[Cell, ...]:
        return self.cells

    def __len__(self) -> int:
        return len(self.cells)

    def orientations(self, turns: str = "free") -> tuple[Piece, ...]:
        """The distinct orientations of the piece under ``turns`` (one of
        :data:`TURNS`), the piece as given first, then in a fixed order of
        the square's symmetries (rotations first)."""
        turns = _validate.choice(turns, "turns", TURNS)
        seen: dict[tuple[Cell, ...], None] = {}
        for move in _SYMMETRIES[: _USED[turns]]:
            seen.setdefault(_normalised(move(r, c) for r, c in self.cells))
        return tuple(self._shaped(cells) for cells in seen)

    def _shaped(self, cells: tuple[Cell, ...]) -> Piece:
        piece = object.__new__(Piece)
        object.__setattr__(piece, "cells", cells)
        object.__setattr__(piece, "name", self.name)
        return piece

    def __str__(self) -> str:
        cells = set(self.cells)
        return "\n".join(
            "".join("#" if (r, c) in cells else "." for c in range(self.cols))
            for r in range(self.rows)
        )

    def __repr__(self) -> str:
        return f"Piece({str(self)!r}, name={self.name!r})"

    def _key(self) -> tuple[str, tuple[Cell, ...]]:
        return (self.name, self.cells)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_piece, (self.cells, self.name))


def _piece(cells: tuple[Cell, ...], name: str) -> Piece:
    """A pickled :class:`Piece` back."""
    return Piece(cells, name=name)


# The standard sets, drawn; names as in Golomb's *Polyominoes* (pentominoes:
# Conway's letters F I L N P T U V W X Y Z by their look).
_DRAWN: dict[str, dict[str, str]] = {
    "pentominoes": {
        "F": ".##\n##.\n.#.",
        "I": "#####",
        "L": "####\n#...",
        "N": "##..\n.###",
        "P": "##\n##\n#.",
        "T": "###\n.#.\n.#.",
        "U": "#.#\n###",
        "V": "#..\n#..\n###",
        "W": "#..\n##.\n.##",
        "X": ".#.\n###\n.#.",
        "Y": "####\n.#..",
        "Z": "##.\n.#.\n.##",
    },
    "tetrominoes": {"I": "####", "O": "##\n##", "T": "###\n.#.", "S": ".##\n##.", "L": "###\n#.."},
    "trominoes": {"I": "###", "L": "##\n#."},
    "domino": {"D": "##"},
    "monomino": {"M": "#"},
}

#: The names :func:`piece_set` knows (and ``solvers tiling --pieces``).
PIECE_SETS: tuple[str, ...] = tuple(_DRAWN)


def piece_set(name: str) -> tuple[Piece, ...]:
    """A standard set of free pieces by its name (one of :data:`PIECE_SETS`).

    >>> [len(p) for p in piece_set("tetrominoes")]
    [4, 4, 4, 4, 4]
    """
    name = _validate.choice(name, "piece set", PIECE_SETS)
    return tuple(Piece.parse(text, name=letter) for letter, text in _DRAWN[name].items())
