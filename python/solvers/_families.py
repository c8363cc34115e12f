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
import inspect

from ._engine._family import Family, registered

__all__ = ["FAMILIES", "VERBS", "exported", "verb_of", "verbs_table"]

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


#: The verbs of the package, in the table's order: each a word and the
#: prefix of a name that says it (a count is one of its family's ``counts``,
#: a lister a function that returns a generator).
VERBS: tuple[tuple[str, str], ...] = (
    ("count", ""),
    ("list", ""),
    ("find", "find_"),
    ("check", "is_"),
    ("cheapest", "cheapest_"),
    ("draw", "random_"),
)


def verb_of(family: Family, name: str, function: object) -> str | None:
    """The verb a public function of ``family`` is: a count (one of its
    ``counts``), a lister (a function returning a generator), a finder
    (``find_*``), a check (``is_*``), the cheapest solutions
    (``cheapest_*``) or solutions drawn at random (``random_*``); ``None``
    for anything else."""
    if not inspect.isfunction(function):
        return None
    if function in family.counts:
        return "count"
    if str(inspect.signature(function).return_annotation).startswith(("Generator", "Iterator")):
        return "list"
    for verb, prefix in VERBS:
        if prefix and name.startswith(prefix):
            return verb
    return None


def verbs_table() -> str:
    """The verbs x families table of the API reference (``docs/api.md``),
    made from the families' ``__all__``: a test holds the page to it.

    >>> print(verbs_table().splitlines()[2])
    | count | `count_tours`, `count_tours_row` | `count_queens` | `count_peg_games`, `count_peg_positions`, `count_peg_solutions`, `finish_counts` | `count_covers` |
    """  # noqa: E501
    cells: dict[str, dict[str, list[str]]] = {verb: {} for verb, _ in VERBS}
    for family in FAMILIES:
        module = importlib.import_module(f"solvers.{family.name}")
        for name in sorted(module.__all__):
            verb = verb_of(family, name, getattr(module, name))
            if verb is not None:
                cells[verb].setdefault(family.name, []).append(f"`{name}`")
    head = "| verb | " + " | ".join(f"`solvers.{f.name}`" for f in FAMILIES) + " |"
    rule = "| --- |" + " --- |" * len(FAMILIES)
    rows = [
        f"| {verb} | "
        + " | ".join(", ".join(cells[verb].get(f.name, [])) or "-" for f in FAMILIES)
        + " |"
        for verb, _ in VERBS
    ]
    return "\n".join([head, rule, *rows])
