"""The peg-solitaire layered DP, driven once for every way of running it.

A count goes layer by layer: the positions after ``k`` jumps (one per class
of the board symmetries that fix the start, and the finish), each with the
number of sequences reaching it.  What to grow and when to join is decided
here, in :func:`count` and :func:`finish_counts`, whatever runs the layers:

- :class:`Local`: the Rust kernel in this process, optionally saving every
  layer in a checkpoint so a killed count resumes from its last layers;
- :class:`Budgeted`: the Rust kernel in this process within a memory budget,
  each search's newest layer in memory or, past the budget, in files;
- :class:`solvers.peg.dist.Distributed`: the layers cut into parts by a
  hash of the positions, expanded part by part on an executor, the parts
  passed from round to round in files of a directory the tasks share.

Both are a :class:`Driver`: they start a search from one empty hole (a
*side*: ``"a"`` from the start, ``"b"`` backwards from the finish), expand a
side by one jump, and join two sides that are ``0`` jumps (:meth:`Driver.meet`)
or one jump (``across=True``) apart.  A count with a fixed finish
grows the smaller side until the two are one jump apart, then joins them
across that jump; for start = finish the one search is both sides.  The loops
go by the sides' peg counts, so a run resumed from saved layers takes the
same steps as one that never stopped.

>>> from solvers.peg.board import PegBoard
>>> board = PegBoard.rectangle(3, 4)
>>> local = Local(board, board.symmetries_fixing(0, 3), None, False, None)
>>> count(local, board, 0, 3, "meet"), count(local, board, 0, 3, "forward")
(432, 432)
"""

from __future__ import annotations

import abc
import os
from collections.abc import Callable
from typing import Any

from .. import _core
from .._engine import _progress, _run, _validate
from .._engine._deadline import Deadline
from .board import PegBoard
from .geometry import Permutation

#: What a step hands a count of every game: ``tally(pegs, positions, ended)``.
Tally = Callable[[int, int, int], None]
#: A step's result: the next layer (as the driver keeps it), and the
#: positions of the layer expanded and the games that ended in it.
Stepped = tuple[Any, int, int]

__all__ = [
    "Budgeted",
    "Driver",
    "Local",
    "Spec",
    "count",
    "finish_counts",
    "games",
    "new_kernel",
    "spec_of",
]

#: A board as the kernel takes it: holes, jumps, symmetry group (plain
#: tuples, so it pickles small and keys a cache).
Spec = tuple[int, tuple[tuple[int, int, int], ...], tuple[tuple[int, ...], ...]]


def spec_of(board: PegBoard, group: tuple[Permutation, ...] | list[Any]) -> Spec:
    """The kernel's view of ``board`` with the symmetry ``group``."""
    return len(board), tuple(board.jumps), tuple(tuple(perm) for perm in group)


def new_kernel(spec: Spec) -> _core.PegKernel:
    """A Rust kernel for the board and group of ``spec``."""
    holes, jumps, group = spec
    return _core.PegKernel(holes, list(jumps), [list(p) for p in group])


