"""What a family of puzzles tells the rest of the package about itself: one
:class:`Family` descriptor, defined in the family's own subpackage (its
``family`` module) and listed once, in :mod:`solvers._families`.  The shared
parts derive their lists from there: the plans that split
(:mod:`solvers._engine._plan`, :func:`solvers.distributed.plan`) and the
commands of the CLI (:mod:`solvers.cli`).  This module names no family.

>>> Family("demo").splits
()
>>> Family("demo", "show", more=(("demo2", "solvers.demo.cli2"),)).commands()
(('show', 'solvers.demo.cli'), ('demo2', 'solvers.demo.cli2'))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import _plan
from ._plan import Splittable

__all__ = ["Family", "register", "registered"]


@dataclass(frozen=True)
class Family:
    """One family: its subpackage's ``name`` (``solvers.<name>``), the name of
    its CLI ``command`` (default: the ``name``), implemented by the
    subpackage's ``cli`` module (:attr:`cli`, imported only when the CLI
    runs, so ``import solvers`` stays light: it must give ``HELP``,
    ``DESCRIPTION``, ``add_options(parser)`` and ``run(args)``),
    its counts that split into subproblems (``splits``, in the order
    :func:`solvers.distributed.plan` tries them) and its public counting
    functions (``counts``: what they return differs, an int, a table, a summary).
    A family may give more commands than its own (``more``: ``(command,
    module)`` pairs, each module like ``cli``), such as the ready models
    built on a general core."""

    name: str
    command: str = ""
    splits: tuple[Splittable, ...] = ()
    counts: tuple[Callable[..., Any], ...] = ()
    more: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if not self.command:
            object.__setattr__(self, "command", self.name)

    @property
    def cli(self) -> str:
        """The module of the family's own command: ``solvers.<name>.cli``."""
        return f"solvers.{self.name}.cli"

    def commands(self) -> tuple[tuple[str, str], ...]:
        """Every ``(command, module)`` of the family, its own first."""
        return ((self.command, self.cli), *self.more)


#: Every family registered, in the order registered (the package root's
#: order of imports).
_REGISTERED: dict[str, Family] = {}


def register(family: Family) -> Family:
    """Record ``family`` (its ``family`` module calls this as it makes it) and
    make its splittable counts' plans buildable; ``family`` back."""
    _REGISTERED.setdefault(family.name, family)
    for split in family.splits:
        _plan.register(split)
    return family


def registered() -> tuple[Family, ...]:
    """The families registered so far, in order."""
    return tuple(_REGISTERED.values())
