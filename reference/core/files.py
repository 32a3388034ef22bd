"""Guarded opening of session files: regular files only, `.zst` decompressed (ERR-12, CDX-7).

Why in the core: every host opens files a user points at, and a FIFO, a device or a directory
must be refused the same way for all of them before a byte is read.
"""

from __future__ import annotations

import io
import os
import stat

from .errors import E_LIMIT, E_READ, Rejection

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any, BinaryIO

COMPRESSED = ".zst"  # CDX-7: a zstd-compressed log (Codex compresses idle rollouts)

# CDX-7 / ERR-8: how much a `.zst` may inflate. Real logs compress 4-20 times (Codex, pi and
# Claude Code files measured at zstd's levels 3 and 19); a bomb of run-length blocks, about
# 30,000. Past either bound the read ends with E-LIMIT, before memory or time run out.
ZSTD_RATIO = 1000  # decompressed bytes per compressed byte ...
ZSTD_FLOOR = 1 << 20  # ... though a small file may always give this much
ZSTD_ABSOLUTE = 16 << 30  # and no file more than this (16 GiB)


def open_log(path: str | os.PathLike[str]) -> BinaryIO:
    """The bytes of a session file: a regular file (ERR-12), decompressed when it is `.zst`.

    A `.jsonl.zst` is read as the `.jsonl` it holds (CDX-7); zstandard is imported only then.
    Bytes that are not zstd data end the read with E-READ (the file cannot be read as a log).
    """
    stream = open_regular(path)
    if not os.fspath(path).endswith(COMPRESSED):
        return stream
    import zstandard

    reader = zstandard.ZstdDecompressor().stream_reader(stream, closefd=True)
    bound = inflation_bound(os.fstat(stream.fileno()).st_size)
    return io.BufferedReader(ZstdRaw(reader, os.fspath(path), bound))


def inflation_bound(compressed: int) -> tuple[int, str]:
    """The most bytes a `.zst` of `compressed` bytes may give, and why (CDX-7, ERR-8)."""
    by_ratio = max(ZSTD_FLOOR, ZSTD_RATIO * compressed)
    if by_ratio <= ZSTD_ABSOLUTE:
        return by_ratio, f"{by_ratio:,} bytes, {ZSTD_RATIO:,} times its compressed size"
    return ZSTD_ABSOLUTE, f"{ZSTD_ABSOLUTE:,} bytes, the bound for any compressed log"


class ZstdRaw(io.RawIOBase):
    """A raw stream over zstandard's reader that turns its errors into E-READ (ERR-12, CDX-7)
    and ends with E-LIMIT once it has given more than `bound` bytes (ERR-8)."""

    def __init__(self, reader: Any, name: str, bound: tuple[int, str]) -> None:
        super().__init__()
        self._reader = reader
        self.name = name
        self._checked = False
        self._left, self._why = bound[0] + 1, bound[1]  # one byte past the bound proves it

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        import zstandard

        if not self._left:
            raise Rejection(0, E_LIMIT, f"decompressed past {self._why}")
        try:
            with memoryview(buffer) as whole, whole[: self._left] as room:
                count = int(self._reader.readinto(room))
        except zstandard.ZstdError as error:
            raise Rejection(0, E_READ, f"not a zstd-compressed log ({error})") from None
        self._left -= count
        if not self._left:
            raise Rejection(0, E_LIMIT, f"decompressed past {self._why}")
        if count == 0 and len(buffer) and not self._checked:
            self._checked = True  # the reader ends quietly inside a frame: ask the frames
            from .zstdframes import cut_short

            with open_regular(self.name) as compressed:
                reason = cut_short(compressed)
            if reason is not None:
                raise Rejection(0, E_READ, reason)
        return count

    def close(self) -> None:
        if not self.closed:
            self._reader.close()
        super().close()


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """Open a session file for reading, refusing anything but a regular file (ERR-12).

    The file is opened without blocking and checked on the open descriptor, so a FIFO, a
    device such as /dev/zero (also behind a symlink) or a directory is refused at once instead
    of hanging or reading forever.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise Rejection(0, E_READ, f"not a regular file ({_file_type(mode)})")
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _file_type(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a regular file"
