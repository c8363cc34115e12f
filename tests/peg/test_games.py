"""count_peg_games: every game, won or stuck, against the brute-force oracle
in ``peg_oracle.py`` and Durango Bill's published English figures."""

from __future__ import annotations

import json
import os
from concurrent.futures import ThreadPoolExecutor

import peg_oracle as oracle
import pytest
from solvers import PegBoard, PegGames, count_peg_games, count_peg_solutions, finish_counts
from solvers.cli import main

from peg.test_positions import A112737

SMALL = [
    (PegBoard.rectangle(1, 6), oracle.rectangle(1, 6)),
    (PegBoard.rectangle(2, 4), oracle.rectangle(2, 4)),
    (PegBoard.rectangle(3, 3), oracle.rectangle(3, 3)),
    (PegBoard.rectangle(3, 4), oracle.rectangle(3, 4)),
    (PegBoard.rectangle(4, 4), oracle.rectangle(4, 4)),
    (PegBoard.triangle(4), oracle.triangle(4)),
    (PegBoard.triangle(5), oracle.triangle(5)),
    (PegBoard.diamond(3), oracle.diamond(3)),
]


def _replays_stuck(board: PegBoard, games: PegGames) -> None:
    """The example is legal from the start and ends stuck with more than one peg."""
    assert games.stuck_example is not None
    assert len(games.stuck_example) == games.shortest_stuck
    pegs = set(board.holes) - {games.start}
    for source, over, landing in games.stuck_example:
        assert source in pegs and over in pegs and landing not in pegs
        pegs -= {source, over}
        pegs.add(landing)
    assert len(pegs) > 1
    squares = [tuple(board.holes[i] for i in jump) for jump in board.jumps]
    assert not any(a in pegs and b in pegs and c not in pegs for a, b, c in squares)


@pytest.mark.parametrize(
    ("board", "plain"), SMALL, ids=lambda b: repr(b) if isinstance(b, PegBoard) else ""
)
def test_every_start_agrees_with_brute_force(board: PegBoard, plain: tuple) -> None:
    holes, jumps = plain
    assert sorted(board.holes) == sorted(holes)
    stuck_seen = 0
    for start in board.holes:
        by_pegs, wins, shortest = oracle.games_bruteforce(holes, jumps, start)
        games = count_peg_games(board, start=start)
        assert games.dead_end_table == dict(by_pegs), start
        assert list(games.dead_end_table) == sorted(by_pegs, reverse=True)
        assert games.total == sum(by_pegs.values())
        assert games.won == by_pegs.get(1, 0)
        assert games.wins == {hole: wins.get(hole, 0) for hole in board.holes}
        assert games.shortest_stuck == shortest
        if shortest is None:
            assert games.stuck_example is None
        else:
            _replays_stuck(board, games)
            stuck_seen += 1
    assert stuck_seen > 0


@pytest.mark.slow
def test_published_english_games_from_the_centre() -> None:
    # Durango Bill, "Peg solitaire - the English board": every game from the
    # centre vacancy, and those ending with one peg in the centre; the
    # shortest game that gets stuck is 6 jumps.
    games = count_peg_games(PegBoard.english(), start=(3, 3), threads=2)
    assert games.total == 577_116_156_815_309_849_672
    assert games.wins[(3, 3)] == 40_861_647_040_079_968
    assert games.shortest_stuck == 6
    # its positions after n jumps, up to symmetry: OEIS A112737, n = 0..31
    assert games.positions == A112737[:32]
    assert games.positions_total == 23_475_688 == sum(A112737)
    _replays_stuck(PegBoard.english(), games)
    # The wins are the finish counts, which the package also gets another way.
    assert sum(games.wins.values()) == games.won
    assert games.won == count_peg_solutions(PegBoard.english(), start=(3, 3), finish=None)


@pytest.mark.parametrize("threads", [1, 2, 8])
def test_threads_do_not_change_the_answer(threads: int) -> None:
    board = PegBoard.triangle(6)
    want = count_peg_games(board, start=(2, 1), threads=1)
    assert count_peg_games(board, start=(2, 1), threads=threads) == want
    assert want.wins == finish_counts(board, start=(2, 1))


