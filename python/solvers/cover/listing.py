"""Listing covers: :func:`covers`, streamed lazily from a Rust thread in the
search's documented order, with its timeout."""

from __future__ import annotations

import threading
from collections.abc import Generator
from typing import Any

from .. import _core
from .._engine import _packing, _validate
from .._engine._deadline import Deadline
from .problem import ExactCover, core_problem

__all__ = ["covers"]


def covers(
    problem: ExactCover, *, threads: int | None = None, timeout: float | None = None
) -> Generator[tuple[int, ...], None, None]:
    """Every cover of ``problem``, lazily: each a tuple of option indices in
    increasing order.  The order is the search's depth-first order: at each
    step the uncovered primary item with the fewest options still possible
    (a tie goes to the item first in ``problem.items``), its options tried
    in the order given.  One Rust thread runs the search ahead of the
    reader, in constant memory, and stops when the generator is closed or
    dropped; the order needs no more, so the list is the same for every
    ``threads`` (checked, kept for a parallel stream).  ``timeout``
    (seconds, from this call) ends the listing with ``TimeoutError``, also
    while the search looks for the next cover.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    >>> list(covers(problem))
    [(0, 1), (2, 3), (1, 2, 4)]
    """
    if not isinstance(problem, ExactCover):
        raise TypeError(f"problem must be an ExactCover, got {type(problem).__name__}")
    workers = _validate.threads(threads)
    deadline = Deadline(timeout)
    stream = _core.CoverStream(core_problem(problem), workers)
    return _covers(stream, deadline)


def _covers(stream: Any, deadline: Deadline) -> Generator[tuple[int, ...], None, None]:
    # The stream's wait for the next cover knows no deadline: a timer closes
    # the stream when it passes (the search stops, the stream ends) and the
    # end is then reported as the timeout it is, never as the last cover.
    expired = threading.Event()
    timer = None
    if deadline.seconds is not None:

        def expire() -> None:
            expired.set()
            stream.close()

        timer = threading.Timer(deadline.remaining() or 0.0, expire)
        timer.daemon = True
        timer.start()
    listed = 0
    try:
        for packed in stream:
            if expired.is_set():
                break
            yield tuple(_packing.unpack(packed))
            listed += 1
        if expired.is_set():
            deadline.where = f"after {listed:,} covers"
            raise deadline.expired()
    finally:
        if timer is not None:
            timer.cancel()
        stream.close()
