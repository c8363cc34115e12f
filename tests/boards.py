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
            has_tour = len(squares) % 2 == 0 and oracle.has_tour(
                rows, cols, mask, squares[0], closed=True
            )
        else:
            has_tour = any(oracle.has_tour(rows, cols, mask, start) for start in squares)
        if not has_tour:
            if 4 * (without + 1) > count:
                continue
            without += 1
        found.append(oracle.draw(rows, cols, mask))
    return found


def parsed(text: str) -> tuple[int, int, tuple[bool, ...] | None]:
    return oracle.parse(text)
