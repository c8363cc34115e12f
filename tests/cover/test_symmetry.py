"""Covers up to symmetry (issue 48): ``count_covers(..., symmetries=)``,
``covers(..., symmetries=)`` and the models' ``unique=True``, against an
orbit count written here from the brute-force oracle and against the
published counts of tilings, queens and Langford pairs."""

from __future__ import annotations

from types import SimpleNamespace
from unittest import mock

import pytest
from cover_oracle import all_covers
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from solvers import (
    ExactCover,
    LangfordPairs,
    QueensCover,
    Sudoku,
    TilingPuzzle,
    count_covers,
    count_queens,
    covers,
    is_cover,
)
from solvers.cover import count as cover_count
from solvers.cover import symmetry

from cover.test_models import canonical

# ---------------------------------------------------------------- the oracle


def contents(options, cover):
    """A cover as the set of its options' contents (no indices)."""
    return frozenset(frozenset(options[k]) for k in cover)


def orbit(cover, generators):
    """Every image of ``cover`` (a set of option contents) under the group
    the generators (dicts item -> image, others fixed) generate."""

    def moved(cover, images):
        return frozenset(
            frozenset((images.get(item, item), colour) for item, colour in option)
            for option in cover
        )

    seen, todo = set(), [cover]
    while todo:
        cover = todo.pop()
        if cover not in seen:
            seen.add(cover)
            todo.extend(moved(cover, images) for images in generators)
    return seen


def orbit_count(options, primary, generators):
    """The classes of the oracle's covers under the generators' group."""
    found = {contents(options, cover) for cover in all_covers(options, primary)}
    left, classes = set(found), 0
    while left:
        classes += 1
        seen = orbit(left.pop(), generators)
        assert seen <= found  # a symmetry maps covers to covers
        left -= seen
    return classes


@st.composite
def symmetric_problems(draw):
    """A tiny problem closed under a random permutation of its primary
    items and one of its secondary items, with that permutation."""
    n_primary = draw(st.integers(2, 6))
    n_secondary = draw(st.integers(0, 2))
    primary = [f"p{i}" for i in range(n_primary)]
    secondary = [f"s{i}" for i in range(n_secondary)]
    images = dict(zip(primary, draw(st.permutations(primary)), strict=True))
    images.update(zip(secondary, draw(st.permutations(secondary)), strict=True))
    palette = [None, "red", "blue"]
    seen: dict[frozenset, None] = {}
    for _ in range(draw(st.integers(1, 5))):
        chosen = draw(st.sets(st.sampled_from(primary), min_size=1, max_size=3))
        extra = draw(st.sets(st.sampled_from(secondary), max_size=2)) if secondary else set()
        option = frozenset(
            [(item, None) for item in chosen] + [(s, draw(st.sampled_from(palette))) for s in extra]
        )
        while option not in seen:  # the option's orbit under the permutation
            seen[option] = None
            option = frozenset((images[item], colour) for item, colour in option)
    options = [sorted(option, key=str) for option in seen]
    assume(len(options) <= 16)
    return options, primary, secondary, images


def _problem(options, primary, secondary):
    return ExactCover(options, primary=primary, secondary=secondary, colors=True)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(symmetric_problems(), st.sampled_from([1, 2]))
def test_orbits_agree_with_the_oracle(case, threads):
    options, primary, secondary, images = case
    problem = _problem(options, primary, secondary)
    want = orbit_count(options, primary, [images])
    assert count_covers(problem, symmetries=[images], threads=threads) == want
    # Burnside's sum, where the count would search a restricted problem
    with mock.patch.object(cover_count, "free_item", lambda problem, entries, elements: None):
        assert count_covers(problem, symmetries=[images], threads=threads) == want
    listed = list(covers(problem, symmetries=[images], threads=threads))
    assert len(listed) == want
    assert all(is_cover(problem, cover) for cover in listed)
    # one of each class: no two listed are images of each other
    classes = [orbit(contents(options, cover), [images]) for cover in listed]
    assert len(set().union(*classes)) == sum(map(len, classes))
    every = list(covers(problem))
    assert [c for c in every if c in set(listed)] == listed  # in the listing's order


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(symmetric_problems())
def test_the_group_of_two_generators(case):
    # the permutation and its square given apart generate the same group
    options, primary, secondary, images = case
    problem = _problem(options, primary, secondary)
    square = {item: images[images[item]] for item in images}
    want = orbit_count(options, primary, [images])
    assert count_covers(problem, symmetries=[square, images], method="memo") == want
    assert count_covers(problem, symmetries=[]) == len(all_covers(options, primary))


