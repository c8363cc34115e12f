"""Checking a cover: :func:`is_cover`, in plain Python, independent of the
Rust search (it reads only the problem's numbered options)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .._engine import _validate
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
    primary item of ``problem`` exactly once and every secondary item at
    most once, or more than once in one colour (Knuth's Algorithm C).  An
    option given twice covers its items twice.  Indices that are not
    integers, or not those of an option, are errors, not ``False``.

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
    covered: dict[int, int] = {}  # item -> its colour (0: none) where covered
    for k in _indices(problem, cover):
        for at in range(starts[k], starts[k + 1]):
            item, colour = items[at], colors[at]
            if item in covered:
                # Only a secondary item shared in one (real) colour may be covered again.
                if item < n_primary or colour == 0 or covered[item] != colour:
                    return False
            covered[item] = colour
    return all(item in covered for item in range(n_primary))
