"""The peg-solitaire board model (holes, jumps, symmetries, text, pictures) and the
brute-force oracle the counting code is checked against."""

from __future__ import annotations

import copy
import doctest
import itertools
import pickle
import xml.etree.ElementTree as ET

import peg_oracle
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from solvers.peg import board as pegboard
from solvers.peg.board import MAX_HOLES, PegBoard

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

CATALOG = {
    "english": PegBoard.english,
    "french": PegBoard.french,
    "wiegleb": PegBoard.wiegleb,
    "diamond(5)": lambda: PegBoard.diamond(5),
    "diamond(3)": lambda: PegBoard.diamond(3),
    "triangle(5)": lambda: PegBoard.triangle(5),
    "triangle(6)": lambda: PegBoard.triangle(6),
    "rectangle(3, 4)": lambda: PegBoard.rectangle(3, 4),
    "rectangle(4, 4)": lambda: PegBoard.rectangle(4, 4),
    "rectangle(1, 1)": lambda: PegBoard.rectangle(1, 1),
}


def boards():
    return [pytest.param(make(), id=name) for name, make in CATALOG.items()]


def as_squares(board, jumps):
    holes = board.holes
    return sorted((holes[a], holes[b], holes[c]) for a, b, c in jumps)


# ---------------------------------------------------------------- the catalog


@pytest.mark.parametrize(
    "board, holes",
    [
        (PegBoard.english(), 33),
        (PegBoard.french(), 37),
        (PegBoard.wiegleb(), 45),
        (PegBoard.diamond(5), 41),
        (PegBoard.diamond(3), 13),
        (PegBoard.diamond(1), 1),
        (PegBoard.triangle(5), 15),
        (PegBoard.triangle(10), 55),
        (PegBoard.rectangle(3, 4), 12),
        (PegBoard.rectangle(8, 8), 64),
    ],
)
def test_hole_counts(board, holes):
    assert len(board) == len(board.holes) == holes
    assert list(board) == list(board.holes) == sorted(board.holes)


def test_english_board():
    board = PegBoard.english()
    assert board.geometry == "square"
    assert (board.rows, board.cols) == (7, 7)
    assert board.center == (3, 3)
    assert (3, 3) in board and (0, 0) not in board and (0, 2) in board
    assert board.holes[board.index((3, 3))] == (3, 3)
    # the cross: rows 2..4 full, columns 2..4 full, nothing else
    expected = {(r, c) for r in range(7) for c in range(7) if 2 <= r <= 4 or 2 <= c <= 4}
    assert set(board.holes) == expected
    assert repr(board) == "PegBoard.english()"


def test_other_shapes():
    french = PegBoard.french()
    assert set(french.holes) - set(PegBoard.english().holes) == {(1, 1), (1, 5), (5, 1), (5, 5)}
    wiegleb = PegBoard.wiegleb()
    assert (wiegleb.rows, wiegleb.cols, wiegleb.center) == (9, 9, (4, 4))
    assert all(3 <= r <= 5 or 3 <= c <= 5 for r, c in wiegleb.holes)
    # the 41-hole diamond: rows of 1, 3, 5, 7, 9, 7, 5, 3, 1 holes
    diamond = PegBoard.diamond(5)
    widths = [sum(1 for r, _ in diamond.holes if r == row) for row in range(9)]
    assert widths == [1, 3, 5, 7, 9, 7, 5, 3, 1]
    assert diamond.center == (4, 4)
    triangle = PegBoard.triangle(5)
    assert triangle.geometry == "triangle"
    assert set(triangle.holes) == {(r, c) for r in range(5) for c in range(r + 1)}


def test_catalog_reprs():
    assert repr(PegBoard.french()) == "PegBoard.french()"
    assert repr(PegBoard.wiegleb()) == "PegBoard.wiegleb()"
    assert repr(PegBoard.diamond(4)) == "PegBoard.diamond(4)"
    assert repr(PegBoard.triangle(5)) == "PegBoard.triangle(5)"
    assert repr(PegBoard.rectangle(3, 4)) == "PegBoard.rectangle(3, 4)"
    assert repr(PegBoard.parse("oo\no")) == "PegBoard(3 holes, square 2x2)"
    for board in (PegBoard.english(), PegBoard.diamond(4), PegBoard.triangle(4)):
        assert eval(repr(board)) == board


