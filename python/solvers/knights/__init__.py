"""Knight's tours: count, list, find and check them.  The modules of this
subpackage each do one job: the board (:mod:`.board`), the tour and its check
(:mod:`.tour`), counting (:mod:`.count`; a row of boards in one sweep,
:mod:`.row`), its plans (:mod:`.plan`) and
executor rounds (:mod:`.frontier_dist`), listing (:mod:`.listing`), finding
(:mod:`.find`), pictures, the animation and the CLI command; this module
re-exports the public names.

A square is ``(row, col)``, 0-based, row 0 at the top; the default start,
``start="lower-left"``, is the lower-left corner ``(rows - 1, 0)``.  A tour
visits every square of the board exactly once by knight moves; it is
*closed* if its last square is a knight's move from its first.  Boards may
be shaped: pass ``board=`` text with ``.`` for a square and ``#`` for a
missing one, one line per row.

>>> count_tours(3, 4)
2
>>> count_tours(4, 7, threads=2)
1682
>>> tour = find_tour(5, 5)
>>> tour.verify(), len(tour), tour.start
(True, 25, (4, 0))
"""

from .board import (
    LOWER_LEFT as LOWER_LEFT,
)
from .board import (
    MAX_FIND_CELLS,
    MAX_SEARCH_CELLS,
    KnightBoard,
)
from .board import (
    MAX_FRONTIER_SIDE as MAX_FRONTIER_SIDE,
)
from .board import (
    Square as Square,
)
from .board import (
    Start as Start,
)
from .count import COUNT_METHODS as COUNT_METHODS
from .count import count_tours
from .family import FAMILY as FAMILY  # registers the family as it is made
from .find import find_tour
from .listing import tours
from .row import MAX_ROW_COLS as MAX_ROW_COLS
from .row import count_tours_row
from .tour import Tour, is_tour

#: What the family puts at the package root (``solvers/__init__.py`` star-imports
#: it); its other public names (the limits, the methods' names) stay here.
__all__ = [
    "MAX_FIND_CELLS",
    "MAX_SEARCH_CELLS",
    "KnightBoard",
    "Tour",
    "count_tours",
    "count_tours_row",
    "find_tour",
    "is_tour",
    "tours",
]
