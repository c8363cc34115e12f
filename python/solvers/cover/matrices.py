"""0/1 matrices as numpy arrays and scipy sparse matrices, read and written
a whole array at a time: :func:`numbered` turns one into the numbered
problem (no Python loop per row: a million rows in a fraction of a second),
:func:`dense` and :func:`sparse` write a problem back.  numpy and scipy are
optional (``pip install "solvers[matrix]"``): neither is imported until a
matrix is read or written.

>>> import numpy as np
>>> names, n_primary, starts, numbers = numbered(np.array([[1, 0, 1], [0, 1, 0]]), None, 1)
>>> names, n_primary, list(starts), list(numbers)
((0, 1, 2), 2, [0, 2, 3], [0, 2, 1])
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterable
from typing import Any

from .._engine import _validate
from .reading import MAX_ENTRIES, item_list, secondary_columns

__all__ = ["dense", "is_array", "numbered", "sparse"]


def _is_sparse(matrix: Any) -> bool:
    return type(matrix).__module__.startswith("scipy.sparse") and hasattr(matrix, "tocsr")


def is_array(matrix: Any) -> bool:
    """Whether ``matrix`` is a numpy array of numbers or a scipy sparse
    matrix (read by :func:`numbered`; anything else goes row by row)."""
    if _is_sparse(matrix):
        return True
    if type(matrix).__module__ != "numpy" or not hasattr(matrix, "dtype"):
        return False
    return matrix.dtype.kind in "biuf"


def numbered(
    matrix: Any, items: Iterable[Hashable] | None, secondary: Any
) -> tuple[tuple[Hashable, ...], int, array[int], array[int]]:
    """The numbered problem of a 0/1 ``matrix`` (see
    :meth:`~solvers.ExactCover.from_matrix` for the arguments): the items
    (primary first), how many are primary, and the options as ``starts``
    and item ``numbers`` (``array('I')``, each row's items in column order)."""
    import numpy as np

    if _is_sparse(matrix):
        rows, cols, shape = _sparse_entries(matrix, np)
    else:
        rows, cols, shape = _dense_entries(matrix, np)
    n_rows, width = shape
    names = tuple(range(width)) if items is None else item_list(items, "items")
    if len(names) != width:
        raise ValueError(f"items names {len(names)} columns, the matrix has {width}")
    chosen = secondary_columns(secondary, names)
    is_secondary = np.fromiter((name in chosen for name in names), dtype=bool, count=width)
    order = np.concatenate([np.flatnonzero(~is_secondary), np.flatnonzero(is_secondary)])
    number_of = np.empty(width, dtype=np.int64)
    number_of[order] = np.arange(width)
    n_primary = width - int(is_secondary.sum())
    if not n_primary:
        raise ValueError(
            "an exact-cover problem needs at least one primary item (the items every "
            "cover must cover exactly once); this one has none"
        )
    if len(cols) > MAX_ENTRIES:
        raise ValueError(f"a problem may have at most {MAX_ENTRIES} entries in all")
    numbers = number_of[cols]
    primary_in_row = np.bincount(rows[numbers < n_primary], minlength=n_rows)
    if n_rows and not primary_in_row.all():
        k = int(np.flatnonzero(primary_in_row == 0)[0])
        option = tuple(names[c] for c in cols[rows == k].tolist())
        raise ValueError(
            f"option {k} {_validate.shown(option)} (row {k} of the matrix) has no primary "
            "item: every option must cover at least one primary item"
        )
    starts = np.zeros(n_rows + 1, dtype=np.uint32)
    np.cumsum(np.bincount(rows, minlength=n_rows), out=starts[1:])
    return (
        tuple(names[c] for c in order.tolist()),
        n_primary,
        _u32(starts),
        _u32(numbers.astype(np.uint32)),
    )


def _dense_entries(matrix: Any, np: Any) -> tuple[Any, Any, tuple[int, int]]:
    """The rows and columns of a dense array's 1 entries, in reading order."""
    if matrix.ndim != 2:
        raise ValueError(
            f"the matrix must have 2 dimensions (a row per option, a column per item), "
            f"got an array of shape {matrix.shape}"
        )
    # A bool array holds 0 and 1 only, an integer one if its least and
    # greatest are (two passes, no temporary array); else look at each entry.
    if matrix.dtype.kind != "b" and matrix.size:
        integral = matrix.dtype.kind in "iu"
        if not integral or matrix.min() < 0 or matrix.max() > 1:
            _refuse_non_bits(matrix, np.argwhere((matrix != 0) & (matrix != 1)), np)
    rows, cols = np.nonzero(matrix)  # row by row, whatever the memory order
    return rows, cols, matrix.shape


def _sparse_entries(matrix: Any, np: Any) -> tuple[Any, Any, tuple[int, int]]:
    """The rows and columns of a sparse matrix's 1 entries, in reading
    order (duplicates summed first, as scipy reads them; zeros stored
    explicitly are no entry)."""
    csr = matrix.tocsr(copy=True)
    csr.sum_duplicates()
    if csr.dtype.kind not in "biuf":
        raise TypeError(
            f"the matrix must hold numbers 0 and 1, got a sparse matrix of dtype {csr.dtype}"
        )
    bad = np.flatnonzero((csr.data != 0) & (csr.data != 1))
    if bad.size:
        at = int(bad[0])
        row = int(np.searchsorted(csr.indptr, at, side="right")) - 1
        _refuse_non_bits(csr, np.array([[row, int(csr.indices[at])]]), np)
    csr.eliminate_zeros()
    counts = np.diff(csr.indptr)
    rows = np.repeat(np.arange(csr.shape[0]), counts)
    return rows, csr.indices.astype(np.int64), csr.shape


def _refuse_non_bits(matrix: Any, where: Any, np: Any) -> None:
    if len(where):
        r, c = (int(v) for v in where[0])
        value = matrix[r, c]
        value = value.item() if hasattr(value, "item") else value  # 2, not np.int64(2)
        raise ValueError(
            f"row {r}, column {c} of the matrix holds {_validate.shown(value)}: "
            "a 0/1 matrix holds 0 (the option leaves the item) and 1 (it covers it)"
        )


def _u32(values: Any) -> array[int]:
    out = array("I")
    out.frombytes(values.astype("=u4", copy=False).tobytes())
    return out


def _entries(starts: array[int], numbers: array[int]) -> tuple[Any, Any, Any]:
    """numpy, and the row and column of each entry of a numbered problem."""
    import numpy as np

    starts_np = np.frombuffer(starts, dtype=np.uint32)
    rows = np.repeat(np.arange(len(starts) - 1), np.diff(starts_np))
    return np, rows, np.frombuffer(numbers, dtype=np.uint32).astype(np.int64)


def dense(n_items: int, starts: array[int], numbers: array[int]) -> Any:
    """The 0/1 matrix (numpy, ``uint8``) of a numbered problem: a row per
    option, a column per item in :attr:`~solvers.ExactCover.items` order."""
    np, rows, cols = _entries(starts, numbers)
    out = np.zeros((len(starts) - 1, n_items), dtype=np.uint8)
    out[rows, cols] = 1
    return out


def sparse(n_items: int, starts: array[int], numbers: array[int]) -> Any:
    """The same as a scipy ``csr_array``."""
    from scipy import sparse as scipy_sparse  # type: ignore[import-untyped]

    np, rows, cols = _entries(starts, numbers)
    data = np.ones(len(cols), dtype=np.uint8)
    return scipy_sparse.csr_array((data, (rows, cols)), shape=(len(starts) - 1, n_items))
