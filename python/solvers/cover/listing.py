"""Listing covers: :func:`covers`, streamed lazily from Rust in the search's
documented order."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from .. import _core
from .._engine import _packing, _validate
from .problem import ExactCover, core_problem

__all__ = ["covers"]


def covers(
    problem: ExactCover, *, threads: int | None = None, timeout: float | None = None
) -> Generator[tuple[int, ...], None, None]:
    """Every cover of ``problem``, lazily: each a tuple of option indices in
    increasing order.  The order is the search's depth-first order: at each
    step the uncovered primary item with the fewest options still possible
    (a tie goes to the item first in ``problem.items``), its options tried
    in the order given.  The order is the same for every ``threads``; the
    search runs ahead of the reader in Rust, in constant memory, and stops
    when the generator is closed or dropped.  ``timeout`` (seconds) ends
    the listing with ``TimeoutError``.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    >>> list(covers(problem))
    [(0, 1), (2, 3), (1, 2, 4)]
    """
    if not isinstance(problem, ExactCover):
        raise TypeError(f"problem must be an ExactCover, got {type(problem).__name__}")
    workers = _validate.threads(threads)
    seconds = _validate.timeout(timeout)
    return _covers(_core.CoverStream(core_problem(problem), workers, seconds))


def _covers(stream: Any) -> Generator[tuple[int, ...], None, None]:
    try:
        for packed in stream:
            yield tuple(_packing.unpack(packed))
    finally:
        stream.close()