@pytest.mark.parametrize(
    "call, error",
    [
        (lambda: PegBoard.rectangle(9, 8), ValueError),  # 72 holes
        (lambda: PegBoard.rectangle(65, 1), ValueError),
        (lambda: PegBoard.rectangle(10**9, 10**9), ValueError),  # refused before building
        (lambda: PegBoard.triangle(11), ValueError),  # 66 holes
        (lambda: PegBoard.diamond(7), ValueError),  # 85 holes
        (lambda: PegBoard([(0, c) for c in range(65)]), ValueError),
        (lambda: PegBoard.parse("o" * 65), ValueError),
        (lambda: PegBoard.parse("\n".join(["oooooooo"] * 9)), ValueError),
    ],
)
def test_more_than_64_holes_refused(call, error):
    with pytest.raises(error, match="64") as info:
        call()
    assert "the core stores a board in 64 bits" in str(info.value)


def test_64_holes_allowed():
    assert MAX_HOLES == 64
    assert len(PegBoard.rectangle(8, 8)) == len(PegBoard.rectangle(1, 64)) == 64
    assert len(PegBoard.parse("\n".join(["oooooooo"] * 8))) == 64


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: PegBoard.rectangle(0, 3), ValueError, "rows"),
        (lambda: PegBoard.rectangle(3, -1), ValueError, "cols"),
        (lambda: PegBoard.rectangle("3", 4), TypeError, "rows"),
        (lambda: PegBoard.rectangle(3, 4.0), TypeError, "cols"),
        (lambda: PegBoard.rectangle(True, 4), TypeError, "bool"),
        (lambda: PegBoard.triangle(0), ValueError, "rows"),
        (lambda: PegBoard.triangle(None), TypeError, "rows"),
        (lambda: PegBoard.diamond(0), ValueError, "n"),
        (lambda: PegBoard.diamond(2.5), TypeError, "n"),
        (lambda: PegBoard([]), ValueError, "at least one hole"),
        (lambda: PegBoard("ooo"), TypeError, "parse"),
        (lambda: PegBoard(5), TypeError, "iterable"),
        (lambda: PegBoard([(0, 0), (0, "1")]), TypeError, "hole"),
        (lambda: PegBoard([(0, 0), (0, 0)]), ValueError, "twice"),
        (lambda: PegBoard([(0, 0)], geometry="hex"), ValueError, "geometry"),
        (lambda: PegBoard([(0, 0)], geometry=3), TypeError, "geometry"),
        (lambda: PegBoard([(1, 0), (1, 1)]), ValueError, "row 0"),
        (lambda: PegBoard([(0, 2), (1, 3)]), ValueError, "column 0"),
        (lambda: PegBoard([(0, 0), (1, 2)], "triangle"), ValueError, "0 <= c <= r"),
        (lambda: PegBoard.parse(b"ooo"), TypeError, "str"),
        (lambda: PegBoard.parse("ooo", triangle=1), TypeError, "triangle"),
    ],
)
def test_bad_arguments(call, error, words):
    with pytest.raises(error, match=words):
        call()


def test_numpy_like_integers_accepted():
    class Index:
        def __init__(self, n):
            self.n = n

        def __index__(self):
            return self.n

    assert PegBoard.rectangle(Index(3), Index(4)) == PegBoard.rectangle(3, 4)
    assert PegBoard.english().normalize_square(Index(16)) == 16
    assert PegBoard.english().normalize_square((Index(3), Index(3))) == 16


# ---------------------------------------------------------------- squares


def test_index_and_normalize_square():
    board = PegBoard.english()
    for i, square in enumerate(board.holes):
        assert board.index(square) == i
        assert board.normalize_square(square) == i
        assert board.normalize_square(list(square)) == i
        assert board.normalize_square(i) == i
    with pytest.raises(ValueError, match=r"\(0, 0\) is not a hole of PegBoard.english\(\)"):
        board.index((0, 0))
    with pytest.raises(ValueError, match=r"start \(7, 3\) is not a hole"):
        board.normalize_square((7, 3), "start")
    with pytest.raises(ValueError, match="0..32"):
        board.normalize_square(33)
    with pytest.raises(ValueError, match="finish -1"):
        board.normalize_square(-1, "finish")
    for bad in (True, False, "ab", "d4", 1.0, (1, 2, 3), (1.0, 2), None, {3: 3}):
        with pytest.raises(TypeError):
            board.normalize_square(bad)
    for bad in (16, "ab", (3, 3.0), True):
        with pytest.raises(TypeError):
            board.index(bad)


