"""Pictures of peg solitaire: a position, a whole game as one strip of
boards, and a page that steps through a game (:meth:`PegBoard.to_svg`,
:meth:`PegSolution.to_svg`, :meth:`PegSolution.to_html`).

>>> import solvers
>>> board = solvers.PegBoard.english()
>>> peg_position_svg(board, [(3, 3)]).count('class="peg"')
32
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .._engine import _draw, _page, _validate
from .._engine._draw import fmt

if TYPE_CHECKING:
    from .board import PegBoard
    from .solution import Jump, PegSolution

__all__ = [
    "PAGE_CELL",
    "PEG",
    "PLAY_DELAY_MS",
    "STRIP_CELL",
    "STRIP_COLUMNS",
    "peg_position_svg",
    "peg_solution_html",
    "peg_solution_svg",
]


#: Distance between neighbouring holes in a strip of positions and on the
#: stepping page when ``cell`` is not given (a single board picks its own).
STRIP_CELL = 14.0
PAGE_CELL = 40.0
#: Boards per row of a strip when ``columns`` is not given.
STRIP_COLUMNS = 8
#: Milliseconds between jumps when the page plays the game.
PLAY_DELAY_MS = 700
#: The colour of a peg in a picture.
PEG = _draw.BLUE


def _peg_layout(board: PegBoard, size: float) -> tuple[float, float, list[tuple[float, float]]]:
    """Width, height and hole centres of one board drawing."""
    width, height, centres = board.centres(size)
    if board.geometry == "triangle":
        # A hexagonal cell reaches size/sqrt(3) above and below its hole, a
        # little more than the half cell the board's layout leaves.
        pad = size / math.sqrt(3) - size / 2
        centres = [(x, y + pad) for x, y in centres]
        height += 2 * pad
    return width, height, centres


def _cells_path(board: PegBoard, size: float, centres: list[tuple[float, float]]) -> str:
    """The board itself: a cell around every hole (a square, or a hexagon on the
    triangular grid, so that the cells tile), drawn as one path so that
    neighbouring cells meet without anti-aliasing seams and the space off the
    board stays background."""
    f, half = fmt, size / 2
    if board.geometry == "triangle":
        r = size / math.sqrt(3)  # circumradius of a hexagon half a cell wide
        outline = f"l{f(half)},{f(r / 2)}v{f(r)}l{f(-half)},{f(r / 2)}l{f(-half)},{f(-r / 2)}"
        d = "".join(f"M{f(x)},{f(y - r)}{outline}v{f(-r)}z" for x, y in centres)
    else:
        outline = f"h{f(size)}v{f(size)}h{f(-size)}z"
        d = "".join(f"M{f(x - half)},{f(y - half)}{outline}" for x, y in centres)
    return f'<path class="cells" d="{d}" fill="{_draw.LIGHT}"/>'


def _hole_circles(
    board: PegBoard,
    centres: list[tuple[float, float]],
    size: float,
    pegs: frozenset[tuple[int, int]],
    jump: Jump | None,
) -> list[str]:
    """A disc for every peg, a hollow circle for every empty hole; after a jump
    the landed peg and the two holes it emptied stand out."""
    radius = fmt(max(0.4, size * 0.34))
    stroke = fmt(max(0.2, size / 16))
    emptied = () if jump is None else (jump.source, jump.over)
    landing = None if jump is None else jump.landing
    circles = []
    for square, (x, y) in zip(board.holes, centres, strict=True):
        if square in pegs:
            kind, fill = ("peg landed", _draw.LANDED) if square == landing else ("peg", PEG)
        elif square in emptied:
            kind, fill = "hole emptied", _draw.EMPTIED
        else:
            kind, fill = "hole", "none"
        circles.append(
            f'<circle class="{kind}" cx="{fmt(x)}" cy="{fmt(y)}" r="{radius}" '
            f'fill="{fill}" stroke="{_draw.HOLE_RIM}" stroke-width="{stroke}"/>'
        )
    return circles


def _position_svg(
    board: PegBoard,
    pegs: frozenset[tuple[int, int]],
    size: float,
    jump: Jump | None,
    title: str,
) -> str:
    width, height, centres = _peg_layout(board, size)
    return "\n".join(
        [
            *_draw.svg_head(width, height, title, "background", _draw.MISSING),
            _cells_path(board, size, centres),
            *_hole_circles(board, centres, size, pegs, jump),
            "</svg>",
        ]
    )


def peg_position_svg(
    board: PegBoard, empty: Iterable[Any] = (), *, cell: float | None = None
) -> str:
    """An SVG picture of ``board`` with a peg (a filled disc) in every hole but
    those in ``empty`` (hollow circles): ``(row, col)`` pairs or hole indices,
    one ``(row, col)`` tuple counting as one square.  Each hole sits in a cell
    of board colour (squares, or hexagons on the triangular grid); off the
    board is background.  ``cell`` is the distance between neighbouring holes
    in pixels (automatic by default).

    >>> from solvers import PegBoard
    >>> svg = peg_position_svg(PegBoard.triangle(3), [(0, 0)], cell=20)
    >>> svg.count('class="peg"'), svg.count('class="hole"')
    (5, 1)
    """
    gone = board.normalize_squares(empty, "empty")
    pegs = frozenset(square for i, square in enumerate(board.holes) if i not in gone)
    size = _draw.cell_size(board.rows, board.cols, cell)
    return _position_svg(board, pegs, size, None, repr(board))


def _jump_label(number: int, jump: Jump) -> str:
    (a, b), (c, d) = jump.source, jump.landing
    return f"{number}. ({a},{b})\u2192({c},{d})"


def _frames(solution: PegSolution) -> list[tuple[frozenset[tuple[int, int]], Jump | None, str]]:
    """Every position of the game with the jump that led to it and its label."""
    jumps: list[Jump | None] = [None, *solution.jumps]
    labels = ["start"] + [_jump_label(k, jump) for k, jump in enumerate(solution.jumps, 1)]
    return list(zip(solution.positions(), jumps, labels, strict=True))


def peg_solution_svg(
    solution: PegSolution, *, cell: float | None = None, columns: int | None = None
) -> str:
    """One SVG picture of a whole game: the positions from the start to the last
    peg, ``columns`` boards a row (8 by default), each labelled underneath
    (``start``, then ``1. (1,3)→(3,3)``: the jump's number, from and to).  In
    the boards after a jump the peg that landed is amber and the two holes it
    emptied are pale red.  ``cell`` is the distance between holes (14 pixels
    by default).

    >>> import solvers
    >>> game = solvers.find_peg_solution(solvers.PegBoard.triangle(5), start=(0, 0), finish=None)
    >>> svg = peg_solution_svg(game, columns=5)
    >>> svg.count('class="frame"'), svg.count('class="peg landed"')
    (14, 13)
    """
    board = solution.board
    size = _draw.cell_size(board.rows, board.cols, STRIP_CELL if cell is None else cell)
    frames = _frames(solution)
    if columns is None:
        columns = STRIP_COLUMNS
    columns = min(_validate.positive(columns, "columns"), len(frames))
    board_w, board_h, centres = _peg_layout(board, size)
    font = max(8.0, size * 0.8)
    gap = max(size, font)
    # Sans-serif glyphs average about 0.6 em: frames as wide as their labels.
    frame_w = max(board_w, *(0.6 * font * len(label) for _, _, label in frames))
    frame_h = board_h + 1.6 * font
    rows = -(-len(frames) // columns)
    width = columns * frame_w + (columns + 1) * gap
    height = rows * frame_h + (rows + 1) * gap
    parts = _draw.svg_head(width, height, repr(solution), "background", _draw.MISSING)
    for k, (pegs, jump, label) in enumerate(frames):
        row, col = divmod(k, columns)
        x = gap + col * (frame_w + gap) + (frame_w - board_w) / 2
        y = gap + row * (frame_h + gap)
        parts.append(f'<g class="frame" transform="translate({fmt(x)},{fmt(y)})">')
        parts.append(_cells_path(board, size, centres))
        parts.extend(_hole_circles(board, centres, size, pegs, jump))
        parts.append(
            f'<text class="label" x="{fmt(board_w / 2)}" y="{fmt(board_h + 1.2 * font)}" '
            f'text-anchor="middle" font-family="sans-serif" font-size="{fmt(font)}" '
            f'fill="{_draw.LABEL}">{_draw.ascii_text(label)}</text>'
        )
        parts.append("</g>")
    parts.append("</svg>")
    return "\n".join(parts)


def peg_solution_html(solution: PegSolution, *, cell: float | None = None) -> str:
    """One self-contained HTML page (no network, no external files) that steps
    through a game: Prev, Play and Next buttons, the left and right arrow keys
    (Home and End for the start and the end), and a ``jump k of n`` label.
    Every position is an inline SVG drawn like a frame of
    :func:`peg_solution_svg`; a small inline script shows one at a time.  The
    URL fragment names the step (``page.html#12``: the position after 12
    jumps) and follows it, so a step can be linked to.  Without scripts the
    page shows every position in turn.  ``cell`` is the distance between holes
    (40 pixels by default).

    >>> import solvers
    >>> game = solvers.find_peg_solution(solvers.PegBoard.triangle(5), start=(0, 0), finish=None)
    >>> page = peg_solution_html(game)
    >>> page.count('<figure class="step"'), 'jump 0 of 13' in page
    (14, True)
    """
    board = solution.board
    size = _draw.cell_size(board.rows, board.cols, PAGE_CELL if cell is None else cell)
    figures = []
    for k, (pegs, jump, label) in enumerate(_frames(solution)):
        left = len(pegs)
        caption = f"{label}: {left} {'peg' if left == 1 else 'pegs'}"
        svg = _position_svg(board, pegs, size, jump, f"after {k} of {len(solution)} jumps")
        figures.append(
            f'<figure class="step" id="step-{k}">\n{svg}\n'
            f"<figcaption>{_draw.ascii_text(caption)}</figcaption>\n</figure>"
        )
    replacements = {
        "TITLE": _draw.ascii_text(repr(solution)),
        "STEP": "jump",
        "STEPS": "jumps",
        "COUNT": str(len(solution)),
        "DELAY": str(PLAY_DELAY_MS),
        "FIGURES": "\n".join(figures),
    }
    return _page.fill(replacements)
