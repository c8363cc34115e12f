"""The one deadline of a call with ``timeout=``: when it ends, how many
seconds are left, and the ``TimeoutError`` every family raises when it has
passed.

Its message states the timeout the user gave (``300``, not the 158.77
seconds left when a later phase began, which is what the core hears), and
how far the count got where the driver says so (:attr:`Deadline.where`).
A call that hands the core the seconds left rewrites the core's own
``TimeoutError`` in these words with :meth:`Deadline.stated`.

A driver measures on ``time.monotonic()``, which only means something inside
one process.  A task on another process gets either the seconds left when it
was sent (the peg DP: the clocks of two machines need not agree) or the
deadline on the wall clock, :meth:`Deadline.wall` (subtree counts: a task that
waited in the executor's queue past the deadline then stops at once), and
reads its seconds back with :func:`until`.

>>> Deadline(None).left() is None
True
>>> 0 < Deadline(60).left() <= 60
True
>>> Deadline(0).left()
Traceback (most recent call last):
...
TimeoutError: no answer within the timeout of 0 s
>>> late = Deadline(2.5)
>>> late.where = "after 3 of 8 layers"
>>> with late.stated():
...     raise TimeoutError("no answer within the timeout of 0.4917 s")
Traceback (most recent call last):
...
TimeoutError: no answer within the timeout of 2.5 s (after 3 of 8 layers)
>>> Deadline(0).remaining(), until(None), until(time.time() - 1)
(0.0, None, 0.0)
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import Any

from . import _validate

__all__ = ["Deadline", "seconds_text", "until"]


def seconds_text(seconds: float) -> str:
    """``seconds`` as the user most likely typed them: ``300`` for 300.0,
    ``0.5``, ``2.75`` (the shortest text that reads back as the number).

    >>> seconds_text(300.0), seconds_text(0.5), seconds_text(1e-7)
    ('300', '0.5', '1e-07')
    """
    if float(seconds).is_integer() and abs(seconds) < 1e16:
        return str(int(seconds))
    return repr(float(seconds))


class Deadline:
    """``timeout`` seconds (checked by :func:`solvers._engine._validate.timeout`;
    ``None``: no deadline) from now.  ``where``, which the driver keeps up to
    date (``"after 12 of 32 layers"``), says in the error how far the count got."""

    __slots__ = ("seconds", "end", "where")

    def __init__(self, timeout: Any) -> None:
        self.seconds = _validate.timeout(timeout)
        self.end = None if self.seconds is None else time.monotonic() + self.seconds
        self.where = ""

    def expired(self) -> TimeoutError:
        """The error for a call whose deadline has passed: the timeout the
        user gave, and how far the count got (when the driver said)."""
        given = "" if self.seconds is None else f" of {seconds_text(self.seconds)} s"
        where = f" ({self.where})" if self.where else ""
        return TimeoutError(f"no answer within the timeout{given}{where}")

    def restated(self, error: TimeoutError) -> TimeoutError:
        """:meth:`expired`'s error in place of ``error`` (the core's, which
        names the seconds it was handed, those left); without a deadline,
        ``error`` did not come from it and goes on as it is."""
        return error if self.seconds is None else self.expired()

    @contextlib.contextmanager
    def stated(self) -> Iterator[None]:
        """:meth:`restated` for any ``TimeoutError`` raised inside."""
        try:
            yield
        except TimeoutError as error:
            raise self.restated(error) from None

    def left(self) -> float | None:
        """Seconds left (``None``: no deadline); ``TimeoutError`` once none are."""
        if self.end is None:
            return None
        left = self.end - time.monotonic()
        if left <= 0:
            raise self.expired()
        return left

    def remaining(self) -> float | None:
        """Seconds left, 0 once the deadline has passed (for a task, which
        hands it to the core: the core then stops at once with its own error)."""
        return None if self.end is None else max(self.end - time.monotonic(), 0.0)

    def wall(self) -> float | None:
        """The deadline as a ``time.time()`` reading, for a task on another
        process of this machine (or a machine whose clock agrees)."""
        return None if self.end is None else time.time() + (self.end - time.monotonic())


def until(wall: float | None) -> float | None:
    """Seconds from now to the ``time.time()`` reading ``wall`` (0 once passed)."""
    return None if wall is None else max(0.0, wall - time.time())
