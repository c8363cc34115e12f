"""``Stored``: the sequence protocol of a result that keeps its elements in
one sequence of its own (a placement's columns, a game's jumps), so that
``len`` and iteration are said once and reach that sequence directly rather
than through ``__getitem__`` one index at a time (``Sequence``'s default).

>>> class Word(Stored[str]):
...     def __init__(self, text: str) -> None:
...         self.text = text
...     def _stored(self) -> str:
...         return self.text
...     def __getitem__(self, i):
...         return self.text[i]
>>> w = Word("abc")
>>> len(w), list(w), "b" in w
(3, ['a', 'b', 'c'], True)
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

__all__ = ["Stored"]

T = TypeVar("T")


class Stored(Sequence[T]):
    """A sequence whose elements are those of ``self._stored()``; each
    subclass says how an index or a slice reads (``__getitem__``)."""

    __slots__ = ()

    def _stored(self) -> Sequence[Any]:
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self._stored())

    def __iter__(self) -> Iterator[T]:
        return iter(self._stored())
