"""Options with costs (Knuth's DLX5) and ``cheapest_covers``: the ``k``
cheapest against every cover of ``cover_oracle.py`` in its own search
order, priced and sorted stably here (so ties stay in that order), on
every thread count; the DLX text with ``|n``, the round trip, the CLI,
and each refusal."""

from __future__ import annotations

import json
import pickle

import cover_oracle as oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solvers import ExactCover, cheapest_covers, count_covers, covers
from solvers.cli import main as cli_main
from solvers.cover.costs import MAX_COST


@st.composite
def priced_problems(draw):
    """A random tiny problem with colours and a cost on each option (few
    distinct costs, so that ties are common)."""
    options, primary, secondary = draw(oracle.raw_problems(max_options=9))
    top = draw(st.sampled_from([0, 1, 3, 1000]))
    costs = [draw(st.integers(0, top)) for _ in options]
    return options, primary, secondary, costs


def _problem(options, primary, secondary, costs) -> ExactCover:
    entries = [[(item, colour) for item, colour in option] for option in options]
    return ExactCover(entries, primary=primary, secondary=secondary, colors=True, costs=costs)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(priced_problems(), st.integers(1, 6))
def test_the_cheapest_agree_with_the_oracle_in_search_order(raw, k) -> None:
    options, primary, secondary, costs = raw
    ordered = oracle.search_order(options, primary)
    assert sorted(ordered) == oracle.all_covers(options, primary)
    priced = sorted(ordered, key=lambda cover: sum(costs[j] for j in cover))  # stable
    problem = _problem(*raw)
    for threads in (1, 2):  # the Rust tests take 8 threads too
        got = cheapest_covers(problem, k, threads=threads)
        assert [tuple(cover) for cover in got] == priced[:k]
        assert [cover.cost for cover in got] == [sum(costs[j] for j in c) for c in priced[:k]]
    # The costs change no count and no listing.
    assert count_covers(problem) == len(ordered)
    assert list(covers(problem)) == ordered


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(priced_problems(), st.data(), st.integers(1, 5))
def test_with_bounds_the_cheapest_agree_with_the_oracle_in_the_listing_order(raw, data, k) -> None:
    options, primary, secondary, costs = raw
    bounds = {}
    for item in primary:
        if data.draw(st.booleans()):
            least = data.draw(st.integers(0, 2))
            bounds[item] = (least, least + data.draw(st.integers(0, 2)))
    entries = [[(item, colour) for item, colour in option] for option in options]
    problem = ExactCover(
        entries, primary=primary, secondary=secondary, colors=True, bounds=bounds, costs=costs
    )
    listed = list(covers(problem))  # Algorithm M's order, held to the oracle in test_bounds.py
    assert sorted(listed) == oracle.all_covers(options, primary, bounds)
    priced = sorted(listed, key=lambda cover: sum(costs[j] for j in cover))  # stable
    for threads in (1, 2):
        got = cheapest_covers(problem, k, threads=threads)
        assert [tuple(cover) for cover in got] == priced[:k]


def test_the_assignment_example_is_the_hungarian_optimum() -> None:
    with open("examples/costs.dlx") as f:
        problem = ExactCover.from_dlx(f.read())
    best = cheapest_covers(problem)
    assert [problem.options[k] for k in best[0]] == [
        ("w1", "j2"),
        ("w2", "j1"),
        ("w3", "j3"),
        ("w4", "j4"),
    ]
    assert best[0].cost == 13
    # Every assignment is a cover: the 24 permutations, cheapest first.
    every = cheapest_covers(problem, 30)
    assert len(every) == 24 and [c.cost for c in every] == sorted(c.cost for c in every)


def test_without_costs_the_cheapest_are_the_first_covers() -> None:
    problem = ExactCover([("a", "b"), ("c",), ("a",), ("b", "c"), ("b",)])
    assert problem.costs == (0, 0, 0, 0, 0)
    assert cheapest_covers(problem, 2) == list(covers(problem))[:2]
    assert cheapest_covers(problem, 0) == []


def test_costs_read_and_write_dlx_and_pickle() -> None:
    text = "a b | x\na x:red |3 |4\nb x:red\nb |1\n"
    problem = ExactCover.from_dlx(text)
    assert problem.costs == (7, 0, 1)
    again = ExactCover.from_dlx(problem.to_dlx())
    assert again == problem and again.costs == (7, 0, 1)
    assert pickle.loads(pickle.dumps(problem)) == problem
    assert pickle.loads(pickle.dumps(problem)).costs == (7, 0, 1)
    plain = ExactCover.from_dlx("a b | x\na x:red\nb x:red\nb\n")
    assert plain != problem and plain.digest() != problem.digest()
    assert "costs=[7, 0, 1]" in repr(problem)
    # All costs 0 is the plain problem.
    assert ExactCover([("a",), ("a",)], costs=[0, 0]) == ExactCover([("a",), ("a",)])


@pytest.mark.parametrize(
    ("costs", "error", "words"),
    [
        ([1], ValueError, "1 entries for 2 options"),
        ([1, -1], ValueError, "from 0 to"),
        ([1, MAX_COST + 1], ValueError, "from 0 to"),
        ([1, 1.5], TypeError, "must be an integer"),
        ([1, True], TypeError, "must be an integer"),
        ("12", TypeError, "costs must be"),
        (5, TypeError, "costs must be"),
    ],
)
def test_bad_costs_are_refused(costs, error, words) -> None:
    with pytest.raises(error, match=words):
        ExactCover([("a",), ("a",)], costs=costs)


@pytest.mark.parametrize(
    ("text", "words"),
    [("a\na |x\n", "a cost is"), ("a\na |-3\n", "a cost is"), ("a\na |\n", "a cost is")],
)
def test_bad_dlx_costs_are_refused_with_their_place(text, words) -> None:
    with pytest.raises(ValueError, match=f"line 2, column 3: {words}"):
        ExactCover.from_dlx(text)


def test_refusals_of_cheapest_covers() -> None:
    problem = ExactCover([("a",), ("a",)], costs=[2, 1])
    with pytest.raises(ValueError, match="k must be from 0"):
        cheapest_covers(problem, -1)
    with pytest.raises(TypeError):
        cheapest_covers(problem, "2")
    with pytest.raises(TypeError, match="ExactCover"):
        cheapest_covers([("a",)])
    with pytest.raises(ValueError, match="checkpoint"):
        cheapest_covers(problem, checkpoint="somewhere")


def test_the_cli_prints_the_cheapest(capsys) -> None:
    assert cli_main(["cover", "examples/costs.dlx", "--cheapest", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "cost 13: 1 4 10 15" and lines[1].startswith("cost ")
    assert cli_main(["cover", "examples/costs.dlx", "--cheapest", "1", "--json"]) == 0
    want = {"covers": [{"cost": 13, "options": [1, 4, 10, 15]}]}
    assert json.loads(capsys.readouterr().out) == want


def test_a_long_search_for_the_cheapest_stops_at_its_timeout() -> None:
    # The domino tilings of a 2 x 90 strip (F(91), about 4.7e18), every
    # option of cost 1 but the vertical ones (0): the bound cuts little.
    length = 90
    options = [((col, 0), (col, 1)) for col in range(length)]
    options += [((col, row), (col + 1, row)) for col in range(length - 1) for row in range(2)]
    costs = [0] * length + [1] * (len(options) - length)
    problem = ExactCover(options, costs=costs)
    with pytest.raises(TimeoutError):
        cheapest_covers(problem, 10**6, timeout=0.05, threads=2)
