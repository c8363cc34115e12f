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
    try:
        values.frombytes(data)
    except MemoryError:
        mib = len(data) / 2**20
        raise MemoryError(
            f"not enough memory for {len(data) // 4} values from the core: "
            f"they need {mib:.1f} MiB more"
        ) from None
    if not _LITTLE:
        values.byteswap()
    return values
