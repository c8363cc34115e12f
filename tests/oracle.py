"""A deliberately naive knight's tour enumerator, independent of the package.

Plain depth-first search, no pruning at all, the seed article's move order.
It is only meant for tiny boards (up to ~16 squares), where it is the ground
truth the Rust search is checked against.

A board is ``(rows, cols, mask)`` where ``mask`` is ``None`` (every cell is a
square) or a sequence of ``rows * cols`` booleans in row-major order,
``False`` for a missing square.  Squares are ``(row, col)``, row 0 on top.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Sequence

Square = tuple[int, int]

#: (row, col) offsets in the order the seed article tries them.
MOVES: tuple[Square, ...] = (
    (2, 1),
    (1, 2),
    (-2, 1),
    (-1, 2),
    (2, -1),
    (1, -2),
    (-2, -1),
    (-1, -2),
)


def parse(text: str) -> tuple[int, int, tuple[bool, ...] | None]:
    """Read ``.``/``#`` board text (one line per row) into ``(rows, cols, mask)``."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    rows, cols = len(lines), len(lines[0])
    assert all(len(line) == cols for line in lines), "ragged oracle board"
    mask = tuple(ch == "." for line in lines for ch in line)
    return rows, cols, (None if all(mask) else mask)


def draw(rows: int, cols: int, mask: Sequence[bool] | None) -> str:
    """The inverse of :func:`parse`."""
    return "\n".join(
        "".join("." if mask is None or mask[r * cols + c] else "#" for c in range(cols))
        for r in range(rows)
    )


def squares(rows: int, cols: int, mask: Sequence[bool] | None = None) -> list[Square]:
    """Every square of the board in row-major order."""
    return [(r, c) for r in range(rows) for c in range(cols) if mask is None or mask[r * cols + c]]


def is_knight_move(a: Square, b: Square) -> bool:
    return sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]


def _graph(
    rows: int, cols: int, mask: Sequence[bool] | None
) -> tuple[list[Square], dict[Square, int], list[list[int]]]:
    """The squares in row-major order, each one's number, and the numbers of
    its neighbours in the seed's move order."""
    cells = squares(rows, cols, mask)
    index = {square: i for i, square in enumerate(cells)}
    neighbours = [
        [index[(r + dr, c + dc)] for dr, dc in MOVES if (r + dr, c + dc) in index] for r, c in cells
    ]
    return cells, index, neighbours


def enumerate_tours(
    rows: int,
    cols: int,
    mask: Sequence[bool] | None = None,
    start: Square | str | None = None,
    closed: bool = False,
) -> Iterator[tuple[Square, ...]]:
    """Every tour in the seed's depth-first order.

    ``start=None`` means the lower-left corner ``(rows - 1, 0)``; ``"all"``
    runs every start square in row-major order, one after the other.
    A closed tour is a cycle: its last square is a knight's move from its
    first and it has at least three squares (one square, or two a move apart,
    is never closed).
    """
    cells, index, neighbours = _graph(rows, cols, mask)
    if start == "all":
        starts = list(range(len(cells)))
    else:
        first = (rows - 1, 0) if start is None else tuple(start)
        assert first in index, f"oracle start {first} is not a square"
        starts = [index[first]]
    for first in starts:
        seen = [False] * len(cells)
        seen[first] = True
        for path in _extend([first], seen, neighbours, closed):
            yield tuple(cells[i] for i in path)


def _extend(
    path: list[int], seen: list[bool], neighbours: list[list[int]], closed: bool
) -> Iterator[list[int]]:
    """Depth-first: every way to complete ``path`` into a tour, moves in seed order."""
    if len(path) == len(seen):
        if not closed or (len(path) >= 3 and path[0] in neighbours[path[-1]]):
            yield path
        return
    for nxt in neighbours[path[-1]]:
        if not seen[nxt]:
            seen[nxt] = True
            path.append(nxt)
            yield from _extend(path, seen, neighbours, closed)
            path.pop()
            seen[nxt] = False


def count(
    rows: int,
    cols: int,
    mask: Sequence[bool] | None = None,
    start: Square | str | None = None,
    closed: bool = False,
) -> int:
    return sum(1 for _ in enumerate_tours(rows, cols, mask, start, closed))


def has_tour(
    rows: int,
    cols: int,
    mask: Sequence[bool] | None = None,
    start: Square | None = None,
    closed: bool = False,
) -> bool:
    """Whether a tour from ``start`` exists: the depth-first search of
    :func:`enumerate_tours`, cut where the squares not yet visited cannot all
    be reached from the knight through one another (no tour can follow), so
    that proving there is none takes a fraction of listing every dead end."""
    cells, index, neighbours = _graph(rows, cols, mask)
    first = index[(rows - 1, 0) if start is None else tuple(start)]
    seen = [False] * len(cells)
    seen[first] = True

    def connected(head: int, left: int) -> bool:
        reached, stack = 0, [head]
        marked = {head}
        while stack:
            for nxt in neighbours[stack.pop()]:
                if not seen[nxt] and nxt not in marked:
                    marked.add(nxt)
                    reached += 1
                    stack.append(nxt)
        return reached == left

    def extend(head: int, placed: int) -> bool:
        if placed == len(cells):
            return not closed or (placed >= 3 and first in neighbours[head])
        if not connected(head, len(cells) - placed):
            return False
        for nxt in neighbours[head]:
            if not seen[nxt]:
                seen[nxt] = True
                found = extend(nxt, placed + 1)
                seen[nxt] = False
                if found:
                    return True
        return False

    return extend(first, 1)


def check_tour(
    path: Sequence[Square],
    rows: int,
    cols: int,
    mask: Sequence[bool] | None = None,
    closed: bool = False,
) -> bool:
    """Independent tour checker: every square exactly once, knight moves, optional closure."""
    path = [tuple(s) for s in path]
    if sorted(path) != sorted(squares(rows, cols, mask)):
        return False
    if any(not is_knight_move(a, b) for a, b in zip(path, path[1:], strict=False)):
        return False
    return not closed or (len(path) >= 3 and is_knight_move(path[-1], path[0]))


def small_boards(max_cells: int = 16) -> list[tuple[int, int]]:
    """Every ``rows x cols`` with ``rows * cols <= max_cells``."""
    return [
        (r, c)
        for r in range(1, max_cells + 1)
        for c in range(1, max_cells + 1)
        if r * c <= max_cells
    ]


@functools.cache
def tour_list(
    rows: int,
    cols: int,
    mask: tuple[bool, ...] | None = None,
    start: Square | str | None = None,
    closed: bool = False,
) -> tuple[tuple[Square, ...], ...]:
    """All tours as a tuple, cached (the arguments must be hashable)."""
    return tuple(enumerate_tours(rows, cols, mask, start, closed))
