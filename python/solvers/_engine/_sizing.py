"""How many subproblems each task of an executor counts, sized from what a
task costs on that executor, measured while the plan runs.

A task has a fixed cost (the executor sends it, schedules it and sends its
counts back: well under a millisecond on a process pool, about 14 ms of a
worker's time on a Dask ``LocalCluster`` of 2 cores) and the work of its
subproblems.  The fixed cost is measured first, as the round trip of a
task of no subproblem (:func:`._plan.fixed_cost`); the work of a
subproblem, by the workers' own clocks on the tasks done so far.  Each
task is then given enough subproblems that its fixed cost is at most
:data:`OVERHEAD` of its work; at most a ``1 / (2 * workers)`` share of
what is left, so that the workers end together (guided self-scheduling:
the tasks shrink as the plan ends); and at most :data:`LONGEST` seconds of
work, so that a checkpoint records counts at least that often.

>>> sizes = TaskSizes(4096, workers=2, fixed=0.014)
>>> sizes.next(4096)        # nothing measured yet: the plan cut 64 ways a worker
32
>>> sizes.done(32, 0.004)   # 32 subproblems took a worker 4 ms
>>> sizes.next(100_000)     # 14 ms of fixed cost is 5% of 2,240 subproblems' work
2240
>>> sizes.next(4000), sizes.next(10)   # at most a quarter of what is left (2 workers)
(1000, 3)
"""

from __future__ import annotations

import math

__all__ = ["FIRST_TASKS_PER_WORKER", "IN_FLIGHT", "LONGEST", "OVERHEAD", "TaskSizes"]

#: A task's fixed cost is at most this share of its work.
OVERHEAD = 0.05

#: Tasks kept running or queued per worker, so that none waits for the driver.
IN_FLIGHT = 2

#: Before any task is measured, the plan is cut into this many tasks a worker.
FIRST_TASKS_PER_WORKER = 64

#: A task holds at most this many seconds of work (measured so far), so that
#: a checkpointed count records its progress at least this often.
LONGEST = 30.0


class TaskSizes:
    """The size of each next task of a plan of ``todo`` subproblems run on
    ``workers`` workers, where an empty task costs ``fixed`` seconds."""

    def __init__(self, todo: int, *, workers: int, fixed: float) -> None:
        self._workers = max(1, workers)
        self._fixed = max(0.0, fixed)
        self._first = max(1, math.ceil(todo / (FIRST_TASKS_PER_WORKER * self._workers)))
        self._subproblems = 0
        self._seconds = 0.0

    def next(self, left: int) -> int:
        """How many of the ``left`` subproblems not yet sent the next task counts."""
        if left <= 0:
            return 0
        if self._subproblems == 0:
            return min(left, self._first)
        guided = math.ceil(left / (2 * self._workers))
        each = self._seconds / self._subproblems
        if each <= 0.0:  # too quick for the clock: only the fixed cost counts
            return guided
        enough = math.ceil(self._fixed / (OVERHEAD * each))
        longest = max(1, math.floor(LONGEST / each))
        return max(1, min(enough, guided, longest))

    def done(self, subproblems: int, seconds: float | None) -> None:
        """A task of ``subproblems`` took its worker ``seconds`` (``None``: not told)."""
        if seconds is None or not math.isfinite(seconds) or seconds < 0.0:
            return
        self._subproblems += subproblems
        self._seconds += seconds
