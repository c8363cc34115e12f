"""The ``solvers`` command: the parser, the dispatch to a command, and the one
place every error is reported (one line on stderr, and the exit status).
Each command, its options, its run and its examples, is the ``cli`` module
of its family's subpackage, found through the families' one list
(:mod:`solvers._families`); this shell names no family.  The options and
helpers the commands share are in ``_options.py``.  ``solvers --help`` ends
with every command's examples; each command's ``--help`` shows its own.

>>> "solvers tours 4 7" in _parser().format_help()
True
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import warnings
from collections.abc import Iterator, Sequence
from typing import Protocol, cast

from .._families import FAMILIES
from .._version import __version__
from ._options import MAX_WORKERS_PER_CORE, Failure, UsageError, counting_only

__all__ = ["MAX_WORKERS_PER_CORE", "main"]


class _Command(Protocol):
    """What each command's module gives."""

    HELP: str  # its line in ``solvers --help``
    DESCRIPTION: str  # the top of its own --help
    EXAMPLES: str  # its examples, one command line each

    def add_options(self, parser: argparse.ArgumentParser) -> None: ...

    def run(self, args: argparse.Namespace) -> int:
        """Do the command; the exit status."""
        ...


def _commands() -> dict[str, _Command]:
    """The commands, from the families' one list, in the order ``--help``
    lists them (each family's command module lives in its subpackage)."""
    return {
        command: cast(_Command, importlib.import_module(module))
        for family in FAMILIES
        for command, module in family.commands()
    }


def _examples(command: _Command) -> str:
    """The examples of ``command``, for its --help."""
    return "examples:\n" + command.EXAMPLES.rstrip("\n")


def _parser() -> argparse.ArgumentParser:
    commands = _commands()
    every = "".join(command.EXAMPLES for command in commands.values())
    parser = argparse.ArgumentParser(
        prog="solvers",
        description="Count, list and find solutions of backtracking puzzles.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n" + every.rstrip("\n"),
    )
    parser.add_argument("--version", action="version", version=f"solvers {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in commands.items():
        command.add_options(
            subparsers.add_parser(
                name,
                help=command.HELP,
                description=command.DESCRIPTION,
                epilog=_examples(command),
                formatter_class=argparse.RawDescriptionHelpFormatter,
            )
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; the exit status: 0 done, 2 a usage error (bad options
    or arguments), 1 a failure (no answer in time, too large a count, no
    memory, a file that cannot be written), 130 Ctrl-C.  Every error is one
    line on stderr, ``solvers: error: ...``, never a traceback."""
    args: argparse.Namespace | None = None
    try:
        # Inside the try: a Ctrl-C while the options are read is the same
        # clean exit (on a loaded machine that can take a while).
        args = _parser().parse_args(argv)  # argparse reports usage errors (status 2)
        counting_only(args)
        with _one_line_warnings():
            return _commands()[args.command].run(args)
    except KeyboardInterrupt:
        print(f"solvers: interrupted{_resuming(args)}", file=sys.stderr)
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


@contextlib.contextmanager
def _one_line_warnings() -> Iterator[None]:
    """Warnings shown as errors are, one line each (``solvers: warning:
    ...``), without the file and source line Python shows by default."""

    def show(message: Warning | str, *_: object, **__: object) -> None:
        print(f"solvers: warning: {' '.join(str(message).split())}", file=sys.stderr)

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


def _resuming(args: argparse.Namespace | None) -> str:
    """How to go on after Ctrl-C: nothing to say without ``--checkpoint``."""
    checkpoint = getattr(args, "checkpoint", None)
    if checkpoint is None:
        return ""
    return f" (run the same command, with --checkpoint {checkpoint}, to go on from there)"


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
