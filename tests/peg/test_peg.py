"""Peg-solitaire counts against published values and the separate brute-force
oracle in ``peg_oracle.py`` (which imports nothing from the package)."""

from __future__ import annotations

import peg_oracle as oracle
import pytest
import solvers
from hypothesis import given, settings
from hypothesis import strategies as st
from solvers import Jump, PegBoard, count_peg_solutions, find_peg_solution, finish_counts

#: (product board, oracle board): small enough for the oracle to take every
#: start and finish in well under a second.
SMALL = [
    (PegBoard.triangle(4), oracle.triangle(4)),
    (PegBoard.triangle(5), oracle.triangle(5)),
    (PegBoard.rectangle(3, 4), oracle.rectangle(3, 4)),
    (PegBoard.rectangle(4, 3), oracle.rectangle(4, 3)),
    (PegBoard.rectangle(3, 5), oracle.rectangle(3, 5)),
    (PegBoard.rectangle(4, 4), oracle.rectangle(4, 4)),
    (PegBoard.diamond(3), oracle.diamond(3)),
]
IDS = [repr(board) for board, _ in SMALL]


@pytest.mark.slow
def test_published_english_centre_to_centre():
    # published: Durango Bill, durangobill.com/Peg33.html
    assert count_peg_solutions(PegBoard.english(), start=(3, 3)) == 40_861_647_040_079_968


def test_published_triangle_from_the_corner():
    assert count_peg_solutions(PegBoard.triangle(5), start=(0, 0), finish=None) == 29_760


@pytest.mark.parametrize(("board", "oracle_board"), SMALL, ids=IDS)
def test_every_start_and_finish_matches_the_oracle(board, oracle_board):
    holes, jumps = oracle_board
    assert list(board.holes) == holes
    for start in holes:
        want = oracle.finish_counts_bruteforce(holes, jumps, start)
        assert finish_counts(board, start=start) == want
        assert count_peg_solutions(board, start=start, finish=None) == sum(want.values())
        for finish in holes:
            got = count_peg_solutions(board, start=start, finish=finish)
            assert got == want[finish], (start, finish)
        assert count_peg_solutions(board, start=start) == want[start]


@pytest.mark.parametrize(("board", "oracle_board"), SMALL[:4], ids=IDS[:4])
def test_meeting_in_the_middle_agrees_with_the_forward_pass(board, oracle_board):
    for start in board.holes:
        for finish in board.holes:
            meet = count_peg_solutions(board, start=start, finish=finish)
            forward = count_peg_solutions(board, start=start, finish=finish, method="forward")
            assert meet == forward


def test_some_small_problems_are_solvable():
    # guards the oracle comparisons above against an all-zero world
    board = PegBoard.triangle(5)
    assert sum(finish_counts(board, start=(0, 0)).values()) == 29_760
    assert count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3)) > 0


@pytest.mark.slow
def test_the_seeds_start_on_the_english_board():
    # more than 64 bits: the u128 path; (2, 4) to (2, 4) is the seed project's
    # figure (not on Bill's page), which the meet and the layer DP agree on
    board = PegBoard.english()
    assert count_peg_solutions(board, start=(2, 4), method="meet") == (138_409_681_956_904_365_268)


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_counts_do_not_depend_on_threads(threads):
    board = PegBoard.rectangle(4, 4)
    want = oracle.finish_counts_bruteforce(*oracle.rectangle(4, 4), (1, 1))
    assert finish_counts(board, start=(1, 1), threads=threads) == want
    assert count_peg_solutions(board, start=(1, 1), threads=threads) == want[(1, 1)]
    assert (
        count_peg_solutions(board, start=(1, 1), finish=(2, 2), threads=threads) == (want[(2, 2)])
    )


def _transpose(square):
    return square[1], square[0]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 14), st.integers(0, 14))
def test_a_board_and_its_transpose_give_the_same_counts(i, j):
    board, flipped = PegBoard.rectangle(3, 5), PegBoard.rectangle(5, 3)
    start, finish = board.holes[i], board.holes[j]
    assert count_peg_solutions(board, start=start, finish=finish) == count_peg_solutions(
        flipped, start=_transpose(start), finish=_transpose(finish)
    )


