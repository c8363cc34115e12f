"""Counts that outgrow one call: split them into subproblems, run those on any
:class:`concurrent.futures.Executor` (a process pool, a Dask cluster), and
record each finished one in a checkpoint file so a crash loses nothing.

A count's subproblems come from the same deterministic plan that the local
count uses (the search tree expanded breadth-first, in search order), so a
subproblem travels as a small value: the problem's parameters and an index.
Any process that builds the same plan counts the same subtree, and the counts
of all subproblems add up to the count.

>>> from solvers import count_tours
>>> work = plan(count_tours, 5, 5, start="all")
>>> len(work) >= 256, work.count() == 1728
(True, True)
>>> sum(count_subproblems(work.subproblems[:10])) <= 1728
True

With an executor (each task counts a batch of subproblems on its worker, with
the Rust core on a pool of ``threads`` threads, all the worker's cores by
default)::

    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(4) as pool:
        count_queens(18, executor=pool, checkpoint="q18.sqlite")

or on a Dask cluster (``pip install solvers[dist]``; for SLURM, make the
cluster with ``dask_jobqueue.SLURMCluster(...)`` and ``cluster.scale(jobs=N)``)::

    from dask.distributed import Client
    with Client("tcp://scheduler:8786") as client:
        count_queens(20, executor=client.get_executor(), checkpoint="q20.sqlite")

Rerunning the same call with the same ``checkpoint`` skips what the file
records and returns the same total.
"""

from __future__ import annotations

import functools
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import Any

from . import _core, _progress, _validate
from .checkpoint import Checkpoint

__all__ = [
    "DEFAULT_SUBPROBLEMS",
    "Plan",
    "Subproblem",
    "count_subproblem",
    "count_subproblems",
    "plan",
]

#: Subproblems in a plan made for distribution (at least; fewer if the tree is smaller).
DEFAULT_SUBPROBLEMS = 4096


@dataclass(frozen=True)
class Subproblem:
    """One independent part of a count: subtree ``index`` of the plan that
    ``family`` and ``params`` define.  Small and picklable."""

    family: str
    params: tuple[Any, ...]
    index: int


@functools.lru_cache(maxsize=4)
def _core_plan(family: str, params: tuple[Any, ...]) -> _core.CountPlan:
    """The plan in this process (built once per process and problem)."""
    if family == "tours":
        rows, cols, mask, start, closed, size = params
        return _core.CountPlan.tours(
            rows, cols, None if mask is None else list(mask), start, closed, size
        )
    if family == "queens":
        n, unique, size = params
        return _core.CountPlan.queens(n, unique, size)
    raise ValueError(f"unknown family of subproblems {family!r}")


def count_subproblems(
    batch: Sequence[Subproblem], threads: int | None = None, deadline: float | None = None
) -> list[int]:
    """The counts of ``batch`` (subproblems of one plan), in order; the task
    an executor runs.  ``threads``: the worker's cores by default.
    ``deadline`` (``time.time()`` seconds) stops a task whose caller has
    timed out with ``TimeoutError``, so its worker is free again."""
    if not batch:
        return []
    family, params = batch[0].family, batch[0].params
    if any((s.family, s.params) != (family, params) for s in batch):
        raise ValueError("a batch holds subproblems of one plan only")
    # None (or 0, from a driver that left it to the worker): the worker's threads
    workers = _validate.threads(threads) if threads else worker_threads(0)
    left = None if deadline is None else max(0.0, deadline - time.time())
    return _core_plan(family, params).count_each([s.index for s in batch], workers, None, left)


def count_subproblem(subproblem: Subproblem, threads: int | None = None) -> int:
    """The count of one subproblem.

    >>> from solvers import count_queens
    >>> first = plan(count_queens, 8).subproblems[0]
    >>> count_subproblem(first) <= 92
    True
    """
    return count_subproblems([subproblem], threads)[0]


@dataclass(frozen=True)
class Plan:
    """A count split into independent subproblems (see :func:`plan`)."""

    family: str
    params: tuple[Any, ...]
    description: str
    size: int

    def __len__(self) -> int:
        return self.size

    @property
    def subproblems(self) -> list[Subproblem]:
        return [Subproblem(self.family, self.params, i) for i in range(self.size)]

    def key(self) -> str:
        """The problem, as the checkpoint file records it."""
        return json.dumps({"family": self.family, "params": self.params})

    def count(
        self,
        *,
        executor: Executor | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
        threads: int | None = None,
        progress: bool = False,
        timeout: float | None = None,
    ) -> int:
        """The sum of every subproblem's count, on ``executor`` (default: in
        this process), recorded in ``checkpoint`` (a file) if given."""
        return run(
            self,
            executor=executor,
            checkpoint=checkpoint,
            threads=threads,
            progress=progress,
            timeout=timeout,
        )


