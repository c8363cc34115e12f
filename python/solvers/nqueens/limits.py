"""The board sizes the N-Queens search takes (:data:`MAX_SEARCH_N`), and the
check of an ``n`` against it that counting, listing and finding share.

>>> search_n(8, "n")
8
"""

from __future__ import annotations

from typing import Any

from .. import _core
from .._engine import _validate

__all__ = ["MAX_SEARCH_N", "search_n"]

#: Counting and listing take boards up to this size (bitmasks in 64 bits).
MAX_SEARCH_N: int = _core.MAX_QUEENS_SEARCH_N


def search_n(value: Any, what: str) -> int:
    n = _validate.positive(value, "n")
    if n > MAX_SEARCH_N:
        raise ValueError(f"{what} works for n up to {MAX_SEARCH_N}, got {n}")
    return n
