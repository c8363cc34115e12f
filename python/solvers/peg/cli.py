"""``solvers peg``: peg solitaire on a named board or one drawn in a file.
Owns the command's options, the board names it knows (``PEG_BOARDS``), and
its run: count games (the default), --finish-table, --every-game (won or
stuck), --find one, or --animate its replay."""

from __future__ import annotations

import argparse
import json
import os
import textwrap

from .. import peg as solitaire
from .._engine._validate import shown
from ..cli import _options as opt
from . import animation
from .board import PegBoard
from .count import COUNT_METHODS
from .games import count_peg_games

#: Board names ``solvers peg`` knows, with how to build each.
PEG_BOARDS = {
    "english": "the 33-hole cross (centre 3,3)",
    "french": "the 37-hole European board (centre 3,3)",
    "wiegleb": "the 45-hole cross on 9x9 (centre 4,4)",
    "diamond:N": "the diamond of 2N^2-2N+1 holes (diamond:5 has 41)",
    "triangle:N": "the triangle of N rows (triangle:5 has 15 holes)",
    "rectangle:RxC": "a full R x C rectangle",
}

HELP = "peg solitaire: count games (default), --finish-table, --every-game, or --find one"

_ABOUT = (
    "Peg solitaire: the board starts full but for the --start hole; a peg jumps over a "
    "neighbour into an empty hole, which removes the peg jumped over. A game ends with "
    "one peg, on --finish (default: the start hole) or, with --any, anywhere. Holes are "
    "ROW,COL, 0-based, row 0 at the top."
)
_DRAWING = (
    "or a file drawing the board: o a hole with a peg, . an empty hole, space or # no "
    "hole; a drawing with one empty hole starts there."
)
_NAMES = "\n".join(f"  {name:15} {what}" for name, what in PEG_BOARDS.items())

DESCRIPTION = (
    f"{textwrap.fill(_ABOUT, 78)}\n\nBOARD is a name:\n{_NAMES}\n{textwrap.fill(_DRAWING, 78)}"
)


#: The examples of ``solvers peg --help`` (and of ``solvers --help``).
EXAMPLES = """\
    solvers peg english               # 40861647040079968 games from the centre to the centre
    solvers peg triangle:5 --start 0,0 --any        # last peg anywhere: 29760
    solvers peg triangle:5 --start 0,0 --finish-table  # by last hole
    solvers peg english --find --svg game.svg --html game.html
    solvers peg examples/peg.txt      # a drawn board; its one '.' is the start
    solvers peg english --find --animate           # replay a game jump by jump
    solvers peg triangle:6 --start 0,0 --any --workers 2   # in 2 processes
"""


def add_options(game: argparse.ArgumentParser) -> None:
    game.add_argument("board", metavar="BOARD", help="a board name or a file (see above)")
    game.add_argument(
        "--triangle", action="store_true", help="the BOARD file is drawn on the triangular grid"
    )
    game.add_argument(
        "--start", type=opt.square, default=None, help="ROW,COL of the empty hole (default: centre)"
    )
    ends = game.add_mutually_exclusive_group()
    ends.add_argument("--finish", type=opt.square, default=None, help="ROW,COL of the last peg")
    ends.add_argument("--any", action="store_true", help="the last peg may be anywhere")
    ends.add_argument(
        "--finish-table", action="store_true", help="the count for every hole of the last peg"
    )
    ends.add_argument(
        "--every-game",
        action="store_true",
        help="count every game, won or stuck, by the pegs left at the end",
    )
    game.add_argument("--find", action="store_true", help="find one game and print its jumps")
    game.add_argument("--svg", metavar="FILE", help="with --find: save the game as an SVG strip")
    game.add_argument(
        "--html", metavar="FILE", help="with --find: save a web page stepping through the game"
    )
    game.add_argument(
        "--method",
        choices=COUNT_METHODS,
        default=None,
        help="counting: meet in the middle, or go forward to the end; auto (the default) meets",
    )
    opt.add_threads(game)
    opt.add_output(game)
    opt.add_animate(game, "find a game (as --find does), then replay it jump by jump")
    opt.add_distribution(game)


def run(args: argparse.Namespace) -> int:
    if args.checkpoint is not None and (args.finish_table or args.workers or args.executor):
        raise opt.UsageError(
            "--checkpoint saves the layers of a count in this process: not with "
            "--finish-table, --workers or --executor"
        )
    board, drawn = _board(args)
    start = _start(board, args, drawn)
    if args.finish == "all":
        raise opt.UsageError("--finish takes one ROW,COL (use --any for any hole)")
    finish: solitaire.Finish = (
        None if args.any else ("start" if args.finish is None else args.finish)
    )
    if opt.animating(args, "--json") or args.find:
        opt.refuse("--find", opt.given(args, "--finish-table", "--every-game", "--progress"))
        # Not given(): `--threads 0` has always been let through here, unlike in
        # tours and queens (the finder takes no threads, so it is never checked).
        opt.refuse("--find", {"--method": args.method is not None, "--threads": bool(args.threads)})
        return _find(board, start, finish, args)
    opt.refuse("counting", opt.given(args, "--svg", "--html"))
    here = [start[0], start[1]]
    if args.every_game:
        opt.refuse("--every-game", opt.given(args, "--method"))
        return _every_game(board, start, args)
    if args.finish_table:
        opt.refuse("--finish-table", opt.given(args, "--method"))
        with opt.run_options(args) as run:
            table = solitaire.finish_counts(board, start=start, options=run)
        total = sum(table.values())
        if args.json:
            rows = [[[r, c], n] for (r, c), n in table.items()]
            print(json.dumps({"start": here, "finish_counts": rows, "total": total}))
        else:
            width = max(len(str(total)), 5)
            print(f"{'finish':8} {'games':>{width}}")
            for (r, c), n in table.items():
                print(f"{f'{r},{c}':8} {n:>{width}}")
            print(f"{'total':8} {total:>{width}}")
        return 0
    with opt.run_options(args) as run:
        count = solitaire.count_peg_solutions(
            board, start=start, finish=finish, method=args.method or "auto", options=run
        )
    last = None if args.any else here if args.finish is None else list(args.finish)
    opt.answer(args.json, {"start": here, "finish": last, "count": count}, count)
    return 0