class Driver(abc.ABC):
    """What every way of running the DP shares: the kernel of this process
    (start layers, the last layer's finish counts), the deadline, and a
    progress bar of layers.  Layers rise and fall in size by orders of
    magnitude: no time left can be promised, so the bar shows the layers
    done and the latest layer's size."""

    #: Rounds a join takes beyond the layers the control flow expands.
    join_rounds = 0

    def __init__(self, board: PegBoard, group: Any, progress: Any, deadline: Deadline) -> None:
        self.deadline = deadline
        #: With :meth:`keep_in`: the checkpoint directory and the count's tag.
        self.saved: tuple[str, int] | None = None
        self.bar = _progress.make(progress, "peg solitaire", unit="layer", eta=False)
        self.planned = 1
        self.done = 0
        self.spec = spec_of(board, group)
        self.kernel = new_kernel(self.spec)

    def keep_in(self, directory: str, problem: int) -> None:
        """Save every layer in ``directory`` (a subdirectory per search, the
        layer files of :mod:`solvers._core`) and resume from the layers
        saved there; ``problem`` tags the count."""
        self.saved = directory, problem

    def saved_in(self, side: str) -> tuple[str, int] | None:
        """With :meth:`keep_in`: the directory of ``side``'s layers and the
        count's tag; else None."""
        if self.saved is None:
            return None
        directory, problem = self.saved
        return os.path.join(directory, side), problem

    def core_options(self, *, threads: int | None = None) -> Any:
        """The core's options for one call of the kernel: this driver's
        threads (or ``threads``) and the seconds left."""
        workers = getattr(self, "workers", 1) if threads is None else threads
        return _run.core(workers, self.deadline.left())

    def plan(self, layers: int, *, join: bool = False) -> None:
        """The bar's total: ``layers`` expansions (and a join's rounds)."""
        self.planned = max(layers + (self.join_rounds if join else 0), 1)
        self.reached()

    def reached(self) -> None:
        """How far the count got, for the message of a timeout."""
        self.deadline.where = f"after {min(self.done, self.planned)} of {self.planned} layers"

    def note(self, size: int, pegs: int, *, layer: bool = True) -> None:
        """Progress: one more layer done (``layer``), and the latest of
        ``size`` positions with ``pegs`` pegs."""
        self.done += layer
        self.reached()
        if self.bar is not None:
            self.bar.note(f"{size:,} positions with {pegs} pegs{self.detail()}")
            self.bar(self.done, self.planned)

    def detail(self) -> str:
        """More for the progress bar's note (after the latest layer's size)."""
        return ""

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()

    # What a way of running provides (sides are whatever it keeps a search in).

    @abc.abstractmethod
    def start(self, side: str, hole: int) -> Any:
        """Search ``side`` from "every hole full but ``hole``"."""

    def expand(self, side: Any, name: str) -> Any:
        """``side`` one jump further (it may be the same object, changed)."""
        return self.step(side, name)[0]

    @abc.abstractmethod
    def pegs(self, side: Any) -> int:
        """Pegs on the board in the newest layer of ``side``."""

    @abc.abstractmethod
    def size(self, side: Any) -> int:
        """Positions of ``side`` (an upper bound where exact is dear; 0: empty)."""

    @abc.abstractmethod
    def meet(self, a: Any, b: Any, *, across: bool = False) -> int:
        """Sequences through two searches whose layers meet (``b`` may be
        ``a``), or with ``across`` are one jump apart (``a`` the smaller)."""

    @abc.abstractmethod
    def last(self, side: Any) -> Any:
        """The one-peg layer of ``side`` as a ``PegLayer`` here, or None if empty."""

    @abc.abstractmethod
    def step(self, side: Any, name: str, tally: Tally | None = None) -> tuple[Any, int, int]:
        """:meth:`expand`, with what a count of every game wants of the layer
        it expands: its number of positions (exact) and the games that end
        in it (the sequences reaching its positions with no jump).  Both are
        handed to ``tally(pegs, positions, ended)`` (if given) before the
        next layer is saved, so a checkpoint never holds a layer without the
        figures of the layers before it."""


class Local(Driver):
    """The DP in this process: one kernel, ``threads`` threads, and with
    :meth:`keep_in` a checkpoint that saves the newest layer of each side in
    the layer files a count within a budget writes (so either way goes on
    from the other's checkpoint)."""

    def __init__(
        self, board: PegBoard, group: Any, threads: Any, progress: Any, timeout: Any
    ) -> None:
        self.workers = _validate.threads(threads)
        super().__init__(board, group, progress, Deadline(timeout))

    def start(self, side: str, hole: int) -> _core.PegLayer:
        """The newest saved layer of ``side``, or the start."""
        if (saved := self.saved_in(side)) is not None:
            layer = self.kernel.resume_layer(*saved, side)
            if layer is not None:
                return layer
        return self.kernel.start([hole])

    def step(self, side: _core.PegLayer, name: str, tally: Tally | None = None) -> Stepped:
        # In memory, the stuck positions are summed in a pass of their own
        # (only a count of every game asks, and reading memory is cheap).
        ended = 0
        if tally is not None:
            ended = int(self.kernel.stuck(side, self.core_options()))
            tally(side.pegs, len(side), ended)
        layer = self.kernel.expand(side, self.core_options())
        if (saved := self.saved_in(name)) is not None:
            self.kernel.save_layer(layer, *saved, name, self.core_options())
        self.note(len(layer), layer.pegs)
        return layer, len(side), ended

    def pegs(self, side: _core.PegLayer) -> int:
        return int(side.pegs)

    def size(self, side: _core.PegLayer) -> int:
        return len(side)

    def meet(self, a: _core.PegLayer, b: _core.PegLayer, *, across: bool = False) -> int:
        join = self.kernel.meet_across if across else self.kernel.meet
        return int(join(a, b, self.core_options()))

    def last(self, side: _core.PegLayer) -> _core.PegLayer | None:
        return side if len(side) else None


