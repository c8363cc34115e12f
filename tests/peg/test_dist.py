"""The peg DP on executors (``executor=``, ``parts=``): the same answers as the
local count and the separate oracle for every ``parts``, the layers' transport
format, errors, timeouts and Ctrl-C."""

from __future__ import annotations

import pickle
import random
import signal
import struct
import sys
import threading
import time
import types
from concurrent.futures import Executor, Future, ThreadPoolExecutor

import peg_oracle as oracle
import pytest
import solvers
from hang import HANG_GUARD
from solvers import PegBoard, _core, count_peg_solutions, finish_counts
from solvers._engine import _rounds
from solvers.peg import dist as _peg_dist

PARTS = (1, 2, 3, 7)

#: (board, oracle board, start, finishes): start = finish across an odd (3 x 5,
#: triangle) and an even (3 x 4) number of jumps, start != finish with and
#: without a symmetry fixing both, finishes with no game.
CASES = [
    (PegBoard.triangle(5), oracle.triangle(5), (0, 0), [None, "start", (4, 2), (3, 3), (2, 1)]),
    (PegBoard.rectangle(3, 4), oracle.rectangle(3, 4), (0, 0), [None, "start", (0, 3), (1, 1)]),
    (PegBoard.rectangle(3, 5), oracle.rectangle(3, 5), (0, 2), ["start", (2, 2)]),
    (PegBoard.rectangle(4, 4), oracle.rectangle(4, 4), (0, 1), [(0, 2), (3, 2), "start"]),
]
IDS = [f"{board!r}-{start}" for board, _, start, _ in CASES]


@pytest.fixture(scope="module")
def threads():
    with ThreadPoolExecutor(2) as pool:
        yield pool


def _want(oracle_board, start, finish):
    ends = oracle.finish_counts_bruteforce(*oracle_board, start)
    if finish is None:
        return sum(ends.values())
    return ends[start if finish == "start" else finish]


@pytest.mark.parametrize(("board", "oracle_board", "start", "finishes"), CASES, ids=IDS)
@pytest.mark.slow  # several seconds: the quick run stays under 3 minutes
def test_counts_match_the_oracle_for_every_parts(
    board, oracle_board, start, finishes, processes, threads
):
    ends = oracle.finish_counts_bruteforce(*oracle_board, start)
    assert finish_counts(board, start=start) == ends
    wants = [_want(oracle_board, start, finish) for finish in finishes]
    assert any(wants) and not all(wants)  # solvable and unsolvable ones
    for parts in PARTS:
        executor = processes if parts in (2, 7) else threads
        assert finish_counts(board, start=start, executor=executor, parts=parts) == ends, parts
        for finish, want in zip(finishes, wants, strict=True):
            got = count_peg_solutions(
                board, start=start, finish=finish, executor=executor, parts=parts, threads=1
            )
            assert got == want, (parts, finish)


def test_a_bigger_board_matches_the_local_count(processes):
    # 21 holes: layers of hundreds of positions, so every part is busy
    board = PegBoard.triangle(6)
    for start, finish in [((0, 0), "start"), ((0, 0), (4, 2)), ((2, 1), (5, 1))]:
        want = count_peg_solutions(board, start=start, finish=finish)
        assert want > 10**9
        got = count_peg_solutions(board, start=start, finish=finish, executor=processes, parts=3)
        assert got == want, (start, finish)
    ends = finish_counts(board, start=(4, 2), executor=processes, parts=7)
    assert ends == finish_counts(board, start=(4, 2))


def test_forward_method_on_an_executor(threads):
    board = PegBoard.triangle(5)
    for finish, want in [((4, 2), 16128), ("start", 6816), ((2, 1), 0)]:
        got = count_peg_solutions(
            board, start=(0, 0), finish=finish, method="forward", executor=threads, parts=3
        )
        assert got == want


def test_tiny_boards(threads):
    # one and two holes: no jump at all
    for rows, cols in [(1, 1), (1, 2), (1, 3)]:
        board = PegBoard.rectangle(rows, cols)
        for start in board.holes:
            assert finish_counts(board, start=start, executor=threads, parts=2) == finish_counts(
                board, start=start
            )
            for finish in [None, "start", *board.holes]:
                local = count_peg_solutions(board, start=start, finish=finish)
                dist = count_peg_solutions(
                    board, start=start, finish=finish, executor=threads, parts=2
                )
                assert dist == local, (rows, cols, start, finish)


