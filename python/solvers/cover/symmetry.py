"""Covers up to symmetry: the group a user gives as item permutations,
checked to map the problem's options onto its options, and what counting
and listing once per orbit need of it.

A permutation of the items that maps every option onto an option maps
every cover onto a cover; two covers are the same *up to symmetry* when an
element of the group maps one onto the other.  :func:`group` closes the
permutations given into the group they generate and keeps each element as
the permutation of the options it makes.  The orbits are counted by
Burnside's lemma, the mean over the group of the covers each element
fixes; a cover fixed by an element ``g`` is a union of whole cycles of
``g`` on the options, so those covers are the covers of a smaller problem
whose options are ``g``'s cycles, merged (:func:`fixed_problem`), and the
counts of those small problems cost little next to the count of the problem
itself.  Faster still, where the problem allows it: when a primary item
is fixed by the whole group and none of its options is fixed by an element
other than the identity (:func:`free_item`; the X or F pentomino of a
tiling), every class has one cover for each element, one of which uses a
chosen option of each orbit of that item's options, so the classes are the
covers of the problem with that item's other options left out
(:func:`restricted`): a smaller search than the problem's own.  The
listing keeps the cover of each orbit that is least as a sorted tuple of
option indices (:func:`is_canonical`).

>>> from solvers import ExactCover
>>> problem = ExactCover([("a", "x"), ("b", "y"), ("a", "y"), ("b", "x")])
>>> both = group(problem, [{"a": "b", "b": "a", "x": "y", "y": "x"}])
>>> both
((0, 1, 2, 3), (1, 0, 3, 2))
>>> fixed_problem(problem, entry_lists(problem), both[1]).options
(('a', 'x', 'b', 'y'), ('a', 'x', 'b', 'y'))
>>> swap = group(problem, [{"a": "b", "b": "a"}])
>>> swap, fixed_problem(problem, entry_lists(problem), swap[1])
(((0, 1, 2, 3), (3, 2, 1, 0)), None)
>>> is_canonical((0, 1), swap), is_canonical((2, 3), swap)
(True, False)
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from .._engine import _validate
from .problem import ExactCover, _assembled

__all__ = [
    "MAX_GROUP",
    "entry_lists",
    "fixed_problem",
    "free_item",
    "group",
    "induced",
    "is_canonical",
    "maps_options",
    "restricted",
]

#: The most elements a group given as ``symmetries=`` may have: each is a
#: pass over the options and, to count, a count of its fixed covers.
MAX_GROUP = 10_000

#: A group element as the permutation it makes of the options:
#: ``perm[k]`` is the index of the image of option ``k``.
Perm = tuple[int, ...]


def _item_perm(problem: ExactCover, given: Any, g: int) -> list[int]:
    """Generator ``g`` (a mapping ``item -> image``) as a permutation of the
    item numbers, checked: known items, a bijection, kinds kept."""
    if not isinstance(given, Mapping):
        raise TypeError(
            f"each symmetry must be a mapping {{item: image}} (items not named stay "
            f"put), got {type(given).__name__} for symmetry {g}"
        )
    index, items = problem._index, problem.items
    perm = list(range(len(items)))
    for item, image in given.items():
        for name in (item, image):
            if not isinstance(name, Hashable) or name not in index:
                raise ValueError(
                    f"symmetry {g} names {_validate.shown(name)}, which is not an item of "
                    "the problem"
                )
        perm[index[item]] = index[image]
    reached = set(perm)
    if len(reached) != len(perm):
        lost = next(i for i in range(len(perm)) if i not in reached)
        raise ValueError(
            f"symmetry {g} is not a permutation of the items: nothing maps to "
            f"{_validate.shown(items[lost])} (an item not named maps to itself)"
        )
    n_primary = len(problem.primary)
    for i, j in enumerate(perm):
        if (i < n_primary) != (j < n_primary):
            raise ValueError(
                f"symmetry {g} maps the {'primary' if i < n_primary else 'secondary'} item "
                f"{_validate.shown(items[i])} to {_validate.shown(items[j])}: a symmetry keeps "
                "primary items primary and secondary items secondary"
            )
    return perm


#: Every option as ``(item number, colour number)`` pairs.
Entries = list[tuple[tuple[int, int], ...]]


def entry_lists(problem: ExactCover) -> Entries:
    """Every option of ``problem`` as ``(item number, colour number)``
    pairs (made once for all the elements of a group)."""
    starts, items, colours = problem._starts, problem._items, problem._colors
    pairs = list(zip(items, colours, strict=True))
    return [tuple(pairs[a:b]) for a, b in zip(starts, starts[1:], strict=False)]


def _option_perm(
    problem: ExactCover,
    entries: Entries,
    items: list[int],
    g: int,
    where: dict[frozenset[Any], int],
) -> Perm:
    """The permutation of the options that item permutation ``items`` makes."""
    perm = []
    for k, option in enumerate(entries):
        image = frozenset((items[i], c) for i, c in option)
        found = where.get(image)
        if found is None:
            names = problem.items
            shown = tuple(names[i] for i, _ in sorted(image))
            raise ValueError(
                f"symmetry {g} maps option {k} {_validate.shown(problem.options[k])} to "
                f"{_validate.shown(shown)}, which is not an option: a symmetry must map "
                "every option onto an option"
            )
        perm.append(found)
    return tuple(perm)


def _where(entries: Entries) -> dict[frozenset[Any], int]:
    """Each option's index, found by its entries (distinct options checked)."""
    where: dict[frozenset[Any], int] = {}
    for k, option in enumerate(entries):
        key = frozenset(option)
        if key in where:
            raise ValueError(
                f"options {where[key]} and {k} are the same option: symmetries= needs "
                "distinct options (a symmetry could not tell which is the image of which)"
            )
        where[key] = k
    return where


