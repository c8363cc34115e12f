"""Every term of Knuth's partial-board sequences of knight's tours (OEIS
A383662, A383664, A389754-A389759: boards of ``rows`` rows filled column by
column, the last column in part) counted by the frontier and checked against
the published terms, with the seconds each took, as a Markdown table::

    python benches/knuth_partial_boards.py            # every term the tests take and more
    python benches/knuth_partial_boards.py A389757    # one sequence

The terms and boards are the test suite's (tests/knights/test_frontier.py),
which counts all but the longest few (``IN_THE_BENCH``); this script counts
those too.  Exits 1 if any count differs from its published term.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from knights.test_frontier import (  # noqa: E402
    IN_THE_BENCH,
    KNUTH_PARTIAL,
    _terms,
    checked_terms,
    partial_board,
)
from solvers import count_tours  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="sequences (default: all)")
    names = parser.parse_args().names or sorted(KNUTH_PARTIAL)
    wrong = 0
    print("| sequence | rows | n | cells | in the suite | seconds | count |")
    print("|---|---:|---:|---:|---|---:|---|")
    for name in names:
        rows, closed, *_ = KNUTH_PARTIAL[name]
        terms = _terms(name)
        for n, cells in checked_terms(name, every=True):
            started = time.perf_counter()
            tours = count_tours(
                board=partial_board(rows, cells), start="all", closed=closed, method="frontier"
            )
            seconds = time.perf_counter() - started
            ok = tours == terms[n] * (2 * cells if closed else 2)
            wrong += not ok
            suite = "no" if n in IN_THE_BENCH.get(name, ()) else "yes"
            print(
                f"| {name} | {rows} | {n} | {cells} | {suite} | {seconds:.2f} | "
                f"{'published' if ok else f'WRONG: {tours}'} |",
                flush=True,
            )
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
