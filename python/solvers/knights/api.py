"""What the knight's tours family puts at the package root: ``solvers/__init__.py``
star-imports this module, so its ``__all__`` is the family's share of
``solvers.__all__``.  Importing it registers the family (:mod:`.family`).
"""

from . import (
    MAX_FIND_CELLS,
    MAX_SEARCH_CELLS,
    KnightBoard,
    Tour,
    count_tours,
    find_tour,
    is_tour,
    tours,
)
from .family import FAMILY as FAMILY  # registered as it is made

__all__ = [
    "KnightBoard",
    "MAX_FIND_CELLS",
    "MAX_SEARCH_CELLS",
    "Tour",
    "count_tours",
    "find_tour",
    "is_tour",
    "tours",
]