def maps_options(problem: ExactCover, symmetry: Mapping[Any, Any]) -> bool:
    """Whether the item permutation ``symmetry`` maps every option of
    ``problem`` onto an option (what a model asks of its candidates)."""
    entries = entry_lists(problem)
    where = _where(entries)
    items = _item_perm(problem, symmetry, 0)
    return all(frozenset((items[i], c) for i, c in option) in where for option in entries)


def group(problem: ExactCover, symmetries: Any) -> tuple[Perm, ...]:
    """The group generated by ``symmetries`` (an iterable of mappings
    ``{item: image}``, items not named fixed), each element as the
    permutation it makes of the options; the identity first, then in the
    order the closure reaches them.  Elements that move the options alike
    are one element: they act alike on the covers."""
    if isinstance(symmetries, Mapping):
        raise TypeError(
            "symmetries must be an iterable of mappings {item: image}, got one mapping "
            "(give a list of them: symmetries=[...])"
        )
    given = list(_validate.iterable(symmetries, "symmetries", "an iterable of mappings"))
    if problem._bounds is not None:
        raise ValueError(
            "symmetries= counts and lists exact covers up to symmetry, not those of a "
            "problem with bounds (count it without symmetries=)"
        )
    entries = entry_lists(problem)
    where = _where(entries)
    generators = [
        _option_perm(problem, entries, _item_perm(problem, perm, g), g, where)
        for g, perm in enumerate(given)
    ]
    identity = tuple(range(len(problem)))
    elements = {identity: None}
    frontier = [identity]
    while frontier:
        reached = []
        for element in frontier:
            for step in generators:
                product = tuple(step[k] for k in element)
                if product not in elements:
                    if len(elements) >= MAX_GROUP:
                        raise ValueError(
                            f"the symmetries generate a group of more than {MAX_GROUP:,} "
                            "elements: counting up to symmetry takes at most that many"
                        )
                    elements[product] = None
                    reached.append(product)
        frontier = reached
    return tuple(elements)


