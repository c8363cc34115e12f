"""Checkpoints that cannot lie, one run per checkpoint, and clear errors
(issue 46).

Every checkpoint format is damaged at random (random bytes, random rows,
truncated, records or files swapped, records and files brought from another
problem's checkpoint) and the count run again: it either refuses with a
``ValueError`` naming the file, or gives the true total (counted without a
checkpoint), never another number.  The formats: the SQLite ledger of the
subproblem counts (queens, cover, knights' search) and of the figures of a
count of every peg game, the frontier's layer checkpoint (manifest and layer
file), a peg count's layer files (kept in memory or within a budget, one
store), and the executors' partition files (damaged between rounds).

Then the lock (in subprocesses): a second count on a checkpoint in use is
refused at once naming the process that holds it, from the API and the CLI,
and a holder killed with SIGKILL blocks nothing.  Then a checkpoint directory
this user may not write (a child dropped to uid 65534 where the tests run as
root), and a ledger on a full disk (a tiny tmpfs: root only).
"""

from __future__ import annotations

import contextlib
import errno
import glob
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import solvers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solvers import PegBoard, _core
from solvers._engine._args import LEDGER_NAME
from solvers._engine._checkpoint import Lock
from solvers.distributed import CheckpointInUse
from solvers.knights import frontier_dist
from solvers.peg import dist as peg_dist
from solvers.peg import dp

POSIX = sys.platform != "win32"

#: Words of SQLite's, pyo3's or Python's own that must never reach a user.
RAW = ("sqlite3", "database disk image", "no such column", "no such table", "constraint",
       "file is not a database", "PyErr", "panicked", "Traceback", "_core")  # fmt: skip

#: Shared by every hypothesis test here: quick, and a fresh copy per example.
QUICK = settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def clean(message: str) -> str:
    for word in RAW:
        assert word not in message, message
    return message


def outcome(call, true, place) -> str:
    """Run ``call``: a ``ValueError`` naming ``place`` ("refused"), or the
    true total ("true"); anything else fails the test."""
    try:
        got = call()
    except ValueError as error:
        message = clean(str(error))
        assert str(place) in message, message
        return "refused"
    assert got == true, f"a damaged checkpoint gave {got!r}, the count is {true!r}"
    return "true"


def fresh_copy(pristine: Path, base: Path) -> Path:
    """A copy of the checkpoint directory ``pristine``, new for one example."""
    target = Path(tempfile.mkdtemp(dir=base)) / "ckpt"
    shutil.copytree(pristine, target)
    return target


# Damage done to any file: a random byte altered, the file cut short.


def flip_byte(path: Path, rng: random.Random) -> None:
    data = bytearray(path.read_bytes())
    if data:
        at = rng.randrange(len(data))
        data[at] ^= rng.randrange(1, 256)
        path.write_bytes(bytes(data))


def truncate(path: Path, rng: random.Random) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: rng.randrange(len(data) + 1)])


# ------------------------------------------------------ the SQLite ledgers


@contextlib.contextmanager
def opened(path: Path):
    db = sqlite3.connect(path, isolation_level=None)
    try:
        yield db
    finally:
        db.close()  # the last connection: its WAL goes into the file


def rows_of(db) -> list[tuple]:
    return db.execute("SELECT idx, count, run, mac FROM results ORDER BY idx").fetchall()


def alter_count(path, other, rng):
    with opened(path) as db:
        rows = rows_of(db)
        if rows:
            idx, count, _, _ = rng.choice(rows)
            new = str(max(0, int(count) + rng.choice([1, -1, 2, 7, 10**9])))
            db.execute("UPDATE results SET count = ? WHERE idx = ?", (new, idx))


def swapping(column, at):
    """A tamper that swaps ``column`` (a row's field ``at``) between two rows."""

    def swap(path, other, rng):
        with opened(path) as db:
            rows = rows_of(db)
            if len(rows) > 1:
                first, second = rng.sample(rows, 2)
                change = f"UPDATE results SET {column} = ? WHERE idx = ?"
                db.execute(change, (second[at], first[0]))
                db.execute(change, (first[at], second[0]))

    swap.__name__ = f"swap_{column}"
    return swap


swap_counts = swapping("count", 1)


def swap_places(path, other, rng):
    with opened(path) as db:
        rows = rows_of(db)
        if len(rows) > 1:
            (i, *_), (j, *_) = rng.sample(rows, 2)
            db.execute("UPDATE results SET idx = -1 WHERE idx = ?", (i,))
            db.execute("UPDATE results SET idx = ? WHERE idx = ?", (i, j))
            db.execute("UPDATE results SET idx = ? WHERE idx = -1", (j,))


swap_checks = swapping("mac", 3)


def blank_check(path, other, rng):
    with opened(path) as db:
        rows = rows_of(db)
        if rows:
            value = rng.choice(["", "0" * 32, "x"])
            db.execute("UPDATE results SET mac = ? WHERE idx = ?", (value, rng.choice(rows)[0]))


def drop_checks(path, other, rng):
    with opened(path) as db:
        db.execute("ALTER TABLE results DROP COLUMN mac")


