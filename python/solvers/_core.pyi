"""Type stubs for the Rust extension ``solvers._core`` (thin bindings; the
public, validated API lives in the Python modules)."""

from collections.abc import Callable, Iterator
from typing import final

__all__ = [
    "MAX_QUEENS_SEARCH_N",
    "MAX_QUEENS_CONSTRUCT_N",
    "MAX_QUEENS_JOIN_N",
    "CPU_KERNELS",
    "available_memory",
    "check_disk",
    "queens_method",
    "count_queens",
    "search_queens",
    "construct_queens",
    "placement_defect",
    "QueenStream",
    "MAX_SEARCH_SQUARES",
    "MAX_FIND_SQUARES",
    "count_tours",
    "rectangle_rules_out",
    "count_tours_frontier",
    "frontier_steps",
    "frontier_tours",
    "frontier_round",
    "MAX_FRONTIER_SIDE",
    "find_tour",
    "tour_defect",
    "TourStream",
    "MAX_PEG_HOLES",
    "PegKernel",
    "CountPlan",
    "PegLayer",
    "PegSide",
    "LayerSpill",
    "PegStream",
    "MAX_COVER_ITEMS",
    "MAX_COVER_OPTIONS",
    "CoverProblem",
    "count_covers",
    "cover_method",
    "find_cover",
    "CoverStream",
]

MAX_SEARCH_SQUARES: int
MAX_FRONTIER_SIDE: int
MAX_FIND_SQUARES: int
MAX_QUEENS_SEARCH_N: int
MAX_QUEENS_CONSTRUCT_N: int
MAX_QUEENS_JOIN_N: int
CPU_KERNELS: str

def available_memory() -> int | None: ...
def check_disk(directory: str, bytes: int, what: str) -> None: ...
def count_tours(
    rows: int,
    cols: int,
    mask: list[bool] | None,
    start: tuple[int, int] | None,
    closed: bool,
    threads: int,
    progress: Callable[[int, int], object] | None = None,
    timeout: float | None = None,
) -> int: ...
def rectangle_rules_out(
    rows: int, cols: int, start: tuple[int, int] | None, closed: bool
) -> bool: ...
def count_tours_frontier(
    rows: int,
    cols: int,
    mask: list[bool] | None,
    start: tuple[int, int] | None,
    closed: bool,
    threads: int,
    progress: Callable[[int, int], object] | None = None,
    timeout: float | None = None,
    memory: int | None = None,
    spill: str | None = None,
    checkpoint: str | None = None,
    end: tuple[int, int] | None = None,
) -> tuple[int, int, int, int]: ...
def frontier_steps(
    rows: int, cols: int, mask: list[bool] | None, start: tuple[int, int] | None, closed: bool
) -> tuple[int, int, int]: ...
def frontier_tours(
    rows: int,
    cols: int,
    mask: list[bool] | None,
    start: tuple[int, int] | None,
    closed: bool,
    high: int,
    low: int,
) -> tuple[int, int]: ...
def frontier_round(
    rows: int,
    cols: int,
    mask: list[bool] | None,
    start: tuple[int, int] | None,
    closed: bool,
    step: int,
    owner: int,
    parts: int,
    inputs: list[tuple[str, int, int]],
    width: int,
    total: tuple[int, int],
    out: str,
    threads: int,
    timeout: float | None = None,
) -> tuple[list[tuple[int, int] | None], int, int, int, int]: ...
def find_tour(
    rows: int,
    cols: int,
    mask: list[bool] | None,
    start: tuple[int, int],
    closed: bool,
    threads: int,
    timeout: float | None = None,
) -> bytes | None: ...
def tour_defect(
    rows: int, cols: int, mask: list[bool] | None, path: bytes, closed: bool
) -> str | None: ...

