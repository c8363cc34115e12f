"""Exact cover with colours (Knuth's Algorithms X and C): state a
backtracking problem as options over items, then count, list, find and check
its covers on the package's parallel engine.

Its modules each do one job: the problem and its encoding for the core
(:mod:`.problem`), Knuth's DLX text (:mod:`.dlx`), the check of a cover
(:mod:`.check`), counting and its plan (:mod:`.count`, the methods in
:mod:`.methods`), listing (:mod:`.listing`), finding (:mod:`.find`) and the
CLI command; this module re-exports the public names.

>>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
>>> count_covers(problem), find_cover(problem, deterministic=True), is_cover(problem, [0, 1])
(3, (0, 1), True)
"""

from .check import is_cover
from .count import COUNT_METHODS, count_covers
from .find import find_cover
from .listing import covers
from .problem import ExactCover

__all__ = ["COUNT_METHODS", "ExactCover", "count_covers", "covers", "find_cover", "is_cover"]
