"""Counts split into subproblems: :class:`Plan`, :class:`Subproblem`, the
task an executor runs (:func:`count_subproblems`) and the loop that runs a
plan (:func:`run`), in this process or on an executor, recorded in a
checkpoint.  The public face is :mod:`solvers.distributed`.

This module knows no family.  A plan carries the name of its kind of split
and its parameters; each family describes how to build the core's plan from
them (a :class:`Splittable` in its descriptor), and :mod:`solvers._families`,
which the package root imports, registers every one (:func:`register`), so
any process that unpickles a :class:`Subproblem` (its import of ``solvers``
comes first) can count it.

>>> sorted(splittables())
['cover', 'queens', 'tour-pairs', 'tours']
>>> work = splittables()["queens"].plan(8, subproblems=16)
>>> work.description, len(work) >= 16, work.count()
('8-queens', True, 92)
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, overload

from .. import _core
from . import _args, _deadline, _methods, _progress, _validate, _workers
from ._checkpoint import Checkpoint, Lock
from ._deadline import Deadline
from ._run import RunKeywords, RunOptions
from ._run import core as core_options
from ._sizing import IN_FLIGHT, TaskSizes

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "DEFAULT_SUBPROBLEMS",
    "Batch",
    "Counts",
    "Plan",
    "Splittable",
    "Subproblem",
    "count_subproblem",
    "count_subproblems",
    "fixed_cost",
    "make_plan",
    "register",
    "run",
    "splittables",
]

#: Subproblems in a plan made for distribution (at least; fewer if the tree is smaller).
DEFAULT_SUBPROBLEMS = 4096

#: What a plan's count takes of the run options.
PLAN_METHOD = _methods.Method("subproblems", frozenset({"executor", "checkpoint"}))


@dataclass(frozen=True)
class Splittable:
    """A count that splits into subproblems: its ``name`` (recorded in plans and
    checkpoints), ``build(*params)`` (the core's plan), its public ``count``
    function and ``plan(*args, subproblems=, **kwargs)``, the plan of
    ``count(*args, **kwargs)``; ``problem(params)``, if given, the part of
    the parameters a checkpoint records as the problem (the rest, such as
    a memory budget, may change between runs)."""

    name: str
    build: Callable[..., _core.CountPlan]
    count: Callable[..., int]
    plan: Callable[..., Plan]
    problem: Callable[[tuple[Any, ...]], tuple[Any, ...]] | None = None


_SPLITTABLES: dict[str, Splittable] = {}


def register(split: Splittable) -> None:
    """Make ``split``'s plans buildable (called once for each, by :mod:`solvers._families`)."""
    _SPLITTABLES[split.name] = split


def splittables() -> dict[str, Splittable]:
    """The registered counts that split, by name, in the order registered (a copy)."""
    return dict(_SPLITTABLES)


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
    known = _SPLITTABLES.get(family)
    if known is None:
        raise ValueError(
            f"unknown family of subproblems {_validate.shown(family)} "
            f"(known: {', '.join(sorted(_SPLITTABLES))})"
        )
    try:
        return known.build(*params)
    except (TypeError, OverflowError):
        # The core's own conversion errors name no argument of ours.
        raise ValueError(
            f"Subproblem params {_validate.shown(params)} are not those of a {family} plan: "
            "take subproblems from solvers.distributed.plan(...).subproblems"
        ) from None


def count_subproblems(
    batch: Sequence[Subproblem], threads: int | None = None, deadline: float | None = None
) -> list[int]:
    """The counts of ``batch`` (subproblems of one plan), in order; the task
    an executor runs.  ``threads``: the worker's cores by default.
    ``deadline`` (``time.time()`` seconds) stops a task whose caller has
    timed out with ``TimeoutError``, so its worker is free again."""
    _workers.watch_parent()  # a worker whose driver is killed goes too
    if isinstance(batch, Subproblem):
        raise TypeError("batch must be a list of Subproblem objects (for one: count_subproblem)")
    batch = list(_validate.iterable(batch, "batch", "a list of Subproblem objects"))
    if not batch:
        return []
    for subproblem in batch:
        if not isinstance(subproblem, Subproblem):
            raise TypeError(f"batch must hold Subproblem objects, got {type(subproblem).__name__}")
    family, params = batch[0].family, batch[0].params
    if any((s.family, s.params) != (family, params) for s in batch):
        raise ValueError("a batch holds subproblems of one plan only")
    # None (or 0, from a driver that left it to the worker): the worker's threads
    workers = _validate.threads(threads) if threads else _args.worker_threads(0)
    left = _deadline.until(None if deadline is None else _validate.seconds(deadline, "deadline"))
    here = _core_plan(family, params)
    began = time.perf_counter()
    counts = Counts(here.count_each(_indices(batch, len(here)), core_options(workers, left)))
    counts.seconds = time.perf_counter() - began
    return counts


class Counts(list[int]):
    """The counts of a batch: a ``list``, which Dask sends back in one piece.
    (It serializes a plain list element by element, a frame each: the 1,400
    counts of a batch cost its scheduler and client 0.1 s, and a count of 17
    queens on two workers five times as long as on a process pool.)  Its
    ``seconds``: how long the worker counted them, which sizes the next
    tasks (:mod:`._sizing`)."""

    __slots__ = ("seconds",)
    seconds: float


def _empty_task(batch: Batch, nonce: int) -> Counts:
    """A task of no subproblem, timed for an executor's fixed cost: it
    travels with its plan's parameters and looks its plan up, as every task
    does (the ``nonce`` makes each a new task: Dask would reuse the result
    of one it has seen)."""
    _workers.watch_parent()
    _core_plan(batch.family, batch.params)
    del nonce
    return Counts()


def fixed_cost(executor: Executor, work: Plan, tries: int = 3) -> float:
    """Seconds a task of ``work`` costs on ``executor`` beyond its
    subproblems, there and back: the median of ``tries`` round trips of a
    task of none, after one that warms a worker up (its plan built)."""
    empty = Batch(work.family, work.params, ())
    times = []
    for k in range(tries + 1):
        began = time.perf_counter()
        executor.submit(_empty_task, empty, time.time_ns() + k).result()
        times.append(time.perf_counter() - began)
    return sorted(times[1:])[len(times[1:]) // 2]


def _indices(batch: Sequence[Subproblem], size: int) -> list[int]:
    """The index of each subproblem of ``batch``, checked against the plan's ``size``."""
    indices = []
    for subproblem in batch:
        index = _validate.integer(subproblem.index, "Subproblem index")
        if not 0 <= index < size:
            raise ValueError(
                f"Subproblem index {index} is not in this plan of {size} subproblems: "
                f"the index must be at least 0 and less than {size}"
            )
        indices.append(index)
    return indices


@dataclass(frozen=True)
class Batch(Sequence[Subproblem]):
    """The subproblems of one plan whose indices lie in ``runs``, pairs
    ``(start, stop)`` of ranges, as :func:`run` ships a batch to an executor: a
    few numbers to send, however many subproblems.  (A list of 1,400
    :class:`Subproblem` objects costs Dask's ``submit`` 0.23 s to hash into the
    task's key, and a process pool a pickle of each.)

    >>> batch = Batch.of("queens", (8, False, 16, "frames"), [0, 1, 2, 5, 6])
    >>> batch.runs, len(batch), [s.index for s in batch]
    (((0, 3), (5, 7)), 5, [0, 1, 2, 5, 6])
    >>> batch[3]
    Subproblem(family='queens', params=(8, False, 16, 'frames'), index=5)
    """

    family: str
    params: tuple[Any, ...]
    runs: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, family: str, params: tuple[Any, ...], indices: Sequence[int]) -> Batch:
        """The batch of ``indices`` (in their order) of the plan ``family``, ``params``."""
        runs: list[tuple[int, int]] = []
        for index in indices:
            if runs and runs[-1][1] == index:
                runs[-1] = (runs[-1][0], index + 1)
            else:
                runs.append((index, index + 1))
        return cls(family, params, tuple(runs))

    def __len__(self) -> int:
        return sum(stop - start for start, stop in self.runs)

    @overload
    def __getitem__(self, k: int) -> Subproblem: ...
    @overload
    def __getitem__(self, k: slice) -> list[Subproblem]: ...
    def __getitem__(self, k: int | slice) -> Subproblem | list[Subproblem]:
        every = list(self)
        return every[k]

    def __iter__(self) -> Iterator[Subproblem]:
        for start, stop in self.runs:
            for index in range(start, stop):
                yield Subproblem(self.family, self.params, index)

    def __dask_tokenize__(self) -> tuple[Any, ...]:
        """What Dask hashes into the task's key (not each subproblem)."""
        return (type(self).__name__, self.family, self.params, self.runs)


def count_subproblem(subproblem: Subproblem, threads: int | None = None) -> int:
    """The count of one subproblem.

    >>> first = splittables()["queens"].plan(8, subproblems=16).subproblems[0]
    >>> count_subproblem(first) <= 92
    True
    """
    return count_subproblems([subproblem], threads)[0]


@dataclass(frozen=True)
class Plan:
    """A count split into independent subproblems (see :func:`solvers.distributed.plan`)."""

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
        problem = _SPLITTABLES[self.family].problem
        params = self.params if problem is None else problem(self.params)
        return json.dumps({"family": self.family, "params": params})

    def count(self, **run_options: Unpack[RunKeywords]) -> int:
        """The sum of every subproblem's count, on ``executor`` (default: in
        this process), recorded in ``checkpoint`` (a directory) if given;
        the run options as for every count (not ``parts``, ``memory`` or
        ``spill``: the plan is cut already, and nothing is layered)."""
        options = RunOptions.of("Plan.count", run_options)
        _methods.refuse("Plan.count", PLAN_METHOD, (PLAN_METHOD,), options.given())
        return run(
            self,
            executor=options.executor,
            checkpoint=options.checkpoint,
            threads=options.threads,
            progress=options.progress,
            timeout=options.timeout,
        )


def make_plan(family: str, params: tuple[Any, ...], description: str) -> Plan:
    """Build the plan here once (which also checks it can be built) and record its size."""
    return Plan(family, params, description, len(_core_plan(family, params)))


# ---------------------------------------------------------------- running


def run(
    work: Plan,
    *,
    executor: Executor | None,
    checkpoint: str | os.PathLike[str] | None,
    threads: int | None,
    progress: bool,
    timeout: float | None,
) -> int:
    """Count every subproblem of ``work`` not yet in ``checkpoint``, holding
    the checkpoint's lock throughout (a second count on it is refused)."""
    if executor is not None:
        _args.check_executor(executor)
    _validate.threads(threads)
    path = None if checkpoint is None else _args.checkpoint_ledger(checkpoint)
    if path is None:
        return _run(work, None, executor, threads, progress, timeout)
    with Lock.of_ledger(path):
        ledger = Checkpoint(path, work.key(), work.size)
        try:
            if len(ledger.done) < work.size:
                ledger.need_writing()  # a read-only ledger gives only a finished count
            return _run(work, ledger, executor, threads, progress, timeout)
        finally:
            ledger.close()


def _run(
    work: Plan,
    ledger: Checkpoint | None,
    executor: Executor | None,
    threads: int | None,
    progress: bool,
    timeout: float | None,
) -> int:
    deadline = Deadline(timeout)
    done: dict[int, int] = {} if ledger is None else dict(ledger.done)
    bar = _progress.make(progress, work.description)
    deadline.where = f"after {len(done):,} of {work.size:,} subproblems"
    try:
        todo = [i for i in range(work.size) if i not in done]

        def arrived(batch: list[int], counts: list[int]) -> None:
            if len(counts) != len(batch):
                raise RuntimeError("a worker returned the wrong number of counts")
            if ledger is not None:
                ledger.record(zip(batch, counts, strict=True))
            done.update(zip(batch, counts, strict=True))
            deadline.where = f"after {len(done):,} of {work.size:,} subproblems"
            if bar is not None:
                bar(len(done), work.size)

        if executor is None:
            # One call over everything left; what finishes is handed over (and
            # recorded) every few hundredths of a second while the rest runs.
            def finished(pairs: list[tuple[int, int]]) -> None:
                arrived([i for i, _ in pairs], [n for _, n in pairs])

            plan_here = _core_plan(work.family, work.params)
            workers = _validate.threads(threads)
            plan_here.count_each(todo, core_options(workers, deadline.left()), finished)
        else:
            workers = _args.workers_of(executor) or os.cpu_count() or 1
            each = _args.task_threads(executor, threads)
            _run_on(executor, work, (todo, workers), each, deadline, arrived)
        total = sum(done.values())
        if total >= 1 << 128:
            raise OverflowError(
                "the count does not fit the 128-bit counter (no answer is better than a wrong one)"
            )
        # The answer from the sum (a join counting classes turns all
        # solutions into classes here).
        return int(_core_plan(work.family, work.params).total(total))
    except TimeoutError as error:  # the core's names the seconds left, not the user's
        raise deadline.restated(error) from None
    finally:
        if bar is not None:
            bar.close()


def _run_on(
    executor: Executor,
    work: Plan,
    todo_on: tuple[list[int], int],
    threads: int | None,
    deadline: Deadline,
    arrived: Callable[[list[int], list[int]], None],
) -> None:
    """Count the subproblems ``todo`` on the ``workers`` of ``executor``,
    :data:`IN_FLIGHT` tasks a worker at a time, each of neighbouring
    subproblems (they share most of their tails, which a worker's memo then
    reuses: dealing them round-robin cost the 4x12 tour count 5% more time)
    and sized by :class:`TaskSizes` from the executor's measured costs."""
    todo, workers = todo_on
    left = deque(todo)
    if not left:
        return
    sizes = TaskSizes(len(left), workers=workers, fixed=fixed_cost(executor, work))
    pending: dict[Future[list[int]], list[int]] = {}
    # Tasks already running when the caller times out stop by themselves.
    stop_at = deadline.wall()
    _workers.driving()

    def send() -> None:
        while left and len(pending) < IN_FLIGHT * workers:
            batch = [left.popleft() for _ in range(sizes.next(len(left)))]
            subs = Batch.of(work.family, work.params, batch)
            pending[executor.submit(count_subproblems, subs, threads, stop_at)] = batch

    try:
        send()
        while pending:
            wait_for = deadline.left()
            ready, _ = wait(pending, timeout=0.2 if wait_for is None else min(wait_for, 0.2),
                            return_when=FIRST_COMPLETED)  # fmt: skip
            for future in ready:
                batch, counts = pending.pop(future), future.result()
                sizes.done(len(batch), getattr(counts, "seconds", None))
                arrived(batch, counts)
            send()
    finally:
        # On an error, a timeout or Ctrl-C: drop what has not started.  (What
        # runs on a worker process cannot be interrupted from here; with a
        # timeout it stops at the deadline, on Ctrl-C when its batch is done.)
        for future in pending:
            future.cancel()
