"""The ready models built on exact cover: Sudoku, polyomino tilings, Langford
pairs, N-Queens, their pictures and their commands.

Oracles, all independent of the models' statements as exact cover: published
counts (OEIS, the pentomino boxes, the 4x4 Sudoku grids, a published 9x9
puzzle and its solution, Kasteleyn's formula for domino tilings) and brute
forces written here that search each puzzle directly (a cell at a time, a
pair at a time).  A small Algorithm X, also written here, checks the
statements themselves without the Rust core.
"""

from __future__ import annotations

import json
import math
import pickle
import random
import xml.etree.ElementTree as ET
from itertools import islice

import pytest
import solvers
from cover_oracle import sudoku_brute
from hypothesis import given, settings
from hypothesis import strategies as st
from solvers import (
    ExactCover,
    LangfordPairs,
    LangfordSequence,
    Piece,
    QueensCover,
    Sudoku,
    Tiling,
    TilingPuzzle,
    cli,
)
from solvers.cover import piece_set

SVG = "{http://www.w3.org/2000/svg}"

# ---------------------------------------------------------------- oracles


def algorithm_x(problem: ExactCover) -> int:
    """The number of covers of ``problem`` (no colours), by Knuth's Algorithm
    X on Python sets: the first uncovered primary item with fewest options."""
    options = [frozenset(option) for option in problem.options]
    primary = list(problem.primary)
    holding = {item: [k for k, o in enumerate(options) if item in o] for item in problem.items}

    def count(used: frozenset) -> int:
        best, fewest = None, None
        for item in primary:
            if item not in used:
                fits = [k for k in holding[item] if not options[k] & used]
                if fewest is None or len(fits) < len(fewest):
                    best, fewest = item, fits
        if best is None:
            return 1
        return sum(count(used | options[k]) for k in fewest)

    return count(frozenset())


def shapes(cells, turns: str = "free") -> set[tuple]:
    """The orientations of a set of cells (normalised, sorted), by my own
    rotation (r, c) -> (c, -r) and mirror (r, c) -> (r, -c)."""

    def norm(cs):
        top = min(r for r, _ in cs)
        left = min(c for _, c in cs)
        return tuple(sorted((r - top, c - left) for r, c in cs))

    found, current = set(), list(cells)
    for _ in range(4):
        current = [(c, -r) for r, c in current]
        found.add(norm(current))
        if turns == "free":
            found.add(norm([(r, -c) for r, c in current]))
    return {norm(cells)} if turns == "fixed" else found


def tiling_brute(board: set, pieces: dict[str, tuple], once: bool, turns: str = "free") -> int:
    """Tilings of ``board``: the first uncovered cell in reading order takes
    every orientation of every piece left whose first cell lands on it."""
    placed = {name: sorted(shapes(cells, turns)) for name, cells in pieces.items()}

    def count(free: frozenset, left: tuple) -> int:
        if not free:
            return 1 if not once or not left else 0
        r, c = min(free)
        total = 0
        for name in left:
            for shape in placed[name]:
                r0, c0 = shape[0]
                cells = {(r + dr - r0, c + dc - c0) for dr, dc in shape}
                if cells <= free:
                    rest = tuple(n for n in left if n != name) if once else left
                    total += count(free - cells, rest)
        return total

    return count(frozenset(board), tuple(pieces))


