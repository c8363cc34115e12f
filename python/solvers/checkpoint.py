"""The old path ``solvers.checkpoint``, kept for one release: importing it warns
with a :class:`DeprecationWarning` and gives the names of
``solvers._engine._checkpoint``, where they live now."""

from ._engine._checkpoint import *  # noqa: F403 - the old module's names, as before
from ._engine._checkpoint import __all__ as __all__
from ._engine._deprecated import moved

moved("solvers.checkpoint", "solvers._engine._checkpoint", None, stacklevel=2)
