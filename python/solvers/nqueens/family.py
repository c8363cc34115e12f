"""The N-Queens family as the package registers it (in
:mod:`solvers._families`): its CLI command and its count that splits.

>>> FAMILY.command, [split.name for split in FAMILY.splits]
('queens', ['queens'])
"""

from __future__ import annotations

from .. import _core
from .._engine._family import Family
from .._engine._plan import Splittable
from .count import count_queens, plan_queens

__all__ = ["FAMILY"]

FAMILY = Family(
    "nqueens",
    command="queens",
    cli="solvers.nqueens.cli",
    splits=(Splittable("queens", _core.queens_plan, count_queens, plan_queens),),
    counts=(count_queens,),
)
