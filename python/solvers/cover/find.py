"""Finding one cover: :func:`find_cover`, by the parallel search stopped at
the first hit."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import _core
from .._engine import _packing, _run, _validate
from .._engine._deadline import Deadline
from .._engine._run import RunKeywords
from .problem import ExactCover, core_problem
from .result import Cover

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["find_cover", "first_covers"]


def find_cover(
    problem: ExactCover, *, deterministic: bool = False, **run: Unpack[RunKeywords]
) -> Cover | None:
    """One cover of ``problem`` (a :class:`~solvers.cover.result.Cover`: the
    option indices in increasing order, a tuple), or ``None`` if it has
    none.  Every thread stops at the first cover any of them finds; which
    one that is may change from run to run.  With ``deterministic=True`` it
    is the first of :func:`~solvers.covers`, whatever ``threads``.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    >>> find_cover(problem, deterministic=True)
    Cover((0, 1))
    >>> find_cover(ExactCover([("a", "b"), ("b", "c")])) is None
    True
    """
    opts = _run.taken("find_cover", _run.FINDING, run)
    if not isinstance(problem, ExactCover):
        raise TypeError(f"problem must be an ExactCover, got {type(problem).__name__}")
    deterministic = _validate.flag(deterministic, "deterministic")
    clock = Deadline(opts.timeout)  # from the call: building the core's problem counts
    core = core_problem(problem)
    with clock.stated():
        found = _core.find_cover(core, deterministic, opts.core(timeout=clock.remaining()))
    return None if found is None else Cover(_packing.unpack(found), problem)


def first_covers(problem: ExactCover, k: int, *, timeout: float | None = None) -> list[Cover]:
    """The first ``k`` covers of :func:`~solvers.covers`' order (fewer where
    there are fewer), by one search on one thread: with ``k=2``, a solution
    and whether it is the only one, for the cost of about one search.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    >>> first_covers(problem, 2)
    [Cover((0, 1)), Cover((2, 3))]
    """
    if not isinstance(problem, ExactCover):
        raise TypeError(f"problem must be an ExactCover, got {type(problem).__name__}")
    most = _validate.integer(k, "k")
    if most < 0:
        raise ValueError(f"k must be at least 0, got {most}")
    clock = Deadline(timeout)
    core = core_problem(problem)
    with clock.stated():
        found = _core.first_covers(core, most, _run.core(1, clock.remaining()))
    return [Cover(_packing.unpack(packed), problem) for packed in found]
