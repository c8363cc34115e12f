"""The numbering of an :class:`~solvers.cover.problem.ExactCover`'s options
for the core, with the checks that say what is wrong with an option: in
Rust where it can (:mod:`.numbering`), else option by option."""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Any, NoReturn

from .._engine import _validate
from . import numbering
from .reading import MATRIX_HINT, MAX_ENTRIES, check_hashable, zero_one

if TYPE_CHECKING:
    from .problem import ExactCover

#: ``(starts, items, colors, palette)``: option ``k`` holds the items
#: ``items[starts[k]:starts[k + 1]]`` with the colours beside them (0: none;
#: colour ``c`` is ``palette[c - 1]``).
Numbered = tuple["array[int]", "array[int]", "array[int]", tuple[Any, ...]]


def encode(problem: ExactCover, at_once: Any = None) -> Numbered:
    """Check every option of ``problem`` and number it (``at_once``: what
    the search for the primary items numbered already, if it did)."""
    if at_once is not None:
        starts, items, colors, palette = at_once[1:]
        return starts, items, colors, palette
    n_primary, index = len(problem._primary), problem._index
    fast = None if problem._colored else numbering.numbered(problem._named(), index, n_primary)
    if fast is not None:
        (starts, items), palette = fast, ()
        return starts, items, array("I", bytes(4 * len(items))), palette
    starts, items, colors = array("I", [0]), array("I"), array("I")
    colours: dict[Any, int] = {}
    for k, option in enumerate(problem._named()):
        names = problem._names(option)
        try:
            numbers = [index[item] for item in names]
        except (KeyError, TypeError):
            refuse(problem, k, names)
        if len(set(numbers)) != len(numbers):
            refuse(problem, k, names)
        if not numbers or min(numbers) >= n_primary:
            raise ValueError(
                f"option {k} {_validate.shown(option)} has no primary item: every option "
                "must cover at least one primary item"
            )
        items.extend(numbers)
        if problem._colored:
            for entry, number in zip(option, numbers, strict=True):
                colors.append(colour_of(problem, k, entry, number, colours))
        if len(items) > MAX_ENTRIES:
            raise ValueError(f"a problem may have at most {MAX_ENTRIES} entries in all")
        starts.append(len(items))
    if not problem._colored:
        colors = array("I", bytes(4 * len(items)))
    return starts, items, colors, tuple(colours)


def refuse(problem: ExactCover, k: int, names: tuple[Any, ...]) -> NoReturn:
    """The error of option ``k``, whose items ``names`` are not all known and distinct."""
    seen = set()
    for item in names:
        check_hashable(item, f"an item of option {k}")
        if item not in problem._index:
            raise ValueError(
                f"option {k} holds the item {_validate.shown(item)}, which is not in "
                "primary or secondary"
            )
        if item in seen:
            if zero_one(problem._named()):
                raise ValueError(MATRIX_HINT)
            raise ValueError(
                f"option {k} holds the item {_validate.shown(item)} twice (an option "
                "covers an item once)"
            )
        seen.add(item)
    raise AssertionError(names)  # pragma: no cover - called only on a bad option


def colour_of(problem: ExactCover, k: int, entry: Any, number: int, colours: dict[Any, int]) -> int:
    """The number of the colour of ``entry`` (item ``number`` of option ``k``)."""
    item, colour = problem._entry(entry)
    if colour is None:
        return 0
    if number < len(problem._primary):
        raise ValueError(
            f"option {k} gives the primary item {_validate.shown(item)} the "
            f"colour {_validate.shown(colour)}: only secondary items have colours"
        )
    check_hashable(colour, f"the colour of {_validate.shown(item)} in option {k}")
    return colours.setdefault(colour, len(colours) + 1)
