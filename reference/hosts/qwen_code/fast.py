"""Qwen Code's fast path: the readable `count_records` fed with records reduced to what it reads.

`count_records` (reader.py, QWN-*) reads of every record its `version`, `isSidechain`, `type`
and `subtype`; of a compression record (`system`, `chat_compression`) also its `forkedFrom`, its
`systemPayload.info` and the first two items of `systemPayload.compressedHistory` (the summary
and the model's acknowledgement, QWN-4; a history shorter than two has no summary). The rest of
the history, nearly all of a long transcript's bytes, it never reads. So each line is decoded by
msgspec into `_Record`, the compressed history as a list of `Raw` items of which only the first
two are decoded, and a dict holding exactly the members the record has (with their values) goes
to the same `count_records`. Lines msgspec cannot decode are read by `iter_values`' own rules
(core/fast.py); a record it decodes but whose read members it cannot (a number or text msgspec
refuses) makes the whole file go to the readable path. The tests
(tests/reference/test_fastpath_hosts.py) hold the two paths to the same output on every input.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

import msgspec
from msgspec import UNSET, Raw, UnsetType

from ...core.answer import RecordCount
from ...core.errors import Notice
from ...core.fast import Fallback, depth_limit_holds, records
from .reader import COMPRESSION, count_records

_Other = list[Any] | str | int | float | bool | None  # every JSON type but an object


class _Payload(msgspec.Struct, gc=False):
    """A compression's `systemPayload` as QWN-3 and QWN-4 read it."""

    info: Any = UNSET
    # QWN-4: only the first two items are read; a value of another type only as "not a list"
    compressedHistory: list[Raw] | dict[str, Any] | str | int | float | bool | UnsetType | None = (
        UNSET
    )


class _Record(msgspec.Struct, gc=False):
    """The members `count_records` reads (QWN-3..QWN-7)."""

    version: Any = UNSET
    isSidechain: Any = UNSET
    type: Any = UNSET
    subtype: Any = UNSET
    forkedFrom: Any = UNSET
    systemPayload: Raw | UnsetType = UNSET  # decoded only for a compression record


_RECORD = msgspec.json.Decoder(_Record)
_PAYLOAD = msgspec.json.Decoder(_Payload | _Other)
_ITEM = msgspec.json.Decoder()
_READ = ("version", "isSidechain", "type", "subtype", "forkedFrom")


def _reduced(record: _Record) -> dict[str, Any]:
    """The members of a record `count_records` reads, with the record's own values."""
    value = {key: got for key in _READ if (got := getattr(record, key)) is not UNSET}
    if record.systemPayload is UNSET:
        return value
    if record.type != "system" or record.subtype != COMPRESSION:
        return value  # read only on a compression record
    payload = _PAYLOAD.decode(record.systemPayload)
    if not isinstance(payload, _Payload):
        value["systemPayload"] = payload  # not an object: read as none (QWN-3)
        return value
    reduced: dict[str, Any] = {}
    if payload.info is not UNSET:
        reduced["info"] = _checked(payload.info)
    history = payload.compressedHistory
    if isinstance(history, list):
        reduced["compressedHistory"] = [_ITEM.decode(item) for item in history[:2]]
    elif history is not UNSET:
        reduced["compressedHistory"] = history
    value["systemPayload"] = reduced
    return value


def _checked(info: Any) -> Any:
    """QWN-3's sizes are read when they are integers: msgspec keeps an integer past 64 bits
    that orjson makes a double, so such a size is left to the readable path."""
    if isinstance(info, dict):
        for member in ("originalTokenCount", "newTokenCount"):
            tokens = info.get(member)
            if isinstance(tokens, int) and not -(2**63) <= tokens <= 2**64 - 1:
                raise Fallback("an integer orjson reads as a double")
    return info


def count_stream(stream: IO[bytes], notices: list[Notice]) -> RecordCount:
    """reader.count_records on the stream's records; raises Fallback (or any error) on doubt."""
    if not (depth_limit_holds(_RECORD.decode) and depth_limit_holds(_PAYLOAD.decode)):
        raise Fallback("msgspec would accept nesting that orjson refuses")
    values = records(stream, [_RECORD], notices, reduce=_reduced)
    return count_records(_nonempty(values))


def _nonempty(values: Iterator[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    empty = True
    for pair in values:
        empty = False
        yield pair
    if empty:
        raise Fallback("no record")  # the readable path says what an empty file is
