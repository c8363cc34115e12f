"""Regenerate the pictures in ``docs/pictures`` through the command line.

Every picture is written by running ``python -m solvers ...`` as a reader
would, so the pages show what the command really draws.  The output is
deterministic: running the script again gives byte-identical files, which
``tests/test_pictures.py`` checks for the committed ones.

Usage::

    python docs/make_pictures.py                 # rewrite docs/pictures
    python docs/make_pictures.py OUT             # write into the folder OUT
    python docs/make_pictures.py OUT english.svg # only the commands writing these files
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

PICTURES = Path(__file__).resolve().parent / "pictures"


class Command(NamedTuple):
    """A ``solvers`` command line and the files it writes; ``{0}``, ``{1}`` in
    an argument stand for the paths of the first and second file."""

    files: tuple[str, ...]
    args: tuple[str, ...]


#: The puzzle of Wikipedia's "Sudoku" article.
WIKIPEDIA_SUDOKU = (
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
)

COMMANDS: tuple[Command, ...] = (
    Command(("tour-8x8.svg",), ("tours", "8", "8", "--find", "--svg", "{0}")),
    Command(("tour-6x6-closed.svg",), ("tours", "6", "6", "--find", "--closed", "--svg", "{0}")),
    Command(("queens-8.svg",), ("queens", "8", "--find", "--svg", "{0}")),
    Command(
        ("english.svg", "english.html"),
        ("peg", "english", "--start", "3,3", "--find", "--svg", "{0}", "--html", "{1}"),
    ),
    Command(
        ("triangle-5.svg",),
        ("peg", "triangle:5", "--start", "0,0", "--any", "--find", "--svg", "{0}"),
    ),
    Command(("sudoku.svg",), ("sudoku", WIKIPEDIA_SUDOKU, "--svg", "{0}")),
    Command(
        ("pentominoes-6x10.svg",),
        ("tiling", "6x10", "--find", "--deterministic", "--svg", "{0}"),
    ),
)


def run(command: Command, folder: Path) -> str | None:
    """Run one command, writing its files into ``folder``; the error, if any."""
    paths = [str(folder / name) for name in command.files]
    argv = [sys.executable, "-m", "solvers", *(arg.format(*paths) for arg in command.args)]
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    shown = " ".join(["solvers", *(arg.format(*command.files) for arg in command.args)])
    if done.returncode != 0:
        return f"{shown}: exit status {done.returncode}: {done.stderr.strip()}"
    missing = [name for name in command.files if not (folder / name).is_file()]
    if missing:
        return f"{shown}: did not write {', '.join(missing)}"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, default=PICTURES, help="output folder")
    parser.add_argument("names", nargs="*", help="only the commands that write these files")
    args = parser.parse_args(argv)
    known = {name for command in COMMANDS for name in command.files}
    unknown = sorted(set(args.names) - known)
    if unknown:
        parser.error(f"no command writes {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    chosen = [c for c in COMMANDS if not args.names or set(c.files) & set(args.names)]
    args.out.mkdir(parents=True, exist_ok=True)
    errors = [error for error in (run(c, args.out) for c in chosen) if error is not None]
    for error in errors:
        print(f"make_pictures: {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
