"""The ways :func:`~solvers.count_queens` counts (the quarter-board join, the
border frames) and the optional keywords each takes: both split into
subproblems on an executor or recorded in a checkpoint; neither writes
layers, so neither takes ``parts``, ``memory`` or ``spill``.

>>> [m.name for m in METHODS], all(m.takes == SPLITS for m in METHODS)
(['join', 'frames'], True)
"""

from __future__ import annotations

from .._engine._methods import SPLITS, Method

__all__ = ["FRAMES", "JOIN", "METHODS"]

JOIN = Method(
    "join",
    SPLITS,
    summary="the quarter-board join: quarters tabled once, halves joined by a bit-sliced "
    "join (n from 12 to MAX_JOIN_N; memory grows with n)",
)
FRAMES = Method(
    "frames",
    SPLITS,
    summary="backtracking over one border frame per symmetry class (any n up to 64)",
)

#: Every method; ``auto`` takes the one the core prefers for the board.
METHODS: tuple[Method, ...] = (JOIN, FRAMES)
