"""Sudoku variants (issue 48): X-Sudoku (``diagonals=True``), jigsaw
regions (``regions=``) and extra regions (``extra=``), against a brute force
over every Latin square of order 4 and 6x6 puzzles solved by backtracking."""

from __future__ import annotations

import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solvers import Sudoku

from cover.test_symmetry import latin_grids

LATIN4 = latin_grids(4, 4, 1)  # boxes 4x1 are the columns: every Latin square
JIGSAWS = ["AABB\nAACB\nDCCB\nDDCD", "AAAB\nCABB\nCCDB\nCDDD", "ABBB\nAACB\nDACC\nDDDC"]


def regions_of(drawing):
    lines = drawing.split("\n")
    return [[(r, c) for r in range(4) for c in range(4) if lines[r][c] == ch] for ch in "ABCD"]


def box_cells(side, high, wide):
    """The cells of each box of a grid of boxes ``high x wide``."""
    return [
        [(r, c) for r in range(top, top + high) for c in range(left, left + wide)]
        for top in range(0, side, high)
        for left in range(0, side, wide)
    ]


def holds_once(grid, cells):
    digits = [grid[r][c] for r, c in cells]
    return len(set(digits)) == len(digits)


def test_the_latin_squares_of_order_4():
    assert len(LATIN4) == 576  # OEIS A002860


def test_x_sudoku_against_the_brute_force():
    diagonals = [[(i, i) for i in range(4)], [(i, 3 - i) for i in range(4)]]
    boxes = box_cells(4, 2, 2)
    want = [g for g in LATIN4 if all(holds_once(g, u) for u in diagonals + boxes)]
    blank = Sudoku("." * 16, diagonals=True)
    assert blank.count() == len(want)
    assert {s.grid for s in blank.solutions()} == set(want)
    assert all(s.verify() for s in blank.solutions())


@pytest.mark.parametrize("drawing", JIGSAWS)
def test_jigsaw_regions_against_the_brute_force(drawing):
    want = [g for g in LATIN4 if all(holds_once(g, u) for u in regions_of(drawing))]
    blank = Sudoku("." * 16, regions=drawing)
    assert blank.count() == len(want)
    assert {s.grid for s in blank.solutions()} == set(want)
    both = Sudoku("." * 16, regions=drawing, diagonals=True)
    diagonals = [[(i, i) for i in range(4)], [(i, 3 - i) for i in range(4)]]
    assert both.count() == sum(all(holds_once(g, u) for u in diagonals) for g in want)


@settings(max_examples=40, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=4, unique=True)
)
def test_an_extra_region_against_the_brute_force(cells):
    boxes = latin_grids(4, 2, 2)
    want = [g for g in boxes if holds_once(g, cells)]
    assert Sudoku("." * 16, extra=[cells]).count() == len(want)


def backtrack(grid, units):
    """The solutions of ``grid`` (0 a blank) where each unit holds each digit at most once."""
    side = len(grid)
    blanks = [(r, c) for r in range(side) for c in range(side) if not grid[r][c]]
    of = {cell: [u for u in units if cell in u] for cell in blanks}
    count = 0

    def fill(k):
        nonlocal count
        if k == len(blanks):
            count += 1
            return
        r, c = blanks[k]
        for d in range(1, side + 1):
            if all(d not in (grid[i][j] for i, j in unit) for unit in of[r, c]):
                grid[r][c] = d
                fill(k + 1)
                grid[r][c] = 0

    fill(0)
    return count


