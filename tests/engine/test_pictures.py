"""Pictures: SVG and HTML checked as text, and drawn by headless Chromium and
looked at pixel by pixel, the way a person would look at them.

The Chromium tests draw every picture once (a gallery page) and the stepping
page a few times, then ask of the pixels what a person would: is this the
size it claims, does the path visit every square, are the pegs where the
game says they are.
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from itertools import pairwise
from pathlib import Path

import chromium
import pytest
import solvers
from chromium import colour_at
from solvers import LangfordPairs, PegBoard, PegSolution, Sudoku, TilingPuzzle
from solvers._engine import _draw as render
from solvers.cover import pictures as cover_pictures
from solvers.cover import piece_set
from solvers.nqueens import pictures as queen_pictures
from solvers.peg import pictures as peg_pictures

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]
PICTURES = ROOT / "docs" / "pictures"
KNIGHT = ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))

TOUR_COLOURS = {
    "light": render.LIGHT,
    "dark": render.DARK,
    "missing": render.MISSING,
    "path": render.PATH,
    "start": render.START,
    "end": render.END,
    "number": "#000000",
}
QUEEN_COLOURS = {"light": render.LIGHT, "dark": render.DARK, "queen": queen_pictures.QUEEN}
PEG_COLOURS = {
    "background": render.MISSING,
    "board": render.LIGHT,
    "peg": peg_pictures.PEG,
    "rim": render.HOLE_RIM,
    "landed": render.LANDED,
    "emptied": render.EMPTIED,
}


def english_game() -> PegSolution:
    return solvers.find_peg_solution(PegBoard.english(), start=(3, 3))


def triangle_game() -> PegSolution:
    return solvers.find_peg_solution(PegBoard.triangle(5), start=(0, 0), finish=None)


def size_of(svg: str) -> tuple[float, float]:
    root = ET.fromstring(svg)
    return float(root.get("width")), float(root.get("height"))


def hole_centre(board: PegBoard, square: tuple[int, int], cell: float) -> tuple[float, float]:
    """Where a hole should be drawn, from the geometry alone: the centre of its
    cell on the square grid; on the triangular grid, rows ``cell * sqrt(3)/2``
    apart, each centred, the top hole's hexagon touching the top edge."""
    r, c = square
    if board.geometry == "square":
        return (c + 0.5) * cell, (r + 0.5) * cell
    x = (c - r / 2 + (board.rows - 1) / 2 + 0.5) * cell
    return x, cell / math.sqrt(3) + r * cell * math.sqrt(3) / 2


def board_size(board: PegBoard, cell: float) -> tuple[float, float]:
    if board.geometry == "square":
        return board.cols * cell, board.rows * cell
    return board.rows * cell, (board.rows - 1) * cell * math.sqrt(3) / 2 + 2 * cell / math.sqrt(3)


def pegs_seen(image, board, cell, x0, y0):
    """``{square: colour name}`` at every hole centre of a board drawn at (x0, y0)."""
    seen = {}
    for square in board.holes:
        x, y = hole_centre(board, square, cell)
        seen[square] = colour_at(image, x0 + x, y0 + y, PEG_COLOURS)
    return seen


def check_position(seen, pegs, jump):
    """The holes show exactly ``pegs``, with ``jump`` (or none) marked."""
    assert {square for square, colour in seen.items() if colour in ("peg", "landed")} == pegs
    marked = {square: colour for square, colour in seen.items() if colour in ("landed", "emptied")}
    if jump is None:
        assert marked == {}
    else:
        assert marked == {jump.landing: "landed", jump.source: "emptied", jump.over: "emptied"}
    # every other hole is a hollow circle: the board shows through
    assert all(c in ("peg", "landed", "emptied", "board") for c in seen.values())


# ---------------------------------------------------------------- as text


@pytest.mark.parametrize(
    "make",
    [
        lambda: solvers.find_tour(5, 6).to_svg(),
        lambda: solvers.find_tour(6, 6, closed=True).to_svg(numbers=False),
        lambda: solvers.find_queens(8).to_svg(),
        lambda: PegBoard.english().to_svg(empty=[(3, 3), (0, 2)]),
        lambda: PegBoard.triangle(5).to_svg(empty=[(0, 0)], cell=20),
        lambda: english_game().to_svg(),
        lambda: english_game().to_svg(cell=9, columns=5),
        lambda: triangle_game().to_svg(columns=20),
    ],
    ids=["tour", "closed-tour", "queens", "english", "triangle", "strip", "strip-5", "tri-strip"],
)
def test_svg_is_well_formed_ascii_and_deterministic(make):
    text = make()
    assert text == make()
    assert text.isascii()
    root = ET.fromstring(text)
    assert root.tag == SVG + "svg"
    width, height = size_of(text)
    assert width > 0 and height > 0
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"