# ---------------------------------------------------------------- jumps


def test_english_has_76_jumps():
    # Lines of three holes: rows 0, 1, 5, 6 hold 3 holes (one line each), rows 2..4
    # hold 7 (five lines each): 4 + 15 = 19 across, 19 down by symmetry; each line
    # is a jump in both directions: 2 * (19 + 19) = 76.
    board = PegBoard.english()
    assert len(board.jumps) == 76
    assert as_squares(board, board.jumps) == peg_oracle.english()[1]


@pytest.mark.parametrize("rows", range(1, 11))
def test_triangle_jumps(rows):
    # In each of the 3 directions there are lines of 1, 2, ..., rows holes, and a
    # line of L holes holds L - 2 jumps each way: 2 * 3 * sum(L - 2 for L >= 3).
    expected = 6 * sum(length - 2 for length in range(3, rows + 1))
    assert expected == 3 * (rows - 1) * (rows - 2)
    board = PegBoard.triangle(rows)
    assert len(board.jumps) == expected
    assert as_squares(board, board.jumps) == peg_oracle.triangle(rows)[1]


@pytest.mark.parametrize(
    "board, oracle_board",
    [
        (PegBoard.rectangle(3, 4), peg_oracle.rectangle(3, 4)),
        (PegBoard.rectangle(1, 5), peg_oracle.rectangle(1, 5)),
        (PegBoard.rectangle(8, 8), peg_oracle.rectangle(8, 8)),
        (PegBoard.diamond(3), peg_oracle.diamond(3)),
        (PegBoard.diamond(5), peg_oracle.diamond(5)),
    ],
    ids=["3x4", "1x5", "8x8", "diamond3", "diamond5"],
)
def test_jumps_agree_with_the_oracle(board, oracle_board):
    holes, jumps = oracle_board
    assert list(board.holes) == holes
    assert as_squares(board, board.jumps) == jumps


@pytest.mark.parametrize("board", boards())
def test_jump_structure(board):
    jumps = board.jumps
    assert list(jumps) == sorted(set(jumps))
    assert set(jumps) == {(c, b, a) for a, b, c in jumps}
    directions = pegboard.DIRECTIONS[board.geometry]
    for a, b, c in jumps:
        (r0, c0), (r1, c1), (r2, c2) = board.holes[a], board.holes[b], board.holes[c]
        assert (r1 - r0, c1 - c0) == (r2 - r1, c2 - c1) in directions


# ---------------------------------------------------------------- symmetries


@pytest.mark.parametrize(
    "board, size",
    [
        (PegBoard.english(), 8),
        (PegBoard.french(), 8),
        (PegBoard.wiegleb(), 8),
        (PegBoard.diamond(5), 8),
        (PegBoard.triangle(5), 6),
        (PegBoard.triangle(4), 6),
        (PegBoard.triangle(1), 1),
        (PegBoard.rectangle(3, 4), 4),
        (PegBoard.rectangle(4, 4), 8),
        (PegBoard.rectangle(1, 5), 2),
        (PegBoard.parse("oo\no"), 2),
        (PegBoard.parse("ooo\no"), 1),
    ],
)
def test_symmetry_group_sizes(board, size):
    assert len(board.symmetries) == size


@pytest.mark.parametrize("board", boards())
def test_symmetries_form_a_group_that_keeps_jumps(board):
    perms = board.symmetries
    n = len(board)
    assert perms[0] == tuple(range(n))
    assert len(set(perms)) == len(perms)
    jumps = set(board.jumps)
    for perm in perms:
        assert sorted(perm) == list(range(n))
        assert {(perm[a], perm[b], perm[c]) for a, b, c in jumps} == jumps
    group = set(perms)
    for p, q in itertools.product(perms, repeat=2):
        assert tuple(p[q[i]] for i in range(n)) in group


