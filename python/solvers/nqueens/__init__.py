"""N-Queens: count, list, find and check placements of n non-attacking queens.

A placement is the column of the queen in each row, 0-based, row 0 at the top.
(The subpackage is ``nqueens``: ``solvers.queens`` is the listing function.)
Its modules each do one job: the placement and its check
(:mod:`.placement`), the search's size limit (:mod:`.limits`), counting and
its plan (:mod:`.count`), listing (:mod:`.listing`), finding (:mod:`.find`),
pictures, the animation and the CLI command; this module re-exports the
public names.

>>> count_queens(8)
92
>>> count_queens(8, unique=True)
12
>>> next(queens(8))
Placement(0, 4, 7, 5, 2, 6, 1, 3)
>>> find_queens(1_000).verify()
True
"""

from .count import COUNT_METHODS, MAX_JOIN_N, count_queens
from .find import FIND_METHODS, MAX_CONSTRUCT_N, find_queens
from .limits import MAX_SEARCH_N
from .listing import queens
from .placement import Placement, is_queens_solution

__all__ = [
    "COUNT_METHODS",
    "FIND_METHODS",
    "MAX_CONSTRUCT_N",
    "MAX_JOIN_N",
    "MAX_SEARCH_N",
    "Placement",
    "count_queens",
    "find_queens",
    "is_queens_solution",
    "queens",
]
