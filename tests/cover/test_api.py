"""The exact-cover API (count_covers, covers, find_cover) against the brute
force of ``cover_oracle.py``: random tiny problems with and without
secondary items and colours, every method and thread count, executors,
checkpoints, timeouts, and published counts (Fibonacci for the domino
tilings of a 2 x n strip)."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor

import cover_oracle
import pytest
import solvers
from cover_oracle import raw_problems
from hypothesis import given, settings
from hypothesis import strategies as st
from solvers import ExactCover, TilingPuzzle, count_covers, covers, find_cover, is_cover
from solvers.distributed import plan


def build(raw):
    """The package's problem for the oracle's ``raw`` one (colours as 2-tuples)."""
    options, primary, secondary = raw
    return ExactCover(options, primary=primary, secondary=secondary, colors=True)


#: Random problems: plain (primary items only), with secondary items, with colours.
PROBLEMS = st.one_of(
    raw_problems(colours=False, secondary_items=0, max_options=11),
    raw_problems(colours=False),
    raw_problems(),
)

EXAMPLE = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])


def strip(length: int) -> ExactCover:
    """The domino tilings of a 2 x ``length`` strip, cells column by column:
    F(length + 1) of them (Fibonacci, F(1) = F(2) = 1)."""
    cells = [(col, row) for col in range(length) for row in range(2)]
    options = [((col, 0), (col, 1)) for col in range(length)]
    options += [((col, row), (col + 1, row)) for col in range(length - 1) for row in range(2)]
    return ExactCover(options, primary=cells)


def fibonacci(n: int) -> int:
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a


# ---------------------------------------------------------------- against the oracle


@settings(max_examples=60, deadline=None)
@given(PROBLEMS)
def test_every_method_counts_what_the_brute_force_counts(raw):
    expected = len(cover_oracle.all_covers(raw[0], raw[1]))
    problem = build(raw)
    assert count_covers(problem) == expected
    for threads in (1, 2):
        assert count_covers(problem, method="search", threads=threads) == expected
        assert count_covers(problem, method="memo", threads=threads) == expected


@settings(max_examples=60, deadline=None)
@given(PROBLEMS, st.integers(1, 4))
def test_a_limit_counts_up_to_it_on_every_method_and_thread_count(raw, limit):
    problem = build(raw)
    want = min(len(cover_oracle.all_covers(raw[0], raw[1])), limit)
    for method, threads in [("search", 1), ("search", 2), ("search", 8), ("memo", 1)]:
        got = count_covers(problem, method=method, threads=threads, limit=limit)
        assert got == want, (method, threads)


def test_a_limit_stops_a_count_of_billions_at_once():
    # 2 x 60 dominoes: Fibonacci(61) = 2,504,730,781,961 tilings; the search
    # stops at the limit (a hang guard, not a timing: without the limit the
    # count would take hours, and the timeout would raise).
    problem = strip(60)
    for threads in (1, 2):
        assert count_covers(problem, method="search", threads=threads, limit=3, timeout=30) == 3
    assert count_covers(problem, method="memo", limit=10**20) == fibonacci(61)


def test_limit_is_checked_and_is_for_a_count_here(tmp_path):
    problem = strip(4)
    for bad, error in [(0, ValueError), (-1, ValueError), (1.5, TypeError), ("2", TypeError)]:
        with pytest.raises(error, match="limit"):
            count_covers(problem, limit=bad)
    with pytest.raises(ValueError, match="limit= for a count in this process"):
        count_covers(problem, limit=2, checkpoint=tmp_path)


@settings(max_examples=60, deadline=None)
@given(PROBLEMS)
def test_covers_come_in_the_documented_order_for_every_thread_count(raw):
    expected = cover_oracle.search_order(raw[0], raw[1])
    assert sorted(expected) == cover_oracle.all_covers(raw[0], raw[1])  # the oracles agree
    problem = build(raw)
    for threads in (1, 2, 8):
        assert list(covers(problem, threads=threads)) == expected


@settings(max_examples=60, deadline=None)
@given(PROBLEMS)
def test_find_cover_finds_a_cover_or_says_there_is_none(raw):
    every = cover_oracle.search_order(raw[0], raw[1])
    problem = build(raw)
    for threads in (1, 2, 8):
        found = find_cover(problem, threads=threads)
        assert (found is None) == (not every)
        assert found is None or (found in every and is_cover(problem, found))
        first = find_cover(problem, threads=threads, deterministic=True)
        assert first == (every[0] if every else None)


@settings(max_examples=20, deadline=None)
@given(PROBLEMS)
def test_a_plan_counts_the_same_on_an_executor_and_from_a_checkpoint(raw):
    expected = len(cover_oracle.all_covers(raw[0], raw[1]))
    problem = build(raw)
    with ThreadPoolExecutor(2) as pool:
        assert count_covers(problem, executor=pool, threads=1) == expected
    assert plan(count_covers, problem, subproblems=8).count() == expected


def test_a_checkpoint_is_resumed(tmp_path):
    assert count_covers(strip(12), checkpoint=tmp_path / "c") == fibonacci(13)
    assert count_covers(strip(12), checkpoint=tmp_path / "c") == fibonacci(13)
    # another problem is refused in that checkpoint
    with pytest.raises(ValueError):
        count_covers(strip(11), checkpoint=tmp_path / "c")


def test_worker_processes_count_the_pickled_problem(processes):
    coloured = ExactCover(
        [("a", ("x", 1)), ("b", ("x", 1)), ("a", "b"), ("c", ("x", 2)), ("c",)],
        secondary=["x"],
        colors=True,
    )
    for problem in (strip(14), coloured):
        assert count_covers(problem, executor=processes) == count_covers(problem, threads=1)


# ---------------------------------------------------------------- published counts, scale


def test_the_strips_count_fibonacci_by_both_methods():
    for length in range(1, 16):
        assert count_covers(strip(length), method="search") == fibonacci(length + 1)
        assert count_covers(strip(length), method="memo") == fibonacci(length + 1)


def test_the_memo_counts_past_any_enumeration_exactly():
    assert count_covers(strip(180), method="memo") == fibonacci(181)  # about 1.1e37
    assert count_covers(strip(180)) == fibonacci(181)  # "auto" picks the memo here
    with pytest.raises(OverflowError):
        count_covers(strip(190), method="memo")  # F(191) > 2**128


def test_the_memo_keeps_to_its_memory_and_its_timeout():
    tilings = TilingPuzzle((12, 12), "domino", each="any").exact_cover()
    want = 53060477521960000  # OEIS A004003(6)
    for threads in (1, 2, 8):
        assert count_covers(tilings, method="memo", threads=threads, memory="64MiB") == want
    wider = TilingPuzzle((16, 16), "domino", each="any").exact_cover()
    with pytest.raises(MemoryError, match="memo"):
        count_covers(wider, method="memo", memory="1MiB")  # 2**16 states a layer
    widest = TilingPuzzle((20, 20), "domino", each="any").exact_cover()
    with pytest.raises(TimeoutError):
        count_covers(widest, method="memo", threads=2, timeout=0.2)


def test_a_count_with_a_progress_bar_counts_the_same(capsys):
    assert count_covers(strip(24), method="search", progress=True, threads=2) == fibonacci(25)
    assert "\n" not in capsys.readouterr().out  # the bar, if any, goes to stderr


def test_a_long_search_stops_at_its_timeout():
    with pytest.raises(TimeoutError):
        count_covers(strip(90), method="search", timeout=0.05)
    with pytest.raises(TimeoutError):
        list(covers(strip(90), timeout=0.05))


def test_a_listing_stops_when_closed():
    listing = covers(strip(90), threads=2)
    first = list(itertools.islice(listing, 3))
    listing.close()
    assert len(first) == 3 and all(is_cover(strip(90), c) for c in first)


def test_problems_without_covers_count_zero():
    assert count_covers(ExactCover([("a",)], primary=["a", "b"])) == 0
    assert count_covers(ExactCover([], primary=["a"])) == 0
    assert list(covers(ExactCover([], primary=["a"]))) == []
    assert find_cover(ExactCover([], primary=["a"])) is None


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize("function", [count_covers, covers, find_cover])
def test_the_problem_must_be_an_exact_cover(function):
    with pytest.raises(TypeError, match="must be an ExactCover"):
        function([("a",)])


def test_bad_keywords_are_refused():
    with pytest.raises(ValueError, match="method must be one of 'auto', 'search', 'memo'"):
        count_covers(EXAMPLE, method="dlx")
    with pytest.raises(ValueError, match="threads must be at least 1"):
        count_covers(EXAMPLE, threads=0)
    with pytest.raises(TypeError, match="timeout must be a number"):
        list(covers(EXAMPLE, timeout="1"))
    with pytest.raises(TypeError, match="deterministic must be True or False"):
        find_cover(EXAMPLE, deterministic=1)
    with pytest.raises(
        ValueError, match=r"count_covers\(method='memo'\) does not take checkpoint="
    ):
        count_covers(EXAMPLE, method="memo", checkpoint="somewhere")
    with pytest.raises(ValueError, match="method must be 'auto' or 'search'"):
        plan(count_covers, EXAMPLE, method="memo")


def test_the_package_exports_the_four_names_and_the_problem():
    for name in ("ExactCover", "count_covers", "covers", "find_cover", "is_cover"):
        assert name in solvers.__all__ and getattr(solvers, name) is getattr(solvers.cover, name)


# ---------------------------------------------------------------- hostile input

GARBAGE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.binary(max_size=4),
    st.lists(st.integers(-3, 3), max_size=3),
    st.dictionaries(st.text(max_size=2), st.integers(), max_size=2),
)

#: Nested values where options belong: lists of lists (and worse) of anything.
OPTION_GARBAGE = st.recursive(GARBAGE, lambda inner: st.lists(inner, max_size=3), max_leaves=12)


def _one_line_refusal(call):
    try:
        return call()
    except (TypeError, ValueError) as error:
        assert str(error) and "\n" not in str(error), str(error)
        return None


@settings(max_examples=200, deadline=None)
@given(
    options=OPTION_GARBAGE,
    primary=st.one_of(st.none(), OPTION_GARBAGE),
    secondary=st.one_of(st.just(()), OPTION_GARBAGE),
    colors=st.one_of(st.booleans(), GARBAGE),
)
def test_any_problem_is_taken_or_refused_in_one_line(options, primary, secondary, colors):
    problem = _one_line_refusal(
        lambda: ExactCover(options, primary=primary, secondary=secondary, colors=colors)
    )
    if problem is not None:  # what is taken counts like the oracle
        raw = [list(problem.option(k)) for k in range(len(problem))]
        if len(raw) <= 10:
            expected = len(cover_oracle.all_covers(raw, problem.primary))
            assert count_covers(problem, threads=1) == expected


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=" \t\n|:abxy", max_size=40))
def test_any_dlx_text_is_read_or_refused_and_what_is_read_round_trips(text):
    problem = _one_line_refusal(lambda: ExactCover.from_dlx(text))
    if problem is not None:
        assert ExactCover.from_dlx(problem.to_dlx()) == problem


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(["method", "threads", "progress", "timeout"]), value=GARBAGE)
def test_any_value_for_a_count_argument(name, value):
    if name == "threads" and isinstance(value, int) and not isinstance(value, bool):
        value = value if value < 1 or value > 8 else 2  # no pool of a thousand threads
    try:
        result = count_covers(EXAMPLE, **{name: value})
    except (TypeError, ValueError) as error:
        assert name in str(error) and "\n" not in str(error), str(error)
    except TimeoutError:
        assert name == "timeout"  # a valid, short timeout may run out
    else:
        assert result == 3
