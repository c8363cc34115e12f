"""Tours with both ends fixed (``count_tours(..., start=s, end=t)``, the
frontier DP): against the separate oracle's tours grouped by their last
square, the search's counts from one square summed over every end, and the
checkpoint directory; bad arguments are refused."""

from __future__ import annotations

from collections import Counter

import oracle
import pytest
import solvers
from solvers import count_tours


@pytest.mark.parametrize(
    ("rows", "cols", "text"),
    [
        (3, 4, None),
        (4, 5, None),
        pytest.param(5, 5, None, marks=pytest.mark.slow),
        (None, None, "....\n.#..\n....\n...."),  # a shaped board (a missing square)
    ],
)
def test_every_end_agrees_with_the_oracle(rows, cols, text):
    if text is not None:
        rows, cols, mask = oracle.parse(text)
        kwargs = {"board": text}
    else:
        mask, kwargs = None, {"rows": rows, "cols": cols}
    squares = oracle.squares(rows, cols, mask)
    found = 0
    for start in squares[:6]:
        ends = Counter(tour[-1] for tour in oracle.enumerate_tours(rows, cols, mask, start))
        for end in squares:
            got = count_tours(**kwargs, start=start, end=end)
            assert got == ends[end], (start, end)
            found += got > 0
    assert found > 0 or text is not None, "no pair with a tour: a weak test"


@pytest.mark.slow
def test_the_ends_add_up_to_the_search_from_a_square():
    for start in [(0, 0), (2, 3)]:
        by_end = [count_tours(6, 6, start=start, end=(r, c)) for r in range(6) for c in range(6)]
        assert sum(by_end) == count_tours(6, 6, start=start, method="search")
        assert by_end[start[0] * 6 + start[1]] == 0  # a path's two ends differ


def test_a_checkpoint_directory_knows_its_end(tmp_path):
    want = count_tours(5, 6, start=(0, 0), end=(4, 5))
    assert want > 0
    kw = {"start": (0, 0), "method": "frontier", "checkpoint": tmp_path / "ckpt"}
    assert count_tours(5, 6, end=(4, 5), **kw) == want
    assert count_tours(5, 6, end=(4, 5), **kw) == want  # the answer saved
    with pytest.raises(ValueError, match="another count"):
        count_tours(5, 6, end=(3, 4), **kw)
    with pytest.raises(ValueError, match="another count"):
        count_tours(5, 6, **kw)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"start": "all", "end": (0, 0)}, ValueError, "one start square"),
        ({"start": (0, 0), "end": (4, 4), "closed": True}, ValueError, "open tours"),
        ({"start": (0, 0), "end": (4, 4), "method": "search"}, ValueError, "frontier"),
        ({"start": (0, 0), "end": (5, 0)}, ValueError, "end \\(5, 0\\) is off"),
        ({"start": (0, 0), "end": "corner"}, TypeError, "end"),
    ],
)
def test_bad_ends_are_refused(kwargs, error, words):
    with pytest.raises(error, match=words):
        count_tours(5, 5, **kwargs)


def test_an_end_on_a_missing_square_or_an_executor_is_refused():
    with pytest.raises(ValueError, match="missing square"):
        count_tours(board="...\n.#.\n...\n...", start=(0, 0), end=(1, 1))
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool, pytest.raises(ValueError, match="executor"):
        count_tours(5, 5, start=(0, 0), end=(4, 4), executor=pool)
    assert (
        solvers.count_tours(1, 1, start=(0, 0), end=(0, 0)) == 1
    )  # one square: the tour of no moves


def test_the_command_line_counts_to_an_end(capsys):
    from solvers import cli

    assert cli.main(["tours", "5", "5", "--start", "0,0", "--end", "4,4"]) == 0
    assert capsys.readouterr().out == f"{count_tours(5, 5, start=(0, 0), end=(4, 4))}\n"
    for bad in (["--end", "all"], ["--end", "4,4", "--find"]):
        try:
            code = cli.main(["tours", "5", "5", "--start", "0,0", *bad])
        except SystemExit as exit_:
            code = exit_.code
        assert code == 2, bad
        assert "--end" in capsys.readouterr().err
