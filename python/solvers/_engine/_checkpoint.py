"""Resumable counts: an SQLite ledger of the finished subproblems of one
problem (see :mod:`solvers.distributed`).

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "run.sqlite")
>>> ledger = Checkpoint(path, '{"family": "demo"}', size=3)
>>> ledger.record([(0, 5), (2, 7)])
>>> ledger.close()
>>> Checkpoint(path, '{"family": "demo"}', size=3).done
{0: 5, 2: 7}
>>> Checkpoint(path, '{"family": "other"}', size=3)
Traceback (most recent call last):
...
ValueError: checkpoint '...' holds results of another problem (problem {"family": "demo"} here, {"family": "other"} now); use another file
"""  # noqa: E501

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterable

from .._version import __version__

__all__ = ["CHECKPOINT_FORMAT", "Checkpoint"]

#: The checkpoint file format written here.  A file is read by any release
#: that writes the same format, so a long count survives upgrades; the number
#: goes up only when what a file means changes: its tables, or what a
#: problem's subproblem ``idx`` names (how the engine splits a count), or how
#: a peg layer is saved (whose bytes also carry their own version).
CHECKPOINT_FORMAT = "solvers-checkpoint/1"
_FORMAT_FAMILY = "solvers-checkpoint/"

#: Counts recorded are those of one subproblem: at most 128 bits.
_MAX_COUNT_DIGITS = len(str(2**128 - 1))


class Checkpoint:
    """An SQLite ledger of finished subproblems (WAL mode, one transaction per
    batch as it arrives).  It is pinned to its file format and its problem
    (and the problem's split into subproblems), and refuses a file of another
    format or another problem; the version of solvers that made the file, and
    that of each run, are kept for information only.

    Tables: ``meta(key, value)``; ``runs(run, started, pid)``;
    ``run_versions(run, version)``; ``results(idx, count, run)``, one row per
    finished subproblem, its count as decimal text (counts can pass 2**63).
    A subproblem is inserted once: a second result for it is an error, never
    a silent overwrite.
    """

    def __init__(self, path: str | os.PathLike[str], problem: str, size: int) -> None:
        self.path = os.fspath(path)
        self.size = size
        if "\0" in self.path:
            raise ValueError(f"checkpoint {self.path!r} is not a file name (it holds a NUL)")
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._setup(problem, __version__)
            self.done = self._load()
            self.run = self._start_run(__version__)
        except sqlite3.DatabaseError as error:
            self._close_quietly()
            raise ValueError(
                f"checkpoint {self.path!r} is not a readable solvers checkpoint ({error})"
            ) from None
        except ValueError:
            self._close_quietly()
            raise

    def _start_run(self, version: str) -> int:
        """Log this run, with the version of solvers making it."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            run = self._db.execute(
                "INSERT INTO runs(started, pid) VALUES (?, ?)", (time.time(), os.getpid())
            ).lastrowid
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS run_versions(run INTEGER PRIMARY KEY, version TEXT)"
            )
            self._db.execute("INSERT INTO run_versions VALUES (?, ?)", (run, version))
        assert run is not None
        return run

    def _setup(self, problem: str, version: str) -> None:
        want = {
            "format": CHECKPOINT_FORMAT,
            "version": version,  # of the release that made the file: information only
            "problem": problem,
            "subproblems": str(self.size),
        }
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
        if not tables:
            with self._db:
                self._db.execute("BEGIN")
                self._db.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                self._db.execute(
                    "CREATE TABLE runs(run INTEGER PRIMARY KEY AUTOINCREMENT, "
                    "started REAL, pid INT)"
                )
                self._db.execute(
                    "CREATE TABLE results(idx INTEGER PRIMARY KEY, count TEXT NOT NULL, "
                    "run INTEGER NOT NULL)"
                )
                self._db.executemany("INSERT INTO meta VALUES (?, ?)", want.items())
            return
        if not {"meta", "runs", "results"} <= tables:
            raise ValueError(f"{self.path!r} is an SQLite file but not a solvers checkpoint")
        have = dict(self._db.execute("SELECT key, value FROM meta"))
        found = have.get("format")
        if found != CHECKPOINT_FORMAT:
            if isinstance(found, str) and found.startswith(_FORMAT_FAMILY):
                made = have.get("version")
                raise ValueError(
                    f"checkpoint {self.path!r} is in another format ({found}, made by solvers "
                    f"{made}); this solvers reads {CHECKPOINT_FORMAT}: use another file, or "
                    "finish the count with the release that began it"
                )
            raise ValueError(f"{self.path!r} is not a solvers checkpoint (format {found!r})")
        for key, what in (
            ("problem", "another problem"),
            ("subproblems", "another split of the problem"),
        ):
            if have.get(key) != want[key]:
                raise ValueError(
                    f"checkpoint {self.path!r} holds results of {what} "
                    f"({key} {have.get(key)} here, {want[key]} now); use another file"
                )

    def _load(self) -> dict[int, int]:
        done: dict[int, int] = {}
        for idx, text, _run in self._db.execute("SELECT idx, count, run FROM results"):
            if not isinstance(idx, int) or not 0 <= idx < self.size:
                raise ValueError(f"checkpoint {self.path!r} is corrupt: subproblem {idx!r:.60}")
            if (
                not isinstance(text, str)
                or not text.isascii()
                or not text.isdigit()
                or len(text) > _MAX_COUNT_DIGITS
                or int(text) >= 2**128
            ):
                shown = text[:60] + "..." if isinstance(text, str) and len(text) > 60 else text
                raise ValueError(f"checkpoint {self.path!r} is corrupt: count {shown!r}")
            done[idx] = int(text)
        return done

    def record(self, results: Iterable[tuple[int, int]]) -> None:
        rows = [(idx, str(count), self.run) for idx, count in results]
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT INTO results(idx, count, run) VALUES (?, ?, ?)", rows)
        self.done.update((idx, int(count)) for idx, count, _ in rows)

    # Whole layers, for counts that are not split into subproblems (the peg
    # DP): the newest layer of each side of the search, and a log of every
    # layer saved, by which run.

    def _layer_tables(self) -> None:
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS layers(side TEXT PRIMARY KEY, pegs INT, data BLOB)"
        )
        self._db.execute("CREATE TABLE IF NOT EXISTS layer_log(run INT, side TEXT, pegs INT)")

    def save_layer(self, side: str, pegs: int, data: bytes) -> None:
        """Keep ``data`` as the newest layer of ``side`` (one transaction)."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._layer_tables()
            self._db.execute(
                "INSERT OR REPLACE INTO layers VALUES (?, ?, ?)", (side, pegs, sqlite3.Binary(data))
            )
            self._db.execute("INSERT INTO layer_log VALUES (?, ?, ?)", (self.run, side, pegs))

    def layer(self, side: str) -> bytes | None:
        """The newest layer saved for ``side``, or None."""
        tables = {row[0] for row in self._db.execute("SELECT name FROM sqlite_master")}
        if "layers" not in tables:
            return None
        row = self._db.execute("SELECT data FROM layers WHERE side = ?", (side,)).fetchone()
        if row is None:
            return None
        if not isinstance(row[0], bytes):
            raise ValueError(
                f"checkpoint {self.path!r} is corrupt: layer {side!r} is "
                f"{type(row[0]).__name__}, not bytes"
            )
        return row[0]

    def _close_quietly(self) -> None:
        try:
            self._db.close()
        except Exception:  # noqa: BLE001 - already failing with a better message
            pass

    def close(self) -> None:
        self._db.close()
