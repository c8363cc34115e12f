"""The exact-cover problem: :class:`ExactCover`, its checks, and its flat
encoding for the Rust core (:func:`core_problem`).  The reading of what it
is given (item lists, 0/1 matrices) is :mod:`solvers.cover.reading`'s.

Items are numbered in ``problem.items`` order (primary then secondary) and
colours in order of first appearance in the options (from 1; 0 is no
colour): the numbering the core and :func:`~solvers.is_cover` work in.
"""

from __future__ import annotations

import hashlib
from array import array
from collections.abc import Hashable, Iterable, Mapping
from itertools import chain
from typing import Any

from .. import _core
from .._engine import _packing, _validate
from . import encoding, matrices, numbering
from .bounds import Bounds, as_mapping, read_bounds
from .costs import Costs, read_costs
from .dlx import parse, read_numbered, write
from .reading import (
    MATRIX_HINT,
    MAX_ENTRIES,
    check_hashable,
    item_list,
    matrix_options,
    named_options,
    zero_one,
)

__all__ = ["MAX_ENTRIES", "ExactCover", "core_problem"]


#: A repr longer than this shows a summary instead of the options.
_REPR_LIMIT = 400


class ExactCover:
    """An exact-cover problem with colours (Knuth's Algorithm C): choose
    options so that every **primary** item is in exactly one chosen option
    and every **secondary** item in at most one, except that options which
    give a secondary item the same **colour** may share it.

    ``options`` is an iterable of options, each an iterable of entries; an
    entry is an item (any hashable: a string, a number, a tuple ...).
    ``primary`` lists the primary items in order; by default every item of
    the options not in ``secondary``, in order of first appearance.
    ``secondary`` lists the secondary items in order (none by default).  With
    ``colors=True`` an entry that is a 2-tuple ``(item, colour)`` gives the
    (secondary) item a colour, any hashable; ``None`` is no colour, so an
    item that is itself a 2-tuple is written ``(item, None)``.

    ``bounds`` maps primary items to how many chosen options each is in:
    a count, or ``(least, most)`` (Knuth's multiplicities, his DLX3; see
    :mod:`solvers.cover.bounds`); a cover is then a set of options within
    them, each option chosen at most once.  ``costs`` gives each option a
    nonnegative integer cost (Knuth's DLX5) for :func:`~solvers.cheapest_covers`.

    The order matters only for the order of :func:`~solvers.covers`: items
    earlier in :attr:`items` win ties of the search's choice of item.
    Problems compare equal when they state the same problem (the same items
    in the same order, the same options entry by entry, item and colour);
    they hash, pickle, and read and write Knuth's DLX text
    (:meth:`from_dlx`, :meth:`to_dlx`).  A 0/1 matrix (a row per option, a
    column per item) is read by :meth:`from_matrix`.

    >>> problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c")])
    >>> problem.primary, len(problem)
    (('a', 'b', 'c'), 4)
    >>> ExactCover([(1, 2), (2,)], primary=[1])
    Traceback (most recent call last):
    ...
    ValueError: option 0 holds the item 2, which is not in primary or secondary
    """

    __slots__ = (
        "_bounds",
        "_colored",
        "_colors",
        "_costs",
        "_core",
        "_hash",
        "_index",
        "_items",
        "_options",
        "_palette",
        "_primary",
        "_secondary",
        "_starts",
    )

    def __init__(
        self,
        options: Iterable[Iterable[Any]],
        *,
        primary: Iterable[Hashable] | None = None,
        secondary: Iterable[Hashable] = (),
        colors: bool = False,
        bounds: Mapping[Any, int | tuple[int, int]] | None = None,
        costs: Iterable[int] | None = None,
    ) -> None:
        self._colored = _validate.flag(colors, "colors")
        self._secondary = item_list(secondary, "secondary")
        given = _validate.iterable(options, "options", "an iterable of options")
        tolist = getattr(options, "tolist", None)
        if getattr(options, "ndim", None) == 2 and callable(tolist) and zero_one(tolist()):
            raise ValueError(MATRIX_HINT)  # a numpy array of 0 and 1
        self._options: tuple[tuple[Any, ...], ...] | None = numbering.tuples(list(given))
        at_once = None  # the primary items found and the options numbered in one pass
        if primary is None:
            at_once = (
                None if self._colored else numbering.first_seen(self._named(), self._secondary)
            )
            self._primary = at_once[0] if at_once else self._first_seen(set(self._secondary))
        else:
            self._primary = item_list(primary, "primary")
            both = set(self._primary).intersection(self._secondary)
            if both:
                raise ValueError(
                    f"the item {_validate.shown(next(iter(both)))} is both primary and "
                    "secondary: an item is one or the other"
                )
        if not self._primary:
            raise ValueError(
                "an exact-cover problem needs at least one primary item (the items every "
                "cover must cover exactly once); this one has none"
            )
        self._index = {item: i for i, item in enumerate(self.items)}
        if len(self._index) > MAX_ENTRIES:
            raise ValueError(f"a problem may have at most {MAX_ENTRIES} items")
        self._starts, self._items, self._colors, self._palette = encoding.encode(self, at_once)
        self._bounds: Bounds | None = read_bounds(bounds, self._primary)
        self._costs: Costs | None = read_costs(costs, len(self._starts) - 1)
        self._hash: int | None = None
        self._core: Any = None

    # ------------------------------------------------------------ checks

    def _entry(self, entry: Any) -> tuple[Any, Any]:
        """``(item, colour)`` of one entry (colour ``None``: none)."""
        if self._colored and isinstance(entry, tuple) and len(entry) == 2:
            return entry[0], entry[1]
        return entry, None

    def _names(self, option: tuple[Any, ...]) -> tuple[Any, ...]:
        """The items of ``option``, colours left out."""
        if not self._colored:
            return option
        return tuple(e[0] if isinstance(e, tuple) and len(e) == 2 else e for e in option)

    def _named(self) -> tuple[tuple[Any, ...], ...]:
        """The options as given, or (read from a matrix, DLX text) named when asked."""
        if self._options is None:
            numbered = (self._starts, self._items, self._colors, self._palette)
            self._options = named_options(self.items, numbered)
        return self._options

    def _first_seen(self, secondary: set[Any]) -> tuple[Hashable, ...]:
        """The default primary items: those of the options not in ``secondary``."""
        named = self._named() if not self._colored else map(self._names, self._named())
        try:
            seen = dict.fromkeys(chain.from_iterable(named))
        except TypeError:  # an unhashable item: find it, to say where it is
            for k, option in enumerate(self._named()):
                for item in self._names(option):
                    check_hashable(item, f"an item of option {k}")
            raise
        return tuple(item for item in seen if item not in secondary)

    # ------------------------------------------------------------ attributes

    @property
    def items(self) -> tuple[Hashable, ...]:
        """Every item: the primary ones, then the secondary ones."""
        return self._primary + self._secondary

    @property
    def primary(self) -> tuple[Hashable, ...]:
        """The primary items, in order (each covered exactly once)."""
        return self._primary

    @property
    def secondary(self) -> tuple[Hashable, ...]:
        """The secondary items, in order (each covered at most once, or shared in one colour)."""
        return self._secondary

    @property
    def options(self) -> tuple[tuple[Any, ...], ...]:
        """The options, each a tuple of its entries as given."""
        return self._named()

    @property
    def bounds(self) -> dict[Hashable, Any]:
        """The primary items covered other than exactly once, each with its
        count or ``(least, most)`` (the ``bounds=`` given; see
        :mod:`solvers.cover.bounds`).

        >>> ExactCover([("a", "b"), ("a",)], bounds={"a": (1, 2)}).bounds
        {'a': (1, 2)}
        """
        return as_mapping(self._bounds, self._primary)

    @property
    def costs(self) -> tuple[int, ...]:
        """Each option's cost, in option order (all 0 where none were given;
        see :mod:`solvers.cover.costs`).

        >>> ExactCover([("a",), ("a",)], costs=[2, 1]).costs
        (2, 1)
        """
        return self._costs or (0,) * len(self)

    @property
    def colors(self) -> bool:
        """Whether 2-tuple entries are ``(item, colour)`` (the ``colors=`` given)."""
        return self._colored

    def __len__(self) -> int:
        """The number of options."""
        return len(self._starts) - 1

    def option(self, k: int) -> tuple[tuple[Hashable, Any], ...]:
        """Option ``k`` as ``(item, colour)`` pairs (colour ``None``: none).

        >>> ExactCover([("a", ("x", "red"))], secondary=["x"], colors=True).option(0)
        (('a', None), ('x', 'red'))
        """
        k = _validate.integer(k, "k")
        if not 0 <= k < len(self):
            raise IndexError(f"option index {k} is out of range for {len(self)} options")
        if self._options is None:
            names, palette = self.items, (None, *self._palette)
            a, b = self._starts[k], self._starts[k + 1]
            return tuple(
                (names[i], palette[c])
                for i, c in zip(self._items[a:b], self._colors[a:b], strict=True)
            )
        return tuple(self._entry(entry) for entry in self._named()[k])

    def arrays(self) -> tuple[int, int, array[int], array[int], array[int]]:
        """The numbered problem: ``(n_primary, n_secondary, starts, items,
        colors)``, three ``array('I')`` copies.  Option ``k`` holds the items
        ``items[starts[k]:starts[k + 1]]`` (numbers in :attr:`items` order)
        with the colours ``colors[starts[k]:starts[k + 1]]`` (0: none; colour
        ``c`` is the ``c``-th distinct colour of the options).

        >>> problem = ExactCover([("a", "b"), ("b",)])
        >>> n_primary, n_secondary, starts, items, colors = problem.arrays()
        >>> n_primary, n_secondary, list(starts), list(items), list(colors)
        (2, 0, [0, 2, 3], [0, 1, 1], [0, 0, 0])
        """
        return (
            len(self._primary),
            len(self._secondary),
            array("I", self._starts),
            array("I", self._items),
            array("I", self._colors),
        )

    # ------------------------------------------------------------ value

    def _key(self) -> tuple[Any, ...]:
        return (
            self._primary,
            self._secondary,
            self._starts,
            self._items,
            self._colors,
            self._palette,
            self._bounds,
            self._costs,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ExactCover):
            return NotImplemented
        return self is other or self._key() == other._key()

    def __hash__(self) -> int:
        if self._hash is None:
            primary, secondary, starts, items, colors, *rest = self._key()
            packed = (starts.tobytes(), items.tobytes(), colors.tobytes())
            self._hash = hash((primary, secondary, *packed, *rest))
        return self._hash

    def __reduce__(self) -> tuple[Any, ...]:
        packed = [_packing.pack(part) for part in (self._starts, self._items, self._colors)]
        kinds = (self._primary, self._secondary, self._colored)
        numbered = (*packed, self._palette)
        return (_restore, (self._options, *kinds, numbered, self._bounds, self._costs))

    def __repr__(self) -> str:
        if len(self._items) <= _REPR_LIMIT:  # else not named only to be summed up
            extra = ""
            if self._primary != self._first_seen(set(self._secondary)):
                extra += f", primary={list(self._primary)!r}"
            if self._secondary:
                extra += f", secondary={list(self._secondary)!r}"
            if self._colored:
                extra += ", colors=True"
            if self._bounds is not None:
                extra += f", bounds={self.bounds!r}"
            if self._costs is not None:
                extra += f", costs={list(self._costs)!r}"
            text = f"ExactCover({list(self._named())!r}{extra})"
            if len(text) <= _REPR_LIMIT:
                return text
        colours = f", {len(self._palette)} colours" if self._palette else ""
        return (
            f"<ExactCover: {len(self)} options, {len(self._primary)} primary and "
            f"{len(self._secondary)} secondary items{colours}>"
        )

    def digest(self) -> str:
        """A SHA-256 of the numbered problem (what a checkpoint records of it):
        equal problems have equal digests, in every process.

        >>> ExactCover([("a",)]).digest() == ExactCover([["a"]]).digest()
        True
        """
        sha = hashlib.sha256()
        sha.update(f"{len(self._primary)} {len(self._secondary)} {len(self._palette)};".encode())
        for part in (self._starts, self._items, self._colors):
            sha.update(_packing.pack(part))
        if self._bounds is not None:  # a plain problem's digest is what it was before bounds
            sha.update(repr(self._bounds).encode())
        if self._costs is not None:
            sha.update(f"costs {self._costs!r}".encode())
        return sha.hexdigest()

    # ------------------------------------------------------------ DLX text

    @classmethod
    def from_dlx(cls, text: str) -> ExactCover:
        """The problem of Knuth's DLX text (the input of his DLX1, DLX2 and
        SSXCC programs): see :mod:`solvers.cover.dlx`.

        >>> ExactCover.from_dlx("a b | x\\na x:red\\nb x:red\\n").option(1)
        (('b', None), ('x', 'red'))
        """
        fast = read_numbered(text)  # in one pass in Rust, where it can
        if fast is not None:
            return _assembled(None, fast[0], fast[1], bool(fast[2][3]), fast[2])
        options, primary, secondary, colored, bounds, costs = parse(text)
        named: dict[str, Any] = {"bounds": bounds, "costs": costs}
        return cls(options, primary=primary, secondary=secondary, colors=colored, **named)

    def to_dlx(self) -> str:
        """This problem as Knuth's DLX text (see :mod:`solvers.cover.dlx`).
        Items and colours are written by their ``str``; one whose ``str`` is
        not a valid DLX name (a tuple, a string with blanks), or is that of
        another, is written under a name made from it (``cell_3_4`` for
        ``("cell", 3, 4)``), and ``|`` comments at the top list each such
        name with its value.  ``from_dlx(problem.to_dlx())`` has string
        items and the same options in the same order: the same covers.

        >>> print(ExactCover([("a", "b"), ("b",)]).to_dlx(), end="")
        a b
        a b
        b
        >>> print(ExactCover([(("cell", 0), ("cell", 1)), (("cell", 1),)]).to_dlx(), end="")
        | items written under a name made from their value (name = value):
        |   cell_0 = ('cell', 0)
        |   cell_1 = ('cell', 1)
        cell_0 cell_1
        cell_0 cell_1
        cell_1
        """
        return write(self)

    @classmethod
    def from_matrix(
        cls, matrix: Any, names: Iterable[Hashable] | None = None, *, secondary: Any = 0
    ) -> ExactCover:
        """The problem of a 0/1 matrix: an option per row, an item per
        column, and a 1 where the row's option covers the column's item.
        Option ``k`` of the problem (the index in every cover) is row ``k``.

        ``matrix``: a numpy array (any number dtype and memory order) or a
        scipy sparse matrix (any format), read a whole array at a time
        (:mod:`solvers.cover.matrices`), or a list of rows of 0 and 1; an
        entry not 0 or 1 is refused with its row and column.  ``names``: the
        columns' items (default: 0, 1, ...).  ``secondary``: how many of the
        last columns are secondary items, or their names; the others are
        primary, also a column no row covers (the count is then 0).

        >>> problem = ExactCover.from_matrix([[1, 0, 0], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
        >>> problem.primary, problem.options
        ((0, 1, 2), ((0,), (1, 2), (0, 1), (2,)))
        >>> ExactCover.from_matrix([[1, 1, 0], [1, 0, 1]], ["a", "b", "x"], secondary=1).secondary
        ('x',)
        """
        if matrices.is_array(matrix):
            items, n_primary, starts, numbers = matrices.numbered(matrix, names, secondary)
            no_colours = array("I", bytes(4 * len(numbers)))
            numbered = (starts, numbers, no_colours, ())
            return _assembled(None, items[:n_primary], items[n_primary:], False, numbered)
        options, primary, secondary_items = matrix_options(matrix, names, secondary)
        return cls(options, primary=primary, secondary=secondary_items)

    def to_matrix(self, *, sparse: bool = False) -> Any:
        """The problem as a 0/1 numpy ``uint8`` array (colours left out), a
        row per option, a column per item in :attr:`items` order; with
        ``sparse=True`` a scipy ``csr_array``.  It reads back with
        ``from_matrix(m, p.items, secondary=len(p.secondary))``.

        >>> ExactCover([("a", "b"), ("b",)]).to_matrix().tolist()
        [[1, 1], [0, 1]]
        """
        write = matrices.sparse if _validate.flag(sparse, "sparse") else matrices.dense
        return write(len(self._index), self._starts, self._items)


