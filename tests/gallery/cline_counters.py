"""The gallery's Cline-family counters: the reference's reading with one rule bent.

Each takes a path and answers like the reference on every input that is not the family's, so on
the other hosts' cases it is the reference; on a task folder (or an SDK session folder) it makes
exactly the mistake its SPEC.md §10 row names (CLN-4, CLN-6, CLN-7, CLN-10, CLN-12).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from rebootspec.reference import count_path
from rebootspec.reference.hosts.cline import marks
from rebootspec.reference.hosts.cline.reader import (
    CONDENSE_RESULT,
    _history,
    _is_summary_row,
    _result_texts,
)

Counter = Callable[[str], int]
FAMILY = ("cline", "roo-code", "kilo-code")


def _reference(path: str) -> int:
    """The reference, with the session a store's case names (PRO-1)."""
    return count_path(path, readable=True, session=getattr(path, "session", None)).reboots


def _task_folders(mistake: Callable[[marks.Input], int]) -> Counter:
    """The reference on every input but a task folder of the family, which `mistake` reads."""

    def counter(path: str) -> int:
        found = marks.inspect(str(path), os.path.isdir(path))
        if found is None or found.kind != "task":
            return _reference(path)
        return mistake(found)

    return counter


def _summary_requests(found: marks.Input) -> int:
    """CLN-4, CLN-6, CLN-11 bent: every summary request the model answered is a reboot — the
    ui's summarizeTask rows, every `/smol` condense ask (accepted or not), Roo's rows."""
    return sum(
        1
        for m in found.document
        if isinstance(m, dict)
        and m.get("partial") is not True
        and (
            _is_summary_row(m)
            or m.get("ask") == "condense"
            or (m.get("say") == "condense_context" and isinstance(m.get("contextCondense"), dict))
        )
    )


def _deleted_range_changes(found: marks.Input) -> int:
    """CLN-7 bent: every change of the `conversationHistoryDeletedRange` the ui rows carry is a
    compaction (Cline's legacy truncation, and the two moves of every auto-compact)."""
    changes = 0
    last: Any = None
    for message in found.document:
        if isinstance(message, dict) and "conversationHistoryDeletedRange" in message:
            current = message["conversationHistoryDeletedRange"]
            changes += current != last
            last = current
    if found.member != "cline":
        return _reference(found.folder)
    return changes


def _is_summary_messages(found: marks.Input) -> int:
    """CLN-10 bent: the api history's `isSummary` messages are the count (in Roo 3.28.1 to
    3.35 only the latest survives a condense)."""
    if found.member == "cline":
        return _reference(found.folder)
    return sum(1 for m in _history(found) if isinstance(m, dict) and m.get("isSummary") is True)


def _every_condense_result(found: marks.Input) -> int:
    """CLN-6 bent: a `/smol` counts when its summary was made, accepted or answered with
    feedback: every `[condense] Result:` of Cline's core."""
    if found.member != "cline":
        return _reference(found.folder)
    base = _reference(found.folder)
    rejected = 0
    for message in _history(found):
        if isinstance(message, dict) and message.get("role") == "user":
            rejected += sum(
                1
                for text in _result_texts(message.get("content"))
                if text.startswith(CONDENSE_RESULT) and "has accepted" not in text
            )
    return base + rejected


def _sdk_lower_bound(path: str) -> int:
    """CLN-12 bent: an SDK session with a compaction file counted as one compaction."""
    found = marks.inspect(str(path), os.path.isdir(path))
    if found is None or found.kind != "sdk":
        return _reference(path)
    name = os.path.basename(found.main)[: -len(marks.SDK_SUFFIX)]
    return int(os.path.exists(os.path.join(found.folder, name + marks.COMPACTION_SUFFIX)))


CLINE_GALLERY: dict[str, Counter] = {
    "cline-counts-summary-requests": _task_folders(_summary_requests),
    "cline-counts-deleted-range-changes": _task_folders(_deleted_range_changes),
    "roo-counts-is-summary-messages": _task_folders(_is_summary_messages),
    "cline-counts-smol-feedback": _task_folders(_every_condense_result),
    "cline-sdk-lower-bound": _sdk_lower_bound,
}
