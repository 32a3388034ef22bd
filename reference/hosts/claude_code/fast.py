"""Claude Code's fast path: the readable `Transcript` fed with records reduced to what it reads.

`Transcript.add` (reader.py, CLC-*) reads of a record its `type`, `subtype`, `isSidechain`,
`version`, `agentId`, `isCompactSummary`, whether `slug` or `logicalParentUuid` is there at
all (CLC-2), and of a primary record its `uuid`, `forkedFrom` and `compactMetadata`. A
message's content, usage and tool output (nearly all of a transcript's bytes) it never reads.
So each line is decoded by msgspec into `_Record`, whose members are typed `Any` (their exact
JSON value) and absent when the line has none; `msgspec.to_builtins` turns it into a dict of
exactly the members present, which `Transcript.add` reads as it reads the whole record (same
`get`, same `in`). Lines msgspec cannot decode are read by `iter_values`' own rules
(core/fast.py). The tests (tests/reference/test_fastpath_hosts.py) hold the two paths to the
same output on every input.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

import msgspec
from msgspec import UNSET

from ...core.answer import RecordCount
from ...core.errors import Notice
from ...core.fast import Fallback, depth_limit_holds, records
from .reader import count_records


class _Record(msgspec.Struct, gc=False):
    """The members `Transcript.add` and `_mark` read (CLC-2..CLC-7, CLC-10)."""

    type: Any = UNSET
    subtype: Any = UNSET
    isSidechain: Any = UNSET
    version: Any = UNSET
    agentId: Any = UNSET
    isCompactSummary: Any = UNSET
    slug: Any = UNSET  # CLC-2: only its presence is read
    logicalParentUuid: Any = UNSET  # CLC-2: only its presence is read
    uuid: Any = UNSET
    forkedFrom: Any = UNSET
    compactMetadata: Any = UNSET


_RECORD = msgspec.json.Decoder(_Record)


def count_stream(stream: IO[bytes], notices: list[Notice]) -> RecordCount:
    """reader.count_records on the stream's records; raises Fallback (or any error) on doubt."""
    if not depth_limit_holds(_RECORD.decode):
        raise Fallback("msgspec would accept nesting that orjson refuses")
    values = records(stream, [_RECORD], notices, reduce=msgspec.to_builtins)
    return count_records(_nonempty(values))


def _nonempty(values: Iterator[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    empty = True
    for pair in values:
        empty = False
        yield pair
    if empty:
        raise Fallback("no record")  # the readable path says what an empty file is
