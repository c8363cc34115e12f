"""The ways :func:`~solvers.count_tours` counts (the search, the frontier DP,
pairs of ends), the optional keywords each takes, and the ``auto`` rule: the
faster method for the board first, then the others, the first that takes
every keyword given.

>>> [m.name for m in METHODS]
['search', 'frontier', 'pairs']
>>> from solvers.knights.board import KnightBoard
>>> preferred(KnightBoard.from_args(5, 5, None)), preferred(KnightBoard.from_args(4, 40, None))
(('search', 'frontier', 'pairs'), ('frontier', 'search', 'pairs'))
"""

from __future__ import annotations

from .._engine._methods import SPLITS, Method
from .board import MAX_FRONTIER_SIDE, MAX_SEARCH_CELLS, KnightBoard

__all__ = ["FRONTIER", "METHODS", "PAIRS", "SEARCH", "preferred"]

SEARCH = Method(
    "search",
    SPLITS,
    summary="pruned backtracking over the tours (boards spanning at most 64 cells); split "
    "into subtrees on an executor, each finished one recorded in the checkpoint",
)
FRONTIER = Method(
    "frontier",
    frozenset({"executor", "parts", "checkpoint", "memory", "spill"}),
    # On an executor the layers pass through partition files: neither a
    # layer checkpoint nor a budget of this process applies there.
    not_together=(frozenset({"executor", "checkpoint"}), frozenset({"executor", "memory"})),
    summary="a transfer-matrix DP swept along the longer side (shorter side at most 8, any "
    "length); each finished layer saved in the checkpoint, layers past memory= spilled",
)
PAIRS = Method(
    "pairs",
    frozenset({"executor", "checkpoint", "memory", "spill"}),
    summary="open tours summed over their pairs of ends up to symmetry, one frontier count "
    "per pair (memory= each pair's budget); a plan of independent subproblems",
)

#: Every method, in the order the docs list them.
METHODS: tuple[Method, ...] = (SEARCH, FRONTIER, PAIRS)


def preferred(board: KnightBoard) -> tuple[str, ...]:
    """The methods by preference for ``board``: the faster of the search and
    the frontier first (measured on 2 cores, see the frontier bench), then
    the other, then the pairs (open tours only, so never picked first).

    The search is fast on compact boards (6x6, all starts: 0.1 s) and slows
    by orders of magnitude per added column on narrow ones; the frontier's
    work grows with the length of its sweep but steeply with the shorter side.
    """
    rows, cols = board.span
    short, long = min(rows, cols), max(rows, cols)
    if short > MAX_FRONTIER_SIDE:
        faster = "search"
    elif rows * cols > MAX_SEARCH_CELLS:
        faster = "frontier"
    else:
        faster = "frontier" if long >= _FRONTIER_FROM[short] else "search"
    other = "search" if faster == "frontier" else "frontier"
    return (faster, other, "pairs")


#: The longer side from which the frontier beats the search, by shorter side
#: (all starts, 2 cores: 3x10 0.004 s search / 0.002 s frontier, 4x8 0.011 /
#: 0.009, 4x9 0.11 / 0.035, 5x7 0.045 / 0.077, 5x8 3.1 / 0.7, 6x6 0.11 / 1.4;
#: 6x7 over 20 / 6.6, from a corner 4.7-11.5 / 3.4, closed 0.30 / 0.26; a 7x7
#: search would visit 1.6e11 tours).
_FRONTIER_FROM: dict[int, int] = {1: 1, 2: 1, 3: 10, 4: 9, 5: 8, 6: 7, 7: 7, 8: 8}
