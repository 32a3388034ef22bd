"""What an input of the Cline family is (CLN-1) and which of the family's hosts wrote it (CLN-2).

Why its own module: detection (every count asks it) and the reader need the same documents;
they are parsed once here and kept for the one input being counted (`inspect` remembers the
last one by its path and file state), so detection never costs the reader a second parse.

CLN-1: a task folder (a folder holding `ui_messages.json`), or its `ui_messages.json`, whose
document is an array whose first element is a ui message: an object with an integral `ts`,
`type` "say" or "ask", and a string member named by its type. A Cline SDK session folder
`<id>/` holding `<id>.messages.json`, or that file: an object with a string `sessionId`, an
array `messages`, an integral `version`, and neither `projectHash` (a Gemini CLI chat) nor
`requests` (a VS Code session).
CLN-2: the member is decided by marks only its writers leave (Kilo's before Roo's); no mark
names the owner, `cline`.
"""

from __future__ import annotations

import os

from ...core.errors import Rejection
from ...core.jsontext import BOM, parse_json
from ...core.plain import Plain

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

UI = "ui_messages.json"
API = "api_conversation_history.json"
METADATA = "task_metadata.json"
SDK_SUFFIX = ".messages.json"
COMPACTION_SUFFIX = ".compaction.json"

CLINE = "cline"
ROO = "roo-code"
KILO = "kilo-code"

# CLN-2: ui `say` kinds only Roo Code's line writes (Roo's and Kilo's `clineSays`, none of Cline's).
ROO_SAYS = frozenset(
    {
        "api_req_retry_delayed",
        "api_req_rate_limit_wait",
        "api_req_deleted",
        "image",
        "subtask_result",
        "checkpoint_saved",
        "rooignore_error",
        "condense_context",
        "condense_context_error",
        "sliding_window_truncation",
        "codebase_search_result",
        "user_edit_todos",
        "too_many_tools_warning",
        "browser_session_status",  # Roo 3.34 to 3.47's browser sessions, and Kilo's
    }
)
ROO_ASKS = frozenset({"auto_approval_max_req_reached"})
# Members of a ui message that Roo's `clineMessageSchema` has and Cline's `ClineMessage` lacks.
ROO_MEMBERS = frozenset(
    {
        "contextCondense",
        "contextTruncation",
        "isProtected",
        "apiProtocol",
        "progressStatus",
        "isAnswered",
        "checkpoint",
    }
)
# Members of an api history message only Roo's line writes (`ApiMessage`).
ROO_API_MEMBERS = frozenset(
    {
        "isSummary",
        "condenseId",
        "condenseParent",
        "truncationId",
        "truncationParent",
        "isTruncationMarker",
    }
)
# CLN-2: Kilo's own asks (its `kilocode_change` additions to Roo's list) and its ui `metadata`.
KILO_ASKS = frozenset({"payment_required_prompt", "invalid_model", "checkpoint_restore"})


class Input(Plain):
    """One input of the family, its documents parsed once (CLN-1). (A `Plain`, not a
    dataclass: detection makes one on every count, and `dataclasses` costs its import.)"""

    _fields = ("kind", "folder", "main", "document", "member", "companions")

    def __init__(
        self,
        kind: str,
        folder: str,
        main: str,
        document: Any,
        member: str = CLINE,
        companions: dict[str, Any] | None = None,
    ) -> None:
        self.kind = kind  # "task" (a task folder) or "sdk" (an SDK session folder)
        self.folder = folder
        self.main = main  # ui_messages.json, or <id>.messages.json
        self.document = document  # the main file's document
        self.member = member
        # file name -> document or error
        self.companions: dict[str, Any] = {} if companions is None else companions


_LAST: tuple[tuple[Any, ...], Input | None] | None = None


def inspect(path: str, is_dir: bool) -> Input | None:
    """The family's input at `path`, or None when it is not one (CLN-1); never raises."""
    global _LAST
    main = _main_file(path, is_dir)
    if main is None:
        return None
    try:
        info = os.stat(main)
    except OSError:
        return None
    key = (main, info.st_ino, info.st_size, info.st_mtime_ns)
    if _LAST is not None and _LAST[0] == key:
        return _LAST[1]
    found = _read(main)
    _LAST = (key, found)
    return found