@pytest.mark.parametrize(
    "make",
    [
        lambda: solvers.find_tour(5, 6),
        lambda: solvers.find_queens(8),
        PegBoard.english,
        triangle_game,
    ],
    ids=["Tour", "Placement", "PegBoard", "PegSolution"],
)
def test_results_show_themselves_in_jupyter(make):
    result = make()
    svg = result._repr_svg_()
    assert svg == result.to_svg()
    assert ET.fromstring(svg).tag == SVG + "svg"


def test_position_svg_is_the_board_picture():
    board = PegBoard.english()
    empty = [(3, 3), (6, 4)]
    assert board.to_svg(empty=empty, cell=30) == peg_pictures.peg_position_svg(
        board, empty, cell=30
    )
    root = ET.fromstring(board.to_svg(empty=empty))
    # one cell of board colour per hole, nothing off the board
    (cells,) = [p for p in root.iter(SVG + "path") if p.get("class") == "cells"]
    assert cells.get("d").count("M") == len(board)
    assert cells.get("fill") == render.LIGHT
    kinds = [c.get("class") for c in root.iter(SVG + "circle")]
    assert kinds.count("hole") == 2 and kinds.count("peg") == 31
    with pytest.raises(ValueError, match="not a hole"):
        board.to_svg(empty=[(0, 0)])


def test_strip_frames_labels_and_jump_marks():
    game = english_game()
    root = ET.fromstring(game.to_svg(columns=3))
    frames = [g for g in root.iter(SVG + "g") if g.get("class") == "frame"]
    assert len(frames) == len(game) + 1 == 32
    labels = [frame.find(SVG + "text").text for frame in frames]
    assert labels[0] == "start"
    assert labels[1] == "1. (1,3)\u2192(3,3)"
    for k, (jump, label) in enumerate(zip(game, labels[1:], strict=True), start=1):
        (a, b), (c, d) = jump.source, jump.landing
        assert label == f"{k}. ({a},{b})\u2192({c},{d})"
    # columns=3: 3 frames a row, 11 rows
    places = [re.fullmatch(r"translate\((.*),(.*)\)", f.get("transform")).groups() for f in frames]
    assert len({x for x, _ in places}) == 3 and len({y for _, y in places}) == 11
    for k, (frame, pegs) in enumerate(zip(frames, game.positions(), strict=True)):
        circles = frame.findall(SVG + "circle")
        kinds = [c.get("class") for c in circles]
        assert len(circles) == 33
        assert sum(kind.startswith("peg") for kind in kinds) == len(pegs) == 32 - k
        assert kinds.count("peg landed") == (k > 0)
        assert kinds.count("hole emptied") == (2 if k > 0 else 0)


def test_strip_arguments():
    game = triangle_game()
    assert size_of(game.to_svg(columns=99)) == size_of(game.to_svg(columns=14))
    assert size_of(game.to_svg(cell=28))[0] > size_of(game.to_svg())[0]
    with pytest.raises(ValueError, match="columns must be at least 1"):
        game.to_svg(columns=0)
    with pytest.raises(TypeError, match="columns must be an integer"):
        game.to_svg(columns="3")
    with pytest.raises(ValueError, match="cell must be a positive number"):
        game.to_svg(cell=-2)
    with pytest.raises(ValueError, match="cell must be a positive number"):
        game.to_html(cell=0)


def test_a_game_without_jumps():
    game = PegSolution(PegBoard.rectangle(1, 2), [], start=(0, 0))
    root = ET.fromstring(game.to_svg())
    assert [t.text for t in root.iter(SVG + "text")] == ["start"]
    page = game.to_html()
    assert page.count('<figure class="step"') == 1
    assert "jump 0 of 0" in page and "start: 1 peg<" in page


