"""The old path ``solvers.peg_games``, kept for one release: importing it warns
with a :class:`DeprecationWarning` and gives the names of
``solvers.peg``, where they live now."""

from ._engine._deprecated import moved
from .peg.games import *  # noqa: F403 - the old module's names, as before
from .peg.games import __all__ as __all__

moved("solvers.peg_games", "solvers.peg", None, stacklevel=2)
