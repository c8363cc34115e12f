"""Exact counts and enumeration order of knight's tours, against published
figures and the brute-force oracle in ``oracle.py``."""

from __future__ import annotations

import oracle
import pytest
from boards import SHAPED, random_masks
from solvers import KnightBoard, count_tours, tours

# ---------------------------------------------------------------- published figures

PUBLISHED = [
    # rows, cols, start (None: the default lower-left corner), closed, count
    (3, 4, None, False, 2),
    (3, 4, (2, 0), False, 2),
    (4, 7, None, False, 1682),
    (5, 5, (0, 0), False, 304),
    (5, 5, (4, 0), False, 304),
    (5, 5, None, False, 304),
    (5, 5, "all", False, 1728),
    (6, 6, "all", False, 6_637_920),
    # OEIS A001230: 9862 undirected closed tours on 6x6, each counted once per
    # direction from the start square ...
    (6, 6, (0, 0), True, 2 * 9862),
    # ... and every closed tour passes through all 36 squares.
    (6, 6, "all", True, 2 * 9862 * 36),
    # no closed tours on boards with an odd number of squares, nor on 4xn
    (5, 5, "all", True, 0),
    (4, 7, "all", True, 0),
    # no tours at all on 4x4, exactly one on 1x1
    (4, 4, "all", False, 0),
    (1, 1, None, False, 1),
    (1, 1, None, True, 0),
]


@pytest.mark.parametrize(("rows", "cols", "start", "closed", "expected"), PUBLISHED)
def test_published_counts(rows, cols, start, closed, expected):
    kwargs = {} if start is None else {"start": start}
    assert count_tours(rows, cols, closed=closed, **kwargs) == expected


def test_counts_are_python_ints():
    result = count_tours(4, 7)
    assert type(result) is int
    assert type(count_tours(4, 4)) is int


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 3), (4, 5), (5, 5), (3, 7), (1, 1)])
def test_default_start_is_the_lower_left_corner(rows, cols):
    assert count_tours(rows, cols) == count_tours(rows, cols, start=(rows - 1, 0))
    assert list(tours(rows, cols)) == list(tours(rows, cols, start=(rows - 1, 0)))


def test_the_two_3x4_tours_of_the_design_in_order():
    first = [(2, 0), (1, 2), (0, 0), (2, 1), (1, 3), (0, 1)]
    first += [(2, 2), (0, 3), (1, 1), (2, 3), (0, 2), (1, 0)]
    second = [(2, 0), (1, 2), (0, 0), (2, 1), (1, 3), (0, 1)]
    second += [(2, 2), (1, 0), (0, 2), (2, 3), (1, 1), (0, 3)]
    found = [list(tour) for tour in tours(3, 4)]
    assert found == [first, second]
    assert [list(tour) for tour in tours(3, 4, start=(2, 0))] == [first, second]


# ---------------------------------------------------------------- oracle, rectangles

SMALL = oracle.small_boards(16)


def _squares(rows, cols, mask=None):
    return oracle.squares(rows, cols, mask)


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize(("rows", "cols"), SMALL, ids=[f"{r}x{c}" for r, c in SMALL])
def test_small_boards_count_like_the_oracle_from_every_start(rows, cols, closed):
    total = 0
    for start in _squares(rows, cols):
        expected = oracle.count(rows, cols, None, start, closed)
        total += expected
        assert count_tours(rows, cols, start=start, closed=closed) == expected, start
    assert count_tours(rows, cols, start="all", closed=closed) == total


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize(("rows", "cols"), SMALL, ids=[f"{r}x{c}" for r, c in SMALL])
def test_small_boards_list_the_oracles_tours_in_order(rows, cols, closed):
    for start in _squares(rows, cols):
        expected = oracle.tour_list(rows, cols, None, start, closed)
        assert [tuple(t) for t in tours(rows, cols, start=start, closed=closed)] == list(expected)
    expected_all = oracle.tour_list(rows, cols, None, "all", closed)
    found = [tuple(t) for t in tours(rows, cols, start="all", closed=closed)]
    assert found == list(expected_all)


def test_small_boards_have_some_tours_at_all():
    # guard against an oracle that finds nothing: the tiny boards do have tours
    assert sum(oracle.count(r, c, None, "all") for r, c in SMALL) > 20


# Somewhat larger boards where the naive oracle is still quick and the counts
# are not (almost) all zero.
MEDIUM = [(3, 7), (7, 3), (4, 5), (5, 4), (3, 8)]


@pytest.mark.parametrize(("rows", "cols"), MEDIUM, ids=[f"{r}x{c}" for r, c in MEDIUM])
def test_medium_boards_match_the_oracle(rows, cols):
    everything = oracle.tour_list(rows, cols, None, "all", False)
    assert everything, "the oracle should find tours here"
    by_start: dict[tuple[int, int], int] = {}
    for tour in everything:
        by_start[tour[0]] = by_start.get(tour[0], 0) + 1
    for start in _squares(rows, cols):
        assert count_tours(rows, cols, start=start) == by_start.get(start, 0), start
        assert count_tours(rows, cols, start=start, closed=True) == 0
    assert count_tours(rows, cols, start="all") == len(everything)
    assert [tuple(t) for t in tours(rows, cols, start="all")] == list(everything)


