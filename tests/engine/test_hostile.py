"""What a hostile tester types: huge and negative numbers, floats and bools
where integers belong, numpy scalars, ``nan``/``inf``/negative timeouts,
ragged or unicode board drawings, boards of 65 holes and more, checkpoint
files that are broken or not ours, and the wrong type for every argument.

Each case ends in a ``ValueError``, ``TypeError`` or ``OverflowError``
whose one-line message names what was wrong, and the interpreter still
counts right afterwards.  (The command line's side: tests/test_cli.py;
memory: the tests run under ``prlimit``.)
"""

from __future__ import annotations

import decimal
import fractions
import math
import pickle
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import oracle
import peg_oracle
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from solvers import (
    KnightBoard,
    PegBoard,
    PegGames,
    PegSolution,
    Placement,
    Tour,
    _core,
    cli,
    count_peg_games,
    count_peg_solutions,
    count_queens,
    count_tours,
    distributed,
    find_peg_solution,
    find_queens,
    find_tour,
    finish_counts,
    is_peg_solution,
    is_queens_solution,
    is_tour,
    queens,
    tours,
)
from solvers._engine import _validate
from solvers._engine._args import LEDGER_NAME
from solvers.distributed import Subproblem, count_subproblem, count_subproblems
from solvers.nqueens.animation import animate_queens

#: The small counts run after every refusal, from the oracles.
TOURS_3X4 = oracle.count(3, 4)
TRIANGLE_5 = peg_oracle.count_solutions(*peg_oracle.triangle(5), (0, 0), None)


def still_works() -> None:
    """The interpreter is fine: a count and a peg count come out right."""
    assert count_tours(3, 4) == TOURS_3X4
    assert count_peg_solutions(PegBoard.triangle(5), start=(0, 0), finish=None) == TRIANGLE_5


#: What must never reach a user: Rust panic text, pyo3's own conversion
#: errors (which name no argument) and private function names.
LEAKS = (
    "panicked",
    "RUST_BACKTRACE",
    "can't convert",
    "too big to convert",
    "cannot be converted",
    "cannot be interpreted as an integer",
    "_plan_tours",
    "_plan_queens",
    "_build_",
    "_core",
)


def refused(call: Callable[[], Any], error: type[Exception], phrase: str) -> str:
    with pytest.raises(error) as caught:
        call()
    message = str(caught.value)
    assert phrase in message, message
    assert "\n" not in message and len(message) <= 800, message
    assert not any(leak in message for leak in LEAKS), message
    return message


ENGLISH = PegBoard.english()
BIG = 2**64
HUGE = 10**100


def _executor() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(1)


# ---------------------------------------------------------------- numbers

NUMBERS = {
    # sizes
    "rows 2**64": (lambda: count_tours(BIG, 2), ValueError, "at most 100000000 cells"),
    "rows 10**100": (lambda: count_tours(HUGE, 1), ValueError, "at most 100000000 cells"),
    "rows negative": (lambda: count_tours(-1, 5), ValueError, "rows must be at least 1, got -1"),
    "cols zero": (lambda: count_tours(5, 0), ValueError, "cols must be at least 1, got 0"),
    "rows float": (lambda: count_tours(3.0, 4), TypeError, "rows must be an integer, got float"),
    "rows bool": (lambda: count_tours(True, 4), TypeError, "rows must be an integer, not a bool"),
    "rows str": (lambda: count_tours("3", 4), TypeError, "rows must be an integer, got str"),
    "rows without cols": (lambda: count_tours(3), TypeError, "give the board size"),
    "find_tour 10**5 square": (lambda: find_tour(10**5, 10**5), ValueError, "at most 100000000"),
    "tours 2**64": (lambda: tours(BIG, BIG), ValueError, "at most 100000000 cells"),
    "queens 2**64": (lambda: count_queens(BIG), ValueError, "up to 64, got 18446744073709551616"),
    "queens 65": (lambda: count_queens(65), ValueError, "up to 64"),
    "queens 0": (lambda: count_queens(0), ValueError, "n must be at least 1"),
    "queens float": (lambda: count_queens(8.0), TypeError, "n must be an integer, got float"),
    "queens bool": (lambda: queens(True), TypeError, "n must be an integer, not a bool"),
    "find_queens 2**64": (lambda: find_queens(BIG), ValueError, "constructs for n up to"),
    "find_queens 10**100 search": (
        lambda: find_queens(HUGE, method="search"),
        ValueError,
        'find_queens(method="search") works for n up to 64',
    ),
    "placement column 10**30": (lambda: Placement([10**30]), ValueError, "is off the board"),
    "placement column -1": (lambda: Placement([-1]), ValueError, "column -1 is off the board"),
    "placement bool": (lambda: Placement([True]), TypeError, "not a bool"),
    "triangle 2**64": (lambda: PegBoard.triangle(BIG), ValueError, "at most 64 holes"),
    "diamond 10**100": (lambda: PegBoard.diamond(HUGE), ValueError, "at most 64 holes"),
    "rectangle 2**64 x 1": (lambda: PegBoard.rectangle(BIG, 1), ValueError, "at most 64 holes"),
    # threads
    "threads 2**64": (lambda: count_tours(3, 4, threads=BIG), ValueError, "at most 1024"),
    "threads 0": (lambda: count_queens(8, threads=0), ValueError, "threads must be at least 1"),
    "threads -3": (lambda: count_tours(3, 4, threads=-3), ValueError, "at least 1, got -3"),
    "threads bool": (lambda: count_tours(3, 4, threads=True), TypeError, "not a bool"),
    "threads str": (lambda: count_tours(3, 4, threads="2"), TypeError, "got str"),
    "threads float": (lambda: count_tours(3, 4, threads=2.0), TypeError, "got float"),
    "peg threads str": (
        lambda: count_peg_solutions(ENGLISH, start=(3, 3), threads="x"),
        TypeError,
        "threads must be an integer, got str",
    ),
    "peg parts 0": (
        lambda: count_peg_solutions(ENGLISH, start=(3, 3), parts=0, executor=_executor()),
        ValueError,
        "parts must be at least 1",
    ),
    "peg parts 2**64": (
        lambda: count_peg_solutions(ENGLISH, start=(3, 3), parts=BIG, executor=_executor()),
        ValueError,
        "parts must be at most",
    ),
    "peg parts bool": (
        lambda: count_peg_solutions(ENGLISH, start=(3, 3), parts=True, executor=_executor()),
        TypeError,
        "not a bool",
    ),
    # timeouts
    "timeout nan": (lambda: count_tours(3, 4, timeout=math.nan), ValueError, "finite"),
    "timeout inf": (lambda: count_queens(8, timeout=math.inf), ValueError, "finite"),
    "timeout -inf": (lambda: tuple(find_queens(8, timeout=-math.inf)), ValueError, "finite"),
    "timeout -1": (lambda: count_tours(3, 4, timeout=-1), ValueError, "non-negative"),
    "timeout 10**400": (lambda: count_tours(3, 4, timeout=10**400), ValueError, "finite"),
    "timeout bool": (lambda: count_tours(3, 4, timeout=True), TypeError, "got bool"),
    "timeout str": (lambda: count_tours(3, 4, timeout="1"), TypeError, "got str"),
    "timeout Decimal": (
        lambda: count_tours(3, 4, timeout=decimal.Decimal("1.5")),
        TypeError,
        "got Decimal",
    ),
    "peg timeout nan": (
        lambda: count_peg_solutions(ENGLISH, start=(3, 3), timeout=math.nan),
        ValueError,
        "timeout must be a finite",
    ),
    "find_peg timeout -1": (
        lambda: find_peg_solution(ENGLISH, start=(3, 3), timeout=-1),
        ValueError,
        "non-negative",
    ),
    "finish_counts timeout inf": (
        lambda: finish_counts(ENGLISH, start=(3, 3), timeout=math.inf),
        ValueError,
        "finite",
    ),
    "animate delay nan": (lambda: animate_queens(4, delay=math.nan), ValueError, "finite"),
    "animate delay 1e308": (lambda: animate_queens(4, delay=1e308), ValueError, "at most 60"),
    "animate delay str": (lambda: animate_queens(4, delay="1"), TypeError, "got str"),
}