def test_an_item_in_free_orbits_restricts_the_search():
    # the X pentomino's placements in 6x10 are moved by every symmetry of the
    # box: the count keeps one of each orbit of the item with fewest options
    puzzle = TilingPuzzle((3, 20))
    problem = puzzle.exact_cover()
    elements = symmetry.group(problem, puzzle.symmetries())
    left_out = symmetry.free_item(problem, symmetry.entry_lists(problem), elements)
    assert left_out is not None and len(elements) == 4
    fewer = symmetry.restricted(problem, left_out)
    assert len(problem) - len(fewer) == len(left_out)
    assert count_covers(fewer) == 2
    # a problem whose every item some element moves sums Burnside's way
    swap = ExactCover([("a", "x"), ("b", "y"), ("a", "y"), ("b", "x")])
    both = symmetry.group(swap, [{"a": "b", "b": "a", "x": "y", "y": "x"}])
    assert symmetry.free_item(swap, symmetry.entry_lists(swap), both) is None
    # the swap of a and b alone fixes x and moves its two options
    assert symmetry.free_item(
        swap, symmetry.entry_lists(swap), symmetry.group(swap, [{"a": "b", "b": "a"}])
    ) == [3]


def test_the_identity_alone_counts_every_cover():
    problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    assert count_covers(problem, symmetries=[{}]) == count_covers(problem) == 3
    assert list(covers(problem, symmetries=[])) == list(covers(problem))


# ---------------------------------------------------------------- models and published counts


@pytest.mark.parametrize("n", range(1, 9))
def test_queens_up_to_the_board_s_symmetries(n):
    # OEIS A002562 through the count of the queens family
    assert QueensCover(n).count(unique=True) == count_queens(n, unique=True)


@pytest.mark.parametrize("n", range(1, 9))
def test_langford_pairs_up_to_reversal(n):
    assert LangfordPairs(n).count(unique=True) == LangfordPairs(n, unique=True).count()
    assert LangfordPairs(n, unique=True).symmetries() == []


def test_pentominoes_in_3x20_and_on_the_chessboard_with_a_hole():
    # 3x20: 2 tilings up to symmetry (8 in all); Dana Scott's 1958 board, the
    # 8x8 less its centre 2x2: 65 (520 in all)
    assert TilingPuzzle((3, 20)).count(unique=True) == 2
    assert len(TilingPuzzle((3, 20)).symmetries()) == 3
    board = "\n".join(
        "".join("#" if r in (3, 4) and c in (3, 4) else "." for c in range(8)) for r in range(8)
    )
    puzzle = TilingPuzzle(board)
    assert len(puzzle.symmetries()) == 7
    assert puzzle.count(unique=True) == 65
    assert len(list(puzzle.solutions(unique=True))) == 65


@pytest.mark.parametrize(
    ("rows", "cols", "pieces"),
    [
        (2, 4, "domino"),
        (3, 4, "domino"),
        (4, 4, "domino"),
        (2, 6, "trominoes"),
        (3, 6, "trominoes"),
        (4, 4, "tetrominoes"),
    ],
)
def test_small_tilings_up_to_symmetry_against_canonical_forms(rows, cols, pieces):
    puzzle = TilingPuzzle((rows, cols), pieces, each="any")
    classes = {canonical(t, rows, cols) for t in puzzle.solutions()}
    if rows == cols:  # a square also turns: the test's canonical form knows 4 of 8
        classes = {min(canonical(t, rows, cols), _turned(t, rows)) for t in puzzle.solutions()}
    assert puzzle.count(unique=True) == len(classes)
    listed = list(puzzle.solutions(unique=True))
    assert len(listed) == len(classes)


