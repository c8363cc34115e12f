"""Progress reporting for long calls: a tqdm bar on stderr when tqdm is
installed (``pip install solvers[progress]``), a plain text line otherwise.

What a bar counts must be honest.  Counts and searches report finished
subproblems of a fixed plan, so a rate and an estimate of the time left make
sense.  A layered DP reports finished layers, whose sizes may rise and fall
by orders of magnitude: its bar (``eta=False``) shows the layer and its
size, never a time left.

A call shows its bar in a ``with`` block (:data:`shown`), which closes it
however the call ends:

>>> with shown(False, "count") as bar:
...     bar is None
True
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any, ParamSpec

ProgressCallback = Callable[[int, int], None]

_P = ParamSpec("_P")

#: Quick calls stay silent: nothing is drawn in their first half second.
SILENT_SECONDS = 0.5

#: The text line (without tqdm) is redrawn at most this often.
TEXT_EVERY = 0.5


class ProgressBar:
    """A callable fed ``(finished, total)`` counts of ``unit`` by the core.

    With ``eta=False`` no rate or time left is shown, only what is done and
    the latest ``note`` (see :meth:`note`).
    """

    def __init__(
        self,
        description: str,
        *,
        unit: str = "subproblem",
        eta: bool = True,
    ) -> None:
        self._description = description
        self._unit = unit
        self._eta = eta
        self._note = ""
        self._bar: Any = None
        self._last_text = 0.0
        self._started = time.monotonic()

    def note(self, text: str) -> None:
        """Show ``text`` after the counts (e.g. the size of the last layer)."""
        self._note = text
        if self._drawn():
            self._bar.set_postfix_str(text, refresh=False)

    def __call__(self, done: int, total: int) -> None:
        if time.monotonic() - self._started < SILENT_SECONDS:
            return
        if total <= 0:
            return
        if self._bar is None:
            self._bar = self._make_tqdm(total)
        if self._bar is False:
            self._text(done, total)
            return
        if done != self._bar.n:
            self._bar.update(done - self._bar.n)
            self._last_text = time.monotonic()
        elif time.monotonic() - self._last_text >= TEXT_EVERY:
            # A unit can take minutes (a step of a layered count near its
            # widest layer): the elapsed time and the note still move.
            self._last_text = time.monotonic()
            self._bar.refresh()

    def _make_tqdm(self, total: int) -> Any:
        try:
            from tqdm import tqdm
        except ImportError:
            return False
        options: dict[str, Any] = {}
        if not self._eta:
            options["bar_format"] = "{desc}: {percentage:3.0f}%|{bar}| {n}/{total} {unit}s " + (
                "[{elapsed}{postfix}]"
            )
        bar = tqdm(total=total, desc=self._description, unit=self._unit, leave=False, **options)
        if self._note:
            bar.set_postfix_str(self._note, refresh=False)
        return bar

    def _text(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self._last_text < TEXT_EVERY and done < total:
            return
        self._last_text = now
        elapsed = now - self._started
        line = f"{self._description}: {done}/{total} {self._unit}s, {elapsed:.1f} s"
        if self._eta and 0 < done < total:
            line += f", about {elapsed * (total - done) / done:.0f} s left"
        if self._note:
            line += f", {self._note}"
        print(f"\r{line}\x1b[K", end="", file=sys.stderr, flush=True)

    def _drawn(self) -> bool:
        """Whether a tqdm bar is drawn (not ``bool(bar)``: tqdm refuses it for
        a bar without a total)."""
        return self._bar is not None and self._bar is not False

    def close(self) -> None:
        if self._drawn():
            self._bar.close()
        elif self._bar is False:
            print(file=sys.stderr)


def make(
    progress: Any, description: str, *, unit: str = "subproblem", eta: bool = True
) -> ProgressBar | None:
    """The bar of a call with ``progress`` (a bool): a :class:`ProgressBar`
    for ``True``, ``None`` for ``False`` (or ``None``).

    >>> make(False, "count") is None
    True
    """
    if progress is None or progress is False:
        return None
    if progress is True:
        return ProgressBar(description, unit=unit, eta=eta)
    raise TypeError(f"progress must be True or False, got {progress!r}")


def closing(
    made: Callable[_P, ProgressBar | None],
) -> Callable[_P, AbstractContextManager[ProgressBar | None]]:
    """``made``, the bar it returns closed at the end of a ``with`` block
    however the block ends; it takes the arguments ``made`` takes."""

    @contextlib.contextmanager
    def bar_of(*args: _P.args, **kwargs: _P.kwargs) -> Iterator[ProgressBar | None]:
        bar = made(*args, **kwargs)
        try:
            yield bar
        finally:
            if bar is not None:
                bar.close()

    return bar_of


#: The bar of a call (``None`` without ``progress``), closed however the call
#: ends: :func:`make` as a context manager, with its arguments.
shown = closing(make)
