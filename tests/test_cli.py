"""The ``solvers`` command line."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
import solvers
from solvers import cli

FIRST_3X4 = "(2,0) (1,2) (0,0) (2,1) (1,3) (0,1) (2,2) (0,3) (1,1) (2,3) (0,2) (1,0)"
SECOND_3X4 = "(2,0) (1,2) (0,0) (2,1) (1,3) (0,1) (2,2) (1,0) (0,2) (2,3) (1,1) (0,3)"


def run(capsys, *argv):
    """``main(argv)``: (exit code, stdout, stderr)."""
    try:
        code = cli.main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def usage_error(capsys, *argv):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    return err


# ---------------------------------------------------------------- as a program


def test_python_dash_m_counts_4x7():
    done = subprocess.run(
        [sys.executable, "-m", "solvers", "tours", "4", "7"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1682\n"


def test_python_dash_m_usage_error():
    done = subprocess.run(
        [sys.executable, "-m", "solvers", "tours", "0", "5"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == "solvers: error: rows must be at least 1, got 0\n"


def test_version(capsys):
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.strip() == f"solvers {solvers.__version__}"


# ---------------------------------------------------------------- counting


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["tours", "4", "7"], 1682),
        (["tours", "3", "4"], 2),
        (["tours", "5", "5", "--start", "0,0"], 304),
        (["tours", "5", "5", "--start", "all"], 1728),
        (["tours", "5", "5", "--start", "all", "--threads", "1"], 1728),
        (["tours", "6", "6", "--start", "0,0", "--closed"], 19724),
        (["tours", "4", "4"], 0),
        (["tours", "4", "7", "--timeout", "60", "--threads", "2"], 1682),
    ],
)
def test_count(capsys, argv, expected):
    code, out, _ = run(capsys, *argv)
    assert code == 0
    assert out == f"{expected}\n"


def test_count_json(capsys):
    code, out, _ = run(capsys, "tours", "5", "5", "--start", "all", "--json")
    assert code == 0
    assert json.loads(out) == {"count": 1728}


def test_count_with_progress_keeps_stdout_clean(capsys):
    code, out, _ = run(capsys, "tours", "4", "7", "--progress")
    assert code == 0
    assert out == "1682\n"


# ---------------------------------------------------------------- listing


def test_list_the_two_3x4_tours(capsys):
    code, out, _ = run(capsys, "tours", "3", "4", "--list", "2")
    assert code == 0
    assert out.splitlines() == [f"1: {FIRST_3X4}", f"2: {SECOND_3X4}"]


def test_list_more_than_there_are_and_zero(capsys):
    code, out, _ = run(capsys, "tours", "3", "4", "--list", "10")
    assert code == 0 and len(out.splitlines()) == 2
    code, out, _ = run(capsys, "tours", "3", "4", "--list", "0")
    assert code == 0 and out == ""


def test_list_json(capsys):
    code, out, _ = run(capsys, "tours", "3", "4", "--list", "2", "--json")
    assert code == 0
    found = json.loads(out)["tours"]
    assert [[tuple(sq) for sq in tour] for tour in found] == [
        [tuple(t) for t in tour] for tour in solvers.tours(3, 4)
    ]
    assert found[0][:3] == [[2, 0], [1, 2], [0, 0]]


def test_list_a_few_of_many(capsys):
    code, out, _ = run(capsys, "tours", "8", "8", "--list", "3", "--start", "0,0")
    assert code == 0
    lines = out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["1", "2", "3"]
    for line in lines:
        squares = [tuple(map(int, s.strip("()").split(","))) for s in line.split()[1:]]
        assert squares[0] == (0, 0)
        assert solvers.is_tour(squares, 8, 8)


# ---------------------------------------------------------------- finding


def test_find_prints_a_numbered_board(capsys):
    code, out, _ = run(capsys, "tours", "8", "8", "--find")
    assert code == 0
    rows = [[int(x) for x in line.split()] for line in out.splitlines()]
    assert len(rows) == 8 and all(len(row) == 8 for row in rows)
    assert sorted(n for row in rows for n in row) == list(range(1, 65))
    assert rows[7][0] == 1  # the lower-left corner is the default start
    position = {n: (r, c) for r, row in enumerate(rows) for c, n in enumerate(row)}
    assert solvers.is_tour([position[n] for n in range(1, 65)], 8, 8)


def test_find_json_closed(capsys):
    code, out, _ = run(capsys, "tours", "6", "6", "--find", "--closed", "--start", "2,3", "--json")
    assert code == 0
    squares = [tuple(sq) for sq in json.loads(out)["tour"]]
    assert squares[0] == (2, 3)
    assert solvers.is_tour(squares, 6, 6, closed=True)


def test_find_without_a_tour(capsys):
    code, out, _ = run(capsys, "tours", "4", "4", "--find")
    assert code == 0 and out == "no tour\n"
    code, out, _ = run(capsys, "tours", "5", "5", "--find", "--closed", "--json")
    assert code == 0 and json.loads(out) == {"tour": None}


def test_find_writes_svg(capsys, tmp_path):
    target = tmp_path / "tour.svg"
    code, _, _ = run(capsys, "tours", "5", "6", "--find", "--svg", str(target))
    assert code == 0
    root = ET.parse(target).getroot()
    assert root.tag.endswith("svg")
    path = [el for el in root.iter() if el.get("class") == "path"]
    assert len(path) == 1 and len(path[0].get("points").split()) == 30


# ---------------------------------------------------------------- boards from files


def test_board_file(capsys, tmp_path):
    board = tmp_path / "ring.txt"
    board.write_text("...\n.#.\n...\n", encoding="utf-8")
    code, out, _ = run(capsys, "tours", "--board", str(board), "--start", "0,0", "--closed")
    assert code == 0 and out == "2\n"
    code, out, _ = run(capsys, "tours", "--board", str(board), "--start", "all")
    assert code == 0 and out == "16\n"
    code, out, _ = run(capsys, "tours", "--board", str(board), "--start", "0,0", "--find")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 3 and lines[1].split()[1] == "#"


def test_board_file_with_matching_size(capsys, tmp_path):
    board = tmp_path / "board.txt"
    board.write_text("....\n....\n....\n", encoding="utf-8")
    code, out, _ = run(capsys, "tours", "3", "4", "--board", str(board))
    assert code == 0 and out == "2\n"


def test_board_file_errors(capsys, tmp_path):
    missing = tmp_path / "nope.txt"
    err = usage_error(capsys, "tours", "--board", str(missing))
    assert err.startswith("solvers: error: cannot read --board") and err.count("\n") == 1
    bad = tmp_path / "bad.txt"
    bad.write_text("...\n.x.\n", encoding="utf-8")
    err = usage_error(capsys, "tours", "--board", str(bad), "--start", "0,0")
    assert "board line 2, column 2" in err and err.count("\n") == 1
    board = tmp_path / "board.txt"
    board.write_text("....\n....\n....\n", encoding="utf-8")
    err = usage_error(capsys, "tours", "5", "4", "--board", str(board))
    assert "rows=5 disagrees with the board" in err


# ---------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["tours", "0", "5"], "rows must be at least 1, got 0"),
        (["tours", "5", "-2"], "cols must be at least 1"),
        (["tours", "3"], "give ROWS and COLS, or --board FILE"),
        (["tours"], "give ROWS and COLS, or --board FILE"),
        (["tours", "3", "4", "--start", "9,9"], "start (9, 9) is off the 3x4 board"),
        (["tours", "9", "9"], "count_tours works on boards whose squares fit"),
        (["tours", "9", "9", "--list", "1"], "tours works on boards whose squares fit"),
        (["tours", "3", "4", "--list", "-1"], "--list needs a number of tours of at least 0"),
        (["tours", "3", "4", "--threads", "0"], "threads must be at least 1"),
        (["tours", "3", "4", "--timeout", "-1"], "timeout must be a finite, non-negative"),
        (["tours", "5", "5", "--find", "--start", "all"], "start must be a (row, col) pair"),
    ],
)
def test_errors_from_the_package_are_one_line(capsys, argv, phrase):
    err = usage_error(capsys, *argv)
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith("solvers: error: ")
    assert phrase in err


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["tours", "3", "4", "--start", "x"], "expected ROW,COL (like 3,0) or 'all', got 'x'"),
        (["tours", "3", "4", "--start", "1,2,3"], "expected ROW,COL"),
        (["tours", "3", "4", "--start", "1"], "expected ROW,COL"),
        (["tours", "three", "4"], "invalid int value: 'three'"),
        (["tours", "3", "4", "--find", "--list", "2"], "not allowed with argument"),
        (["tours", "3", "4", "--threads", "1.5"], "invalid int value"),
        (["knights", "3", "4"], "invalid choice"),
        ([], "required"),
    ],
)
def test_argparse_errors_end_with_a_one_line_message(capsys, argv, phrase):
    err = usage_error(capsys, *argv)
    last = err.rstrip("\n").splitlines()[-1]
    assert last.startswith("solvers")
    assert "error: " in last and phrase in last


def test_timeout_exits_with_status_1(capsys):
    code, out, err = run(capsys, "tours", "8", "8", "--timeout", "0.2")
    assert code == 1
    assert out == ""
    assert err.startswith("solvers: ") and "timeout" in err


def test_a_closed_pipe_is_not_an_error():
    # `solvers tours 300 300 --find | head -1`: the reader leaves after one line,
    # long before the 450 kB board is written.
    proc = subprocess.Popen(
        [sys.executable, "-m", "solvers", "tours", "300", "300", "--find"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert first.strip()
    assert "Traceback" not in err
