"""pi's fast path: `pi.count_records` over entries of which only four members are decoded.

The reader (reference/hosts/pi/reader.py, PIA-*) reads of an entry only its `type`, `id`, `parentId`
and, while the copied prefix lasts (PIA-5), its `timestamp`; of the header (the first record)
it reads several members, so the header is parsed whole by orjson, as the readable path does.
Every other member (a message's content, usage, tool output: nearly all the bytes) is skipped
by msgspec. The loop below is `pi.count_records` step for step on those members; the tests
(tests/reference/test_fastpath_hosts.py) hold the two to the same output on every input.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import chain
from operator import attrgetter, ne
from typing import IO, Any

import msgspec

from ...core.answer import RecordCount
from ...core.errors import Notice
from ...core.fast import Fallback, depth_limit_holds, record_blocks
from ...core.instants import before, instant
from .reader import COMPANIONS, HOST, _current_path


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
    copied = bool(header.get("parentSession") or header.get("branchedFrom"))
    start = instant(header.get("timestamp")) if copied else None  # PIA-5 only
    copied = copied and start is not None
    if not copied:
        decoder[0] = _ENTRY
    # PIA-6: every entry's id in order, and its parentId where that is not the id before it
    # (in pi's files nearly every entry's parent is the entry before it).
    ids: list[str] = []
    breaks: dict[int, Any] = {}
    add_id = ids.append
    last_id: str | None = None
    own: list[tuple[int, Any]] = []
    companions = COMPANIONS
    records_read = 0
    for numbers, entries in chain((first,), found):
        records_read += len(entries)
        if not copied and isinstance(numbers, range) and entries is not first[1]:
            block_ids = list(map(_ID, entries))
            if entries and set(map(type, block_ids)) == {str}:  # the block, a column at a time
                base = len(ids)
                flags = list(map(ne, map(_PARENT, entries), [last_id, *block_ids[:-1]]))
                for k in _where(flags, True):
                    breaks[base + k] = entries[k].parentId
                ids += block_ids
                last_id = block_ids[-1]
                kinds = [k if type(k) is str else None for k in map(_TYPE, entries)]
                own += [(numbers[k], block_ids[k]) for k in _where(kinds, "compaction")]
                count.companions += sum(map(companions.__contains__, kinds))  # PIA-4
                continue
        for line, entry in zip(numbers, entries):  # noqa: B905 (as long: one number per entry)
            if entry is None:  # the header, or a record that is not an object
                continue
            if copied:  # PIA-5
                stamp = instant(entry.timestamp)  # a _Stamped: decoded while `copied`
                copied = stamp is not None and start is not None and before(stamp, start)
                if not copied:
                    decoder[0] = _ENTRY
            entry_id = entry.id
            if isinstance(entry_id, str):
                parent = entry.parentId
                if parent != last_id:
                    breaks[len(ids)] = parent
                add_id(entry_id)
                last_id = entry_id
            kind = entry.type if isinstance(entry.type, str) else None  # PIA-1: names only
            if kind == "compaction":  # PIA-3
                if copied:
                    count.inherited.append(line)
                else:  # an id that is no string is no node of the tree (PIA-6)
                    own.append((line, entry_id if isinstance(entry_id, str) else None))
            elif kind in companions:
                count.companions += 1
    count.records = records_read
    version = header.get("version")
    tree = isinstance(version, int) and not isinstance(version, bool) and version >= 2
    count.era = f"v{version}" if tree else "v1"
    count.reboots = len(own)
    on = _on_path(ids, breaks, last_id, [i for _, i in own]) if tree else None
    count.on_path = len(own) if on is None else sum(on)
    count.events = [
        {"line": line, "on_path": on is None or on[k]} for k, (line, _) in enumerate(own)
    ]
    return count


_ID, _PARENT, _TYPE = attrgetter("id"), attrgetter("parentId"), attrgetter("type")


def _where(values: list[Any], wanted: object) -> list[int]:
    """The positions of `values` equal to `wanted` (as `value == wanted` says), found by
    list.index in C: the loop above reads a block a column at a time, not an entry at a time."""
    found: list[int] = []
    at = 0
    try:
        while True:
            at = values.index(wanted, at)
            found.append(at)
            at += 1
    except ValueError:
        return found


_MANY_BREAKS = 1024  # beyond this many branch points the plain walk is as quick


def _on_path(
    ids: list[str], breaks: dict[int, Any], leaf: str | None, wanted: list[Any]
) -> list[bool]:
    """For each of `wanted` (compaction ids), whether it is on the current path (PIA-6): what
    `i in pi._current_path(parents, leaf)` gives, where `parents` maps each id to the parentId
    of its last entry, which is `breaks[p]` at position p, else the id before it (None at 0).

    The walk goes down the list in runs: from a position to the nearest branch point below it
    every entry is the parent of the one after it. So the path is a few runs of positions, not
    a set of every id on it (pi's current path is most of the session). An id that appears
    again later (pi's ids are 8 hex digits: a long session repeats some) is a branch point too:
    its parent is read from its last entry, so the walk jumps there.
    """
    index = dict(zip(ids, range(len(ids)), strict=True))  # id -> its last position
    jumps: dict[int, Any] = {}  # position -> the parent id, where the walk leaves the list
    if len(index) != len(ids):  # earlier entries of repeated ids (found in C, not per entry)
        lasts = map(index.__getitem__, ids)
        for p in _where(list(map(ne, lasts, range(len(ids)))), True):
            jumps[p + 1] = ids[p]
    jumps.update(breaks)  # a stored parentId is the parent (p + 1 may be both)
    if len(jumps) > _MANY_BREAKS:  # the plain walk of pi.py
        parents = {
            entry_id: breaks[p] if p in breaks else (ids[p - 1] if p else None)
            for p, entry_id in enumerate(ids)
        }
        path = _current_path(parents, leaf)
        return [i in path for i in wanted]
    points = sorted(jumps)
    runs: list[tuple[int, int]] = []  # (low, high) positions on the path, inclusive
    outside: set[str] = set()  # ids on the path that no entry has (a parentId naming none)
    node: Any = leaf
    while isinstance(node, str):
        high = index.get(node)
        if high is None:
            outside.add(node)  # on the path; its parent is None: the walk ends
            break
        if any(low <= high <= top for low, top in runs):
            break  # a cycle: the walk ends where it meets itself
        at = bisect_right(points, high)
        low = points[at - 1] if at else 0
        met = [top for _, top in runs if low <= top < high]
        if met:  # walking down, it meets the path it already took
            runs.append((max(met) + 1, high))
            break
        runs.append((low, high))
        node = jumps.get(low)  # no branch point: position 0, whose parent is None
    runs.sort()
    starts = [low for low, _ in runs]
    result = []
    for i in wanted:
        if not isinstance(i, str):
            result.append(False)
            continue
        if i in outside:
            result.append(True)
            continue
        position = index.get(i)
        at = bisect_right(starts, position) if position is not None else 0
        result.append(bool(at) and position is not None and position <= runs[at - 1][1])
    return result