class Budgeted(Driver):
    """The DP in this process within ``memory`` bytes: each search keeps its
    newest layer as the layer engine's shards (``_core.PegSide``), in memory
    or, past the budget, in files in a new directory inside ``spill`` (the
    system's temporary directory if ``None``), removed when the count ends.
    Steps that do not fit go through files; meeting two searches goes shard
    by shard.  The answer is the one :class:`Local` gives."""

    def __init__(
        self,
        board: PegBoard,
        group: Any,
        threads: Any,
        progress: Any,
        timeout: Any,
        memory: int | str,
        spill: str | None,
    ) -> None:
        self.workers = _validate.threads(threads)
        super().__init__(board, group, progress, Deadline(timeout))
        self.spill = _core.LayerSpill(_run.core(memory=memory, spill=spill))
        #: The newest layer of each search, by name: the one not being
        #: expanded is written to disk when it does not fit beside the step.
        self.sides: dict[str, _core.PegSide] = {}

    def detail(self) -> str:
        """Once layers spill: the bytes written, where, and the disk left
        there (as the frontier count's bar says it)."""
        written = self.spill.written
        if not written:
            return ""
        free = self.spill.free_disk
        left = "" if free is None else f", {free / 1e9:.2f} GB free"
        return f", spilling: {written / 1e9:.2f} GB written to {self.spill.directory}{left}"

    def start(self, side: str, hole: int) -> _core.PegSide:
        """The newest saved layer of ``side``, or the start."""
        found = None
        if (saved := self.saved_in(side)) is not None:
            found = self.kernel.resume_side(*saved, self.spill, side)
        if found is None:
            found = self.kernel.start_side([hole], self.spill, side)
        self.sides[side] = found
        return found

    def step(self, side: _core.PegSide, name: str, tally: Tally | None = None) -> Stepped:
        # The games that end are tallied as the step reads the layer: a
        # layer in files is read once.
        idle = next((other for key, other in self.sides.items() if key != name), None)
        layer, ended = self.kernel.expand_side(side, idle, self.core_options())
        if tally is not None:
            tally(side.pegs, len(side), int(ended))
        self.sides[name] = layer
        if (saved := self.saved_in(name)) is not None:
            self.kernel.save_side(layer, *saved, self.core_options())
        self.note(len(layer), layer.pegs)
        return layer, len(side), int(ended)

    def pegs(self, side: _core.PegSide) -> int:
        return int(side.pegs)

    def size(self, side: _core.PegSide) -> int:
        return len(side)

    def meet(self, a: _core.PegSide, b: _core.PegSide, *, across: bool = False) -> int:
        if not across and len(b) < len(a):
            a, b = b, a  # the smaller side is read whole, the larger by shard
        return int(self.kernel.meet_sides(a, b, across, self.core_options()))

    def last(self, side: _core.PegSide) -> _core.PegLayer | None:
        return side.layer() if len(side) else None


def _to_one_peg(driver: Driver, side: Any) -> Any:
    while driver.pegs(side) > 1 and driver.size(side):
        side = driver.expand(side, "a")
    return side


def _last_layer(driver: Driver, s: int) -> Any:
    """The search from ``s`` carried to one peg, or None if no game gets there."""
    last = driver.last(_to_one_peg(driver, driver.start("a", s)))
    return None if last is None or last.pegs != 1 else last


def _meet(driver: Driver, s: int, f: int, steps: int, holes: int) -> int:
    """Sequences from the start to the finish, by two searches that meet."""
    a = driver.start("a", s)
    if s == f:
        # The search backwards from the finish is the search from the start
        # (on complemented boards): grow one side and meet it with itself.
        while driver.pegs(a) > holes - 1 - steps // 2:
            a = driver.expand(a, "a")
            if not driver.size(a):
                return 0
        return driver.meet(a, a, across=bool(steps % 2))
    b = driver.start("b", f)
    while (holes - 1 - driver.pegs(a)) + (holes - 1 - driver.pegs(b)) < max(steps - 1, 0):
        # Grow the smaller side until the two are one jump apart.
        if driver.size(a) <= driver.size(b):
            a = driver.expand(a, "a")
        else:
            b = driver.expand(b, "b")
        if not driver.size(a) or not driver.size(b):
            return 0
    if steps == 0:
        return driver.meet(a, b)
    if driver.size(a) <= driver.size(b):
        return driver.meet(a, b, across=True)
    return driver.meet(b, a, across=True)


