"""The Cline family's reader (spec/hosts/cline.md): a task folder or an SDK session folder.

input (CLN-1) -> the member (CLN-2) -> its line's primary records:
  Cline's core (CLN-4): the api history's answered `summarize_task` results and accepted
      `condense` results (CLN-6); the ui's tool rows and asks are companions (CLN-5); the
      deleted range is no evidence (CLN-7); a restore makes the count a lower bound (CLN-8)
  Roo's line (CLN-10): the ui's completed `condense_context` rows; Kilo's /smol once (CLN-11)
  the SDK's session folder (CLN-12): 0 without a compaction file, E-UNMEASURABLE with one
-> eras (CLN-3) -> the count (RBT-1).
A resumed task appends to the same files and copies nothing (CLN-9: no inherited record); a
sub-agent's compaction writes nothing here; rejections are CLN-13's.
"""

from __future__ import annotations

import os

from ...core.answer import RecordCount
from ...core.errors import E_READ, E_UNMEASURABLE, Notice, Rejection
from .marks import (
    API,
    CLINE,
    COMPACTION_SUFFIX,
    METADATA,
    SDK_SUFFIX,
    UI,
    Input,
    companion,
)

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

# CLN-4: how Cline's tool results begin (`[<tool name>] Result:`, XML or native tool calls).
SUMMARIZE_RESULT = "[summarize_task] Result:"
CONDENSE_RESULT = "[condense] Result:"
# CLN-4: the continuation prompt a completed summarize_task returns (contextManagement.ts).
CONTINUATION = (
    "This session is being continued from a previous conversation that ran out of context"
)
# CLN-6: formatResponse.condense(): only an accepted /smol returns it (feedback returns another).
ACCEPTED = "The user has accepted the condensed conversation summary"
W_REWOUND = "W-REWOUND"  # CLN-8: a checkpoint restore removed messages: a lower bound

# CLN-3: Cline's eras by the version task_metadata.json names (the first release of each).
L1_FROM = (3, 13, 3)
L2_FROM = (3, 25, 0)


def count_input(found: Input, member: str, with_title: bool) -> RecordCount:
    """CLN-1..CLN-13: the answer for one input of the family, read as `member` wrote it."""
    if found.kind == "sdk":
        return _count_sdk(found, member)
    history = _history(found)
    if member == CLINE:
        answer = _count_core(found, history, member)
    else:
        answer = _count_roo_line(found, history, member)
    if with_title:
        answer.title = _title(found.document)
    return answer


def _history(found: Input) -> list[Any]:
    """CLN-1: the api history beside the ui messages (E-READ when it is missing)."""
    try:
        value = companion(found, API)
    except Rejection as rejection:  # ERR-10: the reason names the companion file at fault
        raise Rejection(rejection.line, rejection.code, f"{API}: {rejection.reason}") from None
    except OSError as error:
        from ...core.errors import os_reason

        raise Rejection(0, E_READ, f"{API}: {os_reason(error)}") from None
    if value is None:
        raise Rejection(0, E_READ, f"no {API} beside {UI}: the task folder is incomplete")
    if not isinstance(value, list):
        raise Rejection(0, E_READ, f"{API} is not an array of messages")
    return value


def _count_core(found: Input, history: list[Any], member: str) -> RecordCount:
    """CLN-4..CLN-9: Cline's core. One reboot per answered summarize_task result and per
    accepted condense result in the api history (CLN-4, CLN-6)."""
    events: list[dict[str, Any]] = []
    summarized = condensed = False
    for number, message in enumerate(history, 1):
        if not isinstance(message, dict) or message.get("role") != "user":
            continue
        for text in _result_texts(message.get("content")):
            if text.startswith(SUMMARIZE_RESULT):
                summarized = True
                if CONTINUATION in text:  # CLN-4: a completed summary, not an error result
                    events.append({"file": API, "line": number, "kind": "summarize_task"})
            elif text.startswith(CONDENSE_RESULT):
                condensed = True
                if ACCEPTED in text:  # CLN-6: feedback is no reboot
                    events.append({"file": API, "line": number, "kind": "condense"})
    companions = 0
    notices: list[Notice] = []
    for message in found.document:
        if not isinstance(message, dict):
            continue
        if message.get("ask") == "condense" or _is_summary_row(message):  # CLN-5
            companions += 1
        if message.get("say") == "deleted_api_reqs":  # CLN-8
            notices.append(
                Notice(
                    W_REWOUND,
                    "a checkpoint restore removed later messages from both files: a compaction "
                    "among them is not recorded, the count is a lower bound (CLN-8)",
                )
            )
            break
    version = _version(found)
    era = _core_era(
        version, summarized or any(_is_summary_row(m) for m in found.document), condensed
    )
    return RecordCount(
        member,
        len(events),
        era=era,
        host_version=version,
        records=len(history),
        events=events,
        companions=companions,
        notices=notices,
    )


