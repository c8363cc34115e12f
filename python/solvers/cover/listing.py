"""Listing covers: :func:`covers`, streamed lazily from a Rust thread in the
search's documented order, with its timeout."""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .. import _core
from .._engine import _listing, _packing
from .._engine._deadline import Deadline
from .._engine._run import RunKeywords
from .problem import ExactCover, core_problem
from .symmetry import Perm, group, is_canonical

__all__ = ["covers"]

if TYPE_CHECKING:
    from typing_extensions import Unpack


def covers(
    problem: ExactCover,
    *,
    symmetries: Iterable[Mapping[Any, Any]] | None = None,
    **run: Unpack[RunKeywords],
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

    ``symmetries`` (item permutations, as :func:`~solvers.count_covers`
    takes them) lists one cover of each class, the class's least (as a
    tuple of option indices), in the same order: as many as
    ``count_covers(problem, symmetries=...)`` counts.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    >>> list(covers(problem))
    [(0, 1), (2, 3), (1, 2, 4)]
    >>> swap = ExactCover([("a", "x"), ("b", "y"), ("a", "y"), ("b", "x")])
    >>> list(covers(swap, symmetries=[{"x": "y", "y": "x"}, {"a": "b", "b": "a"}]))
    [(0, 1)]
    """
    opts = _listing.options("covers", run)
    if not isinstance(problem, ExactCover):
        raise TypeError(f"problem must be an ExactCover, got {type(problem).__name__}")
    clock = Deadline(opts.timeout)  # from the call: building the core's problem counts
    elements = None if symmetries is None else group(problem, symmetries)
    stream = _core.CoverStream(core_problem(problem))
    listed = _listing.timed(stream, clock, _cover, "covers")
    return listed if elements is None else _least(listed, elements)


def _least(
    listed: Generator[tuple[int, ...], None, None], elements: tuple[Perm, ...]
) -> Generator[tuple[int, ...], None, None]:
    """The covers of ``listed`` that are the least of their class."""
    try:
        for cover in listed:
            if is_canonical(cover, elements):
                yield cover
    finally:
        listed.close()  # stops the search when the caller stops early


def _cover(packed: bytes) -> tuple[int, ...]:
    return tuple(_packing.unpack(packed))
