"""Argument checking with helpful messages, the Tour object, is_tour and KnightBoard."""

from __future__ import annotations

import dataclasses
import pickle
import xml.etree.ElementTree as ET

import oracle
import pytest
import solvers
from solvers import KnightBoard, Tour, count_tours, find_tour, is_tour, tours

FIRST_3X4 = [(2, 0), (1, 2), (0, 0), (2, 1), (1, 3), (0, 1)]
FIRST_3X4 += [(2, 2), (0, 3), (1, 1), (2, 3), (0, 2), (1, 0)]
SECOND_3X4 = [(2, 0), (1, 2), (0, 0), (2, 1), (1, 3), (0, 1)]
SECOND_3X4 += [(2, 2), (1, 0), (0, 2), (2, 3), (1, 1), (0, 3)]


def _count(*args, **kwargs):
    return count_tours(*args, **kwargs)


def _tours(*args, **kwargs):
    # the iterator must check its arguments when it is created, not on first next()
    return tours(*args, **kwargs)


def _find(*args, **kwargs):
    return find_tour(*args, **kwargs)


ALL = [_count, _tours, _find]
ALL_IDS = ["count_tours", "tours", "find_tour"]

# ---------------------------------------------------------------- board size


@pytest.mark.parametrize("func", ALL, ids=ALL_IDS)
@pytest.mark.parametrize(
    ("rows", "cols", "phrase"),
    [
        (0, 5, "rows must be at least 1"),
        (-3, 5, "rows must be at least 1"),
        (5, 0, "cols must be at least 1"),
        (4, -1, "cols must be at least 1"),
    ],
)
def test_sizes_below_one_are_refused(func, rows, cols, phrase):
    with pytest.raises(ValueError, match=phrase):
        func(rows, cols)


@pytest.mark.parametrize("func", ALL, ids=ALL_IDS)
@pytest.mark.parametrize(
    ("rows", "cols", "phrase"),
    [
        (3.0, 4, "rows must be an integer, got float"),
        ("3", 4, "rows must be an integer, got str"),
        (True, 4, "rows must be an integer, not a bool"),
        (3, 4.5, "cols must be an integer, got float"),
        (3, "4", "cols must be an integer, got str"),
        (3, False, "cols must be an integer, not a bool"),
        (None, 4, "give the board size"),
        (3, None, "give the board size"),
    ],
)
def test_sizes_must_be_integers(func, rows, cols, phrase):
    with pytest.raises(TypeError, match=phrase):
        func(rows, cols)


def test_no_arguments_at_all():
    with pytest.raises(TypeError, match="give the board size as rows and cols"):
        count_tours()


def test_integer_like_sizes_are_accepted():
    class Three:
        def __index__(self):
            return 3

    assert count_tours(Three(), 4) == 2


@pytest.mark.parametrize(("func", "name"), [(_count, "count_tours"), (_tours, "tours")])
@pytest.mark.parametrize(("rows", "cols"), [(8, 9), (9, 8), (5, 13), (13, 5), (10, 10)])
def test_exact_search_refuses_boards_over_64_cells(func, name, rows, cols):
    # (count_tours' default method="auto" counts narrow boards past 64 cells
    # by the frontier: see test_frontier.py)
    kwargs = {"method": "search"} if func is _count else {}
    with pytest.raises(ValueError, match=rf"{name} works on boards whose squares fit") as info:
        func(rows, cols, start=(0, 0), **kwargs)
    assert "at most 64 cells" in str(info.value)
    assert f"{rows}x{cols} = {rows * cols}" in str(info.value)


@pytest.mark.parametrize(("func", "name"), [(_count, "count_tours"), (_tours, "tours")])
def test_the_limit_counts_missing_squares_inside_the_shape(func, name):
    # 70 squares around one hole: the rectangle they span has 72 cells (a
    # shorter side of 8, which method="auto" would give to the frontier)
    text = "\n".join(["." * 9] * 3 + ["....#...."] + ["." * 9] * 4)
    kwargs = {"method": "search"} if func is _count else {}
    with pytest.raises(ValueError, match=f"{name} works on boards whose squares fit"):
        func(board=text, start=(0, 0), **kwargs)


