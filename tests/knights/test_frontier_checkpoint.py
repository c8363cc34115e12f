"""The frontier count's checkpoint directory: ``checkpoint=DIR`` with
``method="frontier"`` saves each finished layer, a count killed with SIGKILL
goes on from its last layer when called again and returns the published
total, a finished count's rerun returns at once, and a damaged or foreign
directory is refused with a clear error, never a wrong count.

The oracles are the published counts (OEIS A165134: directed open tours
from every square) and the count without a checkpoint."""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import pytest
import solvers
from engine.test_distributed import kill_once
from solvers import _core
from solvers._engine._args import LEDGER_NAME

# Published: 5x5 1728 and 6x6 6,637,920 (OEIS A165134, n x n), 6x7 779,938,932.
PUBLISHED = {(5, 5): 1728, (6, 6): 6_637_920, (6, 7): 779_938_932}


def manifest(directory) -> dict[str, str]:
    """The manifest's lines by their first word (``{}`` while there is none)."""
    try:
        with open(os.path.join(directory, "manifest"), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return {}
    return {key: rest for key, _, rest in (line.partition(" ") for line in lines)}


def saved_step(directory) -> int:
    return int(manifest(directory).get("step", -1))


def stopped(directory, rows=6, cols=7, start="all", seconds=1.0) -> int:
    """Stop a checkpointed count by a timeout; the step its last saved layer follows."""
    with pytest.raises(TimeoutError):
        solvers.count_tours(
            rows, cols, start=start, method="frontier", checkpoint=directory, timeout=seconds
        )
    step = saved_step(directory)
    assert step >= 0, manifest(directory)
    return step


def layer_file(directory) -> str:
    name = manifest(directory)["file"].split(" ")[0]
    return os.path.join(directory, name)


@pytest.mark.parametrize(
    ("size", "start"),
    [((5, 5), "all"), pytest.param((6, 6), "all", marks=pytest.mark.slow), ((5, 6), (0, 0))],
)
def test_a_checkpointed_count_is_the_count_and_a_rerun_returns_at_once(size, start, tmp_path):
    rows, cols = size
    directory = tmp_path / "ckpt"  # made if missing
    want = PUBLISHED.get(size) or solvers.count_tours(rows, cols, start=start, method="frontier")
    got = solvers.count_tours(rows, cols, start=start, method="frontier", checkpoint=directory)
    assert got == want
    assert "done" in manifest(directory)
    assert os.listdir(directory) == ["manifest"]  # the layer files went with the answer
    before = (directory / "manifest").read_bytes()
    reports = []
    first = None if start == "all" else start
    run = _core.RunOptions(
        1,
        lambda done, total: reports.append((done, total)),
        memory=2**20,
        checkpoint=str(directory),
    )
    high, low, *_ = _core.count_tours_frontier((rows, cols, None), first, False, run)
    assert high << 128 | low == want
    assert all(done == total for done, total in reports if total), reports  # no step counted
    assert (directory / "manifest").read_bytes() == before


@pytest.mark.slow
def test_a_count_killed_mid_layer_resumes_from_its_last_layer(tmp_path):
    directory = tmp_path / "ckpt"
    program = (
        "import solvers; solvers.count_tours(6, 6, start='all', method='frontier', "
        f"threads=2, checkpoint={str(directory)!r})"
    )
    kill_once(program, lambda: saved_step(directory) >= 14, wait=120)
    killed_at = saved_step(directory)
    assert 14 <= killed_at < 35, manifest(directory)
    # Resumed in this process, with another thread count and a memory budget
    # that spills the widest layers (the first run had none).
    reports = []
    run = _core.RunOptions(
        1,
        lambda done, total: reports.append((done, total)),
        memory=64 * 2**20,
        checkpoint=str(directory),
    )
    high, low, *_ = _core.count_tours_frontier((6, 6, None), None, False, run)
    assert high << 128 | low == PUBLISHED[6, 6]
    started = [done for done, total in reports if total]
    assert started and started[0] > killed_at, reports[:3]  # not from step 0
    assert "done" in manifest(directory)
    assert (
        solvers.count_tours(6, 6, start="all", method="frontier", checkpoint=directory)
        == (PUBLISHED[6, 6])
    )


def test_a_truncated_layer_file_is_refused(tmp_path):
    stopped(tmp_path)
    path = layer_file(tmp_path)
    with open(path, "r+b") as f:
        f.truncate(os.path.getsize(path) - 1)
    with pytest.raises(ValueError, match="truncated"):
        solvers.count_tours(6, 7, start="all", method="frontier", checkpoint=tmp_path)


def test_an_altered_layer_file_is_refused(tmp_path):
    stopped(tmp_path)
    path = layer_file(tmp_path)
    data = bytearray(open(path, "rb").read())
    data[len(data) // 2] ^= 0x01
    with open(path, "wb") as f:
        f.write(data)
    with pytest.raises(ValueError, match=r"layer-\d+\.bin .*cannot be used"):
        solvers.count_tours(6, 7, start="all", method="frontier", checkpoint=tmp_path)


def test_an_altered_manifest_is_refused(tmp_path):
    step = stopped(tmp_path)
    text = (tmp_path / "manifest").read_text()
    (tmp_path / "manifest").write_text(text.replace(f"step {step}\n", f"step {step - 1}\n"))
    with pytest.raises(ValueError, match="checksum"):
        solvers.count_tours(6, 7, start="all", method="frontier", checkpoint=tmp_path)


def test_a_checkpoint_of_another_count_is_refused(tmp_path):
    stopped(tmp_path)
    for other in [
        dict(rows=6, cols=7, start=(0, 0)),
        dict(rows=5, cols=7, start="all"),
        dict(board="#......\n" + ".......\n" * 5, start="all"),
    ]:
        with pytest.raises(ValueError, match="another count"):
            solvers.count_tours(method="frontier", checkpoint=tmp_path, **other)
    # A finished count's directory too (5x6: a closed 5x5 count is 0 at
    # once, with no sweep and no checkpoint).
    done = tmp_path / "done"
    want = solvers.count_tours(5, 6, start="all", method="frontier")
    assert solvers.count_tours(5, 6, start="all", method="frontier", checkpoint=done) == want
    for other in [dict(start="all", closed=True), dict(start=(0, 0))]:
        with pytest.raises(ValueError, match="another count"):
            solvers.count_tours(5, 6, method="frontier", checkpoint=done, **other)


def test_bad_checkpoint_arguments_are_refused(tmp_path):
    a_file = tmp_path / "a.sqlite"
    a_file.write_text("")
    with pytest.raises(ValueError, match="a.sqlite.* is a file, not a directory"):
        solvers.count_tours(5, 5, method="frontier", checkpoint=a_file)
    with pytest.raises(ValueError, match="NUL"):
        solvers.count_tours(5, 5, method="frontier", checkpoint=str(tmp_path) + "/x\0y")
    with pytest.raises(ValueError, match="directory"):
        solvers.count_tours(5, 5, method="frontier", checkpoint="")
    with pytest.raises(TypeError, match="directory path"):
        solvers.count_tours(5, 5, method="frontier", checkpoint=3)
    with pytest.raises(TypeError, match="directory path"):
        solvers.count_tours(5, 5, method="frontier", checkpoint=os.fsencode(tmp_path))


def test_the_frontier_on_an_executor_takes_no_checkpoint(tmp_path):
    # (On an executor the frontier passes its layers on through partition
    # files: see test_frontier_dist.py.)
    with (
        ThreadPoolExecutor(1) as pool,
        pytest.raises(ValueError, match="does not take executor= and checkpoint= together"),
    ):
        solvers.count_tours(5, 5, method="frontier", executor=pool, checkpoint=tmp_path / "ckpt")
    assert not (tmp_path / "ckpt").exists()


def test_auto_and_search_keep_their_ledger_in_the_checkpoint_directory(tmp_path):
    path = tmp_path / "plan"
    assert solvers.count_tours(5, 5, start="all", checkpoint=path) == 1728
    assert (path / LEDGER_NAME).is_file()  # the search's SQLite ledger, in the directory
    assert solvers.count_tours(5, 5, start="all", checkpoint=path, method="search") == 1728


def test_auto_counts_a_board_past_the_search_with_a_checkpoint(tmp_path):
    # past 64 cells the search cannot count: auto takes the frontier, which
    # takes a checkpoint too
    want = solvers.count_tours(4, 40, start=(3, 0))
    assert solvers.count_tours(4, 40, start=(3, 0), checkpoint=tmp_path / "c") == want
    assert "done" in manifest(tmp_path / "c")


def test_an_old_checkpoint_file_still_resumes_with_a_warning(tmp_path):
    old = tmp_path / "plan.sqlite"
    solvers.count_tours(5, 5, start="all", checkpoint=tmp_path / "new")
    (tmp_path / "new" / LEDGER_NAME).rename(old)  # a file as the old releases wrote it
    with pytest.warns(DeprecationWarning, match="give a directory"):
        assert solvers.count_tours(5, 5, start="all", checkpoint=old) == 1728
