"""Progress reporting for long calls: a tqdm bar on stderr when tqdm is
installed (``pip install solvers[progress]``), a plain text line otherwise."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

ProgressCallback = Callable[[int, int], None]

SILENT_SECONDS = 0.5


class ProgressBar:
    """A callable fed ``(finished, total)`` subproblem counts by the core."""

    def __init__(self, description: str) -> None:
        self._description = description
        self._bar: Any = None
        self._last_text = 0.0
        self._started = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        # Quick calls stay silent: nothing is drawn in the first half second.
        if total <= 0 or time.monotonic() - self._started < SILENT_SECONDS:
            return
        if self._bar is None:
            try:
                from tqdm import tqdm
            except ImportError:
                self._bar = False
            else:
                self._bar = tqdm(total=total, desc=self._description, unit="task", leave=False)
        if self._bar is False:
            now = time.monotonic()
            if now - self._last_text >= 0.5:
                self._last_text = now
                elapsed = now - self._started
                print(
                    f"\r{self._description}: {done}/{total} subproblems, {elapsed:.1f} s",
                    end="",
                    file=sys.stderr,
                    flush=True,
                )
            return
        self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar:
            self._bar.close()
        elif self._bar is False:
            print(file=sys.stderr)


def make(progress: Any, description: str) -> ProgressBar | None:
    if progress is None or progress is False:
        return None
    if progress is True:
        return ProgressBar(description)
    raise TypeError(f"progress must be True or False, got {progress!r}")
