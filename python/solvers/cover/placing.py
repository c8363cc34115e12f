"""Models whose options are shapes placed on a board (tilings, and Langford
pairs: a pair of ``k`` is two cells ``k + 1`` apart on a strip), stated in
one pass in Rust (``_core.place_shapes``) with no Python step per option;
what each option means is worked out only when a cover is read.

>>> problem, meanings = placed(
...     2, [0, 1, 2, 3], [([(0, 0), (0, 1)], None, [0, 1, 2, 3]), ([(0, 0), (1, 0)], None, [0, 1])],
...     ("a", "b", "c", "d"), lambda shape, row, col: (shape, row, col),
... )
>>> problem.options, list(meanings)
((('a', 'b'), ('c', 'd'), ('a', 'c'), ('b', 'd')), [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 0, 1)])
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, overload

from .. import _core
from .._engine import _packing
from .problem import ExactCover, _assembled
from .reading import MAX_ENTRIES

__all__ = ["NO_CELL", "Meanings", "placed"]

#: A board position with no cell.
NO_CELL = 2**32 - 1

#: A shape: its cells as ``(row, col)`` offsets from its first, the item
#: number that goes first in its options (or ``None``), and the board
#: positions (``row * cols + col``) where its first cell is tried, in order.
Shape = tuple[list[tuple[int, int]], "int | None", Iterable[int]]


class Meanings(Sequence[Any]):
    """What each option means, worked out when asked: ``meaning(shape,
    row, col)`` of the shape and the place of its first cell."""

    __slots__ = ("_anchor", "_cols", "_meaning", "_shape")

    def __init__(
        self, shape: array[int], anchor: array[int], cols: int, meaning: Callable[..., Any]
    ) -> None:
        self._shape, self._anchor, self._cols, self._meaning = shape, anchor, cols, meaning

    def __len__(self) -> int:
        return len(self._shape)

    @overload
    def __getitem__(self, k: int) -> Any: ...
    @overload
    def __getitem__(self, k: slice) -> list[Any]: ...
    def __getitem__(self, k: int | slice) -> Any:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        row, col = divmod(self._anchor[k], self._cols)
        return self._meaning(self._shape[k], row, col)


def placed(
    cols: int,
    board: Sequence[int],
    shapes: Sequence[Shape],
    primary: tuple[Hashable, ...],
    meaning: Callable[..., Any],
) -> tuple[ExactCover, Meanings]:
    """The problem of ``shapes`` placed on ``board`` (``rows * cols``
    positions, each its cell's item number or :data:`NO_CELL`), all of
    whose items are ``primary``, and what each option means."""
    given = [
        (offsets, head, _packing.pack(array("I", anchors))) for offsets, head, anchors in shapes
    ]
    done = _core.place_shapes(cols, _packing.pack(array("I", board)), given, MAX_ENTRIES)
    if done is None:
        raise ValueError(f"the problem would have more than {MAX_ENTRIES} entries in all")
    starts, items, shape, anchor = map(_packing.unpack, done)
    no_colours = array("I", bytes(4 * len(items)))
    problem = _assembled(None, primary, (), False, (starts, items, no_colours, ()))
    return problem, Meanings(shape, anchor, cols, meaning)
