"""The arguments every long call shares beyond the plain checks of
:mod:`solvers._engine._validate`: ``executor=`` (what it is, how many workers it has,
how many threads each of its tasks gets), ``checkpoint=`` (a directory,
for every count), ``spill=`` (a directory, or ``False``) and with it
``memory=``: one meaning for every layered count (:func:`budget_of`).

Used by the subtree counts (:mod:`solvers._engine._plan`) and the peg DP
(:mod:`solvers.peg.dist`) alike, so both read an executor the same way.

>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(2) as pool:
...     workers_of(pool), task_threads(pool, 3)
(2, 3)
>>> checkpoint_directory(42)
Traceback (most recent call last):
...
TypeError: checkpoint must be a directory path, got int
"""

from __future__ import annotations

import errno
import os
import sys
import warnings
from concurrent.futures import Executor
from typing import Any

from . import _validate

#: The file name of the SQLite ledger of finished subproblems (or peg layers)
#: inside a checkpoint directory.
LEDGER_NAME = "ledger.sqlite"

#: The file a layered count (the frontier, a budgeted peg count) keeps at the
#: top of its checkpoint directory.
LAYERS_MANIFEST = "manifest"

__all__ = [
    "AUTO",
    "LEDGER_NAME",
    "budget_of",
    "check_executor",
    "checkpoint_directory",
    "checkpoint_layers",
    "checkpoint_ledger",
    "checkpoint_text",
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


def checkpoint_text(path: Any) -> str:
    """``checkpoint=path`` as a string (``str`` or path-like), else
    ``TypeError``; what it must name is checked where it is used (a
    directory, or a ledger file of the old form)."""
    return _directory_text(path, "checkpoint")


def spill_directory(path: Any) -> str | None:
    """``path`` as a string if it names an existing directory (``None``: the
    system's temporary directory; ``False``: no files, see :func:`budget`),
    else ``TypeError``/``ValueError``."""
    if path is None or path is False:
        return None
    if path is True:
        raise TypeError("spill must be a directory path, or False for no files; got True")
    text = _directory_text(path, "spill")
    if not os.path.isdir(text):
        raise ValueError(f"spill must be an existing directory, got {text!r}")
    return text


#: The budget of a count given no ``memory=``: :func:`budget` resolves it
#: where the count runs (a plan's subproblems on their workers).
AUTO = "auto"


def budget_of(memory: Any, spill: Any, executor: Any = None) -> int | str | None:
    """What ``memory=`` and ``spill=`` ask of a layered count, checked:
    bytes (``memory=`` given), :data:`AUTO` (no ``memory=``: the default), or
    ``None`` for ``spill=False`` (no budget and no files: every layer in
    memory, ``MemoryError`` if a step does not fit the machine), which takes
    no ``memory=`` and no ``executor=`` (whose tasks pass their parts through
    files in ``spill=``).

    >>> budget_of(None, None), budget_of("1MiB", None), budget_of(None, False)
    ('auto', 1048576, None)
    >>> budget_of("1GB", False)
    Traceback (most recent call last):
    ...
    ValueError: spill=False keeps every layer in memory with no budget: not with memory=
    """
    spill_directory(spill)
    if spill is False:
        if memory is not None:
            raise ValueError(
                "spill=False keeps every layer in memory with no budget: not with memory="
            )
        if executor is not None:
            raise ValueError(
                "spill=False keeps every layer in this process: not with executor= (its "
                "tasks pass their parts through files in spill=)"
            )
        return None
    if memory is None or (isinstance(memory, str) and memory.strip().lower() == AUTO):
        return AUTO  # resolved by the core, where the bytes are used
    return _validate.memory(memory)


def checkpoint_directory(path: Any) -> str:
    """``path`` as a string if it can be a checkpoint directory (an existing
    directory, or nothing yet in an existing folder: the count makes it), else
    ``TypeError``/``ValueError`` (for a path that keeps nothing, such as
    ``""`` or SQLite's ``":memory:"``, and for a file).

    >>> checkpoint_directory(__file__)
    Traceback (most recent call last):
    ...
    ValueError: checkpoint=... is a file, not a directory: ...
    """
    text = _directory_text(path, "checkpoint")
    if not text.strip() or text == ":memory:":
        raise ValueError(f"checkpoint={text!r} keeps nothing to resume from: give a directory")
    if os.path.exists(text) and not os.path.isdir(text):
        raise ValueError(
            f"checkpoint={text!r} is a file, not a directory: a count keeps its "
            "checkpoint in a directory (made if missing)"
        )
    folder = os.path.dirname(os.path.abspath(text))
    if not os.path.isdir(text) and not os.path.isdir(folder):
        # Only the directory itself is made: a folder that is missing is more
        # often a mistyped path than a wish for a new tree.
        why = "is a file" if os.path.exists(folder) else "does not exist"
        raise ValueError(f"checkpoint={text!r} cannot be made: its folder {folder!r} {why}")
    return text


def checkpoint_layers(path: Any) -> str:
    """``checkpoint=path`` for a layered count: :func:`checkpoint_directory`,
    refused where it is or holds an SQLite ledger: that of an older version
    that kept a count's layers there (they are kept in the core's layer
    files now: the count starts afresh elsewhere), or another count's."""
    text = _directory_text(path, "checkpoint")
    inside = os.path.join(text, LEDGER_NAME)
    old = inside if os.path.isfile(inside) else text
    if os.path.isfile(old) and os.path.getsize(old) > 0 and _may_be_a_ledger(old):
        raise ValueError(
            f"checkpoint={text!r} holds an SQLite ledger ({old!r}): another count's, or layers "
            "kept by a version of solvers before 0.2, which this one does not read (it keeps "
            "layers in layer files): give another directory to count afresh"
        )
    return checkpoint_directory(text)


def checkpoint_ledger(path: Any) -> str:
    """The SQLite ledger of ``checkpoint=path``: :data:`LEDGER_NAME` inside
    the directory ``path`` (made if missing).  An existing regular file, the
    checkpoint's old form, is still the ledger itself, with a
    :class:`DeprecationWarning` (for one release)."""
    text = _directory_text(path, "checkpoint")
    if text.strip() and text != ":memory:" and os.path.isfile(text):
        if not _may_be_a_ledger(text):
            raise ValueError(
                f"checkpoint {text!r} is not a readable solvers checkpoint: it is a file, and "
                "not one a count wrote (a checkpoint is a directory, made if missing)"
            )
        warnings.warn(
            f"checkpoint={text!r} is a file: a checkpoint file is deprecated (it still "
            "resumes, for one release); give a directory (made if missing)",
            DeprecationWarning,
            stacklevel=_outside_the_package(),
        )
        return text
    text = checkpoint_directory(text)
    if os.path.exists(os.path.join(text, LAYERS_MANIFEST)):
        # A layered count's directory (the frontier's, a budgeted peg count's):
        # a ledger beside it would mix two counts in one checkpoint.
        raise ValueError(
            f"checkpoint={text!r} holds the layers of another count (a layered DP's "
            "checkpoint): give another directory"
        )
    try:
        os.makedirs(text, exist_ok=True)
    except PermissionError:
        raise PermissionError(
            errno.EACCES,
            f"checkpoint directory {text!r} cannot be made (permission denied): give a "
            "directory you may write",
        ) from None
    except OSError as error:  # a parent is a file, a read-only disk, ...
        if error.errno == errno.ENOSPC:
            raise OSError(
                errno.ENOSPC,
                f"checkpoint directory {text!r} cannot be made: no space left on its disk",
            ) from None
        raise ValueError(f"checkpoint={text!r} cannot be made ({error.strerror})") from None
    return os.path.join(text, LEDGER_NAME)


def _may_be_a_ledger(path: str) -> bool:
    """Whether the file ``path`` may be a checkpoint of the old form: an
    SQLite database, or empty (a count then starts afresh in it).  Any other
    file (a DLX file named by mistake) is no checkpoint, and no warning that
    the old form is deprecated is due before saying so."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(len(_SQLITE_HEADER))
    except OSError:
        return True  # the ledger's own open says what is wrong
    return not head or head == _SQLITE_HEADER


#: The first bytes of every SQLite database file.
_SQLITE_HEADER = b"SQLite format 3\x00"


def _outside_the_package() -> int:
    """The ``stacklevel`` of the first caller outside the package, seen from
    the function that calls this one: a warning then names the user's line
    (and Python shows a DeprecationWarning raised from ``__main__``)."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    frame = sys._getframe(1)
    level = 1
    while frame.f_back is not None and frame.f_code.co_filename.startswith(package):
        frame, level = frame.f_back, level + 1
    return level


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
