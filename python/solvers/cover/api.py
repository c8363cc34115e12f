"""What the exact cover family puts at the package root: ``solvers/__init__.py``
star-imports this module, so its ``__all__`` is the family's share of
``solvers.__all__``.  Importing it registers the family (:mod:`.family`).
"""

from . import (
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
from .family import FAMILY as FAMILY  # registered as it is made

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
    "count_covers",
    "covers",
    "find_cover",
    "is_cover",
]