def _count_roo_line(found: Input, history: list[Any], member: str) -> RecordCount:
    """CLN-10, CLN-11: Roo Code and the Kilo extension. One reboot per completed
    `condense_context` row; E-UNMEASURABLE when the api history holds a summary no row records."""
    events: list[dict[str, Any]] = []
    companions = 0
    truncations = 0
    for number, message in enumerate(found.document, 1):
        if not isinstance(message, dict):
            continue
        say = message.get("say")
        if say == "condense_context":
            if (
                isinstance(message.get("contextCondense"), dict)
                and message.get("partial") is not True
            ):
                events.append({"file": UI, "line": number, "kind": "condense_context"})
        elif say in ("condense_context_error", "sliding_window_truncation"):
            companions += 1
            truncations += say == "sliding_window_truncation"
        elif message.get("ask") == "condense":  # CLN-11: Kilo's /smol: its row above counts
            companions += 1
    summaries = [m for m in history if isinstance(m, dict) and m.get("isSummary") is True]
    companions += len(summaries)
    nondestructive = truncations > 0 or any(
        isinstance(m, dict) and ("condenseParent" in m or "isTruncationMarker" in m)
        for m in history
    )
    prefix = "R" if member != "kilo-code" else "KX"
    if summaries and not events:
        raise Rejection(
            0,
            E_UNMEASURABLE,
            f"{API} holds a condensed summary, but {UI} records no condense (Roo Code 3.17, "
            "or a rewind removed the record): the number of condenses is unknown (CLN-10)",
        )
    if nondestructive:
        era: str | None = prefix + ("3" if prefix == "R" else "2")
    elif events:
        era = prefix + ("2" if prefix == "R" else "1")
    else:
        era = None
    return RecordCount(
        member,
        len(events),
        era=era,
        records=len(found.document),
        events=events,
        companions=companions,
    )


def _count_sdk(found: Input, member: str) -> RecordCount:
    """CLN-12: an SDK session keeps only its latest compaction: 0 without the compaction file,
    E-UNMEASURABLE with it (any number past "at least one" would be made up)."""
    name = os.path.basename(found.main)[: -len(SDK_SUFFIX)]
    compaction = os.path.join(found.folder, name + COMPACTION_SUFFIX)
    if os.path.lexists(compaction):
        raise Rejection(
            0,
            E_UNMEASURABLE,
            f"{name}{COMPACTION_SUFFIX}: the Cline SDK compacted this session at least once and "
            "keeps only the latest compaction; the number is not recorded (CLN-12)",
        )
    messages = found.document.get("messages")
    return RecordCount(
        member, 0, era="S1", records=len(messages) if isinstance(messages, list) else 0
    )


def _result_texts(content: Any) -> list[str]:
    """The texts of a user message's blocks: text blocks, and tool_result contents (a string or
    a list of text blocks): where Cline puts `[<tool>] Result:` (CLN-4)."""
    if isinstance(content, str):
        return [content]
    texts: list[str] = []
    if not isinstance(content, list):
        return texts
    for block in content:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "tool_result":
            inner = block.get("content")
            if isinstance(inner, str):
                texts.append(inner)
            elif isinstance(inner, list):
                texts += [
                    b["text"]
                    for b in inner
                    if isinstance(b, dict) and isinstance(b.get("text"), str)
                ][:1]
    return texts


def _is_summary_row(message: dict[str, Any]) -> bool:
    """CLN-5: the ui's `say:"tool"` row of a summarize_task (a companion)."""
    if message.get("say") != "tool" or not isinstance(message.get("text"), str):
        return False
    return '"summarizeTask"' in message["text"]  # the JSON text {"tool":"summarizeTask",…}


def _version(found: Input) -> str | None:
    """CLN-3: the extension core's version task_metadata.json names last (informative)."""
    try:
        metadata = companion(found, METADATA)
    except (Rejection, OSError):
        return None
    history = metadata.get("environment_history") if isinstance(metadata, dict) else None
    if not isinstance(history, list):
        return None
    for entry in reversed(history):
        version = entry.get("cline_version") if isinstance(entry, dict) else None
        if isinstance(version, str) and _parts(version) is not None:
            return version
    return None


def _parts(version: str) -> tuple[int, ...] | None:
    digits = version.split("-", 1)[0].split(".")
    return tuple(int(d) for d in digits) if all(d.isdigit() for d in digits) else None


def _core_era(version: str | None, summarized: bool, condensed: bool) -> str | None:
    """CLN-3: L0/L1/L2 by the version, else by the records (informative)."""
    parts = _parts(version) if version else None
    if parts is not None:
        return "L2" if parts >= L2_FROM else "L1" if parts >= L1_FROM else "L0"
    if summarized:
        return "L2"
    return "L1" if condensed else None


def _title(document: list[Any]) -> str:
    """The task's first message: the first ui row, `say` "task" or "text" (informative)."""
    from ...core.titles import text_of

    for message in document[:3]:
        if isinstance(message, dict) and message.get("say") in ("task", "text"):
            return text_of(message.get("text")) or ""
    return ""
