"""The files that carry the pieces of a peg layer from one round of
:mod:`solvers.peg.dist` to the next: writing a task's pieces to one file of
its own (:func:`write_pieces`), reading one back by its reference
(:func:`read_piece`), and the check that binds each piece to its place.

A task writes its pieces (``PegLayer.to_bytes`` each, with its header and
checksum) one after another to one file of its own,
``r<round>-<owner>-<pid>-<random>.peg``, first under a temporary name and
then renamed (``os.replace``), so no task ever reads a half-written file; a
task run twice writes two files and each run's references point into its
own.  It returns only *references*, ``(path, offset, size)`` for each piece,
plain tuples that pickle small.  A reader rebuilds the piece with
``PegLayer.from_bytes``, which checks the header, the length and the
checksum: a missing, truncated or altered piece is an error naming its
file, never a wrong count.

>>> import shutil, tempfile
>>> from solvers import _core
>>> kernel = _core.PegKernel(3, [(0, 1, 2), (2, 1, 0)], [[0, 1, 2]])
>>> directory = tempfile.mkdtemp()
>>> (packed,) = write_pieces(os.path.join(directory, "r00000-0000"), [kernel.start([0])])
>>> [(positions, reference)] = packed
>>> path, offset, size = reference
>>> positions, offset, size, read_piece(reference).items()
(1, 0, 72, [(6, 1)])
>>> copy = os.path.join(directory, "r00000-0001-copy.peg")
>>> _ = shutil.copy(path, copy)  # the same piece in another file: refused
>>> read_piece((copy, offset, size))
Traceback (most recent call last):
...
ValueError: peg piece file '.../r00000-0001-copy.peg', offset 0: the piece does not match ...
>>> os.truncate(path, size - 1)  # a piece cut short is refused, never misread
>>> read_piece(reference)
Traceback (most recent call last):
...
ValueError: peg piece file '.../r00000-0000-...peg' is truncated: 72 bytes wanted at offset 0, ...
>>> shutil.rmtree(directory)
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import secrets
from typing import Any

from .. import _core

__all__ = ["CHECK_BYTES", "SUFFIX", "Packed", "Ref", "read_piece", "write_pieces"]

#: Where a piece lies: ``(path, offset, size)``, a slice of a file in the
#: count's directory holding one ``PegLayer.to_bytes()``.
Ref = tuple[str, int, int]

#: A task's output: for each owner, its piece as ``(positions, reference)`` or None.
Packed = list[tuple[int, Ref] | None]

SUFFIX = ".peg"

#: Bytes of the check written before each piece: a BLAKE2b digest of the
#: piece bound to the name of its file and its offset there, so a piece read
#: from another file (one task's file copied over another's) or moved within
#: one is refused, never counted twice.  (``PegLayer.from_bytes`` checks the
#: piece's own bytes.)
CHECK_BYTES = 16


def _check(path: str, offset: int, data: bytes) -> bytes:
    digest = hashlib.blake2b(digest_size=CHECK_BYTES, person=b"solvers-piece/1")
    digest.update(os.path.basename(path).encode("utf-8", "surrogateescape"))
    digest.update(offset.to_bytes(8, "little"))
    digest.update(data)
    return digest.digest()


def _missing(path: str) -> FileNotFoundError:
    return FileNotFoundError(
        errno.ENOENT,
        "peg piece file or directory is missing here: spill= must be a directory that every "
        "worker sees at the same path (or the count has ended)",
        path,
    )


def read_piece(ref: Ref) -> _core.PegLayer:
    """The piece ``ref`` points at, checked by ``PegLayer.from_bytes`` (header,
    length, checksum): a missing, truncated or altered piece raises, naming
    its file."""
    path, offset, size = ref
    try:
        with open(path, "rb") as file:
            file.seek(offset)
            data = file.read(size)
    except FileNotFoundError:
        raise _missing(path) from None
    if len(data) != size or size < CHECK_BYTES:
        raise ValueError(
            f"peg piece file {path!r} is truncated: {size} bytes wanted at offset {offset}, "
            f"{len(data)} there"
        )
    check, data = data[:CHECK_BYTES], data[CHECK_BYTES:]
    if check != _check(path, offset, data):
        raise ValueError(
            f"peg piece file {path!r}, offset {offset}: the piece does not match its check "
            "(altered, or written to another file or place)"
        )
    try:
        return _core.PegLayer.from_bytes(data)
    except ValueError as error:
        raise ValueError(f"peg piece file {path!r}, offset {offset}: {error}") from None


def write_pieces(prefix: str, *groups: list[Any]) -> list[Packed]:
    """The non-empty layers of each of ``groups`` written one after another to
    one new file, ``prefix`` and a tail of its own (this process and a random
    token: a task run twice writes two files), and where each lies: for each
    group, ``(positions, reference)`` per layer, None for an empty one.  The
    file is written under a temporary name and renamed when complete, so no
    reader ever sees half of it.  Nothing is written if every layer is empty."""
    path = f"{prefix}-{os.getpid()}-{secrets.token_hex(4)}{SUFFIX}"
    out: list[Packed] = [[None] * len(layers) for layers in groups]
    if not any(len(layer) for layers in groups for layer in layers):
        return out
    temporary = f"{path}.tmp"
    folder = os.path.dirname(os.path.abspath(path))
    try:
        with open(temporary, "xb") as file:
            offset = 0
            for packed, layers in zip(out, groups, strict=True):
                for owner, layer in enumerate(layers):
                    if len(layer):
                        data = layer.to_bytes()
                        data = _check(path, offset, data) + data
                        # Only where the disk has room (the rule of every spill).
                        _core.check_disk(folder, len(data), "a peg piece file")
                        file.write(data)
                        packed[owner] = (len(layer), (path, offset, len(data)))
                        offset += len(data)
        os.replace(temporary, path)
    except FileNotFoundError:
        raise _missing(temporary) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise
    return out
