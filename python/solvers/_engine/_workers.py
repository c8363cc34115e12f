"""Worker processes that die with their parent, whatever kills it.

Two guards, one for each kind of pool:

* the process pools the package makes itself (the command line's
  ``--workers``: :func:`process_pool`) start each worker with
  :func:`die_with_parent`, which asks Linux to SIGKILL the worker when its
  parent dies (``prctl(PR_SET_PDEATHSIG, SIGKILL)``; nothing elsewhere),
  leaves Ctrl-C to the parent (which stops the pool, :func:`stop`), and
  exits at once if the parent is already gone (it may die before the
  ``prctl``);
* on any executor (a user's ``ProcessPoolExecutor``, a Dask cluster) every
  task the package ships calls :func:`watch_parent` first: once per worker
  process, a daemon thread notes the worker's parent process and checks every
  :data:`POLL` seconds that it is still the parent; when it is not (the parent
  died and the worker was handed to another), the worker exits
  (``os._exit``), stopping its running count with it.

A worker's parent is what started it: the driver for a process pool, the
nanny for a Dask worker.  A Dask worker is thus only stopped when its nanny
dies, never because the client that sent the task did.  A task run in the
process that submitted it (a thread pool; :func:`driving` marks that process)
or in a process that :mod:`multiprocessing` did not start (the user's own
interpreter) starts no watcher.

>>> watch_parent()  # here, in the interpreter itself: no watcher
>>> watching()
False
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import ctypes.util
import multiprocessing
import os
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from typing import Any

__all__ = [
    "EXIT_STATUS",
    "POLL",
    "die_with_parent",
    "driving",
    "process_pool",
    "set_parent_death_signal",
    "stop",
    "stopping_on_ctrl_c",
    "watch_parent",
    "watching",
]

#: Seconds between two looks of a worker's watcher at its parent.
POLL = 0.5

#: The exit status of a worker that outlived its parent.
EXIT_STATUS = 1

#: ``prctl``'s option that sets the signal a process gets when its parent dies.
_PR_SET_PDEATHSIG = 1

#: The process that submitted tasks (and so runs none of them as a worker).
_driver: int | None = None

#: The process whose watcher runs (a forked child has none: it looks again).
_watched: int | None = None

_lock = threading.Lock()


def _new_lock() -> None:
    global _lock
    _lock = threading.Lock()  # a child forked while another thread held it


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_lock)


# ---------------------------------------------------------------- the package's own pools


def set_parent_death_signal(signum: int = signal.SIGKILL) -> bool:
    """Ask Linux to send ``signum`` to this process when the thread that
    started it ends (the parent's thread that submitted the first task, for a
    process pool).  Whether it was set: ``False`` on any other system, or
    where ``prctl`` fails."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        done: int = libc.prctl(
            _PR_SET_PDEATHSIG, ctypes.c_ulong(signum), ctypes.c_ulong(0),
            ctypes.c_ulong(0), ctypes.c_ulong(0),
        )  # fmt: skip
    except (OSError, AttributeError):
        return False
    return done == 0


def die_with_parent(parent: int | None) -> None:
    """The ``initializer`` of the package's process pools: this worker gets
    SIGKILL when its parent dies, Ctrl-C at a terminal (which reaches every
    process of its group) is left to the parent, which stops the pool, and a
    worker whose parent is already gone (``os.getppid()`` is no longer
    ``parent``; ``None``: not checked) exits at once."""
    set_parent_death_signal()
    with contextlib.suppress(ValueError):  # not the main thread: Ctrl-C never comes here
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if parent is not None and os.getppid() != parent:
        os._exit(EXIT_STATUS)


def process_pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """A pool of ``workers`` processes that die with this one (see
    :func:`die_with_parent`).  Its workers are started by the thread that
    first submits to it, which must outlive the pool: the parent-death signal
    follows that thread."""
    context = multiprocessing.get_context()
    # A forkserver's child has the fork server for parent, not this process.
    parent = os.getpid() if context.get_start_method() != "forkserver" else None
    return concurrent.futures.ProcessPoolExecutor(
        workers, mp_context=context, initializer=die_with_parent, initargs=(parent,)
    )


def _processes(pool: concurrent.futures.ProcessPoolExecutor) -> list[Any]:
    """The pool's worker processes (``multiprocessing.Process``), as started so far."""
    processes = getattr(pool, "_processes", None) or {}
    return list(processes.values())


def _kill(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """SIGKILL every worker of ``pool`` (takes no lock: safe in a signal handler)."""
    _quiet(pool)
    for process in _processes(pool):
        with contextlib.suppress(Exception):  # already gone, or closed
            process.kill()


#: The manager threads of the pools :func:`_kill` stopped.
_killed: weakref.WeakSet[threading.Thread] = weakref.WeakSet()

_hook: dict[str, Any] = {}


def _quiet(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Silence the ``InvalidStateError`` that the manager thread of ``pool``
    raises when it finds its workers killed: before Python 3.12 it sets an
    error on every future it holds, also those cancelled (a CPython bug)."""
    manager = getattr(pool, "_executor_manager_thread", None)
    if not isinstance(manager, threading.Thread):
        return
    _killed.add(manager)
    if not _hook:
        _hook["previous"] = threading.excepthook
        threading.excepthook = _excepthook


def _excepthook(args: Any) -> None:
    if args.thread in _killed and isinstance(args.exc_value, concurrent.futures.InvalidStateError):
        return
    _hook["previous"](args)


def stop(pool: concurrent.futures.ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: its pending tasks cancelled and its workers killed,
    not waited for (their running tasks are lost; a checkpoint keeps what
    had arrived)."""
    workers = _processes(pool)
    _kill(pool)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in workers:
        with contextlib.suppress(Exception):
            process.join(5)  # reaped, not left as zombies


@contextlib.contextmanager
def stopping_on_ctrl_c(
    pool: concurrent.futures.ProcessPoolExecutor, say: Callable[[], None]
) -> Iterator[None]:
    """While in the block, Ctrl-C (SIGINT) first calls ``say()`` and kills
    the workers of ``pool``, then raises ``KeyboardInterrupt`` as usual: the
    count unwinds without waiting for the subproblems its workers were
    counting.  Only in the main thread (elsewhere the block runs as it is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)

    def interrupted(signum: int, frame: Any) -> None:
        say()
        _kill(pool)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupted)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


# ---------------------------------------------------------------- any executor's workers


def driving() -> None:
    """Mark this process as the one that submits tasks: a task it runs itself
    (on a thread pool) starts no watcher (its parent is the user's shell)."""
    global _driver
    _driver = os.getpid()


def watching() -> bool:
    """Whether this process's watcher runs."""
    return _watched == os.getpid()


def watch_parent() -> None:
    """Called first by every task the package ships to an executor: in a
    worker process started by :mod:`multiprocessing` (a process pool's, a
    Dask nanny's), start the daemon thread that exits the worker once its
    parent is gone; once per process, and never in the driver."""
    global _watched
    here = os.getpid()
    if _watched == here or _driver == here or multiprocessing.parent_process() is None:
        return
    with _lock:
        if _watched == here:
            return
        parent = os.getppid()
        watcher = threading.Thread(
            target=_watch, args=(parent,), name="solvers-parent-watcher", daemon=True
        )
        watcher.start()
        _watched = here


def _watch(parent: int) -> None:
    """Exit this process as soon as ``parent`` is no longer its parent."""
    while os.getppid() == parent:
        time.sleep(POLL)
    os._exit(EXIT_STATUS)  # the count running here goes with it: nobody waits for it
