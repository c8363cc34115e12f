"""The arguments every long call shares beyond the plain checks of
:mod:`solvers._engine._validate`: ``executor=`` (what it is, how many workers it has,
how many threads each of its tasks gets), ``checkpoint=`` (a file path;
for the frontier count a directory) and ``spill=`` (a directory).

Used by the subtree counts (:mod:`solvers._engine._plan`) and the peg DP
(:mod:`solvers.peg.dist`) alike, so both read an executor the same way.

>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(2) as pool:
...     workers_of(pool), task_threads(pool, 3)
(2, 3)
>>> checkpoint_path(42)
Traceback (most recent call last):
...
TypeError: checkpoint must be a file path, got int
"""

from __future__ import annotations

import os
import sys
from concurrent.futures import Executor
from typing import Any

from . import _validate

__all__ = [
    "check_executor",
    "checkpoint_directory",
    "checkpoint_path",
    "dask_client",
    "task_threads",
    "worker_threads",
    "workers_of",
]


def check_executor(executor: Any) -> Executor:
    """``executor`` if it is a :class:`concurrent.futures.Executor`, else ``TypeError``."""
    if not isinstance(executor, Executor):
        raise TypeError(
            "executor must be a concurrent.futures.Executor (a ProcessPoolExecutor, or "
            f"dask.distributed.Client(...).get_executor()), got {type(executor).__name__}"
        )
    return executor


def checkpoint_path(path: Any) -> str:
    """``path`` (``str`` or path-like) as a string if it can be a checkpoint
    file: a file, or nothing yet in a folder that exists (``TypeError``
    for another type; ``ValueError`` for a path that keeps nothing, such as
    ``""`` or SQLite's ``":memory:"``, for a directory and for a missing folder).

    >>> checkpoint_path(":memory:")
    Traceback (most recent call last):
    ...
    ValueError: checkpoint=':memory:' keeps nothing to resume from: give a file path
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"checkpoint must be a file path, got {type(path).__name__}")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise TypeError(f"checkpoint must be a str file path, got {type(text).__name__}")
    if "\0" in text:
        raise ValueError(f"checkpoint {text!r} is not a file name (it holds a NUL)")
    if not text.strip() or text == ":memory:":
        raise ValueError(f"checkpoint={text!r} keeps nothing to resume from: give a file path")
    if os.path.isdir(text):
        raise ValueError(
            f"checkpoint={text!r} is a directory: give the path of a checkpoint file "
            "(made if missing) inside it"
        )
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(folder):
        raise ValueError(
            f"checkpoint={text!r} cannot be made: its folder {folder!r} does not exist"
        )
    return text


def _directory_text(path: Any, name: str) -> str:
    """``path`` (``str`` or path-like naming a directory) as a string, else
    ``TypeError``; one holding a NUL byte, which no file name can, ``ValueError``."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"{name} must be a directory path, got {type(path).__name__}")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise TypeError(f"{name} must be a str directory path, got {type(text).__name__}")
    if "\0" in text:
        raise ValueError(f"{name} must be a directory path without NUL bytes, got {text!r}")
    return text


def spill_directory(path: Any) -> str | None:
    """``path`` as a string if it names an existing directory (``None``: the
    system's temporary directory), else ``TypeError``/``ValueError``."""
    if path is None:
        return None
    text = _directory_text(path, "spill")
    if not os.path.isdir(text):
        raise ValueError(f"spill must be an existing directory, got {text!r}")
    return text


def checkpoint_directory(path: Any) -> str:
    """``path`` as a string if it can be the frontier's checkpoint directory
    (an existing directory, or nothing yet: it is made), else
    ``TypeError``/``ValueError``.

    >>> checkpoint_directory(__file__)
    Traceback (most recent call last):
    ...
    ValueError: checkpoint=... is a file, not a directory: ...
    """
    text = _directory_text(path, "checkpoint")
    if not text:
        raise ValueError("checkpoint must name a directory, got ''")
    if os.path.exists(text) and not os.path.isdir(text):
        raise ValueError(
            f"checkpoint={text!r} is a file, not a directory: the frontier count keeps "
            "its checkpoint in a directory (made if missing)"
        )
    return text


def dask_client(executor: Executor | None) -> Any:
    """The Dask client behind ``client.get_executor()``, or None."""
    client = getattr(executor, "_client", None)
    return client if callable(getattr(client, "scatter", None)) else None


def workers_of(executor: Executor | None) -> int | None:
    """How many tasks ``executor`` runs at once, where it tells."""
    workers = getattr(executor, "_max_workers", None)  # process and thread pools
    client = dask_client(executor)
    if workers is None and client is not None:
        try:
            workers = len(client.nthreads())
        except Exception:  # noqa: BLE001 - only a hint
            workers = None
    return workers if isinstance(workers, int) and workers > 0 else None


def task_threads(executor: Executor, threads: Any) -> int:
    """Threads for each task's Rust pool: ``threads`` if given; on a local
    process or thread pool, the cores shared out among its workers (so the
    pool does not oversubscribe them); else 0, which the task resolves on its
    worker (:func:`worker_threads`)."""
    if threads is not None:
        return _validate.threads(threads)
    workers = getattr(executor, "_max_workers", None)
    if isinstance(workers, int) and workers > 0:
        return max(1, (os.cpu_count() or 1) // workers)
    return 0


def worker_threads(threads: int) -> int:
    """In a task: ``threads``, or for 0 the threads of this Dask worker, or
    else 0 (the Rust core's default: every core of the machine)."""
    if threads:
        return threads
    distributed = sys.modules.get("distributed")
    if distributed is not None:
        try:
            worker = distributed.get_worker()
        except ValueError:  # not in a Dask worker
            return 0
        nthreads = getattr(getattr(worker, "state", worker), "nthreads", 0)
        return max(int(nthreads), 0)
    return 0