def domino_kasteleyn(m: int, n: int) -> int:
    """Domino tilings of an m x n rectangle by Kasteleyn's product formula."""
    product = 1.0
    for j in range(1, (m + 1) // 2 + 1):
        for k in range(1, (n + 1) // 2 + 1):
            product *= (
                4 * math.cos(math.pi * j / (m + 1)) ** 2 + 4 * math.cos(math.pi * k / (n + 1)) ** 2
            )
    return round(product)


def langford_brute(n: int) -> int:
    """Langford sequences of n pairs: place n, n-1, ..., 1 in turn."""
    slots = [0] * (2 * n)

    def place(k: int) -> int:
        if k == 0:
            return 1
        total = 0
        for i in range(2 * n - k - 1):
            if slots[i] == 0 and slots[i + k + 1] == 0:
                slots[i] = slots[i + k + 1] = k
                total += place(k - 1)
                slots[i] = slots[i + k + 1] = 0
        return total

    return place(n)


def free_polyominoes(size: int) -> set[tuple]:
    """Every free polyomino of ``size`` cells (canonical: the least of its
    orientations), grown a cell at a time."""
    level = {((0, 0),)}
    for _ in range(size - 1):
        grown = set()
        for cells in level:
            for r, c in cells:
                for cell in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                    if cell not in cells:
                        grown.add(min(shapes([*cells, cell])))
        level = grown
    return level


def test_the_oracles():
    assert domino_kasteleyn(8, 8) == 12_988_816 and domino_kasteleyn(2, 3) == 3
    assert tiling_brute({(0, 0), (0, 1), (1, 0), (1, 1)}, {"D": ((0, 0), (0, 1))}, False) == 2
    assert [langford_brute(n) for n in (3, 4, 5, 7)] == [2, 2, 0, 52]
    assert [len(free_polyominoes(k)) for k in range(1, 7)] == [1, 1, 2, 5, 12, 35]  # A000105
    assert sudoku_brute([[0] * 4 for _ in range(4)], 2, 2) == 288
    problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    assert algorithm_x(problem) == 3


# ---------------------------------------------------------------- pieces


@pytest.mark.parametrize(
    ("name", "size", "count", "fixed", "one_sided"),
    # free (A000105), fixed (A001168) and one-sided (A000988) polyominoes
    [
        ("monomino", 1, 1, 1, 1),
        ("domino", 2, 1, 2, 1),
        ("trominoes", 3, 2, 6, 2),
        ("tetrominoes", 4, 5, 19, 7),
        ("pentominoes", 5, 12, 63, 18),
    ],
)
def test_the_piece_sets_are_every_free_polyomino(name, size, count, fixed, one_sided):
    pieces = piece_set(name)
    assert len(pieces) == count and all(len(p) == size for p in pieces)
    assert {min(shapes(p.cells)) for p in pieces} == free_polyominoes(size)
    assert sum(len(p.orientations()) for p in pieces) == fixed
    # a piece whose rotations miss its mirror image is two one-sided pieces
    chiral = sum(len(p.orientations("rotate")) < len(p.orientations()) for p in pieces)
    assert count + chiral == one_sided
    for piece in pieces:
        assert {o.cells for o in piece.orientations()} == shapes(piece.cells)
        assert {o.cells for o in piece.orientations("rotate")} == shapes(piece.cells, "rotate")
        assert piece.orientations("fixed") == (piece,)


def test_the_pentominoes_have_their_letters():
    pentominoes = {p.name: p for p in piece_set("pentominoes")}
    assert "".join(pentominoes) == "FILNPTUVWXYZ"
    assert str(pentominoes["I"]) == "#####"
    assert str(pentominoes["X"]) == ".#.\n###\n.#."
    assert str(pentominoes["U"]) in shapes_text("#.#\n###")
    assert str(pentominoes["T"]) in shapes_text("###\n.#.\n.#.")
    assert str(pentominoes["V"]) in shapes_text("#..\n#..\n###")
    assert str(pentominoes["W"]) in shapes_text("#..\n##.\n.##")
    assert str(pentominoes["Z"]) in shapes_text("##.\n.#.\n.##")
    assert str(pentominoes["P"]) in shapes_text("##\n##\n#.")
    assert str(pentominoes["L"]) in shapes_text("####\n#...")
    assert str(pentominoes["Y"]) in shapes_text("####\n.#..")
    assert str(pentominoes["N"]) in shapes_text("##..\n.###")
    assert str(pentominoes["F"]) in shapes_text(".##\n##.\n.#.")


def shapes_text(drawing: str) -> set[str]:
    cells = [(r, c) for r, line in enumerate(drawing.split("\n")) for c, ch in enumerate(line)]
    on = [cell for cell in cells if drawing.split("\n")[cell[0]][cell[1]] == "#"]
    return {str(Piece(shape, name="x")) for shape in shapes(on)}


def test_pieces_are_values():
    a = Piece.parse("  ##\n  #.\n", name="c")
    assert a == Piece([(3, 3), (3, 4), (4, 3)], name="c") and hash(a) == hash(
        Piece(a.cells, name="c")
    )
    assert a != Piece(a.cells, name="d")
    assert pickle.loads(pickle.dumps(a)) == a
    assert (a.rows, a.cols, len(a)) == (2, 2, 3)
    with pytest.raises(AttributeError):
        a.name = "e"


@pytest.mark.parametrize(
    ("make", "error", "match"),
    [
        (lambda: Piece.parse("#?", name="q"), ValueError, r"line 1, column 2: unexpected '\?'"),
        (lambda: Piece.parse("\n\n", name="q"), ValueError, "text is empty"),
        (lambda: Piece.parse("..", name="q"), ValueError, "has no cell"),
        (lambda: Piece.parse(5, name="q"), TypeError, "must be a str"),
        (lambda: Piece([], name="q"), ValueError, "has no cell"),
        (lambda: Piece([(0, 0), (0, 0)], name="q"), ValueError, "a cell twice"),
        (lambda: Piece([(0, 0)], name="a b"), ValueError, "without spaces"),
        (lambda: Piece([(0, 0)], name=""), ValueError, "non-empty"),
        (lambda: Piece([(0, "x")], name="q"), TypeError, "integer"),
        (lambda: piece_set("hexominoes"), ValueError, "piece set must be one of"),
        (lambda: Piece([(0, 0)], name="q").orientations("mirror"), ValueError, "turns must be"),
    ],
)
def test_bad_pieces_are_refused_clearly(make, error, match):
    with pytest.raises(error, match=match):
        make()


# ---------------------------------------------------------------- tilings: the statement


def board_cells(text: str) -> set:
    lines = text.strip("\n").split("\n")
    return {(r, c) for r, line in enumerate(lines) for c, ch in enumerate(line) if ch == "."}


@pytest.mark.parametrize(
    ("board", "pieces", "once", "turns"),
    [
        ("....\n....\n....", "trominoes", False, "free"),
        ("...\n...\n...", "trominoes", False, "rotate"),
        ("....\n....", "tetrominoes", False, "fixed"),
        ("#...\n....\n...#", "domino", False, "free"),
        (".....\n.....\n.....\n.....", "tetrominoes", True, "free"),
    ],
)
def test_tilings_stated_as_exact_cover_count_as_a_direct_search(board, pieces, once, turns):
    puzzle = TilingPuzzle(board, pieces, each="once" if once else "any", turns=turns)
    expected = tiling_brute(
        board_cells(board), {p.name: p.cells for p in piece_set(pieces)}, once, turns
    )
    assert algorithm_x(puzzle.exact_cover()) == expected


def test_tiling_statement_items_and_options():
    with pytest.raises(ValueError, match="cover 6 cells, the board has 3"):
        TilingPuzzle((1, 3), "trominoes")
    puzzle = TilingPuzzle((2, 3), "trominoes")
    problem = puzzle.exact_cover()
    # the cells swept along the longer side (here column by column), then the pieces
    assert problem.primary == ("r0c0", "r1c0", "r0c1", "r1c1", "r0c2", "r1c2", "I", "L")
    assert problem.secondary == ()
    # the I in 2 rows, the L in its 4 turns at 2 places each
    assert len(problem) == 2 + 8
    assert ExactCover.from_dlx(problem.to_dlx()) == problem
    free = TilingPuzzle((3, 2), {"L": "##\n#."}, each="any").exact_cover()
    assert free.primary == tuple(f"r{r}c{c}" for r in range(3) for c in range(2))


# ---------------------------------------------------------------- tilings: counts


@pytest.mark.parametrize(("side", "count"), [(2, 2), (4, 36), (6, 6728)])  # OEIS A004003
def test_domino_tilings_of_squares(side, count):
    puzzle = TilingPuzzle((side, side), "domino", each="any")
    assert puzzle.count() == count == domino_kasteleyn(side, side)


def test_domino_tilings_of_the_8x8_square_through_memo():
    puzzle = TilingPuzzle((8, 8), "domino", each="any")
    assert puzzle.count(method="memo") == 12_988_816  # OEIS A004003


@pytest.mark.parametrize(
    ("side", "count"), [(10, 258_584_046_368), (12, 53_060_477_521_960_000)]
)  # OEIS A004003, past what a listing could reach
def test_domino_tilings_of_big_squares_through_memo(side, count):
    assert TilingPuzzle((side, side), "domino", each="any").count(method="memo") == count


@pytest.mark.parametrize("shape", [(2, 100), (100, 2)])
def test_domino_tilings_of_long_strips_are_fibonacci_numbers(shape):
    a, b = 1, 1  # tilings of the 2 x 0 and 2 x 1 strips
    for _ in range(max(shape) - 1):
        a, b = b, a + b
    assert TilingPuzzle(shape, "domino", each="any").count(method="memo") == b


@pytest.mark.parametrize(("rows", "cols"), [(2, 7), (3, 6), (4, 5), (5, 6), (3, 10)])
def test_domino_tilings_of_rectangles_by_both_methods(rows, cols):
    puzzle = TilingPuzzle((rows, cols), "domino", each="any")
    expected = domino_kasteleyn(rows, cols)
    assert puzzle.count(method="search") == expected
    assert puzzle.count(method="memo") == expected


@settings(max_examples=25, deadline=None)
@given(
    st.sets(st.tuples(st.integers(0, 3), st.integers(0, 4)), min_size=1, max_size=20),
    st.sampled_from(["trominoes", "domino", "tetrominoes"]),
    st.sampled_from(["free", "rotate", "fixed"]),
)
def test_random_boards_count_as_a_direct_search(cells, pieces, turns):
    board = "\n".join("".join("." if (r, c) in cells else "#" for c in range(5)) for r in range(4))
    puzzle = TilingPuzzle(board, pieces, each="any", turns=turns)
    expected = tiling_brute(cells, {p.name: p.cells for p in piece_set(pieces)}, False, turns)
    assert puzzle.count(threads=2) == expected
    found = puzzle.find(deterministic=True)
    assert (found is None) == (expected == 0)
    if found is not None:
        assert found.verify() and found.board == puzzle.cells


def test_pentominoes_in_the_3x20_box():
    puzzle = TilingPuzzle((3, 20), "pentominoes")
    tilings = list(puzzle.solutions())
    # 2 tilings up to the box's 4 symmetries, none of them symmetric
    assert puzzle.count() == len(tilings) == 8
    assert len({canonical(t, 3, 20) for t in tilings}) == 2
    assert all(t.verify() and sorted(n for n, _ in t.placements) == list("FILNPTUVWXYZ")
               for t in tilings)  # fmt: skip


def canonical(tiling: Tiling, rows: int, cols: int) -> tuple:
    """The least of a rectangle's tiling under the rectangle's 4 symmetries."""
    images = []
    for flip_r in (False, True):
        for flip_c in (False, True):
            images.append(
                tuple(
                    sorted(
                        (name, tuple(sorted(
                            (rows - 1 - r if flip_r else r, cols - 1 - c if flip_c else c)
                            for r, c in cells
                        )))
                        for name, cells in tiling.placements
                    )
                )
            )  # fmt: skip
    return min(images)


@pytest.mark.parametrize(("rows", "cols", "count"), [(3, 20, 8), (4, 15, 1472), (15, 4, 1472)])
def test_pentominoes_in_boxes_through_memo(rows, cols, count):
    # the cells swept along the long side keep the memo's states few
    assert TilingPuzzle((rows, cols), "pentominoes").count(method="memo") == count


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rows", "cols", "count", "classes", "memo"),
    # The memo's count of 4x15 is test_pentominoes_in_boxes_through_memo's;
    # 6x10's would be 5x12's path (the same 72 items, a state of two words)
    # with more states, and the listing counts it here.
    [(6, 10, 9356, 2339, False), (5, 12, 4040, 1010, True), (4, 15, 1472, 368, False)],
)
def test_pentominoes_in_the_published_boxes(rows, cols, count, classes, memo):
    puzzle = TilingPuzzle((rows, cols), "pentominoes")
    if memo:
        assert puzzle.count(method="memo") == count
    tilings = list(puzzle.solutions())  # the search, listing
    assert len(tilings) == count
    assert len({canonical(t, rows, cols) for t in tilings}) == classes
    assert puzzle.count(unique=True) == classes


def test_the_pentominoes_on_the_chessboard_with_a_hole():
    # Dana Scott's 1958 problem: the 8x8 board less its centre 2x2 square,
    # 65 tilings up to the board's 8 symmetries, each seen 8 times
    board = "\n".join(
        "".join("#" if r in (3, 4) and c in (3, 4) else "." for c in range(8)) for r in range(8)
    )
    puzzle = TilingPuzzle(board, "pentominoes")
    assert puzzle.count() == 520


# ---------------------------------------------------------------- tilings: results and errors


def test_a_tiling_result():
    puzzle = TilingPuzzle("...\n...", {"L": "##\n#."}, each="any")
    tilings = list(puzzle.solutions())
    assert len(tilings) == 2 and tilings[0] != tilings[1]
    first = tilings[0]
    assert (
        first
        == puzzle.find(deterministic=True)
        == puzzle.read(next(solvers.covers(puzzle.exact_cover())))
    )
    assert len(first) == 2 and first.verify()
    assert (first.rows, first.cols) == (2, 3)
    assert {first.piece_at((0, 0)), first.piece_at((9, 9))} == {"L", None}
    assert pickle.loads(pickle.dumps(first)) == first
    assert hash(first) == hash(pickle.loads(pickle.dumps(first)))
    text = str(first)
    assert sorted(text.replace("\n", "")) == ["A", "A", "A", "B", "B", "B"]
    with pytest.raises(AttributeError):
        first.board = frozenset()
    assert not Tiling({(0, 0), (0, 1)}, [("M", [(0, 0)])]).verify()


def test_tiling_text_uses_the_piece_names_when_each_is_used_once():
    found = TilingPuzzle((3, 20), "pentominoes").find(deterministic=True)
    rows = str(found).split("\n")
    assert len(rows) == 3 and all(len(row) == 20 for row in rows)
    assert sorted(set("".join(rows))) == list("FILNPTUVWXYZ")
    for name, cells in found.placements:
        assert {rows[r][c] for r, c in cells} == {name}


def test_tiling_text_letters_differ_between_neighbours():
    found = TilingPuzzle((6, 6), "domino", each="any").find(deterministic=True)
    rows = str(found).split("\n")
    owner = {cell: k for k, (_, cells) in enumerate(found.placements) for cell in cells}
    for (r, c), k in owner.items():
        for other in ((r + 1, c), (r, c + 1)):
            if other in owner and owner[other] != k:
                assert rows[r][c] != rows[other[0]][other[1]]


def test_holes_in_a_drawn_board():
    board = """
        #...
        ....
        ...#
    """
    puzzle = TilingPuzzle(board, "domino", each="any")
    assert (puzzle.rows, puzzle.cols, len(puzzle.cells)) == (3, 4, 10)
    cells = board_cells(board.replace("    ", ""))
    assert puzzle.cells == cells
    expected = tiling_brute(cells, {"D": ((0, 0), (0, 1))}, False)
    assert puzzle.count() == expected > 0
    rows = str(puzzle.find(deterministic=True)).split("\n")
    assert rows[0][0] == "#" and rows[2][3] == "#" and "#" not in rows[1]


@pytest.mark.parametrize(
    ("make", "error", "match"),
    [
        (lambda: TilingPuzzle("..\n.x", "domino", each="any"), ValueError,
         r"board: line 2, column 2: unexpected 'x'"),
        (lambda: TilingPuzzle("", "domino", each="any"), ValueError, "board text is empty"),
        (lambda: TilingPuzzle("##\n##", "domino", each="any"), ValueError, "board has no cell"),
        (lambda: TilingPuzzle((0, 3), "domino"), ValueError, "board rows must be at least 1"),
        (lambda: TilingPuzzle(7, "domino"), TypeError, "board must be a str"),
        (lambda: TilingPuzzle((2, 2), "hexominoes"), ValueError, "unknown set 'hexominoes'"),
        (lambda: TilingPuzzle((2, 2), []), ValueError, "pieces is empty"),
        (lambda: TilingPuzzle((2, 2), ["##"]), TypeError, "must be Piece objects"),
        (lambda: TilingPuzzle((2, 2), {"a": "##", "b": "#?"}), ValueError, "piece 'b': line 1"),
        (lambda: TilingPuzzle((1, 2), [Piece([(0, 0)], name="m"), Piece([(0, 0)], name="m")]),
         ValueError, "two pieces are named 'm'"),
        (lambda: TilingPuzzle((1, 1), {"r0c0": "#"}), ValueError, "taken by a cell item"),
        (lambda: TilingPuzzle((2, 2), "domino", each="twice"), ValueError, "each must be"),
        (lambda: TilingPuzzle((2, 2), "domino", turns="any"), ValueError, "turns must be"),
        (lambda: TilingPuzzle((8, 8), "pentominoes"), ValueError,
         "the 12 pieces cover 60 cells, the board has 64"),
    ],
)  # fmt: skip
def test_bad_tilings_are_refused_clearly(make, error, match):
    with pytest.raises(error, match=match):
        make()


# ---------------------------------------------------------------- Sudoku

WIKIPEDIA = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
WIKIPEDIA_SOLVED = (
    "534678912672195348198342567859761423426853791713924856961537284287419635345286179"
)


def test_every_4x4_grid():
    assert Sudoku.empty((2, 2)).count() == 288
    assert algorithm_x(Sudoku.empty((2, 2)).exact_cover()) == 288


def test_a_published_puzzle_and_its_solution():
    puzzle = Sudoku(WIKIPEDIA)
    solved = puzzle.solve()
    assert "".join(str(d) for row in solved.grid for d in row) == WIKIPEDIA_SOLVED
    assert puzzle.is_unique() and puzzle.count() == 1
    assert solved.verify() and not puzzle.verify()
    assert solved.given == puzzle.given and solved.blanks == 0 and puzzle.blanks == 51
    assert solved.is_unique()


def random_puzzle(rng: random.Random, high: int, wide: int, keep: float) -> list[list[int]]:
    """A random valid grid (by the brute force's own filling, shuffled
    digits) with each cell kept with probability ``keep``."""
    side = high * wide
    base = [
        [(wide * (r % high) + r // high + c) % side + 1 for c in range(side)] for r in range(side)
    ]
    digits = list(range(1, side + 1))
    rng.shuffle(digits)
    grid = [[digits[d - 1] for d in row] for row in base]
    return [[d if rng.random() < keep else 0 for d in row] for row in grid]


@pytest.mark.parametrize(
    ("high", "wide", "keep"), [(2, 2, 0.3), (2, 3, 0.55), (3, 2, 0.55), (1, 4, 0.3)]
)
def test_random_puzzles_count_as_a_direct_search(high, wide, keep):
    rng = random.Random(high * 10 + wide)
    for _ in range(6):
        grid = random_puzzle(rng, high, wide, keep)
        expected = sudoku_brute(grid, high, wide)
        puzzle = Sudoku(grid, box=(high, wide))
        assert puzzle.count() == expected
        assert algorithm_x(puzzle.exact_cover()) == expected
        assert puzzle.is_unique() == (expected == 1)
        solutions = list(puzzle.solutions())
        assert len(solutions) == len(set(solutions)) == expected
        for solved in solutions:
            assert solved.verify()
            assert all(
                solved.grid[r][c] == d for r, row in enumerate(grid) for c, d in enumerate(row) if d
            )


def test_the_ways_to_write_a_puzzle():
    drawn = Sudoku("""
        1 2 | 3 .
        . . | . .
        ----+----
        . . | . .
        4 . | . 1
    """)
    assert drawn == Sudoku("123.........4..1") == Sudoku("1230000000004001")
    assert drawn == Sudoku([[1, 2, 3, 0], [0] * 4, [None] * 4, [4, 0, 0, 1]])
    assert drawn == Sudoku(["123.", "....", "____", "4..1"])
    assert drawn.box == (2, 2) and drawn.side == 4
    assert Sudoku("." * 36).box == (2, 3)
    assert Sudoku("." * 36, box="3x2").box == (3, 2)
    assert Sudoku("." * 25).box == (1, 5)
    big = Sudoku.empty((4, 4))
    assert big.side == 16 and "G" in str(big.solve()).replace("\n", "")
    assert Sudoku(str(big.solve())) == Sudoku([list(r) for r in big.solve().grid])
    assert Sudoku.empty("2x3") == Sudoku("." * 36, box=(2, 3))
    assert eval(repr(drawn), {"Sudoku": Sudoku}) == drawn  # noqa: S307 - our own repr
    assert pickle.loads(pickle.dumps(drawn.solve())) == drawn.solve()


@pytest.mark.parametrize(
    ("puzzle", "box", "error", "match"),
    [
        ("123", None, ValueError, "this one has 3 .not a square number"),
        ("12?4" + "." * 12, None, ValueError, r"line 1, column 3: unexpected '\?'"),
        ("11.." + "." * 12, None, ValueError, r"row 0 holds 1 twice: in cells \(0, 0\) and"),
        ("1...1..." + "." * 8, None, ValueError, "column 0 holds 1 twice"),
        ("1....1.." + "." * 8, None, ValueError, "box 0 holds 1 twice"),
        ("5" + "." * 15, None, ValueError, r"column 1: '5' is not a symbol of a 4 x 4 Sudoku"),
        ([[5, 0, 0, 0]] + [[0] * 4] * 3, None, ValueError, r"cell \(0, 0\) holds 5: the digits"),
        ("." * 16, "3x2", ValueError, "box 3x2 does not fit a grid of side 4"),
        ("." * 16, "2by2", ValueError, "box must be written RxC"),
        ("." * 16, (2, 0), ValueError, "box cols must be at least 1"),
        ([[1, 2], [3]], None, ValueError, "row 1 has 1 cells"),
        ([[1, "x"], [0, 0]], None, TypeError, "row 0, column 1 must be an integer"),
        (7, None, TypeError, "puzzle must be a str or a list of rows"),
        ("", None, ValueError, "this one has 0"),
        ("." * 65 * 65, None, ValueError, "a side of at most 64"),
    ],
)  # fmt: skip
def test_bad_puzzles_are_refused_clearly(puzzle, box, error, match):
    with pytest.raises(error, match=match):
        Sudoku(puzzle, box=box)


def test_a_puzzle_with_no_solution():
    # cell (0, 0) can hold nothing: 2 and 3 in its row, 4 in its column, 1 in its box
    stuck = Sudoku(".23..1..4.......")
    assert sudoku_brute([list(r) for r in stuck.grid], 2, 2) == 0
    assert stuck.count() == 0 and stuck.solve() is None and not stuck.is_unique()
    assert list(stuck.solutions()) == []


# ---------------------------------------------------------------- Langford pairs

A014552 = {1: 0, 2: 0, 3: 1, 4: 1, 5: 0, 6: 0, 7: 26, 8: 150, 11: 17_792, 12: 108_144}


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6, 7, 8])
def test_langford_counts(n):
    assert LangfordPairs(n).count() == langford_brute(n) == 2 * A014552[n]
    assert LangfordPairs(n, unique=True).count() == A014552[n]


def test_langford_counts_n11():
    assert LangfordPairs(11, unique=True).count() == A014552[11]


def test_langford_counts_n12():
    assert LangfordPairs(12, unique=True).count() == A014552[12]
    assert LangfordPairs(12).count() == 2 * A014552[12]


def test_langford_unique_keeps_one_of_each_reversed_pair():
    every = set(LangfordPairs(7).solutions())
    kept = list(LangfordPairs(7, unique=True).solutions())
    assert len(kept) == 26 and len(every) == 52
    assert {s for s in kept} | {s.reversed() for s in kept} == every
    assert all(s.reversed() not in kept for s in kept)
    assert algorithm_x(LangfordPairs(7, unique=True).exact_cover()) == 26


def test_langford_sequences():
    s = LangfordPairs(3).find(deterministic=True)
    assert isinstance(s, LangfordSequence) and s.verify() and s.n == 3
    assert s in (LangfordSequence([2, 3, 1, 2, 1, 3]), LangfordSequence([3, 1, 2, 1, 3, 2]))
    assert str(LangfordSequence((2, 3, 1, 2, 1, 3))) == "2 3 1 2 1 3"
    assert (
        pickle.loads(pickle.dumps(s)) == s
        and type(pickle.loads(pickle.dumps(s))) is LangfordSequence
    )
    assert LangfordPairs(5).find() is None
    for bad, match in [
        ([1, 1], "not 2 apart"),
        ([], "it has 0 values"),
        ([1, 2, 1], "it has 3 values"),
        ([2, 3, 1, 2, 1, 4], "slot 5 holds 4"),
        ([1, 2, 1, 1], "appears 3 times"),
    ]:
        with pytest.raises(ValueError, match=match):
            LangfordSequence(bad)
    with pytest.raises(ValueError, match="n must be at least 1"):
        LangfordPairs(0)
    with pytest.raises(TypeError, match="unique must be True or False"):
        LangfordPairs(3, unique=1)


# ---------------------------------------------------------------- N-Queens

A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]