def foreign_row(path, other, rng):
    """A row of another problem's ledger, put in the place it had there."""
    with opened(other) as db:
        theirs = rows_of(db)
    if not theirs:
        return
    with opened(path) as db:
        idx, count, run, mac = rng.choice(theirs)
        db.execute("DELETE FROM results WHERE idx = ?", (idx,))
        db.execute("INSERT INTO results VALUES (?, ?, ?, ?)", (idx, count, run, mac))


def foreign_rows_as_ours(path, other, rng):
    """Another problem's ledger with this problem's name and split."""
    with opened(path) as db:
        meta = db.execute("SELECT key, value FROM meta").fetchall()
    shutil.copyfile(other, path)
    with opened(path) as db:
        db.executemany("UPDATE meta SET value = ? WHERE key = ?", [(v, k) for k, v in meta])


def foreign_file(path, other, rng):
    shutil.copyfile(other, path)


def delete_rows(path, other, rng):
    """Not damage: results lost are counted again."""
    with opened(path) as db:
        for idx, *_ in rows_of(db):
            if rng.random() < 0.5:
                db.execute("DELETE FROM results WHERE idx = ?", (idx,))


def ledger_bytes(path, other, rng):
    flip_byte(path, rng)


def ledger_truncated(path, other, rng):
    truncate(path, rng)


LEDGER_DAMAGE = [
    alter_count, swap_counts, swap_places, swap_checks, blank_check, drop_checks,
    foreign_row, foreign_rows_as_ours, foreign_file, delete_rows, ledger_bytes,
    ledger_truncated,
]  # fmt: skip


#: The subproblem counts: (call with a checkpoint, another problem's call).
SEARCHES = {
    "queens": (
        lambda d: solvers.count_queens(9, checkpoint=d),
        lambda d: solvers.count_queens(8, checkpoint=d),
    ),
    "cover": (
        lambda d: solvers.count_covers(
            solvers.LangfordPairs(7).exact_cover(), method="search", checkpoint=d
        ),
        lambda d: solvers.count_covers(
            solvers.LangfordPairs(8).exact_cover(), method="search", checkpoint=d
        ),
    ),
    "knights": (
        lambda d: solvers.count_tours(5, 5, method="search", checkpoint=d),
        lambda d: solvers.count_tours(5, 5, start="all", method="search", checkpoint=d),
    ),
}
TRUE_SEARCH = {"queens": 352, "cover": 52, "knights": 304}


@pytest.fixture(scope="module")
def search_ledgers(tmp_path_factory):
    """For each family, a finished checkpoint and another problem's ledger."""
    base = tmp_path_factory.mktemp("search")
    made = {}
    for family, (count, other) in SEARCHES.items():
        assert count(base / family) == TRUE_SEARCH[family]
        other(base / f"{family}-other")
        made[family] = (base / family, base / f"{family}-other" / LEDGER_NAME)
    return base, made


@pytest.mark.parametrize("family", sorted(SEARCHES))
@QUICK
@given(
    damage=st.lists(
        st.tuples(st.sampled_from(LEDGER_DAMAGE), st.integers(0, 2**32)), min_size=1, max_size=3
    )
)
def test_a_damaged_search_ledger_is_refused_or_recounted(search_ledgers, family, damage):
    base, made = search_ledgers
    pristine, other = made[family]
    directory = fresh_copy(pristine, base)
    try:
        for how, seed in damage:
            # An earlier damage may have broken the file (or the text of a row).
            with contextlib.suppress(sqlite3.DatabaseError, UnicodeDecodeError):
                how(directory / LEDGER_NAME, other, random.Random(seed))
        count = SEARCHES[family][0]
        outcome(lambda: count(str(directory)), TRUE_SEARCH[family], directory)
    finally:
        shutil.rmtree(directory.parent)


def test_the_issue_s_case_is_refused(tmp_path):
    # count_covers with checkpoint=, a count edited by hand: 1,473 before.
    problem = solvers.TilingPuzzle((3, 20), "pentominoes").exact_cover()
    want = solvers.count_covers(problem, method="search", checkpoint=tmp_path)
    with opened(tmp_path / LEDGER_NAME) as db:
        db.execute("UPDATE results SET count = '16' WHERE idx = 0")
    with pytest.raises(ValueError, match=r"is corrupt: the result of subproblem 0 does not match"):
        solvers.count_covers(problem, method="search", checkpoint=tmp_path)
    with opened(tmp_path / LEDGER_NAME) as db:
        db.execute("DELETE FROM results WHERE idx = 0")
    assert solvers.count_covers(problem, method="search", checkpoint=tmp_path) == want


# ---------------------------------------------- the figures of every peg game

TRIANGLE = PegBoard.triangle(5)


def peg_count(directory):
    return solvers.count_peg_solutions(
        TRIANGLE, start=(0, 0), finish=(3, 0), spill=False, checkpoint=directory
    )


def peg_other(directory):
    return solvers.count_peg_solutions(
        TRIANGLE, start=(0, 0), finish=(4, 2), spill=False, checkpoint=directory
    )


