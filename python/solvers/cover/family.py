"""The exact-cover family as the package registers it (in
the root's import of :mod:`.api`): its CLI commands (``cover``, and the
ready models' ``sudoku`` and ``tiling``) and its count that splits.

>>> [command for command, _ in FAMILY.commands()], [split.name for split in FAMILY.splits]
(['cover', 'sudoku', 'tiling'], ['cover'])
"""

from __future__ import annotations

from .._engine._family import Family, register
from .._engine._plan import Splittable
from .count import build_plan, count_covers, plan_covers, plan_key

__all__ = ["FAMILY"]

FAMILY = register(
    Family(
        "cover",
        splits=(Splittable("cover", build_plan, count_covers, plan_covers, plan_key),),
        counts=(count_covers,),
        more=(("sudoku", "solvers.cover.sudoku_cli"), ("tiling", "solvers.cover.tiling_cli")),
    )
)