# ---------------------------------------------------------------- squares, flags, choices

ARGUMENTS = {
    "start 2**64": (lambda: count_tours(3, 4, start=(BIG, 0)), ValueError, "is off the 3x4"),
    "start negative": (lambda: count_tours(3, 4, start=(-1, 0)), ValueError, "(-1, 0) is off"),
    "start floats": (lambda: count_tours(3, 4, start=(0.0, 0)), TypeError, "start row"),
    "start bools": (lambda: count_tours(3, 4, start=(True, False)), TypeError, "not a bool"),
    "start dict": (lambda: count_tours(3, 4, start={"a": 1, "b": 2}), TypeError, "pair"),
    "start set": (lambda: count_tours(3, 4, start={1, 2}), TypeError, "(row, col) pair"),
    "start triple": (lambda: count_tours(3, 4, start=(1, 2, 3)), TypeError, "got (1, 2, 3)"),
    "start None": (lambda: count_tours(3, 4, start=None), TypeError, "got None"),
    "start object": (lambda: count_tours(3, 4, start=object()), TypeError, "(row, col) pair"),
    "start 'ALL'": (lambda: count_tours(3, 4, start="ALL"), ValueError, "'all', got 'ALL'"),
    "start long string": (lambda: count_tours(3, 4, start="x" * 10**6), ValueError, "..."),
    "find_tour start all": (lambda: find_tour(5, 5, start="all"), ValueError, "got 'all'"),
    "start on a hole": (
        lambda: count_tours(board="..#\n...", start=(0, 2)),
        ValueError,
        "missing square",
    ),
    "default start missing": (
        lambda: count_tours(board="...\n#..", start="lower-left"),
        ValueError,
        "the default start, the lower-left corner (1, 0), is a missing square",
    ),
    "closed 1": (lambda: count_tours(3, 4, closed=1), TypeError, "closed must be True or False"),
    "unique 1": (lambda: count_queens(8, unique=1), TypeError, "unique must be True or False"),
    "progress 1": (lambda: count_tours(3, 4, progress=1), TypeError, "progress must be True"),
    "deterministic yes": (
        lambda: find_queens(8, method="search", deterministic="yes"),
        TypeError,
        "deterministic must be True or False",
    ),
    "method None": (lambda: count_tours(3, 4, method=None), ValueError, "method must be one of"),
    "method list": (lambda: count_tours(3, 4, method=["auto"]), ValueError, "got ['auto']"),
    "queens method": (lambda: find_queens(8, method="guess"), ValueError, "'construct', 'search'"),
    "peg method": (
        lambda: count_peg_solutions(ENGLISH, start=(3, 3), method=None),
        ValueError,
        "'auto', 'meet', 'forward'",
    ),
    "executor str": (lambda: count_tours(3, 4, executor="x"), TypeError, "concurrent.futures"),
    "peg executor str": (
        lambda: count_peg_solutions(ENGLISH, start=(3, 3), executor="x"),
        TypeError,
        "executor must be",
    ),
    "checkpoint int": (lambda: count_tours(3, 4, checkpoint=123), TypeError, "directory path"),
    "checkpoint bytes": (lambda: count_queens(8, checkpoint=b"q"), TypeError, "directory path"),
    "checkpoint NUL": (
        lambda: count_queens(8, checkpoint="q\0"),
        ValueError,
        "without NUL bytes",
    ),
    "is_tour int": (lambda: is_tour(5, 3, 4), TypeError, "squares must be an iterable"),
    "is_tour strings": (lambda: is_tour(["ab"], 3, 4), TypeError, "square 0 must be a (row, col)"),
    "Tour floats": (lambda: Tour([(2.0, 0)], 3, 4), TypeError, "square 0 row"),
    "is_queens None": (lambda: is_queens_solution(None), TypeError, "cols must be an iterable"),
    "is_queens str": (lambda: is_queens_solution("1302"), TypeError, "cols must be an iterable"),
    "is_queens floats": (lambda: is_queens_solution([1.0]), TypeError, "column of row 0"),
    # peg holes
    "peg start 2**64": (
        lambda: count_peg_solutions(ENGLISH, start=BIG),
        ValueError,
        "not a hole index of PegBoard.english(): hole indices are 0..32",
    ),
    "peg start -1": (lambda: count_peg_solutions(ENGLISH, start=-1), ValueError, "-1 is not a"),
    "peg start bool": (lambda: count_peg_solutions(ENGLISH, start=True), TypeError, "bool"),
    "peg start float": (lambda: count_peg_solutions(ENGLISH, start=1.5), TypeError, "got float"),
    "peg start str": (lambda: count_peg_solutions(ENGLISH, start="centre"), TypeError, "got str"),
    "peg start None": (lambda: finish_counts(ENGLISH, start=None), TypeError, "got NoneType"),
    "peg start off": (lambda: finish_counts(ENGLISH, start=(0, 0)), ValueError, "not a hole"),
    "peg start huge pair": (
        lambda: find_peg_solution(ENGLISH, start=(BIG, 0)),
        ValueError,
        "(18446744073709551616, 0) is not a hole",
    ),
    "peg finish word": (
        lambda: count_peg_solutions(ENGLISH, start=(3, 3), finish="anywhere"),
        ValueError,
        "'start' or None, got 'anywhere'",
    ),
    "peg finish float": (
        lambda: count_peg_solutions(ENGLISH, start=(3, 3), finish=1.5),
        TypeError,
        "finish must be",
    ),
    "peg finish short list": (
        lambda: find_peg_solution(ENGLISH, start=(3, 3), finish=[1]),
        TypeError,
        "finish must be a (row, col) pair",
    ),
    "peg board str": (
        lambda: count_peg_solutions("english", start=(3, 3)),
        TypeError,
        "board must be a PegBoard",
    ),
    "peg jumps str": (
        lambda: PegSolution(ENGLISH, "abc", start=(3, 3)),
        TypeError,
        "jumps must be an iterable",
    ),
    "peg jump of two": (
        lambda: is_peg_solution(ENGLISH, [((1, 3), (2, 3))], start=(3, 3)),
        TypeError,
        "jump 1 must be three (row, col) squares",
    ),
    "peg jump floats": (
        lambda: PegSolution(ENGLISH, [((1.0, 3), (2, 3), (3, 3))], start=(3, 3)),
        TypeError,
        "jump 1 square row",
    ),
    "peg jump off the board": (
        lambda: PegSolution(ENGLISH, [((BIG, 3), (2, 3), (3, 3))], start=(3, 3)),
        ValueError,
        "not a jump of this board",
    ),
    "peg draw int": (lambda: ENGLISH.draw(empty=BIG), TypeError, "empty must be a collection"),
}