@settings(max_examples=20, deadline=None)
@given(st.data())
def test_symmetric_problems_have_equal_counts(data):
    board = data.draw(st.sampled_from([PegBoard.triangle(5), PegBoard.diamond(3)]))
    perm = data.draw(st.sampled_from(board.symmetries))
    i = data.draw(st.integers(0, len(board) - 1))
    j = data.draw(st.integers(0, len(board) - 1))
    start, finish = board.holes[i], board.holes[j]
    image_start, image_finish = board.holes[perm[i]], board.holes[perm[j]]
    assert count_peg_solutions(board, start=start, finish=finish) == count_peg_solutions(
        board, start=image_start, finish=image_finish
    )


def test_hole_indices_are_accepted_as_squares():
    board = PegBoard.triangle(5)
    assert count_peg_solutions(board, start=0, finish=None) == 29_760


def test_tiny_boards():
    one = PegBoard.rectangle(1, 1)
    assert count_peg_solutions(one, start=(0, 0), finish=None) == 0
    two = PegBoard.rectangle(1, 2)
    assert count_peg_solutions(two, start=(0, 0), finish=(0, 1)) == 1
    assert count_peg_solutions(two, start=(0, 0)) == 0
    assert finish_counts(two, start=(0, 0)) == {(0, 0): 0, (0, 1): 1}
    three = PegBoard.rectangle(1, 3)
    assert count_peg_solutions(three, start=(0, 0), finish=(0, 0)) == 1


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: count_peg_solutions("english", start=(3, 3)), TypeError, "PegBoard"),
        (lambda: count_peg_solutions(PegBoard.english(), start=(0, 0)), ValueError, "not a hole"),
        (
            lambda: count_peg_solutions(PegBoard.english(), start=(3, 3), finish=(9, 9)),
            ValueError,
            "not a hole",
        ),
        (
            lambda: count_peg_solutions(PegBoard.english(), start=(3, 3), method="dfs"),
            ValueError,
            "method",
        ),
        (lambda: count_peg_solutions(PegBoard.english(), start="c"), TypeError, "start"),
        (
            lambda: count_peg_solutions(PegBoard.triangle(4), start=(0, 0), threads=0),
            ValueError,
            "threads",
        ),
        (lambda: finish_counts(PegBoard.triangle(4), start=(5, 5)), ValueError, "not a hole"),
    ],
)
def test_bad_input(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_timeout():
    with pytest.raises(TimeoutError):
        count_peg_solutions(PegBoard.english(), start=(2, 4), timeout=0.05)


def test_public_names():
    for name in ("Jump", "PegBoard", "count_peg_solutions", "finish_counts", "find_peg_solution"):
        assert name in solvers.__all__


@pytest.mark.parametrize(("board", "oracle_board"), SMALL, ids=IDS)
def test_solve_agrees_with_the_counts_and_replays(board, oracle_board):
    holes, jumps = oracle_board
    for start in holes:
        want = oracle.finish_counts_bruteforce(holes, jumps, start)
        for finish in holes:
            moves = find_peg_solution(board, start=start, finish=finish)
            assert (moves is not None) == (want[finish] > 0), (start, finish)
            if moves is not None:
                assert oracle.is_solution(holes, jumps, start, moves, finish)
        anywhere = find_peg_solution(board, start=start, finish=None)
        assert (anywhere is not None) == (sum(want.values()) > 0)
        if anywhere is not None:
            assert oracle.is_solution(holes, jumps, start, anywhere)


def test_solve_the_english_board():
    board = PegBoard.english()
    moves = find_peg_solution(board, start=(3, 3))
    holes, jumps = oracle.english()
    assert len(moves) == 31
    assert oracle.is_solution(holes, jumps, (3, 3), moves, (3, 3))
    assert all(isinstance(move, Jump) for move in moves)
    # a finish in another position class: certain None, at once
    assert find_peg_solution(board, start=(3, 3), finish=(0, 2)) is None
    assert count_peg_solutions(board, start=(3, 3), finish=(0, 2)) == 0


@pytest.mark.parametrize(("board", "oracle_board"), SMALL, ids=IDS)
def test_position_classes_never_separate_solvable_problems(board, oracle_board):
    # Independent check of the parity classes: a solvable problem never
    # crosses classes (the classes come from the jumps, the counts from the oracle).
    from solvers.peg.calls import reachable_class as _reachable_class

    holes, jumps = oracle_board
    for start in holes:
        want = oracle.finish_counts_bruteforce(holes, jumps, start)
        for finish, count in want.items():
            if count:
                assert _reachable_class(board, board.index(start), board.index(finish))
