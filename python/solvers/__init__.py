"""solvers: exact, parallel counting and fast finding of knight's tours,
N-Queens placements, peg-solitaire solutions and the covers of any
exact-cover problem, with Rust search cores.

The families live in the subpackages :mod:`solvers.knights`,
:mod:`solvers.nqueens`, :mod:`solvers.peg` and :mod:`solvers.cover`; this
module imports each one's ``api`` (one line a family, which registers it in
:mod:`solvers._families`); what they share is in ``solvers._engine``.  No
function here shares its name with a module (``solvers.queens`` is the
listing function, the subpackage is ``solvers.nqueens``).  This module only
re-exports (``solve_peg``, the old name of :func:`find_peg_solution`, still
works for one release, with a :class:`DeprecationWarning`).

>>> import solvers
>>> solvers.count_tours(4, 7, threads=2)
1682
"""

from typing import Any  # noqa: I001 - the families in the CLI's order

# One line a family: its names come to the root (its __all__), and importing it
# registers the family (the order is the CLI's order of commands).
from .knights import *  # noqa: F403
from .nqueens import *  # noqa: F403
from .peg import *  # noqa: F403
from .cover import *  # noqa: F403

from . import _families as _families
from . import distributed as distributed  # `import solvers; solvers.distributed.plan(...)`
from ._engine._deprecated import moved
from ._engine._run import RunOptions
from ._version import __version__

__all__ = ["RunOptions", "__version__", *_families.exported()]  # noqa: PLE0605


def __getattr__(name: str) -> Any:
    """``solvers.solve_peg``: the old name of :func:`find_peg_solution` (deprecated)."""
    if name == "solve_peg":
        return moved("solvers.solve_peg", "solvers.find_peg_solution", find_peg_solution)  # noqa: F405
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
