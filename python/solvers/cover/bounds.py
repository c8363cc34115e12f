"""Bounds on the primary items: Knuth's multiplicities (his Algorithm M,
the DLX3 and SSMCC programs).  With ``bounds={item: (least, most)}`` (or
``{item: k}`` for exactly ``k``) a cover is a *set* of options that puts
each primary item in between ``least`` and ``most`` of them, every other
primary item in exactly one, and every secondary item in at most one (or
in several that give it one colour).  An option is chosen at most once.

Every set within the bounds counts once, those that leave an item of
``least = 0`` without any option too: these are Knuth's "total"
solutions, not only those where every chosen option is needed.

>>> read_bounds({"a": (0, 2), "b": 3}, ("a", "b", "c"))
((0, 2), (3, 3), (1, 1))
>>> read_bounds({"a": (1, 1)}, ("a",)) is None
True
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

from .._engine import _validate

#: Each primary item's ``(least, most)``, in primary order.
Bounds = tuple[tuple[int, int], ...]

#: The most a bound may be (the core counts in 32 bits).
MAX_BOUND = 2**32 - 1

_FORM = "a count k or a pair (least, most) of counts"


def read_bounds(given: Any, primary: tuple[Hashable, ...]) -> Bounds | None:
    """The bounds of ``given`` (a mapping from primary items to a count or
    a ``(least, most)`` pair) for every item of ``primary``; ``None`` when
    every item is covered exactly once, the plain exact-cover problem."""
    if given is None:
        return None
    if not isinstance(given, Mapping):
        raise TypeError(f"bounds must be a mapping {{item: {_FORM}}}, got {type(given).__name__}")
    where = {item: i for i, item in enumerate(primary)}
    out = [(1, 1)] * len(primary)
    for item, value in given.items():
        if item not in where:
            raise ValueError(
                f"bounds name the item {_validate.shown(item)}, which is not a primary item "
                "(only primary items take bounds)"
            )
        out[where[item]] = _pair(item, value)
    return None if all(pair == (1, 1) for pair in out) else tuple(out)


def _pair(item: Any, value: Any) -> tuple[int, int]:
    """``value`` read as ``(least, most)`` for ``item``."""
    what = f"the bound of {_validate.shown(item)}"
    if isinstance(value, tuple | list) and len(value) == 2:
        least, most = (_count(part, what) for part in value)
    elif isinstance(value, int) and not isinstance(value, bool):
        least = most = _count(value, what)
    else:
        raise TypeError(f"{what} must be {_FORM}, got {_validate.shown(value)}")
    if least > most:
        raise ValueError(f"{what} is ({least}, {most}): the least must not exceed the most")
    return least, most


def _count(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be {_FORM}, got {_validate.shown(value)}")
    if not 0 <= value <= MAX_BOUND:
        raise ValueError(f"{what} must be from 0 to {MAX_BOUND}, got {value}")
    return value


def as_mapping(bounds: Bounds | None, primary: tuple[Hashable, ...]) -> dict[Hashable, Any]:
    """The bounds other than exactly once, as given to ``ExactCover``: a
    count where least and most agree, else the pair."""
    if bounds is None:
        return {}
    return {
        item: (lo if lo == hi else (lo, hi))
        for item, (lo, hi) in zip(primary, bounds, strict=True)
        if (lo, hi) != (1, 1)
    }


def within(bounds: Bounds | None, times: list[int]) -> int | None:
    """The first primary item whose count in ``times`` is outside its
    bounds (exactly once without bounds), or ``None``."""
    for i, t in enumerate(times):
        lo, hi = (1, 1) if bounds is None else bounds[i]
        if not lo <= t <= hi:
            return i
    return None
