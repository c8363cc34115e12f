"""Exact cover with colours (Knuth's Algorithms X and C): state a
backtracking problem as options over items, then count, list, find and check
its covers on the package's parallel engine.

Its modules each do one job: the problem and its encoding for the core
(:mod:`.problem`), Knuth's DLX text (:mod:`.dlx`), the check of a cover
(:mod:`.check`), counting and its plan (:mod:`.count`, the methods in
:mod:`.methods`), listing (:mod:`.listing`), finding (:mod:`.find`), the
cheapest covers (:mod:`.cheapest`, the costs in :mod:`.costs`), covers drawn
at random (:mod:`.sample`) and the CLI command; this module re-exports the
public names.  The ready models built on it, each a small module reading
covers back into its own results (:mod:`.model`), are Sudoku (:mod:`.sudoku`), polyomino tilings
(:mod:`.tiling`, the pieces in :mod:`.pieces`), Langford pairs
(:mod:`.langford`) and N-Queens (:mod:`.queens`), with their pictures
(:mod:`.pictures`) and the commands ``solvers sudoku`` and ``solvers tiling``.

>>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
>>> count_covers(problem), find_cover(problem, deterministic=True), is_cover(problem, [0, 1])
(3, Cover((0, 1)), True)
"""

from .cheapest import cheapest_covers
from .check import is_cover
from .count import COUNT_METHODS as COUNT_METHODS
from .count import count_covers
from .family import FAMILY as FAMILY  # registers the family as it is made
from .find import find_cover
from .langford import LangfordPairs, LangfordSequence
from .listing import covers
from .pieces import PIECE_SETS as PIECE_SETS
from .pieces import Piece
from .pieces import piece_set as piece_set
from .problem import ExactCover
from .queens import QueensCover
from .result import Cover
from .sample import random_covers
from .sudoku import Sudoku
from .tiling import Tiling, TilingPuzzle

#: What the family puts at the package root (``solvers/__init__.py`` star-imports
#: it); its other public names (the limits, the methods' names) stay here.
__all__ = [
    "Cover",
    "ExactCover",
    "LangfordPairs",
    "LangfordSequence",
    "Piece",
    "QueensCover",
    "Sudoku",
    "Tiling",
    "TilingPuzzle",
    "cheapest_covers",
    "count_covers",
    "covers",
    "find_cover",
    "is_cover",
    "random_covers",
]
