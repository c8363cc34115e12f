"""The ``solvers`` command line."""

from __future__ import annotations

import doctest
import importlib
import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
import solvers
from engine.test_cancel import _interrupt
from hang import HANG_GUARD
from queens.test_queens import A000170, A002562, brute_force, images
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
        (["tours", "6", "6", "--start", "0,0", "--closed", "--method", "frontier"], 19724),
        (["tours", "3", "16", "--start", "all"], 17273760),  # A118067, by the frontier
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
        (["tours", "5", "5", "--svg", "t.svg"], "--svg does not apply to counting"),
        (["tours", "5", "5", "--find", "--method", "frontier"], "--method does not apply"),
        (["tours", "3", "4", "--list", "1", "--method", "search"], "--method does not apply"),
        (["tours", "9", "9", "--method", "frontier"], "shorter side of at most 8"),
        (["tours", "3", "4", "--list", "1", "--svg", "t.svg"], "--svg does not apply to --list"),
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


# ---------------------------------------------------------------- failures: one line, status 1


def one_line_failure(done: subprocess.CompletedProcess[str]) -> str:
    """The stderr of a run that failed as documented: status 1, no output,
    one line ``solvers: error: ...`` and no traceback."""
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("solvers: error: ")
    assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n")
    return done.stderr


def solvers_run(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "solvers", *argv], capture_output=True, text=True, timeout=120
    )


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        # the commands, which printed a traceback
        (["tours", "3", "150", "--start", "all"], "does not fit the frontier DP's 256-bit counter"),
        (["tours", "8", "8", "--find", "--svg", "/nonexistent-dir/x.svg"], "cannot write --svg"),
        (["peg", "english", "--find", "--html", "/nonexistent-dir/x.html"], "cannot write --html"),
        (["peg", "english", "--find", "--svg", "/nonexistent-dir/x.svg"], "cannot write --svg"),
        (["queens", "8", "--find", "--svg", "/nonexistent-dir/q.svg"], "cannot write --svg"),
    ],
)
def test_failures_are_one_line_with_status_1(argv, phrase):
    assert phrase in one_line_failure(solvers_run(*argv))


def test_a_file_that_cannot_be_written_is_one_line(tmp_path):
    # the folder exists, but the name is a folder: the write itself fails
    (tmp_path / "taken").mkdir()
    err = one_line_failure(solvers_run("queens", "8", "--find", "--svg", str(tmp_path / "taken")))
    assert f"cannot write --svg {tmp_path / 'taken'}: Is a directory" in err


class _FakePanic(BaseException):
    """What a Rust panic arrives as (pyo3's PanicException derives from BaseException)."""


@pytest.mark.parametrize(
    ("error", "phrase"),
    [
        (RuntimeError("the heuristic found no tour; the board may still have one"), "heuristic"),
        (MemoryError("building the memo table needs 12.0 GiB, 3.1 GiB available"), "12.0 GiB"),
        (MemoryError(), "out of memory"),
        (OverflowError("the count does not fit the 128-bit counter"), "128-bit"),
        (TimeoutError("no answer within the timeout of 1.0 s"), "timeout"),
        (OSError(28, "No space left on device", "/tmp/out.svg"), "/tmp/out.svg: No space left"),
        (_FakePanic("index out of bounds\nnote: run with RUST_BACKTRACE=1"), "internal error"),
        (KeyError("surprise"), "internal error, please report it: KeyError"),
    ],
)
def test_every_failure_of_the_library_is_one_line(capsys, monkeypatch, error, phrase):
    def fail(*args, **kwargs):
        raise error

    monkeypatch.setattr(solvers.knights, "find_tour", fail)
    code, out, err = run(capsys, "tours", "8", "8", "--find")
    assert (code, out) == (1, "")
    assert err.startswith("solvers: error: ") and err.count("\n") == 1, err
    assert phrase in err


