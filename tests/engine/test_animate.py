"""The animations (``solvers.<family>.animation``) and ``--animate``: the
searches shown step by step."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

import pytest
import solvers
from hang import HANG_GUARD
from solvers import KnightBoard, PegBoard
from solvers._engine._screen import Outcome
from solvers.knights import animation as tour_animation
from solvers.nqueens import animation as queens_animation
from solvers.peg import animation as peg_animation
from test_cli import interrupt, run

# The package's documented move order, (row, col) offsets, written out again
# here rather than taken from the module under test.
README_MOVES = [(2, 1), (1, 2), (-2, 1), (-1, 2), (2, -1), (1, -2), (-2, -1), (-1, -2)]

RING = """
...
.#.
...
"""  # the eight outer squares of 3x3: one knight's cycle


def frames_of(text: str) -> tuple[list[str], str]:
    """Non-terminal output: (the frames, the closing line)."""
    body, _, ending = text.rstrip("\n").rpartition("\n")
    return body.split("\n\n"), ending


# ---------------------------------------------------------------- oracles


def queens_oracle(n):
    """(kind, square) of every step, by a recursive search written separately."""
    events = []
    cols = []

    def fill(row):
        for col in range(n):
            if any(c == col or abs(c - col) == row - r for r, c in enumerate(cols)):
                events.append(("try", (row, col)))
                continue
            cols.append(col)
            if row == n - 1:
                events.append(("solved", (row, col)))
                return True
            events.append(("place", (row, col)))
            if fill(row + 1):
                return True
            cols.pop()
        events.append(("back", (row, n - 1)) if row else ("exhausted", None))
        return False

    fill(0)
    return events


def tour_oracle(kb, start, closed=False):
    """(kind, square) of every step, by a recursive search written separately."""
    path = [start]
    events = [("move", start)]

    def ends_well():
        if len(path) < kb.squares:
            return False
        dr, dc = abs(path[-1][0] - start[0]), abs(path[-1][1] - start[1])
        return not closed or sorted((dr, dc)) == [1, 2]

    def go():
        if ends_well():
            events[-1] = ("solved", path[-1])
            return True
        row, col = path[-1]
        for dr, dc in README_MOVES:
            square = (row + dr, col + dc)
            if kb.is_square(*square) and square not in path:
                path.append(square)
                events.append(("move", square))
                if go():
                    return True
                events.append(("back", path.pop()))
        return False

    if not go():
        events.append(("exhausted", None))
    return events


# ---------------------------------------------------------------- N-Queens


@pytest.mark.parametrize("n", [1, 4, 5, 6, 7, 8])
def test_queens_animation_reaches_the_first_listed_placement(n):
    steps = list(queens_animation.queens_steps(n))
    last = steps[-1]
    assert last.kind == "solved"
    assert solvers.Placement(col for _, col in last.path) == next(solvers.queens(n))
    assert [s.kind for s in steps[:-1]].count("solved") == 0


@pytest.mark.parametrize("n", [2, 3])
def test_queens_animation_without_a_solution_is_exhausted(n):
    steps = list(queens_animation.queens_steps(n))
    assert steps[-1].kind == "exhausted" and steps[-1].path == ()
    assert next(solvers.queens(n), None) is None


@pytest.mark.parametrize("n", [2, 3, 4, 6, 8])
def test_queens_steps_follow_a_recursive_search(n):
    assert [(s.kind, s.square) for s in queens_animation.queens_steps(n)] == queens_oracle(n)


def test_queens_steps_are_consistent():
    n = 8
    steps = list(queens_animation.queens_steps(n))
    assert [s.number for s in steps] == list(range(1, len(steps) + 1))
    kinds = [s.kind for s in steps]
    assert kinds.count("back") == steps[-1].backtracks == 105  # 8 queens backs up 105 times
    assert steps[-1].nodes == len(steps) - steps[-1].backtracks == 876
    previous = ()
    for step in steps:
        placed = step.path
        assert [r for r, _ in placed] == list(range(len(placed)))
        assert all(  # the queens placed never attack each other
            c1 != c2 and abs(c1 - c2) != r2 - r1
            for i, (r1, c1) in enumerate(placed)
            for r2, c2 in placed[i + 1 :]
        )
        if step.kind == "try":  # attacked, so it slides on
            row, col = step.square
            assert row == len(placed)
            assert any(c == col or abs(c - col) == row - r for r, c in placed)
        elif step.kind in ("place", "solved"):
            assert placed[-1] == step.square and placed[:-1] == previous[: len(placed) - 1]
        elif step.kind == "back":  # the row below the last queen is cleared
            assert step.square[0] == len(placed)
        previous = placed


def test_queens_frame_draws_the_queen_on_trial():
    steps = list(queens_animation.queens_steps(4))
    frame = queens_animation.queens_frame(4, steps[1])  # row 1 tries column 0: attacked
    assert steps[1].kind == "try"
    assert frame.splitlines() == [
        "Q . . .",
        "Q . . .",
        ". . . .",
        ". . . .",
        "queens 1/4   squares tried 2   backtracks 0",
    ]


def test_queens_last_frame_is_the_package_drawing():
    out = io.StringIO()
    outcome = queens_animation.animate_queens(8, delay=0, out=out)
    first = next(solvers.queens(8))
    assert outcome.solution == first and not outcome.stopped
    frames, ending = frames_of(out.getvalue())
    assert len(frames) == outcome.steps == len(list(queens_animation.queens_steps(8))) == 981
    assert frames[-1].splitlines()[:8] == str(first).splitlines()
    assert ending == "solution after 981 steps: 0 4 7 5 2 6 1 3"
    assert outcome.backtracks == 105 and outcome.nodes == 876


def test_queens_without_a_solution_says_so():
    out = io.StringIO()
    outcome = queens_animation.animate_queens(3, delay=0, out=out)
    assert outcome.solution is None and not outcome.stopped
    frames, ending = frames_of(out.getvalue())
    assert len(frames) == outcome.steps == len(queens_oracle(3))
    assert ending == f"no solution: the search is exhausted after {outcome.steps} steps"


# ---------------------------------------------------------------- knight's tours


@pytest.mark.parametrize(
    ("rows", "cols", "start"),
    [(3, 4, None), (3, 4, (0, 0)), (4, 5, None), (4, 5, (0, 0)), (5, 5, None), (5, 5, (2, 2))],
)
@pytest.mark.slow  # seconds: the quick run stays under 3 minutes
def test_tour_animation_reaches_the_first_listed_tour(rows, cols, start):
    where = {} if start is None else {"start": start}
    steps = list(tour_animation.tour_steps(rows, cols, **where))
    assert steps[-1].kind == "solved"
    assert steps[-1].path == next(solvers.tours(rows, cols, **where)).squares
    assert "back" in {s.kind for s in steps}


@pytest.mark.parametrize(
    ("rows", "cols", "start"), [(4, 4, None), (3, 3, None), (3, 4, (1, 1)), (1, 1, None)]
)
def test_tour_animation_follows_a_recursive_search(rows, cols, start):
    kb = KnightBoard(rows, cols)
    first = (rows - 1, 0) if start is None else start
    where = {} if start is None else {"start": start}
    steps = list(tour_animation.tour_steps(rows, cols, **where))
    assert [(s.kind, s.square) for s in steps] == tour_oracle(kb, first)
    expected = next(solvers.tours(rows, cols, **where), None)
    if expected is None:
        assert steps[-1].kind == "exhausted"
    else:
        assert steps[-1].path == expected.squares


def test_no_tour_on_4x4_after_exhausting_the_search():
    out = io.StringIO()
    outcome = tour_animation.animate_tours(4, 4, delay=0, out=out)
    assert solvers.count_tours(4, 4) == 0
    assert outcome.solution is None and not outcome.stopped
    steps = list(tour_animation.tour_steps(4, 4))
    assert steps[-1].kind == "exhausted" and steps[-1].path == ((3, 0),)
    frames, ending = frames_of(out.getvalue())
    assert len(frames) == outcome.steps == len(steps)
    assert outcome.backtracks == steps[-1].backtracks > 1000
    assert ending.startswith("no solution: the search is exhausted after")


def test_tour_steps_are_consistent():
    steps = list(tour_animation.tour_steps(4, 5))
    backs = 0
    for before, step in zip(steps, steps[1:], strict=False):
        assert step.number == before.number + 1
        path = step.path
        assert len(set(path)) == len(path)
        assert all(
            sorted((abs(a[0] - b[0]), abs(a[1] - b[1]))) == [1, 2]
            for a, b in zip(path, path[1:], strict=False)
        )
        if step.kind == "back":  # the knight returns to the square before
            backs += 1
            assert path == before.path[:-1] and step.square == before.path[-1]
        else:  # one step forward
            assert path[:-1] == before.path and path[-1] == step.square
            assert step.nodes == before.nodes + 1
        assert step.backtracks == backs
    assert steps[-1].kind == "solved" and len(steps[-1].path) == 20


def test_shaped_boards_and_closed_tours():
    shaped = """
    ....#
    .....
    .....
    #....
    """
    steps = list(tour_animation.tour_steps(board=shaped, start=(0, 0)))
    assert steps[-1].path == next(solvers.tours(board=shaped, start=(0, 0))).squares
    ring = list(tour_animation.tour_steps(board=RING, closed=True))
    assert [(s.kind, s.square) for s in ring] == tour_oracle(
        KnightBoard.parse(RING), (2, 0), closed=True
    )
    assert ring[-1].path == next(solvers.tours(board=RING, closed=True)).squares
    assert list(tour_animation.tour_steps(3, 4, closed=True))[-1].kind == "exhausted"
    assert next(solvers.tours(3, 4, closed=True), None) is None


def test_tour_frames_number_the_squares_as_str_tour():
    out = io.StringIO()
    outcome = tour_animation.animate_tours(3, 4, delay=0, out=out)
    first = next(solvers.tours(3, 4))
    assert outcome.solution == first
    frames, ending = frames_of(out.getvalue())
    assert len(frames) == outcome.steps == 112
    assert frames[-1].splitlines()[:3] == str(first).splitlines()
    assert frames[0].splitlines() == [
        "  .  .  .  .",
        "  .  .  .  .",
        "  1  .  .  .",
        "square 1/12   moves tried 0   backtracks 0",
    ]
    assert ending == "tour after 112 steps, from (2, 0) to (1, 0)"
    board = KnightBoard.parse(RING)
    middle = tour_animation.tour_frame(board, list(tour_animation.tour_steps(board=RING))[2])
    assert middle.splitlines()[:3] == ["  .  2  .", "  .  #  .", "  1  .  3"]


def test_max_steps_stops_the_animation():
    out = io.StringIO()
    outcome = queens_animation.animate_queens(8, delay=0, out=out, max_steps=10)
    assert outcome == Outcome(None, 10, outcome.nodes, outcome.backtracks, True)
    frames, ending = frames_of(out.getvalue())
    assert len(frames) == 10
    assert ending == "stopped after 10 steps: no solution yet"
    # a search that ends exactly at the limit is not stopped
    exact = queens_animation.animate_queens(4, delay=0, out=io.StringIO(), max_steps=30)
    assert exact.solution is not None and not exact.stopped


def test_delay_is_waited_between_frames():
    began = time.monotonic()
    queens_animation.animate_queens(4, delay=0.01, out=io.StringIO())  # 30 frames
    assert time.monotonic() - began >= 0.25


@pytest.mark.parametrize(
    ("call", "error", "phrase"),
    [
        (lambda: queens_animation.queens_steps(21), ValueError, "1 to 20 queens"),
        (lambda: queens_animation.queens_steps(0), ValueError, "1 to 20 queens"),
        (lambda: queens_animation.queens_steps(8.0), TypeError, "n must be an integer"),
        (lambda: tour_animation.tour_steps(11, 10), ValueError, "at most 100 squares"),
        (lambda: tour_animation.tour_steps(2, 17), ValueError, "16 rows or columns"),
        (lambda: tour_animation.tour_steps(3, 4, start="all"), ValueError, "(row, col) pair"),
        (lambda: tour_animation.tour_steps(3, 4, start=(5, 5)), ValueError, "off the 3x4 board"),
        (
            lambda: tour_animation.tour_steps(3, 4, closed=1),
            TypeError,
            "closed must be True or False",
        ),
        (lambda: queens_animation.animate_queens(4, delay=-1), ValueError, "delay must be"),
        (lambda: queens_animation.animate_queens(4, delay="1"), TypeError, "delay must be"),
        (lambda: queens_animation.animate_queens(4, max_steps=0), ValueError, "max_steps"),
        (lambda: peg_animation.peg_frames([]), TypeError, "PegSolution"),
    ],
)
def test_bad_arguments_are_refused_at_once(call, error, phrase):
    with pytest.raises(error, match=re.escape(phrase)):
        call()  # not only when the first step is asked for


def test_the_largest_boards_are_accepted():
    assert next(queens_animation.queens_steps(queens_animation.MAX_QUEENS)).kind == "place"
    assert next(tour_animation.tour_steps(10, 10)).path == ((9, 0),)
    assert next(tour_animation.tour_steps(16, 6)).kind == "move"


# ---------------------------------------------------------------- peg solitaire


def test_peg_replay_shows_every_position():
    game = solvers.find_peg_solution(PegBoard.english(), start=(3, 3))
    out = io.StringIO()
    assert peg_animation.peg_replay(game, delay=0, out=out) == len(game) + 1
    frames, ending = frames_of(out.getvalue())
    assert ending == "one peg left, on (3,3)"
    board = game.board
    assert len(frames) == len(game) + 1
    for frame, pegs in zip(frames, game.positions(), strict=True):
        picture = board.draw(empty=[hole for hole in board.holes if hole not in pegs])
        assert frame.rsplit("\n", 1)[0] == picture
    assert frames[0].endswith("start: (3,3) empty, 32 pegs")
    source, over, landing = game[0]
    assert frames[1].endswith(
        f"jump 1/31: ({source[0]},{source[1]}) over ({over[0]},{over[1]}) "
        f"to ({landing[0]},{landing[1]}), 31 pegs"
    )


def test_peg_replay_on_a_triangle():
    game = solvers.find_peg_solution(PegBoard.triangle(5), start=(0, 0), finish=None)
    frames = list(peg_animation.peg_frames(game))
    assert len(frames) == 14
    picture, status = frames[-1].rsplit("\n", 1)
    assert status.endswith(", 1 peg") and picture.count("o") == 1


# ---------------------------------------------------------------- the command


def test_cli_queens_animate_writes_frames_and_the_solution(capsys):
    code, out, err = run(capsys, "queens", "6", "--animate", "--delay", "0")
    assert code == 0 and err == ""
    assert "\x1b" not in out  # not a terminal: no escapes
    frames, ending = frames_of(out)
    assert len(frames) == len(list(queens_animation.queens_steps(6)))
    first = next(solvers.queens(6))
    assert frames[-1].splitlines()[:6] == str(first).splitlines()
    assert ending == f"solution after {len(frames)} steps: " + " ".join(map(str, first))


def test_cli_tours_animate(capsys, tmp_path):
    code, out, _ = run(capsys, "tours", "3", "4", "--animate", "--delay", "0")
    assert code == 0
    frames, ending = frames_of(out)
    assert len(frames) == 112 and ending.startswith("tour after 112 steps")
    code, out, _ = run(capsys, "tours", "4", "4", "--animate", "--delay", "0")
    assert code == 0 and out.rstrip().endswith(
        "no solution: the search is exhausted after 4446 steps"
    )
    drawing = tmp_path / "ring.txt"
    drawing.write_text(RING)
    code, out, _ = run(
        capsys, "tours", "--board", str(drawing), "--start", "0,0", "--closed", "--animate",
        "--delay", "0",
    )  # fmt: skip
    assert code == 0
    frames, ending = frames_of(out)
    closed = next(solvers.tours(board=RING, start=(0, 0), closed=True))
    assert frames[-1].splitlines()[:3] == str(closed).splitlines()
    assert ending == f"closed tour after {len(frames)} steps, from (0, 0) to (1, 2)"


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["queens", "21", "--animate"], "1 to 20 queens"),
        (["tours", "11", "10", "--animate"], "at most 100 squares"),
        (["queens", "8", "--animate", "--json"], "--json does not apply to --animate"),
        (["tours", "3", "4", "--animate", "--json"], "--json does not apply to --animate"),
        (["queens", "8", "--animate", "--list", "2"], "--list does not apply to --animate"),
        (["queens", "8", "--animate", "--find"], "--find does not apply to --animate"),
        (["tours", "3", "4", "--animate", "--find"], "--find does not apply to --animate"),
        (["queens", "8", "--animate", "--unique", "--threads", "2"], "do not apply to --animate"),
        (["tours", "3", "4", "--animate", "--progress"], "--progress does not apply"),
        (["tours", "3", "4", "--animate", "--timeout", "5"], "--timeout does not apply"),
        (["tours", "3", "4", "--animate", "--start", "all"], "--start all does not apply"),
        (["tours", "3", "4", "--delay", "0.1"], "--delay needs --animate"),
        (["queens", "8", "--delay", "0.1"], "--delay needs --animate"),
        (["queens", "8", "--animate", "--delay", "-1"], "delay must be a finite, non-negative"),
        (["queens", "8", "--animate", "--delay", "nan"], "delay must be a finite, non-negative"),
        (["tours", "--animate"], "give ROWS and COLS, or --board FILE"),
    ],
)
def test_cli_animate_usage_errors(capsys, argv, phrase):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""  # nothing drawn, no cursor codes
    assert err.count("\n") == 1 and err.startswith("solvers: error: ")
    assert phrase in err


def test_cli_delay_must_be_a_number(capsys):
    code, out, err = run(capsys, "queens", "8", "--animate", "--delay", "fast")
    assert code == 2 and out == ""
    assert "invalid float value: 'fast'" in err.splitlines()[-1]


def test_ctrl_c_during_an_animation_exits_130():
    # queens 12 takes 3315 steps: 166 s at this delay; the first frame line starts with a queen
    # The signal goes once the child's imports are done (on a loaded machine
    # they can take longer than the second it waits).
    code, out, err, _ = interrupt(["queens", "12", "--animate", "--delay", "0.05"], after=1.0)
    assert code == 130
    assert err == "solvers: interrupted\n"
    assert out.startswith("Q . .") and "solution after" not in out


def _run_in_a_terminal(argv, *, interrupt_after=None):
    """Run ``python -m solvers argv`` with its output on a pseudo-terminal of
    24x80, sending SIGINT ``interrupt_after`` seconds after it first draws
    (not after it starts: its imports take longer on a loaded machine):
    (exit code, what it drew, its stderr)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    child = subprocess.Popen(
        [sys.executable, "-m", "solvers", *argv],
        stdout=follower,
        stderr=subprocess.PIPE,
        env={**os.environ, "TERM": "xterm"},
    )
    os.close(follower)
    drawn = b""
    began = time.monotonic()
    first = None  # when the child first drew
    try:
        while True:
            if (
                interrupt_after is not None
                and first is not None
                and time.monotonic() - first > interrupt_after
            ):
                child.send_signal(signal.SIGINT)
                interrupt_after = None
            ready, _, _ = select.select([leader], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(leader, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                drawn += chunk
                first = time.monotonic() if first is None else first
            elif child.poll() is not None:
                break
            assert time.monotonic() - began < 60 + HANG_GUARD
        code = child.wait(timeout=30)
        assert child.stderr is not None
        err = child.stderr.read().decode()
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        os.close(leader)
    return code, drawn.decode(), err


def test_on_a_terminal_frames_are_redrawn_in_place():
    code, drawn, err = _run_in_a_terminal(["queens", "5", "--animate", "--delay", "0"])
    assert code == 0 and err == ""
    assert drawn.startswith("\x1b[?25l")  # the cursor hidden
    assert drawn.count("\x1b[?25l") == 1 and drawn.count("\x1b[?25h") == 1
    assert drawn.index("\x1b[?25h") > drawn.rindex("queens 5/5")
    assert drawn.count("\x1b[6A") == 14  # 15 frames of 6 lines: back up 14 times
    assert drawn.rstrip().endswith("solution after 15 steps: 0 2 4 1 3")


def test_ctrl_c_on_a_terminal_shows_the_cursor_again():
    code, drawn, err = _run_in_a_terminal(
        ["queens", "12", "--animate", "--delay", "0.05"], interrupt_after=1.0
    )
    assert code == 130
    assert err == "solvers: interrupted\n"
    assert "\x1b[?25l" in drawn and drawn.rstrip().endswith("\x1b[?25h")
    assert "solution after" not in drawn
