"""Rounds of tasks on an executor, as both layered DPs run them there (the peg
DP, :mod:`solvers.peg.dist`; the frontier count, :mod:`solvers.knights.frontier_dist`):
how many partitions a layer is cut into, the directory of a count's
partition files, and running one round of tasks to the end or to the first
failure.

>>> from concurrent.futures import ThreadPoolExecutor
>>> from solvers._engine._deadline import Deadline
>>> def plus_one(n, seconds_left):
...     return n + 1
>>> with ThreadPoolExecutor(2) as pool:
...     parts(None, pool), run(pool, [(plus_one, (1,)), (plus_one, (5,))], Deadline(None))
(2, [2, 6])
"""

from __future__ import annotations

import itertools
import os
import secrets
import shutil
import time
import warnings
from collections.abc import Callable
from concurrent.futures import FIRST_EXCEPTION, Executor, Future, wait
from typing import Any

from . import _args, _validate, _workers
from ._deadline import Deadline

__all__ = [
    "DEFAULT_PARTS",
    "DIRECTORY_PREFIX",
    "MAX_PARTS",
    "new_directory",
    "parts",
    "remove_directory",
    "run",
]

#: At most this many partitions: a round moves up to ``parts ** 2`` pieces.
MAX_PARTS = 1024

#: Partitions when the executor does not say how many workers it has.
DEFAULT_PARTS = 8

#: The start of the name of a count's directory of partition files.
DIRECTORY_PREFIX = "solvers-parts-"

_COUNTS = itertools.count()


def parts(value: Any, executor: Executor) -> int:
    """``value`` checked (1 to :data:`MAX_PARTS`), or for ``None`` one
    partition per worker where the executor tells how many it has."""
    if value is None:
        workers = _args.workers_of(executor)
        return DEFAULT_PARTS if workers is None else min(workers, MAX_PARTS)
    checked = _validate.positive(value, "parts")
    if checked > MAX_PARTS:
        raise ValueError(f"parts must be at most {MAX_PARTS}, got {checked}")
    return checked


def new_directory(parent: str) -> str:
    """A new directory inside ``parent`` for one count's files, made with the
    process's umask (not ``mkdtemp``'s owner-only mode: on a cluster the
    workers may write as another user of the same group)."""
    while True:
        name = f"{DIRECTORY_PREFIX}{os.getpid()}-{next(_COUNTS)}-{secrets.token_hex(4)}"
        path = os.path.join(parent, name)
        try:
            os.mkdir(path)
        except FileExistsError:  # pragma: no cover - a random clash
            continue
        return path


def remove_directory(path: str) -> None:
    """``path`` and everything in it gone.  A task of an abandoned round may
    still be adding a file (on a process pool a running task cannot be
    stopped), so it tries a few times; what cannot go is a warning, never an
    error that would hide the count's own."""
    for _ in range(20):
        shutil.rmtree(path, ignore_errors=True)
        if not os.path.lexists(path):
            return
        time.sleep(0.05)
    warnings.warn(f"could not remove the count's directory {path!r}", RuntimeWarning, 3)


def run(
    executor: Executor,
    calls: list[tuple[Callable[..., Any], tuple[Any, ...]]],
    deadline: Deadline,
) -> list[Any]:
    """Submit every call (with the seconds left as its last argument) and
    wait for all; their results in order.  The first failure, the deadline
    or Ctrl-C cancels what has not started and raises."""
    futures: list[Future[Any]] = []
    _workers.driving()
    try:
        for function, args in calls:
            futures.append(executor.submit(function, *args, deadline.left()))
        done, pending = wait(futures, timeout=deadline.left(), return_when=FIRST_EXCEPTION)
        for future in done:
            if not future.cancelled() and future.exception() is not None:
                if isinstance(future.exception(), TimeoutError):
                    raise deadline.expired() from future.exception()
                future.result()  # raises the task's exception
        if pending:
            raise deadline.expired()
        return [future.result() for future in futures]
    except BaseException:
        for future in futures:
            future.cancel()
        raise
