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

from .count import COUNT_METHODS as COUNT_METHODS
from .count import MAX_JOIN_N as MAX_JOIN_N
from .count import count_queens
from .family import FAMILY as FAMILY  # registers the family as it is made
from .find import FIND_METHODS as FIND_METHODS
from .find import MAX_CONSTRUCT_N as MAX_CONSTRUCT_N
from .find import find_queens
from .limits import MAX_SEARCH_N as MAX_SEARCH_N
from .listing import queens
from .placement import Placement, is_queens_solution

#: What the family puts at the package root (``solvers/__init__.py`` star-imports
#: it); its other public names (the limits, the methods' names) stay here.
__all__ = [
    "Placement",
    "count_queens",
    "find_queens",
    "is_queens_solution",
    "queens",
]
