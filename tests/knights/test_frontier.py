"""The frontier (transfer-matrix) count agrees with the search and the published values."""

from __future__ import annotations

import itertools
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solvers import count_tours
from solvers.knights import KnightBoard
from solvers.knights.methods import preferred

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def both(rows=None, cols=None, **kwargs):
    return (
        count_tours(rows, cols, method="frontier", **kwargs),
        count_tours(rows, cols, method="search", **kwargs),
    )


RECTANGLES = [(r, c) for r in range(1, 7) for c in range(r, 7)]


@pytest.mark.parametrize(("rows", "cols"), RECTANGLES)
@pytest.mark.parametrize("closed", [False, True])
@pytest.mark.slow  # seconds: the quick run stays under 3 minutes
def test_all_starts_agree_with_the_search(rows, cols, closed):
    frontier, search = both(rows, cols, start="all", closed=closed)
    assert frontier == search
    # and on the transposed board (the sweep turns with it)
    assert count_tours(cols, rows, start="all", closed=closed, method="frontier") == search


@pytest.mark.parametrize(("rows", "cols"), [(r, c) for r, c in RECTANGLES if r * c <= 30])
def test_every_start_agrees_with_the_search(rows, cols):
    for row, col in itertools.product(range(rows), range(cols)):
        for closed in (False, True):
            frontier, search = both(rows, cols, start=(row, col), closed=closed)
            assert frontier == search, ((row, col), closed)


@pytest.mark.parametrize("start", [(0, 0), (1, 2), (2, 2), (5, 0), (3, 1)])
def test_a_sample_of_starts_on_6x6_agrees_with_the_search(start):
    for closed in (False, True):
        frontier, search = both(6, 6, start=start, closed=closed)
        assert frontier == search


@pytest.mark.slow
def test_published_values():
    # A118067: directed open tours of a 3xn board, over all starts; so
    # count_tours(3, n, start="all") itself (3x4: 8 undirected paths, 16 tours).
    for n, tours in [(4, 16), (7, 104), (8, 792), (16, 17_273_760), (28, 58_641_619_298_000)]:
        assert count_tours(3, n, start="all", method="frontier") == tours
    assert count_tours(6, 6, start="all", method="frontier") == 6_637_920
    # A001230: 9,862 undirected closed tours of 6x6; each is counted once per
    # direction from a start, and once per start square over all starts.
    assert count_tours(6, 6, start=(0, 0), closed=True, method="frontier") == 2 * 9862
    assert count_tours(6, 6, start="all", closed=True, method="frontier") == 36 * 2 * 9862


def test_long_boards_beyond_the_search():
    # 3x40 is past the search's 64 cells; its count is the frontier's own,
    # so check identities that tie it together: the sum over starts, and the
    # same board drawn tall.
    total = count_tours(3, 13, start="all", method="frontier")
    assert total == sum(
        count_tours(3, 13, start=(r, c), method="frontier") for r in range(3) for c in range(13)
    )
    assert total == count_tours(3, 13, start="all", method="search")
    wide = count_tours(3, 40, start="all")
    assert wide == count_tours(40, 3, start="all")
    assert wide > count_tours(3, 39, start="all") > 0


def test_every_published_3xn_value():
    # OEIS A118067, n = 1..28 (the terms shown on its page)
    a118067 = [
        0, 0, 0, 16, 0, 0, 104, 792, 1120, 6096, 21344, 114496, 257728, 1292544, 3677568,
        17273760, 46801984, 211731376, 611507360, 2645699504, 7725948608, 32451640000,
        97488160384, 397346625760, 1214082434112, 4835168968464, 15039729265856, 58641619298000,
    ]  # fmt: skip
    assert [count_tours(3, n, start="all") for n in range(1, 29)] == a118067


