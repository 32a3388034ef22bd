"""Counting a log of appended JSON records with a host's reader: fast path first, if any.

Why in the core: Codex, pi, Claude Code, Gemini CLI (and any later record host) read their
files the same way — by JSON value (JSV-1) into the host's `count_records` — and the big ones
first try a fast path that gives up whenever it has any doubt. One function, so that every
command counts a record host's file exactly as `count` does.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import IO, Any

    from .answer import RecordCount
    from .errors import Notice

    Reader = Callable[[Iterable[tuple[int, Any]]], RecordCount]
    FastStream = Callable[[IO[bytes], list[Notice]], RecordCount]

# The fast paths pay for themselves from about this size: below it, importing msgspec costs more
# than a fast path saves (measured on both benchmark shapes; see benchmarks/README.md).
FAST_FROM_BYTES = 16 * 2**20


def size_of(path: str | os.PathLike[str]) -> int:
    """The file's size, 0 when it cannot be read (the readable path then reports why)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


# A `.jsonl.zst` (CDX-7) is weighed by its compressed size: logs compress about this many times.
COMPRESSION = 8


def wants_fast(
    path: str | os.PathLike[str], readable: bool, compressed: bool = False, scale: int = 1
) -> bool:
    """Whether a fast path should answer first: a file of `scale` times FAST_FROM_BYTES or more,
    and not `--readable`. A compressed one only for a fast path that reads through `open_log`
    (`compressed`: the record hosts')."""
    if readable:
        return False
    if os.fspath(path).endswith(".zst"):
        return compressed and size_of(path) * COMPRESSION >= FAST_FROM_BYTES * scale
    return size_of(path) >= FAST_FROM_BYTES * scale


def count_file(
    path: str | os.PathLike[str],
    reader: Reader,
    *,
    fast: Callable[[], FastStream] | None = None,
    readable: bool = False,
    titles: tuple[Callable[[dict[str, Any]], str | None], Any] | None = None,
    fast_scale: int = 1,
) -> RecordCount:
    """The answer of one record log: `fast` (a loader of the host's fast stream counter) answers
    first for a big file; whenever it has any doubt, `reader` (the definition) reads the file
    again. Both give the same output on every input (tests/reference/test_fastpath_hosts.py).

    `titles` (first user message, given name: core/titles.py) asks for the session's title on
    the same pass; the readable path then reads the file, since the fast path skips messages.
    `fast_scale`: the host's fast path pays for its import (msgspec, about 20 ms) only from
    this many times FAST_FROM_BYTES (measured per host: benchmarks/README.md, issue 37).
    """
    if fast is not None and titles is None and wants_fast(path, readable, True, fast_scale):
        from .fast import count_records_fast

        result = count_records_fast(path, fast())
        if result is not None:
            return result
    from .files import open_log
    from .jsonvalues import iter_values

    notices: list[Notice] = []
    found: list[str] = []
    with open_log(path) as stream:
        values = iter_values(stream, notices)
        if titles is not None:
            from .titles import watch

            values = watch(values, titles[0], titles[1], found)
        result = reader(values)
    result.notices[:0] = notices
    result.title = found[0] if found else ""
    return result