def plan(
    count: Callable[..., int], *args: Any, subproblems: int | None = None, **kwargs: Any
) -> Plan:
    """The subproblems of ``count(*args, **kwargs)``, for :func:`count_tours`
    and :func:`count_queens` (the peg DP splits by layers instead: pass
    ``executor=`` to :func:`count_peg_solutions`).  ``subproblems`` is the
    least number wanted (default 4096; fewer when the tree is smaller).
    """
    # imported here: the family modules import this one
    from .knights import _plan as plan_tours
    from .knights import count_tours
    from .nqueens import _plan as plan_queens
    from .nqueens import count_queens

    if subproblems is None:
        subproblems = DEFAULT_SUBPROBLEMS
    size = _validate.positive(subproblems, "subproblems")
    if count is count_tours:
        return plan_tours(*args, subproblems=size, **kwargs)
    if count is count_queens:
        return plan_queens(*args, subproblems=size, **kwargs)
    raise TypeError(
        f"plan() splits count_tours and count_queens, got {getattr(count, '__name__', count)!r}"
    )


def make_plan(family: str, params: tuple[Any, ...], description: str) -> Plan:
    """Build the plan here once (which also checks it can be built) and record its size."""
    return Plan(family, params, description, len(_core_plan(family, params)))


# ---------------------------------------------------------------- running


def _batches(todo: list[int], jobs: int) -> list[list[int]]:
    """``todo`` cut into ``jobs`` runs of neighbouring subproblems: neighbours
    share most of their tails, which a worker's memo then reuses (dealing them
    round-robin cost the 4x12 tour count 5% more time), and many small runs
    keep the workers evenly loaded to the end."""
    if not todo:
        return []
    jobs = max(1, min(jobs, len(todo)))
    size = -(-len(todo) // jobs)
    return [todo[k : k + size] for k in range(0, len(todo), size)]


def check_executor(executor: Any) -> Executor:
    if not isinstance(executor, Executor):
        raise TypeError(
            "executor must be a concurrent.futures.Executor (a ProcessPoolExecutor, or "
            f"dask.distributed.Client(...).get_executor()), got {type(executor).__name__}"
        )
    return executor


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


def run(
    work: Plan,
    *,
    executor: Executor | None,
    checkpoint: str | os.PathLike[str] | None,
    threads: int | None,
    progress: bool,
    timeout: float | None,
) -> int:
    """Count every subproblem of ``work`` not yet in ``checkpoint``."""
    if executor is not None:
        check_executor(executor)
    if checkpoint is not None and not isinstance(checkpoint, (str, os.PathLike)):
        raise TypeError(f"checkpoint must be a file path, got {type(checkpoint).__name__}")
    _validate.threads(threads)
    seconds = _validate.timeout(timeout)
    deadline = None if seconds is None else time.monotonic() + seconds
    ledger = None if checkpoint is None else Checkpoint(checkpoint, work.key(), work.size)
    done: dict[int, int] = {} if ledger is None else dict(ledger.done)
    bar = _progress.make(progress, work.description)
    try:
        todo = [i for i in range(work.size) if i not in done]

        def arrived(batch: list[int], counts: list[int]) -> None:
            if len(counts) != len(batch):
                raise RuntimeError("a worker returned the wrong number of counts")
            if ledger is not None:
                ledger.record(zip(batch, counts, strict=True))
            done.update(zip(batch, counts, strict=True))
            if bar is not None:
                bar(len(done), work.size)

        if executor is None:
            # One call over everything left; what finishes is handed over (and
            # recorded) every few hundredths of a second while the rest runs.
            def finished(pairs: list[tuple[int, int]]) -> None:
                arrived([i for i, _ in pairs], [n for _, n in pairs])

            plan_here = _core_plan(work.family, work.params)
            workers = _validate.threads(threads)
            plan_here.count_each(todo, workers, None, _left(deadline, seconds), finished)
        else:
            batches = _batches(todo, 64 * (workers_of(executor) or os.cpu_count() or 1))
            each = task_threads(executor, threads)
            _run_on(executor, work, batches, each, deadline, seconds, arrived)
        total = sum(done.values())
        if total >= 1 << 128:
            raise OverflowError(
                "the count does not fit the 128-bit counter (no answer is better than a wrong one)"
            )
        return total
    finally:
        if bar is not None:
            bar.close()
        if ledger is not None:
            ledger.close()


def _left(deadline: float | None, seconds: float | None) -> float | None:
    if deadline is None:
        return None
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError(f"no answer within the timeout of {seconds} s")
    return left


def _run_on(
    executor: Executor,
    work: Plan,
    batches: list[list[int]],
    threads: int | None,
    deadline: float | None,
    seconds: float | None,
    arrived: Callable[[list[int], list[int]], None],
) -> None:
    pending: dict[Future[list[int]], list[int]] = {}
    # Tasks already running when the caller times out stop by themselves.
    stop_at = None if deadline is None else time.time() + (deadline - time.monotonic())
    try:
        for batch in batches:
            subs = [Subproblem(work.family, work.params, i) for i in batch]
            pending[executor.submit(count_subproblems, subs, threads, stop_at)] = batch
        while pending:
            left = _left(deadline, seconds)
            ready, _ = wait(pending, timeout=0.2 if left is None else min(left, 0.2),
                            return_when=FIRST_COMPLETED)  # fmt: skip
            for future in ready:
                arrived(pending.pop(future), future.result())
    finally:
        # On an error, a timeout or Ctrl-C: drop what has not started.  (What
        # runs on a worker process cannot be interrupted from here; with a
        # timeout it stops at the deadline, on Ctrl-C when its batch is done.)
        for future in pending:
            future.cancel()