def inline_svgs(page: str) -> list[str]:
    return re.findall(r"<svg .*?</svg>", page, flags=re.DOTALL)


def test_html_is_one_self_contained_file():
    game = english_game()
    page = game.to_html()
    assert page == game.to_html()
    assert page.isascii() and page.startswith("<!DOCTYPE html>")
    # nothing is fetched: no links, sources, imports or URLs but the SVG namespace
    for fetch in ("src=", "href=", "url(", "@import", "<link", "<iframe", "<object"):
        assert fetch not in page.lower()
    assert set(re.findall(r"https?://[^\"' ]*", page)) == {"http://www.w3.org/2000/svg"}
    svgs = inline_svgs(page)
    assert len(svgs) == len(game) + 1
    for svg, pegs in zip(svgs, game.positions(), strict=True):
        root = ET.fromstring(svg)
        assert sum(c.get("class").startswith("peg") for c in root.iter(SVG + "circle")) == len(pegs)
    captions = re.findall(r"<figcaption>(.*?)</figcaption>", page)
    assert captions[0] == "start: 32 pegs"
    assert captions[1] == "1. (1,3)&#8594;(3,3): 31 pegs"
    assert captions[-1] == "31. (5,3)&#8594;(3,3): 1 peg"
    for control in ('id="prev"', 'id="next"', 'id="play"', ">jump 0 of 31<"):
        assert control in page
    assert page.count("<script>") == page.count("</script>") == 2


class _OddName(PegBoard):
    """A board whose name needs escaping everywhere it is shown."""

    def __repr__(self) -> str:
        return '<b class="x">Tom & "Jerry"</b>'


def test_text_is_escaped():
    board = _OddName([(0, 0), (0, 1), (0, 2)])
    game = PegSolution(board, [((0, 2), (0, 1), (0, 0))], start=(0, 0))
    for svg in (board.to_svg(), game.to_svg()):
        assert '<b class="x">Tom & "Jerry"</b>' in ET.fromstring(svg).find(SVG + "title").text
    page = game.to_html()
    assert '<b class="x">' not in page and "Tom & " not in page
    assert page.count('&lt;b class="x"&gt;Tom &amp; "Jerry"&lt;/b&gt;') == 2  # title and heading
    for svg in inline_svgs(page):
        ET.fromstring(svg)


# ---------------------------------------------------------------- the committed pictures


