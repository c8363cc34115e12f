"""Deliberately naive exact cover, independent of the package: the ground
truth the cover family's tests check against, for tiny problems only.

A problem here is ``(options, primary, secondary)``: ``options`` a list of
options, each a list of ``(item, colour)`` pairs (colour ``None``: none);
items any hashable.  Two views, written apart from the package's code:

* :func:`all_covers`: every subset of the options, tried one by one (so at
  most about 16 options), kept if it is a cover.  The covers come as sorted
  tuples of option indices, in increasing order.
* :func:`raw_problems`: a hypothesis strategy of random tiny problems.
* :func:`search_order`: the covers in the order the package documents for
  ``covers``: depth first; at each node the uncovered primary item with the
  fewest options still possible, ties to the item first in ``primary``;
  its options in the order given.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from itertools import combinations

from hypothesis import strategies as st

Entry = tuple[Hashable, Hashable | None]
Option = Sequence[Entry]


def is_cover(
    options: Sequence[Option],
    primary: Sequence[Hashable],
    chosen: Sequence[int],
    bounds: dict[Hashable, tuple[int, int]] | None = None,
) -> bool:
    """Whether the options ``chosen`` (distinct indices) form a cover: each
    primary item in exactly one (or between the two numbers ``bounds``
    gives it); every other item in one, or in several that all give it the
    same colour (never ``None``)."""
    uses: dict[Hashable, list[Hashable | None]] = {}
    for k in chosen:
        for item, colour in options[k]:
            uses.setdefault(item, []).append(colour)
    for item in primary:
        least, most = (bounds or {}).get(item, (1, 1))
        if not least <= len(uses.get(item, [])) <= most:
            return False
    for item, colours in uses.items():
        if item in primary or len(colours) == 1:
            continue
        if colours[0] is None or any(c != colours[0] for c in colours):
            return False
    return True


def all_covers(
    options: Sequence[Option],
    primary: Sequence[Hashable],
    bounds: dict[Hashable, tuple[int, int]] | None = None,
) -> list[tuple[int, ...]]:
    """Every cover, by trying every subset of the options."""
    if len(options) > 18:
        raise ValueError("the oracle tries every subset: keep to 18 options")
    found = []
    for size in range(len(options) + 1):
        for chosen in combinations(range(len(options)), size):
            if is_cover(options, primary, chosen, bounds):
                found.append(chosen)
    return sorted(found)


def _compatible(option: Option, covered: dict[Hashable, Hashable | None], primary: set) -> bool:
    """Whether ``option`` can join options that covered ``covered`` (item -> colour)."""
    for item, colour in option:
        if item not in covered:
            continue
        if item in primary or colour is None or covered[item] != colour:
            return False
    return True


def search_order(options: Sequence[Option], primary: Sequence[Hashable]) -> list[tuple[int, ...]]:
    """Every cover in the documented depth-first order (see the module's docstring)."""
    primary_set = set(primary)
    found: list[tuple[int, ...]] = []

    def visit(covered: dict[Hashable, Hashable | None], chosen: list[int]) -> None:
        left = [item for item in primary if item not in covered]
        if not left:
            found.append(tuple(sorted(chosen)))
            return
        possible = {
            item: [
                k
                for k, option in enumerate(options)
                if any(i == item for i, _ in option) and _compatible(option, covered, primary_set)
            ]
            for item in left
        }
        item = min(left, key=lambda i: len(possible[i]))  # min keeps the first of a tie
        for k in possible[item]:
            visit({**covered, **dict(options[k])}, [*chosen, k])

    visit({}, [])
    return found


# ---------------------------------------------------------------- random problems


@st.composite
def raw_problems(draw, *, colours=True, secondary_items=3, max_options=9):
    """``(options, primary, secondary)`` in the oracle's form: options as
    lists of ``(item, colour)`` pairs, each with a primary item; up to
    ``secondary_items`` secondary items, coloured if ``colours``."""
    n_primary = draw(st.integers(1, 5))
    n_secondary = draw(st.integers(0, secondary_items))
    # items of mixed kinds: any hashable will do
    primary = [f"p{i}" if i % 2 else i for i in range(n_primary)]
    secondary = [("s", i) for i in range(n_secondary)]
    palette = [None, "red", "blue"] if colours else [None]
    options = []
    for _ in range(draw(st.integers(0, max_options))):
        chosen = draw(st.sets(st.sampled_from(primary), min_size=1, max_size=n_primary))
        extra = (
            draw(st.sets(st.sampled_from(secondary), max_size=n_secondary)) if secondary else set()
        )
        entries = [(item, None) for item in primary if item in chosen]
        entries += [(item, draw(st.sampled_from(palette))) for item in secondary if item in extra]
        options.append(draw(st.permutations(entries)))
    return options, primary, secondary


def sudoku_brute(grid: list[list[int]], high: int, wide: int, most: int | None = None) -> int:
    """Solutions of a Sudoku grid (0 blank), filling the blank cells in
    reading order; with ``most``, counted up to that many."""
    side = high * wide
    grid = [row[:] for row in grid]
    blanks = [(r, c) for r in range(side) for c in range(side) if grid[r][c] == 0]

    def fits(r: int, c: int, d: int) -> bool:
        if d in grid[r] or any(grid[i][c] == d for i in range(side)):
            return False
        top, left = r - r % high, c - c % wide
        return all(
            grid[i][j] != d for i in range(top, top + high) for j in range(left, left + wide)
        )

    def fill(k: int) -> int:
        if k == len(blanks):
            return 1
        r, c = blanks[k]
        total = 0
        for d in range(1, side + 1):
            if fits(r, c, d):
                grid[r][c] = d
                total += fill(k + 1)
                grid[r][c] = 0
                if most is not None and total >= most:
                    return most
        return total

    return fill(0)
