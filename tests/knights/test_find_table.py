"""find_tour on every rectangle up to 60x60 (issue 27): a verified tour, or
``None`` exactly where the theorems say there is none.

The oracle is written out here, independently of the Rust code: Schwenk (1991)
for closed tours, Conrad et al. (1994) / Lin and Wei (2005) for open ones, the
colour rule on odd boards, the outer-line rule on 4-wide boards, and the
brute-force ``oracle.py`` on the smallest boards.
"""

from __future__ import annotations

import random

import oracle
import pytest
from solvers import find_tour


def closed_exists(rows: int, cols: int) -> bool:
    m, n = sorted((rows, cols))
    if m % 2 and n % 2:
        return False
    return not (m in (1, 2, 4) or (m == 3 and n in (4, 6, 8)))


def open_exists(rows: int, cols: int) -> bool:
    m, n = sorted((rows, cols))
    if m == 1:
        return n == 1
    return not (m == 2 or (m == 3 and n in (3, 5, 6)) or (m == 4 and n == 4))


def open_possible_from(rows: int, cols: int, r: int, c: int) -> bool:
    """Necessary conditions for an open tour from (r, c) (sufficient where a
    closed tour exists)."""
    if not open_exists(rows, cols):
        return False
    if rows * cols % 2 and (r + c) % 2:
        return False  # odd board: the majority colour (the corners') starts
    if rows == 4 and cols > 4 and r in (1, 2):
        return False
    if cols == 4 and rows > 4 and c in (1, 2):
        return False
    return True


def check(tour, rows, cols, start, closed):
    assert tour is not None, f"{rows}x{cols} from {start} closed={closed}: no tour"
    assert tour.start == start
    assert len(tour) == rows * cols
    assert tour.verify(closed=closed)


SIZES = range(1, 61)


@pytest.mark.parametrize("rows", SIZES)
def test_every_rectangle_to_60_from_the_corner(rows):
    for cols in SIZES:
        start = (rows - 1, 0)
        tour = find_tour(rows, cols, closed=True)
        if closed_exists(rows, cols) and rows * cols > 1:
            check(tour, rows, cols, start, True)
        else:
            assert tour is None, f"{rows}x{cols} closed"
        tour = find_tour(rows, cols)
        if open_exists(rows, cols):
            check(tour, rows, cols, start, False)
        else:
            assert tour is None, f"{rows}x{cols} open"