@pytest.mark.parametrize("n", range(1, 11))
def test_queens_as_exact_cover_agree_with_count_queens(n):
    puzzle = QueensCover(n)
    assert puzzle.count() == solvers.count_queens(n) == A000170[n - 1]


def test_queens_as_exact_cover_list_the_same_placements():
    assert set(QueensCover(6).solutions()) == set(solvers.queens(6))
    assert algorithm_x(QueensCover(6).exact_cover()) == 4
    problem = QueensCover(5).exact_cover()
    assert set(problem.primary) == {f"{k}{i}" for k in "rc" for i in range(5)}
    assert len(problem.secondary) == 2 * 9
    assert ExactCover.from_dlx(problem.to_dlx()) == problem
    found = QueensCover(12).find()
    assert isinstance(found, solvers.Placement) and found.verify()
    assert QueensCover(3).find() is None
    with pytest.raises(ValueError, match="n must be at least 1"):
        QueensCover(0)


# ---------------------------------------------------------------- every model


MODELS = {
    "sudoku": lambda: Sudoku("12..34..2....3.1"),
    "tiling": lambda: TilingPuzzle((2, 4), "domino", each="any"),
    "langford": lambda: LangfordPairs(4),
    "queens": lambda: QueensCover(6),
}


@pytest.mark.parametrize("name", MODELS)
def test_every_model_reads_its_covers_in_the_covers_order(name):
    model = MODELS[name]()
    problem = model.exact_cover()
    assert model.exact_cover() is problem
    assert list(model.solutions(threads=2)) == [model.read(c) for c in solvers.covers(problem)]
    assert model.find(deterministic=True) == next(model.solutions())
    assert model.count(threads=1) == model.count(threads=2) == solvers.count_covers(problem)
    assert model.is_unique() == (model.count() == 1)
    assert model.count(method="memo") == model.count(method="search")
    with pytest.raises(TypeError):
        model.count(colour="red")  # the keywords are count_covers' own
    assert ExactCover.from_dlx(problem.to_dlx()) == problem


