"""From a final state to the reboot count (MRK-*, SUM-*, CNT-*, OUT-*).

Three small steps, each a pure function of the state:
compaction requests (MRK) -> their summaries (SUM) -> reboots (CNT).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from reference.eras import Vocabulary, vocabulary
from reference.errors import (
    E_STATE,
    W_FAILED_SUMMARY,
    W_IN_PROGRESS,
    W_SERVER_COMPACTION,
    W_SUMMARY_WITHOUT_MARKER,
    Notice,
    Rejection,
)


@dataclass
class Compaction:
    """One compaction request (MRK-5) and what its result stored (SUM-1..SUM-4)."""

    request: int
    request_id: str | None
    timestamp: float | None
    marker: str
    manual: bool
    summaries: list[str]


@dataclass
class SummaryEvent:
    """One summary of the walk (CNT-1) and whether it is a reboot (CNT-2)."""

    request: int
    summary: int
    marker: str
    md5: str
    reboot: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "request": self.request,
            "summary": self.summary,
            "marker": self.marker,
            "md5": self.md5,
        }


@dataclass
class Count:
    """The answer: the normative count plus the informative details of OUT-1."""

    reboots: int
    requests: int
    compactions: list[Compaction]
    events: list[SummaryEvent]
    notices: list[Notice] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """OUT-1: the JSON object `python -m reference count` prints."""
        return {
            "reboots": self.reboots,
            "requests": self.requests,
            "reboot_events": [e.to_json() for e in self.events if e.reboot],
            "duplicates": [e.to_json() for e in self.events if not e.reboot],
            "phantoms": [
                {"request": c.request, "marker": c.marker}
                for c in self.compactions
                if not c.summaries
            ],
            "warnings": [n.to_json() for n in self.notices],
        }


def md5_hex(text: str) -> str:
    """OUT-1: MD5 of the summary's UTF-8 bytes (lone surrogates become U+FFFD, as in JS)."""
    import hashlib  # here, not at the top: only files with summaries pay its import

    data = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace").encode("utf-8")
    return hashlib.md5(data).hexdigest()


def requests_of(state: dict[str, Any]) -> list[Any]:
    """CNT-1: the final state's `requests` (absent means none; any other non-array: ERR-5)."""
    requests = state.get("requests")
    if requests is None:
        return []
    if not isinstance(requests, list):
        raise Rejection(0, E_STATE, "the final state's requests is not an array")
    return requests


def completed_markers(request: dict[str, Any], vocab: Vocabulary) -> list[str]:
    """MRK-1: texts of the response parts that are completed automatic-compaction markers.

    MRK-3: only a part of a marker kind counts; the same text in markdown, in a message or in
    a part of another kind never does.
    """
    found = []
    for part in _parts(request):
        kind = part.get("kind")
        if isinstance(kind, str) and kind in vocab.marker_part_kinds:
            value = _content_value(part)
            if isinstance(value, str) and value in vocab.completed:
                found.append(value)
    return found


def manual_marker(request: dict[str, Any], vocab: Vocabulary) -> str | None:
    """MRK-4: the completed-markdown text of a finished `/compact` request, or None."""
    if not _is_compact_command(request, vocab):
        return None
    for part in _parts(request):
        value = part.get("value")
        if "kind" not in part and isinstance(value, str) and value in vocab.manual_completed:
            return value
    return None


def _is_compact_command(request: dict[str, Any], vocab: Vocabulary) -> bool:
    slash = request.get("slashCommand")
    if isinstance(slash, dict) and slash.get("name") == vocab.manual_slash_command:
        return True
    message = request.get("message")
    text = message.get("text") if isinstance(message, dict) else message  # LEG-2: plain string
    if not isinstance(text, str):
        return False
    pattern = re.escape(vocab.manual_message_command) + r"(\s|$)"
    return re.match(pattern, text) is not None


def _parts(request: dict[str, Any]) -> list[dict[str, Any]]:
    response = request.get("response")
    if not isinstance(response, list):  # LEG-2: a plain-string response has no parts
        return []
    return [part for part in response if isinstance(part, dict)]


def _content_value(part: dict[str, Any]) -> Any:
    content = part.get("content")
    return content.get("value") if isinstance(content, dict) else None


