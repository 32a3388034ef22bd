"""From a final state to the reboot count (spec 2.0: CNT-*, SUM-*, MRK-*, OUT-*).

The count reads stored evidence only: the texts and provider ids a request's result holds.
Markers are looked at for the informative details alone (phantoms, warnings) and never change
the count. Three small steps, each a pure function of the state:

    the requests that count (CNT-1, CNT-5, CNT-6)
        -> each one's compaction events (SUM-1, SUM-6, SUM-7, SUM-2, SUM-8)
        -> reboots (CNT-2, CNT-3)

and, beside them, each request's markers (MRK-*) for phantoms and their reasons (SUM-4, OUT-3);
markers never change the count (MRK-5).

What a file cannot show is not guessed (the informative UNC rules): an empty "no response" result
is a phantom of reason `unknown` (UNC-2); a failed summarisation looks like a lost one (UNC-3); a
background pass's text on its anchor round counts although it may never have been applied
(UNC-5); a removal flag counts only once the log holds it (UNC-6); a fork's copied requests count
in the fork (UNC-7); summaries that never reached disk are not counted (UNC-9).
"""

from __future__ import annotations

from ...core.answer import Answer
from ...core.errors import (
    E_STATE,
    PHANTOM_WARNINGS,
    W_FAILED_SUMMARY,
    W_NO_MARKER,
    W_PROVIDER_COMPACTION,
    W_REMOVED,
    W_TRUNCATED,
    Notice,
    Rejection,
)
from ...core.jsontext import js_truthy
from ...core.plain import Frozen, Plain
from .eras import vocabulary

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

    from .eras import Vocabulary

TEXT = "text"
PROVIDER = "provider"
# UNC-8: the text VS Code's writer stores instead of a string it could not persist.
TRUNCATED_PREFIX = "[VS Code: value truncated for persistence;"

# OUT-3: the phantom reasons, and those that say the model probably continued from a summary.
FAILED = "failed"
LOST_AFTER_ERROR = "lost-after-error"
CANCELLED = "cancelled"
IN_PROGRESS_ONLY = "in-progress-only"
UNKNOWN = "unknown"
PROBABLY_CONTINUED = frozenset({LOST_AFTER_ERROR})


class Event(Frozen):
    """One compaction event of a request (SUM-8): a summary text or a provider compaction id."""

    __slots__ = ("key", "kind", "reboot", "request", "source")
    _fields = ("request", "source", "kind", "key", "reboot")

    def __init__(
        self, request: int, source: str, kind: str, key: str, reboot: bool = False
    ) -> None:
        self.request = request
        self.source = source  # where it is stored, e.g. "summaries[1]", "toolCallRounds[3].summary"
        self.kind = kind  # TEXT or PROVIDER
        self.key = key  # the text, or the provider id (CNT-2 compares (kind, key))
        self.reboot = reboot

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"request": self.request, "source": self.source, "kind": self.kind}
        if self.kind == TEXT:
            out["md5"] = md5_hex(self.key)
        else:
            out["id"] = self.key
        return out


class RequestView(Plain):
    """What one request of the final state holds, as the spec reads it."""

    _fields = (
        "index", "request_id", "timestamp", "marker", "marker_completed", "removed", "events",
        "phantom_reason",
    )  # fmt: skip

    def __init__(
        self,
        index: int,
        request_id: str | None,
        timestamp: float | None,
        marker: str | None,
        marker_completed: bool,
        removed: bool,
        events: list[Event],
        phantom_reason: str | None = None,
    ) -> None:
        self.index = index
        self.request_id = request_id
        self.timestamp = timestamp
        self.marker = marker  # the first marker text (MRK-1, MRK-2, MRK-4), None when none
        self.marker_completed = marker_completed
        self.removed = removed  # CNT-5: skipped by the count
        self.events = events
        self.phantom_reason = phantom_reason  # OUT-3, set for phantoms only