def test_square_symmetries_are_the_grid_symmetries():
    # The 8 symmetries of a 7x7 grid, written out.
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (r, 6 - c),
        lambda r, c: (6 - r, c),
        lambda r, c: (6 - r, 6 - c),
        lambda r, c: (c, r),
        lambda r, c: (6 - c, 6 - r),
        lambda r, c: (c, 6 - r),
        lambda r, c: (6 - c, r),
    ]
    board = PegBoard.english()
    expected = {tuple(board.index(m(r, c)) for r, c in board.holes) for m in maps}
    assert set(board.symmetries) == expected
    # a 3x4 rectangle keeps only the identity, the two mirrors and the half turn
    rect = PegBoard.rectangle(3, 4)
    expected = {
        tuple(rect.index(m(r, c)) for r, c in rect.holes)
        for m in (
            lambda r, c: (r, c),
            lambda r, c: (r, 3 - c),
            lambda r, c: (2 - r, c),
            lambda r, c: (2 - r, 3 - c),
        )
    }
    assert set(rect.symmetries) == expected


@pytest.mark.parametrize("rows", range(1, 11))
def test_triangle_symmetries_are_the_triangle_symmetries(rows):
    n = rows - 1
    maps = [
        lambda r, c: (r, c),
        lambda r, c: (r, r - c),  # mirror in the vertical axis
        lambda r, c: (n - c, r - c),  # rotation by a third of a turn
        lambda r, c: (n - r + c, n - r),  # ... and by two thirds
        lambda r, c: (n - c, n - r),  # mirror through the bottom-left corner
        lambda r, c: (n - r + c, c),  # mirror through the bottom-right corner
    ]
    board = PegBoard.triangle(rows)
    expected = {tuple(board.index(m(r, c)) for r, c in board.holes) for m in maps}
    assert len(expected) == (6 if rows > 1 else 1)
    assert set(board.symmetries) == expected


def test_hexagon_on_the_triangular_grid_has_12_symmetries():
    hexagon = PegBoard.parse(
        """
            #
           # #
          o o o
         o o o o
        o o o o o
       # o o o o #
      # # o o o # #
        """,
        triangle=True,
    )
    assert len(hexagon) == 19
    assert len(hexagon.symmetries) == 12
    assert hexagon.center == (4, 2)


def test_symmetries_fixing():
    board = PegBoard.english()
    assert board.symmetries_fixing() == board.symmetries
    assert len(board.symmetries_fixing((3, 3))) == 8
    assert len(board.symmetries_fixing(16)) == 8
    # (2, 4) lies on the anti-diagonal r + c = 6: the identity and that mirror
    fixing = board.symmetries_fixing((2, 4))
    assert len(fixing) == 2
    mirror = fixing[1]
    assert all(board.holes[mirror[i]] == (6 - c, 6 - r) for i, (r, c) in enumerate(board.holes))
    # (0, 3) lies on the vertical axis; (0, 2) on no axis at all
    assert len(board.symmetries_fixing((0, 3))) == 2
    assert len(board.symmetries_fixing((0, 2))) == 1
    assert len(board.symmetries_fixing((2, 4), (4, 2))) == 2
    assert len(board.symmetries_fixing((2, 4), (3, 3), None)) == 2
    assert len(board.symmetries_fixing((2, 4), (0, 3))) == 1
    assert board.symmetries_fixing((0, 2))[0] == board.symmetries[0]
    triangle = PegBoard.triangle(5)
    assert len(triangle.symmetries_fixing((0, 0))) == 2
    assert len(triangle.symmetries_fixing((2, 1))) == 2
    assert len(triangle.symmetries_fixing((3, 1))) == 2  # on the mirror through (4, 0)
    assert len(triangle.symmetries_fixing((4, 1))) == 1
    with pytest.raises(ValueError, match="not a hole"):
        board.symmetries_fixing((0, 0))
    with pytest.raises(TypeError):
        board.symmetries_fixing("centre")


