"""The one list of the package's families.  Each family describes itself in
its own subpackage (a :class:`~solvers._engine._family.Family` in its
``family`` module); everything that needs the families (the plans that split,
:func:`solvers.distributed.plan`, the CLI's commands, the tests) reads them
from :data:`FAMILIES`.  A new family is one line here.

Importing this module registers every family's splittable counts with
:mod:`solvers._engine._plan`; the package root imports it, so any process
that unpickles a subproblem (its import of ``solvers`` comes first) can count
it.

>>> [family.name for family in FAMILIES]
['knights', 'nqueens', 'peg', 'cover']
"""

from __future__ import annotations

from ._engine import _plan
from ._engine._family import Family
from .cover.family import FAMILY as COVER
from .knights.family import FAMILY as KNIGHTS
from .nqueens.family import FAMILY as NQUEENS
from .peg.family import FAMILY as PEG

__all__ = ["FAMILIES"]

#: Every family, in the order the CLI lists their commands.
FAMILIES: tuple[Family, ...] = (KNIGHTS, NQUEENS, PEG, COVER)

for _family in FAMILIES:
    for _split in _family.splits:
        _plan.register(_split)
