"""Finding one placement: :func:`find_queens`, by explicit construction in O(n)
or by a parallel search."""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from .. import _core
from .._engine import _methods, _packing, _validate
from .._engine._methods import Method
from .._engine._run import RunKeywords, RunOptions
from .limits import search_n
from .placement import Placement

if TYPE_CHECKING:
    from typing_extensions import Unpack

#: ``find_queens`` constructs placements up to this size.
MAX_CONSTRUCT_N: int = _core.MAX_QUEENS_CONSTRUCT_N
#: The explicit construction: O(n), one thread, the same placement always.
CONSTRUCT = Method(
    "construct", frozenset(), basic=frozenset({"timeout"}), summary="explicit construction in O(n)"
)
#: The parallel search, most constrained row first (n up to 64).
SEARCH = Method(
    "search", frozenset(), basic=frozenset({"threads", "timeout"}), summary="parallel backtracking"
)

#: The ways ``find_queens`` can find a placement.
FIND_METHODS: tuple[str, ...] = (CONSTRUCT.name, SEARCH.name)


def find_queens(
    n: int,
    *,
    method: str = "construct",
    deterministic: bool = False,
    **run: Unpack[RunKeywords],
) -> Placement | None:
    """One solution, or ``None`` for n = 2 and 3 (which have none).

    ``method="auto"`` takes the construction unless ``threads`` is given.
    ``method="construct"`` (default) builds one in O(n) by the classic explicit
    construction: ten million queens in a fraction of a second.
    ``method="search"`` (n up to 64) backtracks in parallel, most constrained
    row first, and stops every thread at the first hit: a millisecond even for
    n = 64.  With ``deterministic=True`` it returns the lexicographically first
    solution whatever the thread count; that search goes row by row and grows
    steeply with n (seconds in the low thirties, use ``timeout=`` beyond).

    >>> tuple(find_queens(8, method="search", deterministic=True))
    (0, 4, 7, 5, 2, 6, 1, 3)
    >>> find_queens(3) is None
    True
    """
    opts = RunOptions.of("find_queens", run)
    n = _validate.positive(n, "n")
    deterministic = _validate.flag(deterministic, "deterministic")
    method = _methods.pick("find_queens", (CONSTRUCT, SEARCH), method, opts.given()).name
    if method == "construct":
        if n > MAX_CONSTRUCT_N:
            raise ValueError(f"find_queens constructs for n up to {MAX_CONSTRUCT_N}, got {n}")
        packed = _core.construct_queens(n)
        return None if packed is None else Placement._from_columns(_packing.unpack(packed))
    if method == "search":
        n = search_n(n, 'find_queens(method="search")')
        packed = _core.search_queens(n, deterministic, opts.core())
        if packed is None:
            return None
        return Placement._from_columns(array("I", array("B", packed)))
    raise AssertionError(method)  # pragma: no cover - checked above
