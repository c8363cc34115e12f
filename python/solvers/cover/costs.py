"""Costs of options: Knuth's DLX5.  With ``costs=[c0, c1, ...]`` (a
nonnegative integer per option, in option order) a cover costs the sum of
its options' costs, and :func:`~solvers.cheapest_covers` finds the ``k``
cheapest.  Counting and listing ignore the costs: every cover is a cover.

>>> read_costs([3, 0, 2], 3)
(3, 0, 2)
>>> read_costs([0, 0], 2) is None
True
"""

from __future__ import annotations

from typing import Any

from .._engine import _validate

#: The most one option may cost (the core adds costs in 64 bits: a cover
#: of up to 2**31 options then cannot overflow).
MAX_COST = 2**32 - 1

#: An option's costs in order: ``None`` when every option costs 0.
Costs = tuple[int, ...]


def read_costs(given: Any, n_options: int) -> Costs | None:
    """The costs of ``given`` (an iterable of ``n_options`` integers from 0 to
    :data:`MAX_COST`); ``None`` when there are none, or all are 0."""
    if given is None:
        return None
    form = f"an iterable of {n_options} integers from 0 to {MAX_COST}, one per option"
    if isinstance(given, str | bytes) or not hasattr(given, "__iter__"):
        raise TypeError(f"costs must be {form}, got {type(given).__name__}")
    tolist = getattr(given, "tolist", None)  # a numpy array, read at once
    values = list(tolist() if callable(tolist) else given)
    if len(values) != n_options:
        raise ValueError(f"costs has {len(values)} entries for {n_options} options: give {form}")
    for k, value in enumerate(values):
        if not isinstance(value, int) or isinstance(value, bool):
            got = _validate.shown(value)
            raise TypeError(f"the cost of option {k} must be an integer, got {got}")
        if not 0 <= value <= MAX_COST:
            raise ValueError(f"the cost of option {k} must be from 0 to {MAX_COST}, got {value}")
    return tuple(values) if any(values) else None
