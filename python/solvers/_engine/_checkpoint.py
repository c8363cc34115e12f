"""Resumable counts: an SQLite ledger of the finished subproblems of one
problem (see :mod:`solvers.distributed`), and the lock that keeps one run at
a time in a checkpoint.

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
pegs), keyed by the file format, the problem and its split.  A count altered
by hand, two rows swapped, a row copied from another problem's ledger or a
check removed is refused with a ``ValueError`` naming the file, never added
into a total.

One run at a time (:class:`Lock`): a count holds ``lock`` in its checkpoint
directory (``FILE.lock`` beside a checkpoint file of the old form) for the
whole call, a POSIX record lock that names its process; a second count on
the same checkpoint, from another process or this one, is refused at once
with :class:`CheckpointInUse` ("... is in use by process N").  The kernel
drops the lock when its process ends, however it ends, so a count killed
with SIGKILL leaves at most a ``lock`` file that blocks nothing, and its
rerun resumes.

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
import socket
import sqlite3
import sys
import threading
import time
import urllib.parse
from collections.abc import Iterable
from types import TracebackType

from .._version import __version__
from ._args import LAYERS_MANIFEST, LEDGER_NAME

if sys.platform != "win32":
    import fcntl

__all__ = ["CHECKPOINT_FORMAT", "Checkpoint", "CheckpointInUse", "Lock"]

#: The checkpoint file format written here.  A file is read by any release
#: that writes the same format, so a long count survives upgrades; the number
#: goes up only when what a file means changes: its tables, or what a
#: problem's subproblem ``idx`` names (how the engine splits a count), or how
#: a peg layer is saved (whose bytes also carry their own version), or how
#: its records are checked (format 2: every row carries a keyed check).
CHECKPOINT_FORMAT = "solvers-checkpoint/2"
_FORMAT_FAMILY = "solvers-checkpoint/"

#: Counts recorded are those of one subproblem: at most 128 bits.
_MAX_COUNT_DIGITS = len(str(2**128 - 1))

#: The name of the lock file in a checkpoint directory (and the suffix of
#: that of a checkpoint file of the old form).
LOCK_NAME = "lock"

# SQLite's primary result codes met here (sqlite3.h).
_SQLITE_PERM, _SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_READONLY = 3, 5, 6, 8
_SQLITE_IOERR, _SQLITE_FULL, _SQLITE_CANTOPEN = 10, 13, 14


class CheckpointInUse(RuntimeError):
    """A checkpoint that another count is using right now: a second count on
    a checkpoint is refused at once with this error, which names the process
    that holds it (``solvers.distributed.CheckpointInUse``)."""


class Lock:
    """The lock of the checkpoint at ``place`` (a directory, made if missing:
    its file ``lock``; a checkpoint file of the old form: ``FILE.lock``
    beside it), held from here to :meth:`release` (or the end of a ``with``
    block).

    A POSIX record lock (``fcntl.lockf``) on the lock file, which holds the
    pid (and host) of its process: a second count on the same checkpoint is
    refused at once with :class:`CheckpointInUse` naming that process.  The
    kernel drops the lock when its process ends, even by SIGKILL, so a stale
    lock file blocks nothing; a record lock (unlike ``flock``) is not passed
    on to a process forked by the holder, so worker processes that outlive a
    killed count do not keep its checkpoint locked.  A record lock is the
    process's: two counts of one process are told apart by a table of the
    checkpoints this process holds.  The file goes on release.

    Where the lock file cannot be written (a directory this user may not
    write) no lock is taken and :attr:`held` is False: a count may then
    only read the checkpoint.  Without POSIX locks (Windows) nothing is
    locked.
    """

    _mutex = threading.Lock()
    _held: set[tuple[int, int]] = set()

    def __init__(self, place: str | os.PathLike[str]) -> None:
        self.place = os.fspath(place)
        self.held = False
        #: Whether the lock file could not be made for want of permission
        #: (then a count may only read the checkpoint).
        self.read_only = False
        self._fd: int | None = None
        self._key: tuple[int, int] | None = None
        if sys.platform == "win32":
            return
        if os.path.isfile(self.place):  # the old form: a ledger file
            self.path = self.place + "." + LOCK_NAME
            self._what = f"checkpoint {self.place!r}"
        else:
            self.path = os.path.join(self.place, LOCK_NAME)
            self._what = f"checkpoint directory {self.place!r}"
            try:
                os.makedirs(self.place, exist_ok=True)
            except PermissionError:
                raise not_writable(self.place, made=False) from None
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
                raise OSError(
                    errno.ENOSPC,
                    f"checkpoint directory {self.place!r} cannot be made: no space left on "
                    "its disk",
                ) from None
        stat = os.stat(self.place)
        key = (stat.st_dev, stat.st_ino)
        with Lock._mutex:
            if key in Lock._held:
                raise CheckpointInUse(self._in_use(f"process {os.getpid()} (this one)"))
            Lock._held.add(key)
        self._key = key
        try:
            self._take()
        except BaseException:
            self.release()
            raise

    @classmethod
    def of_ledger(cls, path: str | os.PathLike[str]) -> Lock:
        """The lock of the checkpoint whose ledger is ``path``: its
        directory's, or that of a ledger file of the old form."""
        text = os.fspath(path)
        if os.path.basename(text) == LEDGER_NAME:
            return cls(os.path.dirname(text) or os.curdir)
        return cls(text)

    @classmethod
    def of_layers(cls, directory: str | os.PathLike[str]) -> Lock:
        """The lock of a layered count's checkpoint directory (the frontier's,
        a peg count's within a budget), whose files the core writes: where
        this user may not write there, only a finished count (its manifest
        holds the answer) is read, else ``PermissionError``."""
        lock = cls(directory)
        if lock.read_only and not _answered(os.path.join(lock.place, LAYERS_MANIFEST)):
            lock.release()
            raise not_writable(lock.place)
        return lock

    def _take(self) -> None:
        while True:
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o666)
            except OSError as error:
                if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
                    self.read_only = True  # only reading is possible: nothing to lock
                    return
                raise
            try:
                fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as error:
                holder = _holder(fd)
                os.close(fd)
                if error.errno in (errno.EACCES, errno.EAGAIN):
                    raise CheckpointInUse(self._in_use(holder)) from None
                if error.errno in (errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS):
                    return  # a filesystem without record locks: nothing to lock with
                raise
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(self.path))
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)  # its holder removed it as this one opened it: again
        self._fd, self.held = fd, True
        try:  # who holds it, for the message of a count refused (only that)
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()} {socket.gethostname()}\n".encode(), 0)
        except OSError:  # a full disk: the lock holds all the same
            pass

    def _in_use(self, holder: str) -> str:
        return (
            f"{self._what} is in use by {holder}: another count is running on it; "
            "wait for it to end (it resumes from there), or give another directory"
        )

    def release(self) -> None:
        """Let go of the lock (and remove its file); again does nothing."""
        if self._fd is not None:
            try:
                os.unlink(self.path)  # while held: no one else holds this file
            except OSError:
                pass
            os.close(self._fd)
            self._fd, self.held = None, False
        if self._key is not None:
            with Lock._mutex:
                Lock._held.discard(self._key)
            self._key = None

    def __enter__(self) -> Lock:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.release()