def test_default_parts_is_one_per_worker(threads):
    assert _rounds.parts(None, threads) == 2
    assert _rounds.parts(None, ThreadPoolExecutor(5)) == 5

    class Inline(Executor):
        def submit(self, fn, /, *args, **kwargs):
            future = Future()
            future.set_result(fn(*args, **kwargs))
            return future

    assert _rounds.parts(None, Inline()) == _peg_dist.DEFAULT_PARTS
    board = PegBoard.triangle(5)
    assert count_peg_solutions(board, start=(0, 0), finish=None, executor=Inline()) == 29760


# ---------------------------------------------------------------- the layer format


M64 = (1 << 64) - 1


def _layer_bytes(pegs, items, *, parents=0, width=None, version=1):
    """A layer in the documented format (``peg::Layer::to_bytes``), written here."""
    if width is None:
        width = 16 if any(count >> 64 for _, count in items) else 8
    head = b"PEGL" + struct.pack("<HBBII", version, width, 0, pegs, 0)
    head += struct.pack("<QQ", len(items), parents)
    body = b"".join(struct.pack("<Q", key) for key, _ in items)
    body += b"".join(count.to_bytes(width, "little") for _, count in items)
    total = 0x243F6A8885A308D3
    for (word,) in struct.iter_unpack("<Q", head + body):
        total = ((total ^ word) * 0x9E3779B97F4A7C15) & M64
        total = (total << 27 | total >> 37) & M64
    return head + struct.pack("<Q", total) + body


def _kernel(board, *fixed):
    group = board.symmetries_fixing(*fixed)
    return _core.PegKernel(len(board), list(board.jumps), [list(p) for p in group])


def _some_layer():
    board = PegBoard.english()
    kernel = _kernel(board, (3, 3))
    layer = kernel.start([board.index((3, 3))])
    for _ in range(5):
        layer = kernel.expand(layer, _core.RunOptions(1))
    return kernel, layer


def test_layers_round_trip_through_bytes_and_pickle():
    kernel, layer = _some_layer()
    assert len(layer) > 100
    data = layer.to_bytes()
    (parents,) = struct.unpack_from("<Q", data, 24)
    assert parents > 0
    assert data == _layer_bytes(layer.pegs, layer.items(), parents=parents)
    for back in (_core.PegLayer.from_bytes(data), pickle.loads(pickle.dumps(layer))):
        assert back.items() == layer.items()
        assert (back.pegs, len(back), back.total()) == (layer.pegs, len(layer), layer.total())
        assert back.to_bytes() == data
        # it works like the original
        assert (
            kernel.expand(back, _core.RunOptions(1)).items()
            == kernel.expand(layer, _core.RunOptions(1)).items()
        )
    wide = _core.PegLayer.from_bytes(_layer_bytes(2, [(0b11, 1 << 100), (0b101, 7)]))
    assert wide.items() == [(0b11, 1 << 100), (0b101, 7)] and wide.total() == (1 << 100) + 7
    assert wide.to_bytes() == _layer_bytes(2, wide.items())
    empty = _core.PegLayer.from_bytes(_layer_bytes(0, []))
    assert (len(empty), empty.pegs, empty.total()) == (0, 0, 0)


def test_garbage_bytes_are_refused():
    _, layer = _some_layer()
    data = layer.to_bytes()
    rng = random.Random(6)
    bad = [
        b"",
        b"PEGL",
        bytes(40),
        bytes(rng.randrange(256) for _ in range(1000)),
        b"PEGL" + bytes(rng.randrange(256) for _ in range(1000)),
        data[:-1],
        data + b"\0" * 8,
        _layer_bytes(2, [(0b111, 1)]),  # three pegs in a two-peg layer
        data[:6] + b"\x04" + data[7:],  # four bytes per count
    ]
    for at in rng.sample(range(len(data)), 50):
        flipped = bytearray(data)
        flipped[at] ^= 1 << rng.randrange(8)
        bad.append(bytes(flipped))
    for garbage in bad:
        with pytest.raises(ValueError, match="peg layer"):
            _core.PegLayer.from_bytes(garbage)
    with pytest.raises(ValueError, match="version 2 is not supported"):
        _core.PegLayer.from_bytes(_layer_bytes(2, [(0b11, 1)], version=2))
    with pytest.raises(TypeError):
        _core.PegLayer.from_bytes("PEGL")