@final
class TourStream(Iterator[bytes]):
    def __new__(
        cls,
        rows: int,
        cols: int,
        mask: list[bool] | None,
        start: tuple[int, int] | None,
        closed: bool,
    ) -> TourStream: ...
    def __iter__(self) -> TourStream: ...
    def __next__(self) -> bytes: ...
    def close(self) -> None: ...

def count_queens(
    n: int,
    unique: bool,
    threads: int,
    progress: Callable[[int, int], object] | None = None,
    timeout: float | None = None,
    method: str = "auto",
) -> int: ...
def queens_method(n: int, method: str = "auto") -> str: ...
def search_queens(
    n: int, threads: int, deterministic: bool, timeout: float | None = None
) -> bytes | None: ...
def construct_queens(n: int) -> bytes | None: ...
def placement_defect(cols: bytes) -> str | None: ...

@final
class CountPlan:
    """The subproblems of a tours or queens count, addressed by index."""

    @staticmethod
    def tours(
        rows: int,
        cols: int,
        mask: list[bool] | None,
        start: tuple[int, int] | None,
        closed: bool,
        min_tasks: int,
    ) -> CountPlan: ...
    @staticmethod
    def tour_pairs(
        rows: int,
        cols: int,
        mask: list[bool] | None,
        start: tuple[int, int] | None,
        memory: int | None = None,
        spill: str | None = None,
    ) -> CountPlan: ...
    @staticmethod
    def queens(n: int, unique: bool, min_tasks: int, method: str = "auto") -> CountPlan: ...
    @staticmethod
    def cover(problem: CoverProblem, min_tasks: int) -> CountPlan: ...
    def pairs(self) -> list[tuple[tuple[tuple[int, int], tuple[int, int]], int]]: ...
    def total(self, sum: int) -> int: ...
    def __len__(self) -> int: ...
    def count_each(
        self,
        which: list[int],
        threads: int,
        progress: Callable[[int, int], object] | None = None,
        timeout: float | None = None,
        finished: Callable[[list[tuple[int, int]]], object] | None = None,
    ) -> list[int]: ...

@final
class QueenStream(Iterator[bytes]):
    def __new__(cls, n: int, unique: bool) -> QueenStream: ...
    def __iter__(self) -> QueenStream: ...
    def __next__(self) -> bytes: ...
    def close(self) -> None: ...

MAX_PEG_HOLES: int

@final
class PegLayer:
    """One layer of the peg-solitaire DP, kept in Rust memory."""

    def __len__(self) -> int: ...
    @property
    def pegs(self) -> int: ...
    def total(self) -> int: ...
    def items(self) -> list[tuple[int, int]]: ...
    def to_bytes(self) -> bytes: ...
    @classmethod
    def from_bytes(cls, data: bytes) -> PegLayer: ...
    def __reduce__(self) -> tuple[Callable[[bytes], PegLayer], tuple[bytes]]: ...

@final
class LayerSpill:
    """A memory budget and the directory layers past it spill into."""

    def __new__(cls, memory: int, directory: str | None = None) -> LayerSpill: ...
    @property
    def memory(self) -> int: ...
    @property
    def written(self) -> int: ...
    @property
    def free_disk(self) -> int | None: ...
    @property
    def directory(self) -> str: ...

@final
class PegSide:
    """One search of a peg count within a memory budget (its newest layer)."""

    def __len__(self) -> int: ...
    @property
    def pegs(self) -> int: ...
    def total(self) -> int: ...
    def layer(self) -> PegLayer: ...

