"""The package's families, as they registered themselves.  Each family
describes itself in its own subpackage (a :class:`~solvers._engine._family.Family`
in its ``family`` module, which registers it as it is made), and the package
root star-imports each family subpackage: that one line a family is what
makes it part of the package.  Everything that needs the families (the plans
that split, :func:`solvers.distributed.plan`, the CLI's commands, the tests)
reads them from :data:`FAMILIES`.

>>> [family.name for family in FAMILIES]
['knights', 'nqueens', 'peg', 'cover']
"""

from __future__ import annotations

import importlib

from ._engine._family import Family, registered

__all__ = ["FAMILIES", "exported"]

#: Every family, in the order the package root imports them (the order the
#: CLI lists their commands).  The root imports the families before this
#: module, so all have registered by now.
FAMILIES: tuple[Family, ...] = registered()

if not FAMILIES:  # pragma: no cover - only if the root's imports were reordered
    raise ImportError("solvers._families was imported before any family registered")


def exported() -> list[str]:
    """The names every family puts at the package root (its ``__all__``)."""
    return [
        name
        for family in FAMILIES
        for name in importlib.import_module(f"solvers.{family.name}").__all__
    ]