SMALL = [(r, c) for r in range(1, 9) for c in range(1, 65 // r + 1) if r * c <= 64]


@pytest.mark.parametrize(("rows", "cols"), SMALL, ids=[f"{r}x{c}" for r, c in SMALL])
def test_every_start_on_boards_of_at_most_64_cells(rows, cols):
    cells = rows * cols
    for r in range(rows):
        for c in range(cols):
            for closed in (False, True):
                tour = find_tour(rows, cols, start=(r, c), closed=closed)
                if cells <= 20:
                    want = oracle.has_tour(rows, cols, start=(r, c), closed=closed)
                elif closed:
                    want = closed_exists(rows, cols)
                elif closed_exists(rows, cols):
                    want = True
                elif not open_possible_from(rows, cols, r, c):
                    want = False
                else:
                    want = None  # decided by the exact search alone
                if want is None:
                    if tour is not None:
                        check(tour, rows, cols, (r, c), closed)
                elif want:
                    check(tour, rows, cols, (r, c), closed)
                else:
                    assert tour is None, f"{rows}x{cols} from {(r, c)} closed={closed}"


LARGER = [(9, 9), (10, 10), (3, 101), (101, 3), (4, 57), (5, 13), (7, 9), (60, 59), (11, 12)]


@pytest.mark.parametrize(("rows", "cols"), LARGER, ids=[f"{r}x{c}" for r, c in LARGER])
def test_random_starts_on_larger_boards(rows, cols):
    rng = random.Random(rows * 1000 + cols)
    starts = {(rng.randrange(rows), rng.randrange(cols)) for _ in range(8)}
    starts |= {(0, 0), (rows - 1, cols - 1), (rows // 2, cols // 2)}
    for r, c in sorted(starts):
        for closed in (False, True):
            tour = find_tour(rows, cols, start=(r, c), closed=closed)
            if closed:
                want = closed_exists(rows, cols)
            else:
                want = open_possible_from(rows, cols, r, c)
            if want:
                check(tour, rows, cols, (r, c), closed)
            else:
                assert tour is None, f"{rows}x{cols} from {(r, c)} closed={closed}"


@pytest.mark.parametrize(("rows", "cols", "closed"), [(3, 100_000, True), (4, 50_000, False)])
def test_long_strips(rows, cols, closed):
    tour = find_tour(rows, cols, closed=closed)
    check(tour, rows, cols, (rows - 1, 0), closed)


def strip_open_from(rows: int, cols: int, r: int, c: int) -> bool:
    """The rule found for 3- and 4-wide strips (checked against the frontier
    counts below): an open tour starts on every square the colour and
    outer-line rules allow, except the centre of 3 x 7; on 3 x 8 not on the
    two squares (1, 2), (1, 5) of the middle line; 3 x 4 and 3 x 6 as the
    exact counts say."""
    if rows > cols:
        rows, cols, r, c = cols, rows, c, r
    if (rows, cols) == (3, 7) and (r, c) == (1, 3):
        return False
    if (rows, cols) == (3, 8) and (r, c) in ((1, 2), (1, 5)):
        return False
    if (rows, cols) == (3, 4):
        return (r, c) in ((0, 0), (0, 3), (1, 0), (1, 3), (2, 0), (2, 3))
    return open_possible_from(rows, cols, r, c)


def _square_class(rows: int, cols: int, r: int, c: int) -> tuple:
    """The board turned long side along, and the least image of (r, c) under
    its mirrors: squares of one class start as many open tours."""
    if rows > cols:
        rows, cols, r, c = cols, rows, c, r
    return rows, cols, min((i, j) for i in (r, rows - 1 - r) for j in (c, cols - 1 - c))


def check_strip_every_start(rows: int, cols: int, known: dict | None = None) -> None:
    """The rule and find_tour from every start against the frontier's count,
    taken once per class of squares (``known`` keeps them: pass one to both
    a board and its transpose)."""
    from solvers import count_tours

    known = {} if known is None else known
    for r in range(rows):
        for c in range(cols):
            key = _square_class(rows, cols, r, c)
            if key not in known:
                known[key] = count_tours(rows, cols, start=(r, c), method="frontier") > 0
            exists = known[key]
            assert strip_open_from(rows, cols, r, c) == exists, f"{rows}x{cols} {(r, c)}"
            tour = find_tour(rows, cols, start=(r, c))
            if exists:
                check(tour, rows, cols, (r, c), False)
            else:
                assert tour is None, f"{rows}x{cols} from {(r, c)}"


STRIPS = [(3, n) for n in range(3, 24)] + [(4, n) for n in range(4, 11)]
# (4 x 23..64 construct from every allowed start in the Rust release tests.)
STRIPS_SLOW = [(3, n) for n in range(24, 32)] + [(4, n) for n in range(11, 23)]


@pytest.mark.parametrize(("rows", "cols"), STRIPS, ids=[f"{r}x{c}" for r, c in STRIPS])
def test_strips_every_start_against_the_frontier(rows, cols):
    known = {}  # the transpose's counts are the board's
    check_strip_every_start(rows, cols, known)
    check_strip_every_start(cols, rows, known)


@pytest.mark.slow
@pytest.mark.parametrize(("rows", "cols"), STRIPS_SLOW, ids=[f"{r}x{c}" for r, c in STRIPS_SLOW])
def test_wide_strips_every_start_against_the_frontier(rows, cols):
    known = {}  # the transpose's counts are the board's
    check_strip_every_start(rows, cols, known)
    check_strip_every_start(cols, rows, known)


@pytest.mark.parametrize(
    ("rows", "cols", "start"),
    [(3, 1_001, (1, 501)), (4, 1_000, (0, 500)), (1_001, 3, (501, 1)), (4, 999, (3, 498))],
)
def test_open_tours_from_deep_inside_strips(rows, cols, start):
    check(find_tour(rows, cols, start=start), rows, cols, start, False)
