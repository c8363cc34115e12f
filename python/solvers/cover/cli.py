"""``solvers cover``: exact cover read from a file of Knuth's DLX text.  Owns
the command's options and its run: count the covers (the default, or
--count), --list the first, --find one, the --cheapest, or --random ones."""

from __future__ import annotations

import argparse
import functools
import sys
import textwrap

from ..cli import _options as opt
from .cheapest import cheapest_covers
from .count import COUNT_METHODS, count_covers
from .find import find_cover
from .listing import covers
from .problem import ExactCover
from .sample import random_covers

HELP = "exact cover from a DLX file: count (default), --list, --find, --cheapest or --random"

DESCRIPTION = textwrap.fill(
    "Exact cover with colours, read from FILE in Knuth's DLX format (the input of "
    "his DLX1, DLX2, DLX3 and SSXCC programs; - reads standard input): the first "
    "line names the primary items, then | and the secondary ones (a:b|name for a "
    "primary item in a to b options, b|name for exactly b); each later line is "
    "an option, item:colour for a coloured secondary item, |n adding n to its cost; "
    "lines starting with | "
    "are comments. A cover is printed as the numbers of its options (from 0, in "
    "file order).",
    78,
)

#: The examples of ``solvers cover --help`` (and of ``solvers --help``).
EXAMPLES = """\
    solvers cover examples/pentominoes.dlx           # count the covers: 8
    solvers cover examples/pentominoes.dlx --list 3  # the first 3, by number
    solvers cover examples/pentominoes.dlx --find    # one, as its options
    solvers cover examples/strip.dlx --method memo   # 2504730781961 at once
    solvers cover examples/costs.dlx --cheapest 2    # the 2 cheapest, with costs
    solvers cover examples/pentominoes.dlx --random 2 --seed 1  # 2 drawn uniformly
"""


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="the problem in DLX text (- for stdin)")
    opt.add_threads(parser)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--count", action="store_true", help="count the covers (the default)")
    mode.add_argument("--list", type=int, metavar="K", help="print the first K covers")
    mode.add_argument("--find", action="store_true", help="find one cover")
    mode.add_argument(
        "--cheapest",
        type=int,
        metavar="K",
        help="print the K cheapest covers (options cost |n in the file), cheapest first",
    )
    mode.add_argument(
        "--random",
        type=int,
        metavar="K",
        help="print K covers drawn independently and uniformly at random (from the memo)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="with --random: the seed (0 to 2**64 - 1), for the same covers every time",
    )
    opt.add_method(
        parser,
        COUNT_METHODS,
        "counting: auto (default), search (the parallel backtrack) or memo "
        "(memoised over what is left to cover, on every thread)",
    )
    opt.add_deterministic(
        parser, "with --find: the first cover in --list order, whatever --threads"
    )
    opt.add_output(parser)
    opt.add_distribution(parser)


def _problem(path: str) -> ExactCover:
    text = sys.stdin.read() if path == "-" else opt.read_text(path, path)
    return ExactCover.from_dlx(text)


def run(args: argparse.Namespace) -> int:
    if args.find:
        opt.refuse("--find", opt.given(args, "--method", "--progress"))
        return _find(args, _problem(args.file))
    if args.random is None:
        opt.refuse("anything but --random", opt.given(args, "--seed"))
    if args.cheapest is not None or args.random is not None:
        mode = "--cheapest" if args.random is None else "--random"
        opt.refuse(mode, opt.given(args, "--method", "--deterministic"))
        return _chosen(args, _problem(args.file))
    mode = "counting" if args.list is None else "--list"
    opt.refuse(mode, opt.given(args, "--deterministic"))
    if args.list is not None:
        opt.refuse(mode, opt.given(args, "--method", "--progress"))
        problem = _problem(args.file)
        opt.print_solutions(
            args,
            "covers",
            functools.partial(covers, problem),
            line=lambda cover: " ".join(map(str, cover)),
            value=list,
        )
        return 0
    problem = _problem(args.file)
    with opt.run_options(args) as run:
        count = count_covers(problem, method=args.method or "auto", options=run)
    opt.answer(args.json, {"count": count}, count)
    return 0


def _find(args: argparse.Namespace, problem: ExactCover) -> int:
    cover = find_cover(
        problem, threads=args.threads, deterministic=args.deterministic, timeout=args.timeout
    )
    if args.json:
        opt.answer(True, {"cover": None if cover is None else list(cover)}, None)
    elif cover is None:
        print("no cover")
    else:
        for k in cover:
            entries = (
                item if colour is None else f"{item}:{colour}" for item, colour in problem.option(k)
            )
            print(f"{k}: {' '.join(map(str, entries))}")
    return 0


def _chosen(args: argparse.Namespace, problem: ExactCover) -> int:
    """The covers of --cheapest (with their costs) or of --random."""
    with opt.run_options(args) as run:
        if args.random is not None:
            found = random_covers(problem, args.random, seed=args.seed, options=run)
        else:
            found = cheapest_covers(problem, args.cheapest, options=run)
    priced = args.random is None
    if args.json:
        rows = [{"cost": c.cost, "options": list(c)} if priced else list(c) for c in found]
        opt.answer(True, {"covers": rows}, None)
    elif not found:
        print("no cover")
    for cover in [] if args.json else found:
        words = " ".join(map(str, cover))
        print(f"cost {cover.cost}: {words}" if priced else words)
    return 0
