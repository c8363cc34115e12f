"""Counting covers: :func:`count_covers`, which checks its arguments and
picks the method (in this process, on an executor or resumed from a
checkpoint), and the plan the search splits into."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import _core
from .._engine import _methods, _plan, _progress, _validate
from .._engine._deadline import Deadline
from .._engine._run import RunKeywords, RunOptions
from .methods import METHODS, SEARCH
from .problem import ExactCover, core_problem

__all__ = ["COUNT_METHODS", "count_covers", "plan_covers"]

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: The ways :func:`count_covers` can count.
COUNT_METHODS: tuple[str, ...] = _methods.names(METHODS)


def _problem(problem: Any) -> ExactCover:
    if not isinstance(problem, ExactCover):
        raise TypeError(
            f"problem must be an ExactCover (solvers.ExactCover(options) or "
            f"ExactCover.from_dlx(text)), got {type(problem).__name__}"
        )
    return problem


def _described(problem: ExactCover) -> str:
    return f"exact cover ({len(problem)} options)"


def count_covers(
    problem: ExactCover,
    *,
    method: str = "auto",
    limit: int | None = None,
    **run: Unpack[RunKeywords],
) -> int:
    """The number of covers of ``problem``: sets of options covering each
    primary item exactly once and each secondary item at most once (or
    several times in one colour).  Exact however large (past 2**128 an
    ``OverflowError``, never a wrong number), the same for every ``threads``.

    Two methods count, with the same answer:

    * ``"search"``: Knuth's Algorithm C in Rust, the item with the fewest
      remaining options first, its subtrees shared out among ``threads``
      by work stealing.  ``executor`` and ``checkpoint`` (a directory) split
      it into subproblems run elsewhere and recorded there, as for
      :func:`solvers.count_queens` (see :mod:`solvers.distributed`).
    * ``"memo"``: the count memoised on the set of items still uncovered
      (a fixed item order), which counts at once what recurs: the tilings
      of strips and rectangles, past anything an enumeration reaches.

    ``method="auto"`` asks the core which suits the problem (the search
    where ``executor`` or ``checkpoint`` is given).  No method takes
    ``parts``, ``memory`` or ``spill``.

    ``limit`` (an int of at least 1) stops the count there: the answer is
    ``min(count, limit)``, the same for every ``threads``, and the search
    ends as soon as it has found ``limit`` covers (``limit=2`` asks "is
    there more than one?" of any problem, however many it has).  It is for
    a count in this process: not with ``executor`` or ``checkpoint``.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    >>> count_covers(problem), count_covers(problem, method="memo", threads=1)
    (3, 3)
    >>> count_covers(problem, limit=2)
    2
    """
    opts = RunOptions.of("count_covers", run)
    problem = _problem(problem)
    most = None if limit is None else _validate.positive(limit, "limit")
    # The deadline runs from the call, not from the search: stating a problem
    # of millions of options in the core takes a while of it.
    clock = Deadline(opts.timeout)
    core = core_problem(problem)
    faster = _core.cover_method(core, "auto")  # the core knows the problem's shape
    order = (faster, *(m.name for m in METHODS if m.name != faster))
    chosen = _methods.pick("count_covers", METHODS, method, opts.given(), order).name
    if opts.executor is not None or opts.checkpoint is not None:
        if most is not None:
            raise ValueError(
                "count_covers takes limit= for a count in this process: not with "
                "executor= or checkpoint= (whose subproblems are counted whole)"
            )
        work = plan_covers(problem, subproblems=_plan.DEFAULT_SUBPROBLEMS)
        return work.count(options=opts)
    # The memo fills its table depth first and knows no total: its bar
    # shows the time elapsed.
    memo = chosen == "memo"
    what = _described(problem) + (", memo" if memo else "")
    with _progress.shown(opts.progress, what, open_ended=memo) as bar, clock.stated():
        core_run = opts.core(bar, timeout=clock.remaining())
        return int(_core.count_covers(core, core_run, chosen, most))


def plan_covers(problem: ExactCover, *, subproblems: int, method: str = "search") -> _plan.Plan:
    """:func:`solvers.distributed.plan` for :func:`count_covers` (registered
    in :mod:`.family`): the search's subtrees (the memo does not split)."""
    problem = _problem(problem)
    size = _validate.subproblems(subproblems)
    if method not in ("auto", SEARCH.name):
        raise ValueError(
            "plan(count_covers, ...) splits the search: method must be 'auto' or 'search' "
            f"(the memo is one table in one process), got {_validate.shown(method)}"
        )
    return _plan.make_plan("cover", (problem, size), _described(problem))


def build_plan(problem: ExactCover, subproblems: int) -> Any:
    """The core's plan of ``plan_covers(problem, subproblems=...)`` (built in
    each process that counts a subproblem of it)."""
    return _core.covers_plan(core_problem(problem), subproblems)


def plan_key(params: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a checkpoint records of a plan: the problem's digest (the same in
    every process) and the number of subproblems asked for."""
    problem, subproblems = params
    return (_problem(problem).digest(), subproblems)
