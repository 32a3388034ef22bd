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
    from collections.abc import Callable, Iterable, Iterator
    from typing import IO, Any

    from .answer import RecordCount
    from .errors import Notice, Rejection

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
    from .nulrun import record_rejection

    refused = record_rejection(path)  # one long line of NULs: E-EMPTY without holding it
    if refused is not None:
        raise refused
    if fast is not None and titles is None and wants_fast(path, readable, True, fast_scale):
        from .fast import count_records_fast

        result = count_records_fast(path, fast())
        # A reboot is a record, so a count above 0 had one; a 0 is checked for one (JSV-3).
        if result is not None and (result.reboots > 0 or _has_record(path)):
            return result
    from .files import open_log
    from .jsonvalues import iter_values

    notices: list[Notice] = []
    found: list[str] = []
    with open_log(path) as stream:
        values = needs_record(iter_values(stream, notices), notices)
        if titles is not None:
            from .titles import watch

            values = watch(values, titles[0], titles[1], found)
        result = reader(values)
    result.notices[:0] = notices
    result.title = found[0] if found else ""
    return result


def needs_record(
    values: Iterator[tuple[int, Any]], notices: list[Notice]
) -> Iterator[tuple[int, Any]]:
    """JSV-3: the values of a log, unchanged, as long as one of them is a record (an object);
    a log with none never gets a count, under a named host (HST-3) too.

    The rejection is the one the log gets when no host is named (HST-2's last row hands it to
    VS Code's rules): `E-EMPTY` when it holds no value at all (blank lines, a torn tail only),
    else by its first value: `E-JSON` at its line when it does not parse, `E-ENTRY` when it is
    not an object. Raised when the values run out, before the host's reader can answer (with a
    count, or with a rejection of its own about a log it never saw a record of).
    """
    from .errors import E_EMPTY, E_ENTRY, Rejection

    first: Rejection | None = None  # what the first value, in the file's order, makes it
    for line, value in values:
        if first is None:
            first = _skipped(notices) or Rejection(line, E_ENTRY, "the line is not a JSON object")
        if isinstance(value, dict):
            yield line, value
            yield from values  # a record was read: the rest as it comes
            return
        yield line, value
    if first is None:
        first = _skipped(notices) or Rejection(0, E_EMPTY, "the log has no entries")
    raise first


def _skipped(notices: list[Notice]) -> Rejection | None:
    """E-JSON at the first line JSV-3 skipped, if any (a torn tail, JSV-2, is no value)."""
    from .errors import E_JSON, Rejection
    from .jsonvalues import W_SKIPPED

    for notice in notices:
        if notice.code == W_SKIPPED:
            why = "not valid JSON, and no later line holds a record (JSV-3)"
            return Rejection(notice.line or 1, E_JSON, why)
    return None


def _has_record(path: str | os.PathLike[str]) -> bool:
    """Whether the log holds a record at all (read up to the first one: the first line of any
    real log), by the readable path's own rules."""
    from .files import open_log
    from .jsonvalues import iter_values

    with open_log(path) as stream:
        return any(isinstance(value, dict) for _, value in iter_values(stream, []))
