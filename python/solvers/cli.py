"""The ``solvers`` command.

Examples::

    solvers tours 4 7                 # 1682 open tours from the lower-left corner
    solvers tours 6 6 --start all     # from every square
    solvers tours 8 8 --find          # one tour, printed as a numbered board
    solvers tours 3 4 --list 2        # the first tours in the search order
    solvers tours --board holes.txt --start 0,0
    solvers tours 3 100 --start all   # a 53-digit count, by the frontier DP, at once
    solvers tours 7 7 --start all     # 165575218320 (3.5 minutes, 11 GB)
    solvers tours 3 4 --animate       # watch the knight step forward and back up
    solvers tours 4 4 --animate --delay 0.01   # no tour: the search runs dry
    solvers queens 8                  # 92 ways to place 8 non-attacking queens
    solvers queens 12 --unique        # 1787 up to rotations and reflections
    solvers queens 8 --list 3         # the first placements, columns row by row
    solvers queens 8 --find           # one placement, printed as a board
    solvers queens 1000000 --find --json   # a million queens, constructed in O(n)
    solvers queens 8 --animate        # watch the queens slide along their rows
    solvers queens 18 --workers 2 --checkpoint q18.sqlite   # resumable, in 2 processes
    solvers tours 6 7 --executor dask://scheduler:8786      # on a Dask cluster
    solvers peg english               # 40861647040079968 games from the centre to the centre
    solvers peg english --start 2,3 --any          # last peg anywhere
    solvers peg english --start 2,3 --finish-table # the count for every last hole
    solvers peg english --find --svg game.svg --html game.html
    solvers peg board.txt             # a drawn board; its one '.' is the start
    solvers peg triangle:5 --start 0,0 --any
    solvers peg english --find --animate           # replay a game jump by jump
    solvers peg english --start 2,4 --workers 2    # the layers spread over 2 processes
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import json
import os
import sys
import textwrap
from collections.abc import Callable, Generator, Iterator, Sequence
from itertools import islice
from typing import Any

from . import __version__, animate, knights, peg
from .pegboard import PegBoard

__all__ = ["MAX_BOARD_TEXT", "MAX_WORKERS_PER_CORE", "PEG_BOARDS", "main"]
from .nqueens import MAX_CONSTRUCT_N, MAX_SEARCH_N, count_queens, find_queens, queens

#: ``solvers queens N --find`` draws the board up to this N, and prints the
#: columns on one line above it (a wider board does not fit a terminal).
MAX_BOARD_TEXT = 32

#: ``--workers`` starts local processes: more than this many per core only
#: costs memory (each holds its own interpreter and tables).
MAX_WORKERS_PER_CORE = 4


class _UsageError(Exception):
    """Bad options or arguments: exit status 2."""


class _Failure(Exception):
    """The command could not do what was asked (a file not written): exit status 1."""


def _square(text: str) -> tuple[int, int] | str:
    if text == "all":
        return text
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected ROW,COL (like 3,0) or 'all', got {text!r}"
        ) from None
    return row, col


def _examples(command: str) -> str:
    """The examples of ``command`` from this module's docstring, for its --help."""
    lines = [line for line in (__doc__ or "").splitlines() if f"solvers {command} " in line]
    return "examples:\n" + "\n".join(lines)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="solvers",
        description="Count, list and find solutions of backtracking puzzles.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("Examples::", 1)[1] if __doc__ else None,
    )
    parser.add_argument("--version", action="version", version=f"solvers {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    tours = commands.add_parser(
        "tours",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_examples("tours"),
        help="knight's tours: count (default), --find one, or --list them",
        description=textwrap.fill(
            "Knight's tours on a ROWS x COLS board (or a --board drawing). "
            "Squares are ROW,COL, 0-based, row 0 at the top; the default start is "
            "the lower-left corner.",
            78,
        ),
    )
    tours.add_argument("rows", type=int, nargs="?", help="number of rows")
    tours.add_argument("cols", type=int, nargs="?", help="number of columns")
    tours.add_argument(
        "--board", metavar="FILE", help="a board drawn in text: '.' square, '#' missing"
    )
    tours.add_argument(
        "--start", type=_square, default=None, help="ROW,COL, or 'all' to sum over every square"
    )
    tours.add_argument("--closed", action="store_true", help="only closed (re-entrant) tours")
    tours.add_argument(
        "--method",
        choices=("auto", "search", "frontier"),
        default=None,
        help="counting: backtracking search, the frontier DP (long boards, 7x7), or the "
        "faster for the board (auto, the default); the count is the same",
    )
    tours.add_argument("--threads", type=int, default=None, help="worker threads (default: all)")
    mode = tours.add_mutually_exclusive_group()
    mode.add_argument("--find", action="store_true", help="find one tour fast and print it")
    mode.add_argument("--list", type=int, metavar="N", help="print the first N tours")
    tours.add_argument("--svg", metavar="FILE", help="with --find: save the tour as SVG")
    tours.add_argument("--json", action="store_true", help="machine-readable output")
    tours.add_argument("--progress", action="store_true", help="show a progress bar")
    tours.add_argument("--timeout", type=float, default=None, help="give up after SECONDS")
    _distribution_options(tours)
    _animate_options(
        tours,
        "the knight stepping forward and backing up, until the first tour "
        f"(boards of up to {animate.MAX_TOUR_CELLS} squares, {animate.MAX_TOUR_SIDE} a side)",
    )

    board = commands.add_parser(
        "queens",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=_examples("queens"),
        help="N-Queens: count (default), --find one, or --list them",
        description=textwrap.fill(
            "Placements of N non-attacking queens on an N x N board. A placement "
            "is the column of the queen in each row, 0-based, row 0 at the top. Counting and "
            f"listing take N up to {MAX_SEARCH_N}; --find constructs placements for N "
            f"up to {MAX_CONSTRUCT_N} (--method search: up to {MAX_SEARCH_N}).",
            78,
        ),
    )
    board.add_argument("n", type=int, help="number of queens and size of the board")
    board.add_argument(
        "--unique", action="store_true", help="one per class of the 8 rotations and reflections"
    )
    board.add_argument("--threads", type=int, default=None, help="worker threads (default: all)")
    mode = board.add_mutually_exclusive_group()
    mode.add_argument(
        "--find",
        action="store_true",
        help=f"find one placement; printed as a board up to N={MAX_BOARD_TEXT}, "
        "as its columns on one line above",
    )
    mode.add_argument("--list", type=int, metavar="K", help="print the first K placements")
    board.add_argument(
        "--method",
        choices=("construct", "search"),
        default=None,
        help="with --find: construct (default, O(N)) or search (parallel backtracking)",
    )
    board.add_argument(
        "--deterministic",
        action="store_true",
        help="with --find --method search: the first placement in --list order",
    )
    board.add_argument("--svg", metavar="FILE", help="with --find: save the placement as SVG")
    board.add_argument("--json", action="store_true", help="machine-readable output")
    board.add_argument("--progress", action="store_true", help="show a progress bar")
    board.add_argument("--timeout", type=float, default=None, help="give up after SECONDS")
    _distribution_options(board)
    _animate_options(
        board,
        "the queens sliding along their rows, until the first placement "
        f"(N up to {animate.MAX_QUEENS})",
    )
    _add_peg_parser(commands)
    return parser