@pytest.mark.slow
def test_counts_past_128_bits():
    # 3x73 is the longest 3xn board whose count fits 128 bits; past it the
    # DP carries 256-bit counts.  The sum over the start squares (each its own
    # sweep, with the path end pinned) must give the all-starts count; the
    # board's mirrors carry a start's count to its images, so one sweep per
    # class of starts.
    for n in (73, 74):
        total = count_tours(3, n, start="all")
        each: dict[tuple[int, int], int] = {}
        for r in range(3):
            for c in range(n):
                first = (min(r, 2 - r), min(c, n - 1 - c))
                if first not in each:
                    each[first] = count_tours(3, n, start=first)
        assert total == sum(
            each[min(r, 2 - r), min(c, n - 1 - c)] for r in range(3) for c in range(n)
        )
        assert (total >= 2**128) == (n > 73)
    assert count_tours(3, 100, start="all") > 10**52  # the 3x100, in well under a second
    assert count_tours(4, 60, start="all") > count_tours(4, 59, start="all") > 2**128


def test_a_count_past_256_bits_is_an_error_not_a_wrong_answer():
    with pytest.raises(OverflowError):
        count_tours(3, 250, start="all", method="frontier")


@st.composite
def shaped(draw):
    rows = draw(st.integers(1, 5))
    cols = draw(st.integers(1, 6))
    mask = draw(st.lists(st.integers(0, 9).map(bool), min_size=rows * cols, max_size=rows * cols))
    if not any(mask):
        mask[draw(st.integers(0, rows * cols - 1))] = True
    board = KnightBoard(rows, cols, tuple(mask))
    squares = [(r, c) for r in range(rows) for c in range(cols) if mask[r * cols + c]]
    start = draw(st.one_of(st.just("all"), st.sampled_from(squares)))
    return board, start


@SETTINGS
@given(shaped(), st.booleans())
def test_shaped_boards_agree_with_the_search(case, closed):
    board, start = case
    frontier, search = both(board=board, start=start, closed=closed)
    assert frontier == search


def test_hand_shaped_boards():
    rng = random.Random(7)
    texts = [
        """
        ...
        .#.
        ...
        """,
        """
        #....
        ...##
        .....
        ....#
        """,
        """
        ##########
        ##......##
        ##......##
        ##......##
        ##########
        """,
    ]
    for text in texts:
        board = KnightBoard.parse(text)
        squares = [(r, c) for r in range(board.rows) for c in range(board.cols)]
        starts = ["all"] + rng.sample([s for s in squares if board.is_square(*s)], 3)
        for start in starts:
            for closed in (False, True):
                frontier, search = both(board=board, start=start, closed=closed)
                assert frontier == search, (text, start, closed)


#: Boards symmetric under the frontier's mirror (the flip of the rows of a
#: board swept along its columns: states merged) and boards that are not
#: (nothing merged), with starts on the mirror's axis (the middle row of an
#: odd height: merged) and off it (not merged).
MIRRORED = [
    # 5x6 less the middle of its first column: symmetric, axis row 2.
    ("......\n......\n#.....\n......\n......", [(2, 1), (2, 4), (0, 1), (3, 2)]),
    # 6x6 less a square and its image, twice: symmetric, no axis row.
    ("#.....\n......\n..#...\n..#...\n......\n#.....", [(0, 1), (2, 3)]),
    # 5x7 (each column from the top) less one corner: not symmetric.
    ("#......\n.......\n.......\n.......\n.......", [(2, 3), (0, 1)]),
]


@pytest.mark.parametrize(("text", "starts"), MIRRORED)
@pytest.mark.slow  # seconds: the quick run stays under 3 minutes
def test_mirror_merging_keeps_every_answer(text, starts):
    for start in ["all", *starts]:
        for closed in (False, True):
            frontier, search = both(board=text, start=start, closed=closed)
            assert frontier == search, (text, start, closed)


def test_method_is_checked():
    with pytest.raises(ValueError, match="method must be one of"):
        count_tours(3, 4, method="fast")
    with pytest.raises(ValueError, match="method must be one of"):
        count_tours(3, 4, method=None)


def test_the_frontier_refuses_boards_too_wide_and_names_the_limit():
    with pytest.raises(ValueError, match="shorter side of at most 8"):
        count_tours(9, 9, method="frontier")
    # a shape inside a big grid is judged by the rectangle its squares span
    text = "\n".join(["#" * 12] * 2 + ["##" + "." * 8 + "##"] * 3 + ["#" * 12] * 2)
    assert both(board=text, start="all")[0] == count_tours(3, 8, start="all")