def evidence(path: str, is_dir: bool, head: bytes) -> Input | None:
    """HST-2: the family's input read once, naming which of the family's hosts wrote it
    (`member`, CLN-2), or None. A file is looked at only when its first byte (after a byte
    order mark and whitespace) opens a document of CLN-1."""
    if not is_dir:
        if not path.endswith(".json"):
            return None
        body = head[len(BOM) :] if head.startswith(BOM) else head
        first = body.lstrip(b" \t\r\n")[:1]
        if first == b"[":
            pass
        elif first == b"{":  # the SDK's messages file; never a VS Code session (`requests`)
            if b'"sessionId"' not in head or b'"messages"' not in head or b'"requests"' in head:
                return None
        else:
            return None
    return inspect(path, is_dir)


def load(path: str) -> Any:
    """A whole JSON document as the hosts' JavaScript loaders read it (ERR-3, ERR-8)."""
    from ...core.files import open_regular

    with open_regular(path) as handle:
        data = handle.read()
    if data.startswith(BOM):
        data = data[len(BOM) :]
    return parse_json(data, 0)


def companion(found: Input, name: str) -> Any:
    """A companion document beside the main file (None when absent), parsed once; a file that
    cannot be read or parsed raises its Rejection or OSError again on every ask."""
    if name not in found.companions:
        path = os.path.join(found.folder, name)
        try:
            found.companions[name] = load(path) if os.path.lexists(path) else None
        except (Rejection, OSError) as error:
            found.companions[name] = error
    value = found.companions[name]
    if isinstance(value, (Rejection, OSError)):
        raise value
    return value


def is_ui_message(value: Any) -> bool:
    """CLN-1: a ui message: integral `ts`, `type` "say"/"ask", a string member named by it."""
    if not isinstance(value, dict):
        return False
    kind = value.get("type")
    ts = value.get("ts")
    return (
        kind in ("say", "ask")
        and isinstance(ts, (int, float))
        and not isinstance(ts, bool)
        and isinstance(value.get(kind), str)
    )


def is_sdk_document(value: Any) -> bool:
    """CLN-1, CLN-12: the SDK's `<id>.messages.json` (not a Gemini CLI chat, not VS Code's)."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("sessionId"), str)
        and isinstance(value.get("messages"), list)
        and isinstance(value.get("version"), int)
        and not isinstance(value.get("version"), bool)
        and "projectHash" not in value
        and "requests" not in value
    )


def _main_file(path: str, is_dir: bool) -> str | None:
    if not is_dir:
        return path
    ui = os.path.join(path, UI)
    if os.path.isfile(ui):
        return ui
    sdk = os.path.join(path, os.path.basename(os.path.normpath(path)) + SDK_SUFFIX)
    return sdk if os.path.isfile(sdk) else None


def _read(main: str) -> Input | None:
    try:
        document = load(main)
    except (Rejection, OSError, ValueError, MemoryError):
        return None  # not the family's: HST-2's other rows, then VS Code's rules, judge it
    folder = os.path.dirname(main) or "."
    if isinstance(document, list) and document and is_ui_message(document[0]):
        found = Input("task", folder, main, document)
        found.member = _member(found)
        return found
    if main.endswith(SDK_SUFFIX) and is_sdk_document(document):
        return Input("sdk", folder, main, document)
    return None


def _member(found: Input) -> str:
    """CLN-2: Kilo's marks, else Roo's line's marks (ui, then the api history), else Cline."""
    roo = False
    for message in found.document:
        if not isinstance(message, dict):
            continue
        metadata = message.get("metadata")
        if message.get("ask") in KILO_ASKS or (
            isinstance(metadata, dict) and "kiloCode" in metadata
        ):
            return KILO
        if not roo:
            roo = (
                message.get("say") in ROO_SAYS
                or message.get("ask") in ROO_ASKS
                or not ROO_MEMBERS.isdisjoint(message)  # one of them is a member (its keys)
            )
    if not roo:
        try:
            history = companion(found, API)
        except (Rejection, OSError):
            history = None
        roo = isinstance(history, list) and any(
            isinstance(m, dict) and not ROO_API_MEMBERS.isdisjoint(m) for m in history
        )
    if roo and any(isinstance(m, dict) and m.get("ask") == "condense" for m in found.document):
        return KILO  # Cline's /smol in Roo's line: the Kilo extension's (CLN-11)
    return ROO if roo else CLINE