#: Board names ``solvers peg`` knows, with how to build each.
PEG_BOARDS = {
    "english": "the 33-hole cross (centre 3,3)",
    "french": "the 37-hole European board (centre 3,3)",
    "wiegleb": "the 45-hole cross on 9x9 (centre 4,4)",
    "diamond:N": "the diamond of 2N^2-2N+1 holes (diamond:5 has 41)",
    "triangle:N": "the triangle of N rows (triangle:5 has 15 holes)",
    "rectangle:RxC": "a full R x C rectangle",
}


def _add_peg_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    names = "\n".join(f"  {name:15} {what}" for name, what in PEG_BOARDS.items())
    about = (
        "Peg solitaire: the board starts full but for the --start hole; a peg jumps over a "
        "neighbour into an empty hole, which removes the peg jumped over. A game ends with "
        "one peg, on --finish (default: the start hole) or, with --any, anywhere. Holes are "
        "ROW,COL, 0-based, row 0 at the top."
    )
    drawing = (
        "or a file drawing the board: o a hole with a peg, . an empty hole, space or # no "
        "hole; a drawing with one empty hole starts there."
    )
    game = commands.add_parser(
        "peg",
        help="peg solitaire: count games (default), --finish-table, or --find one",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=f"{textwrap.fill(about, 78)}\n\nBOARD is a name:\n{names}\n"
        f"{textwrap.fill(drawing, 78)}",
        epilog=_examples("peg"),
    )
    game.add_argument("board", metavar="BOARD", help="a board name or a file (see above)")
    game.add_argument(
        "--triangle", action="store_true", help="the BOARD file is drawn on the triangular grid"
    )
    game.add_argument(
        "--start", type=_square, default=None, help="ROW,COL of the empty hole (default: centre)"
    )
    ends = game.add_mutually_exclusive_group()
    ends.add_argument("--finish", type=_square, default=None, help="ROW,COL of the last peg")
    ends.add_argument("--any", action="store_true", help="the last peg may be anywhere")
    ends.add_argument(
        "--finish-table", action="store_true", help="the count for every hole of the last peg"
    )
    game.add_argument("--find", action="store_true", help="find one game and print its jumps")
    game.add_argument("--svg", metavar="FILE", help="with --find: save the game as an SVG strip")
    game.add_argument(
        "--html", metavar="FILE", help="with --find: save a web page stepping through the game"
    )
    game.add_argument(
        "--method",
        choices=("meet", "forward"),
        default=None,
        help="counting: meet in the middle (default) or go forward to the end",
    )
    game.add_argument("--threads", type=int, default=None, help="worker threads (default: all)")
    game.add_argument("--json", action="store_true", help="machine-readable output")
    game.add_argument("--progress", action="store_true", help="show a progress bar")
    game.add_argument("--timeout", type=float, default=None, help="give up after SECONDS")
    _animate_options(game, "find a game (as --find does), then replay it jump by jump")
    _distribution_options(game)


