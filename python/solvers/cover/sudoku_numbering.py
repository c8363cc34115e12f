"""A classic Sudoku's exact cover numbered a whole grid at a time, with no
Python step per option: the options of every (cell, digit) of a grid shape
are numbered once and kept, and a puzzle picks its own from them by a mask
of bytes (``itertools.compress``), one slice of it per cell.

The items and options are those of :mod:`.sudoku`'s statement, in the same
order (a problem equal to the one the option lists state): the cells
``p{r}_{c}``, then ``r{r}_{d}``, ``c{c}_{d}``, ``b{b}_{d}``; one option per
cell and digit the givens allow, cells in reading order, digits rising.

>>> problem, meanings = numbered(((1, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0), (0, 0, 0, 0)), (2, 2))
>>> len(problem), meanings[:2], problem.options[1]
(54, [(0, 0, 1), (0, 1, 2)], ('p0_1', 'r0_2', 'c1_2', 'b0_2'))
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Sequence
from itertools import chain, compress
from typing import Any

from .problem import ExactCover, _assembled

__all__ = ["numbered"]


@functools.lru_cache(maxsize=16)
def _tables(side: int, high: int, wide: int) -> tuple[Any, ...]:
    """For a grid shape: each (cell, digit)'s item numbers and meaning (in
    the order ``((r * side + c) * side + d - 1)``), every item's name and
    number, and each digit's one-hot slice of a mask."""
    per_row, square = side // wide, side * side
    numbers, meanings = [], []
    for r in range(side):
        for c in range(side):
            b = (r // high) * per_row + c // wide
            for d in range(side):
                numbers.append(
                    (
                        r * side + c,
                        square + r * side + d,
                        2 * square + c * side + d,
                        3 * square + b * side + d,
                    )
                )
                meanings.append((r, c, d + 1))
    cells = [f"p{r}_{c}" for r in range(side) for c in range(side)]
    units = [f"{kind}{i}_{d}" for kind in "rcb" for i in range(side) for d in range(1, side + 1)]
    one_hot = [bytes(side)] + [
        bytes(side)[: d - 1] + b"\1" + bytes(side - d) for d in range(1, side + 1)
    ]
    names = (*cells, *units)
    index = {name: i for i, name in enumerate(names)}
    return tuple(numbers), tuple(meanings), names, index, tuple(one_hot)


@functools.lru_cache(maxsize=4096)
def _free(taken: int, side: int) -> bytes:
    """The mask slice of a blank cell: 1 for each digit ``taken`` (bit d)
    does not hold."""
    return bytes(1 - (taken >> d & 1) for d in range(1, side + 1))


def numbered(grid: Sequence[Sequence[int]], box: tuple[int, int]) -> tuple[ExactCover, list[Any]]:
    """The problem of ``grid`` (0 a blank; its givens already checked) and
    what each option means, ``(row, col, digit)``."""
    side = len(grid)
    high, wide = box
    numbers, meanings, names, index, one_hot = _tables(side, high, wide)
    per_row = side // wide
    rows, cols, boxes = [0] * side, [0] * side, [0] * side
    for r, row in enumerate(grid):
        for c, d in enumerate(row):
            if d:
                bit = 1 << d
                rows[r] |= bit
                cols[c] |= bit
                boxes[(r // high) * per_row + c // wide] |= bit
    mask = b"".join(
        one_hot[d]
        if d
        else _free(rows[r] | cols[c] | boxes[(r // high) * per_row + c // wide], side)
        for r, row in enumerate(grid)
        for c, d in enumerate(row)
    )
    chosen = list(compress(numbers, mask))
    items = array("I", chain.from_iterable(chosen))
    starts = array("I", range(0, len(items) + 1, 4))
    no_colours = array("I", bytes(4 * len(items)))
    problem = _assembled(None, names, (), False, (starts, items, no_colours, ()), index)
    return problem, list(compress(meanings, mask))