@pytest.mark.slow  # seconds: the quick run stays under 3 minutes
def test_a_spilling_count_is_the_count_in_memory(tmp_path) -> None:
    # The 5x5 square from (0, 2): about 3 MB of layers, so 1 MiB sends most
    # through files (the private driver shows the bytes written); the count
    # in memory is checked against the published boards and the brute force.
    from solvers.peg import dp

    board, start = PegBoard.rectangle(5, 5), (0, 2)
    want = count_peg_games(board, start=start)
    assert want.won > 0
    assert count_peg_games(board, start=start, memory=1 << 20, spill=tmp_path) == want
    assert list(tmp_path.iterdir()) == []  # the count's files are gone
    s = board.index(start)
    budgeted = dp.Budgeted(
        board, board.symmetries_fixing(s), 2, False, None, 1 << 20, str(tmp_path)
    )
    try:
        table, _, positions = dp.games(budgeted, s)
    finally:
        budgeted.close()
    assert budgeted.spill.written > 1 << 20
    assert sum(table.values()) == want.total
    assert positions == want.positions and sum(positions) > 10_000


def test_a_board_with_no_jump_is_one_game() -> None:
    games = count_peg_games(PegBoard.rectangle(2, 2), start=(0, 0))
    assert games.total == 1
    assert games.dead_end_table == {3: 1}
    assert games.shortest_stuck == 0
    assert games.stuck_example == ()


def test_the_summary_reads_well() -> None:
    text = str(count_peg_games(PegBoard.rectangle(3, 3), start=(0, 0)))
    assert text.splitlines()[0].endswith("from (0, 0): 14")
    assert "5 pegs left: 4" in text and "shortest stuck game: 3 jumps" in text


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: count_peg_games("english", start=(3, 3)), TypeError, "PegBoard"),
        (lambda: count_peg_games(PegBoard.english(), start=(0, 0)), ValueError, "not a hole"),
        (
            lambda: count_peg_games(PegBoard.english(), start=(3, 3), threads=0),
            ValueError,
            "threads",
        ),
        (
            lambda: count_peg_games(PegBoard.english(), start=(3, 3), memory="lots"),
            ValueError,
            "memory",
        ),
        (
            lambda: count_peg_games(PegBoard.english(), start=(3, 3), spill="/nonexistent/spill"),
            ValueError,
            "existing directory",
        ),
        (
            lambda: count_peg_games(PegBoard.english(), start=(3, 3), executor="pool"),
            TypeError,
            "executor",
        ),
        (
            lambda: count_peg_games(PegBoard.english(), start=(3, 3), parts=2),
            ValueError,
            "parts= only with executor=",
        ),
        (
            lambda: count_peg_games(
                PegBoard.english(), start=(3, 3), executor=ThreadPoolExecutor(1), memory="1GB"
            ),
            ValueError,
            "executor= and memory= together",
        ),
        (
            lambda: count_peg_games(
                PegBoard.english(), start=(3, 3), executor=ThreadPoolExecutor(1), checkpoint="c"
            ),
            ValueError,
            "executor= and checkpoint= together",
        ),
    ],
)
def test_bad_arguments_say_what_is_wrong(call, error, words) -> None:
    with pytest.raises(error, match=words):
        call()


def test_spill_alone_is_taken(tmp_path) -> None:
    # spill= means the same in every count: where files would go (none here)
    games = count_peg_games(PegBoard.triangle(5), start=(0, 0), spill=tmp_path)
    assert games.total == 568630 and os.listdir(tmp_path) == []


def test_a_timeout_stops_the_count() -> None:
    with pytest.raises(TimeoutError):
        count_peg_games(PegBoard.french(), start=(0, 2), timeout=0.2)