def _every_game(board: PegBoard, start: tuple[int, int], args: argparse.Namespace) -> int:
    """Every game from ``start``: the table of games by pegs left, the
    shortest game that gets stuck, and the distinct positions by layer."""
    with opt.run_options(args) as run:
        games = count_peg_games(board, start=start, options=run)
    if args.json:
        example = games.stuck_example
        print(
            json.dumps(
                {
                    "start": list(start),
                    "total": games.total,
                    "dead_end_table": [[pegs, n] for pegs, n in games.dead_end_table.items()],
                    "wins": [[[r, c], n] for (r, c), n in games.wins.items() if n],
                    "shortest_stuck": games.shortest_stuck,
                    "positions": list(games.positions),
                    "stuck_example": None
                    if example is None
                    else [[list(hole) for hole in jump] for jump in example],
                }
            )
        )
        return 0
    width = max(len(f"{games.total:,}"), 5)
    print(f"{'pegs left':>9} {'games':>{width}}")
    for pegs, n in games.dead_end_table.items():
        print(f"{pegs:>9} {n:>{width},}")
    print(f"{'total':>9} {games.total:>{width},}")
    if games.shortest_stuck is not None:
        print(f"shortest game that gets stuck: {games.shortest_stuck} jumps")
    # The positions by layer: up to the symmetries that fix the start.
    wide = max(len(f"{games.positions_total:,}"), 9)
    print(f"\n{'jumps':>5} {'pegs':>4} {'positions':>{wide}}  (distinct, up to symmetry)")
    for jumps, n in enumerate(games.positions):
        print(f"{jumps:>5} {len(board) - 1 - jumps:>4} {n:>{wide},}")
    print(f"{'total':>10} {games.positions_total:>{wide},}")
    return 0


def _find(
    board: PegBoard, start: tuple[int, int], finish: solitaire.Finish, args: argparse.Namespace
) -> int:
    opt.check_writable(args, "--svg", "--html")
    game = solitaire.find_peg_solution(board, start=start, finish=finish, timeout=args.timeout)
    opt.save(args, game, "--svg", "--html")
    if args.json:
        jumps = None if game is None else [[list(hole) for hole in jump] for jump in game]
        print(json.dumps({"jumps": jumps}))
    elif game is None:
        print("no solution")
    elif args.animate:
        animation.peg_replay(game, delay=opt.delay(args))
    else:
        print(board.draw(empty=[game.start]))
        print(game)
        print(f"last peg on {game.finish[0]},{game.finish[1]}")
    return 0


def _board(args: argparse.Namespace) -> tuple[PegBoard, tuple[int, int] | None]:
    """The board named or drawn by BOARD, and the start hole a drawing gives."""
    name, _, size = args.board.partition(":")
    builders = {"diamond": PegBoard.diamond, "triangle": PegBoard.triangle}
    named = (not size and name in ("english", "french", "wiegleb")) or bool(
        size and name in (*builders, "rectangle")
    )
    if named and args.triangle:
        raise opt.UsageError(
            f"--triangle does not apply to the named board {args.board!r}: it says a BOARD "
            "file is drawn on the triangular grid (triangle:N names a triangle)"
        )
    if not size and name in ("english", "french", "wiegleb"):
        return getattr(PegBoard, name)(), None
    if size and name in builders:
        if not opt.digits(size):
            raise opt.UsageError(f"{name}:N needs a whole number N (digits 0-9), got {shown(size)}")
        return builders[name](int(size)), None
    if size and name == "rectangle":
        rows, x, cols = size.partition("x")
        if not (opt.digits(rows) and x and opt.digits(cols)):
            raise opt.UsageError(
                f"rectangle:RxC needs two whole numbers (digits 0-9), like 3x5; got {shown(size)}"
            )
        return PegBoard.rectangle(int(rows), int(cols)), None
    if not os.path.exists(args.board):
        raise opt.UsageError(
            f"{args.board!r} is neither a board name ({', '.join(PEG_BOARDS)}) nor a file"
        )
    text = opt.read_text(args.board, args.board)
    try:
        board, empty = PegBoard.parse_position(text, triangle=args.triangle)
    except ValueError as error:
        raise opt.UsageError(f"{args.board}: {error}") from None
    if len(empty) > 1:
        raise opt.UsageError(
            f"{args.board} draws {len(empty)} empty holes; a game starts with one "
            "(draw the others as o, and the start as .)"
        )
    return board, next(iter(empty), None)


def _start(
    board: PegBoard, args: argparse.Namespace, drawn: tuple[int, int] | None
) -> tuple[int, int]:
    """The empty hole a game starts from: --start, the drawing's, or the centre."""
    if args.start is not None:
        if args.start == "all":
            raise opt.UsageError("--start takes one ROW,COL for peg solitaire")
        given_start: tuple[int, int] = args.start
        return given_start
    if drawn is not None:
        return drawn
    if board.center is None:
        raise opt.UsageError("this board has no centre hole: give --start ROW,COL")
    return board.center
