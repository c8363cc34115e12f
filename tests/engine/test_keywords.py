"""One meaning per keyword, the same everywhere (issue 28): every public count
function and every optional keyword, on tiny problems.

A keyword several functions share has the same annotation and default in
each; for every family and method, each optional keyword the method does
not take is refused in the common words, and each one it takes counts the
same answer as the plain call.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import cover_oracle
import pytest
from solvers import (
    ExactCover,
    PegBoard,
    RunOptions,
    count_covers,
    count_peg_games,
    count_peg_positions,
    count_peg_solutions,
    count_queens,
    count_tours,
    covers,
    find_cover,
    find_peg_solution,
    find_queens,
    find_tour,
    finish_counts,
    peg_solutions,
    queens,
    tours,
)
from solvers._engine import _args
from solvers._engine._methods import OPTIONS, Method
from solvers._engine._run import NAMES
from solvers.cover.methods import METHODS as COVER_METHODS
from solvers.knights.methods import METHODS as TOUR_METHODS
from solvers.nqueens.methods import METHODS as QUEEN_METHODS
from solvers.peg.methods import METHODS as PEG_METHODS

#: Every public function that takes the counts' keywords.
FUNCTIONS = [
    count_tours,
    count_queens,
    count_peg_solutions,
    count_peg_games,
    finish_counts,
    count_covers,
]

#: The keywords of how a count runs (not of the problem, such as ``start``).
RUN_KEYWORDS = ("method", "threads", "progress", "timeout", *OPTIONS)

_RECTANGLE = PegBoard.rectangle(3, 4)

#: The domino tilings of a 2 x 6 strip, column by column, and their count by the oracle.
_STRIP = [[((c, 0), None), ((c, 1), None)] for c in range(6)] + [
    [((c, r), None), ((c + 1, r), None)] for c in range(5) for r in range(2)
]
_CELLS = [(c, r) for c in range(6) for r in range(2)]

#: Per family: the function, its methods, a tiny problem and its answer.
FAMILIES: dict[str, tuple[Callable[..., int], tuple[Method, ...], dict[str, Any], int]] = {
    "tours": (count_tours, TOUR_METHODS, {"rows": 5, "cols": 5, "start": (0, 0)}, 304),
    "queens": (count_queens, QUEEN_METHODS, {"n": 8}, 92),
    "peg": (
        count_peg_solutions,
        PEG_METHODS,
        {"board": _RECTANGLE, "start": (0, 0), "finish": (0, 3)},
        432,
    ),
    "cover": (
        count_covers,
        COVER_METHODS,
        {"problem": ExactCover(_STRIP, primary=_CELLS, colors=True)},
        len(cover_oracle.all_covers(_STRIP, _CELLS)),
    ),
}

CASES = [
    (family, method.name, keyword)
    for family, (_, methods, _, _) in FAMILIES.items()
    for method in methods
    for keyword in OPTIONS
]


@pytest.fixture(scope="module")
def pool():
    with ThreadPoolExecutor(2) as executor:
        yield executor


def value_of(keyword: str, pool: ThreadPoolExecutor, tmp_path: Path) -> dict[str, Any]:
    """A valid value for ``keyword`` (``parts`` comes with the executor it needs)."""
    return {
        "executor": {"executor": pool},
        "parts": {"executor": pool, "parts": 2},
        "checkpoint": {"checkpoint": tmp_path / "checkpoint"},
        "memory": {"memory": "1MiB"},
        "spill": {"spill": tmp_path},
    }[keyword]


#: Every public count, lister and finder: each takes the run options as ``**run``.
VERBS = [
    *FUNCTIONS,
    count_peg_positions,
    tours,
    queens,
    peg_solutions,
    covers,
    find_tour,
    find_queens,
    find_peg_solution,
    find_cover,
]


@pytest.mark.parametrize("function", VERBS, ids=lambda f: f.__name__)
def test_every_verb_takes_the_run_options_one_way(function):
    parameters = inspect.signature(function).parameters
    # the run options are said once, in RunKeywords, never re-declared
    assert not set(NAMES) & set(parameters), function.__name__
    run = parameters["run"]
    assert run.kind is inspect.Parameter.VAR_KEYWORD
    assert run.annotation == "Unpack[RunKeywords]"
    if function.__name__.startswith("count_") or function is finish_counts:
        assert parameters["method"].default == "auto", function.__name__
    if function.__name__.startswith("find_"):
        assert parameters["deterministic"].default is False, function.__name__


def test_an_unknown_run_option_is_a_type_error_naming_them():
    with pytest.raises(
        TypeError, match=r"count_queens\(\) got an unexpected keyword argument 'thread'"
    ):
        count_queens(8, thread=2)
    with pytest.raises(TypeError, match="options must be a solvers.RunOptions"):
        count_queens(8, options={"threads": 2})


def test_run_options_made_once_serve_every_call():
    fast = RunOptions(threads=2, timeout=60)
    assert count_queens(8, options=fast) == 92
    assert count_tours(5, 5, start=(0, 0), options=fast) == 304
    # a keyword beside the object wins
    assert count_queens(6, options=fast, threads=1) == 4
    with pytest.raises(ValueError, match="threads must be"):
        RunOptions(threads=0)
    with pytest.raises(ValueError, match="not with memory="):
        RunOptions(memory="1GB", spill=False)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: list(tours(3, 4, progress=True)),
            r"tours does not take progress= \(it takes: threads, timeout\)",
        ),
        (
            lambda: find_tour(5, 5, memory="1GB"),
            r"find_tour does not take memory= \(it takes: threads, timeout\)",
        ),
        (
            lambda: find_queens(8, threads=2),
            r"find_queens\(method='construct'\) does not take threads=",
        ),
        (
            lambda: count_peg_positions(_RECTANGLE, start=(0, 0), memory="1GB"),
            "does not take memory=",
        ),
    ],
)
def test_what_a_verb_does_not_take_is_refused_in_the_one_message(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_listers_stop_at_their_timeout():
    with pytest.raises(TimeoutError):
        for _ in tours(6, 6, start="all", timeout=0.2):
            pass


@pytest.mark.parametrize(("family", "method", "keyword"), CASES)
def test_each_keyword_is_counted_or_refused_in_the_common_words(
    family, method, keyword, pool, tmp_path
):
    function, methods, problem, answer = FAMILIES[family]
    chosen = next(m for m in methods if m.name == method)
    given = value_of(keyword, pool, tmp_path)
    call = {**problem, "method": method, **given}
    if keyword in chosen.takes:
        assert function(**call) == answer
        if keyword == "checkpoint":
            assert function(**call) == answer  # the rerun, from the checkpoint
        return
    name = function.__name__
    # the first keyword given that the method refuses (parts comes with an
    # executor, which a method may refuse too)
    keyword = next(k for k in OPTIONS if k in given and k not in chosen.takes)
    takers = [m.name for m in methods if keyword in m.takes]
    where = (
        f"the methods that take {keyword}=: {', '.join(takers)}"
        if takers
        else f"no method of {name} takes {keyword}="
    )
    words = (
        rf"^{name}\(method='{method}'\) does not take {keyword}= "
        rf"\(it takes: [a-z, ]+\); {re.escape(where)}$"
    )
    with pytest.raises(ValueError, match=words):
        function(**call)


@pytest.mark.parametrize("family", FAMILIES)
def test_keywords_a_method_takes_apart_are_refused_together(family, pool, tmp_path):
    function, methods, problem, _ = FAMILIES[family]
    for method in methods:
        for pair in method.not_together:
            given = {}
            for keyword in pair:
                given.update(value_of(keyword, pool, tmp_path))
            first, second = (k for k in OPTIONS if k in pair)
            words = (
                rf"^{function.__name__}\(method='{method.name}'\) does not take "
                rf"{first}= and {second}= together$"
            )
            with pytest.raises(ValueError, match=words):
                function(**problem, method=method.name, **given)


@pytest.mark.parametrize("family", FAMILIES)
def test_parts_needs_an_executor(family, tmp_path):
    function, methods, problem, _ = FAMILIES[family]
    for method in methods:
        if "parts" in method.takes:
            words = (
                rf"^{function.__name__}\(method='{method.name}'\) takes parts= only with executor=$"
            )
            with pytest.raises(ValueError, match=words):
                function(**problem, method=method.name, parts=2)


@pytest.mark.parametrize("family", FAMILIES)
def test_auto_takes_every_keyword_some_method_takes(family, pool, tmp_path):
    function, methods, problem, answer = FAMILIES[family]
    for keyword in OPTIONS:
        if any(keyword in m.takes for m in methods):
            given = value_of(keyword, pool, tmp_path / keyword)
            (tmp_path / keyword).mkdir()
            assert function(**problem, **given) == answer, keyword


def test_auto_counts_past_the_search_with_a_checkpoint(tmp_path):
    # The search takes a checkpoint but cannot count 4x40: the frontier can.
    assert count_tours(4, 40, start=(3, 0), checkpoint=tmp_path) == count_tours(4, 40, start=(3, 0))


def test_finish_counts_refuses_in_the_same_words(pool):
    with pytest.raises(
        ValueError, match=r"^finish_counts does not take executor= and memory= together$"
    ):
        finish_counts(_RECTANGLE, start=(0, 0), executor=pool, memory="1MiB")


@pytest.mark.parametrize("family", FAMILIES)
def test_an_old_checkpoint_file_still_resumes_with_a_warning(family, tmp_path):
    function, _, problem, answer = FAMILIES[family]
    old = tmp_path / "old.sqlite"
    old.touch()  # a file, the old form (an empty one starts afresh)
    if family == "peg":  # a layered count: its checkpoint is a directory of layer files
        with pytest.raises(ValueError, match="is a file, not a directory"):
            function(**problem, checkpoint=old)
        return
    for _ in range(2):  # made, then resumed
        with pytest.warns(DeprecationWarning, match="give a directory"):
            assert function(**problem, checkpoint=old) == answer


def test_an_old_peg_ledger_is_refused_with_the_reason(tmp_path):
    # Before 0.2 a peg count kept in memory saved its layers in a ledger.
    function, _, problem, answer = FAMILIES["peg"]
    count_queens(8, checkpoint=tmp_path / "old")  # a ledger, as such a count left it
    for path in (tmp_path / "old", tmp_path / "old" / _args.LEDGER_NAME):
        with pytest.raises(ValueError, match="holds an SQLite ledger .* before 0.2"):
            function(**problem, checkpoint=path)
    assert function(**problem, checkpoint=tmp_path / "new") == answer


def test_a_directory_of_layers_is_no_ledger(tmp_path):
    # the frontier's layers and the search's ledger never share a directory
    assert count_tours(5, 5, start=(0, 0), method="frontier", checkpoint=tmp_path) == 304
    with pytest.raises(ValueError, match="holds the layers of another count"):
        count_tours(5, 5, start=(0, 0), method="search", checkpoint=tmp_path)