# ---------------------------------------------------------------- drawings and boards

BOARDS = {
    "ragged": (lambda: count_tours(board="...\n..\n..."), ValueError, "board line 2 has 2 cells"),
    "unicode dot": (lambda: count_tours(board="..．\n..."), ValueError, "column 3: '．'"),
    "tab": (lambda: count_tours(board="..\t.\n...."), ValueError, "column 3: '\\t'"),
    "NUL": (lambda: count_tours(board="..\0."), ValueError, "'\\x00' is not allowed"),
    "emoji": (lambda: is_tour([], board="..\n.♞"), ValueError, "'♞' is not allowed"),
    "empty": (lambda: count_tours(board=""), ValueError, "board text is empty"),
    "blank lines": (lambda: count_tours(board="\n \n\n"), ValueError, "board text is empty"),
    "no squares": (lambda: count_tours(board="##\n##"), ValueError, "no squares"),
    "bytes": (lambda: count_tours(board=b"...."), TypeError, "board must be a str"),
    "size disagrees": (
        lambda: count_tours(5, 4, board="....\n....\n...."),
        ValueError,
        "rows=5 disagrees",
    ),
    "mask of ints": (lambda: KnightBoard(3, 4, [1] * 12), TypeError, "mask entries"),
    "mask short": (lambda: KnightBoard(3, 4, [True] * 11), ValueError, "mask has 11 entries"),
    "mask empty board": (lambda: KnightBoard(1, 2, [False, False]), ValueError, "no squares"),
    "wide for the search": (
        lambda: count_tours(9, 9, method="search"),
        ValueError,
        "at most 64 cells",
    ),
    # peg boards
    "peg 65 holes": (
        lambda: PegBoard([(0, c) for c in range(65)]),
        ValueError,
        "at most 64 holes",
    ),
    "peg 65 drawn": (lambda: PegBoard.parse("o" * 65), ValueError, "at most 64 holes"),
    "peg 66 triangle": (lambda: PegBoard.triangle(11), ValueError, "triangle(11) has 66"),
    "peg 65 rectangle": (lambda: PegBoard.rectangle(5, 13), ValueError, "has 65"),
    "peg 85 diamond": (lambda: PegBoard.diamond(7), ValueError, "diamond(7) has 85"),
    "peg 66 triangle drawn": (
        lambda: PegBoard.parse("\n".join("o" * (r + 1) for r in range(11)), triangle=True),
        ValueError,
        "at most 64 holes",
    ),
    "peg far-flung holes": (
        lambda: PegBoard([(0, 0), (0, 10**6)]),
        ValueError,
        "lie within 128 rows and 128 columns",
    ),
    "peg holes 2**64 apart": (lambda: PegBoard([(0, 0), (BIG, 0)]), ValueError, "lie within"),
    "peg negative": (lambda: PegBoard([(0, 0), (0, -1)]), ValueError, "column -1"),
    "peg duplicate": (lambda: PegBoard([(0, 0), (0, 0)]), ValueError, "listed twice"),
    "peg holes str": (lambda: PegBoard("ooo"), TypeError, "PegBoard.parse()"),
    "peg holes ints": (lambda: PegBoard([1, 2]), TypeError, "hole must be a (row, col) pair"),
    "peg geometry None": (lambda: PegBoard([(0, 0)], geometry=None), TypeError, "geometry"),
    "peg unicode": (lambda: PegBoard.parse("oo\no○"), ValueError, "line 2, column 2"),
    "peg fullwidth o": (lambda: PegBoard.parse("ｏｏｏ"), ValueError, "unexpected 'ｏ'"),
    "peg tab": (lambda: PegBoard.parse("oo\n\too"), ValueError, "tab characters"),
    "peg NUL": (lambda: PegBoard.parse("o\0o"), ValueError, "unexpected '\\x00'"),
    "peg bytes": (lambda: PegBoard.parse(b"ooo"), TypeError, "board must be a str"),
    "peg empty": (lambda: PegBoard.parse("\n\n"), ValueError, "board text is empty"),
    "peg no holes": (lambda: PegBoard.parse("# #"), ValueError, "no holes"),
    "peg triangle row too long": (
        lambda: PegBoard.parse("o\no o o", triangle=True),
        ValueError,
        "row 1 of a triangle has 2 holes",
    ),
}

