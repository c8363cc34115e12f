"""``solvers tiling``: tilings of a board by polyominoes, through exact cover.
Owns the command's options and its run: count (the default), --find one
(drawn as letters, or saved as SVG), or --list the first K."""

from __future__ import annotations

import argparse
import functools
import re
import sys
import textwrap

from ..cli import _options as opt
from .pieces import PIECE_SETS, TURNS, Piece, piece_set
from .tiling import EACH, Tiling, TilingPuzzle

HELP = "polyomino tilings of a board: count (default), --find one, or --list them"

DESCRIPTION = textwrap.fill(
    "Tilings of a board by polyominoes, counted as exact covers. BOARD is RxC for a "
    "rectangle, or a file drawing the board (- reads stdin): . a cell to cover, # or a "
    "space none. The pieces are a set (--pieces, default pentominoes) and/or pieces of "
    "your own (--piece NAME=DRAWING, rows separated by /, # a cell: --piece L=##/#.). "
    "--each once uses every piece exactly once, --each any any number of times.",
    78,
)

#: The examples of ``solvers tiling --help`` (and of ``solvers --help``).
EXAMPLES = """\
    solvers tiling 3x20               # 8: the pentominoes in a 3 x 20 box
    solvers tiling 6x10 --find        # one pentomino tiling, drawn in letters
    solvers tiling 6x10 --unique      # 2339: up to the box's symmetries
    solvers tiling 6x10 --find --deterministic --svg box.svg
    solvers tiling 8x8 --pieces domino --each any --method memo   # 12988816
    solvers tiling examples/frame.txt --pieces tetrominoes --each any --list 5
    solvers tiling 2x3 --piece L=##/#. --each any --find --svg tiling.svg
"""


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", metavar="BOARD", help="RxC, or a file drawing the board")
    parser.add_argument(
        "--pieces",
        choices=PIECE_SETS,
        default=None,
        metavar="SET",
        help=f"a set of pieces: {', '.join(PIECE_SETS)} (default: pentominoes, "
        "unless --piece is given)",
    )
    parser.add_argument(
        "--piece",
        action="append",
        default=[],
        metavar="NAME=DRAWING",
        help="a piece of your own (rows separated by /, # a cell, . none); may repeat",
    )
    parser.add_argument(
        "--each", choices=EACH, default="once", help="use each piece once (default) or any number"
    )
    parser.add_argument(
        "--turns",
        choices=TURNS,
        default="free",
        help="free: rotate and flip pieces (default); rotate: no flips; fixed: as drawn",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--count", action="store_true", help="count the tilings (the default)")
    mode.add_argument("--find", action="store_true", help="find one tiling and draw it")
    mode.add_argument("--list", type=int, metavar="K", help="print the first K tilings, one a line")
    parser.add_argument(
        "--unique",
        action="store_true",
        help="count or list the tilings up to the board's symmetries (6x10: 2339)",
    )
    opt.add_method(
        parser,
        ("auto", "search", "memo"),
        "counting: search (backtracking), memo (over the cells left: strips and "
        "rectangles), or auto (default)",
    )
    opt.add_deterministic(
        parser, "with --find: the first tiling in --list order (else the first any thread finds)"
    )
    opt.add_svg(parser, "with --find: save the tiling as SVG")
    opt.add_threads(parser)
    opt.add_output(parser)


_SIZE = re.compile(r"(\d{1,6})[xX](\d{1,6})")


def _puzzle(args: argparse.Namespace) -> TilingPuzzle:
    size = _SIZE.fullmatch(args.board)
    if size:
        board: object = (int(size.group(1)), int(size.group(2)))
    elif args.board == "-":
        board = sys.stdin.read()
    else:
        board = opt.read_text(args.board, f"BOARD {args.board}")
    pieces: list[Piece] = []
    if args.pieces is not None or not args.piece:
        pieces.extend(piece_set(args.pieces or "pentominoes"))
    for given in args.piece:
        name, sign, drawing = given.partition("=")
        if not sign or not name:
            raise opt.UsageError(f"--piece takes NAME=DRAWING (like L=##/#.), got {given!r}")
        pieces.append(Piece.parse(drawing.replace("/", "\n"), name=name))
    try:
        return TilingPuzzle(board, pieces, each=args.each, turns=args.turns)
    except ValueError as error:
        # The puzzle's words are the Python API's: say the options instead.
        raise opt.UsageError(_spelled_as_options(str(error))) from None


def _spelled_as_options(message: str) -> str:
    """``message`` with the keywords of ``TilingPuzzle`` spelled as this
    command's options.

    >>> _spelled_as_options("(give each='any' to use pieces any number of times)")
    '(give --each any to use pieces any number of times)'
    """
    return re.sub(r"\b(each|turns)='(\w+)'", r"--\1 \2", message)


def _line(tiling: Tiling) -> str:
    """A tiling on one line: its rows of letters, separated by /."""
    return "/".join(str(tiling).split("\n"))


def _placed(tiling: Tiling) -> list[list[object]]:
    """A tiling in JSON: ``[name, [[row, col], ...]]`` for each piece placed."""
    return [[name, list(map(list, cells))] for name, cells in tiling.placements]


def run(args: argparse.Namespace) -> int:
    puzzle = _puzzle(args)
    if args.find:
        opt.refuse("--find", opt.given(args, "--method", "--progress", "--unique"))
        opt.check_writable(args, "--svg")
        found = puzzle.find(
            threads=args.threads, deterministic=args.deterministic, timeout=args.timeout
        )
        opt.save(args, found, "--svg")
        opt.print_found(args, found, "tiling", _placed, "no tiling")
        return 0
    mode = "counting" if args.list is None else "--list"
    opt.refuse(mode, opt.given(args, "--svg", "--deterministic"))
    if args.list is not None:
        opt.refuse(mode, opt.given(args, "--method", "--progress"))
        listed = functools.partial(puzzle.solutions, unique=args.unique)
        opt.print_solutions(args, "tilings", listed, line=_line, value=_placed)
        return 0
    count = puzzle.count(
        unique=args.unique,
        method=args.method or "auto",
        threads=args.threads,
        progress=args.progress,
        timeout=args.timeout,
    )
    opt.answer(args.json, {"count": count}, count)
    return 0
