"""Counting peg-solitaire games: :func:`count_peg_solutions`, which checks its
arguments, picks the way to run the DP (here, within a memory budget, or on an
executor) and keeps its checkpoint."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from typing import TYPE_CHECKING

from .._engine import _args, _methods
from .._engine._checkpoint import Lock
from .._engine._run import RunKeywords, RunOptions
from . import dp
from .board import Hole, PegBoard
from .calls import Finish, checked_board, driving, finish_hole, overflow, reachable_class
from .methods import METHODS

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: The ways ``count_peg_solutions`` can count; the answer never depends on the choice.
COUNT_METHODS: tuple[str, ...] = _methods.names(METHODS)


def count_peg_solutions(
    board: PegBoard,
    *,
    start: Hole,
    finish: Finish = "start",
    method: str = "auto",
    **run: Unpack[RunKeywords],
) -> int:
    """The number of jump sequences from ``board`` full but ``start`` to a single
    peg on ``finish``: a hole, ``"start"`` (the default: the classic
    single-vacancy problem) or ``None`` (the last peg anywhere).

    ``method`` picks how to count (:data:`solvers.peg.methods.METHODS`; the
    answer never depends on it): ``"meet"`` meets a search from the start
    and one from the finish in the middle; ``"forward"`` goes all the way
    from the start (the seed's way).  ``"auto"`` (the default) takes the
    meet.  A keyword the method does not take raises ``ValueError`` naming
    the methods that do.

    ``executor``, ``parts``, ``checkpoint``, ``memory`` and ``spill`` mean
    what they mean for :func:`solvers.count_tours`.  Here ``executor``
    spreads the layers over its workers, each layer cut into ``parts`` parts
    by a fixed hash of the positions (see ``solvers.peg.dist``), the pieces
    passed on through files inside ``spill``; ``checkpoint`` (a directory,
    not with an executor) keeps the newest layer of each search in the
    core's layer files, and at the end only the total (a count in memory
    and one within a budget keep the same files, so either goes on from the
    other's); ``memory`` (not with an executor) is the budget past which
    layers go through files inside ``spill`` and the two searches meet
    shard by shard; without it, ``memory="auto"``'s.  With ``spill=False``
    every layer stays in memory (the in-memory join, the fastest way when
    the layers fit; ``MemoryError`` when they do not).

    >>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3))
    432
    >>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3), method="forward")
    432
    >>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3), memory="1MiB")
    432
    """
    opts = RunOptions.of("count_peg_solutions", run)
    checkpoint = opts.checkpoint
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    method = _methods.pick("count_peg_solutions", METHODS, method, opts.given()).name
    f = finish_hole(board, finish, s)
    group = board.symmetries_fixing(s) if f is None else board.symmetries_fixing(s, f)
    saved = None
    with driving(board, group, opts, overflow(board, start)) as (driver, held):
        if checkpoint is not None:
            saved = _args.checkpoint_layers(checkpoint), _problem_tag(board, s, f, method)
            held.callback(Lock.of_layers(saved[0]).release)
            answer = driver.kernel.saved_answer(*saved)
            if answer is not None:
                return answer  # counted to the end before
            driver.keep_in(*saved)
        reachable = reachable_class(board, s, f)
        count = dp.count(driver, board, s, f, method, reachable=reachable)
        if saved is not None:
            driver.kernel.save_answer(*saved, count)
            for side in ("a", "b"):  # the answer is all a rerun needs
                shutil.rmtree(os.path.join(saved[0], side), ignore_errors=True)
        return count


def _problem(board: PegBoard, s: int, f: int | None, method: str) -> str:
    """What a checkpoint of one peg count is pinned to."""
    return json.dumps(
        {
            "family": "peg",
            "geometry": board.geometry,
            "holes": board.holes,
            "start": s,
            "finish": f,
            "method": method,
        }
    )


def _problem_tag(board: PegBoard, s: int, f: int | None, method: str) -> int:
    """The 64-bit tag of one peg count in a checkpoint directory's files."""
    digest = hashlib.blake2b(_problem(board, s, f, method).encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "little")
