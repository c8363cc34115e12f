"""``solvers tours``: knight's tours on a board of ROWS x COLS or drawn in a
file.  Owns the command's options and its run: count (the default), --find
one, --list the first, or --animate the search."""

from __future__ import annotations

import argparse
import textwrap
from typing import Any

from .. import knights
from ..cli import _options as opt
from . import animation

HELP = "knight's tours: count (default), --find one, or --list them"

DESCRIPTION = textwrap.fill(
    "Knight's tours on a ROWS x COLS board (or a --board drawing). "
    "Squares are ROW,COL, 0-based, row 0 at the top; the default start is "
    "the lower-left corner.",
    78,
)


#: The examples of ``solvers tours --help`` (and of ``solvers --help``).
EXAMPLES = """\
    solvers tours 4 7                 # 1682 open tours from the lower-left corner
    solvers tours 6 6 --start all     # from every square
    solvers tours 8 8 --find          # one tour, printed as a numbered board
    solvers tours 3 4 --list 2        # the first tours in the search order
    solvers tours 8 8 --find --svg tour.svg    # the tour saved as a picture
    solvers tours --board examples/holes.txt --start 0,0  # 16, on a drawn board
    solvers tours 3 100 --start all   # a 53-digit count, by the frontier DP, at once
    solvers tours 3 4 --animate       # watch the knight step forward and back up
    solvers tours 4 4 --animate --delay 0.01   # no tour: the search runs dry
    solvers tours 5 6 --method pairs --workers 2 --checkpoint t56  # resumable
    solvers tours 6 12 --row --closed # 6x1 to 6x12 in one sweep: a table
"""


def add_options(tours: argparse.ArgumentParser) -> None:
    tours.add_argument("rows", type=int, nargs="?", help="number of rows")
    tours.add_argument("cols", type=int, nargs="?", help="number of columns")
    tours.add_argument(
        "--board", metavar="FILE", help="a board drawn in text: '.' square, '#' missing"
    )
    tours.add_argument(
        "--start", type=opt.square, default=None, help="ROW,COL, or 'all' to sum over every square"
    )
    tours.add_argument(
        "--end", type=opt.square, default=None, help="ROW,COL: only tours that end there"
    )
    tours.add_argument("--closed", action="store_true", help="only closed (re-entrant) tours")
    opt.add_method(
        tours,
        knights.COUNT_METHODS,
        "counting: backtracking search, the frontier DP (long boards, 7x7, 8x8 closed), "
        "the frontier once per pair of ends up to symmetry (open tours; splits for --executor "
        "and --checkpoint), or the faster for the board (auto, the default); the count "
        "is the same",
    )
    opt.add_threads(tours)
    mode = tours.add_mutually_exclusive_group()
    mode.add_argument("--find", action="store_true", help="find one tour fast and print it")
    mode.add_argument("--list", type=int, metavar="N", help="print the first N tours")
    mode.add_argument(
        "--row",
        action="store_true",
        help="count every board ROWS x 1 ... ROWS x COLS in one sweep (over every start) "
        "and print the table",
    )
    opt.add_svg(tours, "with --find: save the tour as SVG, and print nothing else (but --json)")
    opt.add_output(tours)
    opt.add_distribution(tours)
    opt.add_animate(
        tours,
        "the knight stepping forward and backing up, until the first tour "
        f"(boards of up to {animation.MAX_TOUR_CELLS} squares, {animation.MAX_TOUR_SIDE} a side)",
    )


def run(args: argparse.Namespace) -> int:
    if args.end is not None:
        if args.end == "all":
            raise opt.UsageError("--end takes one ROW,COL")
        opt.refuse("--end", opt.given(args, "--find", "--list", "--animate"))
    if opt.animating(args, *opt.SEARCH_OPTIONS):
        board = _board(args)
        if args.start == "all":
            raise opt.UsageError("--start all does not apply to --animate: give one square ROW,COL")
        animation.animate_tours(**board, closed=args.closed, delay=opt.delay(args))
        return 0
    board = _board(args)
    if args.find:
        opt.refuse("--find", opt.given(args, "--method"))
        opt.check_writable(args, "--svg")
        tour = knights.find_tour(
            **board, closed=args.closed, threads=args.threads, timeout=args.timeout
        )
        opt.save(args, tour, "--svg")
        if args.svg is not None and tour is not None and not args.json:
            return 0  # the picture is the answer: no board of numbers beside it
        opt.print_found(args, tour, "tour", _squares, "no tour")
        return 0
    opt.refuse("--list" if args.list is not None else "counting", opt.given(args, "--svg"))
    if args.row:
        return _row(args, board)
    if args.list is not None:
        opt.refuse("--list", opt.given(args, "--method"))
        opt.print_list(
            args,
            "tours",
            lambda: knights.tours(**board, closed=args.closed),
            "tours",
            line=lambda tour: " ".join(f"({r},{c})" for r, c in tour),
            value=_squares,
        )
        return 0
    with opt.run_options(args) as run:
        count = knights.count_tours(
            **board, closed=args.closed, end=args.end, method=args.method or "auto", options=run
        )
    opt.answer(args.json, {"count": count}, count)
    return 0


def _row(args: argparse.Namespace, board: dict[str, Any]) -> int:
    """``--row``: the table of ``count_tours_row``, a line a board."""
    opt.refuse("--row", opt.given(args, "--board", "--end", "--method"))
    if board.get("start", "all") != "all":
        raise opt.UsageError("--row counts from every square: --start all, or no --start")
    with opt.run_options(args) as run:
        row = knights.count_tours_row(args.rows, args.cols, closed=args.closed, options=run)
    counts = {str(cols): count for cols, count in row.items()}
    lines = [f"{'cols':>4}  tours", *(f"{cols:>4}  {count}" for cols, count in row.items())]
    opt.answer(
        args.json, {"rows": args.rows, "closed": args.closed, "counts": counts}, "\n".join(lines)
    )
    return 0


def _squares(tour: knights.Tour) -> list[list[int]]:
    """A tour in JSON: its squares, ``[row, col]`` each."""
    return [list(square) for square in tour]


def _board(args: argparse.Namespace) -> dict[str, Any]:
    """The board (``rows``, ``cols``, a ``board`` drawing) and the ``start``
    the arguments give, as keyword arguments of the knights functions."""
    start = {} if args.start is None else {"start": args.start}
    if args.board is not None:
        text = opt.read_text(args.board, f"--board {args.board}")
        return {"rows": args.rows, "cols": args.cols, "board": text, **start}
    if args.rows is None or args.cols is None:
        raise opt.UsageError("give ROWS and COLS, or --board FILE")
    return {"rows": args.rows, "cols": args.cols, **start}