# ---------------------------------------------------------------- issue 27: the right message

_QUEENS_8 = distributed.plan(count_queens, 8, subproblems=16)
_TRIANGLE = PegBoard.triangle(5)
#: A checkpoint directory no one can make: its parent is this file.
_UNDER_FILE = str(Path(__file__) / "q")

MESSAGES = {
    # a memory budget past any machine: the budget is at fault, not the count
    "frontier memory 2**70": (
        lambda: count_tours(6, 6, method="frontier", memory=2**70),
        ValueError,
        "memory must be at least 1048576 bytes (1 MiB) and at most 2**60 bytes",
    ),
    "frontier memory 1e30GB": (
        lambda: count_tours(6, 6, method="frontier", memory="1e30GB"),
        ValueError,
        "at most 2**60 bytes (1 EiB; spill=False for no budget), got '1e30GB'",
    ),
    "frontier memory 2**64": (
        lambda: count_tours(3, 4, method="frontier", memory=BIG),
        ValueError,
        "memory must be",
    ),
    "pairs memory 2**70": (
        lambda: count_tours(5, 5, method="pairs", memory=2**70),
        ValueError,
        "memory must be",
    ),
    "plan pairs memory 2**70": (
        lambda: distributed.plan(count_tours, 5, 5, method="pairs", memory=2**70),
        ValueError,
        "memory must be",
    ),
    "peg count memory 2**70": (
        lambda: count_peg_solutions(_TRIANGLE, start=(0, 0), memory=2**70),
        ValueError,
        "memory must be",
    ),
    "finish_counts memory 2**70": (
        lambda: finish_counts(_TRIANGLE, start=(0, 0), memory=2**70),
        ValueError,
        "memory must be",
    ),
    "count_peg_games memory 2**70": (
        lambda: count_peg_games(_TRIANGLE, start=(0, 0), memory=2**70),
        ValueError,
        "memory must be",
    ),
    "count_peg_games memory 1e30GB": (
        lambda: count_peg_games(_TRIANGLE, start=(0, 0), memory="1e30GB"),
        ValueError,
        "memory must be",
    ),
    "peg memory -1": (
        lambda: count_peg_solutions(_TRIANGLE, start=(0, 0), memory=-1),
        ValueError,
        "memory must be at least",
    ),
    # subproblems past what a plan holds
    "plan subproblems 2**64": (
        lambda: distributed.plan(count_queens, 8, subproblems=BIG),
        ValueError,
        "subproblems must be at least 1 and at most 16777216",
    ),
    "plan tours subproblems 10**100": (
        lambda: distributed.plan(count_tours, 5, 5, subproblems=HUGE),
        ValueError,
        "subproblems must be at least 1 and at most",
    ),
    "plan subproblems -1": (
        lambda: distributed.plan(count_queens, 8, subproblems=-1),
        ValueError,
        "subproblems must be at least 1",
    ),
    "plan subproblems float": (
        lambda: distributed.plan(count_queens, 8, subproblems=2.0),
        TypeError,
        "subproblems must be an integer",
    ),
    # checkpoints that keep nothing
    "queens checkpoint ''": (
        lambda: count_queens(8, checkpoint=""),
        ValueError,
        "checkpoint='' keeps nothing to resume from",
    ),
    "queens checkpoint :memory:": (
        lambda: count_queens(8, checkpoint=":memory:"),
        ValueError,
        "checkpoint=':memory:' keeps nothing to resume from",
    ),
    "queens checkpoint blank": (
        lambda: count_queens(8, checkpoint="  "),
        ValueError,
        "keeps nothing to resume from",
    ),
    "tours checkpoint ''": (
        lambda: count_tours(3, 4, checkpoint=""),
        ValueError,
        "checkpoint='' keeps nothing",
    ),
    "tours checkpoint :memory:": (
        lambda: count_tours(3, 4, checkpoint=Path(":memory:")),
        ValueError,
        "keeps nothing",
    ),
    "pairs checkpoint ''": (
        lambda: count_tours(5, 5, method="pairs", checkpoint=""),
        ValueError,
        "keeps nothing",
    ),
    "frontier checkpoint ''": (
        lambda: count_tours(3, 4, method="frontier", checkpoint=""),
        ValueError,
        "checkpoint='' keeps nothing",
    ),
    "peg checkpoint ''": (
        lambda: count_peg_solutions(_TRIANGLE, start=(0, 0), checkpoint=""),
        ValueError,
        "checkpoint='' keeps nothing",
    ),
    "peg checkpoint :memory:": (
        lambda: count_peg_solutions(_TRIANGLE, start=(0, 0), checkpoint=":memory:"),
        ValueError,
        "checkpoint=':memory:' keeps nothing",
    ),
    "peg budget checkpoint ''": (
        lambda: count_peg_solutions(_TRIANGLE, start=(0, 0), memory="1MiB", checkpoint=""),
        ValueError,
        "checkpoint='' keeps nothing",
    ),
    "plan count checkpoint ''": (
        lambda: _QUEENS_8.count(checkpoint=""),
        ValueError,
        "keeps nothing",
    ),
    # checkpoint directories that cannot be made (under a file)
    "queens checkpoint under a file": (
        lambda: count_queens(8, checkpoint=_UNDER_FILE),
        ValueError,
        f"checkpoint={_UNDER_FILE!r} cannot be made",
    ),
    "tours checkpoint under a file": (
        lambda: count_tours(3, 4, checkpoint=_UNDER_FILE),
        ValueError,
        "cannot be made",
    ),
    "peg checkpoint under a file": (
        lambda: count_peg_solutions(_TRIANGLE, start=(0, 0), checkpoint=_UNDER_FILE),
        ValueError,
        "cannot be made",
    ),
    # pictures
    "to_svg cell 1e308": (
        lambda: find_queens(8).to_svg(cell=1e308),
        ValueError,
        "cell must be a positive number of pixels, at most 1000, got 1e+308",
    ),
    "to_svg cell inf": (lambda: find_queens(8).to_svg(cell=math.inf), ValueError, "at most 1000"),
    "to_svg cell nan": (lambda: find_queens(8).to_svg(cell=math.nan), ValueError, "cell must"),
    "to_svg cell 10**400": (lambda: find_queens(8).to_svg(cell=10**400), ValueError, "cell must"),
    "tour to_svg cell 1e308": (
        lambda: find_tour(5, 5).to_svg(cell=1e308),
        ValueError,
        "cell must be a positive number of pixels, at most 1000",
    ),
    "tour to_svg numbers str": (
        lambda: find_tour(5, 5).to_svg(numbers="no"),
        TypeError,
        "numbers must be True or False",
    ),
    "peg board to_svg cell 1e308": (
        lambda: ENGLISH.to_svg(cell=1e308),
        ValueError,
        "cell must be a positive number of pixels, at most 1000",
    ),
    "peg game to_svg cell 1e308": (
        lambda: find_peg_solution(_TRIANGLE, start=(0, 0), finish=None).to_svg(cell=1e308),
        ValueError,
        "at most 1000",
    ),
    "peg game to_html cell 1e308": (
        lambda: find_peg_solution(_TRIANGLE, start=(0, 0), finish=None).to_html(cell=1e308),
        ValueError,
        "at most 1000",
    ),
    "peg game to_svg columns -2**64": (
        lambda: find_peg_solution(_TRIANGLE, start=(0, 0), finish=None).to_svg(columns=-BIG),
        ValueError,
        "columns must be at least 1",
    ),
    # plans and subproblems: public names, the argument and its range
    "plan tours timeout": (
        lambda: distributed.plan(count_tours, 5, 5, timeout=1),
        TypeError,
        "plan(count_tours, ...) takes no timeout=: give it to the plan's count()",
    ),
    "plan queens executor": (
        lambda: distributed.plan(count_queens, 8, executor=_executor()),
        TypeError,
        "plan(count_queens, ...) takes no executor=",
    ),
    "plan tours unknown argument": (
        lambda: distributed.plan(count_tours, 5, 5, colour="red"),
        TypeError,
        "plan(count_tours, ...): got an unexpected keyword argument 'colour'",
    ),
    "plan queens no n": (
        lambda: distributed.plan(count_queens),
        TypeError,
        "plan(count_queens, ...): missing a required argument: 'n'",
    ),
    "plan queens too many": (
        lambda: distributed.plan(count_queens, 8, 9),
        TypeError,
        "plan(count_queens, ...): too many positional arguments",
    ),
    "subproblem index -1": (
        lambda: count_subproblem(Subproblem(_QUEENS_8.family, _QUEENS_8.params, -1)),
        ValueError,
        f"Subproblem index -1 is not in this plan of {len(_QUEENS_8)} subproblems: "
        f"the index must be at least 0 and less than {len(_QUEENS_8)}",
    ),
    "subproblem index 2**64": (
        lambda: count_subproblem(Subproblem(_QUEENS_8.family, _QUEENS_8.params, BIG)),
        ValueError,
        "is not in this plan",
    ),
    "subproblem index float": (
        lambda: count_subproblem(Subproblem(_QUEENS_8.family, _QUEENS_8.params, 1.0)),
        TypeError,
        "Subproblem index must be an integer, got float",
    ),
    "subproblem params of another family": (
        lambda: count_subproblem(Subproblem("queens", ("x", -1), 0)),
        ValueError,
        "are not those of a queens plan",
    ),
    "subproblem unknown family": (
        lambda: count_subproblem(Subproblem("chess", (), 0)),
        ValueError,
        "unknown family of subproblems 'chess' (known: cover, queens, tour-pairs, tours)",
    ),
    "subproblems not a list": (
        lambda: count_subproblems(_QUEENS_8.subproblems[0]),
        TypeError,
        "batch must be a list of Subproblem objects",
    ),
    "subproblems of ints": (lambda: count_subproblems([1, 2]), TypeError, "Subproblem objects"),
    "subproblems deadline str": (
        lambda: count_subproblems(_QUEENS_8.subproblems[:1], deadline="soon"),
        TypeError,
        "deadline must be a number of seconds",
    ),
}