def test_the_owner_is_the_documented_hash():
    def splitmix(z):
        z = ((z ^ z >> 30) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ z >> 27) * 0x94D049BB133111EB) & M64
        return z ^ z >> 31

    kernel, layer = _some_layer()
    for parts in (1, 2, 3, 7, 1000):
        for key, _ in layer.items()[:50]:
            assert kernel.owner(key, parts) == splitmix(key) % parts
        pieces = kernel.split(layer, parts, _core.RunOptions(1))
        assert len(pieces) == parts
        for owner, piece in enumerate(pieces):
            assert all(kernel.owner(key, parts) == owner for key, _ in piece.items())
        assert sorted(kernel.merge(pieces, _core.RunOptions(2)).items()) == sorted(layer.items())
        children = kernel.expand_split(layer, parts, _core.RunOptions(2))
        merged = kernel.merge(children, _core.RunOptions(2))
        assert sorted(merged.items()) == sorted(kernel.expand(layer, _core.RunOptions(2)).items())
    assert (
        sum(1 for piece in kernel.split(layer, 7, _core.RunOptions(1)) if len(piece)) == 7
    )  # spread out


def test_merge_checks_its_pieces_and_overflows_as_an_error():
    kernel, layer = _some_layer()
    board_bits = (1 << 33) - 1
    big = _core.PegLayer.from_bytes(_layer_bytes(2, [(0b11, 1 << 127), (0b110, 5)]))
    with pytest.raises(OverflowError, match="128-bit"):
        kernel.merge([big, big], _core.RunOptions(1))
    fits = _core.PegLayer.from_bytes(_layer_bytes(2, [(0b11, (1 << 127) - 1)]))
    merged = kernel.merge([big, fits], _core.RunOptions(1))
    assert sorted(merged.items()) == [(0b11, (1 << 128) - 1), (0b110, 5)]
    with pytest.raises(OverflowError):
        merged.total()
    with pytest.raises(ValueError, match="same number of pegs"):
        kernel.merge([layer, big], _core.RunOptions(1))
    with pytest.raises(ValueError, match="at least one"):
        kernel.merge([], _core.RunOptions(1))
    outside = _core.PegLayer.from_bytes(_layer_bytes(2, [(board_bits + 1 | 1, 1)]))
    with pytest.raises(ValueError, match="not a position"):
        kernel.merge([outside], _core.RunOptions(1))
    for parts in (0, 1 << 17):
        with pytest.raises(ValueError, match="parts"):
            kernel.split(layer, parts, _core.RunOptions(1))
        with pytest.raises(ValueError, match="parts"):
            kernel.expand_split(layer, parts, _core.RunOptions(1))


def test_an_overflow_in_a_task_reaches_the_caller(monkeypatch, threads):
    # Every merged part gets counts of at least 2^126: a position with four
    # parents then overflows the 128-bit counter in its task.
    merged = _peg_dist._merged

    def inflated(kernel, pieces, workers, clock):
        layer = merged(kernel, pieces, workers, clock)
        items = [(key, count | 1 << 126) for key, count in layer.items()]
        return _core.PegLayer.from_bytes(_layer_bytes(layer.pegs, items))

    monkeypatch.setattr(_peg_dist, "_merged", inflated)
    board = PegBoard.triangle(5)
    for finish in [None, "start"]:
        with pytest.raises(OverflowError, match="does not fit the 128-bit counter"):
            count_peg_solutions(board, start=(0, 0), finish=finish, executor=threads, parts=3)
    with pytest.raises(OverflowError):
        finish_counts(board, start=(0, 0), executor=threads, parts=2)


def test_counts_past_64_bits_travel_exactly(monkeypatch, threads):
    # The DP is linear: with the start's count 2^70 instead of 1, every count
    # is 2^70 times larger, and the pieces carry 16-byte counts.
    merged = _peg_dist._merged
    board = PegBoard.triangle(5)

    def scaled(kernel, pieces, workers, clock):
        layer = merged(kernel, pieces, workers, clock)
        if layer.pegs < len(board) - 1:
            return layer
        items = [(key, count << 70) for key, count in layer.items()]
        return _core.PegLayer.from_bytes(_layer_bytes(layer.pegs, items))

    monkeypatch.setattr(_peg_dist, "_merged", scaled)
    ends = finish_counts(board, start=(0, 0), executor=threads, parts=3)
    assert ends == {hole: count << 70 for hole, count in finish_counts(board, start=(0, 0)).items()}
    total = count_peg_solutions(board, start=(0, 0), finish=None, executor=threads, parts=2)
    assert total == 29760 << 70