@pytest.mark.parametrize(
    "make",
    [
        lambda: Sudoku(WIKIPEDIA).solve(),
        lambda: Sudoku(WIKIPEDIA),
        lambda: Sudoku.empty((2, 3)).solve(),
        lambda: TilingPuzzle((6, 10), "pentominoes").find(deterministic=True),
        lambda: TilingPuzzle((4, 4), "domino", each="any").find(deterministic=True),
        lambda: LangfordPairs(7).find(deterministic=True),
    ],
    ids=["sudoku", "puzzle", "sudoku-6", "pentominoes", "dominoes", "langford"],
)
def test_svg_is_well_formed_ascii_and_deterministic(make):
    result = make()
    text = result.to_svg()
    assert text == make().to_svg() == result._repr_svg_()
    assert text.isascii()
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    assert float(root.get("width")) > 0 and float(root.get("height")) > 0
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    assert float(ET.fromstring(result.to_svg(cell=1000)).get("width")) > float(root.get("width"))
    with pytest.raises(ValueError, match="cell must be a positive number"):
        result.to_svg(cell=0)


def test_sudoku_svg_writes_given_and_solved_digits_apart():
    solved = Sudoku(WIKIPEDIA).solve()
    root = ET.fromstring(solved.to_svg(cell=30))
    groups = {g.get("class"): [t.text for t in g.iter(SVG + "text")] for g in root.iter(SVG + "g")}
    assert len(groups["given"]) == 30 and len(groups["solved"]) == 51
    assert float(root.get("width")) == 9 * 30