class Count(Answer):
    """The answer: the normative count plus the informative details of OUT-1 and OUT-3."""

    _fields = ("reboots", "requests", "views", "events", "notices")
    host = "vscode"  # OUT-4

    def __init__(
        self,
        reboots: int,
        requests: int,
        views: list[RequestView],
        events: list[Event],
        notices: list[Notice] | None = None,
    ) -> None:
        self.reboots = reboots
        self.requests = requests
        self.views = views
        self.events = events
        self.notices: list[Notice] = [] if notices is None else notices

    @property
    def phantoms(self) -> list[RequestView]:
        return [v for v in self.views if v.phantom_reason is not None]

    @property
    def reboots_possible(self) -> int:
        """OUT-3: the count plus the phantoms whose reason says the model probably continued."""
        return self.reboots + sum(
            1 for v in self.phantoms if v.phantom_reason in PROBABLY_CONTINUED
        )

    def to_json(self) -> dict[str, Any]:
        """OUT-1: the JSON object `python -m reference count` prints."""
        return {
            "reboots": self.reboots,
            "host": "vscode",  # OUT-4
            "reboots_possible": self.reboots_possible,
            "requests": self.requests,
            "reboot_events": [e.to_json() for e in self.events if e.reboot],
            "duplicates": [e.to_json() for e in self.events if not e.reboot],
            "phantoms": [
                {"request": v.index, "marker": v.marker, "reason": v.phantom_reason}
                for v in self.phantoms
            ],
            "removed": [v.index for v in self.views if v.removed],
            "warnings": [n.to_json() for n in self.notices],
        }

    def timeline(self) -> str:
        """explain's text: one row per compaction event or phantom, then the totals."""
        from .explain import timeline

        return timeline(self)


def md5_hex(text: str) -> str:
    """OUT-1: MD5 of the text's UTF-8 bytes (lone surrogates become U+FFFD, as in JS)."""
    data = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace").encode("utf-8")
    digest: str = _md5()(data).hexdigest()
    return digest


def _md5() -> Any:
    """The MD5 constructor: CPython's built-in `_md5` (hashlib, which loads OpenSSL, costs a
    few milliseconds of start-up), or hashlib's where a build lacks it."""
    try:
        from _md5 import md5  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - a Python built without _md5
        from hashlib import md5
    return md5


# CNT-1, CNT-5, CNT-6: which requests count ------------------------------------------------


def requests_of(state: dict[str, Any]) -> list[Any]:
    """CNT-1: the final state's `requests` (absent means none; any other non-array: ERR-5)."""
    requests = state.get("requests")
    if requests is None:
        return []
    if not isinstance(requests, list):
        raise Rejection(0, E_STATE, "the final state's requests is not an array")
    return requests


def is_removed(request: dict[str, Any]) -> bool:
    """CNT-5: the request is flagged for whole removal at the next send, so it does not count.

    VS Code loads a truthy legacy `isHidden` as a whole-request flag; a truthy
    `shouldBeRemovedOnSend` removes the whole request unless it is an object whose
    `afterUndoStop` is truthy (CNT-6: a partial undo keeps the request and its result).
    """
    if js_truthy(request.get("isHidden")):
        return True
    flag = request.get("shouldBeRemovedOnSend")
    if not js_truthy(flag):
        return False
    return not (isinstance(flag, dict) and js_truthy(flag.get("afterUndoStop")))


# SUM-*: the events of one request ---------------------------------------------------------


def _metadata(request: dict[str, Any]) -> dict[str, Any]:
    result = request.get("result")
    metadata = result.get("metadata") if isinstance(result, dict) else None
    return metadata if isinstance(metadata, dict) else {}