def _turned(tiling, n):
    """The least of the tiling's images under the square's 4 symmetries
    that swap rows and columns: the 4 flips of its transpose."""
    transposed = [(name, [(c, r) for r, c in cells]) for name, cells in tiling.placements]
    return canonical(SimpleNamespace(placements=transposed), n, n)


def test_pieces_that_may_not_turn_keep_fewer_symmetries():
    # L-trominoes as drawn: no symmetry of the square maps every placement
    # of the one orientation onto a placement, so nothing is identified
    puzzle = TilingPuzzle((2, 3), {"L": "#.\n##"}, each="any", turns="fixed")
    assert puzzle.symmetries() == []
    assert puzzle.count(unique=True) == puzzle.count()
    free = TilingPuzzle((2, 3), {"L": "#.\n##"}, each="any")
    assert len(free.symmetries()) == 3


# ---------------------------------------------------------------- Sudoku


def latin_grids(side, high, wide):
    """Every grid of boxes ``high x wide``, by plain backtracking."""
    grid = [[0] * side for _ in range(side)]
    found = []

    def fill(k):
        if k == side * side:
            found.append(tuple(map(tuple, grid)))
            return
        r, c = divmod(k, side)
        for d in range(1, side + 1):
            box = [
                grid[i][j]
                for i in range(r - r % high, r - r % high + high)
                for j in range(c - c % wide, c - c % wide + wide)
            ]
            if d in grid[r] or d in (row[c] for row in grid) or d in box:
                continue
            grid[r][c] = d
            fill(k + 1)
            grid[r][c] = 0

    fill(0)
    return found


def grid_classes(grids, moves):
    """The classes of ``grids`` under the group the grid maps ``moves`` generate."""
    left, classes = set(grids), 0
    while left:
        classes += 1
        todo, seen = [left.pop()], set()
        while todo:
            grid = todo.pop()
            if grid not in seen:
                seen.add(grid)
                todo.extend(move(grid) for move in moves)
        left -= seen
    return classes


def _square_moves():
    def turn(g):
        return tuple(zip(*g[::-1], strict=True))

    def flip(g):
        return tuple(row[::-1] for row in g)

    return [turn, flip]


