"""The plans of a tour count split into subproblems: the search's subtrees and
the frontier count by pairs of ends (what :func:`solvers.distributed.plan`
makes of :func:`~solvers.count_tours`), and the core's plan of each."""

from __future__ import annotations

import os
from typing import Any, Literal

from .. import _core
from .._engine import _args, _methods, _plan, _validate
from .board import LOWER_LEFT, KnightBoard, Square, Start, frontier_limit, search_limit
from .methods import PAIRS, SEARCH


def search_plan(
    kb: KnightBoard, first: Square | None, closed: bool, subproblems: int, what: str
) -> _plan.Plan:
    mask = kb._mask_list()
    params = (kb.rows, kb.cols, None if mask is None else tuple(mask), first, closed, subproblems)
    return _plan.make_plan("tours", params, what)


def plan_tours(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Start = LOWER_LEFT,
    closed: bool = False,
    method: str = "search",
    memory: int | str | None = None,
    spill: str | os.PathLike[str] | Literal[False] | None = None,
    subproblems: int,
) -> _plan.Plan:
    """:func:`solvers.distributed.plan` for :func:`count_tours` (registered
    below): the search's subtrees, or with ``method="pairs"`` one frontier
    count per pair of ends up to symmetry (``subproblems`` does not apply)."""
    kb = KnightBoard.from_args(rows, cols, board)
    first = kb.start_square(start, allow_all=True)
    closed = _validate.flag(closed, "closed")
    keywords = _methods.given(memory=memory, spill=spill)
    # The plans of the search and of the pairs; the frontier makes none.
    method = _methods.pick("plan(count_tours)", (SEARCH, PAIRS), method, keywords).name
    what = f"knight's tours {kb.rows}x{kb.cols}"
    if method == "pairs":
        if closed:
            raise ValueError(
                "plan(count_tours, method='pairs') sums open tours over their pairs of ends: "
                "not with closed=True"
            )
        asked = _args.budget_of(memory, spill)
        return pair_plan(kb, first, asked, _args.spill_directory(spill), what)
    search_limit(kb, "count_tours")
    return search_plan(kb, first, closed, subproblems, what)


def build_search(
    rows: int,
    cols: int,
    mask: tuple[bool, ...] | None,
    start: Square | None,
    closed: bool,
    size: int,
) -> _core.CountPlan:
    """The core's plan of a tour count, from the parameters a :class:`Plan` carries."""
    board = (rows, cols, None if mask is None else list(mask))
    return _core.tours_plan(board, start, closed, size)


def pair_plan(
    kb: KnightBoard,
    first: Square | None,
    budget: int | str | None,
    spill_dir: str | None,
    what: str,
) -> _plan.Plan:
    """The plan of open tours from ``first`` (every square if ``None``) by
    pairs of ends up to symmetry, each pair's count within ``budget``
    (:func:`solvers._engine._args.budget_of`: ``"auto"`` is resolved where
    the plan is built, on each worker)."""
    frontier_limit(kb)
    mask = kb._mask_list()
    params = (kb.rows, kb.cols, None if mask is None else tuple(mask), first, budget, spill_dir)
    return _plan.make_plan("tour-pairs", params, f"{what} by pairs of ends")


def build_pairs(
    rows: int,
    cols: int,
    mask: tuple[bool, ...] | None,
    start: Square | None,
    memory: int | str | None,
    spill: str | None,
) -> _core.CountPlan:
    """The core's plan of ``count_tours(..., method="pairs")`` (``memory``:
    what :meth:`~solvers._engine._run.RunOptions.memory_asked` says, resolved
    on the worker that builds the plan)."""
    board = (rows, cols, None if mask is None else list(mask))
    plan, _pairs = _core.tour_pairs_plan(
        board, start, _core.RunOptions(0, None, None, memory, spill)
    )
    return plan


def pairs_problem(params: tuple[Any, ...]) -> tuple[Any, ...]:
    """What a pairs plan's checkpoint records as its problem: the board and
    start, not the budget (a rerun may give a pair more or less memory)."""
    return params[:4]
