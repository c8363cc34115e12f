"""What the peg solitaire family puts at the package root: ``solvers/__init__.py``
star-imports this module, so its ``__all__`` is the family's share of
``solvers.__all__``.  Importing it registers the family (:mod:`.family`).
"""

from . import (
    Jump,
    PegBoard,
    PegGames,
    PegPositions,
    PegSolution,
    count_peg_games,
    count_peg_positions,
    count_peg_solutions,
    find_peg_solution,
    finish_counts,
    is_peg_solution,
    peg_solutions,
)
from .family import FAMILY as FAMILY  # registered as it is made

__all__ = [
    "Jump",
    "PegBoard",
    "PegGames",
    "PegPositions",
    "PegSolution",
    "count_peg_games",
    "count_peg_positions",
    "count_peg_solutions",
    "find_peg_solution",
    "finish_counts",
    "is_peg_solution",
    "peg_solutions",
]
