"""N-Queens against published values (OEIS A000170, A002562) and a separate
brute-force oracle over permutations."""

from __future__ import annotations

import itertools

import pytest
import solvers
from hypothesis import given, settings
from hypothesis import strategies as st
from solvers import Placement, count_queens, find_queens, is_queens_solution, queens

A000170 = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512]
A002562 = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787]


def brute_force(n):
    """Every solution, by trying all permutations (lexicographic order)."""
    return [
        p
        for p in itertools.permutations(range(n))
        if len({r + c for r, c in enumerate(p)}) == n and len({r - c for r, c in enumerate(p)}) == n
    ]


def images(p):
    """The 8 images of a placement under the symmetries of the square."""
    n = len(p)
    squares = list(enumerate(p))
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (r, n - 1 - c),
        lambda r, c: (n - 1 - r, c),
        lambda r, c: (n - 1 - r, n - 1 - c),
        lambda r, c: (c, r),
        lambda r, c: (c, n - 1 - r),
        lambda r, c: (n - 1 - c, r),
        lambda r, c: (n - 1 - c, n - 1 - r),
    ]
    out = []
    for f in maps:
        cols = [0] * n
        for r, c in squares:
            r2, c2 = f(r, c)
            cols[r2] = c2
        out.append(tuple(cols))
    return out


@pytest.mark.parametrize("n", range(1, len(A000170) + 1))
def test_published_totals(n):
    assert count_queens(n) == A000170[n - 1]


@pytest.mark.parametrize("n", range(1, len(A002562) + 1))
def test_published_unique_counts(n):
    assert count_queens(n, unique=True) == A002562[n - 1]


@pytest.mark.parametrize("n", range(1, 9))
def test_listing_matches_the_oracle(n):
    want = brute_force(n)
    got = [tuple(p) for p in queens(n)]
    assert got == want
    assert count_queens(n) == len(want)


@pytest.mark.parametrize("n", range(1, 9))
def test_unique_listing_gives_the_least_of_each_class(n):
    classes = {min(images(p)) for p in brute_force(n)}
    got = [tuple(p) for p in queens(n, unique=True)]
    assert got == sorted(classes)
    assert count_queens(n, unique=True) == len(classes)
    # the classes' sizes add up to the total
    assert sum(len(set(images(p))) for p in got) == count_queens(n)


@pytest.mark.parametrize("n", [8, 10, 12])
def test_counts_do_not_depend_on_threads(n):
    totals = {count_queens(n, threads=t) for t in (1, 2, 3, 8)}
    uniques = {count_queens(n, unique=True, threads=t) for t in (1, 2, 3, 8)}
    assert totals == {A000170[n - 1]}
    assert uniques == {A002562[n - 1]}


@settings(max_examples=30, deadline=None)
@given(st.integers(4, 9), st.data())
def test_symmetric_images_of_solutions_are_solutions(n, data):
    solutions = [tuple(p) for p in queens(n)]
    p = data.draw(st.sampled_from(solutions))
    for image in images(p):
        assert is_queens_solution(image)
        assert image in solutions


@pytest.mark.parametrize("n", range(1, 200))
def test_construction_for_every_small_n(n):
    p = find_queens(n)
    if n in (2, 3):
        assert p is None
    else:
        assert len(p) == n
        assert is_queens_solution(list(p))
        assert all(0 <= c < n for c in p)


@settings(max_examples=20, deadline=None)
@given(st.integers(4, 100_000))
def test_construction_for_random_n(n):
    p = find_queens(n)
    assert p.verify() and len(p) == n


def test_ten_million_queens():
    p = find_queens(10_000_000)
    assert len(p) == 10_000_000 and p.verify()


@pytest.mark.parametrize("n", [1, 4, 5, 6, 8, 10, 12])
def test_deterministic_search_finds_the_lexicographically_first(n):
    first = next(queens(n))
    for threads in (1, 2, 8):
        assert find_queens(n, method="search", deterministic=True, threads=threads) == first


@pytest.mark.parametrize("n", [1, 4, 8, 16, 24, 33, 40, 50, 63, 64])
def test_any_search_finds_a_solution(n):
    p = find_queens(n, method="search", threads=2)
    assert p.verify() and len(p) == n


def test_no_solution_for_two_and_three():
    for n in (2, 3):
        assert find_queens(n, method="search") is None
        assert count_queens(n) == 0
        assert list(queens(n)) == []


def test_checker():
    assert is_queens_solution([1, 3, 0, 2])
    assert not is_queens_solution([0, 2, 1, 3])  # diagonal
    assert not is_queens_solution([1, 1, 0, 2])  # column
    assert not is_queens_solution([1, 3, 0, 4])  # off the board
    assert not is_queens_solution([-1, 3, 0, 2])
    assert not is_queens_solution([])
    with pytest.raises(TypeError):
        is_queens_solution([1, "3", 0, 2])


def test_placement_object():
    p = Placement([1, 3, 0, 2])
    assert tuple(p) == (1, 3, 0, 2) and len(p) == 4 and p[-1] == 2 and p[1:3] == [3, 0]
    assert p == next(queens(4)) and hash(p) == hash(next(queens(4)))
    assert p < Placement([2, 0, 3, 1])
    assert str(p).splitlines()[0] == ". Q . ."
    assert p.to_svg().count('class="queen"') == 4
    with pytest.raises(ValueError, match="not an n-queens solution"):
        Placement([0, 1, 2, 3])
    with pytest.raises(AttributeError):
        p.n = 5


@pytest.mark.parametrize(
    ("call", "error", "phrase"),
    [
        (lambda: count_queens(0), ValueError, "at least 1"),
        (lambda: count_queens(65), ValueError, "up to 64"),
        (lambda: count_queens(8.0), TypeError, "integer"),
        (lambda: count_queens(True), TypeError, "bool"),
        (lambda: count_queens(8, unique=1), TypeError, "True or False"),
        (lambda: count_queens(8, threads=0), ValueError, "threads"),
        (lambda: queens(65), ValueError, "up to 64"),
        (lambda: find_queens(8, method="guess"), ValueError, "'construct', 'search'"),
        (lambda: find_queens(100, method="search"), ValueError, "up to 64"),
        (lambda: find_queens(-3), ValueError, "at least 1"),
    ],
)
def test_bad_input(call, error, phrase):
    with pytest.raises(error, match=phrase):
        call()


def test_timeout_and_public_names():
    with pytest.raises(TimeoutError):
        count_queens(20, timeout=0.2)
    assert {"count_queens", "queens", "find_queens", "is_queens_solution"} <= set(solvers.__all__)
