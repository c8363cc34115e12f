"""``solvers queens``: N-Queens.  Owns the command's options and its run:
count (the default, or --unique), --find one (constructed in O(N), or by a
search), --list the first, or --animate the search."""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence

from ..cli import _options as opt
from . import (
    COUNT_METHODS,
    FIND_METHODS,
    MAX_CONSTRUCT_N,
    MAX_JOIN_N,
    MAX_SEARCH_N,
    animation,
    count_queens,
    find_queens,
    queens,
)

#: ``solvers queens N --find`` draws the board up to this N, and prints the
#: columns on one line above it (a wider board does not fit a terminal).
MAX_BOARD_TEXT = 32

HELP = "N-Queens: count (default), --find one, or --list them"

DESCRIPTION = textwrap.fill(
    "Placements of N non-attacking queens on an N x N board. A placement "
    "is the column of the queen in each row, 0-based, row 0 at the top. Counting and "
    f"listing take N up to {MAX_SEARCH_N}; --find constructs placements for N "
    f"up to {MAX_CONSTRUCT_N} (--method search: up to {MAX_SEARCH_N}).",
    78,
)


#: The examples of ``solvers queens --help`` (and of ``solvers --help``).
EXAMPLES = """\
    solvers queens 8                  # 92 ways to place 8 non-attacking queens
    solvers queens 12 --unique        # 1787 up to rotations and reflections
    solvers queens 8 --list 3         # the first placements, columns row by row
    solvers queens 8 --find           # one placement, printed as a board
    solvers queens 1000000 --find --json   # a million queens, constructed in O(n)
    solvers queens 8 --animate        # watch the queens slide along their rows
    solvers queens 14 --workers 2 --checkpoint q14   # resumable, in 2 processes
"""


def add_options(board: argparse.ArgumentParser) -> None:
    board.add_argument("n", type=int, help="number of queens and size of the board")
    board.add_argument(
        "--unique", action="store_true", help="one per class of the 8 rotations and reflections"
    )
    opt.add_threads(board)
    mode = board.add_mutually_exclusive_group()
    mode.add_argument(
        "--find",
        action="store_true",
        help=f"find one placement; printed as a board up to N={MAX_BOARD_TEXT}, "
        "as its columns on one line above",
    )
    mode.add_argument("--list", type=int, metavar="K", help="print the first K placements")
    opt.add_method(
        board,
        (*COUNT_METHODS, *FIND_METHODS),
        "counting: auto (default), join (quarter-board join, N <= "
        f"{MAX_JOIN_N}) or frames (backtracking); with --find: construct "
        "(default, O(N)) or search (parallel backtracking)",
    )
    opt.add_deterministic(board, "with --find --method search: the first placement in --list order")
    opt.add_svg(board, "with --find: save the placement as SVG")
    opt.add_output(board)
    opt.add_distribution(board)
    opt.add_animate(
        board,
        "the queens sliding along their rows, until the first placement "
        f"(N up to {animation.MAX_QUEENS})",
    )


def run(args: argparse.Namespace) -> int:
    if opt.animating(args, *opt.SEARCH_OPTIONS, "--unique", "--deterministic"):
        animation.animate_queens(args.n, delay=opt.delay(args))
        return 0
    if args.find:
        opt.refuse("--find", opt.given(args, "--unique", "--progress"))
        if args.method is not None and args.method not in FIND_METHODS:
            raise opt.UsageError(f"--find takes --method {' or '.join(FIND_METHODS)}")
        if args.deterministic and args.method != "search":
            raise opt.UsageError("--deterministic needs --method search")
        return _find(args)
    mode = "counting" if args.list is None else "--list"
    opt.refuse(mode, opt.given(args, "--deterministic", "--svg"))
    if args.list is not None:
        opt.refuse(mode, opt.given(args, "--method"))
        opt.refuse(mode, opt.given(args, "--threads", "--progress", "--timeout"))
        opt.print_list(
            args,
            "placements",
            lambda: queens(args.n, unique=args.unique),
            "solutions",
            line=lambda placement: " ".join(map(str, placement)),
            value=list,
        )
        return 0
    if args.method is not None and args.method not in COUNT_METHODS:
        raise opt.UsageError(f"counting takes --method {', '.join(COUNT_METHODS)}")
    with opt.run_options(args) as run:
        count = count_queens(args.n, unique=args.unique, method=args.method or "auto", options=run)
    opt.answer(args.json, {"count": count}, count)
    return 0


def _find(args: argparse.Namespace) -> int:
    opt.check_writable(args, "--svg")
    placement = find_queens(
        args.n,
        method=args.method or "construct",
        deterministic=args.deterministic,
        threads=args.threads,
        timeout=args.timeout,
    )
    opt.save(args, placement, "--svg")
    if placement is None:
        opt.answer(args.json, {"placement": None}, "no solution")
    elif args.json:
        # the same text as json.dumps, without a list of up to 2**30 Python ints
        sys.stdout.write('{"placement": [')
        _write_columns(placement, ", ")
        print("]}")
    elif len(placement) <= MAX_BOARD_TEXT:
        print(placement)
    else:
        _write_columns(placement, " ")
        print()
    return 0


def _write_columns(placement: Sequence[int], sep: str, chunk: int = 1 << 16) -> None:
    """Write the columns to stdout, ``sep`` between them, a slice at a time."""
    for start in range(0, len(placement), chunk):
        if start:
            sys.stdout.write(sep)
        sys.stdout.write(sep.join(map(str, placement[start : start + chunk])))
