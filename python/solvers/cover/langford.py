"""Langford pairs as exact cover: :class:`LangfordPairs` (the arrangements of
two 1s, two 2s, ..., two ns in a row with k numbers between the two ks) and
:class:`LangfordSequence` (one arrangement, with its pictures).

Stated as exact cover (Knuth, TAOCP 7.2.2.1): a primary item per value
(``"1"`` .. ``"n"``) and per slot (``s0`` .. ``s{2n-1}``); one option per
value k and first slot i, covering k, ``s{i}`` and ``s{i+k+1}``.

Counts: :meth:`LangfordPairs.count` counts every arrangement.  No
arrangement is its own reversal (that would need every value even), so they
come in pairs; ``unique=True`` keeps one of each pair, the one whose 1s
start in the left half (slot ``i <= n - 2``: the reversal moves that start
to ``2n - 3 - i``), which counts OEIS A014552.

>>> LangfordPairs(3).count(), LangfordPairs(3, unique=True).count()
(2, 1)
>>> print(LangfordPairs(4, unique=True).find(deterministic=True))
4 1 3 1 2 4 3 2
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from typing import Any

from .._engine import _validate
from .._engine._draw import Drawn
from . import pictures
from .model import Model
from .placing import placed
from .problem import ExactCover

__all__ = ["MAX_N", "LangfordPairs", "LangfordSequence"]

#: The largest n (the options grow as n squared; counts end far sooner).
MAX_N = 1000


class LangfordPairs(Model["LangfordSequence"]):
    """The Langford pairings of ``n`` (every one, or with ``unique=True`` one
    of each sequence and its reversal).  :meth:`count`, :meth:`solutions`,
    :meth:`find` and :meth:`exact_cover` come from the exact-cover functions.

    >>> [LangfordPairs(n, unique=True).count() for n in range(1, 9)]   # OEIS A014552
    [0, 0, 1, 1, 0, 0, 26, 150]
    """

    __slots__ = ("n", "unique")

    n: int
    unique: bool

    def __init__(self, n: int, *, unique: bool = False) -> None:
        n = _validate.positive(n, "n")
        if n > MAX_N:
            raise ValueError(f"n must be at most {MAX_N}, got {n}")
        object.__setattr__(self, "n", n)
        object.__setattr__(self, "unique", _validate.flag(unique, "unique"))

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("LangfordPairs is immutable")

    def symmetries(self) -> list[dict[Hashable, Hashable]]:
        """The reversal of the sequence, as a permutation of the positions
        (none for ``unique=True``, whose options already keep one of each
        sequence and its reversal).

        >>> LangfordPairs(7).count(unique=True), LangfordPairs(7, unique=True).count()
        (26, 26)
        """
        if self.unique:
            return []
        last = 2 * self.n - 1
        return [{f"s{i}": f"s{last - i}" for i in range(2 * self.n)}]

    def _numbered(self) -> tuple[ExactCover, Sequence[Any]]:
        # The pair of ks is a shape of two cells k + 1 apart on a strip of 2n
        # positions, placed in Rust with its number k's item first; with
        # unique=True the 1s start in the left half only.
        n = self.n
        shapes = []
        for k in range(1, n + 1):
            last = 2 * n - k - 2
            if k == 1 and self.unique:
                last = min(last, n - 2)
            shapes.append(([(0, 0), (0, k + 1)], k - 1, range(last + 1)))
        primary = tuple(str(k) for k in range(1, n + 1)) + tuple(f"s{i}" for i in range(2 * n))
        board = range(n, 3 * n)  # position i is item s{i}
        return placed(2 * n, board, shapes, primary, lambda s, row, col: (s + 1, col))

    def _result(self, meanings: list[Any]) -> LangfordSequence:
        values = [0] * (2 * self.n)
        for k, i in meanings:
            values[i] = values[i + k + 1] = k
        return LangfordSequence(values)

    def __repr__(self) -> str:
        return f"LangfordPairs({self.n}{', unique=True' if self.unique else ''})"


class LangfordSequence(tuple[int, ...], Drawn):
    """A Langford sequence: a tuple of 2n values, each of 1..n twice, the two
    ks k places apart (k numbers between them); checked when made.

    >>> s = LangfordSequence([2, 3, 1, 2, 1, 3])
    >>> print(s)
    2 3 1 2 1 3
    >>> s.n, s.reversed()
    (3, LangfordSequence(3, 1, 2, 1, 3, 2))
    """

    __slots__ = ()

    def __new__(cls, values: Iterable[int]) -> LangfordSequence:
        given = tuple(
            _validate.integer(v, "a value")
            for v in _validate.iterable(values, "values", "an iterable of ints")
        )
        problem = _defect(given)
        if problem is not None:
            raise ValueError(f"not a Langford sequence: {problem}")
        return super().__new__(cls, given)

    @property
    def n(self) -> int:
        return len(self) // 2

    def reversed(self) -> LangfordSequence:
        return LangfordSequence(self[::-1])

    def verify(self) -> bool:
        return _defect(tuple(self)) is None

    def __repr__(self) -> str:
        return f"LangfordSequence({', '.join(map(str, self))})"

    def __str__(self) -> str:
        return pictures.langford_text(self)

    def to_svg(self, *, cell: float | None = None) -> str:
        """The sequence as an SVG picture: coloured cells, an arc over each pair."""
        return pictures.langford_svg(self, cell=cell)

    def __reduce__(self) -> tuple[Any, ...]:
        return (LangfordSequence, (tuple(self),))


def _defect(values: tuple[int, ...]) -> str | None:
    """What is wrong with ``values`` as a Langford sequence, or ``None``."""
    if not values or len(values) % 2:
        return f"it has {len(values)} values; a sequence of n pairs has 2n (n at least 1)"
    n = len(values) // 2
    where: dict[int, list[int]] = {}
    for i, v in enumerate(values):
        if not 1 <= v <= n:
            return f"slot {i} holds {v}; the values of {n} pairs are 1 to {n}"
        where.setdefault(v, []).append(i)
    for v in range(1, n + 1):
        slots = where.get(v, [])
        if len(slots) != 2:
            return f"{v} appears {len(slots)} times, not twice"
        if slots[1] - slots[0] != v + 1:
            return f"the two {v}s are in slots {slots[0]} and {slots[1]}, not {v + 1} apart"
    return None
