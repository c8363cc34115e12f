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
    count_covers,
    count_peg_games,
    count_peg_solutions,
    count_queens,
    count_tours,
    finish_counts,
)
from solvers._engine._methods import OPTIONS, Method
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


def test_a_shared_keyword_reads_the_same_everywhere():
    seen: dict[str, tuple[str, Any, str]] = {}
    for function in FUNCTIONS:
        for name, parameter in inspect.signature(function).parameters.items():
            if name not in RUN_KEYWORDS:
                continue
            assert parameter.kind is inspect.Parameter.KEYWORD_ONLY, (function, name)
            shape = (str(parameter.annotation), parameter.default)
            first = seen.setdefault(name, (*shape, function.__name__))
            assert shape == first[:2], f"{function.__name__}({name}=) differs from {first[2]}"
    # the families' counts take every keyword, with "auto" the default method
    for function, _, _, _ in FAMILIES.values():
        assert set(RUN_KEYWORDS) <= set(inspect.signature(function).parameters), function
    assert seen["method"][1] == "auto"


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
    for _ in range(2):  # made, then resumed
        with pytest.warns(DeprecationWarning, match="give a directory"):
            assert function(**problem, checkpoint=old) == answer


def test_a_directory_of_layers_is_no_ledger(tmp_path):
    # the frontier's layers and the search's ledger never share a directory
    assert count_tours(5, 5, start=(0, 0), method="frontier", checkpoint=tmp_path) == 304
    with pytest.raises(ValueError, match="holds the layers of another count"):
        count_tours(5, 5, start=(0, 0), method="search", checkpoint=tmp_path)
