"""Counts that outgrow one call: split them into subproblems, run those on any
:class:`concurrent.futures.Executor` (a process pool, a Dask cluster), and
record each finished one in a checkpoint directory so a crash loses nothing.

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
        count_queens(18, executor=pool, checkpoint="q18")

or on a Dask cluster (``pip install solvers[dist]``; for SLURM, make the
cluster with ``dask_jobqueue.SLURMCluster(...)`` and ``cluster.scale(jobs=N)``)::

    from dask.distributed import Client
    with Client("tcp://scheduler:8786") as client:
        count_queens(20, executor=client.get_executor(), checkpoint="q20")

Rerunning the same call with the same ``checkpoint`` skips what the file
records and returns the same total.  One count at a time uses a checkpoint:
a second one on it, while the first runs, is refused at once with
:class:`CheckpointInUse` (a ``RuntimeError``) naming the process that holds it.

This module is the front door: it reads the families from their one list
(:mod:`solvers._families`) and nothing in the package imports it.  The
machinery lives in :mod:`solvers._engine._plan` (plans, subproblems, running
them), which knows no family, and in :mod:`solvers._engine._args` (reading an
executor); the peg DP, which splits by layers, in :mod:`solvers.peg.dist`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

from ._engine import _validate
from ._engine._checkpoint import CheckpointInUse
from ._engine._plan import (
    DEFAULT_SUBPROBLEMS,
    Plan,
    Subproblem,
    count_subproblem,
    count_subproblems,
    splittables,
)
from ._families import FAMILIES

__all__ = [
    "DEFAULT_SUBPROBLEMS",
    "CheckpointInUse",
    "Plan",
    "Subproblem",
    "count_subproblem",
    "count_subproblems",
    "plan",
]

#: The counts that split into subproblems, from the families' one list.
_SPLITTABLE = tuple(dict.fromkeys(split.count for family in FAMILIES for split in family.splits))


def plan(
    count: Callable[..., int], *args: Any, subproblems: int | None = None, **kwargs: Any
) -> Plan:
    """The subproblems of ``count(*args, **kwargs)``, for :func:`count_tours`,
    :func:`count_queens` and :func:`count_covers` (its search; the peg DP
    splits by layers instead: pass ``executor=`` to
    :func:`count_peg_solutions`).  ``subproblems`` is the least number
    wanted (default 4096; fewer when the tree is smaller).
    ``count`` may be a :func:`functools.partial` of one of them.  Open
    knight's tours also split by their pairs of ends, ``method="pairs"``:
    one frontier count per pair of squares up to symmetry (``subproblems``
    does not apply; 136 pairs on 8x8).

    >>> from functools import partial
    >>> from solvers import count_queens, count_tours
    >>> plan(partial(count_queens, unique=True), 8).count()
    12
    >>> work = plan(count_tours, 5, 6, start="all", method="pairs")
    >>> len(work), work.count()
    (66, 37568)
    """
    # A partial (of a partial...) of a count: its arguments come first.
    while isinstance(count, functools.partial):
        args = (*count.args, *args)
        kwargs = {**count.keywords, **kwargs}
        count = count.func
    if subproblems is None:
        subproblems = DEFAULT_SUBPROBLEMS
    size = _validate.subproblems(subproblems)
    for split in splittables().values():
        if count is split.count:
            _check_arguments(split.plan, count.__name__, args, kwargs)
            return split.plan(*args, subproblems=size, **kwargs)
    names = " and ".join(split.__name__ for split in _SPLITTABLE)
    raise TypeError(f"plan() splits {names}, got {getattr(count, '__name__', count)!r}")


#: Arguments of a count that belong to running its plan, not to the plan.
_RUN_ARGUMENTS = ("executor", "checkpoint", "threads", "progress", "timeout")


def _check_arguments(
    make: Callable[..., Plan], name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    """A ``TypeError`` naming the public ``name`` (not the private function
    that makes the plan) when ``args`` and ``kwargs`` do not fit a plan of it.

    >>> from solvers import count_tours
    >>> plan(count_tours, 5, 5, timeout=1)
    Traceback (most recent call last):
    ...
    TypeError: plan(count_tours, ...) takes no timeout=: give it to the plan's count(), as in plan(count_tours, ...).count(timeout=...)
    """  # noqa: E501
    for key in _RUN_ARGUMENTS:
        if key in kwargs:
            raise TypeError(
                f"plan({name}, ...) takes no {key}=: give it to the plan's count(), "
                f"as in plan({name}, ...).count({key}=...)"
            )
    try:
        inspect.signature(make).bind(*args, subproblems=1, **kwargs)
    except TypeError as error:
        raise TypeError(f"plan({name}, ...): {error}") from None
