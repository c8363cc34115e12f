"""Shaped boards shared by the tests ('.' a square, '#' a missing square)."""

from __future__ import annotations

import random

import oracle

#: Hand-picked shaped boards, several of which have closed tours.
SHAPED: list[str] = [
    # the 3x3 ring: one closed 8-cycle
    """
    ...
    .#.
    ...
    """,
    """
    .....#
    .#..#.
    #.....
    """,
    """
    ...#
    ....
    ....
    #..#
    ###.
    """,
    """
    #...
    #...
    ....
    ....
    ....
    """,
    """
    #....
    ...##
    .....
    ....#
    ....#
    """,
    """
    ....#
    .....
    .....
    ....#
    """,
    """
    ##...#
    ....#.
    ......
    ...#.#
    """,
    """
    ##.#
    ...#
    #...
    ..#.
    """,
    # 4x4 with a corner removed, and a board with an empty first row
    """
    ...#
    ....
    ....
    ....
    """,
    """
    ####
    ....
    ....
    ....
    """,
    # disconnected: two squares no knight's move apart
    """
    .#
    #.
    """,
    # a single square
    """
    #.#
    """,
    # the 3x4 board with the lower-right corner gone
    """
    ....
    ....
    ...#
    """,
]


def _starts(squares: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The starts that decide whether the board has an open tour (so that the
    oracle need not try every square): none where the knight's graph is not
    connected or more than two squares have one neighbour or fewer; those
    squares where there are such (a path ends on each, and runs both ways);
    else every square."""
    around = _neighbours(squares)
    ends = [square for square in squares if len(around[square]) <= 1]
    if not _connected(around) or len(ends) > 2:
        return []
    return ends or squares


def _may_close(squares: list[tuple[int, int]]) -> bool:
    """False where no closed tour can exist: an odd number of squares (a
    knight's cycle alternates colours), a square with fewer than two
    neighbours, or a knight's graph that is not connected."""
    around = _neighbours(squares)
    return (
        len(squares) % 2 == 0
        and all(len(near) >= 2 for near in around.values())
        and _connected(around)
    )


def _neighbours(squares: list[tuple[int, int]]) -> dict[tuple[int, int], list[tuple[int, int]]]:
    placed = set(squares)
    return {
        (r, c): [(r + dr, c + dc) for dr, dc in oracle.MOVES if (r + dr, c + dc) in placed]
        for r, c in squares
    }


def _connected(around: dict[tuple[int, int], list[tuple[int, int]]]) -> bool:
    first = next(iter(around))
    reached, stack = {first}, [first]
    while stack:
        for nxt in around[stack.pop()]:
            if nxt not in reached:
                reached.add(nxt)
                stack.append(nxt)
    return len(reached) == len(around)


def random_masks(count: int, seed: int, max_squares: int = 19, closed: bool = False) -> list[str]:
    """Deterministic random shaped boards of at most ``max_squares`` squares;
    three in four of them have at least one tour (checked by the oracle), a
    closed one with ``closed=True``."""
    rng = random.Random(seed)
    shapes = [(3, 4), (4, 4), (4, 5), (5, 4), (3, 6), (6, 3), (3, 7), (7, 3), (5, 5), (4, 6)]
    found: list[str] = []
    without = 0
    while len(found) < count:
        rows, cols = rng.choice(shapes)
        cells = rows * cols
        mask = [True] * cells
        holes = max(cells - max_squares, 0) + rng.randint(0, 2)
        for i in rng.sample(range(cells), min(holes, cells - 1)):
            mask[i] = False
        squares = oracle.squares(rows, cols, mask)
        if closed:  # a closed tour passes every square: one start decides
            has_tour = _may_close(squares) and oracle.has_tour(
                rows, cols, mask, squares[0], closed=True
            )
        else:
            has_tour = any(oracle.has_tour(rows, cols, mask, start) for start in _starts(squares))
        if not has_tour:
            if 4 * (without + 1) > count:
                continue
            without += 1
        found.append(oracle.draw(rows, cols, mask))
    return found


def parsed(text: str) -> tuple[int, int, tuple[bool, ...] | None]:
    return oracle.parse(text)