def _board_args(args: argparse.Namespace) -> dict[str, Any]:
    if args.board is not None:
        try:
            with open(args.board, encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            raise _UsageError(f"cannot read --board {args.board}: {error.strerror}") from None
        return {"rows": args.rows, "cols": args.cols, "board": text}
    if args.rows is None or args.cols is None:
        raise _UsageError("give ROWS and COLS, or --board FILE")
    return {"rows": args.rows, "cols": args.cols}


def _run_tours(args: argparse.Namespace) -> int:
    _counting_only(args)
    if _animating(args):
        return _animate_tours(args)
    board = _board_args(args)
    start = {} if args.start is None else {"start": args.start}
    if args.find:
        _refuse("--find", {"--method": args.method is not None})
        _check_writable(("--svg", args.svg))
        tour = knights.find_tour(
            **board, **start, closed=args.closed, threads=args.threads, timeout=args.timeout
        )
        if args.svg and tour is not None:
            _save(args.svg, "--svg", tour.to_svg())
        if args.json:
            print(json.dumps({"tour": None if tour is None else [list(s) for s in tour]}))
        else:
            print("no tour" if tour is None else tour)
        return 0
    _refuse("--list" if args.list is not None else "counting", {"--svg": args.svg is not None})
    if args.list is not None:
        _refuse("--list", {"--method": args.method is not None})
    if args.list is not None:
        if args.list < 0:
            raise _UsageError("--list needs a number of tours of at least 0")
        _print_list(
            knights.tours(**board, **start, closed=args.closed),
            args.list,
            "tours" if args.json else None,
            line=lambda tour: " ".join(f"({r},{c})" for r, c in tour),
            value=lambda tour: [list(s) for s in tour],
        )
        return 0
    with _distributed(args) as where:
        count = knights.count_tours(
            **board,
            **start,
            closed=args.closed,
            threads=args.threads,
            progress=args.progress,
            timeout=args.timeout,
            method=args.method or "auto",
            **where,
        )
    if args.json:
        print(json.dumps({"count": count}))
    else:
        print(count)
    return 0


def _refuse(mode: str, options: dict[str, bool]) -> None:
    """A usage error naming the options given that ``mode`` has no use for."""
    given = [name for name, present in options.items() if present]
    if given:
        verb = "does" if len(given) == 1 else "do"
        raise _UsageError(f"{' and '.join(given)} {verb} not apply to {mode}")


def _run_queens(args: argparse.Namespace) -> int:
    _counting_only(args)
    if _animating(args):
        return _animate_queens(args)
    if args.find:
        _refuse("--find", {"--unique": args.unique, "--progress": args.progress})
        if args.deterministic and args.method != "search":
            raise _UsageError("--deterministic needs --method search")
        return _find_queens(args)
    mode = "counting" if args.list is None else "--list"
    _refuse(
        mode,
        {
            "--method": args.method is not None,
            "--deterministic": args.deterministic,
            "--svg": args.svg is not None,
        },
    )
    if args.list is not None:
        _refuse(
            mode,
            {
                "--threads": args.threads is not None,
                "--progress": args.progress,
                "--timeout": args.timeout is not None,
            },
        )
        return _list_queens(args)
    with _distributed(args) as where:
        count = count_queens(
            args.n,
            unique=args.unique,
            threads=args.threads,
            progress=args.progress,
            timeout=args.timeout,
            **where,
        )
    print(json.dumps({"count": count}) if args.json else count)
    return 0


def _find_queens(args: argparse.Namespace) -> int:
    _check_writable(("--svg", args.svg))
    placement = find_queens(
        args.n,
        method=args.method or "construct",
        deterministic=args.deterministic,
        threads=args.threads,
        timeout=args.timeout,
    )
    if args.svg and placement is not None:
        _save(args.svg, "--svg", placement.to_svg())
    if placement is None:
        print(json.dumps({"placement": None}) if args.json else "no solution")
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


def _list_queens(args: argparse.Namespace) -> int:
    if args.list < 0:
        raise _UsageError("--list needs a number of placements of at least 0")
    _print_list(
        queens(args.n, unique=args.unique),
        args.list,
        "solutions" if args.json else None,
        line=lambda placement: " ".join(map(str, placement)),
        value=list,
    )
    return 0


def _print_list(
    items: Generator[Any, None, None],
    limit: int,
    json_key: str | None,
    *,
    line: Callable[[Any], str],
    value: Callable[[Any], object],
) -> None:
    """Print the first ``limit`` of ``items`` as they come: numbered lines, or
    with ``json_key`` the text of ``json.dumps({json_key: [value(item), ...]})``
    an item at a time.  Memory stays constant however many are asked for, and
    `solvers queens 14 --list 100000 | head` stops early."""
    try:
        first = islice(items, min(limit, sys.maxsize))  # more than sys.maxsize: all
        if json_key is None:
            for number, item in enumerate(first, start=1):
                print(f"{number}: {line(item)}")
            return
        sys.stdout.write(f"{{{json.dumps(json_key)}: [")
        for number, item in enumerate(first):
            sys.stdout.write((", " if number else "") + json.dumps(value(item)))
        print("]}")
    finally:
        items.close()  # stops the search thread when enough are shown, or on Ctrl-C


def _peg_board(args: argparse.Namespace) -> tuple[PegBoard, tuple[int, int] | None]:
    """The board named or drawn by BOARD, and the start hole a drawing gives."""
    name, _, size = args.board.partition(":")
    builders = {"diamond": PegBoard.diamond, "triangle": PegBoard.triangle}
    if not size and name in ("english", "french", "wiegleb"):
        return getattr(PegBoard, name)(), None
    if size and name in builders:
        if not size.isdigit():
            raise _UsageError(f"{name}:N needs a whole number N, got {size!r}")
        return builders[name](int(size)), None
    if size and name == "rectangle":
        rows, x, cols = size.partition("x")
        if not (rows.isdigit() and x and cols.isdigit()):
            raise _UsageError(f"rectangle:RxC needs two whole numbers, like 3x5; got {size!r}")
        return PegBoard.rectangle(int(rows), int(cols)), None
    if not os.path.exists(args.board):
        raise _UsageError(
            f"{args.board!r} is neither a board name ({', '.join(PEG_BOARDS)}) nor a file"
        )
    try:
        with open(args.board, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise _UsageError(f"cannot read {args.board}: {error}") from None
    try:
        board, empty = PegBoard.parse_position(text, triangle=args.triangle)
    except ValueError as error:
        raise _UsageError(f"{args.board}: {error}") from None
    if len(empty) > 1:
        raise _UsageError(
            f"{args.board} draws {len(empty)} empty holes; a game starts with one "
            "(draw the others as o, and the start as .)"
        )
    return board, next(iter(empty), None)


def _peg_start(
    board: PegBoard, args: argparse.Namespace, drawn: tuple[int, int] | None
) -> tuple[int, int]:
    if args.start is not None:
        if args.start == "all":
            raise _UsageError("--start takes one ROW,COL for peg solitaire")
        given: tuple[int, int] = args.start
        return given
    if drawn is not None:
        return drawn
    if board.center is None:
        raise _UsageError("this board has no centre hole: give --start ROW,COL")
    return board.center


def _run_peg(args: argparse.Namespace) -> int:
    _counting_only(args)
    if args.checkpoint is not None and (args.finish_table or args.workers or args.executor):
        raise _UsageError(
            "--checkpoint saves the layers of a count in this process: not with "
            "--finish-table, --workers or --executor"
        )
    board, drawn = _peg_board(args)
    start = _peg_start(board, args, drawn)
    if args.finish == "all":
        raise _UsageError("--finish takes one ROW,COL (use --any for any hole)")
    finish: peg.Finish = None if args.any else ("start" if args.finish is None else args.finish)
    if args.delay is not None and not args.animate:
        raise _UsageError("--delay needs --animate")
    if args.animate:
        _refuse("--animate", {"--json": args.json})
    if args.find or args.animate:
        _refuse("--find", {"--finish-table": args.finish_table, "--progress": args.progress})
        _refuse("--find", {"--method": args.method is not None, "--threads": args.threads})
        return _find_peg(board, start, finish, args)
    _refuse("counting", {"--svg": args.svg is not None, "--html": args.html is not None})
    options = {
        "threads": args.threads,
        "progress": args.progress,
        "timeout": args.timeout,
    }
    here = [start[0], start[1]]
    if args.finish_table:
        _refuse("--finish-table", {"--method": args.method is not None})
        with _distributed(args) as where:
            table = peg.finish_counts(board, start=start, **options, **where)
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
    with _distributed(args) as where:
        count = peg.count_peg_solutions(
            board, start=start, finish=finish, method=args.method or "meet", **options, **where
        )
    if args.json:
        last = None if args.any else here if args.finish is None else list(args.finish)
        print(json.dumps({"start": here, "finish": last, "count": count}))
    else:
        print(count)
    return 0


def _find_peg(
    board: PegBoard, start: tuple[int, int], finish: peg.Finish, args: argparse.Namespace
) -> int:
    _check_writable(("--svg", args.svg), ("--html", args.html))
    game = peg.find_peg_solution(board, start=start, finish=finish, timeout=args.timeout)
    if game is not None:
        for option, path, text in (
            ("--svg", args.svg, game.to_svg),
            ("--html", args.html, game.to_html),
        ):
            if path:
                _save(path, option, text())
    if args.json:
        jumps = None if game is None else [[list(square) for square in jump] for jump in game]
        print(json.dumps({"jumps": jumps}))
    elif game is None:
        print("no solution")
    elif args.animate:
        animate.peg_replay(game, delay=animate.DELAY if args.delay is None else args.delay)
    else:
        print(board.draw(empty=[game.start]))
        print(game)
        print(f"last peg on {game.finish[0]},{game.finish[1]}")
    return 0


_COMMANDS = {"tours": _run_tours, "queens": _run_queens, "peg": _run_peg}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; the exit status: 0 done, 2 a usage error (bad options
    or arguments), 1 a failure (no answer in time, too large a count, no
    memory, a file that cannot be written), 130 Ctrl-C.  Every error is one
    line on stderr, ``solvers: error: ...``, never a traceback."""
    parser = _parser()
    args = parser.parse_args(argv)  # argparse reports its own usage errors (status 2)
    try:
        return _COMMANDS[args.command](args)
    except KeyboardInterrupt:
        print("solvers: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`solvers ... | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (_UsageError, ValueError, TypeError) as error:
        return _fail(2, str(error))
    except BaseException as error:  # noqa: BLE001 - the one place every error is reported
        if isinstance(error, (SystemExit, GeneratorExit)):
            raise
        return _fail(1, _failure(error))


def _fail(status: int, message: str) -> int:
    print(f"solvers: error: {' '.join(message.split())}", file=sys.stderr)
    return status


def _failure(error: BaseException) -> str:
    """The one-line message of an error that is not the user's input."""
    if isinstance(error, MemoryError):
        return str(error) or "out of memory"
    if isinstance(error, OSError) and error.strerror and error.filename is not None:
        return f"{error.filename}: {error.strerror}"
    if isinstance(error, (OverflowError, TimeoutError, RuntimeError, OSError, _Failure)):
        return str(error) or type(error).__name__
    # Anything else is a bug of ours (a Rust panic arrives as PanicException):
    # still one line, saying so.
    return f"internal error, please report it: {type(error).__name__}: {error}"


def _save(path: str, option: str, text: str) -> None:
    """Write ``text`` to the file named by ``option`` (``--svg``, ``--html``)."""
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)
    except OSError as error:
        raise _Failure(f"cannot write {option} {path}: {error.strerror or error}") from None


def _check_writable(*options: tuple[str, str | None]) -> None:
    """Fail before a long search, not after, when an output file's folder is missing."""
    for option, path in options:
        if path is None:
            continue
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise _Failure(f"cannot write {option} {path}: no folder {folder}")


# ---------------------------------------------------------------- distribution


def _distribution_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="record each finished part of the count in FILE (SQLite); run the same "
        "command again to resume after a crash",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N", help="count in N local worker processes")
    where.add_argument(
        "--executor",
        metavar="URL",
        help="count on a Dask cluster: dask://HOST:PORT of its scheduler "
        "(pip install solvers[dist])",
    )


def _counting_only(args: argparse.Namespace) -> None:
    """--checkpoint, --workers and --executor split a count: nothing else."""
    mode = next(
        (
            name
            for name, given in (
                ("--find", getattr(args, "find", False)),
                ("--list", getattr(args, "list", None) is not None),
                ("--animate", getattr(args, "animate", False)),
            )
            if given
        ),
        None,
    )
    if mode is not None:
        _refuse(
            mode,
            {
                "--checkpoint": args.checkpoint is not None,
                "--workers": args.workers is not None,
                "--executor": args.executor is not None,
            },
        )


@contextlib.contextmanager
def _distributed(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """The ``executor=`` and ``checkpoint=`` arguments the options ask for,
    with the executor shut down afterwards."""
    where: dict[str, Any] = {}
    if args.checkpoint is not None:
        where["checkpoint"] = args.checkpoint
    if args.workers is not None:
        most = MAX_WORKERS_PER_CORE * (os.cpu_count() or 1)
        if not 1 <= args.workers <= most:
            raise _UsageError(
                f"--workers must be at least 1 and at most {most} "
                f"({MAX_WORKERS_PER_CORE} per core of this machine), got {args.workers}"
            )
        with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
            yield {**where, "executor": pool}
        return
    if args.executor is not None:
        scheme, _, address = args.executor.partition("://")
        if scheme != "dask" or not address:
            raise _UsageError(
                f"--executor takes dask://HOST:PORT (a Dask scheduler), got {args.executor!r}"
            )
        try:
            from dask.distributed import Client
        except ImportError:
            raise _UsageError("--executor needs Dask: pip install solvers[dist]") from None
        try:
            client = Client(f"tcp://{address}", timeout=10)
        except OSError as error:
            raise _UsageError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        with client:
            yield {**where, "executor": client.get_executor()}
        return
    yield where


# ---------------------------------------------------------------- --animate


def _animate_options(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--animate",
        action="store_true",
        help=f"show the search step by step: {what}; on a terminal redrawn in place, "
        "elsewhere frame after frame",
    )
    parser.add_argument(
        "--delay",
        type=float,
        metavar="SECONDS",
        default=None,
        help=f"with --animate: pause between steps (default {animate.DELAY})",
    )


def _animating(args: argparse.Namespace) -> bool:
    """``--animate`` given: refuse the options it has no use for."""
    if not args.animate:
        if args.delay is not None:
            raise _UsageError("--delay needs --animate")
        return False
    options = {
        "--find": args.find,
        "--list": args.list is not None,
        "--json": args.json,
        "--svg": args.svg is not None,
        "--threads": args.threads is not None,
        "--progress": args.progress,
        "--timeout": args.timeout is not None,
        "--method": args.method is not None,
    }
    if args.command == "queens":
        options["--unique"] = args.unique
        options["--deterministic"] = args.deterministic
    _refuse("--animate", options)
    return True


def _animate_tours(args: argparse.Namespace) -> int:
    board = _board_args(args)
    if args.start == "all":
        raise _UsageError("--start all does not apply to --animate: give one square ROW,COL")
    start = {} if args.start is None else {"start": args.start}
    delay = animate.DELAY if args.delay is None else args.delay
    animate.animate_tours(**board, **start, closed=args.closed, delay=delay)
    return 0


def _animate_queens(args: argparse.Namespace) -> int:
    delay = animate.DELAY if args.delay is None else args.delay
    animate.animate_queens(args.n, delay=delay)
    return 0