def peg_games(directory):
    return solvers.count_peg_games(TRIANGLE, start=(0, 0), spill=False, checkpoint=directory)


def stopped_in_memory(count, directory, after: int) -> None:
    """Run ``count`` into ``directory`` and stop it after ``after`` layers."""
    step, taken = dp.Local.step, []

    def stopping(self, side, name, tally=None):
        taken.append(name)
        if len(taken) > after:
            raise KeyboardInterrupt
        return step(self, side, name, tally)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dp.Local, "step", stopping)
        with pytest.raises(KeyboardInterrupt):
            count(directory)


def peg_games_other(directory):
    return solvers.count_peg_games(TRIANGLE, start=(2, 1), spill=False, checkpoint=directory)


@pytest.fixture(scope="module")
def peg_ledgers(tmp_path_factory):
    """Finished and stopped ledgers of a count of every game (its figures),
    and those of another start.  The layers beside them are the core's
    layer files, damaged below with a peg count's."""
    base = tmp_path_factory.mktemp("peg")
    true = peg_games(base / "fresh")
    stopped_in_memory(peg_games, base / "stopped", 4)
    peg_games_other(base / "other")
    stopped_in_memory(peg_games_other, base / "other-stopped", 4)
    made = {
        "finished": (base / "fresh", base / "other"),
        "stopped": (base / "stopped", base / "other-stopped"),
    }
    return base, true, made


@pytest.mark.parametrize("kind", ["finished", "stopped"])
@QUICK
@given(
    damage=st.lists(
        st.tuples(st.sampled_from(LEDGER_DAMAGE), st.integers(0, 2**32)), min_size=1, max_size=3
    )
)
def test_a_damaged_games_ledger_is_refused_or_recounted(peg_ledgers, kind, damage):
    base, true, made = peg_ledgers
    pristine, other = made[kind]
    directory = fresh_copy(pristine, base)
    try:
        for how, seed in damage:
            # An earlier damage may have broken the file (or the text of a row).
            with contextlib.suppress(sqlite3.DatabaseError, UnicodeDecodeError):
                how(directory / LEDGER_NAME, other / LEDGER_NAME, random.Random(seed))
        outcome(lambda: peg_games(str(directory)), true, directory)
    finally:
        shutil.rmtree(directory.parent)


# ------------------------------------------- the frontier's layer checkpoint

FRONTIER = (5, 6)  # 37,568 tours from every square, 0.1 s; 10 KB at step 13


def frontier(directory, start="all"):
    return solvers.count_tours(*FRONTIER, start=start, method="frontier", checkpoint=directory)


def stopped_frontier(directory, start=None, at=13, size=FRONTIER) -> None:
    """Stop a frontier count into ``directory`` once step ``at`` is saved
    (at that step whatever the clock: a progress callback that raises is
    heard only between the waits of 20 ms, after a small count is done)."""
    with pytest.raises(RuntimeError, match="cancelled"):
        run = _core.RunOptions(1, checkpoint=str(directory), stop_after=at)
        _core.count_tours_frontier((*size, None), start, False, run)
    assert f"\nstep {at - 1}\n" in (directory / "manifest").read_text()


MASK = (1 << 64) - 1


def manifest_checksum(text: str) -> int:
    """The manifest's checksum, as ``src/layers/checkpoint.rs`` computes it."""
    state = 0x243F_6A88_85A3_08D3
    for byte in text.encode():
        state = ((state ^ byte) * 0x9E37_79B9_7F4A_7C15) & MASK
        state = ((state << 27) | (state >> 37)) & MASK
    return state


def signed(lines: list[str]) -> str:
    text = "".join(line + "\n" for line in lines)
    return text + f"checksum {manifest_checksum(text):016x}\n"


def manifest_lines(directory: Path) -> list[str]:
    lines = (directory / "manifest").read_text().splitlines()
    assert lines[-1].startswith("checksum ")
    assert signed(lines[:-1]) == (directory / "manifest").read_text()  # the checksum as Rust's
    return lines[:-1]


def layer_path(directory: Path) -> Path | None:
    found = sorted(directory.glob("layer-*.bin"))
    return found[0] if found else None


def frontier_manifest_bytes(directory, other, rng):
    flip_byte(directory / "manifest", rng)


def frontier_manifest_truncated(directory, other, rng):
    truncate(directory / "manifest", rng)


def frontier_layer_bytes(directory, other, rng):
    if (path := layer_path(directory)) is not None:
        flip_byte(path, rng)


def frontier_layer_truncated(directory, other, rng):
    if (path := layer_path(directory)) is not None:
        truncate(path, rng)


