"""Sudoku puzzles made from a seed (:meth:`Sudoku.generate
<solvers.Sudoku.generate>`): a full grid found by the exact-cover search
with its options in a shuffled order, then clues taken away one by one in a
shuffled order, each only if the puzzle keeps exactly one solution (a count
with ``limit=2``).

One pass over the clues makes the puzzle minimal: a clue kept was needed by
the clues around it then, and taking others away later leaves the grid only
freer, so it is still needed.  With ``symmetric`` the clues go in pairs, a
cell and its image under the half turn, so the pattern keeps that symmetry
(minimal among such pairs).  Everything random comes from
``random.Random(seed)``: the same seed gives the same puzzle on every
machine and every version of Python from 3.10 on.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from .._engine import _validate
from .._engine._deadline import Deadline
from .count import count_covers
from .find import find_cover
from .problem import ExactCover

if TYPE_CHECKING:
    from .sudoku import Sudoku

__all__ = ["generate"]


def generate(empty: Sudoku, seed: Any, clues: Any, symmetric: Any, timeout: Any) -> Sudoku:
    """A puzzle of ``empty``'s shape with exactly one solution (see the
    module); ``TimeoutError`` past ``timeout`` seconds (big grids can take
    long: each clue taken away is a search)."""
    clock = Deadline(timeout)
    if seed is None or isinstance(seed, bool) or not isinstance(seed, (int, str, bytes)):
        raise TypeError(
            f"seed must be an int, str or bytes (the same seed, the same puzzle), got {seed!r}"
        )
    side = empty.side
    least = None if clues is None else _validate.integer(clues, "clues")
    if least is not None and not 0 <= least <= side * side:
        raise ValueError(f"clues must be from 0 to {side * side} (the cells), got {least}")
    pairs = _validate.flag(symmetric, "symmetric")
    rng = random.Random(seed)
    with clock.stated():
        grid = [list(row) for row in _full_grid(empty, rng, clock)]
    cells = [(r, c) for r in range(side) for c in range(side)]
    rng.shuffle(cells)
    left = side * side
    for r, c in cells:
        clock.left()  # each search is quick; together they may not be
        if not grid[r][c]:
            continue  # taken away with its pair already
        group = {(r, c), (side - 1 - r, side - 1 - c)} if pairs else {(r, c)}
        if least is not None and left - len(group) < least:
            continue
        kept = [grid[i][j] for i, j in group]
        for i, j in group:
            grid[i][j] = 0
        with clock.stated():
            unique = _unique(type(empty)._of(grid, empty.units), clock)
        if unique:
            left -= len(group)
        else:
            for (i, j), d in zip(group, kept, strict=True):
                grid[i][j] = d
    return type(empty)._of(grid, empty.units)


def _full_grid(empty: Sudoku, rng: random.Random, clock: Deadline) -> tuple[tuple[int, ...], ...]:
    """A solution of the empty grid: the first cover of its problem with
    the options in a shuffled order (the search takes them in the order
    given, so the order is the randomness)."""
    problem = empty.exact_cover()
    order = list(range(len(problem)))
    rng.shuffle(order)
    shuffled = ExactCover([problem.options[k] for k in order], primary=problem.primary)
    cover = find_cover(shuffled, deterministic=True, threads=1, timeout=clock.remaining())
    assert cover is not None  # every empty grid has solutions
    return empty.read([order[k] for k in cover]).grid


def _unique(puzzle: Sudoku, clock: Deadline) -> bool:
    problem = puzzle.exact_cover()
    return count_covers(problem, limit=2, threads=1, timeout=clock.remaining()) == 1
