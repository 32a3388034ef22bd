"""Codex's fast path: the readable `codex.Rollout` fed with records reduced to what it reads.

`Rollout.add` (reference/hosts/codex/reader.py, CDX-*) reads of a record its `type`, `timestamp`,
`ordinal` and a few members of its `payload`: the payload's `type`, `turn_id` and `item` (of an
event), the last item of `replacement_history` and three window members (of a `compacted`
record). A `compacted` record's replacement history is nearly all of a big rollout's bytes, and
only its last item's `type` is read (CDX-9). So each line is decoded by msgspec into `_Record`,
and a small dict holding exactly those members (with the values the full record has) goes to
the same `Rollout`, whose every predicate gives on it what it gives on the whole record. The
first record and every `session_meta` (the rollout's header, kept whole as `Rollout.meta`) are
parsed whole by orjson, as the readable path does. The rest of the count is `codex.py`'s own.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

import msgspec
from msgspec import UNSET, Raw, UnsetType

from ...core.answer import RecordCount
from ...core.errors import Notice
from ...core.fast import WHOLE, Fallback, depth_limit_holds, records
from .reader import count_records

_Other = list[Any] | str | int | float | bool | None  # every JSON type but an object


class _Typed(msgspec.Struct):
    """An item of a replacement history or an event's `item`: what CDX-4 and CDX-9 read."""

    type: Any = None
    kind: Any = None


class _Payload(msgspec.Struct, gc=False):
    type: Any = None
    turn_id: Any = None
    item: Raw | UnsetType = UNSET  # decoded only for `item_completed` (CDX-4)
    # CDX-9: only the last item is read; a value of another type only as "not a list"
    replacement_history: list[Raw] | dict[str, Any] | str | int | float | bool | None = None
    window_number: Raw | UnsetType = UNSET  # CDX-2: their presence marks era C5
    window_id: Raw | UnsetType = UNSET
    first_window_id: Raw | UnsetType = UNSET


class _Record(msgspec.Struct, gc=False):
    type: Any = None
    timestamp: Any = None
    ordinal: Any = None
    payload: _Payload | None = None


_RECORD = msgspec.json.Decoder(_Record)
_TYPED = msgspec.json.Decoder(_Typed | _Other)
_WINDOW = ("window_number", "window_id", "first_window_id")


def _typed(raw: Raw) -> Any:
    """An item as far as `Rollout` reads it: its `type` and `kind` if an object, else itself."""
    item = _TYPED.decode(raw)
    if isinstance(item, _Typed):
        return {"type": item.type, "kind": item.kind}
    return item


def _reduced(record: _Record) -> Any:
    """The members of a record that `Rollout.add` reads, with the record's own values; a
    `session_meta` whole (CDX-5 keeps the header)."""
    if record.type == "session_meta":
        return WHOLE
    value: dict[str, Any] = {
        "type": record.type,
        "timestamp": record.timestamp,
        "ordinal": record.ordinal,
    }
    payload = record.payload
    if payload is None:
        return value
    reduced: dict[str, Any] = {"type": payload.type, "turn_id": payload.turn_id}
    if payload.item is not UNSET:
        reduced["item"] = _typed(payload.item) if payload.type == "item_completed" else 0
    history = payload.replacement_history
    if isinstance(history, list):
        reduced["replacement_history"] = [_typed(history[-1])] if history else []
    elif history is not None:
        reduced["replacement_history"] = 0  # neither a list nor null: only "not a list" is read
    for key in _WINDOW:
        if getattr(payload, key) is not UNSET:
            reduced[key] = None
    value["payload"] = reduced
    return value


def count_stream(stream: IO[bytes], notices: list[Notice]) -> RecordCount:
    """codex.count_records on the stream's records; raises Fallback (or any error) on doubt."""
    if not depth_limit_holds(_RECORD.decode):
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