def frontier_records_swapped(directory, other, rng):
    """Two shards' records swapped in the layer file, and the manifest made
    to say so, its checksum computed again: each record names its shard."""
    path = layer_path(directory)
    if path is None:
        return
    lines = manifest_lines(directory)
    shards = [(n, line.split()) for n, line in enumerate(lines) if line.startswith("shard ")]
    data = path.read_bytes()
    spans = []
    for k, (_, words) in enumerate(shards):
        end = int(shards[k + 1][1][2]) if k + 1 < len(shards) else len(data)
        spans.append((int(words[2]), end, int(words[3])))
    i, j = rng.sample(range(len(spans)), 2)
    order = list(range(len(spans)))
    order[i], order[j] = order[j], order[i]
    out, offset = bytearray(), 0
    for k, source in enumerate(order):
        start, end, entries = spans[source]
        lines[shards[k][0]] = f"shard {k} {offset} {entries}"
        out += data[start:end]
        offset += end - start
    path.write_bytes(bytes(out))
    (directory / "manifest").write_text(signed(lines))


def frontier_foreign_layer(directory, other, rng):
    """Another count's layer file at the same step, under this one's name."""
    ours, theirs = layer_path(directory), layer_path(other)
    if ours is not None and theirs is not None:
        shutil.copyfile(theirs, ours)


def frontier_foreign_directory(directory, other, rng):
    shutil.rmtree(directory)
    shutil.copytree(other, directory)


def frontier_file_gone(directory, other, rng):
    victim = rng.choice(sorted(directory.iterdir()))
    victim.unlink()


FRONTIER_DAMAGE = [
    frontier_manifest_bytes, frontier_manifest_truncated, frontier_layer_bytes,
    frontier_layer_truncated, frontier_records_swapped, frontier_foreign_layer,
    frontier_foreign_directory, frontier_file_gone,
]  # fmt: skip


@pytest.fixture(scope="module")
def frontier_checkpoints(tmp_path_factory):
    base = tmp_path_factory.mktemp("frontier")
    true = solvers.count_tours(*FRONTIER, start="all", method="frontier")
    stopped_frontier(base / "stopped")
    stopped_frontier(base / "earlier", at=12)
    stopped_frontier(base / "corner", start=(0, 0))  # another count, the same step
    stopped_frontier(base / "6x5", size=(6, 5))
    assert frontier(base / "finished") == true
    made = {
        "stopped": (base / "stopped", base / "corner"),
        "stopped-6x5": (base / "stopped", base / "6x5"),
        "finished": (base / "finished", base / "corner"),
        "earlier": (base / "earlier", base / "stopped"),  # a later layer of its own count
    }
    return base, true, made


@pytest.mark.parametrize("kind", ["stopped", "stopped-6x5", "finished", "earlier"])
@QUICK
@given(
    damage=st.lists(
        st.tuples(st.sampled_from(FRONTIER_DAMAGE), st.integers(0, 2**32)),
        min_size=1,
        max_size=2,
    )
)
def test_a_damaged_frontier_checkpoint_is_refused_or_recounted(frontier_checkpoints, kind, damage):
    base, true, made = frontier_checkpoints
    pristine, other = made[kind]
    directory = fresh_copy(pristine, base)
    try:
        for how, seed in damage:
            if directory.is_dir() and any(directory.iterdir()):
                with contextlib.suppress(FileNotFoundError, AssertionError, ValueError):
                    how(directory, other, random.Random(seed))
        outcome(lambda: frontier(str(directory)), true, directory)
    finally:
        shutil.rmtree(directory.parent)


def test_an_earlier_layer_of_the_same_count_is_read_as_such(frontier_checkpoints):
    # Not damage: an older checkpoint of the same count (a backup) resumes.
    base, true, made = frontier_checkpoints
    directory = fresh_copy(made["earlier"][0], base)
    assert frontier(str(directory)) == true


# ------------------------------------------ a budgeted peg count's layer files


def peg_budgeted(directory, finish=(3, 0)):
    return solvers.count_peg_solutions(
        TRIANGLE, start=(0, 0), finish=finish, memory="1MiB", checkpoint=directory
    )


def stopped_budgeted(directory, finish=(3, 0), after=4) -> None:
    expand, calls = dp.Budgeted.expand, []

    def stopping(self, side, name):
        calls.append(name)
        if len(calls) > after:
            raise KeyboardInterrupt
        return expand(self, side, name)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dp.Budgeted, "expand", stopping)
        with pytest.raises(KeyboardInterrupt):
            peg_budgeted(directory, finish)


def any_file(directory: Path, rng) -> Path | None:
    files = sorted(p for p in directory.rglob("*") if p.is_file())
    return rng.choice(files) if files else None


def budgeted_bytes(directory, other, rng):
    if (path := any_file(directory, rng)) is not None:
        flip_byte(path, rng)


def budgeted_truncated(directory, other, rng):
    if (path := any_file(directory, rng)) is not None:
        truncate(path, rng)


def budgeted_foreign_layer(directory, other, rng):
    ours = sorted(directory.rglob("layer-*.bin"))
    theirs = sorted(other.rglob("layer-*.bin"))
    if ours and theirs:
        shutil.copyfile(rng.choice(theirs), rng.choice(ours))


def budgeted_foreign_manifest(directory, other, rng):
    for path in other.rglob("*"):
        if path.is_file():
            target = directory / path.relative_to(other)
            target.parent.mkdir(exist_ok=True)
            shutil.copyfile(path, target)