@pytest.mark.parametrize("func", [_count, _tours])
def test_a_small_shape_in_a_large_grid_is_searched(func):
    # the 3x4 board drawn inside a 20x20 grid of missing squares
    rows = ["#" * 20] * 20
    for r in range(6, 9):
        rows[r] = "#" * 5 + "...." + "#" * 11
    text = "\n".join(rows)
    result = func(board=text, start=(8, 5))
    assert (result if isinstance(result, int) else len(list(result))) == 2
    assert count_tours(board=text, start="all") == count_tours(3, 4, start="all")
    assert [tour.start for tour in tours(board=text, start=(8, 5))] == [(8, 5), (8, 5)]
    first = next(tours(board=text, start=(8, 5)))
    assert first.verify()
    assert first[1] == (7, 7)  # the 3x4 tour's (1, 2), shifted by (6, 5)


def test_exactly_64_cells_is_allowed_for_the_exact_search():
    assert solvers.MAX_SEARCH_CELLS == 64
    # a 64-cell board where the count is instant
    assert count_tours(1, 64, start=(0, 0)) == 0
    assert count_tours(2, 32, start=(0, 0)) == 0
    assert next(tours(2, 32, start=(0, 0)), None) is None
    text = "\n".join(["." * 8] * 2 + ["#" * 8] * 6)
    assert count_tours(board=text, start=(0, 0)) == 0


def test_find_tour_refuses_boards_over_its_limit():
    side = int(solvers.MAX_FIND_CELLS**0.5) + 1
    with pytest.raises(ValueError, match="at most 100000000 cells"):
        find_tour(side, side)


# ---------------------------------------------------------------- start