def _nonempty(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def stored_events(index: int, request: dict[str, Any]) -> list[Event]:
    """SUM-8: the request's compaction events in the order they happened, de-duplicated.

    SUM-1 the `summaries[]` texts, then SUM-6/SUM-7 each round's summary and provider
    compaction, then SUM-2 the singular `summary`. An event whose key already occurred in this
    request is dropped (the same summary is stored in several places).
    """
    metadata = _metadata(request)
    found: list[tuple[str, str, str]] = []  # (source, kind, key)
    entries = metadata.get("summaries")
    if isinstance(entries, list):  # SUM-1 (SUM-3: failure entries have no text)
        for position, entry in enumerate(entries):
            text = _nonempty(entry.get("text")) if isinstance(entry, dict) else None
            if text is not None:
                found.append((f"summaries[{position}]", TEXT, text))
    rounds = metadata.get("toolCallRounds")
    if isinstance(rounds, list):
        for position, round_ in enumerate(rounds):
            if not isinstance(round_, dict):
                continue
            text = _nonempty(round_.get("summary"))  # SUM-6
            if text is not None:
                found.append((f"toolCallRounds[{position}].summary", TEXT, text))
            compaction = round_.get("compaction")  # SUM-7
            ident = _nonempty(compaction.get("id")) if isinstance(compaction, dict) else None
            if ident is not None:
                found.append((f"toolCallRounds[{position}].compaction", PROVIDER, ident))
    summary = metadata.get("summary")
    text = _nonempty(summary.get("text")) if isinstance(summary, dict) else None
    if text is not None:  # SUM-2
        found.append(("summary", TEXT, text))
    events: list[Event] = []
    seen: set[tuple[str, str]] = set()
    for source, kind, key in found:  # SUM-8: de-duplication inside the request
        if (kind, key) not in seen:
            seen.add((kind, key))
            events.append(Event(index, source, kind, key))
    return events


def failure_entries(request: dict[str, Any]) -> int:
    """SUM-3: `summaries[]` entries without text (a failed summarisation)."""
    entries = _metadata(request).get("summaries")
    if not isinstance(entries, list):
        return 0
    return sum(
        1 for e in entries if not (isinstance(e, dict) and _nonempty(e.get("text")) is not None)
    )


# CNT-2, CNT-3: the count ------------------------------------------------------------------


def mark_reboots(events: list[Event]) -> list[Event]:
    """CNT-2: an event is a reboot when its key differs from the previous event's key.

    Requests without events are not in the list, so a phantom never resets the comparison
    (CNT-3).
    """
    marked = []
    previous: tuple[str, str] | None = None
    for event in events:
        key = (event.kind, event.key)
        marked.append(Event(event.request, event.source, event.kind, event.key, key != previous))
        previous = key
    return marked


# MRK-*: markers, informative only ---------------------------------------------------------


def _parts(request: dict[str, Any]) -> list[dict[str, Any]]:
    response = request.get("response")
    if not isinstance(response, list):  # LEG-2: a plain-string response has no parts
        return []
    return [part for part in response if isinstance(part, dict)]


def _content_value(part: dict[str, Any]) -> Any:
    content = part.get("content")
    return content.get("value") if isinstance(content, dict) else None


def find_marker(request: dict[str, Any], vocab: Vocabulary) -> tuple[str | None, bool]:
    """MRK-1, MRK-2, MRK-4: the request's marker text and whether it is a completed one.

    A completed marker (any locale, ERA-3) wins over an in-progress text. MRK-3: the same text
    in markdown, a message or a part of another kind is no marker, and neither is another
    progress task ("Collecting workspace information").
    """
    in_progress: str | None = None
    for part in _parts(request):
        kind = part.get("kind")
        if isinstance(kind, str) and kind in vocab.marker_part_kinds:
            value = _content_value(part)
            if not isinstance(value, str):
                continue
            if value in vocab.completed:
                return value, True
            if in_progress is None and _in_progress_like(value, vocab):
                in_progress = value
    if _is_compact_command(request, vocab):
        for part in _parts(request):
            value = part.get("value")
            if "kind" not in part and isinstance(value, str) and value in vocab.manual_completed:
                return value, True
            if part.get("kind") == "progressMessage" and in_progress is None:
                text = _content_value(part)
                if isinstance(text, str) and text in vocab.manual_in_progress:
                    in_progress = text
    return in_progress, False


def _in_progress_like(value: str, vocab: Vocabulary) -> bool:
    """MRK-2: an in-progress text, also with a percentage: 'Compacting conversation (42%)...'."""
    for text in vocab.in_progress:
        stem = text.removesuffix("...")
        if value == text or (value.startswith(stem) and value.endswith("...")):
            return True
    return False


def _is_compact_command(request: dict[str, Any], vocab: Vocabulary) -> bool:
    slash = request.get("slashCommand")
    if isinstance(slash, dict) and slash.get("name") == vocab.manual_slash_command:
        return True
    message = request.get("message")
    text = message.get("text") if isinstance(message, dict) else message  # LEG-2: plain string
    if not isinstance(text, str):
        return False
    # The command, then the end or white space (Unicode's: str.isspace is exactly what `\s`
    # matches in a regular expression over text; no `re` on a count's start-up).
    command = vocab.manual_message_command
    if not text.startswith(command):
        return False
    rest = text[len(command) :]
    return not rest or rest[0].isspace()


def phantom_reason(request: dict[str, Any], completed: bool) -> str:
    """OUT-3: why a request with a marker holds no event (informative; UNC-1..UNC-4)."""
    if completed:
        entries = _metadata(request).get("summaries")
        if isinstance(entries, list) and any(
            isinstance(e, dict) and isinstance(e.get("outcome"), str) and not e.get("text")
            for e in entries
        ):
            return FAILED
        result = request.get("result")
        metadata = _metadata(request)
        rounds = metadata.get("toolCallRounds")
        if (
            isinstance(result, dict)
            and isinstance(result.get("errorDetails"), dict)
            and isinstance(rounds, list)
            and rounds
            and not metadata.get("summaries")
            and "summary" not in metadata
        ):
            return LOST_AFTER_ERROR  # UNC-1: the entries were dropped with the error result
    if _cancelled(request):
        return CANCELLED
    return UNKNOWN if completed else IN_PROGRESS_ONLY


def _cancelled(request: dict[str, Any]) -> bool:
    state = request.get("modelState")
    if isinstance(state, dict):
        return state.get("value") == 2
    return request.get("isCanceled") is True  # legacy files before modelState


# The pipeline -----------------------------------------------------------------------------


def view_request(index: int, request: dict[str, Any], vocab: Vocabulary) -> RequestView:
    marker, completed = find_marker(request, vocab)
    removed = is_removed(request)
    events = [] if removed else stored_events(index, request)
    view = RequestView(
        index=index,
        request_id=_string(request.get("requestId")),
        timestamp=_number(request.get("timestamp")),
        marker=marker,
        marker_completed=completed,
        removed=removed,
        events=events,
    )
    if marker is not None and not events and not removed:  # SUM-4
        view.phantom_reason = phantom_reason(request, completed)
    return view


def notices_for(view: RequestView, request: dict[str, Any]) -> list[Notice]:
    """OUT-2: the warnings one request gives."""
    index = view.index
    if view.removed:
        return [Notice(W_REMOVED, "flagged for removal at the next send: skipped", request=index)]
    notices = []
    failed = failure_entries(request)
    if failed:
        notices.append(Notice(W_FAILED_SUMMARY, f"{failed} failed summary entries", request=index))
    if view.phantom_reason is not None:
        code = PHANTOM_WARNINGS[view.phantom_reason]
        notices.append(
            Notice(code, f"marker without a stored summary ({view.phantom_reason})", request=index)
        )
    if any(e.kind == PROVIDER for e in view.events):
        notices.append(
            Notice(
                W_PROVIDER_COMPACTION,
                "provider-side compaction (no marker, no text)",
                request=index,
            )
        )
    if view.marker is None and any(e.kind == TEXT for e in view.events):  # SUM-5
        notices.append(
            Notice(W_NO_MARKER, "a summary is stored but no marker is shown", request=index)
        )
    if any(e.kind == TEXT and e.key.startswith(TRUNCATED_PREFIX) for e in view.events):  # UNC-8
        notices.append(
            Notice(
                W_TRUNCATED,
                "a summary was truncated for persistence; compared as stored",
                request=index,
            )
        )
    return notices


def _string(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: Any) -> float | None:
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def count_state(state: dict[str, Any], vocab: Vocabulary | None = None) -> Count:
    """The whole pipeline on a final state (CNT-4)."""
    vocab = vocab or vocabulary()
    requests = requests_of(state)
    views: list[RequestView] = []
    notices: list[Notice] = []
    events: list[Event] = []
    for index, request in enumerate(requests):
        if not isinstance(request, dict):  # CNT-1: holes and other non-objects are skipped
            continue
        view = view_request(index, request, vocab)
        views.append(view)
        notices.extend(notices_for(view, request))
        events.extend(view.events)
    events = mark_reboots(events)
    return Count(
        reboots=sum(1 for e in events if e.reboot),
        requests=len(requests),
        views=views,
        events=events,
        notices=notices,
    )