def budgeted_sides_swapped(directory, other, rng):
    """The layers of the search from the start and of that from the finish swapped."""
    if (directory / "a").is_dir() and (directory / "b").is_dir():
        (directory / "a").rename(directory / "x")
        (directory / "b").rename(directory / "a")
        (directory / "x").rename(directory / "b")


BUDGETED_DAMAGE = [
    budgeted_bytes, budgeted_truncated, budgeted_foreign_layer, budgeted_foreign_manifest,
    budgeted_sides_swapped,
]  # fmt: skip


@pytest.fixture(scope="module")
def budgeted_checkpoints(tmp_path_factory):
    """The layer files of a peg count within a budget and of one in memory
    (the same files), stopped and finished, and those of another count."""
    base = tmp_path_factory.mktemp("budgeted")
    true = solvers.count_peg_solutions(TRIANGLE, start=(0, 0), finish=(3, 0))
    stopped_budgeted(base / "stopped")
    assert (base / "stopped" / "a").is_dir() and (base / "stopped" / "b").is_dir()
    stopped_budgeted(base / "other", finish=(3, 3))  # another count, as far
    assert peg_budgeted(base / "finished") == true
    stopped_in_memory(peg_count, base / "memory-stopped", 3)
    assert (base / "memory-stopped" / "a").is_dir()
    stopped_in_memory(peg_other, base / "memory-other", 3)
    assert peg_count(base / "memory-finished") == true
    return base, true


LAYER_FILES = {
    "stopped": (peg_budgeted, "other"),
    "finished": (peg_budgeted, "other"),
    "memory-stopped": (peg_count, "memory-other"),
    "memory-finished": (peg_count, "memory-other"),
}


@pytest.mark.parametrize("kind", sorted(LAYER_FILES))
@QUICK
@given(
    damage=st.lists(
        st.tuples(st.sampled_from(BUDGETED_DAMAGE), st.integers(0, 2**32)),
        min_size=1,
        max_size=2,
    )
)
def test_a_damaged_peg_layer_checkpoint_is_refused_or_recounted(budgeted_checkpoints, kind, damage):
    base, true = budgeted_checkpoints
    count, other = LAYER_FILES[kind]
    directory = fresh_copy(base / kind, base)
    try:
        for how, seed in damage:
            how(directory, base / other, random.Random(seed))
        outcome(lambda: count(str(directory)), true, directory)
    finally:
        shutil.rmtree(directory.parent)


def test_a_count_goes_on_from_the_layers_the_other_way_kept(budgeted_checkpoints):
    # In memory or within a budget: one store, so either resumes the other's.
    base, true = budgeted_checkpoints
    for kind, count in [("memory-stopped", peg_budgeted), ("stopped", peg_count)]:
        directory = fresh_copy(base / kind, base)
        try:
            assert count(str(directory)) == true
        finally:
            shutil.rmtree(directory.parent)


# ------------------------------------------------ the executors' partition files


class Tampering(ThreadPoolExecutor):
    """A one-thread pool that damages the round's partition files (those in
    the directory of the round's first task) before its ``at``-th task."""

    def __init__(self, tasks, at: int, damage, rng, when=lambda args: True) -> None:
        super().__init__(1)
        self.tasks, self.at, self.damage, self.rng = tasks, at, damage, rng
        self.when = when  # which tasks count
        self.seen = 0
        self.done = False

    def submit(self, fn, /, *args, **kwargs):
        if fn in self.tasks and not self.done and self.when(args):
            self.seen += 1
            files = self.files(args)
            if self.seen >= self.at and files:
                self.done = True
                self.damage(files, self.rng)
        return super().submit(fn, *args, **kwargs)

    @staticmethod
    def files(args) -> list[Path]:
        for arg in args:
            if isinstance(arg, list):
                for ref in arg:
                    if isinstance(ref, tuple) and ref and isinstance(ref[0], str):
                        folder = os.path.dirname(ref[0])
                        names = glob.glob(os.path.join(folder, "*"))
                        # not the files a running task is still writing (then renames)
                        done = (n for n in names if not n.endswith((".tmp", ".partial")))
                        return sorted(Path(n) for n in done)
        return []


def parts_bytes(files, rng):
    flip_byte(rng.choice(files), rng)


def parts_truncated(files, rng):
    truncate(rng.choice(files), rng)


def parts_exchanged(files, rng):
    """Two files' contents exchanged (each piece still goes to its owner)."""
    if len(files) > 1:
        a, b = rng.sample(files, 2)
        first, second = a.read_bytes(), b.read_bytes()
        a.write_bytes(second)
        b.write_bytes(first)


def parts_removed(files, rng):
    rng.choice(files).unlink()


PARTS_DAMAGE = [parts_bytes, parts_truncated, parts_exchanged]


