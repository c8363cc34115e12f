"""Positions per layer: ``PegGames.positions`` and ``count_peg_positions``,
against a brute force written here (``peg_oracle.positions_bruteforce``: sets
of positions, each class of the symmetries once) and against OEIS A112737 and
A112738 for the English board."""

from __future__ import annotations

import peg_oracle as oracle
import pytest
from solvers import PegBoard, PegPositions, count_peg_games, count_peg_positions

# OEIS A112737: positions of the English board after n jumps from the centre,
# up to the 8 symmetries, n = 0..32; A112738: those of them from which one
# peg can still end in the centre.
A112737 = (
    1, 1, 2, 8, 39, 171, 719, 2757, 9751, 31312, 89927, 229614, 517854, 1022224, 1753737,
    2598215, 3312423, 3626632, 3413313, 2765623, 1930324, 1160977, 600372, 265865, 100565,
    32250, 8688, 1917, 348, 50, 7, 2, 0,
)  # fmt: skip
A112738 = (
    1, 1, 2, 8, 38, 164, 635, 2089, 6174, 16020, 35749, 68326, 112788, 162319, 204992,
    230230, 230230, 204992, 162319, 112788, 68326, 35749, 16020, 6174, 2089, 635, 164, 38,
    8, 2, 1, 1, 0,
)  # fmt: skip

SMALL = [
    (PegBoard.rectangle(3, 4), oracle.rectangle(3, 4), False),
    (PegBoard.rectangle(4, 4), oracle.rectangle(4, 4), False),
    (PegBoard.triangle(5), oracle.triangle(5), True),
    (PegBoard.diamond(3), oracle.diamond(3), False),
]
#: For the winning lines: boards with some (diamond(3) has none).
SOLVABLE = [*SMALL[:3], (PegBoard.rectangle(3, 5), oracle.rectangle(3, 5), False)]


def _fixing(maps: list[dict], *squares) -> list[dict]:
    return [m for m in maps if all(m[s] == s for s in squares if s is not None)]


@pytest.mark.parametrize(
    ("board", "plain", "triangle"), SMALL, ids=lambda b: repr(b) if isinstance(b, PegBoard) else ""
)
def test_positions_of_every_game_agree_with_brute_force(board, plain, triangle) -> None:
    holes, jumps = plain
    maps = oracle.symmetries(holes, triangle)
    assert len(maps) == len(board.symmetries)  # the oracle finds the board's group
    for start in board.holes:
        want, _ = oracle.positions_bruteforce(holes, jumps, start, _fixing(maps, start))
        games = count_peg_games(board, start=start)
        assert games.positions == tuple(want), start
        assert len(games.positions) == len(board) - 1
        assert games.positions_total == sum(want)


@pytest.mark.parametrize(
    ("board", "plain", "triangle"),
    SOLVABLE,
    ids=lambda b: repr(b) if isinstance(b, PegBoard) else "",
)
@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_winning_positions_agree_with_brute_force(board, plain, triangle) -> None:
    holes, jumps = plain
    maps = oracle.symmetries(holes, triangle)
    seen = 0
    starts = board.holes[:: max(len(board) // 4, 1)]
    for start in starts:
        for finish in ("start", None, board.holes[-1], board.holes[len(board) // 2]):
            f = start if finish == "start" else finish
            group = _fixing(maps, start, f)
            reached, winning = oracle.positions_bruteforce(holes, jumps, start, group, f)
            found = count_peg_positions(board, start=start, finish=finish)
            assert found.reachable == tuple(reached), (start, finish)
            assert found.winning == tuple(winning), (start, finish)
            assert found.finish == f
            seen += sum(winning) > 0
    assert seen >= 2, "a weak test: no winning line"


def test_the_answer_does_not_depend_on_threads() -> None:
    # (Spilled and threaded counts of every game are compared whole, the
    # positions with them, in peg/test_games.py.)
    board, start = PegBoard.triangle(6), (2, 1)
    want = count_peg_games(board, start=start, threads=1).positions
    found = count_peg_positions(board, start=start, finish=None, threads=1)
    assert found.reachable == want
    assert count_peg_positions(board, start=start, finish=None, threads=3) == found
    assert sum(found.winning) > 0


def test_a_board_with_no_jump() -> None:
    games = count_peg_games(PegBoard.rectangle(2, 2), start=(0, 0))
    assert games.positions == (1, 0, 0)
    found = count_peg_positions(PegBoard.rectangle(2, 2), start=(0, 0), finish=None)
    assert (found.reachable, found.winning) == ((1, 0, 0), (0, 0, 0))


def test_positions_read_well() -> None:
    found = count_peg_positions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3))
    assert isinstance(found, PegPositions) and hash(found) == hash(found)
    text = str(found)
    assert "one peg on (0, 3)" in text and text.splitlines()[-1].split()[0] == "total"
    assert "distinct positions (up to symmetry): " in str(
        count_peg_games(found.board, start=(0, 0))
    )


def test_a_bad_finish_is_refused() -> None:
    with pytest.raises(ValueError, match="finish"):
        count_peg_positions(PegBoard.english(), start=(3, 3), finish="centre")
    with pytest.raises(ValueError, match="not a hole"):
        count_peg_positions(PegBoard.english(), start=(3, 3), finish=(0, 0))
    with pytest.raises(TypeError, match="PegBoard"):
        count_peg_positions("english", start=(3, 3))


@pytest.mark.slow
def test_the_english_layers_are_oeis_a112737_and_a112738() -> None:
    # 33 holes: 32 pegs at the start, at most 31 jumps (one peg left), so the
    # layers are n = 0..31; A112737(32) = A112738(32) = 0 (no peg left).
    # (count_peg_games' positions of the same count, A112737 too, are checked
    # beside its published games in peg/test_games.py: one count of them.)
    board = PegBoard.english()
    found = count_peg_positions(board, start=(3, 3), threads=2)
    assert A112737[32] == 0
    assert found.reachable == A112737[:32]
    assert found.winning == A112738[:32] and A112738[32] == 0