# ---------------------------------------------------------------- oracle, shaped boards

SHAPES = SHAPED + random_masks(24, seed=20240611) + random_masks(10, seed=7, closed=True)


@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
@pytest.mark.parametrize("text", SHAPES, ids=[f"shape{i}" for i in range(len(SHAPES))])
def test_shaped_boards_match_the_oracle(text, closed):
    rows, cols, mask = oracle.parse(text)
    assert KnightBoard.parse(text).mask == mask
    expected_all = []  # start squares in row-major order
    for start in _squares(rows, cols, mask):
        expected = oracle.tour_list(rows, cols, mask, start, closed)
        expected_all += expected
        assert count_tours(board=text, start=start, closed=closed) == len(expected), start
        found = [tuple(t) for t in tours(board=text, start=start, closed=closed)]
        assert found == list(expected), start
    assert count_tours(board=text, start="all", closed=closed) == len(expected_all)
    assert [tuple(t) for t in tours(board=text, start="all", closed=closed)] == expected_all


def test_shaped_boards_include_closed_tours():
    # the shaped boards exercise the closed search for real
    with_closed = [
        text for text in SHAPED if oracle.count(*oracle.parse(text), start="all", closed=True)
    ]
    assert len(with_closed) >= 5


def test_ring_board_has_one_closed_cycle():
    ring = "...\n.#.\n..."
    # 1 cycle x 2 directions x 8 squares
    assert count_tours(board=ring, start="all", closed=True) == 16
    assert count_tours(board=ring, start=(0, 0), closed=True) == 2
    # open tours of the 8-cycle: from each square, one per direction
    assert count_tours(board=ring, start=(0, 0)) == 2


def _schwenk_allows_a_cycle(rows, cols):
    """Schwenk (1991): an m x n board (m <= n) has a closed tour unless m and n
    are both odd, m is 1, 2 or 4, or m = 3 and n is 4, 6 or 8."""
    m, n = sorted((rows, cols))
    return not ((m % 2 and n % 2) or m in (1, 2, 4) or (m == 3 and n in (4, 6, 8)))


RECTANGLES = [(m, n) for m in range(1, 7) for n in range(1, 13) if m * n <= 36]


@pytest.mark.parametrize(("rows", "cols"), RECTANGLES, ids=[f"{m}x{n}" for m, n in RECTANGLES])
def test_closed_tours_exist_exactly_where_schwenk_says(rows, cols):
    count = count_tours(rows, cols, start=(0, 0), closed=True)
    assert (count > 0) == _schwenk_allows_a_cycle(rows, cols)
    assert count % 2 == 0  # each cycle once per direction


def test_board_given_as_knightboard_or_text_with_matching_size():
    text = "....\n....\n...#"
    kb = KnightBoard.parse(text)
    expected = oracle.count(3, 4, oracle.parse(text)[2], (0, 0))
    assert count_tours(board=kb, start=(0, 0)) == expected
    assert count_tours(3, 4, board=text, start=(0, 0)) == expected
    assert count_tours(board=text, start=(0, 0)) == expected


def test_a_full_board_given_as_text_counts_like_the_rectangle():
    assert count_tours(board="....\n....\n....") == 2
    assert count_tours(board="." * 7 + "\n" + ("." * 7 + "\n") * 3) == 1682


def _embed(rows, cols, top, left, height, width):
    """Board text: a full ``height x width`` block at (top, left) of a larger grid."""
    return "\n".join(
        "".join(
            "." if top <= r < top + height and left <= c < left + width else "#"
            for c in range(cols)
        )
        for r in range(rows)
    )


EMBEDDED = [
    (8, 8, 5, 4, 3, 4),  # the 3x4 board in the last cells of a 64-cell grid
    (8, 8, 0, 0, 3, 4),
    (8, 8, 0, 5, 4, 3),
    (4, 16, 1, 12, 3, 4),
    (1, 64, 0, 63, 1, 1),
    (8, 8, 4, 4, 4, 4),
    (8, 8, 3, 4, 5, 4),
    (2, 32, 0, 25, 2, 7),
]


@pytest.mark.parametrize(
    "spec", EMBEDDED, ids=["{}x{}@{},{}:{}x{}".format(*spec) for spec in EMBEDDED]
)
def test_a_block_inside_a_larger_grid_counts_like_the_block(spec):
    rows, cols, top, left, height, width = spec
    text = _embed(*spec)
    _, _, mask = oracle.parse(text)
    for start in [(top + height - 1, left), (top, left + width - 1), "all"]:
        expected = oracle.tour_list(rows, cols, mask, start, False)
        assert count_tours(board=text, start=start) == len(expected)
        assert [tuple(t) for t in tours(board=text, start=start)] == list(expected)
        # the same tours as on the block itself, shifted
        inner = (start[0] - top, start[1] - left) if start != "all" else "all"
        shifted = [
            tuple((r + top, c + left) for r, c in t) for t in tours(height, width, start=inner)
        ]
        assert shifted == list(expected)
