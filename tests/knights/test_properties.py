"""Property-based tests: symmetry, consistency of count/list, threads, starts."""

from __future__ import annotations

import itertools
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solvers import count_tours, is_tour, tours

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------- strategies


@st.composite
def boards(draw, max_cells=30, holes=True):
    """``(rows, cols, mask)``; ``mask`` is None or a tuple with at least one square."""
    rows = draw(st.integers(1, 6))
    widest = max(1, min(8, max_cells // rows))
    # half the time the widest board that fits: those are the ones with tours
    cols = draw(st.one_of(st.integers(1, widest), st.just(widest)))
    cells = rows * cols
    if not holes or not draw(st.booleans()):
        return rows, cols, None
    # mostly squares, a few holes
    mask = draw(st.lists(st.integers(0, 11).map(bool), min_size=cells, max_size=cells))
    if not any(mask):
        mask[draw(st.integers(0, cells - 1))] = True
    return rows, cols, (None if all(mask) else tuple(mask))


@st.composite
def boards_with_start(draw, max_cells=30, holes=True):
    rows, cols, mask = draw(boards(max_cells, holes))
    start = draw(st.sampled_from(oracle.squares(rows, cols, mask)))
    return rows, cols, mask, start


def text(rows, cols, mask):
    return oracle.draw(rows, cols, mask)


def call(func, rows, cols, mask, **kwargs):
    """Call the package on a rectangle or, with a mask, on board text."""
    if mask is None:
        return func(rows, cols, **kwargs)
    return func(board=text(rows, cols, mask), **kwargs)


# The eight symmetries of a rectangle, as maps of (row, col) given (rows, cols);
# the last four swap rows and columns.
SYMMETRIES = {
    "identity": lambda r, c, R, C: (r, c),
    "flip-rows": lambda r, c, R, C: (R - 1 - r, c),
    "flip-cols": lambda r, c, R, C: (r, C - 1 - c),
    "rotate-180": lambda r, c, R, C: (R - 1 - r, C - 1 - c),
    "transpose": lambda r, c, R, C: (c, r),
    "anti-transpose": lambda r, c, R, C: (C - 1 - c, R - 1 - r),
    "rotate-90": lambda r, c, R, C: (c, R - 1 - r),
    "rotate-270": lambda r, c, R, C: (C - 1 - c, r),
}
SWAPS = {"transpose", "anti-transpose", "rotate-90", "rotate-270"}


def transform(name, rows, cols, mask):
    """The board under a symmetry: ``(rows', cols', mask', map_square)``."""
    f = SYMMETRIES[name]
    new_rows, new_cols = (cols, rows) if name in SWAPS else (rows, cols)
    new_mask = None
    if mask is not None:
        cells = [False] * (rows * cols)
        for r in range(rows):
            for c in range(cols):
                nr, nc = f(r, c, rows, cols)
                cells[nr * new_cols + nc] = mask[r * cols + c]
        new_mask = tuple(cells)
    return new_rows, new_cols, new_mask, lambda sq: f(sq[0], sq[1], rows, cols)


def test_the_symmetries_are_eight_distinct_maps():
    # a self-check of the helper: on a 2x3 board the eight maps differ, and each
    # is a bijection onto the (possibly transposed) board
    images = set()
    for name in SYMMETRIES:
        new_rows, new_cols, _, move = transform(name, 2, 3, None)
        image = tuple(move(sq) for sq in oracle.squares(2, 3))
        assert sorted(image) == oracle.squares(new_rows, new_cols)
        images.add((new_rows, image))
    assert len(images) == 8


# ---------------------------------------------------------------- symmetry


@SETTINGS
@given(
    boards_with_start(max_cells=30),
    st.sampled_from(sorted(SYMMETRIES)),
    st.booleans(),
)
def test_count_is_invariant_under_the_board_symmetries(board, name, closed):
    rows, cols, mask, start = board
    new_rows, new_cols, new_mask, move = transform(name, rows, cols, mask)
    before = call(count_tours, rows, cols, mask, start=start, closed=closed)
    after = call(count_tours, new_rows, new_cols, new_mask, start=move(start), closed=closed)
    assert before == after
    every = call(count_tours, rows, cols, mask, start="all", closed=closed)
    assert every == call(count_tours, new_rows, new_cols, new_mask, start="all", closed=closed)


@settings(max_examples=40, deadline=None)
@given(
    boards_with_start(max_cells=25),
    st.sampled_from(sorted(SYMMETRIES)),
    st.booleans(),
)
def test_tours_map_onto_the_tours_of_the_transformed_board(board, name, closed):
    rows, cols, mask, start = board
    new_rows, new_cols, new_mask, move = transform(name, rows, cols, mask)
    mapped = {
        tuple(move(sq) for sq in tour)
        for tour in call(tours, rows, cols, mask, start=start, closed=closed)
    }
    found = call(tours, new_rows, new_cols, new_mask, start=move(start), closed=closed)
    assert {tuple(tour) for tour in found} == mapped


@pytest.mark.slow
@SETTINGS
@given(st.integers(1, 8), st.integers(1, 8), st.booleans())
def test_rectangle_counts_equal_their_transpose(rows, cols, closed):
    if rows * cols > 36:
        rows, cols = min(rows, 4), min(cols, 9)
    assert count_tours(rows, cols, start="all", closed=closed) == count_tours(
        cols, rows, start="all", closed=closed
    )
    corner = count_tours(rows, cols, start=(0, 0), closed=closed)
    assert corner == count_tours(cols, rows, start=(0, 0), closed=closed)
    assert corner == count_tours(rows, cols, start=(rows - 1, cols - 1), closed=closed)


# ---------------------------------------------------------------- count vs list


@SETTINGS
@given(boards(max_cells=25), st.booleans(), st.data())
def test_listing_agrees_with_counting_and_every_tour_is_valid(board, closed, data):
    rows, cols, mask = board
    squares = oracle.squares(rows, cols, mask)
    start = data.draw(st.sampled_from([*squares, "all"]))
    listed = list(call(tours, rows, cols, mask, start=start, closed=closed))
    assert len(listed) == call(count_tours, rows, cols, mask, start=start, closed=closed)
    assert len(set(listed)) == len(listed), "a tour was listed twice"
    drawn = text(rows, cols, mask)
    for tour in listed:
        assert len(tour) == len(squares)
        assert tour.rows == rows and tour.cols == cols
        assert tour.board.mask == mask
        if start != "all":
            assert tour.start == start
        assert tour.verify()
        assert is_tour(tour)
        assert is_tour(list(tour), board=drawn)
        assert oracle.check_tour(list(tour), rows, cols, mask, closed=closed)
        if closed:
            assert tour.closed and tour.verify(closed=True)
            assert is_tour(list(tour), board=drawn, closed=True)
        else:
            # A cycle needs three squares: two a move apart are a path, whose
            # closing move would be its one move again.
            cycle = len(tour) >= 3 and oracle.is_knight_move(tour[0], tour[-1])
            assert tour.closed == cycle


@SETTINGS
@given(boards(max_cells=25))
def test_open_tours_pair_up_with_their_reversals(board):
    # a tour from a to b read backwards is a tour from b to a
    rows, cols, mask = board
    listed = {tuple(t) for t in call(tours, rows, cols, mask, start="all")}
    assert {tour[::-1] for tour in listed} == listed
    ends = Counter((t[0], t[-1]) for t in listed)
    assert all(ends[(a, b)] == ends[(b, a)] for a, b in ends)


@SETTINGS
@given(boards(max_cells=30))
def test_closed_counts_are_the_same_from_every_square(board):
    # every closed tour visits every square: rotating it starts it anywhere
    rows, cols, mask = board
    squares = oracle.squares(rows, cols, mask)
    counts = {call(count_tours, rows, cols, mask, start=s, closed=True) for s in squares}
    assert len(counts) == 1
    total = call(count_tours, rows, cols, mask, start="all", closed=True)
    assert total == counts.pop() * len(squares)


# ---------------------------------------------------------------- threads and starts


@pytest.mark.slow
@SETTINGS
@given(boards_with_start(max_cells=35), st.booleans())
def test_counts_do_not_depend_on_threads(board, closed):
    rows, cols, mask, start = board
    for where in (start, "all"):
        results = {
            threads: call(
                count_tours, rows, cols, mask, start=where, closed=closed, threads=threads
            )
            for threads in (None, 1, 2, 3, 8)
        }
        assert len(set(results.values())) == 1, results


def test_threads_agree_on_a_big_count():
    for threads in (1, 2, 3, 8):
        assert count_tours(6, 6, start="all", threads=threads) == 6_637_920
        assert count_tours(6, 6, start=(0, 0), closed=True, threads=threads) == 19724


JOBS = [
    ((4, 7), {}),
    ((5, 5), {"start": "all"}),
    ((6, 6), {"start": (0, 0), "closed": True}),
    ((3, 8), {"start": "all"}),
    ((5, 6), {"threads": 1}),
    ((4, 6), {"start": "all", "threads": 3}),
]


def test_concurrent_calls_from_python_threads():
    serial = [count_tours(*args, **kwargs) for args, kwargs in JOBS]
    assert serial[:4] == [1682, 1728, 19724, 792]
    with ThreadPoolExecutor(4) as pool:
        parallel = list(pool.map(lambda job: count_tours(*job[0], **job[1]), JOBS * 3))
    assert parallel == serial * 3


def test_interleaved_iterators_keep_their_own_order():
    expected = {
        "a": list(tours(5, 5, start="all")),
        "b": list(tours(4, 7)),
        "c": list(tours(3, 8, start="all", closed=False)),
    }
    streams = [tours(5, 5, start="all"), tours(4, 7), tours(3, 8, start="all")]
    got: dict[str, list] = {"a": [], "b": [], "c": []}
    for triple in itertools.zip_longest(*streams):
        for key, tour in zip("abc", triple, strict=True):
            if tour is not None:
                got[key].append(tour)
    assert got == expected


@SETTINGS
@given(boards(max_cells=30), st.booleans())
def test_all_starts_is_the_sum_over_the_starts(board, closed):
    rows, cols, mask = board
    per_start = [
        call(count_tours, rows, cols, mask, start=s, closed=closed)
        for s in oracle.squares(rows, cols, mask)
    ]
    assert call(count_tours, rows, cols, mask, start="all", closed=closed) == sum(per_start)


@settings(max_examples=30, deadline=None)
@given(boards(max_cells=16), st.booleans())
def test_random_small_boards_match_the_oracle(board, closed):
    rows, cols, mask = board
    for start in oracle.squares(rows, cols, mask):
        expected = oracle.tour_list(rows, cols, mask, start, closed)
        listed = [tuple(t) for t in call(tours, rows, cols, mask, start=start, closed=closed)]
        assert listed == list(expected)
