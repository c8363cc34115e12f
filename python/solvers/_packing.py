"""The core's wire format for squares and columns: little-endian ``u32``s.

Results stay packed in an ``array('I')`` on the Python side, so a million
squares cost 4 MB rather than a million int objects.
"""

from __future__ import annotations

from array import array

_LITTLE = array("I", [1]).tobytes()[0] == 1


def pack(values: array[int]) -> bytes:
    """An ``array('I')`` as the bytes of little-endian ``u32``s."""
    if _LITTLE:
        return values.tobytes()
    swapped = array("I", values)
    swapped.byteswap()
    return swapped.tobytes()


def unpack(data: bytes) -> array[int]:
    """Little-endian ``u32`` bytes from the core as an ``array('I')``."""
    values = array("I")
    values.frombytes(data)
    if not _LITTLE:
        values.byteswap()
    return values
