"""What the three commands share: the options they all take (``--threads``,
``--json``, ``--progress``, ``--timeout``; the distribution options
``--checkpoint``, ``--workers``, ``--executor``; ``--animate`` and
``--delay``), the parsing of a ``ROW,COL`` square, the refusal of options a
mode has no use for, output files (checked before a search, written after),
and the printing of answers and of long lists.

The two exceptions here are how a command says what went wrong; the parser
in ``__init__.py`` turns them into one line on stderr and an exit status.

>>> square("3,0"), square("all")
((3, 0), 'all')
>>> args = argparse.Namespace(find=True, list=0, svg=None, threads=None)
>>> given(args, "--find", "--list", "--svg", "--threads")
{'--find': True, '--list': True, '--svg': False, '--threads': False}
>>> refuse("--animate", given(args, "--find", "--list"))
Traceback (most recent call last):
...
solvers.cli._options.UsageError: --find and --list do not apply to --animate
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Generator, Iterator, Sequence
from itertools import islice
from typing import Any

from .._engine import _screen, _workers
from .._engine._run import RunOptions

#: ``--workers`` starts local processes: more than this many per core only
#: costs memory (each holds its own interpreter and tables).
MAX_WORKERS_PER_CORE = 4


class UsageError(Exception):
    """Bad options or arguments: exit status 2."""


class Failure(Exception):
    """The command could not do what was asked (a file not written): exit status 1."""


def square(text: str) -> tuple[int, int] | str:
    """The ``type=`` of a ``--start`` or ``--finish`` option: ROW,COL or 'all'."""
    if text == "all":
        return text
    try:
        row, col = (int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected ROW,COL (like 3,0) or 'all', got {text!r}"
        ) from None
    return row, col


def given(args: argparse.Namespace, *options: str) -> dict[str, bool]:
    """Which of ``options`` the command line gave: a flag set, or a value
    present (``--list 0`` and ``--threads 0`` are given).  An option the
    command does not have is not given."""
    return {option: _given(getattr(args, option[2:].replace("-", "_"), None)) for option in options}


def _given(value: object) -> bool:
    return value is not None and value is not False


def refuse(mode: str, options: dict[str, bool]) -> None:
    """A usage error naming the options given that ``mode`` has no use for."""
    present = [name for name, on in options.items() if on]
    if present:
        verb = "does" if len(present) == 1 else "do"
        raise UsageError(f"{' and '.join(present)} {verb} not apply to {mode}")


# ---------------------------------------------------------------- options all commands take


def add_threads(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--threads", type=int, default=None, help="worker threads (default: all)")


def add_output(parser: argparse.ArgumentParser) -> None:
    """``--json``, ``--progress`` and ``--timeout``, in that order."""
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--progress", action="store_true", help="show a progress bar")
    parser.add_argument("--timeout", type=float, default=None, help="give up after SECONDS")


def answer(as_json: bool, data: dict[str, Any], text: object) -> None:
    """Print the answer: ``data`` as JSON with ``--json``, else ``text``."""
    print(json.dumps(data) if as_json else text)


def print_found(
    args: argparse.Namespace, found: Any, key: str, value: Callable[[Any], object], missing: str
) -> None:
    """Print what a search found (``None``: nothing): with ``--json``,
    ``{key: value(found)}`` (``null`` for nothing), else ``found`` drawn
    as text, or ``missing``."""
    if args.json:
        print(json.dumps({key: None if found is None else value(found)}))
    else:
        print(missing if found is None else found)


# ---------------------------------------------------------------- options of some commands


def add_method(parser: argparse.ArgumentParser, choices: Sequence[str], help: str) -> None:
    """``--method``, one of ``choices`` (not given: ``None``, the command's default)."""
    parser.add_argument("--method", choices=choices, default=None, help=help)


def add_deterministic(parser: argparse.ArgumentParser, help: str) -> None:
    """``--deterministic``, a flag of ``--find``."""
    parser.add_argument("--deterministic", action="store_true", help=help)


def add_svg(parser: argparse.ArgumentParser, help: str) -> None:
    """``--svg FILE``, where the answer's picture is saved (see :func:`save`)."""
    parser.add_argument("--svg", metavar="FILE", help=help)


# ---------------------------------------------------------------- input files


def read_text(path: str, what: str) -> str:
    """The text of the board file ``path`` (``what`` names it in the error,
    such as ``"--board board.txt"``): a usage error when it cannot be read
    or is not UTF-8 text.  A byte-order mark at its start (some editors
    write one) is left out."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            return handle.read()
    except OSError as error:
        raise UsageError(f"cannot read {what}: {error.strerror or error}") from None
    except UnicodeDecodeError as error:
        raise UsageError(
            f"cannot read {what}: not UTF-8 text (byte 0x{error.object[error.start]:02x} "
            f"at offset {error.start})"
        ) from None


def digits(text: str) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits, of at most
    :data:`MAX_DIGITS` of them (``"²"`` and ``"٣"`` are digits to
    ``str.isdigit`` but not to ``int``, and 5000 digits are past ``int()``'s limit).

    >>> digits("12"), digits("²"), digits(""), digits("9" * 5000)
    (True, False, False, False)
    """
    return text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS


#: A number of more digits than this on the command line is surely a slip
#: (every size the commands take is far smaller).
MAX_DIGITS = 100


# ---------------------------------------------------------------- output files


def check_writable(args: argparse.Namespace, *options: str) -> None:
    """Fail before a long search, not after, when an output file's folder is missing."""
    for option in options:
        path = getattr(args, option[2:])
        if path is None:
            continue
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise Failure(f"cannot write {option} {path}: no folder {folder}")


def save(args: argparse.Namespace, found: Any, *options: str) -> None:
    """Write what was ``found`` (nothing when it is None) to the file each of
    ``options`` names: ``--svg`` gets ``found.to_svg()``, ``--html``
    ``found.to_html()``."""
    if found is None:
        return
    for option in options:
        path = getattr(args, option[2:])
        if not path:
            continue
        text = getattr(found, f"to_{option[2:]}")()
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            raise Failure(f"cannot write {option} {path}: {error.strerror or error}") from None


# ---------------------------------------------------------------- --list


def print_list(
    args: argparse.Namespace,
    noun: str,
    items: Callable[[], Generator[Any, None, None]],
    json_key: str,
    *,
    line: Callable[[Any], str],
    value: Callable[[Any], object],
) -> None:
    """Print the first ``--list`` of ``items()`` (``noun``, for the error of
    a negative number) as they come: numbered lines, or with ``--json`` the
    text of ``json.dumps({json_key: [value(item), ...]})`` an item at a
    time.  Memory stays constant however many are asked for, and
    `solvers queens 14 --list 100000 | head` stops early."""
    if args.list < 0:
        raise UsageError(f"--list needs a number of {noun} of at least 0")
    generator = items()
    try:
        first = islice(generator, min(args.list, sys.maxsize))  # more than sys.maxsize: all
        if not args.json:
            for number, item in enumerate(first, start=1):
                print(f"{number}: {line(item)}")
            return
        sys.stdout.write(f"{{{json.dumps(json_key)}: [")
        for number, item in enumerate(first):
            sys.stdout.write((", " if number else "") + json.dumps(value(item)))
        print("]}")
    finally:
        generator.close()  # stops the search thread when enough are shown, or on Ctrl-C


def print_solutions(
    args: argparse.Namespace,
    noun: str,
    solutions: Callable[..., Generator[Any, None, None]],
    *,
    line: Callable[[Any], str],
    value: Callable[[Any], object],
) -> None:
    """:func:`print_list` of ``solutions(threads=..., timeout=...)``, as
    ``--threads`` and ``--timeout`` ask, under the JSON key ``noun``."""
    search = {"threads": args.threads, "timeout": args.timeout}
    print_list(args, noun, lambda: solutions(**search), noun, line=line, value=value)


# ---------------------------------------------------------------- distribution


def add_distribution(parser: argparse.ArgumentParser) -> None:
    """--checkpoint, --workers, --executor, --memory, --spill and --no-spill:
    every counting command takes them all, as every count takes the run
    options; a method that has no use for one refuses it in the one message
    of the API."""
    parser.add_argument(
        "--checkpoint",
        metavar="DIR",
        help="keep each finished part of the count in the directory DIR (made if missing); "
        "run the same command again to resume after a crash",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N", help="count in N local worker processes")
    where.add_argument(
        "--executor",
        metavar="URL",
        help="count on a Dask cluster: dask://HOST:PORT of its scheduler "
        "(pip install solvers[dist])",
    )
    parser.add_argument(
        "--memory",
        metavar="SIZE",
        help="a memory budget for the layered DP, e.g. 4GB or auto (half of what is "
        "available; the default): layers past it spill to files",
    )
    parser.add_argument(
        "--spill",
        metavar="DIR",
        help="where layers past --memory go (default: the temporary directory; its free "
        "disk is checked first); with --workers or --executor, the partition files, in a "
        "directory every worker reaches",
    )
    parser.add_argument(
        "--no-spill",
        action="store_true",
        help="keep every layer in memory, no files (out of memory where a step does not "
        "fit); not with --memory, --spill, --workers or --executor",
    )


def counting_only(args: argparse.Namespace) -> None:
    """--checkpoint, --workers, --executor, --memory, --spill and --no-spill
    are for counts: nothing else."""
    modes = given(args, "--find", "--list", "--animate")
    mode = next((name for name, on in modes.items() if on), None)
    if mode is not None:
        options = ("--checkpoint", "--workers", "--executor", "--memory", "--spill", "--no-spill")
        refuse(mode, given(args, *options))


@contextlib.contextmanager
def run_options(args: argparse.Namespace) -> Iterator[RunOptions]:
    """The run options the command's options ask for (``--threads``,
    ``--progress``, ``--timeout``, and the distribution's), made once, with
    the executor shut down afterwards."""
    with _distributed(args) as where:
        for name in ("threads", "progress", "timeout"):
            value = getattr(args, name, None)
            if value is not None and value is not False:
                where[name] = value
        try:
            options = RunOptions(**where)
        except (TypeError, ValueError) as error:
            raise UsageError(str(error)) from None
        yield options


@contextlib.contextmanager
def _distributed(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    """The ``executor=``, ``checkpoint=``, ``memory=`` and ``spill=`` the
    options ask for, with the executor shut down afterwards."""
    where: dict[str, Any] = {}
    for name in ("checkpoint", "memory", "spill"):
        if getattr(args, name, None) is not None:
            where[name] = getattr(args, name)
    if getattr(args, "no_spill", False):
        if args.spill is not None:
            raise UsageError("--no-spill writes no files: not with --spill")
        where["spill"] = False  # the count refuses --memory, --workers, --executor beside it
    if getattr(args, "workers", None) is not None:
        most = MAX_WORKERS_PER_CORE * (os.cpu_count() or 1)
        if not 1 <= args.workers <= most:
            raise UsageError(
                f"--workers must be at least 1 and at most {most} "
                f"({MAX_WORKERS_PER_CORE} per core of this machine), got {args.workers}"
            )
        pool = _workers.process_pool(args.workers)  # its workers die with this process
        stopping = f"solvers: stopping the {args.workers} worker processes (Ctrl-C)"
        try:
            with _workers.stopping_on_ctrl_c(pool, lambda: say(stopping)):
                yield {**where, "executor": pool}
        except BaseException:
            # Ctrl-C, a timeout, an error: no waiting for the running subproblems
            # (a checkpoint keeps every one that arrived).
            _workers.stop(pool)
            raise
        pool.shutdown()
        return
    if getattr(args, "executor", None) is not None:
        scheme, _, address = args.executor.partition("://")
        if scheme != "dask" or not address:
            raise UsageError(
                f"--executor takes dask://HOST:PORT (a Dask scheduler), got {args.executor!r}"
            )
        try:
            from dask.distributed import Client
        except ImportError:
            raise UsageError("--executor needs Dask: pip install solvers[dist]") from None
        try:
            client = Client(f"tcp://{address}", timeout=10)
        except OSError as error:
            raise UsageError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        with client:
            yield {**where, "executor": client.get_executor()}
        return
    yield where


def say(line: str) -> None:
    """Write ``line`` to stderr at once, also from a signal handler (one
    ``write``, so it cannot clash with a print the signal interrupted)."""
    with contextlib.suppress(Exception):  # RuntimeError: the signal came inside a write
        sys.stderr.flush()
    try:
        os.write(sys.stderr.fileno(), f"{line}\n".encode())
    except (OSError, ValueError, AttributeError):  # no real stderr (a test's capture)
        with contextlib.suppress(Exception):
            print(line, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- --animate


def add_animate(parser: argparse.ArgumentParser, what: str) -> None:
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
        help=f"with --animate: pause between steps (default {_screen.DELAY})",
    )


#: The options of a search that an animation of it has no use for.
SEARCH_OPTIONS = (
    "--find",
    "--list",
    "--json",
    "--svg",
    "--threads",
    "--progress",
    "--timeout",
    "--method",
)


def animating(args: argparse.Namespace, *refused: str) -> bool:
    """Whether ``--animate`` is given; if so, refuse the ``refused`` options
    given with it, and if not, ``--delay``."""
    if not args.animate:
        if args.delay is not None:
            raise UsageError("--delay needs --animate")
        return False
    refuse("--animate", given(args, *refused))
    return True


def delay(args: argparse.Namespace) -> float:
    """The pause between the frames of ``--animate``."""
    pause: float = _screen.DELAY if args.delay is None else args.delay
    return pause
