"""``peg_solutions``: the lazy stream of peg-solitaire solutions from Rust,
checked against the counts, the brute-force oracle in ``peg_oracle.py`` and a
plain depth-first search written here."""

from __future__ import annotations

import gc
import itertools
import os
import time

import peg_oracle as oracle
import pytest
import solvers
from solvers import PegBoard, PegSolution, count_peg_solutions, peg_solutions

#: (product board, oracle board), small enough to stream every solution of
#: every start and finish.
SMALL = [
    (PegBoard.triangle(4), oracle.triangle(4)),
    (PegBoard.rectangle(3, 4), oracle.rectangle(3, 4)),
    (PegBoard.diamond(3), oracle.diamond(3)),  # no solution from anywhere
]
IDS = [repr(board) for board, _ in SMALL]


def _indexer(board: PegBoard):
    """A function giving the jump indices (into ``board.jumps``) of a game."""
    where = {tuple(board.holes[h] for h in jump): i for i, jump in enumerate(board.jumps)}
    return lambda game: tuple(where[tuple(jump)] for jump in game)


def _plain_dfs(board: PegBoard, start: int) -> list[tuple[tuple[int, ...], int]]:
    """Every game to one peg as (jump indices, last hole), by backtracking over
    ``board.jumps`` in order with no pruning at all: the documented order, by
    definition."""
    found: list[tuple[tuple[int, ...], int]] = []
    path: list[int] = []

    def search(pegs: int) -> None:
        if pegs & (pegs - 1) == 0:
            if pegs:
                found.append((tuple(path), pegs.bit_length() - 1))
            return
        for i, (a, b, c) in enumerate(board.jumps):
            if pegs >> a & 1 and pegs >> b & 1 and not pegs >> c & 1:
                path.append(i)
                search(pegs ^ (1 << a | 1 << b | 1 << c))
                path.pop()

    search(((1 << len(board)) - 1) & ~(1 << start))
    return found


def _stream_threads() -> int:
    """The threads of this process named by the peg stream's producer."""
    count = 0
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/comm") as comm:
                count += comm.read().strip() == "solvers-peg"
        except FileNotFoundError:  # the thread ended meanwhile
            pass
    return count


def _wait_for_no_stream_thread(seconds: float = 5.0) -> int:
    deadline = time.monotonic() + seconds
    while _stream_threads() and time.monotonic() < deadline:
        time.sleep(0.01)
    return _stream_threads()


def test_the_published_triangle_count():
    # The 15-hole triangle from the corner, last peg anywhere: durangobill.com/PegSolitaire.html
    games = peg_solutions(PegBoard.triangle(5), start=(0, 0), finish=None)
    assert sum(1 for _ in games) == 29_760


@pytest.mark.parametrize(("board", "oracle_board"), SMALL, ids=IDS)
@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_every_start_and_finish_streams_as_many_as_counted(board, oracle_board):
    holes, jumps = oracle_board
    assert list(board.holes) == holes
    streamed = 0
    for start in holes:
        for finish in [None, "start", *holes]:
            games = list(peg_solutions(board, start=start, finish=finish))
            want = count_peg_solutions(board, start=start, finish=finish)
            target = start if finish == "start" else finish
            assert want == oracle.count_solutions(holes, jumps, start, target)
            assert len(games) == want, (start, finish)
            assert len(set(games)) == len(games)
            for game in games:
                assert oracle.is_solution(holes, jumps, start, game, target)
                assert game.start == start
                # The constructor replays and checks it independently.
                assert PegSolution(board, game.jumps, start=start) == game
            streamed += len(games)
    if board != PegBoard.diamond(3):
        assert streamed > 50, "a weak test"


