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
from collections.abc import Iterable, Mapping, Set
from typing import Any

_REPR = reprlib.Repr()
_REPR.maxstring = _REPR.maxother = 60
_REPR.maxlong = 60


def shown(value: Any) -> str:
    """``repr(value)``, shortened to one line for an error message."""
    try:
        return " ".join(_REPR.repr(value).split())
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


def between(value: Any, name: str, low: int, high: int, shown_high: str | None = None) -> int:
    """An ``int`` from ``low`` to ``high`` (``shown_high``: how the message
    writes ``high``).

    >>> between(3, "k", 0, 10)
    3
    """
    n = integer(value, name)
    if not low <= n <= high:
        raise ValueError(f"{name} must be from {low} to {shown_high or high}, got {n}")
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


def items(value: Any, count: int, name: str, what: str) -> tuple[Any, ...]:
    """The ``count`` items of ``value``: a tuple, a list or another sequence
    (a numpy array), not a string, a mapping or a set (``TypeError``, saying
    that ``name`` must be ``what``)."""
    if (
        isinstance(value, (str, bytes, Mapping, Set))
        or not hasattr(value, "__len__")
        or not hasattr(value, "__getitem__")
    ):
        raise TypeError(f"{name} must be {what}, got {shown(value)}")
    try:
        fits = len(value) == count
    except TypeError:  # an object whose len() does not work (a 0-d array)
        fits = False
    if not fits:
        raise TypeError(f"{name} must be {what}, got {shown(value)}")
    return tuple(value[i] for i in range(count))


def square(value: Any, name: str) -> tuple[int, int]:
    """A ``(row, col)`` pair of integers (see :func:`items`)."""
    row, col = items(value, 2, name, "a (row, col) pair of integers")
    return integer(row, f"{name} row"), integer(col, f"{name} col")


def iterable(value: Any, name: str, what: str) -> Iterable[Any]:
    """``value`` if it can be iterated (not a string), else ``TypeError``."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"{name} must be {what}, got {type(value).__name__}")
    return value


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


#: Units of a memory budget: decimal (``"4GB"``) and binary (``"4GiB"``).
_MEMORY_UNITS = {
    "": 1,
    "b": 1,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
}

#: The smallest memory budget a count takes (its tables' minimum).
MIN_MEMORY = 2**20

#: The largest memory budget a count takes: 1 EiB, far past any machine (a
#: larger number is a slip, such as ``"1e30GB"``; ``spill=False`` means no budget).
MAX_MEMORY = 2**60

#: The most subproblems a plan may be asked for: the Rust core's
#: ``engine::MAX_PLAN_TASKS`` (a plan is held in memory, and each
#: subproblem is an object on the Python side).
MAX_SUBPROBLEMS = 2**24


def memory(value: Any) -> int | None:
    """A memory budget in bytes: ``None`` (none given: what a count then
    takes is :func:`solvers._engine._args.budget_of`'s), an int of bytes or a
    string such as ``"4GB"``, ``"512 MiB"``, ``"1.5GiB"``.  From
    :data:`MIN_MEMORY` (1 MiB) to :data:`MAX_MEMORY` (1 EiB), else
    ``ValueError``.  ``"auto"`` is the caller's to pass on: the core
    resolves it where the bytes are used (``_core.RunOptions.budget``).

    >>> memory("4GB"), memory("1.5 GiB"), memory(2**30), memory(None)
    (4000000000, 1610612736, 1073741824, None)
    """
    if value is None:
        return None
    if isinstance(value, str):
        text = value.strip().lower().replace(" ", "")
        number = text.rstrip("abcdefghijklmnopqrstuvwxyz")
        unit = text[len(number) :]
        try:
            amount = float(number)
        except ValueError:
            amount = math.nan
        if unit not in _MEMORY_UNITS or not math.isfinite(amount) or amount <= 0:
            raise ValueError(
                f"memory must be a number of bytes, a size such as '4GB' or '512MiB' "
                f"(units B, KB, MB, GB, TB, KiB, MiB, GiB, TiB) or 'auto', got {shown(value)}"
            )
        result = int(amount * _MEMORY_UNITS[unit])
    else:
        result = integer(value, "memory")
    if not MIN_MEMORY <= result <= MAX_MEMORY:
        raise ValueError(
            f"memory must be at least {MIN_MEMORY} bytes (1 MiB) and at most 2**60 bytes "
            f"(1 EiB; spill=False for no budget), got {shown(value)}"
        )
    return result


def subproblems(value: Any) -> int:
    """The number of subproblems a plan is asked for: 1 to :data:`MAX_SUBPROBLEMS`.

    >>> subproblems(2**64)
    Traceback (most recent call last):
    ...
    ValueError: subproblems must be at least 1 and at most 16777216 (2**24), got 18446744073709551616
    """  # noqa: E501
    n = integer(value, "subproblems")
    if not 1 <= n <= MAX_SUBPROBLEMS:
        raise ValueError(
            f"subproblems must be at least 1 and at most {MAX_SUBPROBLEMS} (2**24), got {n}"
        )
    return n