CATALOGUE = {**NUMBERS, **ARGUMENTS, **BOARDS, **MESSAGES}


@pytest.mark.parametrize("name", sorted(CATALOGUE))
def test_refused_clearly_and_the_interpreter_goes_on(name):
    call, error, phrase = CATALOGUE[name]
    refused(call, error, phrase)
    still_works()


# ---------------------------------------------------------------- accepted as they should be


def test_hostile_but_valid_values_work():
    assert count_tours(3, 4, timeout=1e308) == TOURS_3X4  # a timeout past any run
    assert count_tours(3, 4, timeout=fractions.Fraction(7, 2)) == TOURS_3X4
    assert count_tours(3, 4, start=[2, 0]) == count_tours(3, 4, start=(2, 0))
    assert count_tours(board="....\r\n....\r\n....  \n\n") == TOURS_3X4
    assert count_tours(board="." * 10**5) == oracle.count(1, 3)  # a long line: no tour
    assert is_tour([(BIG, 0)], 3, 4) is False
    assert is_queens_solution([BIG, 0]) is False and is_queens_solution([-1, 0]) is False
    assert PegBoard.parse(" " * 10**5 + "ooo") == PegBoard.rectangle(1, 3)
    assert PegBoard.parse("ooo\no\nooo") == PegBoard([(0, 0), (0, 1), (0, 2), (1, 0),
                                                      (2, 0), (2, 1), (2, 2)])  # fmt: skip


