"""Messages that misled (issue 46): each case as it was reported, and what the
user reads now.  No Rust panic text, raw pyo3 or sqlite3 text, or private
name reaches the user in any of them."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import solvers
from solvers import ExactCover, PegBoard, Sudoku, cli
from solvers._engine import _progress
from solvers.cover.tiling import TilingPuzzle

ROOT = Path(__file__).resolve().parents[2]

#: What must never reach a user: Rust and pyo3 text, sqlite3's, private names.
LEAKS = (
    "panicked",
    "RUST_BACKTRACE",
    "PanicException",
    "can't convert",
    "cannot be converted",
    "sqlite3.",
    "OperationalError",
    "IntegrityError",
    "_core",
    "solvers._",
    "Traceback",
)


def clean(message: str) -> str:
    assert not any(leak in message for leak in LEAKS), message
    return message


def run(capsys, *argv):
    """``main(argv)`` in this process: (exit code, stdout, stderr)."""
    try:
        code = cli.main([str(arg) for arg in argv])
    except SystemExit as exit_:
        code = exit_.code
    captured = capsys.readouterr()
    return code, captured.out, clean(captured.err)


def error_line(capsys, status, *argv):
    """The one line on stderr of a command that fails with ``status``."""
    code, out, err = run(capsys, *argv)
    assert code == status, (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1, err
    return lines[0]


# ---------------------------------------------------------------- DLX text


def test_a_byte_order_mark_is_skipped(tmp_path, capsys):
    text = "\ufeffa b\na\nb\n"
    assert ExactCover.from_dlx(text) == ExactCover.from_dlx(text[1:])
    path = tmp_path / "bom.dlx"
    path.write_bytes(text.encode("utf-8"))  # the mark as the bytes EF BB BF
    assert path.read_bytes()[:3] == b"\xef\xbb\xbf"
    assert run(capsys, "cover", path) == (0, "1\n", "")


def test_slash_slash_lines_are_comments():
    text = "// an xcover file\n  // indented too\na b | x\n// between options\na x:red\nb x:red\n"
    problem = ExactCover.from_dlx(text)
    assert problem.primary == ("a", "b") and problem.secondary == ("x",)
    assert solvers.count_covers(problem) == 1
    message = str(pytest.raises(ValueError, ExactCover.from_dlx, "// only\n| comments\n").value)
    assert "'|' or '//'" in message


def test_a_huge_name_is_cut_short_in_the_message():
    with pytest.raises(ValueError) as caught:
        ExactCover.from_dlx("a\n" + "a" * 10**6)
    message = clean(str(caught.value))
    assert message.startswith("DLX text, line 2, column 1: unknown item 'aaa")
    assert "..." in message and len(message) < 200
    for text in ("a\na " + "b" * 10**5 + ":red\n", "a " + "b" * 10**5 + " " + "b" * 10**5):
        with pytest.raises(ValueError) as caught:
            ExactCover.from_dlx(text)
        assert len(str(caught.value)) < 300


def test_to_dlx_writes_tuple_items_under_made_names_that_read_back():
    cells = [(r, c) for c in range(4) for r in range(2)]
    upright = [((0, c), (1, c)) for c in range(4)]
    flat = [((r, c), (r, c + 1)) for c in range(3) for r in (0, 1)]
    strip = ExactCover(upright + flat, primary=cells)
    text = strip.to_dlx()
    assert text.startswith("| items written under a name made from their value (name = value):\n")
    assert "|   0_0 = (0, 0)\n" in text and "\n0_0 1_0 0_1 1_1 0_2 1_2 0_3 1_3\n" in text
    back = ExactCover.from_dlx(text)
    assert back.primary[:2] == ("0_0", "1_0")
    assert list(solvers.covers(back)) == list(solvers.covers(strip))
    assert solvers.count_covers(back) == solvers.count_covers(strip) == 5
    # clashes, blanks, separators, a leading //, and colours
    odd = ExactCover(
        [
            (1, "1", "a b", (("c", 1), None)),
            ("c_1", "//x", ("x", ("red", 1))),
            ("c_1", ("x", "a:b")),
        ],
        secondary=["x"],
        colors=True,
    )
    written = odd.to_dlx()
    names = written.splitlines()[-4].split()
    assert names == ["1", "1~2", "a_b", "c_1~2", "c_1", "x~2", "|", "x"]
    assert "|   c_1~2 = ('c', 1)\n" in written and "|   red_1 = ('red', 1)\n" in written
    again = ExactCover.from_dlx(written)
    assert list(solvers.covers(again)) == list(solvers.covers(odd))
    assert (
        again.to_dlx()
        == "\n".join(line for line in written.splitlines() if not line.startswith("|")) + "\n"
    )


# ---------------------------------------------------------------- a 0/1 matrix


def test_a_matrix_given_as_options_points_to_from_matrix():
    numpy = pytest.importorskip("numpy")
    for matrix in (numpy.array([[1, 0, 0], [0, 1, 1]]), [[1, 0, 0], [0, 1, 1]]):
        with pytest.raises(ValueError, match=r"0/1 matrix.*use ExactCover\.from_matrix"):
            ExactCover(matrix)
    # options of the items 0 and 1, each once: a problem, taken as one
    assert ExactCover([(0, 1), (1, 0)]).primary == (0, 1)


def test_from_matrix_reads_rows_as_options_and_columns_as_items():
    numpy = pytest.importorskip("numpy")
    rows = [[1, 0, 0, 1], [0, 1, 1, 0], [1, 1, 0, 0], [0, 0, 1, 1], [0, 0, 0, 1]]
    problem = ExactCover.from_matrix(rows)
    assert problem.primary == (0, 1, 2, 3) and problem.secondary == ()
    assert problem.options == ((0, 3), (1, 2), (0, 1), (2, 3), (3,))
    assert ExactCover.from_matrix(numpy.array(rows)) == problem
    assert ExactCover.from_matrix(numpy.array(rows, dtype=bool)) == problem
    assert solvers.count_covers(problem) == 2
    named = ExactCover.from_matrix(rows[:4], ["a", "b", "c", "x"], secondary=1)
    assert named.primary == ("a", "b", "c") and named.secondary == ("x",)
    assert named == ExactCover.from_matrix(rows[:4], ["a", "b", "c", "x"], secondary=["x"])
    assert list(solvers.covers(named)) == [(0, 1), (2, 3)]
    assert ExactCover.from_matrix([[1, 0]]).primary == (0, 1)  # a column no row covers
    assert solvers.count_covers(ExactCover.from_matrix([[1, 0]])) == 0
    for bad, words in [
        ([[1, 2], [0, 1]], "row 0, column 1 of the matrix holds 2"),
        ([[1, 0], [1]], "row 1 of the matrix has 1 entries, row 0 has 2"),
        ([["1", "0"]], "row 0, column 0 of the matrix holds '1'"),
        ([[0, 1]], "secondary=3: the matrix has 2 columns"),
    ]:
        with pytest.raises(ValueError, match=re.escape(words)):
            ExactCover.from_matrix(bad, secondary=3 if "secondary" in words else 0)
    with pytest.raises(ValueError, match="items names 3 columns, the matrix has 2"):
        ExactCover.from_matrix([[1, 0]], ["a", "b", "c"])
    with pytest.raises(ValueError, match="which is not a column"):
        ExactCover.from_matrix([[1, 0]], secondary=["z"])
    with pytest.raises(TypeError, match="matrix must be a list of rows"):
        ExactCover.from_matrix(5)


# ---------------------------------------------------------------- Sudoku


@pytest.mark.parametrize(("typed", "shown"), [("x", "'x'"), ("A", "'A'"), ("0", None)])
def test_a_symbol_out_of_range_is_named_as_typed(typed, shown):
    if shown is None:
        assert Sudoku(typed + "." * 80).blanks == 81
        return
    with pytest.raises(ValueError) as caught:
        Sudoku(typed + "." * 80)
    assert str(caught.value) == (
        f"line 1, column 1: {shown} is not a symbol of a 9 x 9 Sudoku: its symbols are 1-9 "
        "(., 0, _ for a blank)"
    )
    with pytest.raises(ValueError, match=r"'H' is not a symbol of a 16 x 16 Sudoku: its "
                       r"symbols are 1-9 and A-G"):  # fmt: skip
        Sudoku("." * 17 + "H" + "." * 238)


def test_sudoku_names_a_missing_file_or_a_directory(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    line = error_line(capsys, 2, "sudoku", "missing.txt")
    assert line.startswith("solvers: error: cannot read PUZZLE missing.txt: no such file")
    line = error_line(capsys, 2, "sudoku", "adir")
    assert line == (
        "solvers: error: cannot read PUZZLE adir: it is a directory (give the grid, or a "
        "file holding it)"
    )
    assert "no such file" in error_line(capsys, 2, "sudoku", "some/where")
    # a grid that is not one is still told as a grid
    assert "not a square number" in error_line(capsys, 2, "sudoku", "123")
    assert "no such file" not in error_line(capsys, 2, "sudoku", "123")
    (tmp_path / "grid.txt").write_bytes("\ufeff123.........4..1\n".encode())  # with a BOM
    assert run(capsys, "sudoku", "grid.txt", "--count")[:2] == (0, "1\n")


# ---------------------------------------------------------------- tilings


def test_tiling_takes_count_as_cover_and_sudoku_do(capsys):
    assert run(capsys, "tiling", "3x20", "--count") == (0, "8\n", "")
    code, _, err = run(capsys, "tiling", "3x20", "--count", "--find")
    assert code == 2 and err.startswith("usage: solvers tiling ")  # its own usage
    assert err.endswith("error: argument --find: not allowed with argument --count\n")


def test_sudoku_variants_from_the_command_line(capsys, tmp_path):
    (tmp_path / "jigsaw.txt").write_text("AABB\nAACB\nDCCB\nDDCD\n")
    blank = "." * 16
    assert run(capsys, "sudoku", blank, "--diagonals", "--count")[:2] == (0, "48\n")
    jigsaw = Sudoku(blank, regions="AABB\nAACB\nDCCB\nDDCD").count()
    regions = str(tmp_path / "jigsaw.txt")
    assert run(capsys, "sudoku", blank, "--regions", regions, "--count")[:2] == (0, f"{jigsaw}\n")
    windows = Sudoku(blank, extra=[[(0, 0), (3, 3)]]).count()
    assert run(capsys, "sudoku", blank, "--extra", "0,0 3,3", "--count")[:2] == (0, f"{windows}\n")
    assert "--extra takes cells as R,C" in error_line(
        capsys, 2, "sudoku", blank, "--extra", "0,0 x"
    )


def test_tiling_counts_and_lists_up_to_the_board_s_symmetries(capsys):
    assert run(capsys, "tiling", "3x20", "--unique") == (0, "2\n", "")
    code, out, _ = run(capsys, "tiling", "3x20", "--unique", "--list", "5")
    assert code == 0 and len(out.splitlines()) == 2
    assert "--unique" in error_line(capsys, 2, "tiling", "3x20", "--find", "--unique")


def test_tiling_errors_spell_the_options(capsys):
    line = error_line(capsys, 2, "tiling", "5x5")
    assert "(give --each any to use pieces any number of times)" in line
    assert "each='any'" not in line
    with pytest.raises(ValueError, match="give each='any'"):  # the Python API's words
        TilingPuzzle((5, 5), "pentominoes")


# ---------------------------------------------------------------- checkpoints, warnings


def test_a_file_that_is_no_checkpoint_is_one_line(tmp_path):
    ok = tmp_path / "ok.dlx"
    ok.write_text("a b\na b\n")
    # As the installed `solvers` script runs: its __main__ shows a DeprecationWarning.
    script = "import sys; from solvers.cli import main; sys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", script, "cover", "ok.dlx", "--checkpoint", "ok.dlx"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert clean(done.stderr).splitlines() == [
        "solvers: error: checkpoint 'ok.dlx' is not a readable solvers checkpoint: it is a "
        "file, and not one a count wrote (a checkpoint is a directory, made if missing)"
    ]
    assert ok.read_text() == "a b\na b\n"


def test_a_warning_on_the_command_line_is_one_line(tmp_path, capsys):
    old = tmp_path / "old.sqlite"
    old.touch()  # the checkpoint's old form: deprecated, still taken
    code, out, err = run(capsys, "queens", "6", "--checkpoint", old)
    assert (code, out) == (0, "4\n")
    assert err.splitlines() == [
        f"solvers: warning: checkpoint={str(old)!r} is a file: a checkpoint file is deprecated "
        "(it still resumes, for one release); give a directory (made if missing)"
    ]


# ---------------------------------------------------------------- progress


def test_the_memo_count_shows_a_bar(monkeypatch, capsys):
    monkeypatch.setattr(_progress, "SILENT_SECONDS", 0.0)
    monkeypatch.setattr(_progress, "TEXT_EVERY", 0.0)
    monkeypatch.setitem(sys.modules, "tqdm", None)  # the plain line, without tqdm
    problem = TilingPuzzle((14, 14), "domino", each="any").exact_cover()
    count = solvers.count_covers(problem, method="memo", progress=True)
    assert count == 112202208776036178000000
    err = capsys.readouterr().err
    assert f"exact cover ({len(problem)} options), memo: " in err
    # One unit per primary item (a cell), the last layer's size beside it.
    assert "196/196 items" in err and "states in the layer" in err
    assert "left" not in err and err.endswith("\n")  # no time left; drawn, then closed
    # without progress=, nothing
    solvers.count_covers(problem, method="memo")
    assert capsys.readouterr().err == ""


# ---------------------------------------------------------------- pictures


def test_a_tour_saved_as_svg_is_not_printed_too(tmp_path, capsys):
    picture = tmp_path / "t.svg"
    code, out, err = run(capsys, "tours", "50", "51", "--find", "--svg", picture)
    assert (code, out, err) == (0, "", "")
    assert picture.read_text().startswith("<svg")
    code, out, _ = run(capsys, "tours", "5", "5", "--find", "--svg", picture, "--json")
    assert code == 0 and out.startswith('{"tour": [[')  # --json still prints
    code, out, _ = run(capsys, "tours", "4", "4", "--find", "--svg", picture)
    assert (code, out) == (0, "no tour\n")


# ---------------------------------------------------------------- timeouts

#: Counts that take minutes, stopped after half a second.
TIMED_OUT = {
    "peg, last peg anywhere (in memory)": lambda: solvers.count_peg_solutions(
        PegBoard.english(), start=(2, 3), finish=None, timeout=0.5, spill=False
    ),
    "peg, within a memory budget": lambda: solvers.count_peg_solutions(
        PegBoard.english(), start=(2, 3), finish=None, timeout=0.5, memory="1GiB"
    ),
    "peg finish table": lambda: solvers.finish_counts(
        PegBoard.english(), start=(2, 3), timeout=0.5
    ),
    "peg, every game": lambda: solvers.count_peg_games(
        PegBoard.english(), start=(2, 3), timeout=0.5
    ),
    "peg positions": lambda: solvers.count_peg_positions(
        PegBoard.english(), start=(2, 3), finish=None, timeout=0.5
    ),
}


@pytest.mark.parametrize("case", TIMED_OUT)
def test_a_timeout_states_the_user_s_seconds_and_how_far_it_got(case):
    started = time.monotonic()
    with pytest.raises(TimeoutError) as caught:
        TIMED_OUT[case]()
    assert time.monotonic() - started < 30
    message = clean(str(caught.value))
    assert re.fullmatch(r"no answer within the timeout of 0\.5 s \(after \d+ of \d+ layers\)",
                        message), message  # fmt: skip


def test_a_checkpointed_timeout_states_the_user_s_seconds(tmp_path):
    pentominoes = TilingPuzzle((6, 10), "pentominoes").exact_cover()
    with pytest.raises(TimeoutError) as caught:
        solvers.count_covers(pentominoes, method="search", checkpoint=tmp_path / "c", timeout=0.5)
    message = clean(str(caught.value))
    assert re.fullmatch(
        r"no answer within the timeout of 0\.5 s \(after [\d,]+ of [\d,]+ subproblems\)", message
    ), message
    with pytest.raises(TimeoutError, match=r"^no answer within the timeout of 1 s"):
        solvers.count_queens(18, checkpoint=tmp_path / "q", timeout=1)


def test_a_timeout_on_an_executor_states_the_user_s_seconds():
    with ThreadPoolExecutor(2) as pool:
        for call, where in [
            (
                lambda: solvers.count_tours(
                    7, 7, start="all", method="frontier", executor=pool, timeout=0.4
                ),
                r"after \d+ of \d+ steps of the sweep",
            ),
            (
                lambda: solvers.count_peg_solutions(
                    PegBoard.english(), start=(2, 3), finish=None, executor=pool, timeout=0.4
                ),
                r"after \d+ of \d+ layers",
            ),
            (
                lambda: solvers.count_queens(18, executor=pool, timeout=0.4),
                r"after [\d,]+ of [\d,]+ subproblems",
            ),
        ]:
            with pytest.raises(TimeoutError) as caught:
                call()
            message = clean(str(caught.value))
            assert re.fullmatch(rf"no answer within the timeout of 0\.4 s \({where}\)", message)


def test_every_kind_of_call_states_the_seconds_given():
    pentominoes = TilingPuzzle((6, 10), "pentominoes").exact_cover()
    listed = 0
    with pytest.raises(TimeoutError) as caught:
        for _ in solvers.covers(pentominoes, timeout=0.3):
            listed += 1
    assert str(caught.value) == f"no answer within the timeout of 0.3 s (after {listed:,} covers)"
    with pytest.raises(TimeoutError, match=r"^no answer within the timeout of 0\.3 s$"):
        solvers.count_queens(18, timeout=0.3)  # the core, handed the user's seconds
    with pytest.raises(TimeoutError, match=r"^no answer within the timeout of 0 s"):
        solvers.count_covers(pentominoes, checkpoint=None, timeout=0)


def test_a_command_line_timeout_states_the_seconds_given(tmp_path, capsys):
    line = error_line(
        capsys, 1, "queens", "18", "--checkpoint", tmp_path / "q18", "--timeout", "0.5"
    )
    assert line.startswith("solvers: error: no answer within the timeout of 0.5 s (after ")
    line = error_line(capsys, 1, "peg", "english", "--start", "2,3", "--any", "--timeout", "0.5")
    assert line.startswith("solvers: error: no answer within the timeout of 0.5 s (after ")


# ---------------------------------------------------------------- the help's examples


def _examples() -> list[str]:
    """Every example command line of every command's --help (``solvers
    --help`` lists them all), its comment left out."""
    lines = []
    for command in cli._commands().values():
        for line in command.EXAMPLES.splitlines():
            line = re.sub(r"\s+#(\s.*)?$", "", line.strip())  # not the # of L=##/#.
            if line:
                lines.append(line)
    return lines


#: Examples that take more than a second or two here: run with the slow tests.
SLOW_EXAMPLES = {"solvers peg english"}


def test_the_examples_are_every_command_s():
    examples = _examples()
    assert len(examples) >= 30
    assert all(line.startswith("solvers ") for line in examples)
    assert "solvers tiling 2x3 --piece L=##/#. --each any --find --svg tiling.svg" in examples


@pytest.mark.parametrize(
    "example",
    [pytest.param(e, marks=pytest.mark.slow) if e in SLOW_EXAMPLES else e for e in _examples()],
)
def test_every_help_example_runs_from_a_fresh_clone(example, tmp_path, monkeypatch, capsys):
    # From a folder holding the clone's examples/ (the files the examples
    # name), so that what they write (pictures, checkpoints) lands there.
    (tmp_path / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(example)[1:]
    if "--animate" in argv:  # the same frames, without the pauses between them
        if "--delay" in argv:
            at = argv.index("--delay")
            del argv[at : at + 2]
        argv += ["--delay", "0"]
    if "--workers" in argv:
        # Worker processes: from a process of their own, as a user runs them.
        done = subprocess.run(
            [sys.executable, "-m", "solvers", *argv],
            capture_output=True,
            text=True,
            timeout=120,
        )
        code, out, err = done.returncode, done.stdout, clean(done.stderr)
    else:
        code, out, err = run(capsys, *argv)  # in this process: no interpreter to start
    assert code == 0, (example, err)
    assert out or sorted(os.listdir(tmp_path)) != ["examples"], example
