"""The peg-solitaire family as the package registers it (in
the root's import of :mod:`.api`): its CLI command and its counts.  Its DP splits by
layers, not into subproblems, so it has no :class:`Splittable` (give
``executor=`` to :func:`~solvers.count_peg_solutions` instead).

>>> FAMILY.command, FAMILY.splits
('peg', ())
"""

from __future__ import annotations

from .._engine._family import Family, register
from .count import count_peg_solutions
from .finish import finish_counts
from .games import count_peg_games
from .positions import count_peg_positions

__all__ = ["FAMILY"]

FAMILY = register(
    Family(
        "peg",
        counts=(count_peg_solutions, finish_counts, count_peg_games, count_peg_positions),
    )
)