def test_tiling_svg_colours_each_piece():
    found = TilingPuzzle((6, 10), "pentominoes").find(deterministic=True)
    root = ET.fromstring(found.to_svg(cell=20))
    pieces = [p for p in root.iter(SVG + "path") if p.get("class") == "piece"]
    assert len(pieces) == 12 and len({p.get("fill") for p in pieces}) == 12
    assert all(p.get("d").count("M") == 5 for p in pieces)
    assert (float(root.get("width")), float(root.get("height"))) == (200, 120)


# ---------------------------------------------------------------- the commands


def run(capsys, *argv):
    code = cli.main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_solvers_sudoku(capsys, tmp_path):
    code, out, _ = run(capsys, "sudoku", WIKIPEDIA)
    assert (
        code == 0
        and "".join(out.replace("|", "").replace("-", "").replace("+", "").split())
        == WIKIPEDIA_SOLVED
    )
    assert run(capsys, "sudoku", WIKIPEDIA, "--unique")[1] == "unique\n"
    assert run(capsys, "sudoku", "." * 16, "--unique")[1] == "not unique (2 solutions or more)\n"
    assert run(capsys, "sudoku", "." * 16, "--count")[1] == "288\n"
    assert json.loads(run(capsys, "sudoku", "." * 16, "--count", "--json")[1]) == {"count": 288}
    lines = run(capsys, "sudoku", "12..34..2....3.1", "--list", "5")[1].splitlines()
    assert [line.split(": ")[0] for line in lines] == ["1", "2"]
    grids = [line.split(": ")[1] for line in lines]
    assert all(Sudoku(grid).verify() for grid in grids) and len(set(grids)) == 2
    assert sudoku_brute([list(r) for r in Sudoku("12..34..2....3.1").grid], 2, 2) == 2
    listed = json.loads(run(capsys, "sudoku", "." * 16, "--list", "3", "--json")[1])
    assert len(listed["solutions"]) == 3
    path = tmp_path / "puzzle.txt"
    path.write_text(str(Sudoku(WIKIPEDIA)), encoding="utf-8")
    svg = tmp_path / "solved.svg"
    assert run(capsys, "sudoku", str(path), "--svg", str(svg))[0] == 0
    assert ET.fromstring(svg.read_text(encoding="utf-8")).tag == SVG + "svg"
    solution = json.loads(run(capsys, "sudoku", str(path), "--json")[1])["solution"]
    assert "".join(str(d) for row in solution for d in row) == WIKIPEDIA_SOLVED
    assert run(capsys, "sudoku", "." * 36, "--box", "3x2", "--list", "1")[0] == 0


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["sudoku", "123"], "not a square number"),
        (["sudoku", "." * 16, "--box", "3x3"], "box 3x3 does not fit"),
        (["sudoku", "." * 16, "--count", "--svg", "x.svg"], "--svg does not apply to --count"),
        (["sudoku", "." * 16, "--list", "-1"], "--list needs a number of solutions"),
        (["tiling", "2x2", "--piece", "L"], "--piece takes NAME=DRAWING"),
        (["tiling", "4x4"], "cover 60 cells, the board has 16"),
        (["tiling", "missing-board.txt"], "cannot read BOARD missing-board.txt"),
        (["tiling", "2x2", "--pieces", "domino", "--each", "any", "--svg", "x.svg"],
         "--svg does not apply to counting"),
    ],
)  # fmt: skip
def test_command_errors_are_one_line(capsys, argv, match):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("solvers: error: ") and match in err and err.count("\n") == 1


