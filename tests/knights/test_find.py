"""find_tour: tours that verify, on boards small and huge; ``None`` exactly
when there is no tour (checked against the oracle on small boards)."""

from __future__ import annotations

import oracle
import pytest
from boards import SHAPED, random_masks
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solvers import count_tours, find_tour, is_tour


def independent_check(tour, rows, cols, mask=None, closed=False):
    """A check of a (possibly huge) tour that uses neither ``verify`` nor ``is_tour``."""
    indices = tour.indices()
    expected = rows * cols if mask is None else sum(mask)
    if len(indices) != expected or len(set(indices)) != expected:
        return False
    if mask is not None and not all(mask[i] for i in indices):
        return False
    if min(indices) < 0 or max(indices) >= rows * cols:
        return False
    prev_r, prev_c = divmod(indices[0], cols)
    for index in indices[1:]:
        r, c = divmod(index, cols)
        dr, dc = abs(r - prev_r), abs(c - prev_c)
        if not ((dr == 1 and dc == 2) or (dr == 2 and dc == 1)):
            return False
        prev_r, prev_c = r, c
    if closed:
        (r0, c0), (r1, c1) = divmod(indices[0], cols), divmod(indices[-1], cols)
        return sorted((abs(r0 - r1), abs(c0 - c1))) == [1, 2]
    return True


def check_found(tour, rows, cols, start, closed, mask=None):
    assert tour is not None, f"no tour found on {rows}x{cols} from {start} (closed={closed})"
    assert tour.start == start
    assert (tour.rows, tour.cols) == (rows, cols)
    assert len(tour) == (rows * cols if mask is None else sum(mask))
    assert tour.verify()
    if closed:
        assert tour.closed
        assert tour.verify(closed=True)
    assert independent_check(tour, rows, cols, mask, closed)


# ---------------------------------------------------------------- every board 5..12


GRID = [(n, m) for n in range(5, 13) for m in range(5, 13)]


@pytest.mark.parametrize(("rows", "cols"), GRID, ids=[f"{n}x{m}" for n, m in GRID])
def test_every_board_from_5x5_to_12x12(rows, cols):
    start = (rows - 1, 0)
    check_found(find_tour(rows, cols), rows, cols, start, closed=False)
    closed = find_tour(rows, cols, closed=True)
    if rows * cols % 2:
        assert closed is None  # a closed tour alternates colours
    else:
        check_found(closed, rows, cols, start, closed=True)


@pytest.mark.parametrize(("rows", "cols"), [(5, 6), (6, 6), (8, 8), (7, 7), (3, 10), (6, 9)])
def test_every_start_on_some_boards(rows, cols):
    for r in range(rows):
        for c in range(cols):
            tour = find_tour(rows, cols, start=(r, c))
            if rows * cols % 2 and (r + c) % 2:
                # odd board, start on the minority colour: impossible
                assert tour is None
            else:
                check_found(tour, rows, cols, (r, c), closed=False)
            closed = find_tour(rows, cols, start=(r, c), closed=True)
            if rows * cols % 2:
                assert closed is None
            else:
                check_found(closed, rows, cols, (r, c), closed=True)


# ---------------------------------------------------------------- large boards

LARGE = [
    (100, 100, None, False),
    (100, 100, None, True),
    (100, 100, (37, 58), True),
    (1000, 1000, None, False),
    (1000, 1000, (500, 500), False),
    (500, 500, None, True),
    (3, 50, None, False),  # narrow and over 64 cells: no exact fallback
    (4, 300, None, False),
    (6, 400, None, True),
    (301, 7, (150, 2), False),
    (64, 65, None, True),
    (201, 201, (100, 100), False),
]


@pytest.mark.parametrize(
    ("rows", "cols", "start", "closed"),
    LARGE,
    ids=[f"{r}x{c}-{s}-{'closed' if k else 'open'}" for r, c, s, k in LARGE],
)
def test_large_boards(rows, cols, start, closed):
    first = (rows - 1, 0) if start is None else start
    kwargs = {} if start is None else {"start": start}
    tour = find_tour(rows, cols, closed=closed, **kwargs)
    check_found(tour, rows, cols, first, closed)


