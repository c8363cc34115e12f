"""Smoke test of an installed solvers wheel: run by .ci/run in fresh virtual
environments with no Rust toolchain, and by the release workflow on each
platform's runner.  It checks that the compiled core loads from the
installation (not a source tree) and that each family counts, finds and checks
right, against published values.

Usage: python .ci/smoke.py [EXPECTED_VERSION]
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
from importlib.metadata import version
from pathlib import Path


def main() -> None:
    import solvers
    from solvers import _core

    site = Path(sysconfig.get_paths()["purelib"]).resolve()
    core = Path(_core.__file__).resolve()
    assert site in core.parents, f"the core was loaded from {core}, outside {site}"
    assert solvers.__version__ == version("solvers")
    if len(sys.argv) > 1:
        assert solvers.__version__ == sys.argv[1], (solvers.__version__, sys.argv[1])

    cli = shutil.which("solvers")
    assert cli, "the solvers command is not on PATH"
    shown = subprocess.run([cli, "--version"], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == f"solvers {solvers.__version__}", shown.stdout
    count = subprocess.run([cli, "tours", "4", "7"], capture_output=True, text=True, check=True)
    assert count.stdout.strip() == "1682", count.stdout  # the README's first command

    # Published values: OEIS A000170 and A002562; Durango Bill's English board.
    assert solvers.count_queens(10) == 724
    assert solvers.count_queens(8, unique=True) == 12
    assert solvers.find_queens(1000).verify()
    assert solvers.count_tours(5, 5, start="all") == 1728  # OEIS A165134
    assert solvers.find_tour(30, 30).verify()
    english = solvers.PegBoard.english()
    wins = solvers.count_peg_solutions(english, start=(3, 3), finish=(3, 3))
    assert wins == 40_861_647_040_079_968
    solution = solvers.find_peg_solution(english, start=(3, 3), finish=(3, 3))
    assert solvers.is_peg_solution(english, solution.jumps, start=(3, 3), finish=(3, 3))
    assert len(solution.jumps) == 31
    # Exact cover: N-Queens through Knuth's DLX text (A000170), Langford pairs (A014552).
    queens = solvers.ExactCover.from_dlx(solvers.QueensCover(8).exact_cover().to_dlx())
    assert solvers.count_covers(queens) == 92
    assert solvers.LangfordPairs(7, unique=True).count() == 26
    print(f"smoke test passed: solvers {solvers.__version__} on Python {sys.version.split()[0]}")


if __name__ == "__main__":
    main()
