"""Resumable counts: an SQLite ledger of the finished subproblems of one
problem (see :mod:`solvers.distributed`), or of any numbered results a count
keeps (the figures of each layer of a count of every peg game).  The layers
of a layered count are kept by the core, in its layer files.

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

Every record carries a check (:meth:`Checkpoint.check`): a keyed BLAKE2b of
the record and its place (the subproblem's index, or the layer's side and
number), keyed by the file format, the problem and its split.  A count altered
by hand, two rows swapped, a row copied from another problem's ledger or a
check removed is refused with a ``ValueError`` naming the file, never added
into a total.

One run at a time: a count holds the checkpoint's :class:`Lock` (from
:mod:`solvers._engine._lock`, named here too, as :class:`CheckpointInUse`)
around the ledger, which does not lock its file itself.

A checkpoint this user may not write is opened read-only: a finished count
is read back (its answer), and anything that would have to write raises a
``PermissionError`` naming the directory.  A write on a full disk raises
``OSError`` with errno ``ENOSPC``, naming the file.
"""  # noqa: E501

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import os
import sqlite3
import time
import urllib.parse
from collections.abc import Iterable

from .._version import __version__
from ._lock import CheckpointInUse, Lock, not_writable

__all__ = ["CHECKPOINT_FORMAT", "Checkpoint", "CheckpointInUse", "Lock"]

#: The checkpoint file format written here.  A file is read by any release
#: that writes the same format, so a long count survives upgrades; the number
#: goes up only when what a file means changes: its tables, or what a
#: problem's subproblem ``idx`` names (how the engine splits a count), or how
#: a layer is saved (whose bytes also carry their own version), or how
#: its records are checked (format 2: every row carries a keyed check).
CHECKPOINT_FORMAT = "solvers-checkpoint/2"
_FORMAT_FAMILY = "solvers-checkpoint/"

#: Counts recorded are those of one subproblem: at most 128 bits.
_MAX_COUNT_DIGITS = len(str(2**128 - 1))

# SQLite's primary result codes met here (sqlite3.h).
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY = 3, 5, 6, 8
_SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 10, 13, 14


def _writable(path: str) -> bool:
    """Whether this user may write the ledger ``path`` and its directory."""
    directory = os.path.dirname(os.path.abspath(path))
    effective = os.access in os.supports_effective_ids
    if not os.access(directory, os.W_OK, effective_ids=effective):
        return False
    return not os.path.exists(path) or os.access(path, os.W_OK, effective_ids=effective)