def _metadata(request: dict[str, Any]) -> dict[str, Any]:
    result = request.get("result")
    metadata = result.get("metadata") if isinstance(result, dict) else None
    return metadata if isinstance(metadata, dict) else {}


def summaries_of(request: dict[str, Any]) -> tuple[list[str], int]:
    """SUM-1..SUM-3: the non-empty summary texts of a request, and how many entries failed."""
    metadata = _metadata(request)
    entries = metadata.get("summaries")
    if isinstance(entries, list):  # SUM-1: the array wins, even when empty
        texts = [_text(entry) for entry in entries]
        good = [t for t in texts if t]
        return good, len(texts) - len(good)
    text = _text(metadata.get("summary"))  # SUM-2
    return ([text], 0) if text else ([], 0)


def _text(entry: Any) -> str | None:
    """SUM-3: a summary's text when it is a non-empty string, else None (a failed summary)."""
    if isinstance(entry, dict):
        text = entry.get("text")
        if isinstance(text, str) and text:
            return text
    return None


def find_compactions(
    requests: list[Any], vocab: Vocabulary
) -> tuple[list[Compaction], list[Notice]]:
    """MRK-5: every compaction request in order, with its summaries; warnings on the way."""
    compactions = []
    notices = []
    for index, request in enumerate(requests):
        if not isinstance(request, dict):  # CNT-1: holes and other non-objects are skipped
            continue
        markers = completed_markers(request, vocab)
        manual = manual_marker(request, vocab)
        summaries, failed = summaries_of(request)
        if failed:
            notices.append(
                Notice(W_FAILED_SUMMARY, f"{failed} failed summary entries", request=index)
            )
        if _has_server_compaction(request):
            notices.append(
                Notice(
                    W_SERVER_COMPACTION,
                    "server-side compaction recorded only in toolCallRounds",
                    request=index,
                )
            )
        if not markers and manual is None:
            if summaries:  # SUM-5
                notices.append(
                    Notice(
                        W_SUMMARY_WITHOUT_MARKER, "a summary is stored but no marker", request=index
                    )
                )
            if _has_in_progress(request, vocab):  # MRK-2
                notices.append(Notice(W_IN_PROGRESS, "compaction left in progress", request=index))
            continue
        compactions.append(
            Compaction(
                request=index,
                request_id=_string(request.get("requestId")),
                timestamp=_number(request.get("timestamp")),
                marker=markers[0] if markers else str(manual),
                manual=not markers,
                summaries=summaries,
            )
        )
    return compactions, notices


def _has_in_progress(request: dict[str, Any], vocab: Vocabulary) -> bool:
    for part in _parts(request):
        value = _content_value(part)
        if isinstance(value, str) and any(_in_progress_like(value, s) for s in vocab.in_progress):
            return True
    return False


def _in_progress_like(value: str, text: str) -> bool:
    """In-progress texts, also with a percentage: 'Compacting conversation (42%)...'."""
    stem = text.removesuffix("...")
    return value == text or (value.startswith(stem) and value.endswith("..."))


def _has_server_compaction(request: dict[str, Any]) -> bool:
    rounds = _metadata(request).get("toolCallRounds")
    if not isinstance(rounds, list):
        return False
    return any(isinstance(r, dict) and r.get("compaction") for r in rounds)


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def count_reboots(compactions: list[Compaction]) -> list[SummaryEvent]:
    """CNT-2, CNT-3: a summary is a reboot when its text differs from the previous summary."""
    events = []
    previous: str | None = None
    for compaction in compactions:
        for position, text in enumerate(compaction.summaries):  # phantoms have none: no reset
            events.append(
                SummaryEvent(
                    request=compaction.request,
                    summary=position,
                    marker=compaction.marker,
                    md5=md5_hex(text),
                    reboot=text != previous,
                )
            )
            previous = text
    return events


def count_state(state: dict[str, Any], vocab: Vocabulary | None = None) -> Count:
    """The whole pipeline on a final state (CNT-4)."""
    vocab = vocab or vocabulary()
    requests = requests_of(state)
    compactions, notices = find_compactions(requests, vocab)
    events = count_reboots(compactions)
    return Count(
        reboots=sum(1 for e in events if e.reboot),
        requests=len(requests),
        compactions=compactions,
        events=events,
        notices=notices,
    )
