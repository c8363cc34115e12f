"""The options of a large :class:`~solvers.ExactCover` numbered in one pass
in Rust (``_core.number_options``: a million options of five items in a
fraction of a second), for the common case: options given as tuples or
lists, no colours.  Where the pass finds anything amiss it answers
``None`` and the problem's own loop, option by option, says what (so every
message is the one that loop gives).

>>> numbered((("a", "b"), ("b",)), {"a": 0, "b": 1}, 2)
(array('I', [0, 2, 3]), array('I', [0, 1, 1]))
>>> numbered((("a", "a"),), {"a": 0}, 1) is None
True
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable
from typing import Any

from .. import _core
from .._engine import _packing, _validate
from .reading import MAX_ENTRIES

__all__ = ["first_seen", "numbered", "tuples"]


def tuples(listed: list[Any]) -> tuple[tuple[Any, ...], ...]:
    """The options given, each as a tuple (at C speed where every option
    is a tuple or a list); ``TypeError`` for one that is no iterable of items."""
    if set(map(type, listed)) <= {tuple, list}:
        return tuple(map(tuple, listed))
    return tuple(_option(k, option) for k, option in enumerate(listed))


def _option(k: int, option: Any) -> tuple[Any, ...]:
    if type(option) is tuple or type(option) is list:
        return tuple(option)
    if isinstance(option, (str, bytes)):
        raise TypeError(
            f"option {k} must be an iterable of items, got the string "
            f"{_validate.shown(option)} (write its items out, e.g. "
            f"tuple({_validate.shown(option)}) for one-letter items)"
        )
    return tuple(_validate.iterable(option, f"option {k}", "an iterable of items"))


def numbered(
    options: tuple[tuple[Any, ...], ...], index: dict[Hashable, int], n_primary: int
) -> tuple[array[int], array[int]] | None:
    """``(starts, items)`` of uncoloured ``options`` (see
    :meth:`~solvers.ExactCover.arrays`), or ``None`` unless every item is
    known, no option holds one twice and every option a primary one."""
    done = _core.number_options(options, index, n_primary, MAX_ENTRIES)
    if isinstance(done, int):
        return None  # option ``done`` is amiss: the caller's loop says how
    starts, items = done
    return _packing.unpack(starts), _packing.unpack(items)


def first_seen(
    options: tuple[tuple[Any, ...], ...], secondary: tuple[Hashable, ...]
) -> tuple[tuple[Hashable, ...], array[int], array[int], array[int], tuple[()]] | None:
    """``(primary, starts, items, colours, palette)`` of uncoloured ``options`` whose primary
    items are all the others than ``secondary``, in order of first
    appearance, found and numbered in the same pass; ``None`` where anything
    is amiss (the caller's loop says what).

    >>> first_seen((("a", "x"), ("b",)), ("x",))[:3]
    (('a', 'b'), array('I', [0, 2, 3]), array('I', [0, 2, 1]))
    """
    where = {item: s for s, item in enumerate(secondary)}
    done = _core.number_first_seen(options, where, MAX_ENTRIES)
    if done is None:
        return None
    primary, starts, items = done
    numbers = _packing.unpack(items)
    return primary, _packing.unpack(starts), numbers, array("I", bytes(4 * len(numbers))), ()