def _holder(fd: int) -> str:
    """Who holds the lock file open as ``fd``, as its first line says."""
    for _ in range(20):  # its holder writes it right after taking the lock
        try:
            words = os.pread(fd, 200, 0).decode("ascii", "replace").split()
        except OSError:
            words = []
        if words and words[0].isdigit():
            pid = int(words[0])
            if len(words) > 1 and words[1] != socket.gethostname():
                return f"process {pid} on {words[1][:60]}"
            return f"process {pid}"
        time.sleep(0.005)
    return "another process"


def _answered(manifest: str) -> bool:
    """Whether the layered checkpoint's ``manifest`` holds an answer (its
    checksum is the core's to check, when it reads it)."""
    try:
        with open(manifest, "rb") as file:
            text = file.read(1 << 16)
    except OSError:
        return False
    return any(line.startswith(b"done ") for line in text.splitlines())


def not_writable(directory: str, made: bool = True) -> PermissionError:
    """The error of a checkpoint directory that this user may not write (or
    make, where it is not ``made`` yet)."""
    if not made:
        return PermissionError(
            errno.EACCES,
            f"checkpoint directory {directory!r} cannot be made (permission denied): give "
            "a directory you may write",
        )
    return PermissionError(
        errno.EACCES,
        f"checkpoint directory {directory!r} is not writable (permission denied): a count "
        "writes what it finishes there; give a directory you may write (a finished "
        "count's checkpoint is read without writing)",
    )


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
    2**63); ``layers(side, pegs, data, mac)`` and ``layer_log``, a peg DP's
    newest layers.  A subproblem is inserted once: a second result for it is
    an error, never a silent overwrite.  ``mac`` is the row's check
    (:meth:`check`), refused when it does not match: a row altered, moved to
    another place, or brought from another problem's ledger.

    A ledger this user may not write (in a read-only directory) is opened
    read-only (:attr:`read_only`): what it holds is read, and
    :meth:`record`, :meth:`save_layer` and :meth:`need_writing` raise a
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

    def _layer_check(self, side: str, pegs: int, data: bytes) -> str:
        return self.check(b"layer", json.dumps([side, pegs]).encode(), b"\0", data)

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

    # Whole layers, for counts that are not split into subproblems (the peg
    # DP): the newest layer of each side of the search, and a log of every
    # layer saved, by which run.

    def _layer_tables(self) -> None:
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS layers(side TEXT PRIMARY KEY, pegs INT, data BLOB, "
            "mac TEXT NOT NULL)"
        )
        self.db.execute("CREATE TABLE IF NOT EXISTS layer_log(run INT, side TEXT, pegs INT)")

    def save_layer(self, side: str, pegs: int, data: bytes) -> None:
        """Keep ``data`` as the newest layer of ``side`` (one transaction)."""
        self.need_writing()
        mac = self._layer_check(side, pegs, data)
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                self._layer_tables()
                self.db.execute(
                    "INSERT OR REPLACE INTO layers VALUES (?, ?, ?, ?)",
                    (side, pegs, sqlite3.Binary(data), mac),
                )
                self.db.execute("INSERT INTO layer_log VALUES (?, ?, ?)", (self.run, side, pegs))
        except sqlite3.Error as error:
            raise self._failure(error) from None

    def layer(self, side: str) -> bytes | None:
        """The newest layer saved for ``side``, or None."""
        try:
            tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master")}
            if "layers" not in tables:
                return None
            row = self.db.execute(
                "SELECT pegs, data, mac FROM layers WHERE side = ?", (side,)
            ).fetchone()
        except sqlite3.Error as error:
            raise self._failure(error) from None
        if row is None:
            return None
        pegs, data, mac = row
        if not isinstance(data, bytes):
            raise ValueError(
                f"checkpoint {self.path!r} is corrupt: layer {side!r} is "
                f"{type(data).__name__}, not bytes"
            )
        if not isinstance(pegs, int) or not self._matches(mac, self._layer_check(side, pegs, data)):
            raise ValueError(
                f"checkpoint {self.path!r} is corrupt: layer {side!r} does not match its "
                f"check ({_altered(mac)})"
            )
        return data

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
