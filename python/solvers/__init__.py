"""solvers: exact, parallel counting and fast finding of knight's tours,
N-Queens placements and peg-solitaire solutions, with Rust search cores.

The families live in the modules :mod:`solvers.knights`,
:mod:`solvers.nqueens`, :mod:`solvers.peg`, :mod:`solvers.peg_games` and
:mod:`solvers.pegboard`; no function here shares its name with a module
(``solvers.queens`` is the listing function, the module is
``solvers.nqueens``).

>>> import solvers
>>> solvers.count_tours(4, 7, threads=8)
1682
"""

from . import distributed as distributed  # `import solvers; solvers.distributed.plan(...)`
from ._version import __version__
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
    PegSolution,
    count_peg_solutions,
    find_peg_solution,
    finish_counts,
    is_peg_solution,
    peg_solutions,
    solve_peg,
)
from .peg_games import PegGames, count_peg_games

__all__ = [
    "MAX_FIND_CELLS",
    "MAX_SEARCH_CELLS",
    "Jump",
    "KnightBoard",
    "PegBoard",
    "PegGames",
    "PegSolution",
    "Placement",
    "Tour",
    "__version__",
    "count_peg_games",
    "count_peg_solutions",
    "count_queens",
    "count_tours",
    "find_peg_solution",
    "find_queens",
    "find_tour",
    "finish_counts",
    "is_peg_solution",
    "is_queens_solution",
    "is_tour",
    "peg_solutions",
    "queens",
    "solve_peg",
    "tours",
]