def _whole_moves(side, high, wide):
    def rows(perm):
        return lambda g: tuple(g[perm[i]] for i in range(side))

    def cols(perm):
        return lambda g: tuple(tuple(row[perm[j]] for j in range(side)) for row in g)

    moves = []
    for size, count, kind in ((high, side // high, rows), (wide, side // wide, cols)):
        for block in range(count):  # swap two lines within each block
            for a in range(size - 1):
                perm = list(range(side))
                i = block * size + a
                perm[i], perm[i + 1] = perm[i + 1], perm[i]
                moves.append(kind(perm))
        for b in range(count - 1):  # swap two neighbouring blocks
            perm = list(range(side))
            for a in range(size):
                perm[b * size + a], perm[(b + 1) * size + a] = (b + 1) * size + a, b * size + a
            moves.append(kind(perm))
    if high == wide:
        moves.append(lambda g: tuple(zip(*g, strict=True)))
    for a in range(1, side):  # relabel: swap the digits a and a + 1
        swap = {d: d for d in range(side + 1)} | {a: a + 1, a + 1: a}
        moves.append(lambda g, swap=swap: tuple(tuple(swap[d] for d in row) for row in g))
    return moves


def test_sudoku_grids_up_to_symmetry_against_a_brute_force():
    grids = latin_grids(4, 2, 2)
    assert len(grids) == 288 == Sudoku.empty((2, 2)).count()
    assert Sudoku.empty((2, 2)).count(unique=True) == grid_classes(grids, _square_moves())
    # the whole validity-preserving group: 2 classes (the published figure)
    assert Sudoku.essentially_different((2, 2)) == grid_classes(grids, _whole_moves(4, 2, 2)) == 2
    # Latin squares of order 3 (boxes 1x3): one class; of order 2: one
    for box in ((1, 3), (1, 2), (3, 1)):
        side = box[0] * box[1]
        want = grid_classes(latin_grids(side, *box), _whole_moves(side, *box))
        assert Sudoku.essentially_different(box) == want == 1


def test_a_sudoku_s_symmetries_keep_its_givens():
    # a blank grid of square boxes has the square's 8; 2x3 boxes keep 4 of them
    assert len(Sudoku.empty((2, 2)).symmetries()) == 7
    assert len(Sudoku.empty((2, 3)).symmetries()) == 3
    # givens symmetric under the half turn only
    puzzle = Sudoku("1...\n....\n....\n...1")
    assert len(puzzle.symmetries()) == 3  # the half turn and the two diagonal flips
    grids = [g for g in latin_grids(4, 2, 2) if g[0][0] == 1 == g[3][3]]
    kept = [m for m in _all_square_moves() if m(puzzle_grid(puzzle)) == puzzle_grid(puzzle)]
    assert puzzle.count() == len(grids)
    assert puzzle.count(unique=True) == grid_classes(grids, kept)
    lopsided = Sudoku("12..\n....\n....\n....")
    assert lopsided.symmetries() == []
    with pytest.raises(ValueError, match="more than 10,000 elements"):
        Sudoku.essentially_different((2, 3))


def puzzle_grid(puzzle):
    return tuple(map(tuple, puzzle.grid))


def _all_square_moves():
    turn, flip = _square_moves()
    moves = []
    for k in range(4):
        moves.append(lambda x, k=k: _repeat(turn, k, x))
        moves.append(lambda x, k=k: flip(_repeat(turn, k, x)))
    return moves


def _repeat(move, k, x):
    for _ in range(k):
        x = move(x)
    return x


# ---------------------------------------------------------------- bad input


def test_bad_symmetries_are_refused_with_the_reason():
    problem = ExactCover([("a", "x"), ("b", "y"), ("a", "y"), ("b", "x")], secondary=[])
    swap = {"a": "b", "b": "a"}
    cases = [
        (swap, TypeError, "an iterable of mappings .* got one mapping"),
        ([("a", "b")], TypeError, "each symmetry must be a mapping"),
        ("ab", TypeError, "symmetries must be an iterable"),
        ([{"a": "z"}], ValueError, "symmetry 0 names 'z', which is not an item"),
        ([{"a": "b"}], ValueError, "not a permutation of the items: nothing maps to 'a'"),
        ([{}, {"a": "x", "x": "a"}], ValueError, "symmetry 1 maps option 2 .* not an option"),
    ]
    for given_, error, message in cases:
        with pytest.raises(error, match=message):
            count_covers(problem, symmetries=given_)
        with pytest.raises(error, match=message):
            covers(problem, symmetries=given_)
    kinds = ExactCover([("a", "s"), ("b",)], secondary=["s"])
    with pytest.raises(ValueError, match="keeps primary items primary"):
        count_covers(kinds, symmetries=[{"a": "s", "s": "a"}])
    twice = ExactCover([("a",), ("a",)])
    with pytest.raises(ValueError, match="options 0 and 1 are the same option"):
        count_covers(twice, symmetries=[{}])
    with pytest.raises(ValueError, match="limit= or symmetries=, not both"):
        count_covers(problem, symmetries=[swap], limit=1)
    with pytest.raises(ValueError, match="unique=True or symmetries=, not both"):
        QueensCover(4).count(unique=True, symmetries=[])
    with pytest.raises(TypeError, match="unique must be True or False"):
        QueensCover(4).count(unique=1)


def test_a_group_past_the_limit_is_refused(monkeypatch):
    problem = QueensCover(6).exact_cover()
    monkeypatch.setattr(symmetry, "MAX_GROUP", 4)
    with pytest.raises(ValueError, match="a group of more than 4 elements"):
        count_covers(problem, symmetries=QueensCover(6).symmetries())