@pytest.mark.parametrize("func", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("start", [(3, 0), (0, 4), (-1, 0), (0, -1), (100, 100)])
def test_start_off_the_board(func, start):
    with pytest.raises(ValueError, match=r"off the 3x4 board: rows are 0\.\.2, columns 0\.\.3"):
        func(3, 4, start=start)


@pytest.mark.parametrize("func", ALL, ids=ALL_IDS)
def test_start_on_a_missing_square(func):
    with pytest.raises(ValueError, match=r"start \(0, 2\) is a missing square"):
        func(board="..#\n...\n...", start=(0, 2))


@pytest.mark.parametrize("func", ALL, ids=ALL_IDS)
def test_default_start_on_a_missing_square(func):
    with pytest.raises(ValueError, match="lower-left corner .* is a missing square"):
        func(board="...\n...\n#..")


@pytest.mark.parametrize("func", ALL, ids=ALL_IDS)
@pytest.mark.parametrize(
    ("start", "phrase"),
    [
        ((1,), "start must be a \\(row, col\\) pair"),
        ((1, 2, 3), "start must be a \\(row, col\\) pair"),
        (5, "start must be a \\(row, col\\) pair"),
        (None, "start must be a \\(row, col\\) pair"),
        (b"ab", "start must be a \\(row, col\\) pair"),
        ((1.0, 2), "start row must be an integer"),
        ((1, "2"), "start col must be an integer"),
        ((True, 0), "start row must be an integer, not a bool"),
    ],
)
def test_start_of_the_wrong_shape_or_type(func, start, phrase):
    with pytest.raises(TypeError, match=phrase):
        func(3, 4, start=start)


@pytest.mark.parametrize("func", [_count, _tours], ids=["count_tours", "tours"])
@pytest.mark.parametrize("start", ["ALL", "any", "", "0,0"])
def test_start_strings_other_than_all(func, start):
    with pytest.raises(ValueError, match="start must be a \\(row, col\\) pair or 'all'"):
        func(3, 4, start=start)


def test_find_tour_does_not_take_start_all():
    with pytest.raises(ValueError, match="start must be a \\(row, col\\) pair, got 'all'"):
        find_tour(5, 5, start="all")


def test_start_as_a_list_is_fine():
    assert count_tours(5, 5, start=[0, 0]) == 304
    assert find_tour(5, 5, start=[0, 0]).start == (0, 0)


# ---------------------------------------------------------------- threads, closed, timeout


@pytest.mark.parametrize("func", [_count, _find], ids=["count_tours", "find_tour"])
@pytest.mark.parametrize(
    ("threads", "error", "phrase"),
    [
        (0, ValueError, "threads must be at least 1, got 0"),
        (-1, ValueError, "threads must be at least 1, got -1"),
        (1.5, TypeError, "threads must be an integer, got float"),
        ("2", TypeError, "threads must be an integer, got str"),
        (True, TypeError, "threads must be an integer, not a bool"),
    ],
)
def test_bad_threads(func, threads, error, phrase):
    with pytest.raises(error, match=phrase):
        func(5, 5, threads=threads)


@pytest.mark.parametrize("func", ALL, ids=ALL_IDS)
@pytest.mark.parametrize("closed", [1, 0, "yes", None, "False"])
def test_closed_must_be_a_bool(func, closed):
    with pytest.raises(TypeError, match="closed must be True or False"):
        func(3, 4, closed=closed)


@pytest.mark.parametrize("func", [_count, _find], ids=["count_tours", "find_tour"])
@pytest.mark.parametrize(
    ("timeout", "error", "phrase"),
    [
        (-1, ValueError, "timeout must be a finite, non-negative number of seconds"),
        (-0.5, ValueError, "timeout must be a finite, non-negative number of seconds"),
        (float("nan"), ValueError, "timeout must be a finite"),
        (float("inf"), ValueError, "timeout must be a finite"),
        ("1", TypeError, "timeout must be a number of seconds or None"),
        (True, TypeError, "timeout must be a number of seconds or None"),
    ],
)
def test_bad_timeout(func, timeout, error, phrase):
    with pytest.raises(error, match=phrase):
        func(5, 5, timeout=timeout)


@pytest.mark.parametrize("progress", [1, "yes", 0])
def test_progress_must_be_a_bool(progress):
    with pytest.raises(TypeError, match="progress must be True or False"):
        count_tours(3, 4, progress=progress)


def test_a_generous_timeout_does_not_change_the_answer():
    assert count_tours(4, 7, timeout=60) == 1682
    assert count_tours(4, 7, timeout=60.0, threads=1) == 1682
    assert find_tour(8, 8, timeout=60).verify()


# A huge but finite timeout is no limit (regression: it once panicked in Rust
# converting the seconds to a Duration).
@pytest.mark.parametrize("timeout", [1e300, 2.0**64, 1e20])
def test_a_huge_timeout_means_no_limit(timeout):
    assert count_tours(3, 4, timeout=timeout) == 2
    assert find_tour(8, 8, timeout=timeout).verify()


def test_a_huge_thread_count_is_capped_or_refused():
    assert count_tours(4, 7, threads=1000) == 1682
    with pytest.raises(ValueError, match="threads must be at most"):
        find_tour(8, 8, threads=2**40)
    try:
        result = count_tours(3, 4, threads=2**70)
    except (ValueError, OverflowError) as error:
        # the name may come in an exception note (pyo3: "while processing 'threads'")
        assert "threads" in " ".join([str(error), *getattr(error, "__notes__", [])])
    else:
        assert result == 2


# ---------------------------------------------------------------- board text


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("..x\n...", r"board line 1, column 3: 'x' is not allowed"),
        ("...\n.o.", r"board line 2, column 2: 'o' is not allowed"),
        ("...\n...\n..1", r"board line 3, column 3: '1' is not allowed"),
        ("...\n. .", r"board line 2, column 2: ' ' is not allowed"),
    ],
)
def test_board_text_with_bad_characters(text, phrase):
    with pytest.raises(ValueError, match=phrase):
        count_tours(board=text, start=(0, 0))
    with pytest.raises(ValueError, match=phrase):
        KnightBoard.parse(text)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("...\n..", "board line 2 has 2 cells, the widest line has 3"),
        ("..\n....\n....", "board line 1 has 2 cells, the widest line has 4"),
        ("...\n\n...", "board line 2 has 0 cells, the widest line has 3"),
    ],
)
def test_ragged_board_text(text, phrase):
    with pytest.raises(ValueError, match=phrase):
        count_tours(board=text, start=(0, 0))


