"""``Valued``: equality and hash by value for the package's immutable results
and models, said once: two objects are equal when one is an instance of the
other's class and their ``_key()`` s are equal, and they hash as the key.

>>> class Pair(Valued):
...     def __init__(self, a: int, b: int) -> None:
...         self.a, self.b = a, b
...     def _key(self) -> tuple[int, int]:
...         return (self.a, self.b)
>>> Pair(1, 2) == Pair(1, 2), Pair(1, 2) == (1, 2), len({Pair(1, 2), Pair(1, 2)})
(True, False, 1)
"""

from __future__ import annotations

from collections.abc import Hashable

__all__ = ["Valued"]


class Valued:
    """``==`` and ``hash`` through ``self._key()``, a hashable value that
    says everything the object is."""

    __slots__ = ()

    def _key(self) -> Hashable:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Valued) and (
            isinstance(other, type(self)) or isinstance(self, type(other))
        ):
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())
