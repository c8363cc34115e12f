"""Peg solitaire: count the jump sequences that leave a single peg, on any board.

A game starts with a peg in every hole but ``start``; a jump takes a peg over
a neighbouring peg into an empty hole and removes the peg jumped over.  A
solution is a sequence of jumps that leaves one peg (on ``finish``, if given).
Counts are exact (``u128`` in the core, checked), and the same for every
``threads``.

>>> count_peg_solutions(PegBoard.triangle(5), start=(0, 0), finish=None)
29760
>>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3))
432

How it counts: Python drives a layer-by-layer DP, the Rust kernel
(``src/peg/``) turns one layer of positions into the next.  Positions are
kept once per class of the board symmetries that fix the start (and the
finish), and a count with a given finish runs two searches, one from the start
and one backwards from the finish (a backward jump is a jump on the
complemented board), that meet in the middle layer, so only positions both can
reach are ever joined.  With ``executor=`` the layers are cut into parts by a
hash of the positions and expanded part by part in the executor's tasks.
One driver, :mod:`solvers.peg.dp`, decides what to grow and when to join for
both ways of running (:mod:`solvers.peg.dist` runs the layers on an
executor).  The other modules of this subpackage each do one job: the board
(:mod:`.board`), a game and its check (:mod:`.solution`), what every call
shares (:mod:`.calls`), counting (:mod:`.count`, :mod:`.finish`,
:mod:`.games`, :mod:`.positions`), finding (:mod:`.find`), listing (:mod:`.listing`), pictures,
the replay and the CLI command; this module re-exports the public names (and
keeps ``solve_peg``, the old name of :func:`find_peg_solution`, for one
release, with a :class:`DeprecationWarning`).
"""

from typing import Any

from .._engine._deprecated import moved
from .board import MAX_HOLES as MAX_HOLES
from .board import Hole as Hole
from .board import PegBoard
from .board import Square as Square
from .calls import Finish as Finish
from .count import count_peg_solutions
from .family import FAMILY as FAMILY  # registers the family as it is made
from .find import find_peg_solution
from .finish import finish_counts
from .games import PegGames, count_peg_games
from .listing import peg_solutions
from .positions import PegPositions, count_peg_positions
from .solution import Jump, PegSolution, is_peg_solution

#: What the family puts at the package root (``solvers/__init__.py`` star-imports
#: it); its other public names (the limits, the methods' names) stay here.
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


def __getattr__(name: str) -> Any:
    """``solve_peg``: the old name of :func:`find_peg_solution` (deprecated)."""
    if name == "solve_peg":
        return moved("solvers.peg.solve_peg", "solvers.find_peg_solution", find_peg_solution)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
