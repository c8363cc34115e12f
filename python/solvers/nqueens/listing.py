"""Listing placements: :func:`queens`, streamed lazily from a Rust thread in
lexicographic order."""

from __future__ import annotations

from array import array
from collections.abc import Generator

from .. import _core
from .._engine import _validate
from .limits import search_n
from .placement import Placement


def queens(n: int, *, unique: bool = False) -> Generator[Placement, None, None]:
    """Every solution, lazily, in lexicographic order of the column lists,
    streamed from a Rust thread with constant memory.  With ``unique=True``,
    one per symmetry class: the lexicographically smallest of its images.

    >>> [tuple(p) for p in queens(4)]
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    >>> [tuple(p) for p in queens(4, unique=True)]
    [(1, 3, 0, 2)]
    """
    n = search_n(n, "queens")
    unique = _validate.flag(unique, "unique")
    return _placements(_core.QueenStream(n, unique))


def _placements(stream: _core.QueenStream) -> Generator[Placement, None, None]:
    try:
        for packed in stream:  # one byte per row (n <= 64)
            yield Placement._from_columns(array("I", array("B", packed)))
    finally:
        stream.close()
