"""The raw exact-cover bindings of ``solvers._core`` against a brute force
over option subsets written here (independent of the Rust search), on
random small problems with and without secondary items and colours."""

from __future__ import annotations

import itertools
import struct
import time

import pytest
from hang import HANG_GUARD
from hypothesis import given, settings
from hypothesis import strategies as st
from solvers import _core

Option = list[tuple[int, int]]  # (item, colour); colour 0 = none


def pack(values: list[int]) -> bytes:
    return struct.pack(f"<{len(values)}I", *values)


def unpack(data: bytes) -> tuple[int, ...]:
    return struct.unpack(f"<{len(data) // 4}I", data)


def core_problem(n_primary: int, n_secondary: int, options: list[Option]) -> _core.CoverProblem:
    starts = [0]
    items: list[int] = []
    colors: list[int] = []
    for option in options:
        for item, colour in option:
            items.append(item)
            colors.append(colour)
        starts.append(len(items))
    return _core.CoverProblem(n_primary, n_secondary, pack(starts), pack(items), pack(colors))


def brute_force(n_primary: int, options: list[Option]) -> list[tuple[int, ...]]:
    """Every subset of options that covers each primary item once and each
    secondary item at most once or always with the same real colour."""
    covers = []
    for size in range(len(options) + 1):
        for chosen in itertools.combinations(range(len(options)), size):
            times: dict[int, int] = {}
            colours: dict[int, set[int]] = {}
            for k in chosen:
                for item, colour in options[k]:
                    times[item] = times.get(item, 0) + 1
                    colours.setdefault(item, set()).add(colour)
            primary_ok = all(times.get(i, 0) == 1 for i in range(n_primary))
            secondary_ok = all(
                times[i] == 1 or (len(colours[i]) == 1 and 0 not in colours[i])
                for i in times
                if i >= n_primary
            )
            if primary_ok and secondary_ok:
                covers.append(chosen)
    return sorted(covers)


@st.composite
def problems(draw: st.DrawFn) -> tuple[int, int, list[Option]]:
    n_primary = draw(st.integers(1, 5))
    n_secondary = draw(st.integers(0, 3))
    n_colours = draw(st.integers(0, 2))
    options = []
    for _ in range(draw(st.integers(1, 10))):
        first = draw(st.integers(0, n_primary - 1))
        others = draw(st.sets(st.integers(0, n_primary + n_secondary - 1), max_size=4))
        option = [(first, 0)]
        for item in sorted(others - {first}):
            colour = draw(st.integers(0, n_colours)) if item >= n_primary else 0
            option.append((item, colour))
        options.append(option)
    return n_primary, n_secondary, options


@settings(max_examples=150, deadline=None)
@given(problems())
def test_every_call_agrees_with_the_brute_force(case: tuple[int, int, list[Option]]) -> None:
    n_primary, n_secondary, options = case
    want = brute_force(n_primary, options)
    p = core_problem(n_primary, n_secondary, options)
    assert (p.n_options, p.n_items, p.n_primary) == (
        len(options),
        n_primary + n_secondary,
        n_primary,
    )
    for threads in (1, 2):
        assert _core.count_covers(p, _core.RunOptions(threads)) == len(want)
    assert _core.count_covers(p, _core.RunOptions(1), method="memo") == len(want)
    assert _core.count_covers(p, _core.RunOptions(2), method="auto") == len(want)
    listed = [unpack(c) for c in _core.CoverStream(p)]
    assert all(list(c) == sorted(c) for c in listed)
    assert sorted(listed) == want
    first = _core.find_cover(p, True, _core.RunOptions(2))
    assert (unpack(first) if first is not None else None) == (listed[0] if listed else None)
    found = _core.find_cover(p, False, _core.RunOptions(2))
    assert (found is None) == (not want)
    if found is not None:
        assert unpack(found) in want
    plan = _core.covers_plan(p, 8)
    assert sum(plan.count_each(list(range(len(plan))), _core.RunOptions(1))) == len(want)


def test_colours_let_options_share_a_secondary_item() -> None:
    options = [[(0, 0), (2, 1)], [(1, 0), (2, 1)], [(1, 0), (2, 2)], [(1, 0), (2, 0)], [(0, 0)]]
    p = core_problem(2, 1, options)
    assert [unpack(c) for c in _core.CoverStream(p)] == [(0, 1), (1, 4), (2, 4), (3, 4)]
    assert brute_force(2, options) == [(0, 1), (1, 4), (2, 4), (3, 4)]


def dominoes(rows: int, cols: int) -> _core.CoverProblem:
    options = []
    for r, c in itertools.product(range(rows), range(cols)):
        if c + 1 < cols:
            options.append([(r * cols + c, 0), (r * cols + c + 1, 0)])
        if r + 1 < rows:
            options.append([(r * cols + c, 0), ((r + 1) * cols + c, 0)])
    return core_problem(rows * cols, 0, options)


def test_the_memo_counts_what_no_enumeration_could() -> None:
    # OEIS A004003: domino tilings of the 2n x 2n square.
    assert _core.cover_method(dominoes(8, 8)) == "memo"
    assert _core.count_covers(dominoes(8, 8), _core.RunOptions(2), method="auto") == 12_988_816
    assert (
        _core.count_covers(dominoes(12, 12), _core.RunOptions(1), method="memo")
        == 53_060_477_521_960_000
    )
    assert _core.count_covers(dominoes(4, 4), _core.RunOptions(2), method="search") == 36


def test_bad_problems_are_value_errors() -> None:
    def bad(n_primary: int, n_secondary: int, options: list[Option], match: str) -> None:
        with pytest.raises(ValueError, match=match):
            core_problem(n_primary, n_secondary, options)

    bad(0, 1, [], "at least one primary")
    bad(2, 0, [[(5, 0)]], "names item 5")
    bad(2, 0, [[(1, 0), (1, 0)]], "twice")
    bad(1, 1, [[(1, 0)]], "no primary item")
    bad(1, 1, [[(0, 3)]], "colour")
    with pytest.raises(ValueError, match="4 bytes"):
        _core.CoverProblem(1, 0, b"\0\0\0", b"", b"")
    with pytest.raises(ValueError, match="starts"):
        _core.CoverProblem(1, 0, pack([0, 3]), pack([0]), pack([0]))
    p = dominoes(2, 2)
    with pytest.raises(ValueError, match="method"):
        _core.count_covers(p, _core.RunOptions(1), method="fast")
    assert repr(p) == "CoverProblem(options=4, primary=4, secondary=0)"


def langford(n: int) -> _core.CoverProblem:
    options = [
        [(k - 1, 0), (n + i, 0), (n + i + k + 1, 0)]
        for k in range(1, n + 1)
        for i in range(2 * n - k - 1)
    ]
    return core_problem(3 * n, 0, options)


def test_a_long_count_times_out_and_a_stream_can_be_closed() -> None:
    p = langford(16)
    start = time.monotonic()
    with pytest.raises(TimeoutError):
        _core.count_covers(p, _core.RunOptions(2, timeout=0.2))
    assert time.monotonic() - start < HANG_GUARD
    stream = _core.CoverStream(p)
    first = next(stream)
    assert len(unpack(first)) == 16
    stream.close()
    # What the producer made before it saw the flag may still come; then it ends.
    start = time.monotonic()
    list(stream)
    assert time.monotonic() - start < HANG_GUARD
