"""Argument checks shared by every puzzle family.

Each check either returns the normalised value or raises a ``TypeError`` /
``ValueError`` whose message names the argument, what was given and what is
allowed, so that no bad value ever reaches the Rust core.  Values are shown
shortened (:func:`shown`): a message stays one readable line whatever was
passed.
"""

from __future__ import annotations

import math
import numbers
import operator
import reprlib
from collections.abc import Mapping, Set
from typing import Any

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlong = 60


def shown(value: Any) -> str:
    """``repr(value)``, shortened for an error message."""
    try:
        return _REPR.repr(value)
    except Exception:  # noqa: BLE001 - a hostile __repr__ must not hide the real error
        return f"<{type(value).__name__} object>"


def integer(value: Any, name: str) -> int:
    """``value`` as an ``int`` (``bool`` refused); numpy integers are accepted."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, not a bool")
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}") from None


def positive(value: Any, name: str) -> int:
    """An ``int`` of at least 1."""
    n = integer(value, name)
    if n < 1:
        raise ValueError(f"{name} must be at least 1, got {n}")
    return n


#: More worker threads than this is surely a mistake (and costs memory).
MAX_THREADS = 1024


def threads(value: Any) -> int:
    """``threads=None`` means one thread per core (passed to Rust as 0)."""
    if value is None:
        return 0
    n = positive(value, "threads")
    if n > MAX_THREADS:
        raise ValueError(f"threads must be at most {MAX_THREADS}, got {n}")
    return n


def seconds(value: Any, name: str) -> float:
    """A finite, non-negative number of seconds (any real number: ``int``,
    ``float``, numpy scalars; not ``bool``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number of seconds, got {type(value).__name__}")
    try:
        as_float = float(value)
    except OverflowError:  # an int past the float range
        as_float = math.inf
    if not math.isfinite(as_float) or as_float < 0:
        raise ValueError(
            f"{name} must be a finite, non-negative number of seconds, got {shown(value)}"
        )
    return as_float


def timeout(value: Any) -> float | None:
    """``None`` or a non-negative, finite number of seconds."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"timeout must be a number of seconds or None, got {type(value).__name__}")
    return seconds(value, "timeout")


def square(value: Any, name: str) -> tuple[int, int]:
    """A ``(row, col)`` pair of integers: a tuple, a list or another sequence
    of two (a numpy array), not a string, a mapping or a set."""
    if (
        isinstance(value, (str, bytes, Mapping, Set))
        or not hasattr(value, "__len__")
        or not hasattr(value, "__getitem__")
    ):
        raise TypeError(f"{name} must be a (row, col) pair of integers, got {shown(value)}")
    try:
        pair = len(value) == 2
    except TypeError:  # an object whose len() does not work (a 0-d array)
        pair = False
    if not pair:
        raise TypeError(f"{name} must be a (row, col) pair of integers, got {shown(value)}")
    return integer(value[0], f"{name} row"), integer(value[1], f"{name} col")


def flag(value: Any, name: str) -> bool:
    """A real ``bool`` (``0``/``1`` and truthy objects are refused)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {shown(value)}")
    return value


def choice(value: Any, name: str, allowed: tuple[str, ...]) -> str:
    """One of the strings ``allowed`` (``ValueError`` for anything else)."""
    if not isinstance(value, str) or value not in allowed:
        if len(allowed) == 2:
            options = f"{allowed[0]!r} or {allowed[1]!r}"
        else:
            options = "one of " + ", ".join(map(repr, allowed))
        raise ValueError(f"{name} must be {options}, got {shown(value)}")
    return value
