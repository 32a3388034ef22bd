"""Guarded opening of session files: regular files only, `.zst` decompressed (ERR-12, CDX-7).

Why in the core: every host opens files a user points at, and a FIFO, a device or a directory
must be refused the same way for all of them before a byte is read.
"""

from __future__ import annotations

import io
import os
import stat

from .errors import E_READ, Rejection

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any, BinaryIO

COMPRESSED = ".zst"  # CDX-7: a zstd-compressed log (Codex compresses idle rollouts)


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
    return io.BufferedReader(ZstdRaw(reader, os.fspath(path)))


class ZstdRaw(io.RawIOBase):
    """A raw stream over zstandard's reader that turns its errors into E-READ (ERR-12, CDX-7)."""

    def __init__(self, reader: Any, name: str) -> None:
        super().__init__()
        self._reader = reader
        self.name = name
        self._checked = False

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        import zstandard

        try:
            count = int(self._reader.readinto(buffer))
        except zstandard.ZstdError as error:
            raise Rejection(0, E_READ, f"not a zstd-compressed log ({error})") from None
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
