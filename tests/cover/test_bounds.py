"""Primary items with bounds (Knuth's multiplicities, his DLX3 and SSMCC):
every call of the family against the brute force of ``cover_oracle.py``
over every subset of the options, the binomial coefficients, Knuth's
example from DLX3, the DLX text round trip, and each refusal."""

from __future__ import annotations

import math
import pickle

import cover_oracle as oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solvers import ExactCover, count_covers, covers, find_cover, is_cover


@st.composite
def bounded_problems(draw):
    """A random tiny problem with colours and random bounds on some items."""
    options, primary, secondary = draw(oracle.raw_problems(max_options=8))
    bounds = {}
    for item in primary:
        if draw(st.booleans()):
            least = draw(st.integers(0, 2))
            bounds[item] = (least, least + draw(st.integers(0, 2)))
    return options, primary, secondary, bounds


def _problem(options, primary, secondary, bounds) -> ExactCover:
    entries = [[(item, colour) for item, colour in option] for option in options]
    return ExactCover(entries, primary=primary, secondary=secondary, colors=True, bounds=bounds)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bounded_problems())
def test_every_call_agrees_with_the_brute_force(raw) -> None:
    options, primary, secondary, bounds = raw
    want = oracle.all_covers(options, primary, bounds)
    problem = _problem(*raw)
    for threads in (1, 2):
        for method in ("search", "memo"):
            assert count_covers(problem, threads=threads, method=method) == len(want)
        assert count_covers(problem, threads=threads, method="search", limit=2) == min(2, len(want))
    listed = list(covers(problem))
    assert sorted(listed) == want
    assert listed == list(covers(problem, threads=2))  # the order is the search's, on any threads
    found = find_cover(problem, deterministic=True)
    assert (found is None) == (not want)
    if found is not None:
        assert tuple(sorted(found)) in want
    for chosen in [*want, *[(k,) for k in range(len(options))], ()]:
        assert is_cover(problem, chosen) == oracle.is_cover(options, primary, chosen, bounds)


@pytest.mark.parametrize(("n", "k"), [(5, 0), (5, 2), (7, 3), (10, 5), (12, 12)])
def test_choosing_k_of_n_options_is_the_binomial_coefficient(n, k) -> None:
    problem = ExactCover([("x",)] * n, bounds={"x": k})
    assert count_covers(problem) == math.comb(n, k)
    ranged = ExactCover([("x",)] * n, bounds={"x": (0, k)})
    assert count_covers(ranged, threads=2) == sum(math.comb(n, j) for j in range(k + 1))


KNUTH = """\
| A simple example of color controls (DLX3's test case)
A B 2:3|C | X Y
A B X:0 Y:0
A C X:1 Y:1
C X:0
B X:1
C Y:1
"""


def test_knuths_example_from_dlx3() -> None:
    problem = ExactCover.from_dlx(KNUTH)
    assert problem.bounds == {"C": (2, 3)}
    # "The unique solution consists of options A C X:1 Y:1, B X:1, C Y:1."
    assert list(covers(problem)) == [(1, 3, 4)]
    again = ExactCover.from_dlx(problem.to_dlx())
    assert again == problem and again.bounds == problem.bounds
    assert "2:3|C" in problem.to_dlx()
    exactly = ExactCover.from_dlx("2|a b\na\na b\nb a\n")
    assert exactly.bounds == {"a": 2} and count_covers(exactly) == 2  # {0, 1} and {0, 2}


def test_bounds_are_part_of_the_problem() -> None:
    plain = ExactCover([("a",), ("a",)])
    loose = ExactCover([("a",), ("a",)], bounds={"a": (0, 2)})
    assert plain != loose and loose == pickle.loads(pickle.dumps(loose))
    assert hash(loose) == hash(pickle.loads(pickle.dumps(loose)))
    assert plain.digest() != loose.digest()
    assert ExactCover([("a",)], bounds={"a": 1}) == ExactCover([("a",)])
    assert count_covers(plain) == 2 and count_covers(loose) == 4
    assert "bounds={'a': (0, 2)}" in repr(loose)


@pytest.mark.parametrize(
    ("bounds", "error", "words"),
    [
        ({"x": 1}, ValueError, "not a primary item"),
        ({"z": 1}, ValueError, "not a primary item"),
        ({"a": (2, 1)}, ValueError, "must not exceed"),
        ({"a": -1}, ValueError, "from 0 to"),
        ({"a": True}, TypeError, "a count k or a pair"),
        ({"a": (1, 2, 3)}, TypeError, "a count k or a pair"),
        ({"a": 1.5}, TypeError, "a count k or a pair"),
        ([("a", 1)], TypeError, "must be a mapping"),
    ],
)
def test_bad_bounds_are_refused(bounds, error, words) -> None:
    with pytest.raises(error, match=words):
        ExactCover([("a", "x")], secondary=["x"], bounds=bounds)


def test_what_does_not_take_bounds_says_so() -> None:
    problem = ExactCover([("a",), ("b",), ("a", "b")], bounds={"a": (0, 1)})
    with pytest.raises(ValueError, match="bounds"):
        count_covers(problem, symmetries=[{"a": "b", "b": "a"}])
    for text, words in [
        ("a | 2|x\na x\n", "secondary"),
        ("3:2|a\na\n", "least above the most"),
    ]:
        with pytest.raises(ValueError, match=words):
            ExactCover.from_dlx(text)


def test_executors_and_checkpoints_take_bounds(tmp_path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    # Two queens on every row and column of 6x6 and at most two on any
    # diagonal (one a diagonal cannot be: 12 queens, 11 diagonals): the
    # executor's and the checkpoint's counts against the plain one.
    n = 6
    options = [(f"r{r}", f"c{c}", ("a", r + c), ("b", r - c)) for r in range(n) for c in range(n)]
    bounds = {f"{tag}{i}": 2 for i in range(n) for tag in "rc"}
    bounds |= {("a", d): (0, 2) for d in range(2 * n - 1)}
    bounds |= {("b", d): (0, 2) for d in range(1 - n, n)}
    problem = ExactCover(options, bounds=bounds)
    want = count_covers(problem, threads=1)
    assert want == 1097  # DLX3's and SSMCC's count of benches/cover_instances.py's queens2_6
    with ThreadPoolExecutor(2) as pool:
        assert count_covers(problem, executor=pool) == want
    assert count_covers(problem, checkpoint=tmp_path / "ckpt") == want
    assert count_covers(problem, checkpoint=tmp_path / "ckpt") == want  # read back
