"""solvers: exact, parallel counting and fast finding of knight's tours,
N-Queens placements, peg-solitaire solutions and the covers of any
exact-cover problem, with Rust search cores.

The families live in the subpackages :mod:`solvers.knights`,
:mod:`solvers.nqueens`, :mod:`solvers.peg` and :mod:`solvers.cover`, listed once in
:mod:`solvers._families`; what they share is in ``solvers._engine``.  No
function here shares its name with a module (``solvers.queens`` is the
listing function, the subpackage is ``solvers.nqueens``).  This module only
re-exports (``solve_peg``, the old name of :func:`find_peg_solution`, still
works for one release, with a :class:`DeprecationWarning`).

>>> import solvers
>>> solvers.count_tours(4, 7, threads=2)
1682
"""

from typing import Any

from . import _families as _families  # registers the families' plans
from . import distributed as distributed  # `import solvers; solvers.distributed.plan(...)`
from ._engine._deprecated import moved
from ._engine._run import RunOptions
from ._version import __version__
from .cover import (
    Cover,
    ExactCover,
    LangfordPairs,
    LangfordSequence,
    Piece,
    QueensCover,
    Sudoku,
    Tiling,
    TilingPuzzle,
    count_covers,
    covers,
    find_cover,
    is_cover,
)
from .knights import (
    MAX_FIND_CELLS,
    MAX_SEARCH_CELLS,
    KnightBoard,
    Tour,
    count_tours,
    find_tour,
    is_tour,
    tours,
)
from .nqueens import (
    Placement,
    count_queens,
    find_queens,
    is_queens_solution,
    queens,
)
from .peg import (
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

__all__ = [
    "MAX_FIND_CELLS",
    "MAX_SEARCH_CELLS",
    "Cover",
    "ExactCover",
    "Jump",
    "KnightBoard",
    "LangfordPairs",
    "LangfordSequence",
    "PegBoard",
    "PegGames",
    "PegPositions",
    "PegSolution",
    "Piece",
    "Placement",
    "QueensCover",
    "RunOptions",
    "Sudoku",
    "Tiling",
    "TilingPuzzle",
    "Tour",
    "__version__",
    "count_covers",
    "count_peg_games",
    "count_peg_positions",
    "count_peg_solutions",
    "count_queens",
    "count_tours",
    "covers",
    "find_cover",
    "find_peg_solution",
    "find_queens",
    "find_tour",
    "finish_counts",
    "is_cover",
    "is_peg_solution",
    "is_queens_solution",
    "is_tour",
    "peg_solutions",
    "queens",
    "tours",
]


def __getattr__(name: str) -> Any:
    """``solvers.solve_peg``: the old name of :func:`find_peg_solution` (deprecated)."""
    if name == "solve_peg":
        return moved("solvers.solve_peg", "solvers.find_peg_solution", find_peg_solution)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