def test_six_by_six_variants_against_backtracking():
    rng = random.Random(48)
    lines = [[(r, c) for c in range(6)] for r in range(6)]
    lines += [[(r, c) for r in range(6)] for c in range(6)]
    boxes = box_cells(6, 2, 3)
    diagonals = [[(i, i) for i in range(6)], [(i, 5 - i) for i in range(6)]]
    window = [(1, 1), (1, 2), (2, 1), (2, 2)]
    solution = Sudoku("." * 36, diagonals=True, extra=[window]).solve()
    assert solution is not None and solution.verify()
    checked = 0
    for _ in range(12):
        grid = [list(row) for row in solution.grid]
        for r, c in rng.sample([(r, c) for r in range(6) for c in range(6)], 28):
            grid[r][c] = 0
        puzzle = Sudoku(grid, diagonals=True, extra=[window])
        want = backtrack(grid, lines + boxes + diagonals + [window])
        assert puzzle.count() == want >= 1
        checked += want > 1
    assert checked  # some puzzles with more than one solution


def test_variants_are_values():
    jigsaw = Sudoku("." * 16, regions=JIGSAWS[0], extra=[[(0, 0), (3, 3)]])
    assert pickle.loads(pickle.dumps(jigsaw)) == jigsaw
    assert eval(repr(jigsaw), {"Sudoku": Sudoku}) == jigsaw
    again = Sudoku("." * 16, regions=JIGSAWS[0], extra=[[(0, 0), (3, 3)]])
    assert jigsaw != Sudoku("." * 16) and hash(jigsaw) == hash(again)
    solved = jigsaw.solve()
    assert solved.units == jigsaw.units and solved.verify()
    assert "|" not in str(solved)  # regions are not boxes: no box lines
    svg = Sudoku("." * 16, diagonals=True).solve().to_svg()
    assert 'class="marked"' in svg and svg.count("<rect") >= 8
    # the square's symmetries that keep the units: a blank X-Sudoku keeps all 8
    assert len(Sudoku("." * 16, diagonals=True).symmetries()) == 7
    assert Sudoku("." * 16, regions=JIGSAWS[0]).count(unique=True) >= 1


def test_bad_variants_are_refused_with_the_reason():
    with pytest.raises(ValueError, match=r"diagonal holds 1 twice: in cells \(0, 0\) and \(2, 2\)"):
        Sudoku("1.........1.....", diagonals=True)
    with pytest.raises(ValueError, match="not both"):
        Sudoku("." * 16, box=(2, 2), regions=JIGSAWS[0])
    with pytest.raises(
        ValueError, match="4 regions of 4 cells each; the drawing has 4 regions, region 'A' has"
    ):
        Sudoku("." * 16, regions="AAAA\nABBB\nCCCB\nDDDD")
    with pytest.raises(ValueError, match="4 lines of 4 characters"):
        Sudoku("." * 16, regions="AABB\nAABB")
    with pytest.raises(TypeError, match="regions must be a drawing"):
        Sudoku("." * 16, regions=[[0, 0, 1, 1]])
    with pytest.raises(ValueError, match=r"jigsaw region 0 holds 2 twice"):
        Sudoku("2....2..........", regions=JIGSAWS[0])
    with pytest.raises(ValueError, match=r"extra region 0: cell \(4, 0\) is off the 4x4 grid"):
        Sudoku("." * 16, extra=[[(0, 0), (4, 0)]])
    with pytest.raises(ValueError, match="extra region 0 has 1 cells"):
        Sudoku("." * 16, extra=[[(0, 0)]])
    with pytest.raises(ValueError, match=r"extra region 0 holds the cell \(0, 0\) twice"):
        Sudoku("." * 16, extra=[[(0, 0), (0, 0)]])
    with pytest.raises(ValueError, match=r"extra region 0 holds 3 twice"):
        Sudoku("3.........3.....", extra=[[(0, 0), (2, 2)]])
    with pytest.raises(TypeError, match="diagonals must be True or False"):
        Sudoku("." * 16, diagonals=1)


def test_the_largest_jigsaw_pickles():
    # 64 regions (each row one): drawn back with a mark for each
    rows = ["".join(chr(0x4E00 + r) for _ in range(64)) for r in range(64)]
    grid = Sudoku("." * 64 * 64, regions="\n".join(rows))
    again = pickle.loads(pickle.dumps(grid))
    assert again == grid and again.units.regions == grid.units.regions