@pytest.mark.parametrize(
    ("text", "phrase"),
    [("", "board text is empty"), ("\n\n", "board text is empty"), ("###\n###", "no squares")],
)
def test_board_text_without_squares(text, phrase):
    with pytest.raises(ValueError, match=phrase):
        KnightBoard.parse(text)


def test_board_without_any_square():
    with pytest.raises(ValueError, match=r"the board has no squares"):
        count_tours(board="###\n###", start=(0, 0))


def test_board_must_be_text_or_knightboard():
    with pytest.raises(TypeError, match="board must be a str drawing the board, got int"):
        count_tours(board=5)
    with pytest.raises(TypeError, match="got list"):
        find_tour(board=["...", "..."])


@pytest.mark.parametrize("func", ALL, ids=ALL_IDS)
@pytest.mark.parametrize(
    ("rows", "cols", "phrase"),
    [
        (4, None, "rows=4 disagrees with the board text, which has 3"),
        (None, 5, "cols=5 disagrees with the board text, which has 4"),
        (3, 3, "cols=3 disagrees with the board text, which has 4"),
    ],
)
def test_rows_and_cols_disagreeing_with_the_board(func, rows, cols, phrase):
    with pytest.raises(ValueError, match=phrase):
        func(rows, cols, board="....\n....\n....")


def test_rows_and_cols_agreeing_with_the_board():
    assert count_tours(3, 4, board="....\n....\n....") == 2
    assert count_tours(3, None, board="....\n....\n....") == 2
    assert count_tours(None, 4, board="....\n....\n....") == 2


# A KnightBoard built directly is validated like parsed text (regression: a mask
# of the wrong length once gave a bare IndexError).
@pytest.mark.parametrize("func", ALL, ids=ALL_IDS)
def test_knightboard_with_a_mask_of_the_wrong_length(func):
    with pytest.raises(ValueError, match="mask"):
        func(board=KnightBoard(3, 4, (True,) * 5), start=(2, 3))


@pytest.mark.parametrize("func", ALL, ids=ALL_IDS)
def test_knightboard_with_no_rows(func):
    with pytest.raises(ValueError, match="rows must be at least 1"):
        func(board=KnightBoard(0, 5))


