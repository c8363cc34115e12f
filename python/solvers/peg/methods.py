"""The ways the peg DP counts (:func:`~solvers.count_peg_solutions`: meet in
the middle, or forward all the way), the optional keywords each takes, and
those of :func:`~solvers.finish_counts`, which runs the forward pass alone.

>>> [m.name for m in METHODS]
['meet', 'forward']
"""

from __future__ import annotations

from .._engine._methods import Method

__all__ = ["EVERY_GAME", "FINISH_PASS", "FORWARD", "LAYERS", "MEET", "METHODS"]

#: Every way of running the DP takes the same keywords: on an executor the
#: layers pass through partition files, so neither a checkpoint of this
#: process's layers nor its memory budget applies there.
_TAKES = frozenset({"executor", "parts", "checkpoint", "memory", "spill"})
_APART = (frozenset({"executor", "checkpoint"}), frozenset({"executor", "memory"}))

MEET = Method(
    "meet",
    _TAKES,
    _APART,
    summary="a search from the start and one from the finish meet in the middle",
)
FORWARD = Method(
    "forward",
    _TAKES,
    _APART,
    summary="one search all the way from the start (the seed's way)",
)

#: In the order ``method="auto"`` picks them: the meet is the faster.
METHODS: tuple[Method, ...] = (MEET, FORWARD)

#: :func:`~solvers.finish_counts`: one forward pass, no checkpoint.
FINISH_PASS = Method(
    "forward",
    frozenset({"executor", "parts", "memory", "spill"}),
    (frozenset({"executor", "memory"}),),
    summary="one forward pass counting the games to every last hole",
)

#: :func:`~solvers.count_peg_positions`: every layer of both searches in
#: this process's memory; none of the optional keywords.
LAYERS = Method(
    "layers",
    frozenset(),
    summary="the layers of the searches from both ends, held in memory",
)

#: :func:`~solvers.count_peg_games`: one forward pass tallying every game,
#: with the keywords of a count.
EVERY_GAME = Method(
    "forward",
    _TAKES,
    _APART,
    summary="one forward pass tallying every game, won or stuck",
)
