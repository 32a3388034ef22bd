"""pi's fast path: `pi.count_records` over entries of which only four members are decoded.

The reader (reference/hosts/pi.py, PIA-*) reads of an entry only its `type`, `id`, `parentId`
and, while the copied prefix lasts (PIA-5), its `timestamp`; of the header (the first record)
it reads several members, so the header is parsed whole by orjson, as the readable path does.
Every other member (a message's content, usage, tool output: nearly all the bytes) is skipped
by msgspec. The loop below is `pi.count_records` step for step on those members; the tests
(tests/reference/test_fastpath_hosts.py) hold the two to the same output on every input.
"""

from __future__ import annotations

from itertools import chain
from typing import IO, Any

import msgspec

from ..answer import RecordCount
from ..errors import Notice
from .fast import Fallback, depth_limit_holds, record_blocks
from .pi import COMPANIONS, HOST, _current_path, _instant


class _Entry(msgspec.Struct, gc=False):
    """An entry as pi.count_records reads it (`value.get(...)`: absent and null alike).

    gc=False: the values are strings, numbers or decoded JSON (no cycles), and an entry lives
    for one step of the loop; tracking millions of them would cost time for nothing.
    """

    type: Any = None
    id: Any = None
    parentId: Any = None  # pi's member name


class _Stamped(_Entry, gc=False):
    timestamp: Any = None  # PIA-5: read only while the copied prefix may last


_ENTRY = msgspec.json.Decoder(_Entry)
_STAMPED = msgspec.json.Decoder(_Stamped)


def _adopt(value: Any) -> _Stamped | None:
    """A whole entry (from a line msgspec could not decode) as the loop reads it."""
    if not isinstance(value, dict):
        return None  # counted as a record, otherwise skipped
    get = value.get
    return _Stamped(get("type"), get("id"), get("parentId"), get("timestamp"))


def count_stream(stream: IO[bytes], notices: list[Notice]) -> RecordCount:
    """pi.count_records on the stream's records; raises Fallback (or any error) on doubt."""
    if not (depth_limit_holds(_ENTRY.decode) and depth_limit_holds(_STAMPED.decode)):
        raise Fallback("msgspec would accept nesting that orjson refuses")
    # Time stamps are decoded until the header says they are not read.
    decoder: list[msgspec.json.Decoder[Any]] = [_STAMPED]
    found = record_blocks(stream, decoder, notices, adopt=_adopt)
    for first in found:
        if first[1]:
            break
    else:
        raise Fallback("no record")  # the readable path says what an empty file is
    header = first[1][0]  # PIA-1: the first record, whole
    first[1][0] = None  # a record, and no entry
    count = RecordCount(host=HOST, reboots=0)
    if not isinstance(header, dict):
        header = {}
    start = _instant(header.get("timestamp"))
    copied = bool(header.get("parentSession") or header.get("branchedFrom"))
    copied = copied and start is not None
    if not copied:
        decoder[0] = _ENTRY
    ids: list[str] = []  # PIA-6: every entry's id and parentId, in order (dict(zip) at the end)
    parents: list[Any] = []
    add_id, add_parent = ids.append, parents.append
    last_id: str | None = None
    own: list[tuple[int, Any]] = []
    companions = COMPANIONS
    records_read = 0
    for numbers, entries in chain((first,), found):
        records_read += len(entries)
        for line, entry in zip(numbers, entries):  # noqa: B905 (as long: one number per entry)
            if entry is None:  # the header, or a record that is not an object
                continue
            if copied:  # PIA-5
                stamp = _instant(entry.timestamp)  # a _Stamped: decoded while `copied`
                copied = stamp is not None and start is not None and stamp < start
                if not copied:
                    decoder[0] = _ENTRY
            entry_id = entry.id
            if isinstance(entry_id, str):
                parent = entry.parentId
                if parent == last_id:
                    parent = last_id  # the same string, kept once (memory, not meaning)
                add_id(entry_id)
                add_parent(parent)
                last_id = entry_id
            kind = entry.type
            if kind == "compaction":  # PIA-3
                if copied:
                    count.inherited.append(line)
                else:
                    own.append((line, entry_id))
            elif kind in companions:
                count.companions += 1
    count.records = records_read
    version = header.get("version")
    tree = isinstance(version, int) and not isinstance(version, bool) and version >= 2
    count.era = f"v{version}" if tree else "v1"
    count.reboots = len(own)
    path = _current_path(dict(zip(ids, parents, strict=True)), last_id) if tree else None
    count.on_path = len(own) if path is None else sum(1 for _, i in own if i in path)
    count.events = [{"line": line, "on_path": path is None or i in path} for line, i in own]
    return count
