"""The Gemini CLI reader: a chat file's records -> its reboots (spec/hosts/gemini-cli.md, GEM-*).

    records (JSV-1) -> the metadata record, message records, `$set` and `$rewindTo` (GEM-1)
                    -> was the history ever synchronised to the file? no: era G0 (GEM-2, GEM-7)
                    -> every `$set.messages` whose compressed history holds a snapshot message
                       this file has not shown before (GEM-3, GEM-4)

Gemini CLI writes no record of its own for a compression: the new history reaches the file as
a `$set` that replaces the message list, and that history's first user message after the
session context is the `<state_snapshot>`. The count is read from those replacements, so every
answer of a measurable file carries `W-INDIRECT` (GEM-6). A whole-file `.json` chat (Gemini CLI
0.38 and earlier) never holds a compression: `reject_document` rejects it (GEM-7).
"""

from __future__ import annotations

from ...core.answer import RecordCount
from ...core.errors import E_UNMEASURABLE, Notice, Rejection

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

HOST = "gemini-cli"
SNAPSHOT = "<state_snapshot>"  # GEM-3: the element the compression prompt asks for
CONTEXT = "<session_context>"  # GEM-3: the environment message that opens every history
W_INDIRECT = "W-INDIRECT"  # GEM-6: the count is inferred from history replacements


def reject_document() -> Rejection:
    """GEM-7: the `.json` era (J0) kept no compressed history; RBT-5, ERR-14."""
    return Rejection(
        0,
        E_UNMEASURABLE,
        "a whole-file .json Gemini CLI chat (0.38 or earlier): compressions were never "
        "recorded (GEM-7)",
    )


def count_records(records: Iterable[tuple[int, Any]]) -> RecordCount:
    """Count the reboots of one `.jsonl` chat given its `(line, value)` records."""
    count = RecordCount(host=HOST, reboots=0)
    seen: set[tuple[str, str]] = set()  # GEM-4: snapshot keys shown so far
    synced = False  # GEM-2: a `$set.messages` seen (the history is written to the file)
    for line, value in records:
        count.records += 1
        if not isinstance(value, dict):
            continue
        update = value.get("$set")
        if isinstance(update, dict):
            messages = update.get("messages")
            if not isinstance(messages, list):
                continue
            synced = True
            key = snapshot_key(messages)
            if key is None or key in seen:
                continue  # GEM-4: no snapshot (masking, start, rollback) or one shown before
            seen.add(key)
            count.events.append({"line": line, "snapshot": key[1][:64]})
        elif _is_companion(value):
            count.companions += 1  # GEM-5
    if not synced:  # GEM-2, GEM-7: G0, the history never reached the file
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


def snapshot_key(messages: list[Any]) -> tuple[str, str] | None:
    """GEM-3, GEM-4: the snapshot of a history: its first user message after the session
    context, when that message holds `<state_snapshot>`; keyed by its `id` (the text when it
    has none)."""
    for message in messages:
        if not isinstance(message, dict) or message.get("type") != "user":
            continue
        text = _text(message.get("content"))
        if text.lstrip().startswith(CONTEXT):
            continue
        if SNAPSHOT not in text:
            return None
        ident = message.get("id")
        return ("id", ident) if isinstance(ident, str) else ("text", text)
    return None


def _is_companion(value: dict[str, Any]) -> bool:
    """GEM-5: records about a compression that never count: an `info` or `error` message
    (the interactive UI's notes), a message record that holds a snapshot."""
    kind = value.get("type")
    text = _text(value.get("content"))
    if kind in ("info", "error") and isinstance(value.get("id"), str):
        return "compress" in text.lower() or (kind == "info" and not text.strip())
    return kind == "user" and SNAPSHOT in text


def _text(content: Any) -> str:
    """The text of a message's content: a string, or the `text` of its parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part["text"]
            for part in content
            if isinstance(part, dict) and isinstance(part.get("text"), str)
        )
    return ""