def test_cli_every_game(capsys) -> None:
    assert main(["peg", "rectangle:3x3", "--start", "0,0", "--every-game"]) == 0
    out = capsys.readouterr().out
    lines = [line.split() for line in out.splitlines()]
    assert ["total", "14"] in lines and "3 jumps" in out
    # The positions by layer: after 0..7 jumps, with the pegs left.
    assert lines[-1] == ["total", "10"] and lines[-9] == ["0", "8", "1"]
    assert main(["peg", "triangle:5", "--start", "0,0", "--every-game", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 568630 and data["shortest_stuck"] == len(data["stuck_example"])
    assert data["positions"] == [1, 1, 4, 19, 62, 149, 268, 344, 317, 215, 112, 39, 10, 3]
    assert main(["peg", "english", "--every-game", "--method", "meet"]) == 2
    assert "--method does not apply to --every-game" in capsys.readouterr().err


@pytest.mark.parametrize(
    "board", [PegBoard.triangle(5), PegBoard.triangle(6), PegBoard.rectangle(3, 4)]
)
def test_a_win_played_backwards_is_a_win(board: PegBoard) -> None:
    # Reversed on the complemented board, a game from vacancy s to last peg f
    # is one from vacancy f to last peg s: two passes from different starts
    # must agree (the check docs/performance.md's French table uses across starts).
    wins = {s: count_peg_games(board, start=s).wins for s in board.holes}
    solvable = 0
    for s in board.holes:
        for f in board.holes:
            assert wins[s][f] == wins[f][s], (s, f)
            solvable += wins[s][f] > 0
    assert solvable > 4


# ---------------------------------------------------------------- executor, checkpoint


@pytest.mark.parametrize("start", [(0, 0), (2, 1)])
def test_an_executor_counts_the_same_games(start) -> None:
    board = PegBoard.triangle(5)
    want = count_peg_games(board, start=start)
    with ThreadPoolExecutor(2) as pool:
        for parts in (1, 3):
            assert count_peg_games(board, start=start, executor=pool, parts=parts) == want


@pytest.mark.parametrize("layers", [{"spill": False}, {}, {"memory": "1MiB"}])
def test_a_checkpoint_resumes_after_a_stop(tmp_path, layers) -> None:
    # In memory (a ledger), and within a budget (layer files): the plain call's
    # default budget and a small one.
    from solvers.peg import dp

    board, start = PegBoard.rectangle(4, 4), (0, 1)
    want = count_peg_games(board, start=start)
    kwargs = {"start": start, "checkpoint": tmp_path / "ckpt", **layers}
    driver = dp.Local if layers.get("spill") is False else dp.Budgeted
    steps, starts = [], []
    step, begin = driver.step, driver.start

    def stopping(self, side, name, tally=None):
        steps.append(side.pegs)
        if len(steps) > 5:
            raise KeyboardInterrupt  # a stop after 5 layers saved
        return step(self, side, name, tally)

    def starting(self, side, hole):
        found = begin(self, side, hole)
        starts.append(found.pegs)
        return found

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(driver, "step", stopping)
        with pytest.raises(KeyboardInterrupt):
            count_peg_games(board, **kwargs)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(driver, "start", starting)
        assert count_peg_games(board, **kwargs) == want  # resumed from the fifth layer
        assert count_peg_games(board, **kwargs) == want  # at once, from the one-peg layer
    assert starts == [15 - 5, 1]
    with pytest.raises(ValueError, match="another"):
        count_peg_games(board, **{**kwargs, "start": (0, 0)})


def test_a_stop_between_the_figures_and_the_layer_resumes(tmp_path) -> None:
    # The figures of a layer are recorded before the next layer is saved: a
    # stop between the two leaves figures that the resumed count finds again.
    from solvers.peg import dp

    board, start = PegBoard.rectangle(4, 4), (0, 1)
    want = count_peg_games(board, start=start)
    saves = []
    new_kernel = dp.new_kernel

    class Stopping:
        """The kernel, stopped as it saves its fourth layer."""

        def __init__(self, kernel):
            self.kernel = kernel

        def __getattr__(self, name):
            return getattr(self.kernel, name)

        def save_layer(self, layer, *rest):
            saves.append(layer.pegs)
            if len(saves) > 3:
                raise KeyboardInterrupt
            self.kernel.save_layer(layer, *rest)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dp, "new_kernel", lambda spec: Stopping(new_kernel(spec)))
        with pytest.raises(KeyboardInterrupt):
            count_peg_games(board, start=start, checkpoint=tmp_path, spill=False)
    assert len(saves) == 4
    assert count_peg_games(board, start=start, checkpoint=tmp_path, spill=False) == want
