"""The one deadline of a call with ``timeout=``: when it ends, how many
seconds are left, and the ``TimeoutError`` every family raises when it has
passed.

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
TimeoutError: no answer within the timeout of 0.0 s
>>> Deadline(0).remaining(), until(None), until(time.time() - 1)
(0.0, None, 0.0)
"""

from __future__ import annotations

import time
from typing import Any

from . import _validate

__all__ = ["Deadline", "until"]


class Deadline:
    """``timeout`` seconds (checked by :func:`solvers._engine._validate.timeout`;
    ``None``: no deadline) from now."""

    __slots__ = ("seconds", "end")

    def __init__(self, timeout: Any) -> None:
        self.seconds = _validate.timeout(timeout)
        self.end = None if self.seconds is None else time.monotonic() + self.seconds

    def expired(self) -> TimeoutError:
        """The error for a call whose deadline has passed."""
        return TimeoutError(f"no answer within the timeout of {self.seconds} s")

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
