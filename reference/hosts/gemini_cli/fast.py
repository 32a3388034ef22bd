"""Gemini CLI's fast path: `reader.count_records` over records decoded only as far as it reads.

The reader (reader.py, GEM-*) reads of a record its `$set.messages` (of each history message
its `type`, `id`, and for a user message its `content`), and otherwise its `type`, `id` and,
for an `info`, `error` or `user` record only, its `content` (GEM-5). A model message's content
and tool output, nearly all of a chat's bytes, it never reads. So msgspec decodes each line
into `_Record`, keeping a content as `Raw` (checked, not built) and decoding it only where the
reader looks at it. The loop below is `count_records` step for step on those members; the
tests (tests/reference/test_fastpath_hosts.py) hold the two to the same output on every input.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

import msgspec
from msgspec import UNSET, Raw, UnsetType

from ...core.answer import RecordCount
from ...core.errors import E_UNMEASURABLE, Notice, Rejection
from ...core.fast import Fallback, depth_limit_holds, records
from .reader import CONTEXT, HOST, SNAPSHOT, W_INDIRECT, _text, snapshot_key

_Other = list[Any] | str | int | float | bool | None  # every JSON type but an object
_NotArray = dict[str, Any] | str | int | float | bool | None  # every JSON type but an array


class _Message(msgspec.Struct, gc=False):
    """A message of a `$set` history, as `snapshot_key` reads it (GEM-3, GEM-4)."""

    type: Any = None
    id: Any = None
    content: Raw | UnsetType = UNSET  # decoded only for a user message


class _Update(msgspec.Struct, gc=False):
    messages: list[_Message | _Other] | _NotArray | UnsetType = UNSET


class _Record(msgspec.Struct, gc=False):
    type: Any = None
    id: Any = None
    content: Raw | UnsetType = UNSET  # decoded only for info, error and user records (GEM-5)
    update: _Update | _Other | UnsetType = msgspec.field(default=UNSET, name="$set")


_RECORD = msgspec.json.Decoder(_Record)


def _content(raw: Raw | UnsetType) -> Any:
    return None if raw is UNSET else msgspec.json.decode(raw)


def _key(messages: list[Any]) -> tuple[str, str] | None:
    """reader.snapshot_key on messages decoded as `_Message` (an object is never a dict)."""
    for message in messages:
        if not isinstance(message, _Message) or message.type != "user":
            continue
        text = _text(_content(message.content))
        if text.lstrip().startswith(CONTEXT):
            continue
        if SNAPSHOT not in text:
            return None
        ident = message.id
        return ("id", ident) if isinstance(ident, str) else ("text", text)
    return None


def _companion(kind: Any, ident: Any, content: Any) -> bool:
    """reader._is_companion on a record's members (GEM-5)."""
    if kind in ("info", "error") and isinstance(ident, str):
        text = _text(content)
        return "compress" in text.lower() or (kind == "info" and not text.strip())
    return kind == "user" and SNAPSHOT in _text(content)


def count_stream(stream: IO[bytes], notices: list[Notice]) -> RecordCount:
    """reader.count_records on the stream's records; raises Fallback (or any error) on doubt."""
    if not depth_limit_holds(_RECORD.decode):
        raise Fallback("msgspec would accept nesting that orjson refuses")
    count = RecordCount(host=HOST, reboots=0)
    seen: set[tuple[str, str]] = set()
    synced = False
    for line, value in _nonempty(records(stream, [_RECORD], notices)):
        count.records += 1
        if isinstance(value, _Record):
            update = value.update
            messages = update.messages if isinstance(update, _Update) else UNSET
            if not isinstance(update, _Update):
                kind = value.type
                if kind in ("info", "error", "user") and _companion(
                    kind, value.id, _content(value.content)
                ):
                    count.companions += 1
                continue
        elif isinstance(value, dict):  # a record read whole (the first, or an odd line)
            whole = value.get("$set")
            if not isinstance(whole, dict):
                if _companion(value.get("type"), value.get("id"), value.get("content")):
                    count.companions += 1
                continue
            messages = whole.get("messages")
        else:
            continue
        if not isinstance(messages, list):
            continue
        synced = True
        key = _key(messages) if isinstance(value, _Record) else snapshot_key(messages)
        if key is None or key in seen:
            continue
        seen.add(key)
        count.events.append({"line": line, "snapshot": key[1][:64]})
    if not synced:
        raise Rejection(
            0,
            E_UNMEASURABLE,
            "a Gemini CLI chat that never recorded its history ($set.messages): written by "
            "0.39-0.43, whose compressions reach no file (GEM-7)",
        )
    count.era = "G1"
    count.reboots = len(count.events)
    count.notices.append(
        Notice(
            W_INDIRECT,
            "counted from history replacements ($set.messages) holding a new <state_snapshot>; "
            "Gemini CLI writes no record of its own for a compression (GEM-6)",
        )
    )
    return count


def _nonempty(values: Iterator[tuple[int, Any]]) -> Iterator[tuple[int, Any]]:
    empty = True
    for pair in values:
        empty = False
        yield pair
    if empty:
        raise Fallback("no record")  # the readable path says what an empty file is
