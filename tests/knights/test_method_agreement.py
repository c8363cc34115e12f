"""Every way of counting gives the same answer: the search, the frontier,
the pairs of ends, and ``end=`` summed over the ends, on every rectangle of
at most 20 cells and on shaped boards up to 4x5 (degenerate ones included:
1xN, one square, a square with no neighbour), from every start and from all
of them, open and closed, against the brute-force oracle (``oracle.py``).

docs/knights.md promises that the answer never depends on ``method``; a one-square
board once counted 0 tours by its pairs of ends.
"""

from __future__ import annotations

import itertools

import oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solvers import count_tours, tours

RECTANGLES = [(r, c) for r in range(1, 21) for c in range(1, 21) if r * c <= 20]


def board_args(rows: int, cols: int, mask: tuple[bool, ...] | None) -> dict:
    if mask is None:
        return {"rows": rows, "cols": cols}
    return {"board": oracle.draw(rows, cols, mask)}


def methods(closed: bool) -> tuple[str, ...]:
    return ("search", "frontier") if closed else ("search", "frontier", "pairs")


def check_board(rows: int, cols: int, mask: tuple[bool, ...] | None) -> None:
    """Every method, every start, open and closed, against the oracle."""
    args = board_args(rows, cols, mask)
    cells = oracle.squares(rows, cols, mask)
    for closed in (False, True):
        by_start = {s: oracle.count(rows, cols, mask, s, closed) for s in cells}
        for method in methods(closed):
            for s in cells:
                got = count_tours(**args, start=s, closed=closed, method=method, threads=1)
                assert got == by_start[s], (rows, cols, mask, s, closed, method)
            every = count_tours(**args, start="all", closed=closed, method=method, threads=1)
            assert every == sum(by_start.values()), (rows, cols, mask, closed, method)
        if closed:
            continue
        # end=: the tours from s split by their last square.
        for s in cells:
            ends: dict[tuple[int, int], int] = {}
            for tour in tours(**args, start=s):
                ends[tour.end] = ends.get(tour.end, 0) + 1
            for t in cells:
                got = count_tours(**args, start=s, end=t, threads=1)
                assert got == ends.get(t, 0), (rows, cols, mask, s, t)


@pytest.mark.parametrize(("rows", "cols"), RECTANGLES, ids=[f"{r}x{c}" for r, c in RECTANGLES])
def test_every_method_agrees_on_every_small_rectangle(rows: int, cols: int) -> None:
    check_board(rows, cols, None)


# Degenerate shapes: one square in a larger grid, a square with no knight's
# move to any other, a line of squares, two squares a knight's move apart.
DEGENERATE = [
    ".",
    "#.#",
    "#\n.\n#",
    "...",
    "..\n..",
    ".#\n#.",
    ".#.\n#..",
    "..#\n#..",
    "...\n#.#",
    "....\n....\n...#",
    ".##\n##.\n...",
]


@pytest.mark.parametrize("text", DEGENERATE)
def test_every_method_agrees_on_degenerate_boards(text: str) -> None:
    check_board(*oracle.parse(text))


def all_masks(rows: int, cols: int):
    """Every shape in the grid with a square, one of each class under the
    grid's symmetries (a shape's mirror images have the mirrored counts,
    which tests/knights/test_properties.py checks on boards of every size;
    the random shapes below come in every orientation)."""
    for bits in itertools.product((False, True), repeat=rows * cols):
        if any(bits) and bits == min(_images(rows, cols, bits)):
            yield bits


def _images(rows: int, cols: int, bits: tuple[bool, ...]):
    grid = [bits[r * cols : (r + 1) * cols] for r in range(rows)]
    turns = [grid]
    if rows == cols:  # a square grid turns a quarter too
        turns.append([tuple(row) for row in zip(*grid, strict=True)])
    for shape in turns:
        for flip_rows in (False, True):
            for flip_cols in (False, True):
                rows_in = shape[::-1] if flip_rows else shape
                yield tuple(bit for row in rows_in for bit in (row[::-1] if flip_cols else row))


@pytest.mark.slow
@pytest.mark.parametrize(("rows", "cols"), [(1, 5), (2, 4), (3, 3)])
def test_every_method_agrees_on_every_shape_in_a_small_grid(rows: int, cols: int) -> None:
    for mask in all_masks(rows, cols):
        check_board(rows, cols, None if all(mask) else mask)


@st.composite
def shaped_boards(draw):
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(1, 20 // rows if rows > 1 else 5))
    rows, cols = min(rows, 5), min(cols, 5)
    if rows * cols > 20:
        cols = 20 // rows
    mask = draw(st.lists(st.integers(0, 5).map(bool), min_size=rows * cols, max_size=rows * cols))
    if not any(mask):
        mask[draw(st.integers(0, rows * cols - 1))] = True
    return rows, cols, (None if all(mask) else tuple(mask))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shaped_boards())
@pytest.mark.slow
def test_every_method_agrees_on_random_shapes_up_to_4x5(board) -> None:
    check_board(*board)


# Rectangles with no tour by theorem answer 0 at once, whatever the method
# (a 1 x 10^7 board took minutes to sweep): open 1xN (N > 1), 2xN, 3x3,
# 3x5, 3x6, 4x4; closed by Schwenk's theorem; the minority colour of an odd
# board.  Checked against the oracle on the small ones above; here the
# sizes that a sweep or a search could not do in a test's time.
NO_OPEN_TOURS = [(1, 10**7), (10**7, 1), (2, 5 * 10**6), (5 * 10**6, 2), (3, 5), (6, 3), (4, 4)]
NO_CLOSED_TOURS = [(9999, 9999), (4, 10**6), (3, 8), (1, 10**7), (2, 10**6), (8, 3)]


@pytest.mark.parametrize(("rows", "cols"), NO_OPEN_TOURS)
@pytest.mark.parametrize("method", ["auto", "search", "frontier", "pairs"])
def test_no_open_tour_by_theorem_is_answered_at_once(rows: int, cols: int, method: str) -> None:
    assert count_tours(rows, cols, start="all", method=method) == 0
    assert count_tours(rows, cols, start=(0, 0), method=method) == 0


@pytest.mark.parametrize(("rows", "cols"), NO_CLOSED_TOURS)
@pytest.mark.parametrize("method", ["auto", "search", "frontier"])
def test_no_closed_tour_by_theorem_is_answered_at_once(rows: int, cols: int, method: str) -> None:
    assert count_tours(rows, cols, start="all", closed=True, method=method) == 0
    assert count_tours(rows, cols, start=(rows - 1, 0), closed=True, method=method) == 0


@pytest.mark.parametrize("method", ["auto", "search", "frontier", "pairs"])
def test_the_minority_colour_of_an_odd_board_starts_no_tour(method: str) -> None:
    assert count_tours(3, 10**6 + 1, start=(0, 1), method=method) == 0
    assert count_tours(5, 5, start=(0, 1), method=method) == 0


def test_a_plan_of_pairs_counts_the_one_square_board() -> None:
    from solvers import distributed

    for kwargs in ({"rows": 1, "cols": 1}, {"board": "#.#"}):
        for start in ((0, 0) if "rows" in kwargs else (0, 1), "all"):
            work = distributed.plan(count_tours, **kwargs, start=start, method="pairs")
            assert len(work) == 1
            assert work.count() == 1