@pytest.mark.parametrize(
    "board, oracle_board",
    [
        (PegBoard.triangle(5), peg_oracle.triangle(5)),
        (PegBoard.rectangle(3, 4), peg_oracle.rectangle(3, 4)),
        (PegBoard.rectangle(4, 4), peg_oracle.rectangle(4, 4)),
    ],
    ids=["triangle5", "3x4", "4x4"],
)
def test_symmetric_starts_and_finishes_have_equal_counts(board, oracle_board):
    # The oracle knows nothing of symmetry: counts must agree on symmetric images.
    holes, jumps = oracle_board
    for start in holes[:4]:
        counts = peg_oracle.finish_counts_bruteforce(holes, jumps, start)
        s = board.index(start)
        for perm in board.symmetries:
            image = peg_oracle.finish_counts_bruteforce(holes, jumps, board.holes[perm[s]])
            for i, square in enumerate(board.holes):
                assert image[board.holes[perm[i]]] == counts[square]


# ---------------------------------------------------------------- text


@pytest.mark.parametrize("board", boards())
def test_text_round_trip(board):
    text = str(board)
    assert text == board.draw()
    assert "." not in text
    triangle = board.geometry == "triangle"
    assert PegBoard.parse(text, triangle=triangle) == board
    for empty in ([], [0], [len(board) - 1], range(0, len(board), 3)):
        drawn = board.draw(empty=empty)
        assert drawn.count(".") == len(set(empty))
        back, gone = PegBoard.parse_position(drawn, triangle=triangle)
        assert back == board
        assert gone == {board.holes[i] for i in empty}


def test_drawings():
    assert str(PegBoard.english()).splitlines() == [
        "  ooo",
        "  ooo",
        "ooooooo",
        "ooooooo",
        "ooooooo",
        "  ooo",
        "  ooo",
    ]
    assert str(PegBoard.triangle(3)) == "  o\n o o\no o o"
    assert PegBoard.triangle(3).draw(empty=[(0, 0)]) == "  .\n o o\no o o"
    # one (row, col) tuple is one square; a list of two ints is two indices
    assert PegBoard.rectangle(2, 3).draw(empty=(1, 2)) == "ooo\noo."
    assert PegBoard.rectangle(2, 3).draw(empty=[1, 2]) == "o..\nooo"
    with pytest.raises(ValueError, match="not a hole"):
        PegBoard.english().draw(empty=(0, 0))
    with pytest.raises(TypeError):
        PegBoard.english().draw(empty="d4")
    with pytest.raises(TypeError):
        PegBoard.english().draw(empty=3)


def test_parse_examples():
    board, empty = PegBoard.parse_position(
        """
          ooo
          ooo
        ooooooo
        ooo.ooo
        ooooooo
          ooo
          ooo
        """
    )
    assert board == PegBoard.english() and empty == {(3, 3)}
    # every peg and hole character; '#' and spaces for no hole
    board, empty = PegBoard.parse_position("#x1o\n#.0#\n####")
    assert board.holes == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1))  # the bounding grid
    assert empty == {(1, 0), (1, 1)}
    # Windows line ends and trailing spaces
    assert PegBoard.parse("ooo  \r\nooo\r\n") == PegBoard.rectangle(2, 3)
    # a row without holes inside the board is kept
    assert PegBoard.parse("o\n\no").holes == ((0, 0), (2, 0))
    # triangles: staggered, compact or left-aligned, '#' for a missing hole
    for text in ("  o\n o o\no o o", "o\noo\nooo", "o\no o\no o o"):
        assert PegBoard.parse(text, triangle=True) == PegBoard.triangle(3)
    board = PegBoard.parse("  #\n o o\no . o", triangle=True)
    assert board.holes == ((1, 0), (1, 1), (2, 0), (2, 1), (2, 2))
    assert str(board) == "  #\n o o\no o o"
    assert len(board.symmetries) == 2


