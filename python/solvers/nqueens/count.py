"""Counting N-Queens placements: :func:`count_queens`, which checks its
arguments and picks the method (in this process, on an executor or resumed
from a checkpoint), and the plan it splits into."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import _core
from .._engine import _methods, _plan, _progress, _validate
from .._engine._run import RunKeywords, RunOptions
from .limits import search_n
from .methods import METHODS

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: The largest board ``method="join"`` counts (its tables grow about 8x per
#: two sizes: see the README's memory table).
MAX_JOIN_N: int = _core.MAX_QUEENS_JOIN_N

#: The ways :func:`count_queens` can count.
COUNT_METHODS: tuple[str, ...] = _methods.names(METHODS)


def _method(value: Any) -> str:
    return _validate.choice(value, "method", COUNT_METHODS)


def count_queens(
    n: int,
    *,
    unique: bool = False,
    method: str = "auto",
    **run: Unpack[RunKeywords],
) -> int:
    """The number of ways to place ``n`` non-attacking queens on an ``n x n`` board
    (OEIS A000170), or with ``unique=True`` the number of those distinct under
    the 8 rotations and reflections of the board (A002562).

    Two methods count, with the same answer (exact, the same for every
    ``threads``):

    * ``"join"`` (the default from n = 12 to n = 23, :data:`MAX_JOIN_N`): the
      quarter-board join.  Every placement of queens on a quarter of the
      board is tabled once; for each choice of the rows whose queen is in
      the right half, the halves are built from quarters and the pairs of
      halves that share no diagonal are counted by a bit-sliced join
      (``src/queens/join.rs``).  Memory grows with n (the README's table:
      about 0.6 GB at n = 22); a board the machine cannot hold is refused
      with the estimate.  ``unique=True`` adds the few solutions fixed by a
      half or quarter turn and divides by 8 (Burnside's lemma).
    * ``"frames"`` (any n up to 64): backtracking over one border frame per
      symmetry class, most constrained row first (``src/queens/frames.rs``).

    ``method="auto"`` picks the join where it applies.  ``executor`` and
    ``checkpoint`` (a directory) split the count into subproblems run
    elsewhere and recorded there, as for :func:`solvers.count_tours` (see
    :mod:`solvers.distributed`); no method takes ``parts``, ``memory`` or
    ``spill`` (nothing is layered or written but the checkpoint).

    >>> [count_queens(n) for n in range(1, 11)]
    [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]
    >>> [count_queens(n, unique=True) for n in range(1, 11)]
    [1, 0, 0, 1, 2, 1, 6, 12, 46, 92]
    """
    opts = RunOptions.of("count_queens", run)
    n = search_n(n, "count_queens")
    unique = _validate.flag(unique, "unique")
    faster = _core.queens_method(n, "auto")  # the core knows where the join applies
    order = (faster, *(m.name for m in METHODS if m.name != faster))
    method = _methods.pick("count_queens", METHODS, method, opts.given(), order).name
    method = _core.queens_method(n, method)
    if opts.executor is not None or opts.checkpoint is not None:
        work = plan_queens(n, unique=unique, subproblems=_plan.DEFAULT_SUBPROBLEMS, method=method)
        return work.count(options=opts)
    with _progress.shown(opts.progress, f"{n}-queens") as bar:
        return _core.count_queens(n, unique, opts.core(bar), method)


def plan_queens(
    n: int, *, unique: bool = False, subproblems: int, method: str = "auto"
) -> _plan.Plan:
    """:func:`solvers.distributed.plan` for :func:`count_queens` (registered below)."""
    n = search_n(n, "count_queens")
    unique = _validate.flag(unique, "unique")
    method = _core.queens_method(n, _method(method))
    return _plan.make_plan("queens", (n, unique, subproblems, method), f"{n}-queens")
