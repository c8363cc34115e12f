"""``solvers cover FILE``: a DLX file counted, listed, one cover found;
answers checked against the brute force of ``cover_oracle.py``."""

from __future__ import annotations

import io
import json

import cover_oracle
import pytest
from solvers import ExactCover, cli

#: A problem with a secondary item shared in one colour (three covers, by hand).
TEXT = """\
| a small problem with a coloured secondary item
a b c | x
a x:red
a b
c x:blue
b c x:red
c
"""


def oracle_covers():
    problem = ExactCover.from_dlx(TEXT)
    options = [list(problem.option(k)) for k in range(len(problem))]
    return cover_oracle.search_order(options, problem.primary)


@pytest.fixture
def dlx(tmp_path):
    path = tmp_path / "problem.dlx"
    path.write_text(TEXT, encoding="utf-8")
    return str(path)


def run(capsys, *argv):
    try:
        code = cli.main(list(argv))
    except SystemExit as exit_:
        code = exit_.code
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_count_is_the_default_and_takes_the_threads(capsys, dlx):
    expected = len(oracle_covers())
    assert expected == 3
    for argv in ([dlx], [dlx, "--count"], [dlx, "--threads", "2", "--method", "search"]):
        assert run(capsys, "cover", *argv) == (0, f"{expected}\n", "")
    assert run(capsys, "cover", dlx, "--json") == (0, json.dumps({"count": expected}) + "\n", "")


def test_list_prints_the_covers_in_order(capsys, dlx):
    every = oracle_covers()
    code, out, _ = run(capsys, "cover", dlx, "--list", "10")
    assert code == 0
    assert out.splitlines() == [f"{n}: {' '.join(map(str, c))}" for n, c in enumerate(every, 1)]
    code, out, _ = run(capsys, "cover", dlx, "--list", "1", "--json")
    assert json.loads(out) == {"covers": [list(every[0])]}


def test_find_prints_the_options_of_a_cover(capsys, dlx):
    first = oracle_covers()[0]
    code, out, _ = run(capsys, "cover", dlx, "--find", "--deterministic")
    lines = TEXT.splitlines()[2:]
    assert code == 0
    assert out.splitlines() == [f"{k}: {lines[k]}" for k in first]
    code, out, _ = run(capsys, "cover", dlx, "--find", "--json", "--threads", "2")
    assert tuple(json.loads(out)["cover"]) in oracle_covers()


def test_stdin_is_read_for_a_dash(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("a b\na\nb\na b\n"))
    assert run(capsys, "cover", "-") == (0, "2\n", "")


def test_no_cover_is_said(capsys, tmp_path):
    path = tmp_path / "none.dlx"
    path.write_text("a b\na\n", encoding="utf-8")
    assert run(capsys, "cover", str(path), "--find") == (0, "no cover\n", "")
    assert run(capsys, "cover", str(path), "--find", "--json") == (0, '{"cover": null}\n', "")


@pytest.mark.parametrize(
    ("text", "argv", "words"),
    [
        ("a b\na c\n", [], "DLX text, line 2, column 3: unknown item 'c'"),
        (TEXT, ["--find", "--method", "memo"], "--method does not apply to --find"),
        (TEXT, ["--deterministic"], "--deterministic does not apply to counting"),
        (TEXT, ["--list", "2", "--method", "memo"], "--method does not apply to --list"),
        (TEXT, ["--list", "-1"], "--list needs a number of covers of at least 0"),
        (TEXT, ["--method", "memo", "--checkpoint", "c"], r"does not take checkpoint="),
    ],
)
def test_usage_errors_are_one_line(capsys, tmp_path, text, argv, words):
    path = tmp_path / "p.dlx"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "cover", str(path), *argv)
    assert code == 2 and out == ""
    assert err.startswith("solvers: error: ") and words in err and err.count("\n") == 1


def test_a_missing_file_is_a_usage_error(capsys, tmp_path):
    code, _, err = run(capsys, "cover", str(tmp_path / "nothing.dlx"))
    assert code == 2 and "cannot read" in err


def test_the_help_ends_with_the_commands_examples(capsys):
    code, out, _ = run(capsys, "cover", "--help")
    assert code == 0
    examples = out.split("\nexamples:\n")[1].splitlines()
    assert examples and all("solvers cover " in line for line in examples)
