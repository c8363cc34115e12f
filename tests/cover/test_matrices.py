"""0/1 matrices in and out of :class:`~solvers.ExactCover`: numpy arrays of
every number dtype and memory order and scipy sparse matrices of every
format read as the row-by-row reading of the same rows reads them (and as
the iterable constructor states the problem), their refusals, and the way
back (``to_matrix``)."""

from __future__ import annotations

import pickle
import subprocess
import sys

import cover_oracle
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import sparse
from solvers import ExactCover, count_covers

DTYPES = [bool, np.int8, np.uint8, np.int16, np.uint32, np.int64, np.float32, np.float64]
FORMATS = ["csr", "csc", "coo", "lil", "dok", "bsr", "dia"]


@st.composite
def matrices(draw):
    """A random 0/1 matrix whose rows each cover some primary column, the
    number of secondary columns (the last ones), and the options the
    iterable constructor is given for it."""
    options, primary, secondary = draw(
        cover_oracle.raw_problems(colours=False, secondary_items=2, max_options=8)
    )
    columns = [*primary, *secondary]
    rows = [[int(item in {i for i, _ in option}) for item in columns] for option in options]
    return rows, len(secondary), options, primary, secondary


@settings(max_examples=80, deadline=None)
@given(matrices(), st.sampled_from(DTYPES), st.sampled_from(["C", "F"]), st.sampled_from(FORMATS))
def test_arrays_and_sparse_matrices_read_as_their_rows(drawn, dtype, order, form):
    rows, n_secondary, options, primary, secondary = drawn
    width = len(primary) + len(secondary)
    by_rows = ExactCover.from_matrix(rows, secondary=n_secondary) if rows else None
    array = np.array(rows, dtype=dtype, order=order).reshape(len(rows), width)
    from_array = ExactCover.from_matrix(array, secondary=n_secondary)
    from_sparse = ExactCover.from_matrix(
        sparse.coo_array(array).asformat(form), secondary=n_secondary
    )
    assert from_array == from_sparse
    if by_rows is not None:
        assert from_array == by_rows
    assert from_array.primary == tuple(range(len(primary)))
    # The iterable constructor, given the same options by item name.
    named = [tuple(c for c in range(width) if row[c]) for row in rows]
    stated = ExactCover(named, primary=range(len(primary)), secondary=range(len(primary), width))
    assert from_array == stated
    assert from_array.options == stated.options
    assert [from_array.option(k) for k in range(len(rows))] == [
        stated.option(k) for k in range(len(rows))
    ]
    assert count_covers(from_array) == len(cover_oracle.all_covers(options, primary))
    # The way back, and a pickle of a problem whose options are not named yet.
    back = from_sparse.to_matrix()
    assert back.dtype == np.uint8 and back.tolist() == [[int(v) for v in row] for row in rows]
    assert (from_array.to_matrix(sparse=True).toarray() == back).all()
    unnamed = ExactCover.from_matrix(array, secondary=n_secondary)
    assert pickle.loads(pickle.dumps(unnamed)) == stated


def test_columns_named_and_secondary_by_name():
    m = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0]])
    problem = ExactCover.from_matrix(m, ["a", "x", "b"], secondary=["x"])
    assert problem.primary == ("a", "b") and problem.secondary == ("x",)
    assert problem.options == (("a", "b"), ("x", "b"), ("a", "x"))  # column order
    assert problem.to_matrix().tolist() == [[1, 1, 0], [0, 1, 1], [1, 0, 1]]  # items order
    assert problem == ExactCover.from_matrix(m.tolist(), ["a", "x", "b"], secondary=["x"])


def test_duplicates_of_a_sparse_entry_are_summed_and_stored_zeros_are_none():
    coo = sparse.coo_array(([1, 1, 0], ([0, 1, 1], [0, 1, 0])), shape=(2, 2))
    assert ExactCover.from_matrix(coo).options == ((0,), (1,))
    twice = sparse.coo_array(([1, 1], ([0, 0], [0, 0])), shape=(1, 1))
    with pytest.raises(ValueError, match=r"row 0, column 0 of the matrix holds 2: a 0/1 matrix"):
        ExactCover.from_matrix(twice)


@pytest.mark.parametrize("form", ["dense", *FORMATS])
def test_an_entry_not_0_or_1_is_refused_with_its_place(form):
    m = np.zeros((4, 5), dtype=np.int64)
    m[:, 0] = 1
    m[2, 3] = 7
    given = m if form == "dense" else sparse.coo_array(m).asformat(form)
    with pytest.raises(ValueError, match=r"^row 2, column 3 of the matrix holds 7: a 0/1 matrix"):
        ExactCover.from_matrix(given)
    f = np.full((2, 2), 0.5)
    with pytest.raises(ValueError, match=r"row 0, column 0 of the matrix holds 0.5"):
        ExactCover.from_matrix(f)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: ExactCover.from_matrix(np.ones((2, 2, 2))), ValueError, "2 dimensions"),
        (lambda: ExactCover.from_matrix(np.ones(3)), ValueError, "2 dimensions"),
        (lambda: ExactCover.from_matrix(np.eye(3), ["a", "b"]), ValueError, "names 2 columns"),
        (
            lambda: ExactCover.from_matrix(np.array([[1, 0], [0, 1]]), secondary=1),
            ValueError,
            r"option 1 \(1,\) \(row 1 of the matrix\) has no primary item",
        ),
        (
            lambda: ExactCover.from_matrix(np.zeros((2, 3), dtype=bool)),
            ValueError,
            r"option 0 \(\) \(row 0 of the matrix\) has no primary item",
        ),
        (
            lambda: ExactCover.from_matrix(np.eye(2), secondary=2),
            ValueError,
            "needs at least one primary",
        ),
        (lambda: ExactCover.from_matrix(np.eye(2), secondary=3), ValueError, "at most 2"),
        (lambda: ExactCover.from_matrix(np.eye(2), secondary=["z"]), ValueError, "not a column"),
        (lambda: ExactCover(np.array([[1, 0, 0], [0, 1, 1]])), ValueError, "from_matrix"),
        (lambda: ExactCover.from_matrix(np.eye(2)).to_matrix(sparse="yes"), TypeError, "sparse"),
    ],
)
def test_bad_matrices_are_refused_with_what_was_wrong(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_a_million_sparse_rows_are_read_without_a_loop_per_row():
    # A hang guard only (no timing): row k covers columns k % 1000 and 1000 + k % 7.
    n = 10**6
    rows = np.repeat(np.arange(n), 2)
    cols = np.column_stack([np.arange(n) % 1000, 1000 + np.arange(n) % 7]).ravel()
    m = sparse.csr_array((np.ones(2 * n, dtype=np.int8), (rows, cols)), shape=(n, 1007))
    problem = ExactCover.from_matrix(m, secondary=7)
    assert len(problem) == n and len(problem.primary) == 1000
    assert problem.option(999_999) == ((999, None), (1000 + 999_999 % 7, None))
    assert repr(problem).startswith("<ExactCover: 1000000 options, 1000 primary and 7 secondary")


def test_importing_the_package_imports_neither_numpy_nor_scipy():
    code = "import sys, solvers; print(sorted({'numpy', 'scipy'} & set(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done
