"""Write the exact-cover benchmark instances as Knuth DLX files.

The generator is deliberately independent of ``solvers``: the files it writes
are the common input of every program in ``benches/cover_bench.py`` (ours and
Knuth's DLX1, DLX2 and SSXCC, PyPI ``exact-cover`` and ``xcover``), so a bug in
the package's own models cannot make every program agree on a wrong instance.
The expected counts are published values (see ``EXPECTED``)::

    python benches/cover_instances.py /work/peers/instances

writes

- ``pentominoes_6x10.dlx``: the 12 pentominoes in a 6x10 box, every orientation
  and position, no symmetry breaking (2,056 options; 9,356 tilings = 4 x 2,339);
- ``langford_N.dlx`` for N in 11..14: Langford pairs in the form of TAOCP
  7.2.2.1 (items ``1..N`` and the slots ``s1..s2N``; option ``i s_j s_k`` with
  ``k = i + j + 1``), no symmetry breaking, so the count is twice OEIS A014552
  (N = 13, 14 have none: the whole tree is searched for nothing);
- ``queens_13.dlx``: N-Queens as Knuth's QUEENS-DLX states it (rows and
  columns primary in organ-pipe order, the diagonals secondary, the two
  one-cell diagonals left out): 73,712 = OEIS A000170(13);
- ``queens2_8.dlx``: two queens on every row and column of 8x8, at most two on
  any diagonal (DLX3's bounds: ``2|`` and ``0:2|``), for benches/bounds_bench.py;
- ``pentominoes_any_5x9.dlx``: a 5x9 box tiled by distinct pentominoes, any of
  the twelve (each piece ``0:1|``), for benches/bounds_bench.py;
- ``edge_matching_8x8.dlx``: an edge-matching puzzle of 64 square pieces in
  the manner of Eternity II (grey outer border; 6 colours between two border
  pieces, 16 inside), made from a random tiling of seed 1 and shuffled: items
  the cells and the pieces, the edges between cells secondary with the
  colour the piece gives them, every rotation at every cell whose border it
  fits (5,704 options; 8 solutions, no published figure: Knuth's SSXCC and
  ours agree);
- ``sudoku/top1465_NNNN.dlx``: the first 1,000 puzzles of the "top1465" list
  of hard 9x9 Sudokus (``benches/data/top1465.txt``), each in the form of
  Knuth's SUDOKU-DLX (only the empty cells and the missing digits are items;
  only the options the givens allow): one solution each.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
TOP1465 = HERE / "data" / "top1465.txt"

# Published counts of the instances written here (the raw count: no symmetry
# is broken in any of them).
EXPECTED = {
    "pentominoes_6x10": 9356,  # 4 x 2,339 (Haselgrove 1960)
    "langford_11": 2 * 17792,  # OEIS A014552(11), both mirror images
    "langford_12": 2 * 108144,  # OEIS A014552(12)
    "langford_13": 0,  # n mod 4 in {1, 2}: none
    "langford_14": 0,
    "queens_13": 73712,  # OEIS A000170(13)
    "edge_matching_8x8": 8,  # SSXCC = ours, 2026-12-07 (a generated puzzle)
}
SUDOKU_COUNT = 1000  # puzzles of top1465 in the batch; each has one solution

# The instances with bounds (benches/bounds_bench.py) and their counts, those on
# which Knuth's DLX3 and SSMCC and ours agree (no published figure known to us).
QUEENS2 = (8,)
PENTOMINO_BOXES = ((5, 9),)
BOUNDED = {
    "queens2_8": 477_136,  # DLX3 = SSMCC = ours, 2026-11-28
    "pentominoes_any_5x9": 23_608,  # SSMCC = ours, 2026-11-28
}

# The 12 pentominoes, Conway's letters, one orientation each ('#' = cell).
PENTOMINOES = {
    "F": (".##", "##.", ".#."),
    "I": ("#####",),
    "L": ("####", "#..."),
    "N": ("###.", "..##"),
    "P": ("##", "##", "#."),
    "T": ("###", ".#.", ".#."),
    "U": ("#.#", "###"),
    "V": ("#..", "#..", "###"),
    "W": ("#..", "##.", ".##"),
    "X": (".#.", "###", ".#."),
    "Y": ("####", ".#.."),
    "Z": ("##.", ".#.", ".##"),
}


def write_dlx(
    path: Path,
    primary: Sequence[str],
    secondary: Sequence[str],
    options: Iterable[Sequence[str]],
    comment: str,
) -> int:
    """Write one DLX file; returns the number of options."""
    lines = [f"| {comment}"]
    head = " ".join(primary)
    if secondary:
        head += " | " + " ".join(secondary)
    lines.append(head)
    n = 0
    for option in options:
        lines.append(" ".join(option))
        n += 1
    path.write_text("\n".join(lines) + "\n")
    return n


def encode(x: int) -> str:
    """One character per coordinate, as Knuth's generators name cells."""
    return "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"[x]