# ---------------------------------------------------------------- the driver


def test_bad_arguments(threads):
    board = PegBoard.triangle(5)
    with pytest.raises(TypeError, match="concurrent.futures.Executor"):
        count_peg_solutions(board, start=(0, 0), executor=object())
    with pytest.raises(ValueError, match="takes parts= only with executor="):
        count_peg_solutions(board, start=(0, 0), parts=2)
    with pytest.raises(ValueError, match="takes parts= only with executor="):
        finish_counts(board, start=(0, 0), parts=2)
    for parts, error in [(0, ValueError), (_peg_dist.MAX_PARTS + 1, ValueError), (True, TypeError)]:
        with pytest.raises(error, match="parts"):
            count_peg_solutions(board, start=(0, 0), executor=threads, parts=parts)
    with pytest.raises(ValueError, match="threads"):
        count_peg_solutions(board, start=(0, 0), executor=threads, threads=0)
    with pytest.raises(ValueError, match="timeout"):
        finish_counts(board, start=(0, 0), executor=threads, timeout=-1)
    # arguments are checked even where the answer is known at once
    with pytest.raises(ValueError, match="parts"):
        count_peg_solutions(board, start=(0, 0), finish=(1, 0), executor=threads, parts=0)


def test_timeout_stops_the_tasks_too(processes):
    board = PegBoard.english()
    begin = time.monotonic()
    with pytest.raises(TimeoutError, match="timeout of 0.3 s"):
        count_peg_solutions(board, start=(3, 3), executor=processes, parts=2, timeout=0.3)
    assert time.monotonic() - begin < HANG_GUARD
    # the tasks still running stop at the deadline too: the pool answers at once
    begin = time.monotonic()
    assert count_peg_solutions(PegBoard.triangle(5), start=(0, 0), executor=processes) == 6816
    assert time.monotonic() - begin < HANG_GUARD


class _CtrlC(ThreadPoolExecutor):
    """A one-thread pool that keeps every future it hands out, and whose
    first task of a round after the tenth task sends SIGINT to the main
    thread while the driver waits for the round."""

    def __init__(self):
        super().__init__(1)
        self.futures = []
        self.armed = True

    def submit(self, fn, /, *args, **kwargs):
        if self.armed and len(self.futures) >= 10 and all(f.done() for f in self.futures):
            self.armed = False
            self.first_cancelled = len(self.futures) + 1
            task = fn

            def fn(*args, **kwargs):
                time.sleep(0.1)  # the driver has submitted the round and waits
                signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)
                time.sleep(0.2)  # the driver gives up before the next task starts
                return task(*args, **kwargs)

        future = super().submit(fn, *args, **kwargs)
        self.futures.append(future)
        return future


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_cancels_the_tasks_not_started():
    pool = _CtrlC()
    try:
        with pytest.raises(KeyboardInterrupt):
            count_peg_solutions(PegBoard.english(), start=(3, 3), executor=pool, parts=8, threads=1)
    finally:
        pool.shutdown(wait=True)
    assert not pool.armed
    # the rest of that round was cancelled, and nothing came after
    rest = pool.futures[pool.first_cancelled :]
    assert rest and all(future.cancelled() for future in rest)


class _FakeTqdm:
    made: list[_FakeTqdm] = []

    def __init__(self, total=None, **kwargs):
        self.total, self.n, self.kwargs, self.postfix, self.closed = total, 0, kwargs, "", False
        _FakeTqdm.made.append(self)

    def update(self, k):
        self.n += k

    def set_postfix_str(self, text, refresh=True):
        self.postfix = text

    def close(self):
        self.closed = True


def test_progress_counts_rounds_of_layers(monkeypatch, threads):
    module = types.ModuleType("tqdm")
    module.tqdm = _FakeTqdm
    monkeypatch.setitem(sys.modules, "tqdm", module)
    monkeypatch.setattr(solvers._engine._progress, "SILENT_SECONDS", 0.0)
    _FakeTqdm.made.clear()
    board = PegBoard.triangle(5)
    assert (
        count_peg_solutions(
            board, start=(0, 0), finish=None, executor=threads, parts=3, progress=True
        )
        == 29760
    )
    (bar,) = _FakeTqdm.made
    assert bar.closed and bar.n == bar.total == 13  # one round per jump
    assert bar.kwargs["unit"] == "layer"
    assert bar.postfix == "3 positions with 1 pegs"  # as the local count says