@pytest.mark.parametrize(
    "text, triangle, words",
    [
        ("ooo\nooo\nooooz", False, "line 3, column 5: unexpected 'z'"),
        ("\n  ooo\n  oAo", False, "line 3, column 4: unexpected 'A'"),
        ("ooo\noo\to", False, "line 2, column 3: tab"),
        ("\to", False, "line 1, column 1: tab"),
        ("", False, "empty"),
        ("   \n\n  ", False, "empty"),
        ("###\n# #", False, "no holes"),
        ("  o\n o o\no o", True, "line 3: row 2 of a triangle has 3 holes"),
        ("  o\n o o o\no o o", True, "line 2: row 1 of a triangle has 2 holes"),
        ("o o\no o", True, "line 1: row 0"),
        ("o\n\no o o", True, "line 2"),
        ("o\nx y", True, "line 2, column 3: unexpected 'y'"),
        ("o\u00a0o", False, "unexpected"),
        ("o\x0bo", False, "unexpected"),
    ],
)
def test_parse_errors(text, triangle, words):
    with pytest.raises(ValueError, match=words.replace("(", r"\(")) as info:
        PegBoard.parse(text, triangle=triangle)
    if "unexpected" in words:
        assert "expected o, x, 1 for a peg, . or 0 for an empty hole, space or # for no hole" in (
            str(info.value)
        )


BOARD_CHARS = "ox1.0# \n"


@SETTINGS
@given(
    st.one_of(
        st.text(),
        st.text(alphabet=BOARD_CHARS, max_size=200),
        st.text(alphabet=st.sampled_from(BOARD_CHARS + "\t\r\u2028\x0cz"), max_size=100),
    ),
    st.booleans(),
)
def test_parse_fuzz(text, triangle):
    try:
        board, empty = PegBoard.parse_position(text, triangle=triangle)
    except ValueError:
        return
    assert isinstance(board, PegBoard)
    assert 1 <= len(board) <= MAX_HOLES
    assert empty <= set(board.holes)
    again, gone = PegBoard.parse_position(board.draw(empty=list(empty)), triangle=triangle)
    assert (again, gone) == (board, empty)


@st.composite
def hole_sets(draw):
    triangle = draw(st.booleans())
    rows = draw(st.integers(1, 9))
    if triangle:
        cells = [(r, c) for r in range(rows) for c in range(r + 1)]
    else:
        cols = draw(st.integers(1, 9))
        cells = [(r, c) for r in range(rows) for c in range(cols)]
    holes = draw(st.sets(st.sampled_from(cells), min_size=1, max_size=MAX_HOLES))
    if not triangle:  # onto the bounding grid
        top, left = min(r for r, _ in holes), min(c for _, c in holes)
        holes = {(r - top, c - left) for r, c in holes}
    return holes, "triangle" if triangle else "square"


@SETTINGS
@given(hole_sets(), st.data())
def test_random_boards(spec, data):
    holes, geometry = spec
    board = PegBoard(holes, geometry)
    assert set(board.holes) == holes and board.geometry == geometry
    assert PegBoard.parse(str(board), triangle=geometry == "triangle") == board
    # jumps agree with the oracle's own jump generation
    directions = (
        peg_oracle.TRIANGLE_DIRECTIONS if geometry == "triangle" else peg_oracle.SQUARE_DIRECTIONS
    )
    assert as_squares(board, board.jumps) == peg_oracle.jumps_of(holes, directions)
    # every symmetry keeps the jumps, and the symmetries fixing a hole fix it
    jumps = set(board.jumps)
    for perm in board.symmetries:
        assert {(perm[a], perm[b], perm[c]) for a, b, c in jumps} == jumps
    square = data.draw(st.sampled_from(board.holes))
    i = board.index(square)
    assert all(p[i] == i for p in board.symmetries_fixing(square))
    assert len(board.symmetries) % len(board.symmetries_fixing(square)) == 0
    # pictures
    svg = ET.fromstring(board.to_svg())
    assert len(svg.findall("{http://www.w3.org/2000/svg}circle")) == len(board)


# ---------------------------------------------------------------- objects


def test_equality_hash_and_immutability():
    a, b = PegBoard.english(), PegBoard.parse(str(PegBoard.english()))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != PegBoard.french()
    assert PegBoard.rectangle(1, 1) == PegBoard.diamond(1)
    # same holes, other grid: not equal
    assert PegBoard([(0, 0), (1, 0), (1, 1)]) != PegBoard([(0, 0), (1, 0), (1, 1)], "triangle")
    assert a != "english" and a != a.holes
    with pytest.raises(AttributeError):
        a.holes = ()
    with pytest.raises(AttributeError):
        a._holes = ()
    with pytest.raises(AttributeError):
        del a._geometry
    for other in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert other == a and other.symmetries == a.symmetries and other.jumps == a.jumps


