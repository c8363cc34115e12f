"""A deliberately plain peg-solitaire counter, independent of the package.

Nothing here imports ``solvers``: the boards (holes and jumps) are rebuilt from
their definitions, and the counts come from a depth-first search over
positions with a memo, or from a forward pass layer by layer.  Meant for tiny
boards (up to ~21 holes), where it is the ground truth the product is checked
against.

A board is ``(holes, jumps)``: ``holes`` a list of ``(row, col)`` squares,
``jumps`` a list of ``(from, over, to)`` triples of squares, every direction
listed separately.  A *solution* is a sequence of jumps from the position with
every hole full but ``start_empty`` to a position with a single peg (at
``finish``, or anywhere when ``finish`` is None).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence

Square = tuple[int, int]
Jump = tuple[Square, Square, Square]

SQUARE_DIRECTIONS: tuple[Square, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0))
#: The three lines of the triangular grid (holes (r, c) with 0 <= c <= r).
TRIANGLE_DIRECTIONS: tuple[Square, ...] = ((0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1))


# ---------------------------------------------------------------- boards


def jumps_of(holes: Iterable[Square], directions: Sequence[Square]) -> list[Jump]:
    """Every jump ``(from, over, to)`` whose three squares are holes."""
    present = set(holes)
    found = []
    for r, c in present:
        for dr, dc in directions:
            over, to = (r + dr, c + dc), (r + 2 * dr, c + 2 * dc)
            if over in present and to in present:
                found.append(((r, c), over, to))
    return sorted(found)


def square_board(holes: Iterable[Square]) -> tuple[list[Square], list[Jump]]:
    holes = sorted(set(holes))
    return holes, jumps_of(holes, SQUARE_DIRECTIONS)


def rectangle(rows: int, cols: int) -> tuple[list[Square], list[Jump]]:
    return square_board((r, c) for r in range(rows) for c in range(cols))


def diamond(n: int) -> tuple[list[Square], list[Jump]]:
    """Rows of 1, 3, ..., 2n-1, ..., 3, 1 holes, centred on a (2n-1)x(2n-1) grid."""
    holes = []
    for r in range(2 * n - 1):
        half = n - 1 - abs(r - (n - 1))  # holes either side of the middle column
        holes += [(r, c) for c in range(n - 1 - half, n + half)]
    return square_board(holes)


def english() -> tuple[list[Square], list[Jump]]:
    """The 33-hole cross (too big to count here; for geometry checks)."""
    rows = ["  ooo  ", "  ooo  ", "ooooooo", "ooooooo", "ooooooo", "  ooo  ", "  ooo  "]
    return square_board(
        (r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "o"
    )


def triangle(rows: int) -> tuple[list[Square], list[Jump]]:
    holes = [(r, c) for r in range(rows) for c in range(r + 1)]
    return holes, jumps_of(holes, TRIANGLE_DIRECTIONS)


# ---------------------------------------------------------------- counting


def _bits(holes: Sequence[Square], jumps: Sequence[Jump]) -> tuple[dict[Square, int], list]:
    bit = {square: 1 << i for i, square in enumerate(holes)}
    assert len(bit) == len(holes), "a hole is listed twice"
    moves = [(bit[a], bit[b], bit[c]) for a, b, c in jumps]
    return bit, moves


def count_solutions(
    holes: Sequence[Square],
    jumps: Sequence[Jump],
    start_empty: Square,
    finish: Square | None = None,
) -> int:
    """Jump sequences from the board full but ``start_empty`` to one peg at
    ``finish`` (anywhere if None): a depth-first search with a memo on positions."""
    bit, moves = _bits(holes, jumps)
    full = sum(bit.values())
    goal = None if finish is None else bit[finish]
    memo: dict[int, int] = {}

    def count(pegs: int) -> int:
        if pegs in memo:
            return memo[pegs]
        if pegs & (pegs - 1) == 0:  # a single peg left: no jump is possible
            total = 1 if goal is None or pegs == goal else 0
        else:
            total = 0
            for a, b, c in moves:
                if pegs & a and pegs & b and not pegs & c:
                    total += count(pegs ^ a ^ b ^ c)
        memo[pegs] = total
        return total

    return count(full ^ bit[start_empty])


def finish_counts_bruteforce(
    holes: Sequence[Square], jumps: Sequence[Jump], start_empty: Square
) -> dict[Square, int]:
    """For every hole, the number of jump sequences from the board full but
    ``start_empty`` that leave a single peg there (zeros included).

    A forward pass, one layer of positions per jump, counts summed per position:
    a different method from :func:`count_solutions`, so the two check each other.
    """
    bit, moves = _bits(holes, jumps)
    layer = Counter({sum(bit.values()) ^ bit[start_empty]: 1})
    for _ in range(len(holes) - 2):
        following: Counter[int] = Counter()
        for pegs, ways in layer.items():
            for a, b, c in moves:
                if pegs & a and pegs & b and not pegs & c:
                    following[pegs ^ a ^ b ^ c] += ways
        layer = following
    return {square: layer.get(mask, 0) for square, mask in bit.items()}


def solutions(
    holes: Sequence[Square],
    jumps: Sequence[Jump],
    start_empty: Square,
    finish: Square | None = None,
) -> Iterator[list[Jump]]:
    """Every solution as a list of jumps, plain backtracking (tiny boards only),
    trying the jumps in the order given."""
    pegs = set(holes) - {start_empty}
    path: list[Jump] = []

    def search() -> Iterator[list[Jump]]:
        if len(pegs) == 1:
            if finish is None or finish in pegs:
                yield list(path)
            return
        for a, b, c in jumps:
            if a in pegs and b in pegs and c not in pegs:
                pegs.difference_update((a, b))
                pegs.add(c)
                path.append((a, b, c))
                yield from search()
                path.pop()
                pegs.discard(c)
                pegs.update((a, b))

    yield from search()


def is_solution(
    holes: Sequence[Square],
    jumps: Sequence[Jump],
    start_empty: Square,
    sequence: Iterable[Jump],
    finish: Square | None = None,
) -> bool:
    """Whether ``sequence`` of ``(from, over, to)`` squares is a legal solution."""
    legal = set(map(tuple, jumps))
    pegs = set(holes) - {start_empty}
    for move in sequence:
        a, b, c = (tuple(square) for square in move)
        if (a, b, c) not in legal or a not in pegs or b not in pegs or c in pegs:
            return False
        pegs -= {a, b}
        pegs.add(c)
    return len(pegs) == 1 and (finish is None or finish in pegs)


# ---------------------------------------------------------------- every game


def games_bruteforce(
    holes: Sequence[Square], jumps: Sequence[Jump], start_empty: Square
) -> tuple[Counter[int], Counter[Square], int | None]:
    """Every game from the board full but ``start_empty``, played until no
    jump is left: the games by pegs left, the one-peg games by the hole of
    the last peg, and the fewest jumps of a game stuck with more than one peg
    (None if there is none).  A depth-first search with a memo on positions,
    each position's games as a Counter of its final positions."""
    bit, moves = _bits(holes, jumps)
    start = sum(bit.values()) ^ bit[start_empty]
    memo: dict[int, Counter[int]] = {}

    def ends(pegs: int) -> Counter[int]:
        """How many games from ``pegs`` end on each final position."""
        if pegs in memo:
            return memo[pegs]
        out: Counter[int] = Counter()
        for a, b, c in moves:
            if pegs & a and pegs & b and not pegs & c:
                out.update(ends(pegs ^ a ^ b ^ c))
        if not out:
            out[pegs] = 1
        memo[pegs] = out
        return out

    finals = ends(start)
    by_pegs: Counter[int] = Counter()
    wins: Counter[Square] = Counter()
    for final, games in finals.items():
        by_pegs[final.bit_count()] += games
        if final.bit_count() == 1:
            (square,) = [s for s, m in bit.items() if m == final]
            wins[square] += games
    shortest = min(
        (start.bit_count() - final.bit_count() for final in finals if final.bit_count() > 1),
        default=None,
    )
    return by_pegs, wins, shortest