def test_the_frontier_takes_an_executor_or_a_checkpoint_not_both(tmp_path):
    # (With the frontier, checkpoint= alone is a directory of layers, and
    # executor= runs rounds of tasks: see test_frontier_checkpoint.py and
    # test_frontier_dist.py.)
    with (
        ThreadPoolExecutor(1) as pool,
        pytest.raises(ValueError, match="does not take executor= and checkpoint= together"),
    ):
        count_tours(3, 4, method="frontier", executor=pool, checkpoint=tmp_path / "c.sqlite")


def test_auto_counts_narrow_boards_past_the_search_limit():
    assert count_tours(1, 65, start=(0, 0)) == 0
    assert count_tours(2, 40, start="all") == 0
    # No tour by theorem: 0 whatever the method, the search's limit aside.
    assert count_tours(1, 65, start=(0, 0), method="search") == 0
    with pytest.raises(ValueError, match="at most 64 cells"):
        count_tours(9, 9)


def test_auto_picks_by_shape():
    assert preferred(KnightBoard(5, 5))[0] == "search"
    assert preferred(KnightBoard(3, 30))[0] == "frontier"
    assert preferred(KnightBoard(30, 3))[0] == "frontier"
    assert preferred(KnightBoard(7, 7))[0] == "frontier"
    assert preferred(KnightBoard(9, 9))[0] == "search"
    assert count_tours(4, 9, start="all") == count_tours(4, 9, start="all", method="search")


def test_timeout_and_progress():
    assert count_tours(4, 10, start="all", method="frontier", progress=True) == 2_426_224
    with pytest.raises(TimeoutError):
        count_tours(6, 7, start="all", method="frontier", timeout=0.2)


@pytest.mark.slow
def test_a_board_spanning_8x8_agrees_with_the_search():
    # Columns of 8: a working frontier past 64 bits, keys packed densely.
    text = "\n".join(["........"] * 3 + ["....####"] * 5)
    for start in ["all", (0, 0)]:
        frontier, search = both(board=text, start=start, closed=True)
        assert frontier == search > 0, start


def test_8x8_stops_at_its_timeout():
    with pytest.raises(TimeoutError):
        count_tours(8, 8, closed=True, method="frontier", timeout=0.3)


# Knuth's partial boards (TAOCP pre-fascicle 8A; OEIS data as published, from
# each sequence's offset): the first cells of an h-row board filled column by
# column, cell (r, c) the (c h + r)-th, so the last column is cut short.
# Closed: undirected closed tours on the first 2n cells (A383660 to A383664).
# Open: undirected Hamiltonian paths on the first n cells (A389754 to A389759).
# The Rust tests (src/knights/frontier/mod.rs) take each sequence's first
# terms; these take later ones, longer boards, through the public call:
# name -> (rows, closed, offset, the n tested from and to, the data).
KNUTH_PARTIAL = {
    "A383662": (
        6,
        True,
        11,
        (30, 33),
        "6,0,2,302,8,151,19072,9862,18202,1603948,1067638,"
        "1310791,107096187,55488142,66608924,6149236417,3374967940,4259963914,"
        "402706752421,239187240144,292999006211,26470682075988,15360134570696",
    ),
    "A383664": (
        8,
        True,
        13,
        (25, 26),
        "4,12,212,0,50,4525,101730,44202,66034,2408624,69362264,55488142,101343548,2398536889",
    ),
    "A389759": (
        3,
        False,
        1,
        (32, 53),
        "1,0,0,0,0,0,0,0,0,2,2,8,8,4,0,8,0,0,20,44,52,465,276,"
        "396,988,824,560,3888,1384,3048,10348,12796,10672,69831,36962,57248,171104,"
        "155756,128864,815520,405024,646272,2219336,2132304,1838784,11184337,6011834,"
        "8636880,30354388,26341332,23400992,138689004,75211944",
    ),
    "A389754": (
        4,
        False,
        1,
        (33, 55),
        "1,0,0,0,0,0,0,0,0,0,2,8,0,16,40,0,0,20,144,82,0,269,"
        "1172,744,0,2643,13711,6378,0,15192,72803,31088,0,82790,440955,189688,0,518913,"
        "2921478,1213112,0,3044484,17084437,6683852,0,16550347,96400406,36486328,0,"
        "90602461,550731140,201282470,0,492087597,3080159951",
    ),
    "A389755": (
        5,
        False,
        1,
        (31, 49),
        "1,0,0,0,0,0,0,0,0,0,0,0,0,4,0,0,4,95,144,82,16,125,"
        "1188,4292,864,416,1030,28229,40770,18784,3858,38255,490809,2422436,622868,"
        "274910,781472,19903840,34518608,18061054,3321476,21614495,275004291,"
        "1129158488,264895640,105735266,308434443,8657614329,16039377654",
    ),
    "A389756": (
        6,
        False,
        1,
        (39, 42),
        "1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,53,1286,1172,"
        "744,207,800,4607,60293,40770,18784,9133,44778,247872,4453920,3354758,3318960,"
        "1321288,6063880,27757719,465898661,415326332,389969466",
    ),
    "A389757": (
        7,
        False,
        1,
        (41, 42),
        "1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,4,44,52,160,239,"
        "1595,1391,13438,13711,6378,1930,11394,48948,312319,1151375,2422436,622868,"
        "577180,1063017,11791551,34929196,398826652,415326332,389969466",
    ),
    "A389758": (
        8,
        False,
        1,
        (30, 38),
        "1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,24,276,396,"
        "164,1034,3470,6404,5555,74927,72803,31088,8932,53645,345827,1892591,3134440,"
        "32766547",
    ),
}