def test_bad_input_found_by_the_library_is_a_usage_error(capsys, monkeypatch):
    for error in (ValueError("rows must be at least 1"), TypeError("rows must be an integer")):

        def fail(*args, error=error, **kwargs):
            raise error

        monkeypatch.setattr(solvers.knights, "find_tour", fail)
        code, out, err = run(capsys, "tours", "8", "8", "--find")
        assert (code, out, err) == (2, "", f"solvers: error: {error}\n")


def test_keyboard_interrupt_anywhere_is_status_130(capsys, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(solvers.knights, "find_tour", interrupted)
    assert run(capsys, "tours", "8", "8", "--find") == (130, "", "solvers: interrupted\n")


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["tours", "3", "4", "--threads", "99999999999999999999"], "threads must be at most"),
        (["tours", "3", "4", "--timeout", "nan"], "timeout must be a finite"),
        (["tours", "3", "4", "--timeout", "inf"], "timeout must be a finite"),
        (["tours", "3", "4", "--start", "99999999999999999999,0"], "is off the 3x4 board"),
        (["queens", "99999999999999999999", "--find"], "constructs for n up to"),
        (["queens", "8", "--workers", "99999999999999999999"], "--workers must be at least 1"),
        (["peg", "triangle:99999999999999999999"], "at most 64 holes"),
        (["peg", "rectangle:9x99999999999999999999"], "at most 64 holes"),
        (["tours", "3", "4", "--animate", "--delay", "1e308"], "delay must be at most"),
    ],
)
def test_hostile_numbers_are_usage_errors(capsys, argv, phrase):
    err = usage_error(capsys, *argv)
    assert err.startswith("solvers: error: ") and err.count("\n") == 1
    assert phrase in err


def test_a_huge_list_count_means_all(capsys):
    code, out, _ = run(capsys, "tours", "3", "4", "--list", str(10**30))
    assert code == 0 and out.splitlines() == [f"1: {FIRST_3X4}", f"2: {SECOND_3X4}"]
    code, out, _ = run(capsys, "queens", "6", "--list", str(10**30), "--json")
    assert code == 0 and len(json.loads(out)["solutions"]) == A000170[5]


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


# ---------------------------------------------------------------- N-Queens
#
# Expected values come from the brute-force oracle of queens/test_queens.py (every
# permutation, checked by hand-written diagonal tests) and from OEIS.

QUEENS_ORACLE = {n: brute_force(n) for n in range(1, 9)}


def queens_classes(n):
    """The least member of each symmetry class, sorted (from the oracle)."""
    return sorted({min(images(p)) for p in QUEENS_ORACLE[n]})


def non_attacking(cols, n):
    """Independent check: n queens, one per row, none on a shared column or diagonal."""
    cols = list(cols)
    return (
        len(cols) == n
        and all(isinstance(c, int) and 0 <= c < n for c in cols)
        and len(set(cols)) == n
        and len({r + c for r, c in enumerate(cols)}) == n
        and len({r - c for r, c in enumerate(cols)}) == n
    )


def board_columns(text):
    """The column of the Q in each row of a printed board."""
    rows = [line.split() for line in text.splitlines()]
    assert all(len(row) == len(rows) and row.count("Q") == 1 for row in rows), text
    assert all(set(row) <= {"Q", "."} for row in rows), text
    return [row.index("Q") for row in rows]