@final
class PegKernel:
    def __new__(
        cls, holes: int, jumps: list[tuple[int, int, int]], symmetries: list[list[int]]
    ) -> PegKernel: ...
    def start(self, empty: list[int]) -> PegLayer: ...
    def expand(self, layer: PegLayer, threads: int, timeout: float | None = None) -> PegLayer: ...
    def meet(
        self,
        from_start: PegLayer,
        from_finish: PegLayer,
        threads: int,
        timeout: float | None = None,
    ) -> int: ...
    def meet_pieces(
        self,
        from_start: list[PegLayer],
        from_finish: PegLayer,
        threads: int,
        timeout: float | None = None,
    ) -> int: ...
    def meet_across(
        self,
        from_start: PegLayer,
        from_finish: PegLayer,
        threads: int,
        timeout: float | None = None,
    ) -> int: ...
    def solve(
        self, empty: list[int], finish: int | None, timeout: float | None = None
    ) -> list[int] | None: ...
    def finish_counts(self, layer: PegLayer) -> list[tuple[int, int]]: ...
    def stuck(self, layer: PegLayer, threads: int, timeout: float | None = None) -> int: ...
    def meeting_positions(
        self,
        from_start: PegLayer,
        from_finish: PegLayer,
        threads: int,
        timeout: float | None = None,
    ) -> int: ...
    def stuck_game(
        self, empty: list[int], jumps: int, timeout: float | None = None
    ) -> list[int] | None: ...
    def owner(self, position: int, parts: int, complement: bool = False) -> int: ...
    def split(
        self,
        layer: PegLayer,
        parts: int,
        threads: int,
        complement: bool = False,
        timeout: float | None = None,
    ) -> list[PegLayer]: ...
    def expand_split(
        self,
        layer: PegLayer,
        parts: int,
        threads: int,
        complement: bool = False,
        timeout: float | None = None,
    ) -> list[PegLayer]: ...
    def merge(
        self, pieces: list[PegLayer], threads: int, timeout: float | None = None
    ) -> PegLayer: ...
    def start_side(self, empty: list[int], spill: LayerSpill, name: str) -> PegSide: ...
    def resume_side(
        self, directory: str, problem: int, spill: LayerSpill, name: str
    ) -> PegSide | None: ...
    def save_side(
        self, side: PegSide, directory: str, problem: int, timeout: float | None = None
    ) -> None: ...
    @staticmethod
    def saved_answer(directory: str, problem: int) -> int | None: ...
    @staticmethod
    def save_answer(directory: str, problem: int, answer: int) -> None: ...
    def expand_side(
        self, side: PegSide, idle: PegSide | None, threads: int, timeout: float | None = None
    ) -> tuple[PegSide, int]: ...
    def meet_sides(
        self,
        side: PegSide,
        other: PegSide,
        across: bool,
        threads: int,
        timeout: float | None = None,
    ) -> int: ...

@final
class PegStream(Iterator[list[int]]):
    """Solutions as jump indices, depth-first in jump order, from a Rust thread."""

    def __new__(cls, kernel: PegKernel, empty: list[int], finish: int | None) -> PegStream: ...
    def __iter__(self) -> PegStream: ...
    def __next__(self) -> list[int]: ...
    def close(self) -> None: ...

MAX_COVER_ITEMS: int
MAX_COVER_OPTIONS: int

@final
class CoverProblem:
    """An exact-cover problem, checked and laid out in Rust memory."""

    def __new__(
        cls, n_primary: int, n_secondary: int, starts: bytes, items: bytes, colors: bytes
    ) -> CoverProblem: ...
    @property
    def n_options(self) -> int: ...
    @property
    def n_items(self) -> int: ...
    @property
    def n_primary(self) -> int: ...

def count_covers(
    problem: CoverProblem,
    threads: int,
    progress: Callable[[int, int], object] | None = None,
    timeout: float | None = None,
    method: str = "search",
) -> int: ...
def cover_method(problem: CoverProblem, method: str = "auto") -> str: ...
def find_cover(
    problem: CoverProblem, threads: int, deterministic: bool, timeout: float | None = None
) -> bytes | None: ...

@final
class CoverStream(Iterator[bytes]):
    """Covers as little-endian u32 option indices, in search order, from a Rust thread."""

    def __new__(cls, problem: CoverProblem, threads: int = 1) -> CoverStream: ...
    def __iter__(self) -> CoverStream: ...
    def __next__(self) -> bytes: ...
    def close(self) -> None: ...
