"""A small, independent reading of spec 2.0 over a final state, for the generator's own tests.

It is not the reference: it exists so the generator's writer can be checked against its plan
(`plan.expected_reboots`, `plan.expected_phantoms`) while the reference is being rewritten, and
so the two can be compared afterwards. It follows /tmp/spec2-brief.md: the walk (CNT-1, CNT-5,
CNT-6), the events (SUM-1, SUM-6, SUM-7, SUM-2, SUM-8), the count (CNT-2) and the informative
phantom reasons (OUT-3).
"""

from __future__ import annotations

import json
import re
import tomllib
from typing import Any

from rebootspec.generators.hosts.vscode.eras import ERAS_FILE
from rebootspec.reference.hosts.vscode.replay import replay_bytes

with ERAS_FILE.open("rb") as _handle:
    _TABLE = tomllib.load(_handle)
COMPLETED = {t for row in _TABLE["eras"] for t in row["completed"]} | {
    row["text"] for row in _TABLE.get("translations", []) if row["state"] == "completed"
}
IN_PROGRESS = {t for row in _TABLE["eras"] for t in row["in_progress"]}
KINDS = set(_TABLE["marker_part_kinds"])
MANUAL_DONE = set(_TABLE["manual"]["completed_markdown"])
_PERCENT = re.compile(r"^(.*\.\.\.)\s*\(?\d+%\)?$")


def final_state(data: bytes, container: str) -> dict[str, Any]:
    if container == "jsonl":
        return replay_bytes(data).state  # type: ignore[no-any-return]
    return json.loads(data)  # type: ignore[no-any-return]


def _truthy(value: Any) -> bool:
    if isinstance(value, float) and value != value:
        return False
    return value not in (None, False, 0, "") and not (isinstance(value, float) and value == 0)


def skipped(request: dict[str, Any]) -> bool:
    """CNT-5/CNT-6: whole-request removal flags."""
    if _truthy(request.get("isHidden")):
        return True
    flag = request.get("shouldBeRemovedOnSend")
    if not _truthy(flag):
        return False
    return not (isinstance(flag, dict) and _truthy(flag.get("afterUndoStop")))


def events(request: dict[str, Any]) -> list[tuple[str, str]]:
    result = request.get("result")
    metadata = result.get("metadata") if isinstance(result, dict) else None
    if not isinstance(metadata, dict):
        return []
    keys: list[tuple[str, str]] = []
    entries = metadata.get("summaries")
    if isinstance(entries, list):
        for entry in entries:
            if isinstance(entry, dict) and isinstance(entry.get("text"), str) and entry["text"]:
                keys.append(("text", entry["text"]))
    rounds = metadata.get("toolCallRounds")
    if isinstance(rounds, list):
        for item in rounds:
            if not isinstance(item, dict):
                continue
            if isinstance(item.get("summary"), str) and item["summary"]:
                keys.append(("text", item["summary"]))
            compaction = item.get("compaction")
            if isinstance(compaction, dict):
                ident = compaction.get("id")
                if isinstance(ident, str) and ident:
                    keys.append(("provider", ident))
    summary = metadata.get("summary")
    if isinstance(summary, dict) and isinstance(summary.get("text"), str) and summary["text"]:
        keys.append(("text", summary["text"]))
    return list(dict.fromkeys(keys))


def count(state: dict[str, Any]) -> int:
    reboots = 0
    previous: tuple[str, str] | None = None
    for request in state.get("requests", []):
        if not isinstance(request, dict) or skipped(request):
            continue
        for key in events(request):
            if key != previous:
                reboots += 1
            previous = key
    return reboots


def _markers(request: dict[str, Any]) -> tuple[bool, bool]:
    """(completed marker or completed /compact, in-progress marker)."""
    completed = in_progress = False
    for part in request.get("response") or []:
        if not isinstance(part, dict):
            continue
        content = part.get("content")
        value = content.get("value") if isinstance(content, dict) else None
        if part.get("kind") in KINDS and isinstance(value, str):
            if value in COMPLETED:
                completed = True
            elif value in IN_PROGRESS or (
                (m := _PERCENT.match(value)) and m.group(1) in IN_PROGRESS
            ):
                in_progress = True
        if "kind" not in part and part.get("value") in MANUAL_DONE:
            completed = True
    return completed, in_progress


def phantoms(state: dict[str, Any]) -> list[tuple[int, str]]:
    out = []
    for index, request in enumerate(state.get("requests", [])):
        if not isinstance(request, dict) or skipped(request) or events(request):
            continue
        completed, in_progress = _markers(request)
        if not (completed or in_progress):
            continue
        result = request.get("result") if isinstance(request.get("result"), dict) else {}
        metadata = result.get("metadata") if isinstance(result.get("metadata"), dict) else {}
        state_value = (request.get("modelState") or {}).get("value")
        cancelled = state_value == 2 or (state_value is None and request.get("isCanceled") is True)
        if completed:
            entries = (
                metadata.get("summaries") if isinstance(metadata.get("summaries"), list) else []
            )
            rounds = metadata.get("toolCallRounds")
            if any(
                isinstance(e, dict) and not e.get("text") and isinstance(e.get("outcome"), str)
                for e in entries
            ):
                reason = "failed"
            elif (
                isinstance(result.get("errorDetails"), dict)
                and isinstance(rounds, list)
                and rounds
                and "summaries" not in metadata
                and "summary" not in metadata
            ):
                reason = "lost-after-error"
            else:
                reason = "cancelled" if cancelled else "unknown"
        else:
            reason = "cancelled" if cancelled else "in-progress-only"
        out.append((index, reason))
    return out
