"""``solvers sudoku``: a Sudoku of any box shape, solved through exact cover.
Owns the command's options and its run: solve (the default, the first
solution drawn), --count the solutions, --unique (is there exactly one?),
or --list the first K."""

from __future__ import annotations

import argparse
import os
import re
import sys
import textwrap
from itertools import islice
from typing import Any

from ..cli import _options as opt
from .pictures import SYMBOLS, symbol
from .sudoku import Sudoku
from .sudoku_reading import BLANKS, DECORATION

HELP = "Sudoku of any box shape: solve (default), --count, --unique, or --list them"

DESCRIPTION = textwrap.fill(
    "A Sudoku, solved as exact cover. PUZZLE is the grid in reading order, as an argument "
    "or a file (- reads stdin): digits 1-9 then letters A-Z, . or 0 for a blank; spaces, "
    "line breaks and | + - are ignored, so the grid may be drawn. The side is the square "
    "root of the number of cells; --box RxC gives the boxes' shape (default: the most "
    "nearly square, 2x3 for a 6x6 grid).",
    78,
)

#: The examples of ``solvers sudoku --help`` (and of ``solvers --help``).
EXAMPLES = """\
    solvers sudoku 123.........4..1          # the 4x4 grid, solved
    solvers sudoku examples/sudoku.txt --unique  # unique? (stops at the 2nd)
    solvers sudoku ................ --count  # 288 grids of 4x4
    solvers sudoku 1...........2... --list 3 # its first 3 solutions
    solvers sudoku examples/sudoku.txt --svg solved.svg
    solvers sudoku ................ --diagonals --count  # 48 X-Sudokus, 4x4
    solvers sudoku ................ --extra "0,0 3,3" --count
"""


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "puzzle", metavar="PUZZLE", help="the grid, or a file holding it (see above)"
    )
    parser.add_argument("--box", metavar="RxC", help="the boxes: R rows high, C columns wide")
    parser.add_argument(
        "--regions",
        metavar="FILE",
        help="jigsaw regions in place of the boxes: a file drawing the grid, one character a "
        "cell, the same for one region",
    )
    parser.add_argument(
        "--diagonals", action="store_true", help="X-Sudoku: both diagonals hold every digit once"
    )
    parser.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="CELLS",
        help="a region whose cells hold each digit at most once, as R,C R,C ... (may repeat)",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--count", action="store_true", help="count the solutions")
    mode.add_argument(
        "--unique", action="store_true", help="whether the solution is unique (stops at the second)"
    )
    mode.add_argument(
        "--list", type=int, metavar="K", help="print the first K solutions, one a line"
    )
    opt.add_svg(parser, "save the solution as SVG")
    opt.add_threads(parser)
    opt.add_output(parser)


def _puzzle(args: argparse.Namespace) -> Sudoku:
    given = args.puzzle
    if given == "-":
        text = sys.stdin.read()
    elif os.path.isdir(given):
        raise opt.UsageError(
            f"cannot read PUZZLE {given}: it is a directory (give the grid, or a file holding it)"
        )
    elif os.path.isfile(given):
        text = opt.read_text(given, f"PUZZLE {given}")
    else:
        try:
            return Sudoku(given, box=args.box, **_variant(args))
        except ValueError as error:
            if _names_a_file(given):
                raise opt.UsageError(
                    f"cannot read PUZZLE {given}: no such file (and as a grid: {error})"
                ) from None
            raise
    return Sudoku(text, box=args.box, **_variant(args))


def _variant(args: argparse.Namespace) -> dict[str, Any]:
    """The variant's keywords of ``Sudoku`` from --regions, --diagonals, --extra."""
    variant: dict[str, Any] = {"diagonals": args.diagonals}
    if args.regions is not None:
        variant["regions"] = opt.read_text(args.regions, f"--regions {args.regions}")
    regions = []
    for given in args.extra:
        try:
            regions.append([tuple(int(x) for x in cell.split(",")) for cell in given.split()])
        except ValueError:
            raise opt.UsageError(
                f"--extra takes cells as R,C with spaces between (like '0,0 1,1'), got {given!r}"
            ) from None
    if regions:
        variant["extra"] = regions
    return variant


def _names_a_file(text: str) -> bool:
    """Whether ``text``, which is not a grid, looks like a file's path: a
    folder in it, or an extension (a dot, then a letter and what may follow
    one in a name), or a character no grid holds.

    >>> _names_a_file("missing.txt"), _names_a_file("dir/puzzle"), _names_a_file("12.4")
    (True, True, False)
    """
    if "/" in text or os.sep in text:
        return True
    if re.search(r"\.[A-Za-z][A-Za-z0-9_-]*$", text) and any(ch.islower() for ch in text):
        return True
    allowed = set(SYMBOLS + SYMBOLS.lower() + BLANKS + DECORATION)
    return any(not ch.isspace() and ch not in allowed for ch in text)


def run(args: argparse.Namespace) -> int:
    puzzle = _puzzle(args)
    if args.count:
        opt.refuse("--count", opt.given(args, "--svg"))
        count = puzzle.count(threads=args.threads, progress=args.progress, timeout=args.timeout)
        opt.answer(args.json, {"count": count}, count)
        return 0
    opt.refuse("solving", opt.given(args, "--progress"))
    if args.unique:
        opt.refuse("--unique", opt.given(args, "--svg", "--threads"))
        found = len(list(islice(puzzle.solutions(threads=1, timeout=args.timeout), 2)))
        text = ("no solution", "unique", "not unique (2 solutions or more)")[found]
        opt.answer(args.json, {"unique": found == 1, "solutions_seen": found}, text)
        return 0
    if args.list is not None:
        opt.refuse("--list", opt.given(args, "--svg"))
        opt.print_solutions(args, "solutions", puzzle.solutions, line=_line, value=_grid)
        return 0
    opt.check_writable(args, "--svg")
    solved = puzzle.solve(timeout=args.timeout)
    opt.save(args, solved, "--svg")
    opt.print_found(args, solved, "solution", _grid, "no solution")
    return 0


def _grid(solved: Sudoku) -> list[list[int]]:
    """A solution in JSON: its rows of digits."""
    return [list(row) for row in solved.grid]


def _line(solved: Sudoku) -> str:
    """A solution on one line: its cells in reading order (with spaces
    between them past a side of 35, where digits are numbers)."""
    side = solved.side
    sep = "" if side <= len(SYMBOLS) else " "
    return sep.join(symbol(d, side) for row in solved.grid for d in row)