def test_solvers_tiling(capsys, tmp_path):
    assert run(capsys, "tiling", "3x20")[1] == "8\n"
    assert (
        run(capsys, "tiling", "8x8", "--pieces", "domino", "--each", "any", "--method", "memo")[1]
        == "12988816\n"
    )
    code, out, _ = run(capsys, "tiling", "3x20", "--find")
    assert code == 0 and sorted(set(out.replace("\n", ""))) == list("FILNPTUVWXYZ")
    board = tmp_path / "board.txt"
    board.write_text("...\n...\n", encoding="utf-8")
    out = run(capsys, "tiling", str(board), "--piece", "L=##/#.", "--each", "any", "--list", "9")[1]
    lines = out.splitlines()
    assert len(lines) == 2 and all(len(line.split(": ")[1].split("/")) == 2 for line in lines)
    listed = json.loads(
        run(
            capsys, "tiling", "2x2", "--pieces", "domino", "--each", "any", "--list", "5", "--json"
        )[1]
    )
    assert len(listed["tilings"]) == 2
    assert listed["tilings"][0][0][0] == "D"
    svg = tmp_path / "t.svg"
    assert (
        run(
            capsys,
            "tiling",
            "2x3",
            "--piece",
            "L=##/#.",
            "--each",
            "any",
            "--find",
            "--svg",
            str(svg),
        )[0]
        == 0
    )
    assert ET.fromstring(svg.read_text(encoding="utf-8")).tag == SVG + "svg"
    found = json.loads(
        run(capsys, "tiling", "1x3", "--piece", "M=#", "--each", "any", "--find", "--json")[1]
    )
    assert found == {"tiling": [["M", [[0, 0]]], ["M", [[0, 1]]], ["M", [[0, 2]]]]}
    assert (
        run(capsys, "tiling", "2x3", "--pieces", "domino", "--piece", "M=#", "--each", "any")[1]
        == str(
            tiling_brute(
                {(r, c) for r in range(2) for c in range(3)},
                {"D": ((0, 0), (0, 1)), "M": ((0, 0),)},
                False,
            )
        )
        + "\n"
    )
    assert (
        run(capsys, "tiling", "1x3", "--piece", "D=##", "--each", "any", "--find")[1]
        == "no tiling\n"
    )


