"""The ways :func:`~solvers.count_covers` counts (the parallel search, the
memoised count over what is left to cover) and the optional keywords each
takes: the search splits into subproblems on an executor or recorded in a
checkpoint, or runs here with its bitset tables within ``memory``; the
memo's layers live in one process, within ``memory``; neither writes files,
so neither takes ``parts`` or ``spill``.

>>> [m.name for m in METHODS], sorted(SEARCH.takes), sorted(MEMO.takes)
(['search', 'memo'], ['checkpoint', 'executor', 'memory'], ['memory'])
"""

from __future__ import annotations

from .._engine._methods import SPLITS, Method

__all__ = ["MEMO", "METHODS", "SEARCH"]

SEARCH = Method(
    "search",
    SPLITS | {"memory"},
    # The subproblems of a split run on the dancing cells, with no tables
    # to bound.
    not_together=(frozenset({"executor", "memory"}), frozenset({"checkpoint", "memory"})),
    summary="the parallel backtrack (Knuth's Algorithm C, the item with the fewest options "
    "first), its subtrees shared out by work stealing",
)
MEMO = Method(
    "memo",
    frozenset({"memory"}),
    summary="the count memoised on what is left to cover (a fixed item order), layer by "
    "layer on every thread, for problems whose subproblems recur, such as tilings of strips",
)

#: Every method; ``auto`` takes the one the core prefers for the problem.
METHODS: tuple[Method, ...] = (SEARCH, MEMO)
