"""What an :class:`~solvers.cover.problem.ExactCover` is given, read and
checked before it is numbered: lists of distinct hashable items
(:func:`item_list`), 0/1 matrices (:func:`zero_one`, :func:`matrix_options`,
the reading of :meth:`ExactCover.from_matrix`) and the words for options that
look like one.

>>> matrix_options([[1, 0, 1], [0, 1, 0]], ["a", "b", "x"], 1)
([('a', 'x'), ('b',)], ['a', 'b'], ['x'])
>>> zero_one([(1, 0), (0, 1)]), zero_one([("a", "b")])
(True, False)
"""

from __future__ import annotations

import numbers
from collections.abc import Hashable, Iterable
from typing import Any

from .. import _core
from .._engine import _validate

__all__ = [
    "MATRIX_HINT",
    "MAX_ENTRIES",
    "check_hashable",
    "is_bit",
    "item_list",
    "matrix_options",
    "named_options",
    "secondary_columns",
    "zero_one",
]

#: The most items, options, and entries over all options, a problem may have:
#: the core numbers them in 32 bits (``_core.MAX_COVER_ITEMS``, ``MAX_COVER_OPTIONS``).
MAX_ENTRIES: int = min(_core.MAX_COVER_ITEMS, _core.MAX_COVER_OPTIONS)

#: The words for options given as a 0/1 matrix.
MATRIX_HINT = (
    "the options look like a 0/1 matrix (rows of 0 and 1 of one length): for one, use "
    "ExactCover.from_matrix(matrix) (a row per option, a column per item, 1 where the "
    "option covers the item); ExactCover(options) takes each option as its items"
)


def is_bit(value: Any) -> bool:
    """Whether ``value`` is a number 0 or 1 (an int, a bool, a numpy scalar)."""
    if not isinstance(value, numbers.Number) and not hasattr(value, "dtype"):
        return False
    try:
        return bool(value == 0 or value == 1)
    except Exception:  # noqa: BLE001 - a value that does not compare
        return False


def zero_one(rows: Any) -> bool:
    """Whether ``rows`` (a list of sequences) look like a 0/1 matrix: at least
    two columns, every row as long, every entry a number 0 or 1."""
    width = None
    for row in rows:
        if not isinstance(row, (tuple, list)):
            return False
        if width is None:
            width = len(row)
        if len(row) != width or width < 2 or not all(map(is_bit, row)):
            return False
    return width is not None


def check_hashable(value: Any, what: str) -> None:
    """A ``TypeError`` naming ``what`` unless ``value`` can be a dictionary key."""
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            f"{what} must be hashable (a str, int, tuple, ...), got {type(value).__name__} "
            f"{_validate.shown(value)}"
        ) from None


def item_list(value: Any, name: str) -> tuple[Hashable, ...]:
    """The items of ``primary=`` or ``secondary=``: an iterable (not a string)
    of distinct hashable items."""
    items = tuple(_validate.iterable(value, name, "an iterable of items (a list, a tuple, ...)"))
    try:
        if len(set(items)) == len(items):
            return items  # hashable and distinct: checked in one pass in C
    except TypeError:
        pass  # an unhashable item: the loop below names it
    seen: set[Any] = set()
    for item in items:
        check_hashable(item, f"an item of {name}")
        if item in seen:
            raise ValueError(f"{name} lists the item {_validate.shown(item)} twice")
        seen.add(item)
    return items


def secondary_columns(secondary: Any, names: tuple[Hashable, ...]) -> set[Any]:
    """The items of :meth:`ExactCover.from_matrix`'s ``secondary``: a count
    of the last columns, or the names of some of ``names``."""
    if isinstance(secondary, numbers.Integral) and not isinstance(secondary, bool):
        count = int(secondary)
        if not 0 <= count <= len(names):
            raise ValueError(
                f"secondary={count}: the matrix has {len(names)} columns, so at least 0 "
                f"and at most {len(names)} of them may be secondary"
            )
        return set(names[len(names) - count :])
    chosen = item_list(secondary, "secondary")
    known = set(names)
    for item in chosen:
        if item not in known:
            raise ValueError(
                f"secondary names the item {_validate.shown(item)}, which is not a column "
                "of the matrix (items names the columns)"
            )
    return set(chosen)


def matrix_options(
    matrix: Any, items: Iterable[Hashable] | None, secondary: Any
) -> tuple[list[tuple[Hashable, ...]], list[Hashable], list[Hashable]]:
    """The options, primary and secondary items of a 0/1 ``matrix`` (see
    :meth:`ExactCover.from_matrix` for the arguments), each row checked."""
    tolist = getattr(matrix, "tolist", None)
    rows = tolist() if callable(tolist) else matrix
    rows = [
        tuple(_validate.iterable(row, f"row {r} of the matrix", "a sequence of 0 and 1"))
        for r, row in enumerate(
            _validate.iterable(rows, "matrix", "a list of rows of 0 and 1, or a 2-D array")
        )
    ]
    names = None if items is None else item_list(items, "items")
    width = len(rows[0]) if rows else 0 if names is None else len(names)
    names = tuple(range(width)) if names is None else names
    if len(names) != width:
        raise ValueError(f"items names {len(names)} columns, the matrix has {width} (its row 0)")
    chosen = secondary_columns(secondary, names)
    options = []
    for r, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(
                f"row {r} of the matrix has {len(row)} entries, row 0 has {width}: "
                "every row has one entry per item"
            )
        if not all(map(is_bit, row)):
            c = next(c for c, value in enumerate(row) if not is_bit(value))
            raise ValueError(
                f"row {r}, column {c} of the matrix holds {_validate.shown(row[c])}: "
                "a 0/1 matrix holds 0 (the option leaves the item) and 1 (it covers it)"
            )
        options.append(tuple(names[c] for c, value in enumerate(row) if value))
    primary = [item for item in names if item not in chosen]
    return options, primary, [item for item in names if item in chosen]


def named_options(items: tuple[Hashable, ...], numbered: Any) -> tuple[tuple[Any, ...], ...]:
    """The options of a numbered problem (``(starts, items, colours,
    palette)``) named by ``items``, a coloured entry as ``(item, colour)``.

    >>> named_options(("a", "x"), ([0, 2, 3], [0, 1, 0], [0, 1, 0], ("red",)))
    (('a', ('x', 'red')), ('a',))
    """
    starts, numbers, colours, palette = numbered
    flat: list[Any] = list(map(items.__getitem__, numbers))
    if palette:
        shades = (None, *palette)
        flat = [
            name if c == 0 else (name, shades[c]) for name, c in zip(flat, colours, strict=True)
        ]
    return tuple(tuple(flat[a:b]) for a, b in zip(starts, starts[1:], strict=False))
