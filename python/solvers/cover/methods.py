"""The ways :func:`~solvers.count_covers` counts (the parallel search, the
memoised count over the uncovered items) and the optional keywords each
takes: the search splits into subproblems on an executor or recorded in a
checkpoint; the memo is one table in one process, so it takes neither;
neither writes layers, so neither takes ``parts``, ``memory`` or ``spill``.

>>> [m.name for m in METHODS], SEARCH.takes == SPLITS, MEMO.takes
(['search', 'memo'], True, frozenset())
"""

from __future__ import annotations

from .._engine._methods import SPLITS, Method

__all__ = ["MEMO", "METHODS", "SEARCH"]

SEARCH = Method(
    "search",
    SPLITS,
    summary="the parallel backtrack (Knuth's Algorithm C, the item with the fewest options "
    "first), its subtrees shared out by work stealing",
)
MEMO = Method(
    "memo",
    frozenset(),
    summary="the count memoised on the set of uncovered items (a fixed item order), for "
    "problems whose subproblems recur, such as tilings of strips",
)

#: Every method; ``auto`` takes the one the core prefers for the problem.
METHODS: tuple[Method, ...] = (SEARCH, MEMO)