# -- pentominoes ---------------------------------------------------------------


def orientations(rows: Sequence[str]) -> list[tuple[tuple[int, int], ...]]:
    """The distinct rotations and reflections of a piece, each normalised to
    touch row 0 and column 0 and sorted, so duplicates compare equal."""
    cells = [(r, c) for r, line in enumerate(rows) for c, ch in enumerate(line) if ch == "#"]
    seen: list[tuple[tuple[int, int], ...]] = []
    for flip in (False, True):
        shape = [(r, -c) if flip else (r, c) for r, c in cells]
        for _ in range(4):
            shape = [(c, -r) for r, c in shape]  # a quarter turn
            r0 = min(r for r, _ in shape)
            c0 = min(c for _, c in shape)
            norm = tuple(sorted((r - r0, c - c0) for r, c in shape))
            if norm not in seen:
                seen.append(norm)
    return seen


def pentomino_options(height: int, width: int) -> list[list[str]]:
    options = []
    for name, rows in PENTOMINOES.items():
        for shape in orientations(rows):
            h = 1 + max(r for r, _ in shape)
            w = 1 + max(c for _, c in shape)
            for top in range(height - h + 1):
                for left in range(width - w + 1):
                    cells = [encode(top + r) + encode(left + c) for r, c in shape]
                    options.append([name, *cells])
    return options


def pentominoes(out: Path, height: int = 6, width: int = 10) -> int:
    cells = [encode(r) + encode(c) for r in range(height) for c in range(width)]
    return write_dlx(
        out / f"pentominoes_{height}x{width}.dlx",
        [*PENTOMINOES, *cells],
        [],
        pentomino_options(height, width),
        f"the 12 pentominoes in a {height}x{width} box, all orientations (cover_instances.py)",
    )


# -- Langford pairs ------------------------------------------------------------


def langford(out: Path, n: int) -> int:
    """TAOCP 7.2.2.1: the two copies of ``i`` go to slots ``j`` and ``k`` with
    ``i`` slots between them, so ``k = i + j + 1``."""
    slots = [f"s{j}" for j in range(1, 2 * n + 1)]
    options = [
        [str(i), f"s{j}", f"s{i + j + 1}"] for i in range(1, n + 1) for j in range(1, 2 * n - i)
    ]
    return write_dlx(
        out / f"langford_{n}.dlx",
        [*(str(i) for i in range(1, n + 1)), *slots],
        [],
        options,
        f"Langford pairs n={n}, no symmetry breaking (cover_instances.py)",
    )


# -- N-Queens ------------------------------------------------------------------


def queens(out: Path, n: int) -> int:
    """Knuth's QUEENS-DLX form: row and column items in organ-pipe order (the
    middle first, so MRV ties go to the most constraining lines); diagonals
    secondary, the one-cell corner diagonals omitted (they constrain nothing)."""
    last = 2 * n - 2
    primary = []
    for j in range(n):
        t = ((n - 1 - j) if j & 1 else (n + j)) >> 1
        primary += [f"r{encode(t)}", f"c{encode(t)}"]
    secondary = [x for d in range(1, last) for x in (f"a{encode(d)}", f"b{encode(d)}")]
    options = []
    for r in range(n):
        for c in range(n):
            option = [f"r{encode(r)}", f"c{encode(c)}"]
            for tag, d in (("a", r + c), ("b", n - 1 - r + c)):
                if 0 < d < last:
                    option.append(f"{tag}{encode(d)}")
            options.append(option)
    return write_dlx(
        out / f"queens_{n}.dlx", primary, secondary, options, f"{n} queens (cover_instances.py)"
    )


