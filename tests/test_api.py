"""The API a user relies on: names that do not shadow each other, ``__all__``,
one vocabulary across the three families, and result objects that pickle,
compare and hash as documented."""

from __future__ import annotations

import importlib
import inspect
import os
import pickle
import pkgutil
import pydoc
import subprocess
import sys
import types

import oracle
import peg_oracle
import pytest
import solvers
from hypothesis import given, settings
from hypothesis import strategies as st
from solvers import (
    Jump,
    KnightBoard,
    PegBoard,
    PegSolution,
    Placement,
    Tour,
    count_tours,
    find_peg_solution,
    find_queens,
    find_tour,
    is_peg_solution,
    queens,
    tours,
)

#: Old module paths kept for one release (they warn when imported).
DEPRECATED_MODULES = {"pegboard", "peg_games", "checkpoint"}

PUBLIC_MODULES = sorted(
    info.name
    for info in pkgutil.iter_modules(solvers.__path__)
    if not info.name.startswith("_") and info.name not in DEPRECATED_MODULES
)


# ---------------------------------------------------------------- names


def test_the_public_modules_are_the_expected_ones():
    # a new module is seen by the tests below; a renamed one is noticed here
    assert set(PUBLIC_MODULES) == {"cli", "cover", "distributed", "knights", "nqueens", "peg"}
    assert "queens" not in PUBLIC_MODULES  # `solvers.queens` is the listing function


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_no_package_attribute_shadows_a_submodule(name):
    module = importlib.import_module(f"solvers.{name}")
    assert isinstance(module, types.ModuleType)
    attribute = getattr(solvers, name, module)
    assert attribute is module, f"solvers.{name} is {attribute!r}, not the module"