def test_numpy_values():
    np = pytest.importorskip("numpy")
    board = PegBoard.triangle(5)
    assert count_tours(np.int64(3), np.int8(4), threads=np.int32(2)) == TOURS_3X4
    assert count_tours(3, 4, start=np.array([2, 0]), timeout=np.float32(60)) == TOURS_3X4
    assert count_queens(np.uint8(8)) == count_queens(8)
    assert Placement(np.array([1, 3, 0, 2])) == Placement([1, 3, 0, 2])
    assert count_peg_solutions(board, start=np.int64(0), finish=None) == TRIANGLE_5
    assert board.normalize_square(np.array([4, 4])) == board.index((4, 4))
    game = PegSolution(PegBoard.rectangle(1, 3), np.array([[[0, 2], [0, 1], [0, 0]]]), start=0)
    assert game.finish == (0, 0) and all(type(x) is int for s in game[0] for x in s)
    refused(lambda: count_tours(np.float64(3), 4), TypeError, "rows must be an integer")
    refused(lambda: count_tours(3, 4, timeout=np.float64("nan")), ValueError, "finite")
    refused(lambda: count_tours(3, 4, closed=np.bool_(True)), TypeError, "closed must be")
    refused(lambda: count_tours(3, 4, threads=np.bool_(True)), TypeError, "threads")
    refused(lambda: count_tours(3, 4, start=np.array([[2, 0], [0, 0]])), TypeError, "start row")
    refused(lambda: count_tours(3, 4, start=np.array(5)), TypeError, "(row, col) pair")
    refused(lambda: KnightBoard(2, 2, np.ones(4, bool)), TypeError, "mask entries")
    refused(lambda: count_queens(np.int64(2**62)), ValueError, "up to 64")
    still_works()


# ---------------------------------------------------------------- any value, any argument

GARBAGE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=8),
    st.binary(max_size=4),
    st.tuples(st.integers(-5, 5), st.integers(-5, 5)),
    st.lists(st.integers(-(2**65), 2**65), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["start", "threads", "timeout", "closed", "method"]),
    value=GARBAGE,
)
@pytest.mark.slow
def test_any_value_for_a_count_argument(name, value):
    if name == "threads" and isinstance(value, int) and not isinstance(value, bool):
        value = value if value < 1 or value > 8 else 2  # no pool of a thousand threads
    try:
        result = count_tours(3, 4, **{name: value})
    except (TypeError, ValueError) as error:
        message = str(error)
        assert name in message and "\n" not in message, message
    except TimeoutError:
        assert name == "timeout"  # a valid, short timeout may run out
    else:
        assert result in TOURS_3X4_COUNTS


#: Tours of 3x4 from every start (and all), open and closed.
TOURS_3X4_COUNTS = {
    oracle.count(3, 4, None, start, closed)
    for start in [*oracle.squares(3, 4), "all"]
    for closed in (False, True)
}


@settings(max_examples=300, deadline=None)
@given(name=st.sampled_from(["start", "finish", "threads", "timeout", "method"]), value=GARBAGE)
@pytest.mark.slow
def test_any_value_for_a_peg_argument(name, value):
    if name == "threads" and isinstance(value, int) and not isinstance(value, bool):
        value = value if value < 1 or value > 8 else 2
    board = PegBoard.triangle(4)
    arguments: dict[str, Any] = {"start": (0, 0), "finish": None, name: value}
    try:
        result = count_peg_solutions(board, **arguments)
    except (TypeError, ValueError) as error:
        message = str(error)
        assert name in message and "\n" not in message, message
    except TimeoutError:
        assert name == "timeout"
    else:
        assert result in TRIANGLE_4_COUNTS


#: Games on the 4-row triangle from any start to any finish (or anywhere).
TRIANGLE_4_COUNTS = {
    peg_oracle.count_solutions(*peg_oracle.triangle(4), start, finish)
    for start in peg_oracle.triangle(4)[0]
    for finish in [None, *peg_oracle.triangle(4)[0]]
}


# ---------------------------------------------------------------- checkpoint files


def _ledger(tmp_path: Path) -> tuple[Path, Callable[[Path], int]]:
    """A finished count's SQLite ledger, and the call that made it (a peg
    count's layer files are damaged in engine/test_checkpoint_tamper.py)."""

    def count(path: Path) -> int:
        return count_queens(8, checkpoint=path)

    path = tmp_path / "queens"
    count(path)
    return path, count


def _tamper(path: Path, *statements: str) -> None:
    with sqlite3.connect(path / LEDGER_NAME) as db:
        for statement in statements:
            db.execute(statement)


@pytest.mark.parametrize(
    ("statements", "phrase"),
    [
        (["UPDATE results SET count = 'many'"], "is corrupt: count 'many'"),
        (["UPDATE results SET count = '" + "9" * 5000 + "'"], "is corrupt: count '999"),
        (["UPDATE results SET count = '-1'"], "is corrupt"),
        (["UPDATE results SET count = '１２'"], "is corrupt"),  # unicode digits
        (["UPDATE results SET idx = idx + 100000"], "is corrupt: subproblem 1000"),
        (["DELETE FROM meta WHERE key = 'format'"], "not a solvers checkpoint (format None)"),
        (["UPDATE meta SET value = 'solvers-checkpoint/1' WHERE key = 'format'"], "another format"),
        (["UPDATE meta SET value = 'cards/1' WHERE key = 'format'"], "not a solvers checkpoint"),
        (["UPDATE meta SET value = '{}' WHERE key = 'problem'"], "another problem"),
        (["UPDATE meta SET value = 'x' WHERE key = 'subproblems'"], "another split"),
        (["DROP TABLE results", "CREATE TABLE results(x)"], "not a readable solvers checkpoint"),
        (["DROP TABLE meta", "CREATE TABLE meta(a, b, c)"], "not a readable solvers checkpoint"),
        (["DROP TABLE runs"], "not a solvers checkpoint"),
    ],
)
def test_a_damaged_checkpoint_is_refused(tmp_path, statements, phrase):
    path, count = _ledger(tmp_path)
    _tamper(path, *statements)
    refused(lambda: count(path), ValueError, phrase)
    still_works()


