"""The ``solvers`` command: the parser, the dispatch to a command, and the one
place every error is reported (one line on stderr, and the exit status).
Each command, its options and its run, is a module beside this one
(``tours.py``, ``queens.py``, ``peg.py``); the options and helpers they
share are in ``_options.py``.  The examples below are the top-level
``--help``; each command's ``--help`` shows its own.

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
import os
import sys
from collections.abc import Sequence
from typing import Protocol

from .._version import __version__
from . import peg, queens, tours
from ._options import MAX_WORKERS_PER_CORE, Failure, UsageError, counting_only
from .peg import PEG_BOARDS
from .queens import MAX_BOARD_TEXT

__all__ = ["MAX_BOARD_TEXT", "MAX_WORKERS_PER_CORE", "PEG_BOARDS", "main"]


class _Command(Protocol):
    """What each command's module gives."""

    HELP: str  # its line in ``solvers --help``
    DESCRIPTION: str  # the top of its own --help

    def add_options(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int:
        """Do the command; the exit status."""
        ...


#: The commands, in the order ``--help`` lists them.
_COMMANDS: dict[str, _Command] = {"tours": tours, "queens": queens, "peg": peg}


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
    for name, command in _COMMANDS.items():
        command.add_options(
            commands.add_parser(
                name,
                help=command.HELP,
                description=command.DESCRIPTION,
                epilog=_examples(name),
                formatter_class=argparse.RawDescriptionHelpFormatter,
            )
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; the exit status: 0 done, 2 a usage error (bad options
    or arguments), 1 a failure (no answer in time, too large a count, no
    memory, a file that cannot be written), 130 Ctrl-C.  Every error is one
    line on stderr, ``solvers: error: ...``, never a traceback."""
    parser = _parser()
    args = parser.parse_args(argv)  # argparse reports its own usage errors (status 2)
    try:
        counting_only(args)
        return _COMMANDS[args.command].run(args)
    except KeyboardInterrupt:
        print("solvers: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`solvers ... | head`): not an error of ours.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (UsageError, ValueError, TypeError) as error:
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
    if isinstance(error, (OverflowError, TimeoutError, RuntimeError, OSError, Failure)):
        return str(error) or type(error).__name__
    # Anything else is a bug of ours (a Rust panic arrives as PanicException):
    # still one line, saying so.
    return f"internal error, please report it: {type(error).__name__}: {error}"