def test_knightboard_parse():
    board = KnightBoard.parse(
        """
        ..#
        ...
        """
    )
    assert (board.rows, board.cols) == (2, 3)
    assert board.mask == (True, True, False, True, True, True)
    assert board.squares == 5 and board.cells == 6
    assert board.is_square(0, 0) and not board.is_square(0, 2)
    assert not board.is_square(2, 0) and not board.is_square(-1, 0)
    assert board.draw() == "..#\n..."
    assert KnightBoard.parse(board.draw()) == board
    # the old name, as PegBoard names the same job draw() (deprecated for one release)
    with pytest.deprecated_call(match="KnightBoard.draw"):
        assert board.text() == board.draw()
    full = KnightBoard.parse("...\n...")
    assert full.mask is None and full == KnightBoard(2, 3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        board.rows = 5


# ---------------------------------------------------------------- the Tour object


@pytest.fixture(scope="module")
def pair():
    return list(tours(3, 4))


def test_tour_is_a_sequence_of_squares(pair):
    first, second = pair
    assert len(first) == 12
    assert list(first) == FIRST_3X4
    assert first.squares == tuple(FIRST_3X4)
    assert all(type(sq) is tuple and len(sq) == 2 for sq in first)
    assert (1, 3) in first and (5, 5) not in first
    assert first.index((0, 3)) == 7
    assert first.count((0, 0)) == 1
    assert list(reversed(first)) == FIRST_3X4[::-1]
    assert list(second) == SECOND_3X4


def test_tour_indexing(pair):
    first = pair[0]
    for i in range(-12, 12):
        assert first[i] == FIRST_3X4[i]
    with pytest.raises(IndexError):
        first[12]
    with pytest.raises(IndexError):
        first[-13]
    assert first[2:5] == FIRST_3X4[2:5]
    assert first[::-1] == FIRST_3X4[::-1]
    assert first[::5] == FIRST_3X4[::5]
    assert first[-3:] == FIRST_3X4[-3:]
    assert first[100:] == []
    with pytest.raises(TypeError):
        first["x"]


def test_tour_properties(pair):
    first, second = pair
    assert first.start == (2, 0) and first.end == (1, 0)
    assert second.end == (0, 3)
    assert not first.closed and not second.closed
    assert (first.rows, first.cols) == (3, 4)
    assert first.board == KnightBoard(3, 4)
    assert list(first.indices()) == [r * 4 + c for r, c in FIRST_3X4]
    assert first.numbers() == [[3, 6, 11, 8], [12, 9, 2, 5], [1, 4, 7, 10]]
    assert "3x4" in repr(first) and "open" in repr(first)


def test_indices_are_a_copy(pair):
    first = pair[0]
    copy = first.indices()
    copy[0] = 11
    assert first[0] == (2, 0)


def test_tour_equality_hash_and_order(pair):
    first, second = pair
    again = Tour(FIRST_3X4, 3, 4)
    assert first == again and hash(first) == hash(again)
    assert first != second
    assert len({first, second, again}) == 2
    # same squares in the same order: ordered by squares, like lists of indices
    assert first < second and second > first
    assert first <= again and first >= again
    assert sorted([second, first]) == [first, second]
    assert first != FIRST_3X4  # a Tour is not a list
    assert first != tuple(FIRST_3X4)
    with pytest.raises(TypeError):
        _ = first < FIRST_3X4


def test_tours_on_different_boards_differ():
    one = find_tour(1, 1)
    masked = find_tour(board=".#", start=(0, 0))
    assert list(one) == list(masked) == [(0, 0)]
    assert one != masked


def test_tour_is_immutable(pair):
    first = pair[0]
    for name in ("start", "end", "closed", "rows", "cols", "board", "squares"):
        with pytest.raises(AttributeError):
            setattr(first, name, None)
    with pytest.raises(AttributeError):
        first.anything = 1
    with pytest.raises(TypeError):
        first[0] = (0, 0)
    with pytest.raises(TypeError):
        del first[0]
    assert list(first) == FIRST_3X4


def test_tour_pickles(pair):
    first = pair[0]
    again = pickle.loads(pickle.dumps(first))
    assert again == first and list(again) == FIRST_3X4


def test_tour_text_of_the_first_3x4_tour(pair):
    assert str(pair[0]) == "  3  6 11  8\n 12  9  2  5\n  1  4  7 10"
    assert str(pair[1]) == "  3  6  9 12\n  8 11  2  5\n  1  4  7 10"


def test_tour_text_shows_missing_squares_and_widens():
    ring = find_tour(board="...\n.#.\n...", start=(0, 0), closed=True)
    lines = str(ring).splitlines()
    assert len(lines) == 3 and lines[1].split()[1] == "#"
    assert sorted(int(x) for x in str(ring).split() if x != "#") == list(range(1, 9))
    big = find_tour(10, 10)
    lines = str(big).splitlines()
    assert len(lines) == 10 and all(len(line) == 40 for line in lines)
    assert sorted(int(x) for x in str(big).split()) == list(range(1, 101))


SVG = "{http://www.w3.org/2000/svg}"


def _svg_path(root):
    paths = [
        el
        for el in root.iter()
        if el.tag in (SVG + "polyline", SVG + "polygon", SVG + "path")
        and "path" in el.get("class", "")
    ]
    assert len(paths) == 1
    return paths[0]


@pytest.mark.parametrize(
    "make",
    [
        lambda: next(tours(3, 4)),
        lambda: find_tour(8, 8),
        lambda: find_tour(6, 6, closed=True),
        lambda: find_tour(board="...\n.#.\n...", start=(0, 0), closed=True),
        lambda: find_tour(60, 70),
        lambda: find_tour(501, 501),  # over 250,000 cells: drawn without squares
    ],
    ids=["3x4", "8x8", "6x6-closed", "ring", "60x70", "501x501"],
)
def test_svg_is_well_formed(make):
    tour = make()
    svg = tour.to_svg()
    assert svg == tour._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    width, height = float(root.get("width")), float(root.get("height"))
    assert width > 0 and height > 0
    assert width / height == pytest.approx(tour.cols / tour.rows, rel=1e-3)
    path = _svg_path(root)
    points = path.get("points").split()
    assert len(points) == len(tour)
    # the points are the square centres in tour order
    xs = [float(p.split(",")[0]) for p in points]
    ys = [float(p.split(",")[1]) for p in points]
    cell = width / tour.cols
    centres = [(round(y / cell - 0.5), round(x / cell - 0.5)) for x, y in zip(xs, ys, strict=True)]
    assert centres == list(tour)
    assert (path.tag == SVG + "polygon") == tour.closed


def test_svg_cell_size_and_numbers():
    tour = next(tours(3, 4))
    root = ET.fromstring(tour.to_svg(cell=10, numbers=True))
    assert float(root.get("width")) == 40 and float(root.get("height")) == 30
    texts = sorted(int(el.text) for el in root.iter(SVG + "text"))
    assert texts == list(range(1, 13))
    root = ET.fromstring(tour.to_svg(cell=10, numbers=False))
    assert not list(root.iter(SVG + "text"))
    for bad in (0, -3, "big", True):
        with pytest.raises(ValueError, match="cell must be a positive number"):
            tour.to_svg(cell=bad)


# ---------------------------------------------------------------- Tour() and is_tour


def test_tour_constructor_accepts_a_tour():
    tour = Tour(FIRST_3X4, 3, 4)
    assert list(tour) == FIRST_3X4 and tour.verify()
    ring = [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1)]
    shaped = Tour(ring, board="...\n.#.\n...")
    assert shaped.closed and shaped.verify(closed=True)
    assert Tour(iter(FIRST_3X4), 3, 4) == tour  # any iterable