def test_the_commands_are_listed(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    out = capsys.readouterr().out
    assert "sudoku" in out and "tiling" in out
    assert "solvers tiling 3x20" in out and "solvers sudoku 123.........4..1" in out


@pytest.mark.parametrize("command", ["sudoku", "tiling"])
def test_each_command_s_help_fits_a_terminal_and_ends_with_its_examples(
    capsys, monkeypatch, command
):
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps to the terminal
    with pytest.raises(SystemExit):
        cli.main([command, "--help"])
    head, examples = capsys.readouterr().out.split("\nexamples:\n")
    lines = examples.splitlines()
    assert lines and all(f"solvers {command} " in line and len(line) <= 80 for line in lines)
    assert max(map(len, head.splitlines())) <= 80


def test_islice_of_solutions_stops_the_search():
    # a model's listing may be left early: the first of many grids comes at once
    first = list(islice(Sudoku.empty((3, 3)).solutions(), 2))
    assert len(first) == 2 and all(s.verify() for s in first)


# ---------------------------------------------------------------- statements made at once


def _tiling_options(puzzle):
    """A tiling stated option by option, as the model documents it: each
    piece, orientation and place (its first cell on a board cell), cells
    swept along the longer side, then the pieces."""
    board = sorted(puzzle.cells)
    options, meanings = [], []
    for piece in puzzle.pieces:
        for shape in piece.orientations(puzzle.turns):
            r0, c0 = shape.cells[0]
            for r, c in board:
                placed = tuple((r + dr - r0, c + dc - c0) for dr, dc in shape.cells)
                if all(cell in puzzle.cells for cell in placed):
                    items = [f"r{a}c{b}" for a, b in placed]
                    options.append([piece.name, *items] if puzzle.each == "once" else items)
                    meanings.append((piece.name, placed))
    if puzzle.cols > puzzle.rows:
        board.sort(key=lambda cell: (cell[1], cell[0]))
    primary = [f"r{a}c{b}" for a, b in board]
    primary += [piece.name for piece in puzzle.pieces] if puzzle.each == "once" else []
    return options, meanings, primary, ()


def _langford_options(model):
    n = model.n
    options, meanings = [], []
    for k in range(1, n + 1):
        last = 2 * n - k - 2 if k > 1 or not model.unique else min(2 * n - k - 2, n - 2)
        for i in range(last + 1):
            options.append((str(k), f"s{i}", f"s{i + k + 1}"))
            meanings.append((k, i))
    return (
        options,
        meanings,
        [str(k) for k in range(1, n + 1)] + [f"s{i}" for i in range(2 * n)],
        (),
    )


def _queens_options(model):
    n = model.n
    pipe = sorted(range(n), key=lambda k: (abs(2 * k - (n - 1)), k))
    options = [
        (f"r{i}", f"c{j}", f"a{i + j}", f"b{i - j + n - 1}") for i in range(n) for j in range(n)
    ]
    meanings = [(i, j) for i in range(n) for j in range(n)]
    primary = [f"{kind}{k}" for k in pipe for kind in "rc"]
    return options, meanings, primary, [f"{kind}{d}" for kind in "ab" for d in range(2 * n - 1)]


def _stated_option_by_option(model):
    """The model's problem stated here, option by option (a Sudoku by its
    variants' statement, the other path the product has)."""
    if isinstance(model, Sudoku):
        stated = model._state()
    elif isinstance(model, TilingPuzzle):
        stated = _tiling_options(model)
    elif isinstance(model, LangfordPairs):
        stated = _langford_options(model)
    else:
        stated = _queens_options(model)
    options, meanings, primary, secondary = stated
    return ExactCover(options, primary=primary, secondary=secondary), list(meanings)


def _same_statement(model):
    problem, meanings = model._numbered()
    slow, slow_meanings = _stated_option_by_option(model)
    assert problem == slow and problem.options == slow.options
    assert list(meanings) == slow_meanings and len(meanings) == len(slow_meanings)
    assert list(meanings[1:3]) == slow_meanings[1:3]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 5),
    st.integers(1, 6),
    st.sets(st.tuples(st.integers(0, 4), st.integers(0, 5)), max_size=4),
    st.sampled_from(["domino", "trominoes", "tetrominoes", "monomino"]),
    st.sampled_from(["free", "rotate", "fixed"]),
)
def test_tilings_are_stated_at_once_as_option_by_option(rows, cols, holes, pieces, turns):
    board = "\n".join(
        "".join("#" if (r, c) in holes else "." for c in range(cols)) for r in range(rows)
    )
    if board.count(".") == 0:
        return
    _same_statement(TilingPuzzle(board, pieces, each="any", turns=turns))


@pytest.mark.parametrize("boxed", [(3, 20), (4, 5), (5, 4)])
def test_pentomino_and_tetromino_boxes_are_stated_at_once(boxed):
    pieces = "pentominoes" if boxed == (3, 20) else "tetrominoes"
    _same_statement(TilingPuzzle(boxed, pieces))


@pytest.mark.parametrize("n", range(1, 11))
def test_langford_and_queens_are_stated_at_once(n):
    _same_statement(LangfordPairs(n))
    _same_statement(LangfordPairs(n, unique=True))
    _same_statement(QueensCover(n))


def test_sudokus_are_stated_at_once():
    for puzzle in ["." * 16, "1...\n..3.\n.4..\n...2", "." * 36, Sudoku.generate((2, 3), seed=3),
                   Sudoku.generate((3, 3), seed=4), Sudoku.generate((3, 2), seed=5)]:  # fmt: skip
        _same_statement(puzzle if isinstance(puzzle, Sudoku) else Sudoku(puzzle))