def test_svg():
    board = PegBoard.english()
    for empty in ((), [(3, 3)], range(10)):
        text = board.to_svg(empty=empty)
        root = ET.fromstring(text)
        assert root.tag == "{http://www.w3.org/2000/svg}svg"
        circles = root.findall("{http://www.w3.org/2000/svg}circle")
        assert len(circles) == len(board)
        hollow = [c for c in circles if c.get("fill") == "none"]
        assert len(hollow) == len(set(board.normalize_squares(empty, "empty")))
        assert {c.get("class") for c in hollow} <= {"hole"}
    assert board._repr_svg_() == board.to_svg()
    triangle = ET.fromstring(PegBoard.triangle(5).to_svg(empty=[(0, 0)], cell=20))
    circles = triangle.findall("{http://www.w3.org/2000/svg}circle")
    assert len(circles) == 15
    assert circles[0].get("fill") == "none"
    # the top corner sits in the middle of the bottom row
    bottom = [float(c.get("cx")) for c in circles[-5:]]
    assert float(circles[0].get("cx")) == pytest.approx(sum(bottom) / 5)
    with pytest.raises(ValueError):
        board.to_svg(cell=-1)


def test_docstring_examples():
    result = doctest.testmod(pegboard, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
    assert result.attempted >= 20


# ---------------------------------------------------------------- the oracle


def test_oracle_reproduces_the_published_triangle_count():
    # 15-hole triangle, corner empty, last peg anywhere: durangobill.com/PegSolitaire.html
    holes, jumps = peg_oracle.triangle(5)
    assert len(holes) == 15 and len(jumps) == 36
    assert peg_oracle.count_solutions(holes, jumps, (0, 0)) == 29_760
    finishes = peg_oracle.finish_counts_bruteforce(holes, jumps, (0, 0))
    assert sum(finishes.values()) == 29_760
    # by the mirror r, c -> r, r - c the two lower corners are equally likely
    assert finishes[(3, 0)] == finishes[(3, 3)]


@pytest.mark.parametrize(
    "oracle_board",
    [
        peg_oracle.triangle(4),
        peg_oracle.triangle(5),
        peg_oracle.rectangle(3, 4),
        peg_oracle.rectangle(3, 5),
        peg_oracle.rectangle(4, 4),
        peg_oracle.diamond(3),
    ],
    ids=["triangle4", "triangle5", "3x4", "3x5", "4x4", "diamond3"],
)
def test_the_two_oracle_methods_agree(oracle_board):
    holes, jumps = oracle_board
    for start in holes[:: max(1, len(holes) // 4)]:
        finishes = peg_oracle.finish_counts_bruteforce(holes, jumps, start)
        assert set(finishes) == set(holes)
        assert sum(finishes.values()) == peg_oracle.count_solutions(holes, jumps, start)
        for finish in holes:
            assert finishes[finish] == peg_oracle.count_solutions(holes, jumps, start, finish)


@pytest.mark.parametrize(
    "oracle_board, start",
    [
        (peg_oracle.triangle(4), (1, 0)),
        pytest.param(peg_oracle.triangle(5), (0, 0), marks=pytest.mark.slow),
        (peg_oracle.rectangle(3, 4), (0, 1)),
        (peg_oracle.rectangle(1, 4), (0, 1)),
    ],
    ids=["triangle4", "triangle5", "3x4", "1x4"],
)
def test_oracle_enumeration_and_checker(oracle_board, start):
    holes, jumps = oracle_board
    found = list(peg_oracle.solutions(holes, jumps, start))
    assert len(found) == peg_oracle.count_solutions(holes, jumps, start)
    assert len(found) > 0
    assert len({tuple(s) for s in found}) == len(found)
    assert all(peg_oracle.is_solution(holes, jumps, start, s) for s in found[:200])
    first = found[0]
    assert not peg_oracle.is_solution(holes, jumps, start, first[:-1])
    assert not peg_oracle.is_solution(holes, jumps, start, first[1:])
    a, b, c = first[0]
    assert not peg_oracle.is_solution(holes, jumps, start, [(c, b, a), *first[1:]])
