"""``solvers peg``: counts against the separate brute-force oracle and the
published values, the finish table, finding and saving a game, JSON, usage
errors (exit 2, one line) and Ctrl-C (exit 130)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import peg_oracle as oracle
import pytest
from hang import HANG_GUARD
from test_cli import interrupt, run, usage_error  # tests/test_cli.py

ENGLISH_CENTRE = 40_861_647_040_079_968  # durangobill.com/Peg33.html


@pytest.mark.slow
def test_the_english_board_from_the_centre_by_default(capsys):
    code, out, err = run(capsys, "peg", "english")
    assert (code, out, err) == (0, f"{ENGLISH_CENTRE}\n", "")


def test_python_dash_m_peg():
    done = subprocess.run(
        [sys.executable, "-m", "solvers", "peg", "triangle:5", "--start", "0,0", "--any"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "29760\n", "")


@pytest.mark.parametrize(
    ("name", "oracle_board"),
    [
        ("rectangle:3x4", oracle.rectangle(3, 4)),
        ("rectangle:4x3", oracle.rectangle(4, 3)),
        ("triangle:5", oracle.triangle(5)),
        ("diamond:3", oracle.diamond(3)),
    ],
)
def test_counts_match_the_oracle(capsys, name, oracle_board):
    holes, jumps = oracle_board
    for start in holes[:4]:
        want = oracle.finish_counts_bruteforce(holes, jumps, start)
        where = f"{start[0]},{start[1]}"
        code, out, _ = run(capsys, "peg", name, "--start", where)
        assert (code, out) == (0, f"{want[start]}\n")
        code, out, _ = run(capsys, "peg", name, "--start", where, "--any", "--threads", "1")
        assert (code, out) == (0, f"{sum(want.values())}\n")
        finish = holes[-1]
        code, out, _ = run(
            capsys, "peg", name, "--start", where, "--finish", f"{finish[0]},{finish[1]}"
        )
        assert (code, out) == (0, f"{want[finish]}\n")


def test_forward_method_agrees(capsys):
    code, out, _ = run(capsys, "peg", "rectangle:3x5", "--start", "1,2", "--method", "forward")
    holes, jumps = oracle.rectangle(3, 5)
    want = oracle.finish_counts_bruteforce(holes, jumps, (1, 2))[(1, 2)]
    assert (code, out) == (0, f"{want}\n")


def test_finish_table(capsys):
    holes, jumps = oracle.triangle(5)
    want = oracle.finish_counts_bruteforce(holes, jumps, (0, 0))
    code, out, _ = run(capsys, "peg", "triangle:5", "--start", "0,0", "--finish-table")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["finish", "games"]
    table = {}
    for line in lines[1:-1]:
        where, count = line.split()
        r, c = map(int, where.split(","))
        table[(r, c)] = int(count)
    assert table == want
    assert lines[-1].split() == ["total", str(sum(want.values()))]


def test_finish_table_json(capsys):
    holes, jumps = oracle.rectangle(3, 4)
    want = oracle.finish_counts_bruteforce(holes, jumps, (1, 1))
    code, out, _ = run(capsys, "peg", "rectangle:3x4", "--start", "1,1", "--finish-table", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["start"] == [1, 1]
    assert {tuple(square): n for square, n in doc["finish_counts"]} == want
    assert doc["total"] == sum(want.values())


@pytest.mark.slow
def test_count_json(capsys):
    code, out, _ = run(capsys, "peg", "english", "--json")
    assert code == 0
    assert json.loads(out) == {"start": [3, 3], "finish": [3, 3], "count": ENGLISH_CENTRE}
    code, out, _ = run(capsys, "peg", "triangle:5", "--start", "0,0", "--any", "--json")
    assert json.loads(out) == {"start": [0, 0], "finish": None, "count": 29760}
    code, out, _ = run(capsys, "peg", "english", "--finish", "0,2", "--json")
    assert json.loads(out) == {"start": [3, 3], "finish": [0, 2], "count": 0}


def test_a_board_file_whose_empty_hole_is_the_start(capsys, tmp_path):
    drawing = tmp_path / "board.txt"
    drawing.write_text("ooo\no.o\nooo\nooo\n")  # 4x3 rectangle, empty (1, 1)
    holes, jumps = oracle.rectangle(4, 3)
    want = oracle.finish_counts_bruteforce(holes, jumps, (1, 1))
    code, out, _ = run(capsys, "peg", str(drawing), "--any")
    assert (code, out) == (0, f"{sum(want.values())}\n")
    code, out, _ = run(capsys, "peg", str(drawing), "--start", "0,0")
    want = oracle.finish_counts_bruteforce(holes, jumps, (0, 0))
    assert (code, out) == (0, f"{want[(0, 0)]}\n")


def test_a_triangle_file(capsys, tmp_path):
    drawing = tmp_path / "triangle.txt"
    drawing.write_text("    .\n   o o\n  o o o\n o o o o\no o o o o\n")
    code, out, _ = run(capsys, "peg", str(drawing), "--triangle", "--any")
    assert (code, out) == (0, "29760\n")


def test_find_prints_the_start_the_jumps_and_the_last_peg(capsys):
    code, out, _ = run(capsys, "peg", "english", "--find")
    assert code == 0
    lines = out.splitlines()
    assert lines[:7] == ["  ooo", "  ooo", "ooooooo", "ooo.ooo", "ooooooo", "  ooo", "  ooo"]
    jumps = []
    for number, line in enumerate(lines[7:38], start=1):
        label, source, _, over, _, landing = line.split()
        assert label == f"{number}."
        squares = (source, over, landing)
        jumps.append(tuple(tuple(map(int, s.strip("()").split(","))) for s in squares))
    holes, board_jumps = oracle.english()
    assert oracle.is_solution(holes, board_jumps, (3, 3), jumps, (3, 3))
    assert lines[38:] == ["last peg on 3,3"]


def test_find_json_and_pictures(capsys, tmp_path):
    svg, html = tmp_path / "game.svg", tmp_path / "game.html"
    code, out, _ = run(
        capsys, "peg", "triangle:5", "--start", "0,0", "--any", "--find", "--json",
        "--svg", str(svg), "--html", str(html),
    )  # fmt: skip
    assert code == 0
    jumps = [tuple(tuple(square) for square in jump) for jump in json.loads(out)["jumps"]]
    holes, board_jumps = oracle.triangle(5)
    assert len(jumps) == 13
    assert oracle.is_solution(holes, board_jumps, (0, 0), jumps)
    assert ET.fromstring(svg.read_text()).tag.endswith("svg")
    page = html.read_text()
    assert page.lstrip().lower().startswith("<!doctype html")
    assert "<svg" in page


def test_find_without_a_solution(capsys, tmp_path):
    svg = tmp_path / "none.svg"
    code, out, _ = run(capsys, "peg", "english", "--finish", "0,2", "--find", "--svg", str(svg))
    assert (code, out) == (0, "no solution\n")
    assert not svg.exists()
    code, out, _ = run(capsys, "peg", "english", "--finish", "0,2", "--find", "--json")
    assert json.loads(out) == {"jumps": None}


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["nowhere"], "neither a board name"),
        (["triangle:x"], "whole number"),
        (["rectangle:3"], "like 3x5"),
        (["rectangle:9x9"], "at most 64"),
        (["english", "--start", "0,0"], "(0, 0)"),
        (["english", "--start", "all"], "one ROW,COL"),
        (["english", "--finish", "9,9"], "finish"),
        (["english", "--svg", "x.svg"], "--svg does not apply to counting"),
        (["english", "--find", "--progress"], "--progress does not apply to --find"),
        (["english", "--find", "--method", "meet"], "--method does not apply to --find"),
        (["english", "--finish-table", "--method", "meet"], "--method does not apply"),
        (["english", "--threads", "0"], "threads"),
        (["rectangle:3x4"], "no centre hole"),
    ],
)
def test_usage_errors_are_one_line(capsys, argv, phrase):
    err = usage_error(capsys, "peg", *argv)
    assert err.startswith("solvers: error: ")
    assert err.count("\n") == 1
    assert phrase in err


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["english", "--any", "--finish", "3,3"], "not allowed with"),
        (["english", "--start", "3"], "ROW,COL"),
        (["english", "--method", "sideways"], "invalid choice"),
        ([], "BOARD"),
    ],
)
def test_argparse_errors(capsys, argv, phrase):
    err = usage_error(capsys, "peg", *argv)
    assert phrase in err.splitlines()[-1]


def test_board_file_errors(capsys, tmp_path):
    two = tmp_path / "two.txt"
    two.write_text("o.o\n.oo\n")
    assert "2 empty holes" in usage_error(capsys, "peg", str(two))
    bad = tmp_path / "bad.txt"
    bad.write_text("ooz\n")
    err = usage_error(capsys, "peg", str(bad))
    assert "line 1, column 3" in err and err.count("\n") == 1


def test_timeout_exits_with_status_1(capsys):
    code, out, err = run(capsys, "peg", "english", "--start", "2,4", "--timeout", "0.2")
    assert (code, out) == (1, "")
    assert err.startswith("solvers: ") and "timeout" in err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_stops_the_peg_dp():
    # 1.5 s into the count: into the wide layers
    code, out, err, elapsed = interrupt(["peg", "english", "--start", "2,4", "--any"], after=1.5)
    assert (code, out, err) == (130, "", "solvers: interrupted\n")
    assert elapsed < HANG_GUARD


def test_animate_replays_the_game_found(capsys):
    code, out, _ = run(capsys, "peg", "triangle:5", "--start", "0,0", "--any", "--animate",
                       "--delay", "0")  # fmt: skip
    assert code == 0
    frames = out.strip().split("\n\n")
    assert len(frames) == 14  # the start and 13 jumps
    assert frames[0].splitlines()[0].strip() == "."  # the empty start hole on top
    boards = [frame.splitlines()[:5] for frame in frames]  # the status line follows
    assert [sum(line.count("o") for line in board) for board in boards] == list(range(14, 0, -1))
    assert out.rstrip().endswith("one peg left, on (4,2)")


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["english", "--animate", "--json"], "--json does not apply to --animate"),
        (["english", "--delay", "0"], "--delay needs --animate"),
        (["english", "--animate", "--finish-table"], "--finish-table does not apply"),
    ],
)
def test_animate_usage_errors(capsys, argv, phrase):
    assert phrase in usage_error(capsys, "peg", *argv)


def test_workers_spread_the_peg_dp(capsys):
    holes, jumps = oracle.rectangle(3, 5)
    want = oracle.finish_counts_bruteforce(holes, jumps, (1, 2))
    code, out, _ = run(capsys, "peg", "rectangle:3x5", "--start", "1,2", "--workers", "2")
    assert (code, out) == (0, f"{want[(1, 2)]}\n")
    code, out, _ = run(capsys, "peg", "rectangle:3x5", "--start", "1,2", "--finish-table",
                       "--workers", "2", "--json")  # fmt: skip
    assert {tuple(sq): n for sq, n in json.loads(out)["finish_counts"]} == want


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["english", "--checkpoint", "x.sqlite", "--workers", "2"], "--checkpoint saves"),
        (["english", "--checkpoint", "x.sqlite", "--finish-table"], "--checkpoint saves"),
        (["english", "--find", "--workers", "2"], "--workers does not apply to --find"),
        (["english", "--workers", "0"], "--workers must be at least 1"),
        (["english", "--executor", "tcp://x:1"], "dask://HOST:PORT"),
    ],
)
def test_distribution_usage_errors(capsys, argv, phrase):
    assert phrase in usage_error(capsys, "peg", *argv)


def test_a_memory_budget_and_its_spill_directory(capsys, tmp_path, monkeypatch):
    # The 5x5 square from (0, 2): about 3 MB of layers, so a 1 MiB budget
    # spills (the English board spills within 8 MB in peg/test_spill.py);
    # the answer is the count all in memory.
    from solvers import PegBoard, count_peg_solutions
    from solvers.peg import dp as _peg_dp

    written = []  # by each driver as it closes (holding the driver would keep its files)

    class Recorded(_peg_dp.Budgeted):
        def close(self):
            written.append(self.spill.written)
            super().close()

    want = count_peg_solutions(PegBoard.rectangle(5, 5), start=(0, 2), finish=None, spill=False)
    assert want > 0
    monkeypatch.setattr(_peg_dp, "Budgeted", Recorded)
    argv = ["rectangle:5x5", "--start", "0,2", "--any", "--memory", "1MiB"]
    code, out, err = run(capsys, "peg", *argv, "--spill", str(tmp_path))
    assert (code, out, err) == (0, f"{want}\n", "")
    assert len(written) == 1 and written[0] > 1 << 20
    assert list(tmp_path.iterdir()) == []
    code, out, err = run(capsys, "peg", "english", "--find", "--memory", "1GB")
    assert code == 2 and "--memory" in err, err
    code, out, err = run(capsys, "peg", "english", "--memory", "lots")
    assert code == 2 and "memory must be" in err, err
