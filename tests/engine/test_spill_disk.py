"""The plain call and the disk (issue 30): without ``memory=`` a layered count
keeps to the budget of ``memory="auto"`` and spills past it, in every family;
``spill=False`` keeps every layer in memory; spilled layers are refused,
before they are written, where the spill directory's disk has no room for
them (``OSError``, errno ``ENOSPC``, naming the figures); and the progress
bar says when layers spill.

The refusal is tested twice: on a real 2 MiB tmpfs (needs root and
``mount``; skipped elsewhere) and, everywhere, through the core's private
hook ``_SOLVERS_FAKE_FREE_DISK`` (bytes free, for the tests only: see
``src/layers/spill/budget.rs``).  The plain call under an address-space
limit is in ``knights/test_spill.py`` and ``peg/test_spill.py`` (slow).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import solvers
from solvers import PegBoard, RunOptions, _core
from solvers._engine import _args, _progress, _validate
from solvers.peg import dp
from solvers.peg.calls import dp_driver

#: The core's private hook that fakes the free bytes of the spill disk.
FAKE_FREE = "_SOLVERS_FAKE_FREE_DISK"

#: Directed open tours of 6x6 from every square (OEIS A165134); within
#: 1 MiB the frontier spills its wider steps (276,247 states at the widest).
TOURS_6X6 = 6637920


def spilled_6x6(tmp_path, **options):
    return solvers.count_tours(
        6, 6, start="all", method="frontier", memory="1MiB", spill=tmp_path, **options
    )


# ------------------------------------------------------- what memory=None means


def test_no_memory_means_the_automatic_budget():
    assert _args.budget_of(None, None) == _args.AUTO
    assert _args.budget_of(" Auto ", None) == _args.AUTO
    assert _args.budget_of("1MiB", None) == 2**20
    # Resolved by the core (its memory::auto_budget, whose Rust test holds the
    # case of a platform that does not tell the memory available).
    for memory in ("default", "auto"):
        budget = _core.RunOptions(memory=memory).budget
        assert _validate.MIN_MEMORY <= budget <= _core.available_memory()
    assert RunOptions().core().budget == _core.RunOptions(memory="default").budget
    assert RunOptions(spill=False).core().budget is None
    assert RunOptions(memory="1MiB").core().budget == 2**20


def test_the_peg_family_reads_memory_the_same_way():
    board = PegBoard.rectangle(3, 4)
    group = board.symmetries_fixing(0)

    def driver(**options):
        return dp_driver(board, group, RunOptions(threads=1, **options))

    plain, kept, budgeted = driver(), driver(spill=False), driver(memory="1MiB")
    try:
        assert isinstance(plain, dp.Budgeted) and plain.spill.memory >= _validate.MIN_MEMORY
        assert isinstance(kept, dp.Local)
        assert isinstance(budgeted, dp.Budgeted) and budgeted.spill.memory == 2**20
    finally:
        for each in (plain, kept, budgeted):
            each.close()
    answer = solvers.count_peg_solutions(board, start=(0, 0), finish=(0, 3))
    assert answer == 432
    assert solvers.count_peg_solutions(board, start=(0, 0), finish=(0, 3), spill=False) == 432


def test_spill_false_keeps_every_layer_in_memory(tmp_path):
    assert solvers.count_tours(5, 5, start="all", method="frontier", spill=False) == 1728
    # Any method takes it (one that writes no layers never spills): the
    # search still counts 5x5 from a corner.
    assert solvers.count_tours(5, 5, start=(0, 0), method="search", spill=False) == 304
    with pytest.raises(ValueError, match="spill=False keeps every layer in memory with no budget"):
        solvers.count_tours(5, 5, method="frontier", memory="1GB", spill=False)
    with pytest.raises(ValueError, match="spill=False keeps every layer in memory with no budget"):
        solvers.count_peg_solutions(
            PegBoard.rectangle(3, 4), start=(0, 0), memory="1GB", spill=False
        )
    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="not with executor="):
        solvers.count_tours(5, 5, method="frontier", executor=pool, spill=False)
    with pytest.raises(TypeError, match="or False for no files"):
        solvers.count_tours(5, 5, method="frontier", spill=True)


def test_a_checkpoint_kept_in_memory_is_the_layer_files(tmp_path):
    board = PegBoard.rectangle(3, 4)
    kwargs = {"start": (0, 0), "finish": (0, 3), "checkpoint": tmp_path}
    assert solvers.count_peg_solutions(board, spill=False, **kwargs) == 432
    assert os.listdir(tmp_path) == ["manifest"]  # the answer: the layers are done with
    # Called again plainly (within a budget): the same store, the answer read back.
    assert solvers.count_peg_solutions(board, **kwargs) == 432
    assert os.listdir(tmp_path) == ["manifest"]


# ------------------------------------------------------------------- the disk


def refused(error: OSError, directory) -> str:
    """The message of a refusal for want of disk, checked for its figures."""
    assert error.errno == errno.ENOSPC, error
    message = str(error)
    assert "not enough free disk" in message, message
    assert "would be written to" in message and "free" in message, message
    assert str(directory) in message, message
    return message


def test_a_disk_without_room_is_refused_with_the_figures(monkeypatch, tmp_path):
    monkeypatch.setenv(FAKE_FREE, "100000")
    with pytest.raises(OSError) as info:
        spilled_6x6(tmp_path)
    message = refused(info.value, tmp_path)
    assert "frontier count's tables at step" in message
    assert "97.7 KiB free" in message
    # Refused before the first file: the spill directory was never made.
    assert f"written to {tmp_path}, which" in message
    assert os.listdir(tmp_path) == []
    with pytest.raises(OSError) as info:
        solvers.count_peg_solutions(PegBoard.english(), start=(3, 3), memory="1MiB", spill=tmp_path)
    refused(info.value, tmp_path)
    assert os.listdir(tmp_path) == []
    # A count that fits its budget never looks at the disk.
    monkeypatch.setenv(FAKE_FREE, "0")
    assert solvers.count_tours(5, 5, start="all", method="frontier", spill=tmp_path) == 1728


@pytest.mark.slow  # seconds: the quick run stays under 3 minutes
def test_a_count_that_cannot_fit_is_refused_before_it_gets_there(monkeypatch, tmp_path):
    # 6x8 closed within 1 MiB spills its wide steps.  Past the board's
    # middle the next three steps are projected by the growth of their
    # squares one sweep column before, and the count is refused as soon as
    # half of a projected step does not fit: with 4 MB free before step 26,
    # while with twice that the step's own check refuses only step 28.
    def count(free: int) -> int:
        monkeypatch.setenv(FAKE_FREE, str(free))
        return solvers.count_tours(
            6, 8, closed=True, start="all", method="frontier", memory="1MiB", spill=tmp_path
        )

    with pytest.raises(OSError) as info:
        count(8_000_000)
    late = refused(info.value, tmp_path)
    step = int(re.search(r"tables at step (\d+) of 48, after \d+ states", late).group(1))
    with pytest.raises(OSError) as info:
        count(4_000_000)
    early = refused(info.value, tmp_path)
    projected = re.search(r"at step (\d+) of 48, projected before step (\d+) to make", early)
    assert projected, early
    assert int(projected.group(2)) < step
    assert "half the projection is counted" in early
    assert os.listdir(tmp_path) == []
    # A disk that holds the count is not refused: the projections of
    # 6x8 closed stay within 1.6 times its widest layer.
    monkeypatch.delenv(FAKE_FREE)
    want = solvers.count_tours(6, 8, closed=True, start="all", method="frontier")
    assert count(16_000_000) == want


def test_the_bar_says_a_count_will_not_fit_before_it_is_refused(monkeypatch, tmp_path):
    # The same refusal with progress=True: after each step the bar shows
    # the layer's states and, from the middle on, the widest step projected
    # ahead; where the whole projection (not half) does not fit, it says to
    # expect a refusal, a step or more before the count is refused.
    notes: list[str] = []
    monkeypatch.setattr(_progress.ProgressBar, "note", lambda bar, text: notes.append(text))
    monkeypatch.setenv(FAKE_FREE, "4000000")
    with pytest.raises(OSError) as info:
        solvers.count_tours(
            6, 8, closed=True, start="all", method="frontier", memory="1MiB", spill=tmp_path,
            progress=True,
        )  # fmt: skip
    refused_before = int(re.search(r"projected before step (\d+)", str(info.value)).group(1))
    steps = [int(re.search(r"states after step (\d+) of 48", note).group(1)) for note in notes]
    assert steps and steps == sorted(steps), notes
    warned = [s for s, note in zip(steps, notes, strict=True) if "expect a refusal" in note]
    assert warned and warned[0] < refused_before - 1, notes
    projected = [note for note in notes if "projected at" in note]
    assert projected and all(s >= 24 for s, n in zip(steps, notes, strict=True) if n in projected)
    # A count that fits says nothing of the kind.
    notes.clear()
    monkeypatch.delenv(FAKE_FREE)
    solvers.count_tours(6, 7, closed=True, start="all", method="frontier", progress=True)
    assert notes and not any("refusal" in note for note in notes), notes


def test_an_executor_s_partition_files_are_refused_too(monkeypatch, tmp_path):
    monkeypatch.setenv(FAKE_FREE, "1000")
    with ThreadPoolExecutor(1) as pool:
        with pytest.raises(OSError) as info:
            solvers.count_tours(5, 5, start="all", method="frontier", executor=pool, spill=tmp_path)
        assert "a round's partition file" in refused(info.value, tmp_path)
        board = PegBoard.triangle(5)
        with pytest.raises(OSError) as info:
            solvers.count_peg_solutions(board, start=(0, 0), executor=pool, spill=tmp_path)
        assert "a peg piece file" in refused(info.value, tmp_path)
    assert os.listdir(tmp_path) == []


@contextlib.contextmanager
def small_filesystem(path, size: str):
    """A tmpfs of ``size`` mounted at ``path`` (skipped unless root can mount it)."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root and mount on Linux")
    path.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