@QUICK
@given(
    how=st.sampled_from(PARTS_DAMAGE),
    at=st.integers(1, 40),
    parts=st.integers(2, 4),
    seed=st.integers(0, 2**32),
)
def test_damaged_frontier_partition_files_are_refused(tmp_path_factory, how, at, parts, seed):
    spill = tmp_path_factory.mktemp("parts")
    true = 37568
    with Tampering([frontier_dist._round_task], at, how, random.Random(seed)) as pool:
        call = lambda: solvers.count_tours(  # noqa: E731
            *FRONTIER, start="all", method="frontier", executor=pool, parts=parts, spill=spill
        )
        outcome(call, true, spill)


@QUICK
@given(
    how=st.sampled_from(PARTS_DAMAGE),
    at=st.integers(1, 40),
    parts=st.integers(2, 4),
    seed=st.integers(0, 2**32),
)
def test_damaged_peg_partition_files_are_refused(tmp_path_factory, how, at, parts, seed):
    spill = tmp_path_factory.mktemp("parts")
    tasks = [peg_dist._round_task, peg_dist._meet_task]
    with Tampering(tasks, at, how, random.Random(seed)) as pool:
        call = lambda: solvers.count_peg_solutions(  # noqa: E731
            TRIANGLE, start=(0, 0), finish=(3, 0), executor=pool, parts=parts, spill=spill
        )
        outcome(call, 3408, spill)


def copied_over(files, rng):
    """One partition file replaced by a copy of another of the same size."""
    by_size: dict[int, list[Path]] = {}
    for path in files:
        by_size.setdefault(path.stat().st_size, []).append(path)
    same = [paths for paths in by_size.values() if len(paths) > 1]
    assert same, [(p.name, p.stat().st_size) for p in files]
    first, second = same[0][:2]
    second.write_bytes(first.read_bytes())


def test_a_partition_file_copied_over_another_is_refused(tmp_path):
    # 5x6 from a corner on 2 partitions: the two files that round 8 reads
    # are 88 bytes each.  4542 tours; read as 8080.
    true = solvers.count_tours(5, 6, start=(0, 0), method="frontier")
    step_8 = lambda args: args[1] == 8  # noqa: E731 - a task's args: spec, step, ...
    with Tampering([frontier_dist._round_task], 1, copied_over, random.Random(0), step_8) as pool:
        call = lambda: solvers.count_tours(  # noqa: E731
            5, 6, start=(0, 0), method="frontier", executor=pool, parts=2, spill=tmp_path
        )
        assert outcome(call, true, tmp_path) == "refused"


def test_a_peg_partition_file_copied_over_another_is_refused(tmp_path):
    tasks = [peg_dist._round_task, peg_dist._meet_task]
    with Tampering(tasks, 1, copied_over, random.Random(0)) as pool:
        call = lambda: solvers.count_peg_solutions(  # noqa: E731
            TRIANGLE, start=(0, 0), finish=(3, 0), executor=pool, parts=2, spill=tmp_path
        )
        assert outcome(call, 3408, tmp_path) == "refused"


# ------------------------------------------------------------ one run at a time

HOLDER = textwrap.dedent(
    """
    import sys, time
    from solvers._engine._checkpoint import Lock
    lock = Lock(sys.argv[1])
    print("held", flush=True)
    time.sleep(300)
    """
)


