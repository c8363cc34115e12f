"""Checking a cover: :func:`is_cover`, in plain Python, independent of the
Rust search (it reads only the problem's numbered options)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._engine import _validate
from .bounds import within
from .problem import ExactCover

__all__ = ["is_cover"]


def _indices(problem: ExactCover, cover: Any) -> list[int]:
    """The option indices of ``cover``, checked (``TypeError``/``ValueError``)."""
    if isinstance(cover, ExactCover):
        raise TypeError("is_cover(problem, cover): the cover comes second, the problem first")
    values = _validate.iterable(cover, "cover", "an iterable of option indices (ints)")
    indices = []
    for value in values:
        k = _validate.integer(value, "an option index of the cover")
        if not 0 <= k < len(problem):
            raise ValueError(
                f"the cover holds the option index {k}, but the problem's options are "
                f"numbered 0 to {len(problem) - 1}"
                if len(problem)
                else f"the cover holds the option index {k}, but the problem has no options"
            )
        indices.append(k)
    return indices


def is_cover(problem: ExactCover, cover: Iterable[int]) -> bool:
    """Whether the options ``cover`` (their indices, in any order) cover every
    primary item of ``problem`` exactly once (or within its bounds, see
    :mod:`solvers.cover.bounds`) and every secondary item at most once, or
    more than once in one colour (Knuth's Algorithm C; his M with bounds).
    An option given twice covers its items twice; with bounds, a cover is a
    set of options, so an option given twice is not one.  Indices that are
    not integers, or not those of an option, are errors, not ``False``.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c")])
    >>> is_cover(problem, [1, 0]), is_cover(problem, [2, 3]), is_cover(problem, [0])
    (True, True, False)
    >>> is_cover(problem, [4])
    Traceback (most recent call last):
    ...
    ValueError: the cover holds the option index 4, but the problem's options are numbered 0 to 3
    """
    if not isinstance(problem, ExactCover):
        raise TypeError(f"problem must be an ExactCover, got {type(problem).__name__}")
    n_primary, _, starts, items, colors = problem.arrays()
    chosen = _indices(problem, cover)
    if problem._bounds is not None and len(set(chosen)) != len(chosen):
        return False
    times = [0] * n_primary
    shared: dict[int, int] = {}  # secondary item -> its colour (0: none) where covered
    for k in chosen:
        for at in range(starts[k], starts[k + 1]):
            item, colour = items[at], colors[at]
            if item < n_primary:
                times[item] += 1
            elif item in shared:
                # A secondary item is shared only in one (real) colour.
                if colour == 0 or shared[item] != colour:
                    return False
            else:
                shared[item] = colour
    return within(problem._bounds, times) is None
