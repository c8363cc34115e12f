"""Reading a Sudoku: the grid from a string or a list of rows, the box
shape, and the checks of the givens (every digit in range, none twice in a
unit), whose errors say what was typed and where (:class:`~solvers.Sudoku`
calls them).

>>> grid_from_text("12.. 34.. .... ....", {})[0]
[1, 2, 0, 0]
>>> box_of(None, 6), box_shape("3x2")
((2, 3), (3, 2))
"""

from __future__ import annotations

import math
import string
from collections.abc import Callable
from typing import Any

from .._engine import _validate
from . import pictures
from .sudoku_units import Units

__all__ = [
    "BLANKS",
    "DECORATION",
    "Grid",
    "Typed",
    "box_of",
    "box_shape",
    "check_givens",
    "grid_from_rows",
    "grid_from_text",
    "symbols",
]

#: The characters of a puzzle's string that stand for a blank cell.
BLANKS = ".0_"
#: Drawing characters a puzzle's string may hold between cells (ignored).
DECORATION = "|+-"

Grid = tuple[tuple[int, ...], ...]

#: Where each cell given as a character was typed: ``(row, col)`` to the
#: character and its place in the text ("line 1, column 3"), so that an
#: error can name what was typed rather than the number it stands for.
Typed = dict[tuple[int, int], tuple[str, str]]


def symbols(side: int) -> str:
    """The symbols of a grid of ``side``, in words.

    >>> symbols(4), symbols(9), symbols(10), symbols(16)
    ('1-4', '1-9', '1-9 and A', '1-9 and A-G')
    """
    digits = f"1-{min(side, 9)}" if side > 1 else "1"
    if side <= 9:
        return digits
    last = pictures.SYMBOLS[min(side, len(pictures.SYMBOLS)) - 1]
    return f"{digits} and {'A' if last == 'A' else f'A-{last}'}"


def box_shape(box: Any) -> tuple[int, int]:
    """A box shape ``(rows, cols)`` given as a pair or as text ``"RxC"``."""
    if isinstance(box, str):
        parts = box.lower().split("x")
        if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"box must be written RxC (like 2x3), got {box!r}")
        high, wide = int(parts[0]), int(parts[1])
        if high < 1 or wide < 1:
            raise ValueError(f"box {box!r} must be at least 1x1")
        return high, wide
    high, wide = _validate.items(box, 2, "box", "a (rows, cols) pair or 'RxC'")
    return _validate.positive(high, "box rows"), _validate.positive(wide, "box cols")


def box_of(box: Any, side: int) -> tuple[int, int]:
    """The box shape ``(rows, cols)`` for a grid of ``side``: as given (a
    pair, or text ``"RxC"``), else the most nearly square shape, its rows
    fewer (a 6 x 6 grid has boxes 2 high and 3 wide)."""
    if box is None:
        high = max(d for d in range(1, math.isqrt(side) + 1) if side % d == 0)
        return high, side // high
    high, wide = box_shape(box)
    if high * wide != side:
        raise ValueError(
            f"box {high}x{wide} does not fit a grid of side {side}: its rows times its "
            f"columns must be {side}"
        )
    return high, wide


def _digit(char: str, where: str) -> int:
    if char in BLANKS:
        return 0
    if char.isascii() and char.isalnum():
        return int(char, 36)
    raise ValueError(
        f"{where}: unexpected {char!r} (digits 1-9 then letters A-Z, "
        f"{', '.join(BLANKS)} for a blank; spaces and {DECORATION} are ignored)"
    )


#: Each symbol's digit (0 for a blank): a puzzle typed as one run of them
#: is read in one pass.
_VALUES = {ch: int(ch, 36) for ch in "123456789" + string.ascii_letters}
_VALUES.update(dict.fromkeys(BLANKS, 0))