@contextlib.contextmanager
def held_by_another_process(place):
    """A child process holding the lock of the checkpoint ``place``."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(place)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout is not None and child.stdout.readline() == "held\n"
        yield child
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=30)


#: A quick count of each family with ``checkpoint=``: the answer.
FAMILIES = {
    "queens": (lambda d: solvers.count_queens(8, checkpoint=d), 92),
    "cover": (
        lambda d: solvers.count_covers(
            solvers.LangfordPairs(7).exact_cover(), method="search", checkpoint=d
        ),
        52,
    ),
    "knights-search": (lambda d: solvers.count_tours(5, 5, method="search", checkpoint=d), 304),
    "knights-frontier": (lambda d: frontier(d), 37568),
    "peg-in-memory": (peg_count, 3408),
    "peg-budgeted": (lambda d: peg_budgeted(d), 3408),
    "peg-games": (lambda d: peg_games(d).won, 29760),
}


@pytest.mark.skipif(not POSIX, reason="POSIX locks and signals")
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_checkpoint_in_use_is_refused_at_once_and_a_killed_holder_blocks_nothing(
    tmp_path, family
):
    count, want = FAMILIES[family]
    directory = tmp_path / "ckpt"
    with held_by_another_process(directory) as holder:
        with pytest.raises(CheckpointInUse) as refused:
            count(str(directory))
        message = clean(str(refused.value))
        assert f"checkpoint directory {str(directory)!r} is in use by process {holder.pid}" in (
            message
        )
        assert isinstance(refused.value, RuntimeError)
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    assert (directory / "lock").exists()  # left by the killed holder: it blocks nothing
    assert count(str(directory)) == want
    assert not (directory / "lock").exists()  # a count removes its lock file as it ends
    assert count(str(directory)) == want  # and a finished count's rerun reads it


@pytest.mark.skipif(not POSIX, reason="POSIX locks")
@pytest.mark.parametrize(
    "command",
    [
        ["queens", "8"],
        ["tours", "5", "6", "--start", "all", "--method", "frontier"],
        ["peg", "triangle:5", "--start", "0,0", "--finish", "3,0"],
    ],
)
def test_the_cli_says_in_one_line_that_the_checkpoint_is_in_use(tmp_path, command):
    with held_by_another_process(tmp_path) as holder:
        done = subprocess.run(
            [sys.executable, "-m", "solvers", *command, "--checkpoint", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 1 and done.stdout == "", done
    (line,) = done.stderr.splitlines()
    assert line.startswith("solvers: error: checkpoint directory ")
    assert f"is in use by process {holder.pid}" in clean(line)


@pytest.mark.skipif(not POSIX, reason="POSIX locks")
def test_an_old_checkpoint_file_is_locked_beside_it(tmp_path):
    old = tmp_path / "plan.sqlite"
    solvers.count_queens(8, checkpoint=tmp_path / "new")
    (tmp_path / "new" / LEDGER_NAME).rename(old)
    with held_by_another_process(old) as holder:
        assert (tmp_path / "plan.sqlite.lock").exists()
        with pytest.warns(DeprecationWarning), pytest.raises(CheckpointInUse) as refused:
            solvers.count_queens(8, checkpoint=old)
        assert f"checkpoint {str(old)!r} is in use by process {holder.pid}" in str(refused.value)
    with pytest.warns(DeprecationWarning):
        assert solvers.count_queens(8, checkpoint=old) == 92


@pytest.mark.skipif(not POSIX, reason="POSIX locks")
def test_two_counts_of_one_process_on_one_checkpoint(tmp_path):
    # A record lock is the process's: the process's own table refuses the second.
    with Lock(tmp_path):
        with pytest.raises(CheckpointInUse, match=rf"in use by process {os.getpid()} \(this one\)"):
            solvers.count_queens(8, checkpoint=tmp_path)
        errors = []

        def other_thread():
            try:
                solvers.count_queens(8, checkpoint=tmp_path)
            except CheckpointInUse as error:
                errors.append(error)

        thread = threading.Thread(target=other_thread)
        thread.start()
        thread.join()
        assert len(errors) == 1
    assert solvers.count_queens(8, checkpoint=tmp_path) == 92


@pytest.mark.skipif(not POSIX, reason="POSIX locks and signals")
def test_a_count_killed_mid_run_leaves_no_lock_that_blocks(tmp_path):
    # A real count, killed while it holds its checkpoint; its worker-less
    # rerun resumes and gives the answer.
    directory = tmp_path / "q"
    program = f"import solvers; solvers.count_queens(16, threads=1, checkpoint={str(directory)!r})"
    child = subprocess.Popen([sys.executable, "-c", program])
    try:
        while not (directory / "lock").exists() and child.poll() is None:
            time.sleep(0.01)
        with pytest.raises(CheckpointInUse, match=f"in use by process {child.pid}"):
            solvers.count_queens(16, checkpoint=directory)
    finally:
        child.kill()
        child.wait(timeout=30)
    assert solvers.count_queens(16, checkpoint=directory, timeout=120) == 14_772_512


# ------------------------------------------------------ a directory not ours

PERMISSION_CHILD = textwrap.dedent(
    """
    import json, os, sys, tempfile
    import solvers
    from solvers import PegBoard

    T = PegBoard.triangle(5)
    CALLS = {
        "queens": lambda d: solvers.count_queens(9, checkpoint=d),
        "frontier": lambda d: solvers.count_tours(
            5, 5, start="all", method="frontier", checkpoint=d
        ),
        "peg": lambda d: solvers.count_peg_solutions(
            T, start=(0, 0), finish=(3, 0), spill=False, checkpoint=d
        ),
        "peg-budgeted": lambda d: solvers.count_peg_solutions(
            T, start=(0, 0), finish=(3, 0), memory="1MiB", checkpoint=d
        ),
    }
    warm = tempfile.mkdtemp()  # every module the calls need, loaded as root
    for name, call in CALLS.items():
        call(os.path.join(warm, name))
    if os.geteuid() == 0:
        os.setgid(65534)
        os.setuid(65534)
    out = {}
    for name, (kind, path) in json.loads(sys.argv[1]).items():
        try:
            out[name] = ["ok", CALLS[kind](path)]
        except BaseException as error:
            out[name] = [type(error).__name__, getattr(error, "errno", None), str(error)]
    print(json.dumps(out))
    """
)


@pytest.mark.skipif(not POSIX, reason="POSIX permissions")
def test_a_checkpoint_this_user_may_not_write(tmp_path):
    # A world-readable tree (pytest's own is the owner's alone).
    base = Path(tempfile.mkdtemp())
    try:
        base.chmod(0o755)
        solvers.count_queens(9, checkpoint=base / "queens")
        solvers.count_queens(9, checkpoint=base / "queens-half")
        with opened(base / "queens-half" / LEDGER_NAME) as db:
            db.execute("DELETE FROM results WHERE idx % 2 = 0")
        frontier_dir = base / "frontier"
        solvers.count_tours(5, 5, start="all", method="frontier", checkpoint=frontier_dir)
        stopped_frontier(base / "frontier-half", size=(5, 5), at=10)
        peg_count(base / "peg")
        stopped_in_memory(peg_count, base / "peg-half", 3)
        solvers.count_peg_solutions(
            TRIANGLE, start=(0, 0), finish=(3, 0), memory="1MiB", checkpoint=base / "peg-budgeted"
        )
        (base / "empty").mkdir()
        cases = {
            "queens": ("queens", base / "queens"),
            "queens-half": ("queens", base / "queens-half"),
            "queens-empty": ("queens", base / "empty"),
            "queens-new": ("queens", base / "new"),
            "frontier": ("frontier", base / "frontier"),
            "frontier-half": ("frontier", base / "frontier-half"),
            "frontier-new": ("frontier", base / "new"),
            "peg": ("peg", base / "peg"),
            "peg-half": ("peg", base / "peg-half"),
            "peg-budgeted": ("peg-budgeted", base / "peg-budgeted"),
            "peg-empty": ("peg", base / "empty"),
        }
        for path in [base, *base.iterdir()]:
            path.chmod(0o555)
        argument = json.dumps({k: [kind, str(path)] for k, (kind, path) in cases.items()})
        done = subprocess.run(
            [sys.executable, "-c", PERMISSION_CHILD, argument],
            capture_output=True,
            text=True,
            timeout=120,
        )
        if done.returncode != 0 and "Operation not permitted" in done.stderr:
            pytest.skip("cannot drop to another user here")
        assert done.returncode == 0, done.stderr
        got = json.loads(done.stdout)
    finally:
        for path in [base, *base.iterdir()]:
            path.chmod(0o755)
        shutil.rmtree(base)
    # A finished count is read back without writing...
    assert got["queens"] == ["ok", 352]
    assert got["frontier"] == ["ok", 1728]
    assert got["peg"] == ["ok", 3408]
    assert got["peg-budgeted"] == ["ok", 3408]
    # ...and anything that would write is a PermissionError naming the directory.
    for name in ["queens-half", "queens-empty", "frontier-half", "peg-half", "peg-empty"]:
        kind, number, message = got[name]
        assert (kind, number) == ("PermissionError", errno.EACCES), got[name]
        assert f"checkpoint directory {str(cases[name][1])!r} is not writable" in clean(message)
    for name in ["queens-new", "frontier-new"]:
        kind, number, message = got[name]
        assert (kind, number) == ("PermissionError", errno.EACCES), got[name]
        assert f"checkpoint directory {str(base / 'new')!r} cannot be made" in clean(message)


# ------------------------------------------------------------------ a full disk


@contextlib.contextmanager
def full_filesystem(path: Path, left: int):
    """A small tmpfs at ``path`` with about ``left`` bytes free (skipped
    unless root can mount one: see engine/test_spill_disk.py)."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0 or not shutil.which("mount"):
        pytest.skip("mounting a tmpfs needs root and mount on Linux")
    path.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(path)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        free = os.statvfs(path).f_bavail * os.statvfs(path).f_frsize
        (path / "filler").write_bytes(b"\0" * max(0, free - left))
        yield path
    finally:
        subprocess.run(["umount", str(path)], check=True)


