"""Listing knight's tours: :func:`tours`, streamed lazily from a Rust thread in
the documented search order."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING

from .. import _core
from .._engine import _listing, _packing, _validate
from .._engine._deadline import Deadline
from .._engine._run import RunKeywords
from .board import LOWER_LEFT, KnightBoard, Start, search_limit
from .tour import Tour

if TYPE_CHECKING:
    from typing_extensions import Unpack


def tours(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Start = LOWER_LEFT,
    closed: bool = False,
    **run: Unpack[RunKeywords],
) -> Generator[Tour, None, None]:
    """Every tour of the board, lazily, produced by a Rust thread as you iterate.

    The order is the seed article's: depth-first, trying the knight's moves
    ``(+2,+1) (+1,+2) (-2,+1) (-1,+2) (+2,-1) (+1,-2) (-2,-1) (-1,-2)``
    (row, column offsets) in turn; with ``start="all"``, start squares in
    row-major order.  Memory stays constant however many tours there are, and
    the first tour arrives as soon as the search reaches it.  ``timeout``
    (seconds, from this call) ends the listing with ``TimeoutError``.

    >>> [tour.squares[:3] for tour in tours(3, 4)]
    [((2, 0), (1, 2), (0, 0)), ((2, 0), (1, 2), (0, 0))]
    """
    opts = _listing.options("tours", run)
    kb = KnightBoard.from_args(rows, cols, board)
    first = kb.start_square(start, allow_all=True)
    closed = _validate.flag(closed, "closed")
    search_limit(kb, "tours")
    stream = _core.TourStream(kb.spec, first, closed)
    return _listing.timed(
        stream,
        Deadline(opts.timeout),
        lambda packed: Tour._from_order(kb, _packing.unpack(packed)),
        "tours",
    )
