"""What the N-Queens family puts at the package root: ``solvers/__init__.py``
star-imports this module, so its ``__all__`` is the family's share of
``solvers.__all__``.  Importing it registers the family (:mod:`.family`).
"""

from . import (
    Placement,
    count_queens,
    find_queens,
    is_queens_solution,
    queens,
)
from .family import FAMILY as FAMILY  # registered as it is made

__all__ = [
    "Placement",
    "count_queens",
    "find_queens",
    "is_queens_solution",
    "queens",
]