def test_a_million_squares_with_threads_and_timeout_given():
    tour = find_tour(1000, 1000, start=(0, 0), threads=1, timeout=120)
    check_found(tour, 1000, 1000, (0, 0), closed=False)
    assert is_tour(tour)


def _narrow_failures(rows, lengths, closed):
    failures = []
    for n in lengths:
        try:
            tour = find_tour(rows, n, closed=closed)
        except RuntimeError as error:
            failures.append((n, "RuntimeError", str(error)[:40]))
            continue
        if tour is None or not tour.verify(closed=closed) or len(tour) != rows * n:
            failures.append((n, tour))
    return failures


# Narrow boards over 64 cells are the finder's hardest case (no exact fallback):
# it must find a tour wherever one exists, for lengths up to 120.  Open tours exist
# on 3xn for n = 4 and n >= 7, on 4xn for n >= 5 and n = 3, on 5xn for n >= 5;
# closed tours on 3xn for even n >= 10 and on 5xn for even n >= 6 (Schwenk 1991).
@pytest.mark.parametrize(
    ("rows", "lengths", "closed"),
    [
        (3, range(7, 121), False),
        (4, range(5, 121), False),
        (5, range(5, 121), False),
        (6, range(5, 121), False),
        (3, range(10, 121, 2), True),
        (5, range(6, 121, 2), True),
        (6, range(5, 121), True),
    ],
    ids=["3xn-open", "4xn-open", "5xn-open", "6xn-open", "3xn-closed", "5xn-closed", "6xn-closed"],
)
def test_narrow_boards(rows, lengths, closed):
    assert _narrow_failures(rows, lengths, closed) == []


# ---------------------------------------------------------------- boards without tours


@pytest.mark.parametrize(
    ("rows", "cols", "start"),
    [
        (5, 5, None),
        (7, 7, (3, 3)),
        (9, 9, None),
        (5, 7, None),
        (3, 9, (1, 4)),
        (999, 999, None),
        (101, 103, (50, 50)),
        (1, 1, None),
        (3, 3, None),
    ],
)
def test_boards_with_an_odd_number_of_squares_have_no_closed_tour(rows, cols, start):
    kwargs = {} if start is None else {"start": start}
    assert find_tour(rows, cols, closed=True, **kwargs) is None


@pytest.mark.parametrize(
    ("rows", "cols", "start"),
    [(7, 7, (0, 1)), (5, 5, (2, 1)), (1001, 1001, (0, 1)), (101, 101, (50, 51))],
)
def test_odd_boards_from_the_minority_colour_have_no_open_tour(rows, cols, start):
    assert find_tour(rows, cols, start=start) is None


@pytest.mark.parametrize(("rows", "cols"), [(1, 2), (2, 1), (1, 500), (2, 2), (2, 1000), (4, 4)])
def test_boards_without_any_tour(rows, cols):
    assert find_tour(rows, cols) is None
    assert find_tour(rows, cols, start=(0, 0)) is None
    assert find_tour(rows, cols, closed=True) is None


def test_four_rows_never_have_a_closed_tour():
    # Schwenk: no closed tour on any 4xn board; <= 64 cells means None for sure
    for n in range(1, 12):
        assert find_tour(4, n, closed=True) is None, n
        assert find_tour(n, 4, closed=True) is None, n


@pytest.mark.parametrize(
    ("rows", "cols"),
    [(4, 17), (4, 300), (300, 4), (4, 5001), (2, 1000), (1, 999), (101, 301), (1001, 999)],
)
def test_large_rectangles_without_closed_tours(rows, cols):
    # Schwenk (1991): no closed tour when both sides are odd, or the short side
    # is 1, 2 or 4 -- certain, so None rather than a heuristic failure
    assert find_tour(rows, cols, closed=True) is None