@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_committed_pictures_are_what_the_script_makes(tmp_path):
    committed = sorted(p.name for p in PICTURES.iterdir() if p.suffix in (".svg", ".html"))
    assert committed, "docs/pictures has no pictures"
    script = ROOT / "docs" / "make_pictures.py"
    done = subprocess.run(
        [sys.executable, str(script), str(tmp_path), *committed],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for name in committed:
        assert (tmp_path / name).read_bytes() == (PICTURES / name).read_bytes(), (
            f"docs/pictures/{name} is stale: run python docs/make_pictures.py"
        )


# ---------------------------------------------------------------- drawn by Chromium


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    return chromium.browser(tmp_path_factory.mktemp("chromium"))


GALLERY = {
    "tour-5x6": lambda: solvers.find_tour(5, 6).to_svg(numbers=False),
    # the pictures of the README and docs/, as committed (numbers drawn in the squares)
    "tour-8x8": lambda: (PICTURES / "tour-8x8.svg").read_text(encoding="utf-8"),
    "tour-6x6-closed": lambda: (PICTURES / "tour-6x6-closed.svg").read_text(encoding="utf-8"),
    "queens-8": lambda: (PICTURES / "queens-8.svg").read_text(encoding="utf-8"),
    "queens-10": lambda: solvers.find_queens(10, method="search", deterministic=True).to_svg(
        cell=30
    ),
    "english": lambda: PegBoard.english().to_svg(empty=[(3, 3), (0, 2), (4, 5)], cell=48),
    "triangle": lambda: PegBoard.triangle(5).to_svg(empty=[(0, 0), (3, 1)], cell=48),
    "strip": lambda: english_game().to_svg(),
    "tri-strip": lambda: triangle_game().to_svg(columns=5),
    "sudoku": lambda: wikipedia_sudoku().to_svg(cell=SUDOKU_CELL),
    "pentominoes": lambda: pentominoes().to_svg(cell=TILING_CELL),
    "dominoes": lambda: dominoes().to_svg(cell=TILING_CELL),
    "langford": lambda: langford().to_svg(cell=LANGFORD_CELL),
}

# ---------------------------------------------------------------- the exact-cover models' pictures

SUDOKU_CELL = TILING_CELL = LANGFORD_CELL = 40
#: A published puzzle (Wikipedia's "Sudoku" article): 30 digits given.
WIKIPEDIA = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
#: A board with holes: the 6x6 square less two corners and two cells inside.
HOLED = "#....#\n......\n..##..\n......\n......\n......"


def wikipedia_sudoku():
    return Sudoku(WIKIPEDIA).solve()


def pentominoes():
    return TilingPuzzle((6, 10), "pentominoes").find(deterministic=True)


def dominoes():
    return TilingPuzzle(HOLED, "domino", each="any").find(deterministic=True)


def langford():
    return LangfordPairs(7).find(deterministic=True)


@pytest.fixture(scope="module")
def gallery(browser, tmp_path_factory):
    """Every picture of GALLERY drawn once: ``{name: (image, (x, y, w, h), svg)}``."""
    svgs = {name: make() for name, make in GALLERY.items()}
    page, places, window = chromium.gallery(list(svgs.values()))
    path = tmp_path_factory.mktemp("gallery") / "gallery.html"
    path.write_text(page, encoding="utf-8")
    image = browser.screenshot(path, window)
    return {name: (image, place, svgs[name]) for name, place in zip(svgs, places, strict=True)}


@pytest.mark.parametrize("name", list(GALLERY))
def test_a_picture_is_drawn_at_its_size(gallery, name):
    image, (x, y, w, h), _ = gallery[name]
    drawn = chromium.drawn_box(
        image, (x - 10, y - 10, x + math.ceil(w) + 10, y + math.ceil(h) + 10)
    )
    assert drawn is not None, f"{name} is not drawn at all"
    left, top, right, bottom = drawn
    assert (left, top) == (x, y)
    assert abs((right - left) - w) <= 1 and abs((bottom - top) - h) <= 1


@pytest.mark.parametrize(
    ("name", "tour"),
    [
        ("tour-5x6", lambda: solvers.find_tour(5, 6)),
        ("tour-8x8", lambda: solvers.find_tour(8, 8)),
        ("tour-6x6-closed", lambda: solvers.find_tour(6, 6, closed=True)),
    ],
)
def test_a_tour_visits_every_square_along_a_drawn_path(gallery, name, tour):
    image, (x0, y0, width, _), svg = gallery[name]
    tour = tour()
    cell = width / tour.cols
    numbered = "<text" in svg
    moves = list(pairwise(tour))
    if tour.closed:
        moves.append((tour.end, tour.start))

    def at(point):
        return colour_at(image, x0 + point[0] * cell, y0 + point[1] * cell, TOUR_COLOURS)

    def centre(square):
        return square[1] + 0.5, square[0] + 0.5

    def along(move, t):
        (xa, ya), (xb, yb) = centre(move[0]), centre(move[1])
        return xa + t * (xb - xa), ya + t * (yb - ya)

    def clearance(point, move=None):
        """How far ``point`` is from every line but ``move``'s, in cells; 0 where
        a move number may be written (the top left of a square)."""
        x, y = point
        if numbered and x % 1 < 0.6 and y % 1 < 0.4:
            return 0.0
        return min(
            _distance_to_segment(point, centre(a), centre(b)) for a, b in moves if (a, b) != move
        )

    # the path goes through every square; its ends are marked
    assert {at(centre(square)) for square in tour[1:-1]} == {"path"}
    assert at(centre(tour.start)) == "start" and at(centre(tour.end)) == "end"
    # a line joins each square to the next (and the last to the first if
    # closed): look at each where no other line crosses it
    middle = [i / 20 for i in range(5, 16)]
    seen = 0
    for move in moves:
        point = max((along(move, t) for t in middle), key=lambda p: clearance(p, move))
        if clearance(point, move) > 0.15:
            assert at(point) == "path", f"no line from {move[0]} to {move[1]}"
            seen += 1
    assert seen >= 0.9 * len(moves)
    # and no line joins two squares a knight's move apart that the tour does
    # not join: look where such a line would be farthest from every other
    made = {frozenset(move) for move in moves}
    squares = set(tour)
    unmade = sorted(
        (a, (a[0] + dr, a[1] + dc))
        for a in squares
        for dr, dc in KNIGHT
        if (a[0] + dr, a[1] + dc) in squares and frozenset((a, (a[0] + dr, a[1] + dc))) not in made
    )
    point = max((along(move, t) for move in unmade for t in middle), key=clearance)
    assert clearance(point) > 0.25
    assert at(point) in ("light", "dark")


def _distance_to_segment(p, a, b):
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


@pytest.mark.parametrize(
    ("name", "placement"),
    [
        ("queens-8", lambda: solvers.find_queens(8)),
        ("queens-10", lambda: solvers.find_queens(10, method="search", deterministic=True)),
    ],
)
def test_queens_stand_exactly_on_their_squares(gallery, name, placement):
    image, (x0, y0, width, _), _ = gallery[name]
    placement = placement()
    n = len(placement)
    cell = width / n
    for r in range(n):
        for c in range(n):
            seen = colour_at(image, x0 + (c + 0.5) * cell, y0 + (r + 0.5) * cell, QUEEN_COLOURS)
            expected = "queen" if placement[r] == c else ("light", "dark")[(r + c) % 2]
            assert seen == expected, f"square {(r, c)}"


@pytest.mark.parametrize(
    ("name", "board", "empty"),
    [
        ("english", PegBoard.english(), {(3, 3), (0, 2), (4, 5)}),
        ("triangle", PegBoard.triangle(5), {(0, 0), (3, 1)}),
    ],
)
def test_a_peg_position_shows_pegs_holes_and_the_board(gallery, name, board, empty):
    image, (x0, y0, width, height), _ = gallery[name]
    cell = 48
    assert (width, height) == pytest.approx(board_size(board, cell), abs=0.01)
    seen = pegs_seen(image, board, cell, x0, y0)
    check_position(seen, set(board.holes) - empty, None)
    radius = 0.34 * cell
    for square in empty:  # a hollow circle: its rim is drawn
        x, y = hole_centre(board, square, cell)
        assert colour_at(image, x0 + x + radius, y0 + y, PEG_COLOURS) == "rim"
    # the board between neighbouring holes, background off the board
    x, y = hole_centre(board, (2, 1), cell)
    right, _ = hole_centre(board, (2, 2), cell)
    assert colour_at(image, x0 + (x + right) / 2, y0 + y, PEG_COLOURS) == "board"
    if board.geometry == "square":
        grid = [(r, c) for r in range(board.rows) for c in range(board.cols)]
        off = [square for square in grid if square not in board.holes]
        assert len(off) == 16
        points = [((c + 0.5) * cell, (r + 0.5) * cell) for r, c in off]
    else:  # beside the top corner
        x, y = hole_centre(board, (0, 0), cell)
        points = [(x - cell, y), (x + cell, y)]
    for x, y in points:
        assert colour_at(image, x0 + x, y0 + y, PEG_COLOURS) == "background"


def _frames(svg):
    found = re.findall(r'<g class="frame" transform="translate\(([\d.]+),([\d.]+)\)">', svg)
    return [(float(x), float(y)) for x, y in found]


@pytest.mark.parametrize(("name", "game"), [("strip", english_game), ("tri-strip", triangle_game)])
def test_a_strip_shows_every_position_of_the_game(gallery, name, game):
    image, (x0, y0, _, _), svg = gallery[name]
    game = game()
    board, cell = game.board, peg_pictures.STRIP_CELL
    frames = _frames(svg)
    assert len(frames) == len(game) + 1
    bw, bh = board_size(board, cell)
    font = max(8.0, cell * 0.8)
    jumps = [None, *game]
    for k, ((fx, fy), pegs, jump) in enumerate(zip(frames, game.positions(), jumps, strict=True)):
        seen = pegs_seen(image, board, cell, x0 + fx, y0 + fy)
        # one peg fewer in each frame, the jump that made it marked
        assert sum(c in ("peg", "landed") for c in seen.values()) == len(board) - 1 - k
        check_position(seen, pegs, jump)
        # a label is written under the board
        left, top = math.floor(x0 + fx), math.ceil(y0 + fy + bh + 1)
        label = image.crop((left, top, left + math.ceil(bw), top + math.ceil(1.6 * font)))
        assert label.convert("L").getextrema()[0] < 128, f"frame {k} has no label"
    if name == "tri-strip":  # 14 frames, 5 a row: the 15th place is empty
        (x, _), (_, y) = frames[4], frames[10]
        left, top = math.floor(x0 + x), math.floor(y0 + y)
        empty = image.crop((left, top, left + math.ceil(bw), top + math.ceil(bh + 1.6 * font)))
        assert empty.getcolors() == [(empty.width * empty.height, (255, 255, 255))]


def _page(tmp_path, game, extra=""):
    path = tmp_path / "game.html"
    path.write_text(game.to_html().replace("</body>", extra + "</body>"), encoding="utf-8")
    return path


def _stepper_pegs(image, board):
    """The position the stepping page shows: find the board (the one area of
    board colour: a single step is shown), then look at its holes."""
    cell = peg_pictures.PAGE_CELL
    left, top, right, bottom = chromium.bbox_of(image, render.LIGHT)
    width, height = board_size(board, cell)
    assert abs((right - left) - width) <= 3 and abs((bottom - top) - height) <= 3
    # centred on the box: the tips of hexagons have no pixel of pure board colour
    x0, y0 = (left + right - width) / 2, (top + bottom - height) / 2
    return pegs_seen(image, board, cell, x0, y0)


@pytest.mark.parametrize("step", [0, 12, 31])
def test_the_page_opens_at_the_step_in_its_address(browser, tmp_path, step):
    game = english_game()
    image = browser.screenshot(_page(tmp_path, game), (640, 560), f"#{step}")
    seen = _stepper_pegs(image, game.board)
    check_position(seen, game.positions()[step], None if step == 0 else game[step - 1])


def test_the_page_clamps_a_step_past_the_end(browser, tmp_path):
    game = triangle_game()
    image = browser.screenshot(_page(tmp_path, game), (640, 560), "#99")
    check_position(_stepper_pegs(image, game.board), game.positions()[-1], game[-1])


# Keys and buttons, pressed by a script appended to the page: from step 3,
# right, right, Prev, End, left: step 30.
PRESSES = """<script>
function press(key) { document.dispatchEvent(new KeyboardEvent("keydown", {key: key})); }
press("ArrowRight"); press("ArrowRight");
document.getElementById("prev").click();
press("End"); press("ArrowLeft");
</script>"""


@pytest.mark.slow  # seconds: the quick run stays under 3 minutes
def test_keys_and_buttons_step_through_the_game(browser, tmp_path):
    game = english_game()
    page = _page(tmp_path, game, PRESSES)
    image = browser.screenshot(page, (640, 560), "#3")
    check_position(_stepper_pegs(image, game.board), game.positions()[30], game[29])
    dom = browser.dom(page, "#3")
    assert re.search(r'id="label"[^>]*>jump 30 of 31<', dom)
    assert re.findall(r'<figure class="step current" id="step-(\d+)"', dom) == ["30"]


def test_play_runs_to_the_end_and_stops(browser, tmp_path):
    game = english_game()
    page = _page(tmp_path, game, '<script>document.getElementById("play").click();</script>')
    # ten seconds of the page's own (virtual) time: more than the 3 jumps need
    dom = browser.dom(page, "#28", wait_ms=10_000)
    assert re.search(r'id="label"[^>]*>jump 31 of 31<', dom)
    assert re.search(r'id="play"[^>]*>Play<', dom)
    assert re.findall(r'<figure class="step current" id="step-(\d+)"', dom) == ["31"]


COVER_COLOURS = {
    "blank": render.MISSING,
    "border": cover_pictures.BORDER,
    **{f"piece{k}": colour for k, colour in enumerate(cover_pictures.PALETTE)},
}


@pytest.mark.parametrize(("name", "tiling"), [("pentominoes", pentominoes), ("dominoes", dominoes)])
def test_a_tiling_fills_each_piece_and_draws_the_borders(gallery, name, tiling):
    image, (x0, y0, width, height), _ = gallery[name]
    tiling = tiling()
    cell = TILING_CELL
    assert (width, height) == (tiling.cols * cell, tiling.rows * cell)
    owner = {square: k for k, (_, cells) in enumerate(tiling.placements) for square in cells}

    def at(x, y):
        return colour_at(image, x0 + x, y0 + y, COVER_COLOURS)

    seen: dict[int, set[str]] = {}
    for r in range(tiling.rows):
        for c in range(tiling.cols):
            colour = at((c + 0.5) * cell, (r + 0.5) * cell)
            if (r, c) in owner:
                seen.setdefault(owner[(r, c)], set()).add(colour)
            else:
                assert colour == "blank", f"the hole {(r, c)} is drawn"
    # every piece in one colour of the palette
    assert all(len(colours) == 1 and colours < set(COVER_COLOURS) - {"blank", "border"}
               for colours in seen.values())  # fmt: skip
    if name == "pentominoes":  # each piece once: its colour is its place in the set
        order = [piece.name for piece in piece_set("pentominoes")]
        for k, (piece, _) in enumerate(tiling.placements):
            assert seen[k] == {f"piece{order.index(piece)}"}, piece
    else:  # pieces repeat: neighbours differ
        for (r, c), k in owner.items():
            for other in ((r + 1, c), (r, c + 1)):
                if owner.get(other, k) != k:
                    assert seen[owner[other]] != seen[k], f"{(r, c)} and {other}"
    # a line between two pieces, none between two cells of one piece
    for (r, c), k in owner.items():
        for dr, dc in ((0, 1), (1, 0)):
            other = (r + dr, c + dc)
            if other in owner:
                x = (c + 1) * cell if dc else (c + 0.5) * cell
                y = (r + 1) * cell if dr else (r + 0.5) * cell
                expected = "border" if owner[other] != k else next(iter(seen[k]))
                assert at(x, y) == expected, f"between {(r, c)} and {other}"


def test_a_sudoku_shows_every_digit_given_or_filled_in(gallery):
    image, (x0, y0, width, height), _ = gallery["sudoku"]
    solved = wikipedia_sudoku()
    cell = SUDOKU_CELL
    assert width == height == 9 * cell
    given, filled = chromium.rgb(cover_pictures.GIVEN), chromium.rgb(cover_pictures.SOLVED)
    for r in range(9):
        for c in range(9):
            left, top = math.floor(x0 + (c + 0.15) * cell), math.floor(y0 + (r + 0.15) * cell)
            inside = image.crop((left, top, left + int(0.7 * cell), top + int(0.7 * cell)))
            pixels = pixels_of(inside)
            dark = sum(chromium.distance(p, given) <= chromium.TOLERANCE for p in pixels)
            blue = sum(chromium.distance(p, filled) <= chromium.TOLERANCE for p in pixels)
            if solved.given[r][c]:
                assert dark >= 10 and blue == 0, f"given digit at {(r, c)}"
            else:
                assert blue >= 10 and dark == 0, f"filled-in digit at {(r, c)}"
    # thick lines between the boxes, thin ones between the other cells
    for k in range(1, 9):
        x, y = k * cell + 2.5, 0.5 * cell + 0.3 * cell
        expected = "border" if k % 3 == 0 else "blank"
        assert colour_at(image, x0 + x, y0 + y, COVER_COLOURS) == expected, f"column line {k}"
        assert colour_at(image, x0 + y, y0 + x, COVER_COLOURS) == expected, f"row line {k}"


def test_a_langford_sequence_colours_its_values_and_joins_each_pair(gallery):
    image, (x0, y0, width, height), _ = gallery["langford"]
    sequence = langford()
    cell = LANGFORD_CELL
    assert width == len(sequence) * cell
    top = height - cell  # the row of cells sits at the bottom, the arcs above it
    for k, value in enumerate(sequence):
        seen = colour_at(image, x0 + (k + 0.15) * cell, y0 + top + 0.85 * cell, COVER_COLOURS)
        assert seen == f"piece{(value - 1) % len(cover_pictures.PALETTE)}", f"slot {k}"
    for value in range(1, sequence.n + 1):
        first = sequence.index(value)
        middle = math.floor(x0 + (first + (value + 1) / 2 + 0.5) * cell)
        column = image.crop((middle, math.floor(y0), middle + 1, math.floor(y0 + top) - 2))
        border = chromium.rgb(cover_pictures.BORDER)
        assert any(chromium.distance(p, border) <= chromium.TOLERANCE for p in pixels_of(column)), (
            f"no arc over the two {value}s"
        )


def pixels_of(image):
    return [image.getpixel((i, j)) for i in range(image.width) for j in range(image.height)]