@pytest.mark.parametrize("left", [0, 8192, 65536])
def test_a_ledger_on_a_full_disk_is_an_enospc_error(tmp_path, left):
    with full_filesystem(tmp_path / "small", left) as small:
        with pytest.raises(OSError) as error:
            solvers.count_queens(13, checkpoint=small / "queens")
        assert error.value.errno == errno.ENOSPC, error.value
        message = clean(str(error.value))
        assert "no space left on " in message and str(small / "queens") in message, message
        assert not (small / "queens" / "lock").exists()
        (small / "filler").unlink()  # room again: the count goes on
        assert solvers.count_queens(13, checkpoint=small / "queens") == 73712


@pytest.mark.parametrize("left", [0, 8192])
def test_a_layer_checkpoint_on_a_full_disk_is_an_enospc_error(tmp_path, left):
    # The frontier's layer files and manifest are written by the core: a
    # disk found full there is errno ENOSPC too, naming the file.
    with full_filesystem(tmp_path / "small", left) as small:
        with pytest.raises(OSError) as error:
            solvers.count_tours(
                6, 6, start=(0, 0), method="frontier", checkpoint=small / "frontier"
            )
        assert error.value.errno == errno.ENOSPC, error.value
        assert str(small / "frontier") in str(error.value), error.value
        with pytest.raises(OSError) as error:  # a peg count's layers, kept in memory
            solvers.count_peg_solutions(
                PegBoard.triangle(6), start=(0, 0), spill=False, checkpoint=small / "peg"
            )
        assert error.value.errno == errno.ENOSPC, error.value
        assert str(small / "peg") in str(error.value), error.value
        assert not (small / "peg" / "lock").exists()
        (small / "filler").unlink()
        assert solvers.count_tours(
            6, 6, start=(0, 0), method="frontier", checkpoint=small / "frontier"
        ) == solvers.count_tours(6, 6, start=(0, 0), method="search")