# ---------------------------------------------------------------- positions


def symmetries(holes: Sequence[Square], triangle: bool = False) -> list[dict[Square, Square]]:
    """The maps of the holes onto themselves that keep the board's shape: on
    the square grid the 8 turns and flips of the plane (each moved back onto
    the board by a translation), on the triangular grid (``(r, c)`` with
    ``0 <= c <= r``) the 6 permutations of the coordinates ``(c, r - c,
    rows - 1 - r)``.  Only those that map the holes onto the holes."""
    present = set(holes)
    maps: list[dict[Square, Square]] = []
    if triangle:
        top = max(r for r, _ in holes)
        orders = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
        for order in orders:
            image = {}
            for r, c in holes:
                coords = (c, r - c, top - r)
                a, b, _ = (coords[i] for i in order)
                image[(r, c)] = (a + b, a)
            maps.append(image)
    else:
        turns = [
            lambda r, c: (r, c),
            lambda r, c: (r, -c),
            lambda r, c: (-r, c),
            lambda r, c: (-r, -c),
            lambda r, c: (c, r),
            lambda r, c: (c, -r),
            lambda r, c: (-c, r),
            lambda r, c: (-c, -r),
        ]
        low_r, low_c = min(r for r, _ in holes), min(c for _, c in holes)
        for turn in turns:
            moved = {square: turn(*square) for square in holes}
            dr = low_r - min(r for r, _ in moved.values())
            dc = low_c - min(c for _, c in moved.values())
            maps.append({square: (r + dr, c + dc) for square, (r, c) in moved.items()})
    return [m for m in maps if set(m.values()) == present]


def positions_bruteforce(
    holes: Sequence[Square],
    jumps: Sequence[Jump],
    start_empty: Square,
    maps: Sequence[dict[Square, Square]],
    finish: Square | None = None,
) -> tuple[list[int], list[int]]:
    """After each number of jumps from the board full but ``start_empty``
    (0 to ``len(holes) - 2``): the distinct positions reached, and those from
    which one peg on ``finish`` (anywhere if None) can still be reached, both
    counted once per class of ``maps`` (which must contain the identity).
    Layer by layer over sets of positions (frozensets of squares)."""
    moves = [tuple(jump) for jump in jumps]

    def children(pegs: frozenset[Square]) -> list[frozenset[Square]]:
        return [
            (pegs - {a, b}) | {c} for a, b, c in moves if a in pegs and b in pegs and c not in pegs
        ]

    memo: dict[frozenset[Square], bool] = {}

    def wins(pegs: frozenset[Square]) -> bool:
        if pegs not in memo:
            if len(pegs) == 1:
                memo[pegs] = finish is None or finish in pegs
            else:
                memo[pegs] = any(wins(child) for child in children(pegs))
        return memo[pegs]

    def canonical(pegs: frozenset[Square]) -> tuple[Square, ...]:
        return min(tuple(sorted(m[s] for s in pegs)) for m in maps)

    layer = {frozenset(holes) - {start_empty}}
    reached, winning = [], []
    for _ in range(len(holes) - 1):
        classes = {canonical(pegs): pegs for pegs in layer}
        reached.append(len(classes))
        winning.append(sum(wins(pegs) for pegs in classes.values()))
        layer = {child for pegs in layer for child in children(pegs)}
    return reached, winning