def test_a_small_filesystem_is_refused_before_any_file_is_written(tmp_path, monkeypatch):
    monkeypatch.delenv(FAKE_FREE, raising=False)
    with small_filesystem(tmp_path / "small", "2m") as small:
        # Within 8 MiB, 6x6 first spills at a step of about 13 MiB: refused
        # then, its spill directory never made; nothing left behind.
        with pytest.raises(OSError) as info:
            solvers.count_tours(6, 6, start="all", method="frontier", memory="8MiB", spill=small)
        message = refused(info.value, small)
        assert f"written to {small}, which" in message
        assert os.listdir(small) == []
        # Within 1 MiB the first spilled steps fit; a later one is refused
        # before it fills the disk, and the files written go with the count.
        with pytest.raises(OSError) as info:
            solvers.count_tours(6, 6, start="all", method="frontier", memory="1MiB", spill=small)
        refused(info.value, small)
        assert os.listdir(small) == []


# -------------------------------------------------------------------- the bar


@pytest.mark.slow  # seconds: the quick run stays under 3 minutes
def test_the_bar_says_when_layers_spill(monkeypatch, tmp_path):
    notes: list[str] = []
    monkeypatch.setattr(_progress.ProgressBar, "note", lambda self, text: notes.append(text))
    assert spilled_6x6(tmp_path, progress=True) == TOURS_6X6
    spilling = [note for note in notes if "spilling:" in note]
    assert spilling, notes
    last = spilling[-1]
    assert re.match(r"[\d,]+ states after step \d+ of 36; spilling: ", last), last
    assert " written to " in last, last
    assert str(tmp_path) in last and last.endswith(" free"), last
    notes.clear()
    # The 5x5 peg square from a corner: about 10 MB of layers.
    board = PegBoard.rectangle(5, 5)
    answer = solvers.finish_counts(
        board, start=(0, 0), memory="1MiB", spill=tmp_path, progress=True
    )
    assert answer == solvers.finish_counts(board, start=(0, 0), spill=False)
    spilling = [note for note in notes if "spilling:" in note]
    assert spilling, notes
    assert "GB written to" in spilling[-1] and spilling[-1].endswith("GB free"), spilling[-1]


# ------------------------------------------------------------ the command line


def test_the_command_line_says_no_spill(capsys):
    from test_cli import run, usage_error

    code, out, _ = run(
        capsys, "tours", "5", "5", "--start", "all", "--method", "frontier", "--no-spill"
    )
    assert (code, out.strip()) == (0, "1728")
    code, out, _ = run(capsys, "peg", "triangle:5", "--start", "0,0", "--no-spill")
    assert (code, out.strip()) == (0, "6816")  # as in peg/test_spill.py
    err = usage_error(
        capsys, "tours", "5", "5", "--method", "frontier", "--no-spill", "--memory", "1GB"
    )
    assert "not with memory=" in err
    assert "not with --spill" in usage_error(
        capsys, "tours", "5", "5", "--no-spill", "--spill", "."
    )
    assert "--no-spill" in usage_error(capsys, "tours", "5", "5", "--find", "--no-spill")
