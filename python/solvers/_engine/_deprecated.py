"""Old names kept for one release: :func:`moved` warns once per use with a
:class:`DeprecationWarning` that names the new place, and hands the object on.
This module names no family; the families and the package root call it from
their module ``__getattr__`` and from the tiny modules left at old paths.

>>> import warnings
>>> with warnings.catch_warnings(record=True) as seen:
...     warnings.simplefilter("always")
...     moved("solvers.old", "solvers.new", 42, stacklevel=2)
42
>>> str(seen[0].message)
'solvers.old is deprecated: use solvers.new (the old name goes in the next release)'
"""

from __future__ import annotations

import warnings
from typing import TypeVar

__all__ = ["moved"]

_T = TypeVar("_T")


def moved(old: str, new: str, value: _T, *, stacklevel: int = 3) -> _T:
    """``value``, after a :class:`DeprecationWarning` that ``old`` is now
    ``new``; ``stacklevel`` 3 points at the caller of a module
    ``__getattr__`` (the line that read the old name)."""
    warnings.warn(
        f"{old} is deprecated: use {new} (the old name goes in the next release)",
        DeprecationWarning,
        stacklevel=stacklevel,
    )
    return value