def grid_from_text(text: str, typed: Typed) -> list[list[int]]:
    try:  # the common case: one line of symbols, each a digit of the grid
        cells = [_VALUES[ch] for ch in text.strip()]
        side = math.isqrt(len(cells))
        if cells and side * side == len(cells) and max(cells) <= side:
            return [cells[r * side : (r + 1) * side] for r in range(side)]
    except KeyError:
        pass  # decoration, line breaks or a stray character: read below
    cells = []
    places = []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines() or [""], start=1):
        for column, char in enumerate(line, start=1):
            if not char.isspace() and char not in DECORATION:
                where = f"line {number}, column {column}"
                cells.append(_digit(char, where))
                places.append((char, where))
    side = math.isqrt(len(cells))
    if not cells or side * side != len(cells):
        raise ValueError(
            f"a Sudoku has side x side cells; this one has {len(cells)} (not a square number)"
        )
    for k, place in enumerate(places):
        typed[divmod(k, side)] = place
    return [cells[r * side : (r + 1) * side] for r in range(side)]


def grid_from_rows(rows: Any, typed: Typed) -> list[list[int]]:
    given = list(_validate.iterable(rows, "puzzle", "a str or a list of rows"))
    grid = []
    for r, row in enumerate(given):
        if isinstance(row, str):
            grid.append([_digit(ch, f"row {r}, column {c}") for c, ch in enumerate(row)])
            for c, ch in enumerate(row):
                typed[r, c] = ch, f"row {r}, column {c}"
            continue
        values = _validate.iterable(row, f"row {r}", "a list of digits (0 or None for a blank)")
        grid.append(
            [
                0 if d is None else _validate.integer(d, f"row {r}, column {c}")
                for c, d in enumerate(values)
            ]
        )
    side = len(grid)
    for r, row in enumerate(grid):
        if len(row) != side:
            raise ValueError(
                f"a Sudoku is square: it has {side} rows, row {r} has {len(row)} cells"
            )
    return grid


def check_givens(grid: list[list[int]], units: Units, typed: Typed | None = None) -> None:
    """Every digit in range, none twice in a row, column or another unit.  A
    digit out of range that was typed as a character (``typed``) is named as typed."""
    if _fine(grid, units):
        return
    side = len(grid)
    for r, row in enumerate(grid):
        for c, d in enumerate(row):
            if not 0 <= d <= side and typed and (r, c) in typed:
                char, where = typed[r, c]
                raise ValueError(
                    f"{where}: {char!r} is not a symbol of a {side} x {side} Sudoku: its "
                    f"symbols are {symbols(side)} ({', '.join(BLANKS)} for a blank)"
                )
            if not 0 <= d <= side:
                raise ValueError(
                    f"cell ({r}, {c}) holds {d}: the digits of a side-{side} grid are 1 to {side} "
                    "(0 for a blank)"
                )
    lines: dict[str, Callable[[int, int], int]] = {
        "row": lambda r, c: r,
        "column": lambda r, c: c,
    }
    for unit, which in lines.items():
        seen: dict[tuple[int, int], tuple[int, int]] = {}
        for r, row in enumerate(grid):
            for c, d in enumerate(row):
                if d:
                    key = (which(r, c), d)
                    if key in seen:
                        raise ValueError(
                            f"{unit} {key[0]} holds {d} twice: in cells {seen[key]} and {(r, c)}"
                        )
                    seen[key] = (r, c)
    units.check(grid)


def _fine(grid: list[list[int]], units: Units) -> bool:
    """Whether every digit is in range and none is twice in a row, column or
    box, by one pass over bits (``False`` for anything else: :func:`check_givens`
    then finds what, and where)."""
    side = len(grid)
    high, wide = units.box
    per_row = side // wide
    rows, cols, boxes = [0] * side, [0] * side, [0] * side
    for r, row in enumerate(grid):
        for c, d in enumerate(row):
            if d:
                if not 0 < d <= side:
                    return False
                bit, b = 1 << d, r // high * per_row + c // wide
                if (rows[r] | cols[c] | boxes[b]) & bit:
                    return False
                rows[r] |= bit
                cols[c] |= bit
                boxes[b] |= bit
    if units.plain:
        return True
    units.check(grid)  # a variant's other units
    return True
