"""Finding one cover: :func:`find_cover`, by the parallel search stopped at
the first hit."""

from __future__ import annotations

from .. import _core
from .._engine import _packing, _validate
from .._engine._deadline import Deadline
from .problem import ExactCover, core_problem

__all__ = ["find_cover"]


def find_cover(
    problem: ExactCover,
    *,
    threads: int | None = None,
    deterministic: bool = False,
    timeout: float | None = None,
) -> tuple[int, ...] | None:
    """One cover of ``problem`` (option indices in increasing order), or
    ``None`` if it has none.  Every thread stops at the first cover any of
    them finds; which one that is may change from run to run.  With
    ``deterministic=True`` it is the first of :func:`~solvers.covers`,
    whatever ``threads``.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    >>> find_cover(problem, deterministic=True)
    (0, 1)
    >>> find_cover(ExactCover([("a", "b"), ("b", "c")])) is None
    True
    """
    if not isinstance(problem, ExactCover):
        raise TypeError(f"problem must be an ExactCover, got {type(problem).__name__}")
    workers = _validate.threads(threads)
    deterministic = _validate.flag(deterministic, "deterministic")
    clock = Deadline(timeout)  # from the call: building the core's problem counts
    core = core_problem(problem)
    with clock.stated():
        packed = _core.find_cover(core, workers, deterministic, clock.remaining())
    return None if packed is None else tuple(_packing.unpack(packed))
