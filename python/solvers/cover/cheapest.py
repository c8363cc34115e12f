"""The ``k`` cheapest covers: :func:`cheapest_covers` (Knuth's DLX5), for a
problem whose options carry costs (``ExactCover(..., costs=[...])`` or
``|n`` in DLX text; see :mod:`solvers.cover.costs`).

The search is the one :func:`~solvers.covers` walks, cut where no cover
below can be among the ``k`` cheapest: each primary item is first taxed
its cheapest option's cost (Knuth's taxes), and a choice whose cost passes
the ``k``-th best cover found so far, shared by every thread, is not
tried.  Ties are broken by the order of :func:`~solvers.covers`, so the
answer is the same for every ``threads``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import _core
from .._engine import _methods, _packing, _run, _validate
from .._engine._deadline import Deadline
from .._engine._run import RunKeywords
from .problem import ExactCover, core_problem
from .result import Cover

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["MAX_CHEAPEST", "cheapest_covers"]

#: The most covers one call returns (they are held in memory).
MAX_CHEAPEST: int = _core.MAX_CHEAPEST_COVERS

#: What :func:`cheapest_covers` takes of the run options.
CHEAPEST = _methods.Method("cheapest", frozenset(), summary="the k cheapest covers")


def cheapest_covers(problem: ExactCover, k: int = 1, **run: Unpack[RunKeywords]) -> list[Cover]:
    """The ``k`` cheapest covers of ``problem`` (fewer where it has fewer),
    cheapest first, ties in the order of :func:`~solvers.covers`: each a
    :class:`~solvers.cover.result.Cover`, whose ``.cost`` is the sum of its
    options' costs.  A problem without costs gives its first ``k`` covers;
    one with bounds is searched by Algorithm M, in the order of its
    :func:`~solvers.covers`.
    Takes ``threads``, ``progress`` and ``timeout``; the answer is the same
    for every ``threads``.

    >>> problem = ExactCover([("a", "b"), ("a",), ("b",), ("c",)], costs=[5, 1, 2, 0])
    >>> [(cover, cover.cost) for cover in cheapest_covers(problem, 2)]
    [(Cover((1, 2, 3)), 3), (Cover((0, 3)), 5)]
    """
    opts = _run.taken("cheapest_covers", CHEAPEST, run)
    most = _validate.between(k, "k", 0, MAX_CHEAPEST)
    clock = Deadline(opts.timeout)  # from the call: building the core's problem counts
    core = core_problem(problem)  # refuses anything but an ExactCover
    with clock.stated():
        found = _core.cheapest_covers(
            core, list(problem.costs), most, opts.core(timeout=clock.remaining())
        )
    return [Cover(_packing.unpack(packed), problem) for _, packed in found]