def test_one_square():
    tour = find_tour(1, 1)
    assert list(tour) == [(0, 0)]
    assert tour.verify() and not tour.closed


# ---------------------------------------------------------------- None iff no tour


SMALL = oracle.small_boards(16) + [(3, 7), (7, 3), (4, 5), (5, 4), (3, 8)]


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize(("rows", "cols"), SMALL, ids=[f"{r}x{c}" for r, c in SMALL])
def test_none_exactly_when_the_oracle_finds_no_tour(rows, cols, closed):
    for start in oracle.squares(rows, cols):
        tour = find_tour(rows, cols, start=start, closed=closed)
        if oracle.has_tour(rows, cols, None, start, closed):
            check_found(tour, rows, cols, start, closed)
            assert oracle.check_tour(list(tour), rows, cols, closed=closed)
        else:
            assert tour is None, start


SHAPES = SHAPED + random_masks(16, seed=99) + random_masks(8, seed=5, closed=True)


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize("text", SHAPES, ids=[f"shape{i}" for i in range(len(SHAPES))])
@pytest.mark.slow  # seconds: the quick run stays under 3 minutes
def test_shaped_boards_none_exactly_when_the_oracle_finds_no_tour(text, closed):
    rows, cols, mask = oracle.parse(text)
    for start in oracle.squares(rows, cols, mask):
        tour = find_tour(board=text, start=start, closed=closed)
        if oracle.has_tour(rows, cols, mask, start, closed):
            check_found(tour, rows, cols, start, closed, mask)
            assert tour.board.mask == mask
            assert oracle.check_tour(list(tour), rows, cols, mask, closed=closed)
        else:
            assert tour is None, start


@st.composite
def shaped_with_start(draw):
    rows = draw(st.integers(3, 6))
    cols = draw(st.integers(3, 6))
    cells = rows * cols
    holes = draw(st.sets(st.integers(0, cells - 1), max_size=3))
    mask = tuple(i not in holes for i in range(cells))
    squares = oracle.squares(rows, cols, mask)
    return rows, cols, mask, draw(st.sampled_from(squares))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shaped_with_start(), st.booleans())
def test_find_agrees_with_count_on_random_shaped_boards(board, closed):
    rows, cols, mask, start = board
    text = oracle.draw(rows, cols, mask)
    tour = find_tour(board=text, start=start, closed=closed)
    if count_tours(board=text, start=start, closed=closed) == 0:
        assert tour is None
    else:
        check_found(tour, rows, cols, start, closed, mask)


def test_a_large_shaped_board():
    # a 30x30 board with a 2x2 block missing in the middle (stays balanced)
    rows = cols = 30
    lines = [["."] * cols for _ in range(rows)]
    for r, c in [(14, 14), (14, 15), (15, 14), (15, 15)]:
        lines[r][c] = "#"
    text = "\n".join("".join(line) for line in lines)
    mask = tuple(ch == "." for line in lines for ch in line)
    for closed in (False, True):
        tour = find_tour(board=text, start=(0, 0), closed=closed)
        check_found(tour, rows, cols, (0, 0), closed, mask)
        assert is_tour(list(tour), board=text, closed=closed)


def test_a_small_shape_on_a_big_grid():
    # a 3x4 block in a 20x20 grid: over 64 cells, so the exact fallback is off;
    # the documented outcomes are a valid tour, None, or RuntimeError
    text = "\n".join(
        "".join("." if 10 <= r < 13 and 10 <= c < 14 else "#" for c in range(20)) for r in range(20)
    )
    mask = tuple(ch == "." for ch in text if ch != "\n")
    tour = find_tour(board=text, start=(12, 10))
    check_found(tour, 20, 20, (12, 10), False, mask)
    try:
        closed = find_tour(board=text, start=(12, 10), closed=True)
    except RuntimeError:
        return
    assert closed is None  # the 3x4 board has no closed tour
