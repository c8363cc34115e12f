"""The N-Queens family as the package registers it (in
the root's import of :mod:`.api`): its CLI command and its count that splits.

>>> FAMILY.command, [split.name for split in FAMILY.splits]
('queens', ['queens'])
"""

from __future__ import annotations

from .. import _core
from .._engine._family import Family, register
from .._engine._plan import Splittable
from .count import count_queens, plan_queens

__all__ = ["FAMILY"]

FAMILY = register(
    Family(
        "nqueens",
        command="queens",
        splits=(Splittable("queens", _core.queens_plan, count_queens, plan_queens),),
        counts=(count_queens,),
    )
)
