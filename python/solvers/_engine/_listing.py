"""The one body of every lister (:func:`solvers.tours`, :func:`solvers.queens`,
:func:`solvers.peg_solutions`, :func:`solvers.covers`): a generator over a
core stream that converts each item, closes the stream when the generator
is closed or dropped, and ends with ``TimeoutError`` once the call's
``timeout`` passes, also while the stream waits for its next item.  What a
lister takes of the run options (``_run.LISTING``) is checked here once.

>>> list(timed(iter([1, 2, 3]), Deadline(None), str, "items"))
['1', '2', '3']
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator, Iterable
from typing import Any, TypeVar

from . import _run
from ._deadline import Deadline
from ._run import RunOptions

__all__ = ["options", "timed"]

T = TypeVar("T")


def options(function: str, run: Any) -> RunOptions:
    """The run options of a call to the lister ``function``, what it does not
    take refused in the one message."""
    return _run.taken(function, _run.LISTING, run)


def timed(
    stream: Iterable[Any], deadline: Deadline, convert: Callable[[Any], T], unit: str
) -> Generator[T, None, None]:
    """The items of ``stream``, each through ``convert``; ``TimeoutError``
    once ``deadline`` (the call's, from its start) passes, naming how many
    ``unit`` came."""
    # The stream's wait for the next item knows no deadline: a timer closes
    # the stream when it passes (its producer stops, the stream ends) and the
    # end is then reported as the timeout it is, never as the last item.
    expired = threading.Event()
    timer = None
    close = getattr(stream, "close", None)
    if deadline.seconds is not None:

        def expire() -> None:
            expired.set()
            if close is not None:
                close()

        timer = threading.Timer(deadline.remaining() or 0.0, expire)
        timer.daemon = True
        timer.start()
    listed = 0
    try:
        for item in stream:
            if expired.is_set():
                break
            yield convert(item)
            listed += 1
        if expired.is_set():
            deadline.where = f"after {listed:,} {unit}"
            raise deadline.expired()
    finally:
        if timer is not None:
            timer.cancel()
        if close is not None:
            close()
