"""Covers drawn uniformly at random (``random_covers``): every draw a cover
of the brute force of ``cover_oracle.py``, a chi-square test of uniformity
on the 233 domino tilings of a 2 x 12 strip (a fixed seed, so it cannot
flake), with bounds too, the same draws for the same seed and any
``threads``, and each refusal."""

from __future__ import annotations

import json
import math

import cover_oracle as oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solvers import ExactCover, count_covers, random_covers


def strip(length: int) -> ExactCover:
    """The domino tilings of a 2 x ``length`` strip: F(length + 1) covers."""
    cells = [(col, row) for col in range(length) for row in range(2)]
    options = [((col, 0), (col, 1)) for col in range(length)]
    options += [((col, row), (col + 1, row)) for col in range(length - 1) for row in range(2)]
    return ExactCover(options, primary=cells)


def chi_square_quantile(p: float, df: int) -> float:
    """The ``p`` quantile of the chi-square law with ``df`` degrees of
    freedom, by Wilson and Hilferty's cube-root normal approximation
    (within a fraction of a percent for df in the hundreds)."""
    z = math.sqrt(2) * _inverse_erf(2 * p - 1)
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def _inverse_erf(y: float) -> float:
    x = 0.0
    for _ in range(100):  # Newton's method on erf(x) = y
        x -= (math.erf(x) - y) / (2 / math.sqrt(math.pi) * math.exp(-x * x))
    return x


def test_the_draws_are_uniform_by_a_chi_square_test() -> None:
    problem = strip(12)
    n = count_covers(problem)
    assert n == 233  # F(13)
    per_cover = 40
    drawn = random_covers(problem, n * per_cover, seed=2026)
    counts: dict[tuple[int, ...], int] = {}
    for cover in drawn:
        counts[tuple(cover)] = counts.get(tuple(cover), 0) + 1
    assert len(counts) == n  # every tiling drawn
    statistic = sum((c - per_cover) ** 2 / per_cover for c in counts.values())
    # Uniform draws pass at the 0.1% level (and fail below 0.1% too: a
    # sampler that repeats itself would have a statistic near 0).
    assert chi_square_quantile(0.001, n - 1) < statistic < chi_square_quantile(0.999, n - 1)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(oracle.raw_problems(max_options=9), st.integers(0, 2**64 - 1))
def test_every_draw_is_a_cover_of_the_brute_force(raw, seed) -> None:
    options, primary, secondary = raw
    entries = [[(item, colour) for item, colour in option] for option in options]
    problem = ExactCover(entries, primary=primary, secondary=secondary, colors=True)
    want = oracle.all_covers(options, primary)
    drawn = random_covers(problem, 30, seed=seed)
    assert (drawn == []) == (not want)
    assert all(tuple(cover) in want for cover in drawn)
    if len(want) == 1:
        assert set(map(tuple, drawn)) == set(want)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(oracle.raw_problems(max_options=8), st.data())
def test_draws_within_bounds_are_covers_of_the_brute_force(raw, data) -> None:
    options, primary, secondary = raw
    bounds = {
        item: data.draw(st.tuples(st.integers(0, 2), st.integers(0, 2)).map(sorted).map(tuple))
        for item in primary
    }
    entries = [[(item, colour) for item, colour in option] for option in options]
    problem = ExactCover(entries, primary=primary, secondary=secondary, colors=True, bounds=bounds)
    want = oracle.all_covers(options, primary, bounds)
    drawn = random_covers(problem, 30, seed=data.draw(st.integers(0, 2**64 - 1)), threads=2)
    assert (drawn == []) == (not want)
    assert all(tuple(cover) in want for cover in drawn)


def test_bounded_draws_are_uniform_and_the_same_on_any_threads() -> None:
    # Each of 6 items covered once or twice by singletons and pairs.
    items = range(6)
    options = [(i,) for i in items] * 2 + [(i, i + 1) for i in items[:-1]]
    problem = ExactCover(options, bounds={i: (1, 2) for i in items})
    n = count_covers(problem, method="search")
    assert count_covers(problem, method="memo", threads=2) == n
    drawn = random_covers(problem, n * 40, seed=7, threads=1)
    assert drawn == random_covers(problem, n * 40, seed=7, threads=3)
    counts: dict[tuple[int, ...], int] = {}
    for cover in drawn:
        counts[tuple(cover)] = counts.get(tuple(cover), 0) + 1
    assert len(counts) == n
    statistic = sum((c - 40) ** 2 / 40 for c in counts.values())
    assert chi_square_quantile(0.001, n - 1) < statistic < chi_square_quantile(0.999, n - 1)


def test_a_seed_gives_the_same_covers_and_none_gives_fresh_ones() -> None:
    problem = strip(30)
    first = random_covers(problem, 10, seed=5)
    assert first == random_covers(problem, 10, seed=5)
    assert first != random_covers(problem, 10, seed=6)
    assert random_covers(problem, 10) != random_covers(problem, 10)  # 1 in 1.3e6 ** 10
    assert random_covers(problem, 0, seed=1) == []


def test_refusals() -> None:
    problem = strip(4)
    with pytest.raises(ValueError, match="seed must be from 0"):
        random_covers(problem, seed=-1)
    with pytest.raises(ValueError, match="seed must be from 0"):
        random_covers(problem, seed=2**64)
    with pytest.raises(TypeError, match="seed must be an integer"):
        random_covers(problem, seed="1")
    with pytest.raises(ValueError, match="k must be from 0"):
        random_covers(problem, -1)
    with pytest.raises(ValueError, match="checkpoint"):
        random_covers(problem, checkpoint="somewhere")


def test_the_cli_draws_covers_by_seed(capsys) -> None:
    from solvers.cli import main

    args = ["cover", "examples/pentominoes.dlx", "--random", "3", "--seed", "11"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    problem = ExactCover.from_dlx(open("examples/pentominoes.dlx").read())
    want = [list(cover) for cover in random_covers(problem, 3, seed=11)]
    assert [list(map(int, line.split())) for line in lines] == want
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"covers": want}
    assert main(["cover", "examples/pentominoes.dlx", "--seed", "1"]) == 2
