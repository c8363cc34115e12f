"""One count at a time in a checkpoint: :class:`Lock`, a POSIX record lock
on the file ``lock`` of a checkpoint directory (``FILE.lock`` beside a
checkpoint file of the old form), and :class:`CheckpointInUse`, the error of
a second count on a checkpoint in use.

A count holds the lock for the whole call; a second count on the same
checkpoint, from another process or this one, is refused at once ("... is
in use by process N").  The kernel drops the lock when its process ends,
however it ends, so a count killed with SIGKILL leaves at most a ``lock``
file that blocks nothing, and its rerun resumes.  Also here: the error of a
checkpoint directory this user may not write (:func:`not_writable`).

>>> import tempfile
>>> directory = tempfile.mkdtemp()
>>> with Lock(directory) as lock:
...     lock.held or sys.platform == "win32"
True
"""

from __future__ import annotations

import errno
import os
import socket
import sys
import threading
import time
from types import TracebackType

from ._args import LAYERS_MANIFEST, LEDGER_NAME

if sys.platform != "win32":
    import fcntl

__all__ = ["LOCK_NAME", "CheckpointInUse", "Lock", "not_writable"]

#: The name of the lock file in a checkpoint directory (and the suffix of
#: that of a checkpoint file of the old form).
LOCK_NAME = "lock"


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
        """The lock of a layered count's checkpoint directory (a count within
        a memory budget, whose layer files the core writes): where
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