# -- bounds (DLX3's multiplicities) ---------------------------------------------


def queens2(out: Path, n: int) -> int:
    """Two queens on every row and every column of an ``n x n`` board and at
    most two on any diagonal (``2n`` queens cannot have one a diagonal: there
    are ``2n - 1``): rows and columns primary with the bound ``2|``,
    diagonals primary with ``0:2|``."""
    lines = [f"2|{tag}{encode(i)}" for i in range(n) for tag in "rc"]
    diagonals = [f"0:2|{tag}{encode(d)}" for d in range(2 * n - 1) for tag in "ab"]
    options = [
        [f"r{encode(r)}", f"c{encode(c)}", f"a{encode(r + c)}", f"b{encode(n - 1 - r + c)}"]
        for r in range(n)
        for c in range(n)
    ]
    comment = f"two queens on every row and column of {n}x{n}, two at most a diagonal"
    return write_dlx(out / f"queens2_{n}.dlx", [*lines, *diagonals], [], options, comment)


def pentominoes_any(out: Path, height: int, width: int) -> int:
    """A ``height x width`` box tiled by distinct pentominoes, any of the 12
    (each piece an item with the bound ``0:1|``)."""
    cells = [encode(r) + encode(c) for r in range(height) for c in range(width)]
    return write_dlx(
        out / f"pentominoes_any_{height}x{width}.dlx",
        [*(f"0:1|{name}" for name in PENTOMINOES), *cells],
        [],
        pentomino_options(height, width),
        f"a {height}x{width} box tiled by distinct pentominoes, any of them (cover_instances.py)",
    )


# -- Sudoku --------------------------------------------------------------------