def count(
    driver: Driver, board: PegBoard, s: int, f: int | None, method: str, *, reachable: bool = True
) -> int:
    """Jump sequences from ``board`` full but hole ``s`` to one peg on ``f``
    (``None``: anywhere), by ``method`` ``"meet"`` or ``"forward"``.
    ``reachable`` False: the finish is in another position class, no game."""
    steps = len(board) - 2  # jumps from one empty hole to one peg
    if f is None or method == "forward":
        driver.plan(steps)
    else:
        driver.plan(steps // 2 if s == f else steps - 1, join=True)
    if steps < 0 or not reachable:
        return 0
    if f is None:
        last = _last_layer(driver, s)
        return 0 if last is None else int(last.total())
    if method == "forward":
        last = _last_layer(driver, s)
        return 0 if last is None else dict(driver.kernel.finish_counts(last)).get(f, 0)
    return _meet(driver, s, f, steps, len(board))


def finish_counts(driver: Driver, board: PegBoard, s: int) -> list[tuple[int, int]]:
    """``(hole, count)`` for every hole some game from ``s`` ends on."""
    steps = len(board) - 2
    driver.plan(steps)
    if steps < 0:
        return []
    last = _last_layer(driver, s)
    return [] if last is None else list(driver.kernel.finish_counts(last))


class Games:
    """What one forward pass of every game gathers, layer by layer (by the
    pegs on the board): the positions of the layer (one per class of the
    symmetries kept) and the games that end in it.  ``saved`` holds what a
    checkpoint recorded; :meth:`keep` records one layer's figures (through
    ``record`` if given) unless they are there already; ``source`` names
    the checkpoint ``saved`` comes from, in an error."""

    def __init__(
        self,
        saved: dict[int, tuple[int, int]] | None = None,
        record: Tally | None = None,
        source: str = "the checkpoint",
    ) -> None:
        self.by_pegs: dict[int, tuple[int, int]] = dict(saved or {})
        self.record = record
        self.source = source

    def keep(self, pegs: int, positions: int, ended: int) -> None:
        if pegs in self.by_pegs:
            return  # recorded before a stop; a layer's figures never change
        self.by_pegs[pegs] = positions, ended
        if self.record is not None:
            self.record(pegs, positions, ended)


def games(
    driver: Driver, s: int, tally: Games | None = None
) -> tuple[dict[int, int], list[tuple[int, int]], tuple[int, ...]]:
    """Every game from hole ``s``, played until no jump is left: the games
    by the pegs left at the end (``{pegs: games}``, only those that occur),
    the wins by the hole of the last peg (``(hole, games)``), and the
    positions of each layer (index: the jumps made; from the start down to
    one peg, 0 past the last layer that is not empty).  One forward pass; a
    layer's stuck positions end the games that reach them.  A search resumed
    from a saved layer takes the figures of the layers before it from
    ``tally`` (a checkpoint's)."""
    tally = Games() if tally is None else tally
    side = driver.start("a", s)
    first = max(driver.spec[0] - 1, 0)  # the pegs of the start
    missing = [
        pegs for pegs in range(driver.pegs(side) + 1, first + 1) if pegs not in tally.by_pegs
    ]
    if missing:
        raise ValueError(
            f"{tally.source} holds a layer of {driver.pegs(side)} pegs but not the figures "
            f"of the layer of {missing[0]} pegs before it: it is corrupt"
        )
    driver.plan(max(driver.pegs(side) - 1, 0))
    while driver.pegs(side) > 1 and driver.size(side):
        side = driver.step(side, "a", tally.keep)[0]
    # The last layer (one peg, or fewer on a board of one or two holes, or
    # empty): small, read whole here.
    last = driver.last(side)
    if last is not None:
        ended = int(driver.kernel.stuck(last, driver.core_options(threads=1)))
        tally.keep(driver.pegs(side), len(last), ended)
    table = {
        pegs: ended for pegs, (_, ended) in sorted(tally.by_pegs.items(), reverse=True) if ended
    }
    lowest = min(first, 1)
    positions = tuple(tally.by_pegs.get(pegs, (0, 0))[0] for pegs in range(first, lowest - 1, -1))
    wins = [] if last is None or last.pegs != 1 else list(driver.kernel.finish_counts(last))
    return table, wins, positions