def test_import_module_then_use_its_names_in_a_fresh_interpreter():
    # the case: `import solvers.queens` then `solvers.queens.Placement`
    # raised AttributeError, the function shadowing the module
    lines = [f"import solvers.{name}" for name in PUBLIC_MODULES] + [
        "assert solvers.nqueens.Placement is solvers.Placement",
        "assert solvers.peg.PegSolution is solvers.PegSolution",
        "assert solvers.knights.Tour is solvers.Tour",
        "assert next(solvers.queens(4)) == solvers.nqueens.Placement([1, 3, 0, 2])",
    ]
    done = subprocess.run(
        [sys.executable, "-c", "\n".join(lines)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize("name", ["solvers"] + [f"solvers.{m}" for m in PUBLIC_MODULES])
def test_every_public_module_has_a_complete_all(name):
    module = importlib.import_module(name)
    assert isinstance(module.__all__, list | tuple), name
    assert len(set(module.__all__)) == len(module.__all__), f"{name}.__all__ repeats a name"
    missing = [item for item in module.__all__ if not hasattr(module, item)]
    assert not missing, f"{name}.__all__ names what it lacks: {missing}"
    star: dict[str, object] = {}
    exec(f"from {name} import *", star)  # noqa: S102 - the import a user would write
    assert set(module.__all__) <= set(star)


def test_the_package_exports_each_family_s_public_names():
    # the root's names are the families' __all__ together, and the run options
    shares = []
    for name in ("knights", "nqueens", "peg", "cover"):
        module = importlib.import_module(f"solvers.{name}")
        shares += module.__all__
        for item in module.__all__:
            assert getattr(solvers, item) is getattr(module, item), item
    assert sorted(solvers.__all__) == sorted([*shares, "RunOptions", "__version__"])


# ---------------------------------------------------------------- vocabulary


def test_solve_peg_still_works_with_a_deprecation_warning():
    # the old name of find_peg_solution: out of __all__, still there for one release
    assert "solve_peg" not in solvers.__all__ and "solve_peg" not in solvers.peg.__all__
    with pytest.deprecated_call(match="use solvers.find_peg_solution"):
        assert solvers.solve_peg is solvers.find_peg_solution
    with pytest.deprecated_call(match="use solvers.find_peg_solution"):
        assert solvers.peg.solve_peg is solvers.find_peg_solution
    with pytest.deprecated_call():
        from solvers import solve_peg
    assert solve_peg is solvers.find_peg_solution
    with pytest.raises(AttributeError, match="no attribute 'solve_pegs'"):
        solvers.solve_pegs  # noqa: B018 - the lookup is the test


@pytest.mark.parametrize("old", ["pegboard", "peg_games", "checkpoint"])
def test_old_module_paths_still_import_with_a_deprecation_warning(old):
    # documented in the README before the families became subpackages
    done = subprocess.run(
        [sys.executable, "-W", "error::DeprecationWarning", "-c", f"import solvers.{old}"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0 and "DeprecationWarning" in done.stderr
    done = subprocess.run(
        [sys.executable, "-W", "ignore::DeprecationWarning", "-c",
         f"import solvers.{old} as m; assert m.__all__ and all(hasattr(m, n) for n in m.__all__)"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


KEYWORD_START = [
    solvers.count_tours,
    solvers.tours,
    solvers.find_tour,
    solvers.count_peg_solutions,
    solvers.finish_counts,
    solvers.find_peg_solution,
    solvers.is_peg_solution,
    PegSolution,
]


@pytest.mark.parametrize("func", KEYWORD_START, ids=lambda f: f.__name__)
def test_start_is_keyword_only(func):
    parameter = inspect.signature(func).parameters["start"]
    assert parameter.kind is inspect.Parameter.KEYWORD_ONLY


def test_a_positional_start_is_refused():
    english = PegBoard.english()
    with pytest.raises(TypeError):
        solvers.find_peg_solution(english, (3, 3))  # type: ignore[misc]
    with pytest.raises(TypeError):
        solvers.finish_counts(PegBoard.triangle(4), (0, 0))  # type: ignore[misc]


def test_the_default_knight_start_reads_well_in_help():
    text = pydoc.render_doc(count_tours, renderer=pydoc.plaintext)
    assert "start: 'Start' = 'lower-left'" in text
    assert "object at 0x" not in text
    for func in (count_tours, tours, find_tour):
        assert inspect.signature(func).parameters["start"].default == "lower-left"


def test_lower_left_all_and_pairs_all_work():
    corner = count_tours(5, 5, start=(4, 0))
    assert count_tours(5, 5) == count_tours(5, 5, start="lower-left") == corner == 304
    assert count_tours(5, 5, start="all") == 1728  # OEIS A165134
    assert find_tour(5, 5, start="lower-left").start == (4, 0)
    assert next(tours(3, 4, start="lower-left")) == next(tours(3, 4, start=(2, 0)))


def test_tour_and_placement_squares_are_the_same_kind():
    tour = next(tours(3, 4))
    placement = Placement([1, 3, 0, 2])
    for squares in (tour.squares, placement.squares):
        assert isinstance(squares, tuple)
        assert all(
            isinstance(s, tuple) and len(s) == 2 and all(type(x) is int for x in s) for s in squares
        )
    assert placement.squares == ((0, 1), (1, 3), (2, 0), (3, 2))
    assert tour.squares == tuple(tour)


# ---------------------------------------------------------------- the peg checker

TINY = {
    "rectangle 3x3": (PegBoard.rectangle(3, 3), peg_oracle.rectangle(3, 3)),  # no solution
    "rectangle 3x4": (PegBoard.rectangle(3, 4), peg_oracle.rectangle(3, 4)),
    "triangle 4": (PegBoard.triangle(4), peg_oracle.triangle(4)),
}


@pytest.mark.parametrize("name", ["rectangle 3x4", "triangle 4"])
@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_is_peg_solution_accepts_every_solution_of_the_oracle(name):
    board, (holes, jumps) = TINY[name]
    seen = 0
    for start in holes:
        for finish in [None, *holes]:
            for game in peg_oracle.solutions(holes, jumps, start, finish):
                assert is_peg_solution(board, game, start=start, finish=finish)
                seen += 1
                if finish is not None:
                    others = [h for h in holes if h != finish]
                    assert not is_peg_solution(board, game, start=start, finish=others[0])
    assert seen > 0


@st.composite
def _random_games(draw):
    name = draw(st.sampled_from(sorted(TINY)))
    board, (holes, jumps) = TINY[name]
    start = draw(st.sampled_from(holes))
    finish = draw(st.sampled_from([None, "start", *holes]))
    # mostly legal-looking jumps of the board, sometimes any three squares
    square = st.tuples(st.integers(-1, 4), st.integers(-1, 4))
    move = st.one_of(st.sampled_from(jumps), st.tuples(square, square, square))
    sequence = draw(st.lists(move, max_size=len(holes)))
    return board, holes, jumps, start, finish, sequence


@settings(max_examples=400, deadline=None)
@given(_random_games())
@pytest.mark.slow  # seconds: the quick run stays under 3 minutes
def test_is_peg_solution_agrees_with_the_oracle(case):
    board, holes, jumps, start, finish, sequence = case
    last = start if finish == "start" else finish
    want = peg_oracle.is_solution(holes, jumps, start, sequence, last)
    assert is_peg_solution(board, sequence, start=start, finish=finish) is want
    # a PegSolution is any game down to one peg, wherever it ends
    if peg_oracle.is_solution(holes, jumps, start, sequence):
        game = PegSolution(board, sequence, start=start)
        assert list(game) == [Jump(*move) for move in sequence]
        assert is_peg_solution(board, game, start=start, finish=game.finish)
    else:
        with pytest.raises(ValueError, match="not a peg solitaire solution"):
            PegSolution(board, sequence, start=start)


def test_is_peg_solution_takes_a_found_game():
    board = PegBoard.english()
    game = find_peg_solution(board, start=(3, 3))
    assert is_peg_solution(board, game, start=(3, 3))
    assert is_peg_solution(board, game.jumps, start=16)  # a hole index
    assert not is_peg_solution(board, game.jumps[:-1], start=(3, 3), finish=None)
    assert not is_peg_solution(board, game.jumps, start=(2, 3))


# ---------------------------------------------------------------- pickling

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)


def _results():
    shaped = KnightBoard.parse("....\n....\n...#")
    return {
        "tour": next(tours(3, 4)),
        "tour-shaped": find_tour(board=shaped, start=(0, 0)),
        "tour-large": find_tour(60, 60),
        "placement": Placement([1, 3, 0, 2]),
        "placement-large": find_queens(100_000),
        "peg-solution": find_peg_solution(PegBoard.english(), start=(3, 3)),
        "peg-solution-empty": PegSolution(PegBoard.rectangle(1, 2), [], start=(0, 0)),
        "jump": Jump((0, 2), (0, 1), (0, 0)),
        "knight-board": shaped,
        "knight-board-full": KnightBoard(8, 8),
        "peg-board": PegBoard.english(),
        "peg-board-triangle": PegBoard.triangle(5),
    }


@pytest.fixture(scope="module")
def results():
    return _results()


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize("name", sorted(_results()))
def test_results_pickle_and_come_back_equal(results, name, protocol):
    value = results[name]
    back = pickle.loads(pickle.dumps(value, protocol=protocol))
    assert type(back) is type(value)
    assert back == value and not (back != value)
    assert hash(back) == hash(value)
    if hasattr(value, "verify"):
        assert back.verify()
    if isinstance(value, Tour | Placement | PegSolution):
        assert list(back) == list(value)
        assert str(back) == str(value)


def test_hashes_are_not_carried_across_processes(results):
    # A hash cached in one process (bytes hash with another PYTHONHASHSEED)
    # must not travel with the pickle.
    program = (
        "import pickle, sys, solvers\n"
        "tour = next(solvers.tours(3, 4)); hash(tour)\n"
        "placement = solvers.Placement([1, 3, 0, 2]); hash(placement)\n"
        "sys.stdout.buffer.write(pickle.dumps((tour, placement)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        timeout=120,
        env={**os.environ, "PYTHONHASHSEED": "12345"},
    )
    assert done.returncode == 0, done.stderr
    tour, placement = pickle.loads(done.stdout)
    assert tour == results["tour"] and hash(tour) == hash(results["tour"])
    assert placement == results["placement"] and hash(placement) == hash(results["placement"])
    assert len({tour, results["tour"]}) == 1


# ---------------------------------------------------------------- compare and hash


def test_tours_compare_by_board_then_squares():
    listed = list(tours(5, 5, start=(0, 0)))
    assert len(listed) == 304  # the published count from a corner
    assert sorted(listed) == sorted(listed, key=lambda t: [r * 5 + c for r, c in t])
    assert len(set(listed)) == len(listed)
    assert listed[0] == Tour(listed[0].squares, 5, 5)
    small, large = next(tours(3, 4)), next(tours(4, 3, start=(3, 0)))
    assert (small < large) == ((3, 4) < (4, 3))
    assert small != large and small != small.squares  # not equal to a tuple


def test_a_full_mask_is_the_full_board():
    assert KnightBoard(3, 4, (True,) * 12) == KnightBoard(3, 4)
    assert hash(KnightBoard(3, 4, (True,) * 12)) == hash(KnightBoard(3, 4))
    assert KnightBoard.parse("....\n....\n....") == KnightBoard(3, 4)
    tour = next(tours(3, 4))
    assert Tour(tour.squares, board=KnightBoard(3, 4, (True,) * 12)) == tour


def test_placements_compare_like_tuples_of_columns():
    listed = list(queens(6))
    assert [tuple(p) for p in sorted(listed)] == sorted(tuple(p) for p in listed)
    assert sorted(listed) == listed  # listed in lexicographic order
    assert Placement([1, 3, 0, 2]) != (1, 3, 0, 2)
    a, b = Placement([1, 3, 0, 2]), Placement(iter([1, 3, 0, 2]))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1


def test_peg_solutions_compare_and_hash_by_board_start_and_jumps():
    board = PegBoard.rectangle(1, 3)
    one = PegSolution(board, [((0, 2), (0, 1), (0, 0))], start=(0, 0))
    same = PegSolution(board, [[[0, 2], [0, 1], [0, 0]]], start=0)
    other = PegSolution(board, [((0, 0), (0, 1), (0, 2))], start=(0, 2))
    assert one == same and hash(one) == hash(same)
    assert one != other and len({one, same, other}) == 2
    assert one.jumps[0] == Jump((0, 2), (0, 1), (0, 0)) == ((0, 2), (0, 1), (0, 0))
    assert one != list(one)


def test_the_oracle_agrees_on_the_tours_compared():
    # the tours that compare equal above are the oracle's tours
    listed = {tuple(t) for t in tours(3, 4)}
    assert listed == {tuple(t) for t in oracle.enumerate_tours(3, 4, None, (2, 0))}
