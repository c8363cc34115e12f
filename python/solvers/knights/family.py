"""The knight's-tour family as the package registers it (in
the root's import of :mod:`.api`): its CLI command and its counts that split.

>>> FAMILY.command, [split.name for split in FAMILY.splits]
('tours', ['tours', 'tour-pairs'])
"""

from __future__ import annotations

from .._engine._family import Family, register
from .._engine._plan import Splittable
from .count import count_tours
from .plan import build_pairs, build_search, pairs_problem, plan_tours
from .row import count_tours_row

__all__ = ["FAMILY"]

FAMILY = register(
    Family(
        "knights",
        command="tours",
        # "tours" before "tour-pairs", so that plan(count_tours, ...) finds that
        # one first (and goes on to the pairs by method="pairs").
        splits=(
            Splittable("tours", build_search, count_tours, plan_tours),
            Splittable("tour-pairs", build_pairs, count_tours, plan_tours, problem=pairs_problem),
        ),
        counts=(count_tours, count_tours_row),
    )
)