def test_checkpoint_files_that_are_not_checkpoints(tmp_path):
    _, count = _ledger(tmp_path)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(bytes(range(256)) * 64)
    refused(lambda: count(junk), ValueError, "not a readable solvers checkpoint")
    header = tmp_path / "header.sqlite"
    header.write_bytes(b"SQLite format 3\0" + b"\xff" * 200)
    with pytest.warns(DeprecationWarning, match="a checkpoint file is deprecated"):
        refused(lambda: count(header), ValueError, "not a readable solvers checkpoint")
    still_works()


def test_a_checkpoint_is_a_directory_made_in_an_existing_folder(tmp_path):
    _, count = _ledger(tmp_path)
    assert count(tmp_path / "such") == count(tmp_path / "queens")
    assert (tmp_path / "such" / LEDGER_NAME).is_file()
    assert count_queens(8, checkpoint=tmp_path / "q8") == 92
    made = tmp_path / "here"
    assert count_tours(3, 4, method="frontier", checkpoint=made) == TOURS_3X4
    assert made.is_dir()
    # Only the directory itself is made: a missing folder is a mistyped path.
    far = tmp_path / "no" / "such"
    for call in (
        lambda: count_queens(8, checkpoint=far),
        lambda: count_tours(3, 4, checkpoint=far),
        lambda: count_tours(3, 4, method="frontier", checkpoint=far),
        lambda: count(far),
    ):
        refused(call, ValueError, f"its folder {str(tmp_path / 'no')!r} does not exist")
    assert not (tmp_path / "no").exists()
    refused(lambda: count_queens(8, checkpoint=_UNDER_FILE), ValueError, "cannot be made")
    still_works()


