"""Listing covers: :func:`covers`, streamed lazily from a Rust thread in the
search's documented order, with its timeout."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from .. import _core
from .._engine import _listing, _packing
from .._engine._deadline import Deadline
from .._engine._run import RunKeywords
from .problem import ExactCover, core_problem

__all__ = ["covers"]

if TYPE_CHECKING:
    from typing_extensions import Unpack


def covers(
    problem: ExactCover, **run: Unpack[RunKeywords]
) -> Generator[tuple[int, ...], None, None]:
    """Every cover of ``problem``, lazily: each a tuple of option indices in
    increasing order.  The order is the search's depth-first order: at each
    step the uncovered primary item with the fewest options still possible
    (a tie goes to the item first in ``problem.items``), its options tried
    in the order given.  One Rust thread runs the search ahead of the
    reader, in constant memory, and stops when the generator is closed or
    dropped; the order needs no more, so the list is the same for every
    ``threads``.  ``timeout`` (seconds, from this call) ends the listing
    with ``TimeoutError``, also while the search looks for the next cover.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    >>> list(covers(problem))
    [(0, 1), (2, 3), (1, 2, 4)]
    """
    opts = _listing.options("covers", run)
    if not isinstance(problem, ExactCover):
        raise TypeError(f"problem must be an ExactCover, got {type(problem).__name__}")
    clock = Deadline(opts.timeout)  # from the call: building the core's problem counts
    stream = _core.CoverStream(core_problem(problem))
    return _listing.timed(stream, clock, _cover, "covers")


def _cover(packed: bytes) -> tuple[int, ...]:
    return tuple(_packing.unpack(packed))
