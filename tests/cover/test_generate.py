"""Generated Sudokus (``Sudoku.generate``): exactly one solution and minimal,
checked on 4x4 by the tests' brute force (``cover_oracle.sudoku_brute``,
which fills blank cells in reading order and knows nothing of exact cover), on 6x6 and 9x9 by the
package's counts; reproducible by seed; symmetric and ``clues=`` variants;
the refusals."""

from __future__ import annotations

import itertools

import pytest
from cover_oracle import sudoku_brute
from solvers import Sudoku


def solutions(grid: list[list[int]], high: int, wide: int) -> int:
    """Solutions of ``grid`` by the brute force, counted up to 2."""
    return sudoku_brute(grid, high, wide, most=2)


def clue_cells(puzzle: Sudoku) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(puzzle.grid) for c, d in enumerate(row) if d]


def without(puzzle: Sudoku, cells) -> list[list[int]]:
    grid = [list(row) for row in puzzle.grid]
    for r, c in cells:
        grid[r][c] = 0
    return grid


@pytest.mark.parametrize("seed", range(12))
def test_a_4x4_puzzle_is_unique_and_minimal_by_brute_force(seed):
    puzzle = Sudoku.generate((2, 2), seed=seed)
    grid = [list(row) for row in puzzle.grid]
    assert solutions(grid, 2, 2) == 1
    for cell in clue_cells(puzzle):
        assert solutions(without(puzzle, [cell]), 2, 2) == 2, cell
    assert puzzle.is_unique()
    assert puzzle.solve().verify()


@pytest.mark.parametrize(("box", "seed"), [((3, 3), 0), ((3, 3), 1), ((2, 3), 5), ((3, 2), 9)])
def test_bigger_puzzles_are_unique_and_minimal(box, seed):
    puzzle = Sudoku.generate(box, seed=seed)
    assert puzzle.box == box and puzzle.count() == 1
    solved = puzzle.solve()
    assert solved.verify()
    assert all(solved.grid[r][c] == puzzle.grid[r][c] for r, c in clue_cells(puzzle))
    for cell in clue_cells(puzzle):
        assert Sudoku(without(puzzle, [cell]), box=box).count(limit=2) == 2, cell


def test_the_same_seed_gives_the_same_puzzle():
    assert Sudoku.generate(seed=42) == Sudoku.generate(seed=42)
    assert Sudoku.generate(seed="forty-two") == Sudoku.generate(seed="forty-two")
    made = {str(Sudoku.generate((2, 2), seed=s)) for s in range(20)}
    assert len(made) > 10  # the seed matters


def test_a_symmetric_puzzle_keeps_its_clues_in_pairs():
    for seed in range(3):
        puzzle = Sudoku.generate(seed=seed, symmetric=True)
        side = puzzle.side
        pattern = {(r, c) for r, c in clue_cells(puzzle)}
        assert pattern == {(side - 1 - r, side - 1 - c) for r, c in pattern}
        assert puzzle.count() == 1
        # minimal among pairs: taking any pair away leaves two solutions
        pairs = {frozenset({(r, c), (side - 1 - r, side - 1 - c)}) for r, c in pattern}
        for pair in itertools.islice(pairs, 8):
            assert Sudoku(without(puzzle, pair)).count(limit=2) == 2


def test_a_big_grid_stops_at_its_timeout():
    with pytest.raises(TimeoutError, match="within the timeout of 0.5 s"):
        Sudoku.generate((6, 6), seed=1, timeout=0.5)  # a hang guard, not a timing


def test_clues_stops_taking_clues_away_at_that_many():
    for wanted in (30, 40, 81):
        puzzle = Sudoku.generate(seed=3, clues=wanted)
        assert 81 - puzzle.blanks == wanted and puzzle.count() == 1
    assert 81 - Sudoku.generate(seed=3, clues=0).blanks == 81 - Sudoku.generate(seed=3).blanks


@pytest.mark.parametrize(
    ("keywords", "error", "words"),
    [
        ({"seed": None}, TypeError, "seed must be an int, str or bytes"),
        ({"seed": 1.5}, TypeError, "seed must be"),
        ({"seed": 1, "clues": -1}, ValueError, "clues must be from 0 to 81"),
        ({"seed": 1, "clues": 82}, ValueError, "clues must be from 0 to 81"),
        ({"seed": 1, "clues": "many"}, TypeError, "clues"),
        ({"seed": 1, "symmetric": "yes"}, TypeError, "symmetric"),
        ({"seed": 1, "timeout": -1}, ValueError, "timeout"),
        ({"seed": 1, "box": (10, 10)}, ValueError, "at most"),
    ],
)
def test_bad_arguments_are_refused(keywords, error, words):
    with pytest.raises(error, match=words):
        Sudoku.generate(**keywords)
    with pytest.raises(TypeError, match="seed"):
        Sudoku.generate()  # type: ignore[call-arg]