def sudoku_dlx(puzzle: str) -> tuple[list[str], list[list[str]]]:
    """Knuth's SUDOKU-DLX form of one 81-character puzzle ('.' or '0' empty):
    items ``pRC`` (cell filled), ``rRD``, ``cCD``, ``bBD`` (digit D in row,
    column, box) only where the givens leave them open."""
    if len(puzzle) != 81:
        raise ValueError(f"a puzzle has 81 characters, got {len(puzzle)}: {puzzle!r}")
    grid = [
        [int(ch) if ch in "123456789" else 0 for ch in puzzle[r * 9 : r * 9 + 9]] for r in range(9)
    ]
    row = [set() for _ in range(9)]
    col = [set() for _ in range(9)]
    box = [set() for _ in range(9)]
    for r in range(9):
        for c in range(9):
            d = grid[r][c]
            if d:
                b = 3 * (r // 3) + c // 3
                if d in row[r] or d in col[c] or d in box[b]:
                    raise ValueError(f"digit {d} repeated at row {r}, column {c}: {puzzle!r}")
                row[r].add(d)
                col[c].add(d)
                box[b].add(d)
    items = [f"p{r}{c}" for r in range(9) for c in range(9) if not grid[r][c]]
    for tag, used in (("r", row), ("c", col), ("b", box)):
        items += [f"{tag}{k}{d}" for k in range(9) for d in range(1, 10) if d not in used[k]]
    options = []
    for r in range(9):
        for c in range(9):
            if grid[r][c]:
                continue
            b = 3 * (r // 3) + c // 3
            for d in range(1, 10):
                if d not in row[r] and d not in col[c] and d not in box[b]:
                    options.append([f"p{r}{c}", f"r{r}{d}", f"c{c}{d}", f"b{b}{d}"])
    return items, options


# -- an edge-matching puzzle -------------------------------------------------------


def edge_matching(out: Path, n: int = 8, border: int = 6, inner: int = 16, seed: int = 1) -> int:
    """``n x n`` square pieces, each edge coloured, to be placed so that
    touching edges match and the grey edges (colour 0) make the outer border.
    A random tiling is made first (colours ``1..border`` between two border
    pieces, the next ``inner`` elsewhere) and its pieces shuffled; an option
    is a piece, turned, at a cell whose outer sides are its grey ones."""
    import random

    rng = random.Random(seed)

    def colour(cells: tuple[tuple[int, int], tuple[int, int]]) -> int:
        on_border = all(r in (0, n - 1) or c in (0, n - 1) for r, c in cells)
        return 1 + rng.randrange(border) if on_border else 1 + border + rng.randrange(inner)

    # across[r][c]: the edge left of cell (r, c) (c = n: right of the last);
    # down[r][c]: the edge above it.  The outer ones stay grey.
    across = [[0] * (n + 1) for _ in range(n)]
    down = [[0] * n for _ in range(n + 1)]
    for r in range(n):
        for c in range(1, n):
            across[r][c] = colour(((r, c - 1), (r, c)))
    for r in range(1, n):
        for c in range(n):
            down[r][c] = colour(((r - 1, c), (r, c)))
    # A piece: its (top, right, bottom, left) colours.
    pieces = [
        (down[r][c], across[r][c + 1], down[r + 1][c], across[r][c])
        for r in range(n)
        for c in range(n)
    ]
    rng.shuffle(pieces)

    def cell(r: int, c: int) -> str:
        return encode(r) + encode(c)

    options = []
    for k, piece in enumerate(pieces):
        seen = set()
        for turn in range(4):
            top, right, bottom, left = piece[turn:] + piece[:turn]
            for r in range(n):
                for c in range(n):
                    sides = (top, right, bottom, left)
                    outer = (r == 0, c == n - 1, r == n - 1, c == 0)
                    if any((side == 0) != edge for side, edge in zip(sides, outer, strict=True)):
                        continue
                    option = [f"p{k}", cell(r, c)]
                    if c < n - 1:
                        option.append(f"h{cell(r, c)}:{encode(right)}")
                    if c > 0:
                        option.append(f"h{cell(r, c - 1)}:{encode(left)}")
                    if r < n - 1:
                        option.append(f"v{cell(r, c)}:{encode(bottom)}")
                    if r > 0:
                        option.append(f"v{cell(r - 1, c)}:{encode(top)}")
                    if tuple(option) not in seen:  # a symmetric piece turned onto itself
                        seen.add(tuple(option))
                        options.append(option)
    cells = [cell(r, c) for r in range(n) for c in range(n)]
    edges = [f"h{cell(r, c)}" for r in range(n) for c in range(n - 1)]
    edges += [f"v{cell(r, c)}" for r in range(n - 1) for c in range(n)]
    comment = f"edge matching {n}x{n}: {border}+{inner} colours, seed {seed}"
    names = [f"p{k}" for k in range(len(pieces))]
    return write_dlx(out / f"edge_matching_{n}x{n}.dlx", [*cells, *names], edges, options, comment)


def read_puzzles(path: Path = TOP1465, count: int = SUDOKU_COUNT) -> list[str]:
    lines = [ln.strip() for ln in path.read_text().splitlines()]
    puzzles = [ln for ln in lines if ln and not ln.startswith("#")]
    if len(puzzles) < count:
        raise SystemExit(f"{path} has {len(puzzles)} puzzles, {count} wanted")
    return puzzles[:count]


def sudokus(out: Path, count: int = SUDOKU_COUNT) -> int:
    folder = out / "sudoku"
    folder.mkdir(parents=True, exist_ok=True)
    for k, puzzle in enumerate(read_puzzles(count=count)):
        items, options = sudoku_dlx(puzzle)
        write_dlx(
            folder / f"top1465_{k:04d}.dlx", items, [], options, f"top1465 #{k + 1}: {puzzle}"
        )
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="folder for the .dlx files (made if missing)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"pentominoes_6x10.dlx: {pentominoes(args.out)} options")
    for n in (11, 12, 13, 14):
        print(f"langford_{n}.dlx: {langford(args.out, n)} options")
    print(f"queens_13.dlx: {queens(args.out, 13)} options")
    for n in QUEENS2:
        print(f"queens2_{n}.dlx: {queens2(args.out, n)} options")
    for height, width in PENTOMINO_BOXES:
        written = pentominoes_any(args.out, height, width)
        print(f"pentominoes_any_{height}x{width}.dlx: {written} options")
    print(f"edge_matching_8x8.dlx: {edge_matching(args.out)} options")
    print(f"sudoku/: {sudokus(args.out)} puzzles")


if __name__ == "__main__":
    main()