@pytest.mark.parametrize(
    ("squares", "phrase"),
    [
        (FIRST_3X4[:-1], "not a knight's tour"),
        (FIRST_3X4 + [(1, 0)], "not a knight's tour"),
        ([], "not a knight's tour"),
        (FIRST_3X4[:5] + FIRST_3X4[6:] + [FIRST_3X4[5]], "not a knight's tour"),
        ([(0, 0)] * 12, "not a knight's tour"),
        (FIRST_3X4[:-1] + [(3, 0)], r"square 11 \(3, 0\) is not on the board"),
        (FIRST_3X4[:-1] + [(-1, 0)], "is not on the board"),
    ],
)
def test_tour_constructor_rejects_non_tours(squares, phrase):
    with pytest.raises(ValueError, match=phrase):
        Tour(squares, 3, 4)


def test_tour_constructor_type_errors():
    with pytest.raises(TypeError, match="square 0 must be a \\(row, col\\) pair"):
        Tour(["ab"], 3, 4)
    with pytest.raises(TypeError, match="square 1 row must be an integer"):
        Tour([(2, 0), (1.0, 2)], 3, 4)
    with pytest.raises(ValueError, match="missing square|not on the board"):
        Tour([(0, 2)], board="..#\n...")


def test_is_tour_good_and_bad():
    assert is_tour(FIRST_3X4, 3, 4)
    assert is_tour(SECOND_3X4, 3, 4)
    assert is_tour(tuple(FIRST_3X4), 3, 4)
    assert is_tour(iter(FIRST_3X4), 3, 4)
    assert is_tour([list(sq) for sq in FIRST_3X4], 3, 4)
    assert not is_tour(FIRST_3X4, 3, 4, closed=True)
    assert not is_tour(FIRST_3X4, 4, 3)
    assert not is_tour(FIRST_3X4, 3, 5)
    assert not is_tour(FIRST_3X4[:-1], 3, 4)
    assert not is_tour(FIRST_3X4 + [(1, 0)], 3, 4)
    assert not is_tour(FIRST_3X4[::-1][:-1] + [(5, 5)], 3, 4)
    assert not is_tour(FIRST_3X4[1:] + FIRST_3X4[:1], 3, 4)  # (1,0) -> (2,0) is no knight move
    assert not is_tour([], 3, 4)
    assert is_tour([(0, 0)], 1, 1)
    assert not is_tour([(0, 0)], 1, 1, closed=True)
    assert is_tour(FIRST_3X4[::-1], 3, 4)