def test_python_dash_m_counts_8_queens():
    done = subprocess.run(
        [sys.executable, "-m", "solvers", "queens", "8"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{len(QUEENS_ORACLE[8])}\n" == "92\n"


def test_the_oracle_agrees_with_oeis():
    assert [len(QUEENS_ORACLE[n]) for n in range(1, 9)] == A000170[:8]
    assert [len(queens_classes(n)) for n in range(1, 9)] == A002562[:8]


@pytest.mark.parametrize("n", range(1, 9))
@pytest.mark.parametrize("extra", [[], ["--threads", "1"], ["--threads", "2", "--timeout", "60"]])
def test_queens_count(capsys, n, extra):
    code, out, _ = run(capsys, "queens", str(n), *extra)
    assert code == 0
    assert out == f"{len(QUEENS_ORACLE[n])}\n"
    code, out, _ = run(capsys, "queens", str(n), "--unique", *extra)
    assert code == 0
    assert out == f"{len(queens_classes(n))}\n"


@pytest.mark.parametrize("n", [10, 12])
def test_queens_count_published(capsys, n):
    code, out, _ = run(capsys, "queens", str(n))
    assert code == 0 and out == f"{A000170[n - 1]}\n"
    code, out, _ = run(capsys, "queens", str(n), "--unique", "--threads", "2")
    assert code == 0 and out == f"{A002562[n - 1]}\n"


def test_queens_count_json(capsys):
    code, out, _ = run(capsys, "queens", "8", "--json")
    assert code == 0 and json.loads(out) == {"count": len(QUEENS_ORACLE[8])}
    code, out, _ = run(capsys, "queens", "8", "--unique", "--json")
    assert code == 0 and json.loads(out) == {"count": len(queens_classes(8))}
    code, out, _ = run(capsys, "queens", "3", "--json")
    assert code == 0 and json.loads(out) == {"count": 0}


def test_queens_count_with_progress_keeps_stdout_clean(capsys):
    code, out, _ = run(capsys, "queens", "9", "--progress")
    assert code == 0
    assert out == f"{A000170[8]}\n"


@pytest.mark.parametrize("n", [6, 7, 8])
def test_queens_list_matches_the_oracle(capsys, n):
    want = QUEENS_ORACLE[n]
    code, out, _ = run(capsys, "queens", str(n), "--list", str(len(want)))
    assert code == 0
    assert out.splitlines() == [
        f"{i}: " + " ".join(map(str, p)) for i, p in enumerate(want, start=1)
    ]
    code, out, _ = run(capsys, "queens", str(n), "--list", "3")
    assert code == 0
    assert [tuple(map(int, line.split()[1:])) for line in out.splitlines()] == want[:3]


@pytest.mark.parametrize("n", [6, 7, 8])
def test_queens_list_unique_matches_the_oracle(capsys, n):
    want = queens_classes(n)
    code, out, _ = run(capsys, "queens", str(n), "--list", "100", "--unique", "--json")
    assert code == 0
    assert [tuple(p) for p in json.loads(out)["solutions"]] == want


def test_queens_list_the_two_4_queens(capsys):
    code, out, _ = run(capsys, "queens", "4", "--list", "10")
    assert code == 0
    assert out == "1: 1 3 0 2\n2: 2 0 3 1\n"
    code, out, _ = run(capsys, "queens", "4", "--list", "0")
    assert code == 0 and out == ""
    code, out, _ = run(capsys, "queens", "3", "--list", "5")
    assert code == 0 and out == ""


def test_queens_list_json(capsys):
    code, out, _ = run(capsys, "queens", "8", "--list", "3", "--json")
    assert code == 0
    assert json.loads(out) == {"solutions": [list(p) for p in QUEENS_ORACLE[8][:3]]}
    code, out, _ = run(capsys, "queens", "2", "--list", "3", "--json")
    assert code == 0 and json.loads(out) == {"solutions": []}


def test_queens_find_prints_a_board(capsys):
    code, out, _ = run(capsys, "queens", "8", "--find")
    assert code == 0
    cols = board_columns(out)
    assert non_attacking(cols, 8)
    assert tuple(cols) in QUEENS_ORACLE[8]


@pytest.mark.parametrize("n", [1, 4, 5, 8, 31, 32, 33, 100, 1001, 100_000])
def test_queens_find_json_is_a_solution(capsys, n):
    code, out, _ = run(capsys, "queens", str(n), "--find", "--json")
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["placement"]
    assert non_attacking(data["placement"], n)


def test_queens_find_prints_large_boards_as_one_line_of_columns(capsys):
    code, out, _ = run(capsys, "queens", "32", "--find")
    assert code == 0 and len(out.splitlines()) == 32
    assert non_attacking(board_columns(out), 32)
    for n in (33, 5000):
        code, out, _ = run(capsys, "queens", str(n), "--find")
        assert code == 0 and out.count("\n") == 1 and out.endswith("\n")
        assert non_attacking([int(c) for c in out.split(" ")], n)


@pytest.mark.parametrize("n", [1, 4, 6, 8])
def test_queens_find_by_deterministic_search_is_the_first(capsys, n):
    for threads in ("1", "2"):
        argv = ["queens", str(n), "--find", "--method", "search", "--deterministic"]
        code, out, _ = run(capsys, *argv, "--threads", threads, "--json")
        assert code == 0
        assert tuple(json.loads(out)["placement"]) == QUEENS_ORACLE[n][0]


def test_queens_find_by_search(capsys):
    code, out, _ = run(capsys, "queens", "24", "--find", "--method", "search", "--json")
    assert code == 0
    assert non_attacking(json.loads(out)["placement"], 24)
    code, out, _ = run(capsys, "queens", "6", "--find", "--method", "search", "--timeout", "60")
    assert code == 0 and tuple(board_columns(out)) in QUEENS_ORACLE[6]


@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("method", ["construct", "search"])
def test_queens_find_without_a_solution(capsys, tmp_path, n, method):
    target = tmp_path / "none.svg"
    argv = ["queens", str(n), "--find", "--method", method, "--svg", str(target)]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and out == "no solution\n"
    assert not target.exists()
    code, out, _ = run(capsys, *argv, "--json")
    assert code == 0 and json.loads(out) == {"placement": None}


def test_queens_find_writes_svg(capsys, tmp_path):
    target = tmp_path / "queens.svg"
    code, out, _ = run(capsys, "queens", "8", "--find", "--svg", str(target), "--json")
    assert code == 0
    cols = json.loads(out)["placement"]
    root = ET.parse(target).getroot()
    assert root.tag.endswith("svg")
    found = [el for el in root.iter() if el.get("class") == "queen"]
    assert len(found) == 8
    # each disc sits in the middle of its square: row r, column cols[r]
    side = float(root.get("width")) / 8
    squares = sorted(
        (int(float(q.get("cy")) // side), int(float(q.get("cx")) // side)) for q in found
    )
    assert squares == list(enumerate(cols))


def test_queens_help_shows_the_examples(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "solvers queens 8 --list 3" in out and "queens" in out.split("Examples")[0]
    code, out, _ = run(capsys, "queens", "--help")
    assert code == 0 and "--find" in out and "--unique" in out


@pytest.mark.parametrize(
    ("command", "example"),
    [
        ("tours", "solvers tours 6 6 --start all"),
        ("queens", "solvers queens 12 --unique"),
        ("peg", "solvers peg triangle:5 --start 0,0 --finish-table"),
    ],
)
def test_every_subcommand_help_ends_with_its_own_examples(capsys, monkeypatch, command, example):
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps to the terminal
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    head, examples = out.split("\nexamples:\n")
    assert example in examples
    lines = examples.splitlines()
    assert lines and all(f"solvers {command} " in line for line in lines)
    assert max(map(len, head.splitlines())) <= 80  # wrapped for a terminal


def test_the_shared_options_examples():
    # tests/test_doctests.py runs the package's docstring; the examples of
    # the helpers the commands share live in their own module.
    result = doctest.testmod(importlib.import_module("solvers.cli._options"))
    assert result.attempted >= 3 and result.failed == 0


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["queens", "0"], "n must be at least 1, got 0"),
        (["queens", "-3"], "n must be at least 1, got -3"),
        (["queens", "65"], "count_queens works for n up to 64, got 65"),
        (["queens", "65", "--unique"], "count_queens works for n up to 64, got 65"),
        (["queens", "65", "--list", "1"], "queens works for n up to 64, got 65"),
        (["queens", "0", "--find"], "n must be at least 1, got 0"),
        (["queens", "65", "--find", "--method", "search"], "works for n up to 64, got 65"),
        (["queens", str(2**30 + 1), "--find"], "constructs for n up to"),
        (["queens", "8", "--list", "-1"], "--list needs a number of placements of at least 0"),
        (["queens", "8", "--threads", "0"], "threads must be at least 1"),
        (["queens", "8", "--timeout", "-1"], "timeout must be a finite, non-negative"),
        (["queens", "8", "--find", "--unique"], "--unique does not apply to --find"),
        (["queens", "8", "--find", "--progress"], "--progress does not apply to --find"),
        (["queens", "8", "--find", "--deterministic"], "--deterministic needs --method search"),
        (["queens", "8", "--svg", "q.svg"], "--svg does not apply to counting"),
        (["queens", "8", "--method", "search"], "counting takes --method auto, join, frames"),
        (["queens", "8", "--list", "2", "--method", "join"], "--method does not apply to --list"),
        (["queens", "8", "--list", "2", "--deterministic"], "does not apply to --list"),
        (["queens", "8", "--list", "2", "--threads", "2"], "--threads does not apply to --list"),
        (["queens", "8", "--list", "2", "--timeout", "9"], "--timeout does not apply to --list"),
        (["queens", "8", "--list", "2", "--progress", "--threads", "2"], "do not apply"),
    ],
)
def test_queens_errors_are_one_line(capsys, argv, phrase):
    err = usage_error(capsys, *argv)
    assert err.count("\n") == 1 and err.endswith("\n")
    assert err.startswith("solvers: error: ")
    assert phrase in err


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["queens", "8", "--find", "--list", "2"], "not allowed with argument"),
        (["queens", "8", "--list", "2", "--find"], "not allowed with argument"),
        (["queens", "8", "--find", "--method", "guess"], "invalid choice: 'guess'"),
        (["queens", "eight"], "invalid int value: 'eight'"),
        (["queens", "8", "--list", "x"], "invalid int value: 'x'"),
        (["queens"], "required: n"),
        (["queens", "8", "9"], "unrecognized arguments: 9"),
    ],
)
def test_queens_argparse_errors_end_with_a_one_line_message(capsys, argv, phrase):
    err = usage_error(capsys, *argv)
    last = err.rstrip("\n").splitlines()[-1]
    assert last.startswith("solvers")
    assert "error: " in last and phrase in last