@pytest.mark.parametrize(
    ("board", "starts"),
    [
        (PegBoard.triangle(4), range(10)),
        (PegBoard.rectangle(3, 4), range(12)),
        # the middle of the top row: the left-right mirror fixes it, and prunes
        (PegBoard.rectangle(3, 5), [2]),
    ],
    ids=repr,
)
@pytest.mark.slow  # seconds: the quick run stays under 3 minutes
def test_the_order_is_lexicographic_by_jump_index(board, starts):
    checked = 0
    indices = _indexer(board)
    for start in starts:
        every = _plain_dfs(board, start)
        for finish in (None, start):
            want = [path for path, last in every if finish in (None, last)]
            games = peg_solutions(board, start=start, finish=finish)
            got = [indices(game) for game in games]
            assert got == want, (start, finish)
            assert got == sorted(got)
            checked += len(got)
    assert checked > 50, "a weak test"


def test_the_english_board_streams_at_once_in_order():
    board = PegBoard.english()
    holes, jumps = oracle.english()
    games = peg_solutions(board, start=(3, 3))
    first = list(itertools.islice(games, 200))
    games.close()
    assert len(first) == 200
    for game in first:
        assert len(game) == 31
        assert oracle.is_solution(holes, jumps, (3, 3), game, (3, 3))
    order = [_indexer(board)(game) for game in first]
    assert order == sorted(order) and len(set(order)) == len(order)
    # The first one is the one find_peg_solution finds (the same search, stopped).
    assert first[0] == solvers.find_peg_solution(board, start=(3, 3))


def test_closing_early_stops_the_thread():
    if not os.path.isdir("/proc/self/task"):
        pytest.skip("needs /proc to see the threads")
    assert _wait_for_no_stream_thread() == 0
    games = peg_solutions(PegBoard.english(), start=(3, 3))
    next(games)
    time.sleep(0.05)  # the producer fills the channel and blocks
    assert _stream_threads() == 1
    games.close()
    assert _stream_threads() == 0  # close() waits for the thread
    with pytest.raises(StopIteration):
        next(games)
    # Dropped without close(): the thread notices and ends.
    games = peg_solutions(PegBoard.english(), start=(3, 3), finish=None)
    next(games)
    time.sleep(0.05)
    del games
    gc.collect()
    assert _wait_for_no_stream_thread() == 0


def test_a_tiny_board_and_an_impossible_finish():
    two = PegBoard.rectangle(1, 2)
    (game,) = peg_solutions(two, start=(0, 0), finish=(0, 1))
    assert len(game) == 0 and game.finish == (0, 1)
    assert list(peg_solutions(two, start=(0, 0))) == []
    assert list(peg_solutions(PegBoard.rectangle(1, 1), start=(0, 0), finish=None)) == []
    # A finish in another position class: nothing, at once, and still closable.
    games = peg_solutions(PegBoard.english(), start=(3, 3), finish=(0, 2))
    games.close()
    assert list(peg_solutions(PegBoard.english(), start=(3, 3), finish=(0, 2))) == []


def test_hole_indices_are_squares_too():
    board = PegBoard.rectangle(3, 4)
    by_index = list(peg_solutions(board, start=0, finish=3))
    assert by_index == list(peg_solutions(board, start=(0, 0), finish=(0, 3)))


ENGLISH = PegBoard.english()


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: peg_solutions("english", start=(3, 3)), TypeError, "PegBoard"),
        (lambda: peg_solutions(ENGLISH, start=(0, 0)), ValueError, "not a hole"),
        (lambda: peg_solutions(ENGLISH, start=(3, 3), finish=(9, 9)), ValueError, "not a hole"),
        (lambda: peg_solutions(ENGLISH, start="c"), TypeError, "start"),
        (lambda: peg_solutions(ENGLISH, start=(3, 3), finish="end"), ValueError, "finish"),
        (lambda: peg_solutions(ENGLISH, start=1.5), TypeError, "start"),
        (lambda: peg_solutions(ENGLISH, start=99), ValueError, "hole"),
        (lambda: peg_solutions(ENGLISH, (3, 3)), TypeError, "positional"),
    ],
)
def test_bad_input_is_refused_at_the_call(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_the_name_is_public():
    assert "peg_solutions" in solvers.__all__
    assert "peg_solutions" in solvers.peg.__all__
    assert solvers.peg_solutions is solvers.peg.peg_solutions
