"""Whether a zstd file ends where its last frame says it ends (CDX-7, ERR-12).

Why: zstandard's stream reader ends quietly at the end of the input, also in the middle of a
frame, so a `.jsonl.zst` cut short would read as a shorter (often empty) log and get `E-EMPTY`
or a count of what survived. The frame format says where each frame ends (RFC 8878: a header,
blocks whose headers give their sizes and mark the last one, an optional checksum), so walking
the block headers, without decompressing anything, tells a whole file from a cut one.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import BinaryIO

MAGIC = 0xFD2FB528  # a zstd frame, little-endian (RFC 8878, 3.1.1)
SKIPPABLE = 0x184D2A50  # ... to 0x184D2A5F: a skippable frame (3.1.2)


def cut_short(stream: BinaryIO) -> str | None:
    """Why the zstd file open as `stream` is not a whole sequence of frames, or None."""
    return _walk(stream, os.fstat(stream.fileno()).st_size)


def _walk(stream: BinaryIO, size: int) -> str | None:
    position = 0
    while position < size:
        magic = _read(stream, position, 4)
        if magic is None:
            return "cut short in a frame's magic number"
        number = int.from_bytes(magic, "little")
        if number & 0xFFFFFFF0 == SKIPPABLE:
            length = _read(stream, position + 4, 4)
            if length is None:
                return "cut short in a skippable frame"
            position += 8 + int.from_bytes(length, "little")
            if position > size:
                return "cut short in a skippable frame"
            continue
        if number != MAGIC:
            return "not a zstd frame"
        end = _frame_end(stream, position + 4, size)
        if end is None:
            return "a zstd-compressed log cut short (its last frame is incomplete)"
        position = end
    return None


def _frame_end(stream: BinaryIO, position: int, size: int) -> int | None:
    """The offset after the frame whose header starts at `position`, or None if it is cut."""
    descriptor = _read(stream, position, 1)
    if descriptor is None:
        return None
    flags = descriptor[0]
    single_segment = bool(flags & 0x20)
    checksum = 4 if flags & 0x04 else 0
    dictionary = (0, 1, 2, 4)[flags & 0x03]
    content_size = (1 if single_segment else 0, 2, 4, 8)[flags >> 6]
    position += 1 + (0 if single_segment else 1) + dictionary + content_size
    while True:
        header = _read(stream, position, 3)
        if header is None:
            return None
        value = int.from_bytes(header, "little")
        last, kind, length = value & 1, (value >> 1) & 3, value >> 3
        position += 3 + (1 if kind == 1 else length)  # an RLE block holds one byte
        if position > size:
            return None
        if last:
            position += checksum
            return position if position <= size else None


def _read(stream: BinaryIO, position: int, count: int) -> bytes | None:
    stream.seek(position)
    data = stream.read(count)
    return data if len(data) == count else None