def test_is_tour_on_shaped_boards_and_closed():
    ring = [(0, 0), (1, 2), (2, 0), (0, 1), (2, 2), (1, 0), (0, 2), (2, 1)]
    text = "...\n.#.\n..."
    assert is_tour(ring, board=text, closed=True)
    assert is_tour(ring[3:] + ring[:3], board=text, closed=True)
    assert not is_tour(ring, 3, 3)  # the full board has a centre square
    assert not is_tour(ring + [(1, 1)], board=text)


def test_is_tour_of_a_tour_object_needs_no_size():
    tour = find_tour(6, 6, closed=True)
    assert is_tour(tour) and is_tour(tour, closed=True)
    assert is_tour(tour, 6, 6, closed=True)
    assert not is_tour(tour, 6, 7)
    assert not is_tour(next(tours(3, 4)), closed=True)


def test_is_tour_argument_errors():
    with pytest.raises(TypeError, match="closed must be True or False"):
        is_tour(FIRST_3X4, 3, 4, closed="no")
    with pytest.raises(TypeError, match="square 0 must be a \\(row, col\\) pair"):
        is_tour(["ab"], 3, 4)
    with pytest.raises(TypeError, match="give the board size"):
        is_tour(FIRST_3X4)
    with pytest.raises(ValueError, match="rows must be at least 1"):
        is_tour(FIRST_3X4, 0, 4)


def test_is_tour_agrees_with_the_oracle_on_random_sequences():
    import random

    rng = random.Random(3)
    squares = oracle.squares(3, 4)
    for _ in range(300):
        seq = rng.sample(squares, rng.randint(10, 12))
        if rng.random() < 0.3:
            seq = list(FIRST_3X4)
            i, j = rng.randrange(12), rng.randrange(12)
            seq[i], seq[j] = seq[j], seq[i]
        assert is_tour(seq, 3, 4) == oracle.check_tour(seq, 3, 4), seq
        assert is_tour(seq, 3, 4, closed=True) == oracle.check_tour(seq, 3, 4, closed=True)


def test_public_names():
    assert set(solvers.__all__) >= {
        "KnightBoard",
        "Tour",
        "count_tours",
        "find_tour",
        "is_tour",
        "tours",
        "__version__",
    }
    assert isinstance(solvers.__version__, str)
