"""Counting peg-solitaire games: :func:`count_peg_solutions`, which checks its
arguments, picks the way to run the DP (here, within a memory budget, or on an
executor) and keeps its checkpoint."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from concurrent.futures import Executor

from .._engine import _args, _validate
from .._engine._checkpoint import Checkpoint
from . import dp
from .board import Hole, PegBoard
from .calls import Finish, checked_board, dp_driver, finish_hole, overflow, reachable_class

_METHODS = ("meet", "forward")


def count_peg_solutions(
    board: PegBoard,
    *,
    start: Hole,
    finish: Finish = "start",
    threads: int | None = None,
    progress: bool = False,
    timeout: float | None = None,
    method: str = "meet",
    executor: Executor | None = None,
    parts: int | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    memory: int | str | None = None,
    spill: str | os.PathLike[str] | None = None,
) -> int:
    """The number of jump sequences from ``board`` full but ``start`` to a single
    peg on ``finish``: a hole, ``"start"`` (the default: the classic
    single-vacancy problem) or ``None`` (the last peg anywhere).

    ``method="meet"`` (default) meets a search from the start and one from the
    finish in the middle; ``"forward"`` goes all the way from the start (the
    seed's way).  Both give the same number.

    ``executor=`` (any :class:`concurrent.futures.Executor`: a
    ``ProcessPoolExecutor``, or ``dask.distributed.Client(...).get_executor()``)
    spreads the layers over its workers: each layer is cut into ``parts`` parts
    by a fixed hash of the positions (``None``: one per worker where the
    executor tells, else 8), one task per part and layer, each running the
    kernel on ``threads`` threads (``None``: the worker's).  Between layers the
    pieces pass through files: each task writes its own in a new directory
    inside ``spill`` (``None``: the system's temporary directory; on a cluster
    of several machines, a directory on a shared filesystem that every worker
    sees at the same path), and this process passes on only where they lie.
    The directory goes, with every file in it, when the count ends, however it
    ends.  The answer is the same for every ``parts``; see
    ``solvers.peg.dist`` for the scheme.

    ``checkpoint`` (a file, without an executor) saves the newest layer of
    each search as it is built, and the total at the end: a count that was
    killed goes on from its last layers when called again the same way.
    With ``memory=`` the checkpoint is a directory instead (made if
    missing), a subdirectory per search holding its newest layer in checked
    files, written so that a kill at any moment leaves the last layer whole;
    at the end it keeps only the total.  A directory of another count, or a
    damaged one, raises ``ValueError``, never a wrong count.

    ``memory`` (bytes, a size such as ``"1GB"``, or ``"auto"``: half of
    the memory available when the call starts; not with ``executor=``) is
    a budget for a count in this process: a step whose layers would not fit goes through files in a
    new directory inside ``spill`` (the system's temporary directory if
    ``None``), removed when the count ends, and the two searches meet shard
    by shard.  The answer is the same; peak memory stays near the budget.
    ``None`` (the default) keeps every layer in memory.

    >>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3))
    432
    >>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3), method="forward")
    432
    >>> count_peg_solutions(PegBoard.rectangle(3, 4), start=(0, 0), finish=(0, 3), memory="1MiB")
    432
    """
    board = checked_board(board)
    s = board.normalize_square(start, "start")
    method = _validate.choice(method, "method", _METHODS)
    f = finish_hole(board, finish, s)
    if checkpoint is not None and (executor is not None or parts is not None):
        raise ValueError("checkpoint= saves the layers of a count in this process: no executor")
    group = board.symmetries_fixing(s) if f is None else board.symmetries_fixing(s, f)
    driver = dp_driver(board, group, executor, parts, threads, progress, timeout, memory, spill)
    ledger = None
    saved = None
    try:
        if checkpoint is not None and isinstance(driver, dp.Budgeted):
            saved = _args.checkpoint_directory(checkpoint), _problem_tag(board, s, f, method)
            answer = driver.kernel.saved_answer(*saved)
            if answer is not None:
                return answer  # counted to the end before
            driver.keep_in(*saved)
        elif checkpoint is not None:
            assert isinstance(driver, dp.Local)
            ledger = _ledger(checkpoint, board, s, f, method)
            if 0 in ledger.done:
                return ledger.done[0]  # counted to the end before
            driver.keep(ledger)
        reachable = reachable_class(board, s, f)
        count = dp.count(driver, board, s, f, method, reachable=reachable)
        if ledger is not None:
            ledger.record([(0, count)])
        if saved is not None:
            driver.kernel.save_answer(*saved, count)
            for side in ("a", "b"):  # the answer is all a rerun needs
                shutil.rmtree(os.path.join(saved[0], side), ignore_errors=True)
        return count
    except OverflowError as error:
        raise overflow(board, start) from error
    finally:
        driver.close()
        if ledger is not None:
            ledger.close()


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


def _ledger(
    path: str | os.PathLike[str], board: PegBoard, s: int, f: int | None, method: str
) -> Checkpoint:
    """A checkpoint file of one peg count: its newest layers, then its total."""
    _args.checkpoint_path(path)
    return Checkpoint(path, _problem(board, s, f, method), 1)


def _problem_tag(board: PegBoard, s: int, f: int | None, method: str) -> int:
    """The 64-bit tag of one peg count in a checkpoint directory's files."""
    digest = hashlib.blake2b(_problem(board, s, f, method).encode(), digest_size=8)
    return int.from_bytes(digest.digest(), "little")
