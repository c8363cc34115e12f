"""Finding one knight's tour fast: :func:`find_tour` (Warnsdorff's rule and the
constructions of the core; boards of millions of squares)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from .. import _core
from .._engine import _packing, _run, _validate
from .._engine._run import RunKeywords
from .board import LOWER_LEFT, MAX_FIND_CELLS, KnightBoard, Square
from .tour import Tour

if TYPE_CHECKING:
    from typing_extensions import Unpack


def find_tour(
    rows: int | None = None,
    cols: int | None = None,
    *,
    board: str | KnightBoard | None = None,
    start: Square | Literal["lower-left"] = LOWER_LEFT,
    closed: bool = False,
    deterministic: bool = False,
    **run: Unpack[RunKeywords],
) -> Tour | None:
    """One tour from ``start``, found fast, or ``None`` if the board has none.

    On a full rectangle of more than 64 cells a block construction comes
    first (linear in the squares): closed tours wherever Schwenk's theorem
    allows one (and, read from ``start``, open tours from every square of such
    a board), open tours on the other boards from starts near an end of a 3-
    or 4-wide strip or inside the start's block of an odd board.  Otherwise,
    and on shaped boards, Warnsdorff's rule (move to the square with the
    fewest onward moves, with bounded backtracking and retries; closed tours
    by rotating an open tour shut).  On boards spanning at most 64 cells a
    failed heuristic falls back to the exact search, so ``None`` is certain
    there; on larger boards ``None`` comes only from exact arguments (colours,
    connectivity, Schwenk's theorem, the outer lines of 4-wide boards) and a
    failure of every method raises ``RuntimeError``.  Every one of these
    ways is deterministic (the exact search keeps the first tour in its
    order), so the tour is the same for every ``threads``, with
    ``deterministic=True`` (a promise) or without it.

    >>> find_tour(4, 4) is None
    True
    >>> big = find_tour(300, 300)
    >>> len(big), big.verify()
    (90000, True)
    """
    opts = _run.taken("find_tour", _run.FINDING, run)
    kb = KnightBoard.from_args(rows, cols, board)
    first = kb.start_square(start, allow_all=False)
    assert first is not None  # only "all" gives None, refused here
    closed = _validate.flag(closed, "closed")
    _validate.flag(deterministic, "deterministic")
    if kb.cells > MAX_FIND_CELLS:
        raise ValueError(
            f"find_tour works on boards of at most {MAX_FIND_CELLS} cells; "
            f"a {kb.rows}x{kb.cols} board has {kb.cells}"
        )
    packed = _core.find_tour(kb.spec, first, closed, opts.core())
    if packed is None:
        return None
    return Tour._from_order(kb, _packing.unpack(packed))
