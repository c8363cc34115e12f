"""One cover as the finder returns it: :class:`Cover`, the indices of its
options (a tuple, ascending, as before) that also knows its problem, so it
can name its options and check itself."""

from __future__ import annotations

from typing import Any

from .check import is_cover
from .problem import ExactCover

__all__ = ["Cover"]


class Cover(tuple[int, ...]):
    """A cover of ``problem``: the indices of its options in increasing
    order.  It is a tuple of those indices (``cover[0]``, ``len(cover)``,
    ``cover == (0, 1)`` work as on the tuples :func:`~solvers.covers`
    lists), and more:

    * ``cover.options``: the options themselves, as the problem states them;
    * ``cover.verify()``: whether it covers the problem (an independent
      check, :func:`~solvers.is_cover`);
    * ``cover.cost``: the sum of its options' costs.

    >>> from solvers import ExactCover, find_cover
    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c")])
    >>> cover = find_cover(problem, deterministic=True)
    >>> cover, cover.options, cover.verify()
    (Cover((0, 1)), (('a', 'b'), ('c',)), True)
    """

    problem: ExactCover

    def __new__(cls, indices: Any, problem: ExactCover) -> Cover:
        cover = super().__new__(cls, indices)
        cover.problem = problem
        return cover

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (tuple(self), self.problem)

    @property
    def options(self) -> tuple[tuple[Any, ...], ...]:
        """The options of the cover, as the problem states them."""
        every = self.problem.options
        return tuple(every[k] for k in self)

    @property
    def cost(self) -> int:
        """The sum of the costs of its options (0 for a problem without
        costs; see :func:`~solvers.cheapest_covers`)."""
        costs = self.problem._costs  # None, not a tuple of zeros, where there are none
        return 0 if costs is None else sum(costs[k] for k in self)

    def verify(self) -> bool:
        """Whether these options cover the problem exactly (see :func:`~solvers.is_cover`)."""
        return is_cover(self.problem, self)

    def __repr__(self) -> str:
        return f"Cover({tuple(self)!r})"