def partial_board(rows, cells):
    cols = -(-cells // rows)
    return "\n".join(
        "".join("." if c * rows + r < cells else "#" for c in range(cols)) for r in range(rows)
    )


# A389756's last two boards (6 rows, 41 and 42 cells) are A389757's (7 rows)
# turned a quarter: both sweep the same columns of 6 squares in the same order,
# so each count is taken once, from A389757, and A389756 only checks here that
# the published terms and the boards agree.
TURNED = {"A389756": ("A389757", (41, 42))}


def _terms(name):
    _, _, offset, _, data = KNUTH_PARTIAL[name]
    return dict(enumerate((int(t) for t in data.split(",")), offset))


#: The terms whose count takes more than 5 s on 2 cores: they run the same
#: code on a longer board, so they are checked with the rest, and timed, by
#: benches/knuth_partial_boards.py (docs/performance.md), not in the suite.
IN_THE_BENCH = {"A383662": {32}, "A383664": {26}, "A389756": {40}, "A389757": {41}}


def checked_terms(name, every=False):
    """The terms ``n`` of sequence ``name`` counted (by the test, or with
    ``every`` all of them), each with its board's cells."""
    _, closed, _, (first, last), _ = KNUTH_PARTIAL[name]
    turned = TURNED.get(name, (None, ()))[1]
    for n in range(first, last + 1):
        if n not in turned and (every or n not in IN_THE_BENCH.get(name, ())):
            yield n, 2 * n if closed else n


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(KNUTH_PARTIAL))
def test_knuths_partial_boards(name):
    rows, closed, _, (_, last), _ = KNUTH_PARTIAL[name]
    terms = _terms(name)
    assert last == max(terms)
    other, turned = TURNED.get(name, (None, ()))
    for n in turned:
        other_rows, other_closed = KNUTH_PARTIAL[other][:2]
        assert other_closed == closed
        assert n in range(KNUTH_PARTIAL[other][3][0], KNUTH_PARTIAL[other][3][1] + 1)
        assert _terms(other)[n] == terms[n], (name, other, n)
        mine = partial_board(rows, n).splitlines()
        theirs = partial_board(other_rows, n).splitlines()
        assert ["".join(column) for column in zip(*mine, strict=True)] == theirs, n
    for n, cells in checked_terms(name):
        tours = count_tours(
            board=partial_board(rows, cells), start="all", closed=closed, method="frontier"
        )
        # Directed, over every start: a closed tour once per square and way,
        # a path once from each end.
        assert tours == terms[n] * (2 * cells if closed else 2), (name, n)
