"""The Qwen Code reader: a transcript's records -> its reboots (spec/hosts/qwen-code.md, QWN-*).

    records (JSV-1) -> the main thread's records (QWN-7: `isSidechain: true` ones are not;
                       a file of sub-agent records only is E-UNMEASURABLE)
                    -> its `system`/`chat_compression` records with `compressionStatus` 1
                       (QWN-3)
                    -> those whose new history starts with a summary not seen before in the
                       file (QWN-4: a rule-based `/compress-fast` record carries none)
                    -> less the inherited ones (`forkedFrom`, QWN-6, RBT-3)
                    -> the count

Every record of the file is read, never a walk of the `parentUuid` chain (QWN-8): a rewind
re-roots the chain while the summary can stay in the model's context. Only a few fields of each
compression record are kept, so memory is the longest line, not the file.
"""

from __future__ import annotations

from ...core.answer import RecordCount
from ...core.errors import E_UNMEASURABLE, Rejection

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

HOST = "qwen-code"
COMPRESSION = "chat_compression"  # QWN-3: the subtype of the primary record
COMPRESSED = 1  # QWN-3: `CompressionStatus.COMPRESSED`; other statuses are never written
# QWN-4: the model turn every summary-based compression puts right after the summary.
ACKNOWLEDGEMENT = "Got it. Thanks for the additional context!"


def reject_q0() -> Rejection:
    """QWN-9: the whole-file `.json` chat of 0.1.x kept no compressed history; RBT-5, ERR-14."""
    return Rejection(
        0,
        E_UNMEASURABLE,
        "a whole-file .json Qwen Code chat (0.1.x): compressions were never recorded (QWN-9)",
    )


def count_records(records: Iterable[tuple[int, Any]]) -> RecordCount:
    """Count the reboots of one Qwen Code transcript given its `(line, value)` records."""
    count = RecordCount(host=HOST, reboots=0, era="Q1")  # QWN-2: a `.jsonl` is Q1
    seen: set[str] = set()  # QWN-4: the summaries of the file's compression records so far
    main = False  # a record of the main thread seen (QWN-7)
    sidechain = False  # a sub-agent's record seen (QWN-7)
    for line, value in records:
        count.records += 1
        if not isinstance(value, dict):
            continue
        version = value.get("version")
        if count.host_version is None and isinstance(version, str):
            count.host_version = version
        if value.get("isSidechain") is True:  # QWN-7: a sub-agent's record
            sidechain = True
            continue
        main = True
        if value.get("type") != "system" or value.get("subtype") != COMPRESSION:
            continue
        payload = value.get("systemPayload")
        payload = payload if isinstance(payload, dict) else {}
        info = payload.get("info")
        info = info if isinstance(info, dict) else {}
        summary = summary_of(payload.get("compressedHistory"))
        if not is_completed(info.get("compressionStatus")) or summary is None or summary in seen:
            count.companions += 1  # QWN-4, QWN-5: no new summary replaced the history
            continue
        seen.add(summary)
        if value.get("forkedFrom") is not None:  # QWN-6: a fork's copy of its source's record
            count.inherited.append(line)
            continue
        count.events.append(_event(line, info))
    if sidechain and not main:  # QWN-7: a sub-agent transcript
        raise Rejection(
            0,
            E_UNMEASURABLE,
            "a Qwen Code sub-agent transcript (every record isSidechain): a sub-agent's "
            "compressions are recorded in no file (QWN-7)",
        )
    count.reboots = len(count.events)
    return count


def is_completed(status: Any) -> bool:
    """QWN-3: `compressionStatus` is the number 1 (a JSON `true` is no status)."""
    return isinstance(status, int | float) and not isinstance(status, bool) and status == COMPRESSED


def summary_of(history: Any) -> str | None:
    """QWN-4: the summary a compression put at the head of the new history: the text of its
    first content, a `user` one, when the second is the model's acknowledgement; else None."""
    if not isinstance(history, list) or len(history) < 2:
        return None
    first, second = history[0], history[1]
    if not isinstance(first, dict) or not isinstance(second, dict):
        return None
    if first.get("role") != "user" or second.get("role") != "model":
        return None
    parts = second.get("parts")
    if not isinstance(parts, list) or not parts or not isinstance(parts[0], dict):
        return None
    if parts[0].get("text") != ACKNOWLEDGEMENT:
        return None
    texts = first.get("parts")
    if not isinstance(texts, list):
        return None
    text = "".join(
        part["text"]
        for part in texts
        if isinstance(part, dict) and isinstance(part.get("text"), str)
    )
    return text or None


def _event(line: int, info: dict[str, Any]) -> dict[str, Any]:
    """QWN-3 (informative): where the counted record is, its trigger and sizes."""
    event: dict[str, Any] = {"line": line}
    trigger = info.get("triggerReason")
    event["trigger"] = trigger if trigger in ("manual", "token_limit") else "unknown"
    for member in ("originalTokenCount", "newTokenCount"):
        tokens = info.get(member)
        if isinstance(tokens, int) and not isinstance(tokens, bool):
            event[member] = tokens
    return event