class Checkpoint:
    """An SQLite ledger of finished subproblems (WAL mode, one transaction per
    batch as it arrives).  It is pinned to its file format and its problem
    (and the problem's split into subproblems), and refuses a file of another
    format or another problem; the version of solvers that made the file, and
    that of each run, are kept for information only.

    Tables: ``meta(key, value)``; ``runs(run, started, pid)``;
    ``run_versions(run, version)``; ``results(idx, count, run, mac)``, one row
    per finished subproblem, its count as decimal text (counts can pass
    2**63).  A subproblem is inserted once: a second result for it is an error, never a
    silent overwrite.  ``mac`` is the row's check (:meth:`check`), refused
    when it does not match: a row altered, moved to another place, or brought
    from another problem's ledger.

    A ledger this user may not write (in a read-only directory) is opened
    read-only (:attr:`read_only`): what it holds is read, and
    :meth:`record` and :meth:`need_writing` raise a
    ``PermissionError`` naming the directory.  The ledger does not lock its
    file: a count holds the checkpoint's :class:`Lock` around it.
    """

    def __init__(self, path: str | os.PathLike[str], problem: str, size: int) -> None:
        self.path = os.fspath(path)
        self.size = size
        self.directory = os.path.dirname(os.path.abspath(self.path))
        if "\0" in self.path:
            raise ValueError(f"checkpoint {self.path!r} is not a file name (it holds a NUL)")
        self.read_only = not _writable(self.path)
        if self.read_only and not os.path.isfile(self.path):
            raise not_writable(self.directory)
        self._key = hashlib.blake2b(
            json.dumps([CHECKPOINT_FORMAT, problem, size]).encode(),
            digest_size=32,
            person=b"solvers-ckpt-key",
        ).digest()
        self._db: sqlite3.Connection | None = None
        try:
            if self.read_only:
                self._db = self._open_read_only()
            else:
                self._db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
                self._db.execute("PRAGMA journal_mode=WAL")
                self._db.execute("PRAGMA synchronous=NORMAL")
            self._setup(problem, __version__)
            self.done = self._load()
            self.run = None if self.read_only else self._start_run(__version__)
        except sqlite3.Error as error:
            self._close_quietly()
            raise self._failure(error) from None
        except BaseException:
            self._close_quietly()
            raise

    @property
    def db(self) -> sqlite3.Connection:
        """The open SQLite connection."""
        assert self._db is not None
        return self._db

    def _open_read_only(self) -> sqlite3.Connection:
        """The ledger opened read-only: through its WAL where it can, else as
        an immutable file (a read-only directory where SQLite cannot make the
        WAL's files: what a clean close leaves is all in the file)."""
        uri = "file:" + urllib.parse.quote(os.path.abspath(self.path)) + "?mode=ro"
        for options in ("", "&immutable=1"):
            db = sqlite3.connect(uri + options, uri=True, isolation_level=None)
            try:
                db.execute("SELECT name FROM sqlite_master").fetchall()
                return db
            except sqlite3.OperationalError:
                db.close()
                if options:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _failure(self, error: sqlite3.Error) -> Exception:
        """What an SQLite error means to the user (no SQLite text)."""
        code = getattr(error, "sqlite_errorcode", None)
        code = None if code is None else code & 0xFF
        text = str(error)
        if code == _SQLITE_FULL or "disk is full" in text:
            return OSError(
                errno.ENOSPC,
                f"no space left on the disk of checkpoint {self.path!r} (a write to it "
                "failed); free some room and run the count again: it resumes from what "
                "the checkpoint holds",
            )
        if (
            code in (_SQLITE_PERM, _SQLITE_READONLY, _SQLITE_CANTOPEN)
            or "readonly" in text
            or "unable to open" in text
        ):
            return not_writable(self.directory)
        if code in (_SQLITE_BUSY, _SQLITE_LOCKED) or "is locked" in text:
            return CheckpointInUse(
                f"checkpoint {self.path!r} is in use by another process: wait for it to "
                "end, or give another directory"
            )
        if code == _SQLITE_IOERR:
            return OSError(errno.EIO, f"checkpoint {self.path!r} could not be read or written")
        if isinstance(error, sqlite3.IntegrityError):
            return ValueError(
                f"checkpoint {self.path!r} already records a result being recorded: "
                "another count wrote to it"
            )
        return ValueError(
            f"checkpoint {self.path!r} is not a readable solvers checkpoint "
            "(not an SQLite file, damaged, or of other tables)"
        )

    def check(self, what: bytes, *parts: bytes) -> str:
        """The check of a record: a BLAKE2b of ``parts`` keyed by this file's
        format, problem and split, its ``what`` (``b"result"``, ``b"layer"``)
        as the personalisation."""
        mac = hashlib.blake2b(key=self._key, digest_size=16, person=what)
        for part in parts:
            mac.update(part)
        return mac.hexdigest()

    def _result_check(self, idx: int, text: str) -> str:
        return self.check(b"result", f"{idx}:{text}".encode("ascii"))

    def _matches(self, mac: object, want: str) -> bool:
        return isinstance(mac, str) and hmac.compare_digest(mac.encode(), want.encode())

    def _start_run(self, version: str) -> int:
        """Log this run, with the version of solvers making it."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            run = self.db.execute(
                "INSERT INTO runs(started, pid) VALUES (?, ?)", (time.time(), os.getpid())
            ).lastrowid
            self.db.execute(
                "CREATE TABLE IF NOT EXISTS run_versions(run INTEGER PRIMARY KEY, version TEXT)"
            )
            self.db.execute("INSERT INTO run_versions VALUES (?, ?)", (run, version))
        assert run is not None
        return run

    def _setup(self, problem: str, version: str) -> None:
        want = {
            "format": CHECKPOINT_FORMAT,
            "version": version,  # of the release that made the file: information only
            "problem": problem,
            "subproblems": str(self.size),
        }
        tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master")}
        if not tables and not self.read_only:
            with self.db:
                self.db.execute("BEGIN")
                self.db.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)")
                self.db.execute(
                    "CREATE TABLE runs(run INTEGER PRIMARY KEY AUTOINCREMENT, "
                    "started REAL, pid INT)"
                )
                self.db.execute(
                    "CREATE TABLE results(idx INTEGER PRIMARY KEY, count TEXT NOT NULL, "
                    "run INTEGER NOT NULL, mac TEXT NOT NULL)"
                )
                self.db.executemany("INSERT INTO meta VALUES (?, ?)", want.items())
            return
        if not {"meta", "runs", "results"} <= tables:
            if not tables:
                raise not_writable(self.directory)  # an empty file, read-only
            raise ValueError(f"{self.path!r} is an SQLite file but not a solvers checkpoint")
        have = dict(self.db.execute("SELECT key, value FROM meta"))
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
        for idx, text, _run, mac in self.db.execute("SELECT idx, count, run, mac FROM results"):
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
            if not self._matches(mac, self._result_check(idx, text)):
                raise ValueError(
                    f"checkpoint {self.path!r} is corrupt: the result of subproblem {idx} "
                    f"does not match its check ({_altered(mac)})"
                )
            done[idx] = int(text)
        return done

    def need_writing(self) -> None:
        """``PermissionError`` where the ledger is read-only (what a count
        that has more to record asks first)."""
        if self.read_only:
            raise not_writable(self.directory)

    def record(self, results: Iterable[tuple[int, int]]) -> None:
        self.need_writing()
        rows = []
        for idx, count in results:
            text = str(count)
            rows.append((idx, text, self.run, self._result_check(idx, text)))
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.executemany(
                    "INSERT INTO results(idx, count, run, mac) VALUES (?, ?, ?, ?)", rows
                )
        except sqlite3.Error as error:
            raise self._failure(error) from None
        self.done.update((idx, int(count)) for idx, count, _, _ in rows)

    def _close_quietly(self) -> None:
        try:
            if self._db is not None:
                self._db.close()
        except Exception:  # noqa: BLE001 - already failing with a better message
            pass

    def close(self) -> None:
        try:
            self.db.close()
        except sqlite3.Error as error:
            raise self._failure(error) from None


def _altered(mac: object) -> str:
    """Why a check did not match, in a few words."""
    if mac is None:
        return "its check is missing"
    return "altered, moved, or copied from another problem's checkpoint"
