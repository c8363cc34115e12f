"""The frontier count on executors (``method="frontier", executor=...``): every
sweep step a round of tasks that pass the layer on through partition files
in a directory of their own inside ``spill=``.  Totals are checked against
published values (OEIS A165134) and the search, and against the
count in one process where no value is published; damaged partition files
are refused, and the directory goes with the count."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest
from engine.test_distributed import ALL_6X6, dask_client
from solvers import count_tours
from solvers._engine import _rounds
from solvers.knights import frontier_dist as _frontier_dist

#: Directed open tours from every square of 5x5, OEIS A165134.
ALL_5X5 = 1728


@pytest.mark.parametrize(
    ("size", "kwargs", "published"),
    [
        ((5, 5), {"start": "all"}, ALL_5X5),
        pytest.param((6, 6), {"start": "all"}, ALL_6X6, marks=pytest.mark.slow),
        ((5, 6), {"start": (0, 0)}, None),
        ((6, 6), {"start": (0, 0), "closed": True}, None),
        ((4, 30), {"start": "all"}, None),  # counts past 64 bits
        ((3, 3), {"start": "all", "closed": True}, 0),  # no sweep needed
    ],
)
def test_rounds_on_processes_give_the_published_count(processes, size, kwargs, published, tmp_path):
    got = count_tours(*size, method="frontier", executor=processes, spill=tmp_path, **kwargs)
    if published is not None:
        assert got == published
    elif size[0] * size[1] <= 36:
        assert got == count_tours(*size, method="search", **kwargs)
    else:
        assert got == count_tours(*size, method="frontier", **kwargs)
    assert os.listdir(tmp_path) == []  # the partition files went with the count


@pytest.mark.parametrize("parts", [1, 3, 8])
def test_the_count_is_the_same_for_every_number_of_parts(parts, monkeypatch, tmp_path):
    monkeypatch.setattr(_frontier_dist, "parts_for", lambda executor: parts)
    with ThreadPoolExecutor(2) as pool:
        got = count_tours(
            6, 6, start=(2, 3), method="frontier", executor=pool, threads=1, spill=tmp_path
        )
    assert got == count_tours(6, 6, start=(2, 3), method="search")


def _damaging(monkeypatch, damage, after: int) -> list[str]:
    """Damage the newest partition file once ``after`` rounds are done."""
    rounds: list[str] = []
    original = _rounds.run

    def run(executor, calls, deadline):
        results = original(executor, calls, deadline)
        _task, args = calls[0]
        rounds.append(args[-2])  # the file the task wrote
        if len(rounds) == after:
            damage(args[-2])
        return results

    monkeypatch.setattr(_rounds, "run", run)
    return rounds


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        (lambda path: os.truncate(path, os.path.getsize(path) - 5), "truncated"),
        (lambda path: _flip(path, os.path.getsize(path) // 2), "altered"),
    ],
    ids=["truncated", "altered"],
)
def test_a_damaged_partition_file_is_refused(damage, words, monkeypatch, tmp_path):
    _damaging(monkeypatch, damage, after=6)
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match=words):
        count_tours(5, 6, start="all", method="frontier", executor=pool, spill=tmp_path)
    assert os.listdir(tmp_path) == []


def _flip(path: str, at: int) -> None:
    with open(path, "r+b") as f:
        f.seek(at)
        byte = f.read(1)
        f.seek(at)
        f.write(bytes([byte[0] ^ 0x20]))


def test_a_timeout_leaves_no_files(processes, tmp_path):
    with pytest.raises(TimeoutError):
        count_tours(
            6, 7, start="all", method="frontier", executor=processes, spill=tmp_path, timeout=1
        )
    assert os.listdir(tmp_path) == []


def test_what_does_not_go_with_an_executor_is_refused(processes, tmp_path):
    for extra in ({"checkpoint": tmp_path / "ckpt"}, {"memory": "1GB"}):
        with pytest.raises(ValueError, match=f"executor= and {next(iter(extra))}= together"):
            count_tours(5, 5, method="frontier", executor=processes, **extra)
    with pytest.raises(ValueError, match="existing directory"):
        count_tours(5, 5, method="frontier", executor=processes, spill=tmp_path / "nope")
    with pytest.raises(TypeError, match="Executor"):
        count_tours(5, 5, method="frontier", executor=object())


@pytest.mark.slow
def test_a_real_dask_cluster_counts_through_partition_files(tmp_path):
    with dask_client() as client:
        executor = client.get_executor()
        got = count_tours(6, 6, start="all", method="frontier", executor=executor, spill=tmp_path)
        assert got == ALL_6X6
        wide = count_tours(4, 30, start="all", method="frontier", executor=executor)
        assert wide == count_tours(4, 30, start="all", method="frontier")
        # (The peg DP through partition files on a real cluster, the English
        # board with spill=: peg/test_files.py.)
    assert os.listdir(tmp_path) == []


@pytest.mark.slow
def test_the_command_line_counts_on_workers_and_within_a_budget(capsys, tmp_path):
    from solvers import cli

    for extra in (["--workers", "2", "--spill", str(tmp_path)], ["--memory", "2MB"]):
        code = cli.main(["tours", "6", "6", "--start", "all", "--method", "frontier", *extra])
        assert (code, capsys.readouterr().out) == (0, f"{ALL_6X6}\n")
    assert os.listdir(tmp_path) == []