def fixed_problem(problem: ExactCover, entries: Entries, perm: Perm) -> ExactCover | None:
    """The problem whose covers are the covers of ``problem`` that ``perm``
    fixes: an option for each cycle of ``perm`` whose options may all be in
    one cover, holding their items (a colour shared once); ``None`` when
    those cycles leave a primary item uncovered (no cover is fixed)."""
    n_primary = len(problem.primary)
    starts, items, colours = array("I", [0]), array("I"), array("I")
    seen = [False] * len(perm)
    for first in range(len(perm)):
        if seen[first]:
            continue
        merged: dict[int, int] = {}
        fits = True
        k = first
        while not seen[k]:
            seen[k] = True
            for i, c in entries[k]:
                if i in merged and (i < n_primary or c == 0 or merged[i] != c):
                    fits = False  # two options of the cycle clash on item i
                merged[i] = c
            k = perm[k]
        if fits:
            for i in sorted(merged):
                items.append(i)
                colours.append(merged[i])
            starts.append(len(items))
    if len(set(items[i] for i in range(len(items))) & set(range(n_primary))) < n_primary:
        return None  # a primary item in no cycle that fits: no cover is fixed
    numbered = (starts, items, colours, problem._palette)
    return _assembled(None, problem._primary, problem._secondary, problem._colored, numbered)


def free_item(problem: ExactCover, entries: Entries, elements: Sequence[Perm]) -> list[int] | None:
    """The options to leave out so that the problem's covers are one for
    each class: those of a primary item that every element fixes and whose
    options no element but the identity fixes, all but the first of each
    orbit (the item with the fewest options, the first of a tie); ``None``
    when no primary item is such."""
    if len(elements) == 1:
        return None
    n_primary = len(problem.primary)
    holding: list[list[int]] = [[] for _ in range(n_primary)]
    for k, option in enumerate(entries):
        for i, _ in option:
            if i < n_primary:
                holding[i].append(k)
    moving = elements[1:]
    for options in sorted((h for h in holding if h), key=len):
        mine = set(options)
        if any(perm[k] == k or perm[k] not in mine for perm in moving for k in options):
            continue
        left_out, kept = [], set()
        for k in options:
            if k in kept:
                continue
            kept.add(k)
            for perm in moving:
                kept.add(perm[k])
                left_out.append(perm[k])
        return left_out
    return None


def restricted(problem: ExactCover, left_out: Iterable[int]) -> ExactCover:
    """``problem`` without the options ``left_out``."""
    gone = set(left_out)
    starts, items, colours = array("I", [0]), array("I"), array("I")
    for k in range(len(problem)):
        if k not in gone:
            a, b = problem._starts[k], problem._starts[k + 1]
            items.extend(problem._items[a:b])
            colours.extend(problem._colors[a:b])
            starts.append(len(items))
    numbered = (starts, items, colours, problem._palette)
    return _assembled(None, problem._primary, problem._secondary, problem._colored, numbered)


def induced(
    holding: Mapping[Hashable, Iterable[Any]], move: Mapping[Any, Any]
) -> dict[Hashable, Hashable]:
    """The item permutation a model's symmetry makes: ``holding`` gives each
    item's options by what they mean (a queen's square, a Sudoku's cell and
    digit), ``move`` moves those meanings, and each item goes to the item
    whose options are the moved ones.

    >>> lines = {"row": [(0, 0), (0, 1)], "col": [(0, 0), (1, 0)]}
    >>> induced(lines, {(0, 0): (0, 0), (0, 1): (1, 0), (1, 0): (0, 1)})
    {'row': 'col', 'col': 'row'}
    """
    sets = {item: frozenset(meanings) for item, meanings in holding.items()}
    # Items that hold the same options (a Latin square's rows are its boxes)
    # are interchangeable: the k-th of them goes to the k-th of the image's.
    named: dict[frozenset[Hashable], list[Hashable]] = {}
    for item, meanings in sets.items():
        named.setdefault(meanings, []).append(item)
    images: dict[Hashable, Hashable] = {}
    for same in named.values():
        image = named[frozenset(move[m] for m in sets[same[0]])]
        images.update(zip(same, image, strict=True))
    return images


def is_canonical(cover: Sequence[int], elements: Iterable[Perm]) -> bool:
    """Whether ``cover`` (option indices, ascending) is the least of its
    images under ``elements`` (compared as sorted tuples)."""
    mine = tuple(cover)
    return all(tuple(sorted(perm[k] for k in mine)) >= mine for perm in elements)
