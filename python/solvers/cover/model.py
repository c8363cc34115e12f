"""What every ready model (Sudoku, tilings, Langford pairs, queens) shares:
:class:`Model`, a puzzle stated as an :class:`~solvers.ExactCover` once,
then counted, listed and solved through the public functions
(:func:`~solvers.count_covers`, :func:`~solvers.covers`,
:func:`~solvers.find_cover`), each cover read back into the model's own
result (a filled grid, a tiling, a sequence, a placement).

A model gives :meth:`Model._state` (its options with what each one means,
and its primary and secondary items; or, faster, :meth:`Model._numbered`,
the problem numbered at once) and :meth:`Model._result` (a cover, as the
meanings of its options, turned into a result); the rest is here.

>>> from solvers.cover import LangfordPairs, covers
>>> model = LangfordPairs(3)
>>> [model.read(cover) for cover in covers(model.exact_cover())]
[LangfordSequence(3, 1, 2, 1, 3, 2), LangfordSequence(2, 3, 1, 2, 1, 3)]
>>> model.count(), model.find(deterministic=True) == next(model.solutions())
(2, True)
"""

from __future__ import annotations

from collections.abc import Generator, Hashable, Sequence
from typing import Any, Generic, TypeVar

from .._engine import _validate
from .count import count_covers
from .find import find_cover
from .listing import covers
from .problem import ExactCover

__all__ = ["Model", "Stated"]

R = TypeVar("R")

#: A model stated as exact cover: the options, what each option means (any
#: value the model reads back), the primary and the secondary items.
Stated = tuple[Sequence[Sequence[Hashable]], Sequence[Any], Sequence[Hashable], Sequence[Hashable]]


class Model(Generic[R]):
    """A puzzle stated as exact cover, with its results of type ``R``."""

    __slots__ = ("_meanings", "_problem")

    _problem: ExactCover
    _meanings: Sequence[Any]

    def _state(self) -> Stated:
        raise NotImplementedError

    def _result(self, meanings: list[Any]) -> R:
        raise NotImplementedError

    def _numbered(self) -> tuple[ExactCover, Sequence[Any]] | None:
        """The problem and its options' meanings made without naming each
        option (a model that numbers a whole grid at once), or ``None``:
        then :meth:`_state` states them."""
        return None

    def _stated(self) -> tuple[ExactCover, Sequence[Any]]:
        # Built on first use and kept: a model is immutable, and stating a
        # big one (a 25x25 Sudoku, a pentomino box) is worth doing once.
        try:
            return self._problem, self._meanings
        except AttributeError:
            fast = self._numbered()
            if fast is None:
                options, listed, primary, secondary = self._state()
                problem = ExactCover(options, primary=primary, secondary=secondary)
                meanings: Sequence[Any] = tuple(listed)
            else:
                problem, meanings = fast  # worked out when read, where the model says so
            object.__setattr__(self, "_problem", problem)
            object.__setattr__(self, "_meanings", meanings)
            return self._problem, self._meanings

    def exact_cover(self) -> ExactCover:
        """The puzzle as an :class:`~solvers.ExactCover` (the same object each
        time): give it to :func:`~solvers.count_covers` and the others, or
        write it with :meth:`~solvers.ExactCover.to_dlx` for Knuth's programs."""
        return self._stated()[0]

    def read(self, cover: Sequence[int]) -> R:
        """The result a cover of :meth:`exact_cover` stands for (a tuple of
        option indices, as :func:`~solvers.covers` gives)."""
        meanings = self._stated()[1]
        return self._result([meanings[k] for k in cover])

    def symmetries(self) -> list[dict[Hashable, Hashable]]:
        """The puzzle's symmetries, as permutations of the items of
        :meth:`exact_cover` that map its options onto options (generators
        of the group ``unique=True`` counts up to; none by default)."""
        return []

    def _up_to(self, unique: bool, keywords: dict[str, Any]) -> dict[str, Any]:
        if _validate.flag(unique, "unique"):
            if keywords.get("symmetries") is not None:
                raise ValueError("give unique=True or symmetries=, not both")
            keywords["symmetries"] = self.symmetries()
        return keywords

    def count(self, *, unique: bool = False, **keywords: Any) -> int:
        """The number of solutions: :func:`~solvers.count_covers` of
        :meth:`exact_cover`, with its keywords (``method``, ``threads``,
        ``progress``, ``timeout``, ``executor``, ``checkpoint`` ...) passed on
        as given.  ``unique=True`` counts the solutions up to the puzzle's
        :meth:`symmetries` (those of a tiling's board, ...)."""
        return count_covers(self.exact_cover(), **self._up_to(unique, keywords))

    def solutions(self, *, unique: bool = False, **keywords: Any) -> Generator[R, None, None]:
        """Every solution, lazily, in the order of :func:`~solvers.covers`
        (its keywords, ``threads`` and ``timeout``, passed on); with
        ``unique=True`` one of each class under :meth:`symmetries`."""
        stream = covers(self.exact_cover(), **self._up_to(unique, keywords))
        try:
            for cover in stream:
                yield self.read(cover)
        finally:
            stream.close()  # stops the search when the caller stops early

    def find(self, **keywords: Any) -> R | None:
        """One solution, or ``None`` when there is none: :func:`~solvers.find_cover`
        with its keywords (``deterministic=True`` gives the first of
        :meth:`solutions`)."""
        cover = find_cover(self.exact_cover(), **keywords)
        return None if cover is None else self.read(cover)

    def is_unique(self, *, timeout: float | None = None) -> bool:
        """Whether there is exactly one solution (a count with ``limit=2``:
        the search stops at the second, so a well-made puzzle answers at
        once, however many solutions a bad one would have)."""
        return count_covers(self.exact_cover(), limit=2, timeout=timeout) == 1