def test_queens_timeout_exits_with_status_1(capsys):
    code, out, err = run(capsys, "queens", "20", "--timeout", "0.2")
    assert code == 1
    assert out == ""
    assert err.startswith("solvers: ") and "timeout" in err


def interrupt(argv, *, after: float, started: bool = True):
    """Run ``python -m solvers argv`` as a user would and send SIGINT
    ``after`` seconds past its start (once its imports are done, or at
    once with ``started=False``): (exit status, stdout, stderr, seconds
    from the signal to the exit)."""
    program = (
        "import runpy, sys, solvers.cli\n"
        f"sys.argv = ['solvers', *{list(argv)!r}]\n"
        f"print('ready', flush=True) if {started} else None\n"
        "runpy.run_module('solvers', run_name='__main__')\n"
    )
    return _interrupt(program, after, ready=started)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_counting_queens():
    # `solvers queens 18`: hundreds of millions of solutions
    code, out, err, elapsed = interrupt(["queens", "18"], after=0.5)
    assert (code, out, err) == (130, "", "solvers: interrupted\n")
    assert elapsed < HANG_GUARD


def test_queens_list_into_a_closed_pipe_is_not_an_error():
    # `solvers queens 14 --list 100000 | head -1`
    proc = subprocess.Popen(
        [sys.executable, "-m", "solvers", "queens", "14", "--list", "100000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0
    assert first.decode().startswith("1: ")
    assert "Traceback" not in err
