"""The quarter-board join (``count_queens(method="join")``) against published
values (OEIS A000170, A002562), the frame counter, and a separate brute-force
oracle; its choice of CPU kernels; its refusals."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import solvers
import solvers.cli
from solvers import _core, count_queens
from solvers.nqueens import COUNT_METHODS, MAX_JOIN_N

# OEIS A000170 and A002562, n = 1..18 and 1..16.
A000170 = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512,
    95815104, 666090624,
]  # fmt: skip
A002562 = [
    1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752, 285053, 1846955,
]  # fmt: skip


def brute_force_count(n: int) -> tuple[int, int]:
    """(all solutions, classes under the 8 symmetries), by permutations."""
    found = [
        p
        for p in itertools.permutations(range(n))
        if len({r + c for r, c in enumerate(p)}) == n and len({r - c for r, c in enumerate(p)}) == n
    ]

    def least_image(p: tuple[int, ...]) -> tuple[int, ...]:
        best = p
        for _ in range(4):
            p = tuple(n - 1 - p.index(r) for r in range(n))  # a quarter turn
            mirrored = tuple(n - 1 - c for c in p)
            best = min(best, p, mirrored)
        return best

    return len(found), len({least_image(p) for p in found})


@pytest.mark.parametrize("n", range(4, 9))
def test_join_matches_the_brute_force_oracle(n):
    total, classes = brute_force_count(n)
    assert count_queens(n, method="join") == total
    assert count_queens(n, method="join", unique=True) == classes


@pytest.mark.parametrize("n", range(4, 17))
def test_methods_agree_with_oeis(n):
    assert count_queens(n, method="join") == A000170[n - 1]
    assert count_queens(n, method="frames") == A000170[n - 1]
    assert count_queens(n, method="join", unique=True) == A002562[n - 1]
    if n <= 14:
        assert count_queens(n, method="frames", unique=True) == A002562[n - 1]


def test_auto_uses_the_join_where_it_applies():
    assert _core.queens_method(8) == "frames"
    assert _core.queens_method(12) == "join"
    assert _core.queens_method(MAX_JOIN_N) == "join"
    assert _core.queens_method(MAX_JOIN_N + 1) == "frames"
    assert _core.queens_method(30, "frames") == "frames"
    assert COUNT_METHODS == ("auto", "join", "frames")


@pytest.mark.parametrize("n", [12, 15])
def test_join_does_not_depend_on_threads(n):
    totals = {count_queens(n, method="join", threads=t) for t in (1, 2, 3, 8)}
    assert totals == {A000170[n - 1]}
    uniques = {count_queens(n, method="join", unique=True, threads=t) for t in (1, 8)}
    assert uniques == {A002562[n - 1]}


@pytest.mark.parametrize("kernels", ["baseline", "native"])
def test_both_cpu_kernels_count_the_same(kernels):
    """The portable kernels (``SOLVERS_CPU=baseline``) and the x86-64-v3 ones
    give the same counts; a fresh interpreter, as the choice is made once."""
    env = dict(os.environ)
    if kernels == "baseline":
        env["SOLVERS_CPU"] = "baseline"
    else:
        env.pop("SOLVERS_CPU", None)
    code = (
        "import solvers; from solvers import _core;"
        "print(_core.CPU_KERNELS);"
        "print([solvers.count_queens(n, method='join') for n in (13, 14, 15)]);"
        "print(solvers.count_queens(15, method='join', unique=True))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    if kernels == "baseline":
        assert out[0] == "baseline"
    assert out[1] == str([73712, 365596, 2279184])
    assert out[2] == "285053"


def test_join_runs_on_an_executor_and_resumes_from_a_checkpoint(tmp_path):
    with ThreadPoolExecutor(2) as pool:
        assert count_queens(13, method="join", executor=pool) == A000170[12]
        assert count_queens(13, method="join", unique=True, executor=pool) == A002562[12]
    path = tmp_path / "q14.sqlite"
    assert count_queens(14, method="join", checkpoint=path) == A000170[13]
    # everything recorded: the second run only adds up the checkpoint
    assert count_queens(14, method="join", checkpoint=path) == A000170[13]
    work = solvers.distributed.plan(count_queens, 14, subproblems=64, method="join")
    assert work.count() == A000170[13]


@pytest.mark.parametrize(
    ("kwargs", "error", "phrase"),
    [
        ({"n": 8, "method": "fast"}, ValueError, "method must be one of 'auto', 'join', 'frames'"),
        ({"n": 8, "method": 3}, ValueError, "method must be one of"),
        ({"n": 3, "method": "join"}, ValueError, "counts boards of 4 to 23 queens, got n = 3"),
        ({"n": 24, "method": "join"}, ValueError, "method='frames' counts up to 64"),
    ],
)
def test_bad_methods_are_refused(kwargs, error, phrase):
    with pytest.raises(error, match=phrase):
        count_queens(**kwargs)


def test_join_refuses_a_board_bigger_than_the_memory_under_a_limit():
    """Under an address-space limit too small for the n = 22 quarter table
    (0.5 GB), the count is refused with the estimate, never an abort."""
    code = (
        "import resource, solvers;"
        "resource.setrlimit(resource.RLIMIT_AS, (400 << 20, 400 << 20));"
        "\ntry:\n    solvers.count_queens(22, method='join')\n"
        "except MemoryError as e:\n    print('refused:', e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert "refused:" in out.stdout and "join of n = 22" in out.stdout


def test_timeout_stops_the_join():
    with pytest.raises(TimeoutError):
        count_queens(21, method="join", timeout=0.3)


def test_cli_counts_by_either_method(capsys):
    assert solvers.cli.main(["queens", "12", "--method", "join"]) == 0
    assert capsys.readouterr().out.strip() == "14200"
    assert solvers.cli.main(["queens", "12", "--method", "frames", "--unique"]) == 0
    assert capsys.readouterr().out.strip() == "1787"
    assert solvers.cli.main(["queens", "12", "--find", "--method", "join"]) == 2
    assert "--find takes --method construct or search" in capsys.readouterr().err