def _restore(
    options: tuple[tuple[Any, ...], ...] | None,
    primary: tuple[Hashable, ...],
    secondary: tuple[Hashable, ...],
    colors: bool,
    numbered: tuple[bytes, bytes, bytes, tuple[Any, ...]],
    bounds: Bounds | None = None,
    costs: Costs | None = None,
) -> ExactCover:
    """An :class:`ExactCover` from its pickle, with the numbering it had (the
    core checks that again when it gets it): a worker of an executor
    unpickles the problem with every batch of subproblems, and checking it
    all over again cost 7 ms a batch on the 6x10 pentominoes (now 1)."""
    starts, items, colours, palette = numbered
    unpacked = (_packing.unpack(starts), _packing.unpack(items), _packing.unpack(colours), palette)
    return _assembled(options, primary, secondary, colors, unpacked, bounds=bounds, costs=costs)


def _assembled(
    options: tuple[tuple[Any, ...], ...] | None,
    primary: tuple[Hashable, ...],
    secondary: tuple[Hashable, ...],
    colors: bool,
    numbered: tuple[array[int], array[int], array[int], tuple[Any, ...]],
    index: dict[Hashable, int] | None = None,
    bounds: Bounds | None = None,
    costs: Costs | None = None,
) -> ExactCover:
    """An :class:`ExactCover` of parts already checked (``options`` ``None``:
    named from the numbers when asked for; ``index``: each item's number,
    shared by a model's problems of one shape, never changed)."""
    problem = ExactCover.__new__(ExactCover)
    problem._options, problem._primary, problem._secondary = options, primary, secondary
    problem._colored = colors
    if index is None:
        index = {item: i for i, item in enumerate(primary + secondary)}
    problem._index = index
    problem._starts, problem._items, problem._colors, problem._palette = numbered
    problem._bounds = bounds
    problem._costs = costs
    problem._hash = None
    problem._core = None
    return problem


def core_problem(problem: ExactCover) -> Any:
    """``problem`` as the core's ``CoverProblem``, built on first use and kept
    with the problem (every count, listing and find of it shares one)."""
    if not isinstance(problem, ExactCover):
        raise TypeError(f"problem must be an ExactCover, got {type(problem).__name__}")
    if problem._core is None:
        limits: tuple[bytes, ...] = ()
        if problem._bounds is not None:
            least, most = zip(*problem._bounds, strict=True)
            limits = (_packing.pack(array("I", least)), _packing.pack(array("I", most)))
        problem._core = _core.CoverProblem(
            len(problem._primary),
            len(problem._secondary),
            _packing.pack(problem._starts),
            _packing.pack(problem._items),
            _packing.pack(problem._colors),
            *limits,
        )
    return problem._core