def test_a_truncated_ledger_is_refused(tmp_path):
    path, count = _ledger(tmp_path)
    ledger = path / LEDGER_NAME
    data = ledger.read_bytes()
    for extra in path.glob(f"{LEDGER_NAME}-*"):
        extra.unlink()
    ledger.write_bytes(data[: len(data) // 3])
    refused(lambda: count(path), ValueError, "checkpoint")
    still_works()


def test_another_family_s_checkpoint_is_refused(tmp_path):
    queens, _ = _ledger(tmp_path)
    refused(lambda: count_tours(3, 4, checkpoint=queens), ValueError, "another problem")
    board = PegBoard.triangle(5)
    refused(
        lambda: count_peg_solutions(board, start=(0, 0), checkpoint=queens),
        ValueError,
        "holds an SQLite ledger",
    )
    queens_file = tmp_path / "q8.sqlite"
    assert count_queens(8, checkpoint=queens_file) == count_queens(8)
    refused(
        lambda: count_peg_solutions(board, start=(0, 0), checkpoint=queens_file),
        ValueError,
        "holds an SQLite ledger",
    )
    peg = tmp_path / "peg"
    count_peg_solutions(board, start=(0, 0), spill=False, checkpoint=peg)
    refused(lambda: count_queens(8, checkpoint=peg), ValueError, "holds the layers of another")
    still_works()


def test_an_empty_file_is_a_new_checkpoint(tmp_path):
    # nothing to lose in an empty file: it becomes the checkpoint
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    with pytest.warns(DeprecationWarning, match="give a directory"):
        assert count_queens(8, checkpoint=empty) == count_queens(8)
    with pytest.warns(DeprecationWarning, match="give a directory"):
        assert count_queens(8, checkpoint=empty) == count_queens(8)


# ------------------------------------------------ threads at the edge of memory

#: A child that holds half-read tour generators (a thread each) until the
#: address space runs out, then counts: every call either answers or raises
#: MemoryError naming what could not be started; the interpreter never aborts
#: (exit 134: "memory allocation of 36 bytes failed", glibc's "failed to
#: register TLS destructor").
EDGE_CHILD = """
import sys
from solvers import count_queens, count_tours, tours
held = []
for i in range(40):
    try:
        g = tours(6, 6)
        next(g)
    except MemoryError as e:
        assert "could not start" in str(e), e
        print("generators", i)
        break
    held.append(g)
for call in (
    lambda: count_tours(6, 6, start=(0, 0), closed=True, threads=8),
    lambda: count_tours(5, 6, start="all"),
    lambda: count_queens(9, threads=4),
):
    try:
        print(call())
    except MemoryError as e:
        assert "could not start" in str(e) or "not enough memory" in str(e), e
        print("MemoryError")
del held
try:
    print(count_tours(3, 4))
except MemoryError as e:
    # glibc keeps the arenas of ended threads: the room may not come back.
    assert "could not start" in str(e), e
    print("MemoryError")
"""


def _run_at_the_edge(limit: int) -> subprocess.CompletedProcess[str]:
    import resource

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return subprocess.run(
        [sys.executable, "-c", EDGE_CHILD],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=cap,
    )


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS on Linux")
def test_threads_at_the_edge_of_the_address_space_never_abort():
    # 12 runs, the limit varied so that the room runs out at different points
    # (the threads race for the room, so each run is a different one).
    points = (0.6, 0.65, 0.7, 0.75, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.5, 2.0)
    limits = [int(s * 10**9) for s in points]
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(_run_at_the_edge, limits))
    for limit, run in zip(limits, runs, strict=True):
        assert run.returncode == 0, (limit, run.returncode, run.stdout, run.stderr[-2000:])
        assert run.stdout.split()[-1] in (str(TOURS_3X4), "MemoryError"), (limit, run.stdout)
        assert "panicked" not in run.stderr and "memory allocation" not in run.stderr


def test_the_subproblem_limit_is_the_core_s():
    # subproblems= is checked in Python against the Rust core's MAX_PLAN_TASKS
    most = _validate.MAX_SUBPROBLEMS
    assert distributed.plan(count_queens, 8, subproblems=most).count() == count_queens(8)
    for build in (
        lambda: _core.queens_plan(8, False, most + 1),
        lambda: _core.tours_plan((3, 4, None), (2, 0), False, most + 1),
    ):
        with pytest.raises(ValueError, match=f"a plan holds at most {most} subproblems"):
            build()
    refused(lambda: distributed.plan(count_tours, 3, 4, subproblems=most + 1), ValueError, "2**24")


# ---------------------------------------------------------------- issue 27: results that stay put


def test_peg_games_are_hashable_and_immutable():
    games = count_peg_games(_TRIANGLE, start=(0, 0))
    again = count_peg_games(_TRIANGLE, start=(0, 0))
    assert hash(games) == hash(again) and games == again and len({games, again}) == 1
    won, total = games.won, games.total
    for change in (
        lambda: games.dead_end_table.__setitem__(1, 0),
        lambda: games.dead_end_table.__delitem__(1),
        lambda: games.dead_end_table.update({1: 0}),
        lambda: games.dead_end_table.pop(1),
        lambda: games.dead_end_table.popitem(),
        lambda: games.dead_end_table.setdefault(99, 1),
        lambda: games.dead_end_table.clear(),
        lambda: games.wins.__setitem__((0, 0), 10**9),
    ):
        refused(change, TypeError, "the tables of a PegGames are read-only")
    with pytest.raises(AttributeError):
        games.shortest_stuck = 0  # type: ignore[misc]
    assert (games.won, games.total) == (won, total)
    # still a mapping that reads, compares and copies as a dict
    assert games.dead_end_table[1] == won and dict(games.dead_end_table) == games.dead_end_table
    assert repr(games.dead_end_table).startswith("{")
    copy = dict(games.wins)
    copy[(0, 0)] = 0
    assert games.wins != copy
    # made by hand, with dicts, it is as read-only
    by_hand = PegGames(_TRIANGLE, (0, 0), {1: 2}, {(0, 0): 2}, None, None)
    refused(lambda: by_hand.wins.__setitem__((0, 0), 3), TypeError, "read-only")
    assert hash(by_hand) == hash(PegGames(_TRIANGLE, (0, 0), {1: 2}, {(0, 0): 2}, None, None))
    assert pickle.loads(pickle.dumps(games)) == games
    still_works()


@settings(max_examples=200, deadline=None)
@given(value=GARBAGE)
def test_any_value_for_a_memory_budget(value):
    try:
        result = count_peg_games(PegBoard.triangle(4), start=(0, 0), memory=value).total
    except (TypeError, ValueError) as error:
        message = str(error)
        assert "memory" in message and "\n" not in message, message
        # The value given is echoed; a leak is in the rest of the message
        # (Hypothesis draws strings from the package's own text, "_core" among them).
        rest = message.replace(repr(value), "")
        assert not any(leak in rest for leak in LEAKS), message
    else:
        assert result == TRIANGLE_4_GAMES


TRIANGLE_4_GAMES = count_peg_games(PegBoard.triangle(4), start=(0, 0)).total


# ---------------------------------------------------------------- issue 27: the command line


def _binary_board(tmp_path: Path) -> str:
    path = tmp_path / "binary.txt"
    path.write_bytes(b"\xff\xfe..\n....\n")
    return str(path)


@pytest.mark.parametrize(
    ("argv", "phrase"),
    [
        (["tours", "5", "5", "--method", "frontier", "--memory", "1e30GB"], "memory must be"),
        (["tours", "5", "5", "--method", "pairs", "--memory", "1e30GB"], "at most 2**60 bytes"),
        (["peg", "triangle:5", "--start", "0,0", "--memory", "1e30GB"], "at most 2**60 bytes"),
        (["peg", "english", "--every-game", "--memory", "2000000TiB"], "at most 2**60 bytes"),
        (["queens", "8", "--checkpoint", ""], "checkpoint='' keeps nothing"),
        (["queens", "8", "--checkpoint", ":memory:"], "checkpoint=':memory:' keeps nothing"),
        (["tours", "3", "4", "--checkpoint", ""], "keeps nothing"),
        (["tours", "3", "4", "--method", "frontier", "--checkpoint", ""], "keeps nothing"),
        (["peg", "triangle:5", "--start", "0,0", "--checkpoint", ""], "keeps nothing"),
        (["queens", "8", "--checkpoint", _UNDER_FILE], "cannot be made"),
        (["peg", "triangle:²"], "triangle:N needs a whole number N (digits 0-9), got '²'"),
        (["peg", "diamond:٣"], "diamond:N needs a whole number N"),
        (["peg", "triangle:" + "9" * 5000], "triangle:N needs a whole number N"),
        (["peg", "rectangle:²x3"], "rectangle:RxC needs two whole numbers"),
        (["peg", "english", "--triangle"], "--triangle does not apply to the named board"),
        (["peg", "triangle:5", "--triangle"], "--triangle does not apply"),
        (["peg", "rectangle:3x5", "--triangle", "--start", "0,0"], "--triangle does not apply"),
    ],
)
def test_the_command_line_names_the_argument(capsys, argv, phrase):
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    err = captured.err
    assert err.startswith("solvers: error: ") and err.count("\n") == 1, err
    assert phrase in err, err
    assert not any(leak in err for leak in LEAKS), err


def test_the_command_line_reads_only_text_boards(capsys, tmp_path):
    board = _binary_board(tmp_path)
    why = "not UTF-8 text (byte 0xff at offset 0)"
    assert cli.main(["tours", "--board", board]) == 2
    assert capsys.readouterr().err == f"solvers: error: cannot read --board {board}: {why}\n"
    assert cli.main(["peg", board]) == 2
    assert capsys.readouterr().err == f"solvers: error: cannot read {board}: {why}\n"
