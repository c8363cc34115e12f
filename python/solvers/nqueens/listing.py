"""Listing placements: :func:`queens`, streamed lazily from a Rust thread in
lexicographic order."""

from __future__ import annotations

from array import array
from collections.abc import Generator
from typing import TYPE_CHECKING

from .. import _core
from .._engine import _listing, _validate
from .._engine._deadline import Deadline
from .._engine._run import RunKeywords
from .limits import search_n
from .placement import Placement

if TYPE_CHECKING:
    from typing_extensions import Unpack


def queens(
    n: int, *, unique: bool = False, **run: Unpack[RunKeywords]
) -> Generator[Placement, None, None]:
    """Every solution, lazily, in lexicographic order of the column lists,
    streamed from a Rust thread with constant memory.  With ``unique=True``,
    one per symmetry class: the lexicographically smallest of its images.
    ``timeout`` (seconds, from this call) ends the listing with ``TimeoutError``.

    >>> [tuple(p) for p in queens(4)]
    [(1, 3, 0, 2), (2, 0, 3, 1)]
    >>> [tuple(p) for p in queens(4, unique=True)]
    [(1, 3, 0, 2)]
    """
    opts = _listing.options("queens", run)
    n = search_n(n, "queens")
    unique = _validate.flag(unique, "unique")
    return _listing.timed(
        _core.QueenStream(n, unique), Deadline(opts.timeout), _placement, "placements"
    )


def _placement(packed: bytes) -> Placement:
    return Placement._from_columns(array("I", array("B", packed)))  # one byte per row (n <= 64)
