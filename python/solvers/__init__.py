"""solvers: exact, parallel counting and fast finding of knight's tours
(N-Queens and peg solitaire are on the way), with Rust search cores.

>>> import solvers
>>> solvers.count_tours(4, 7, threads=8)
1682
"""

from importlib.metadata import PackageNotFoundError, version

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

try:
    __version__ = version("solvers")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = [
    "MAX_FIND_CELLS",
    "MAX_SEARCH_CELLS",
    "KnightBoard",
    "Tour",
    "__version__",
    "count_tours",
    "find_tour",
    "is_tour",
    "tours",
]
