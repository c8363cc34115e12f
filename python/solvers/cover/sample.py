"""Covers drawn at random: :func:`random_covers`, each cover of a problem
with the same probability, from the memo's counts (``method="memo"``).

The memo counts the covers that finish each state it meets (the items
covered so far); a draw picks a number uniform below the total, then goes
down from the root as the memo branches, taking at each step the option
whose share of the covers holds the number.  Every cover is therefore
drawn with probability exactly one over their number; draws are
independent, and a ``seed`` gives the same covers on every machine
(xoshiro256**, in Rust).  A problem whose memo does not fit half the memory
available (or ``memory``) is refused with a ``MemoryError`` that names the
estimate.  Bounds are drawn from too: the memo's children are the sets of
options chosen for an item, each cover (a set of options) reached once.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from .. import _core
from .._engine import _methods, _packing, _progress, _run, _validate
from .._engine._deadline import Deadline
from .._engine._run import RunKeywords
from .problem import ExactCover, core_problem
from .result import Cover

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["random_covers"]

#: What :func:`random_covers` takes of the run options: those of
#: ``method="memo"``, which builds the counts it draws from.
DRAWING = _methods.Method("draw", frozenset({"memory"}), summary="covers drawn uniformly at random")

#: The most covers one call draws (they are held in memory).
MAX_DRAWS = 2**24


def random_covers(
    problem: ExactCover, k: int = 1, *, seed: int | None = None, **run: Unpack[RunKeywords]
) -> list[Cover]:
    """``k`` covers of ``problem``, each drawn independently and uniformly at
    random (every cover equally likely; the same cover may come twice),
    reproducibly for a given ``seed`` (an integer from 0 to 2**64 - 1;
    ``None``, the default, takes one from the system).  An empty list where
    the problem has no cover.  Takes the run options of ``method="memo"``
    (``threads``, ``progress``, ``timeout``, ``memory``); the covers drawn
    do not depend on ``threads``.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    >>> drawn = random_covers(problem, 5, seed=1)
    >>> all(cover.verify() for cover in drawn), drawn == random_covers(problem, 5, seed=1)
    (True, True)
    """
    opts = _run.taken("random_covers", DRAWING, run)
    most = _validate.between(k, "k", 0, MAX_DRAWS)
    if seed is None:
        seed = int.from_bytes(os.urandom(8), "little")
    seed = _validate.between(seed, "seed", 0, 2**64 - 1, "2**64 - 1")
    clock = Deadline(opts.timeout)  # from the call: building the core's problem counts
    core = core_problem(problem)  # refuses anything but an ExactCover
    showing = _progress.shown(opts.progress, "random covers, memo", unit="item", eta=False)
    with showing as bar, clock.stated():
        drawn = _core.random_covers(core, most, seed, opts.core(bar, timeout=clock.remaining()))
    return [Cover(_packing.unpack(packed), problem) for packed in drawn]
