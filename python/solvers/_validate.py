"""Argument checks shared by every puzzle family.

Each check either returns the normalised value or raises a ``TypeError`` /
``ValueError`` whose message names the argument, what was given and what is
allowed, so that no bad value ever reaches the Rust core.
"""

from __future__ import annotations

import math
import operator
from typing import Any


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


def timeout(value: Any) -> float | None:
    """``None`` or a non-negative, finite number of seconds."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"timeout must be a number of seconds or None, got {type(value).__name__}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"timeout must be a finite, non-negative number of seconds, got {value}")
    return float(value)


def square(value: Any, name: str) -> tuple[int, int]:
    """A ``(row, col)`` pair of integers."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 2:
        raise TypeError(f"{name} must be a (row, col) pair of integers, got {value!r}")
    return integer(value[0], f"{name} row"), integer(value[1], f"{name} col")


def flag(value: Any, name: str) -> bool:
    """A real ``bool`` (``0``/``1`` and truthy objects are refused)."""
    if not isinstance(value, bool):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return value
