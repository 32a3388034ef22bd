"""The host layer: which host wrote a file (HST-2), and that host's reader.

Each host has one small reader beside the core: VS Code's is the replay and count of the
package root (`replay.py`, `count.py`, spec/hosts/vscode.md); Codex's, pi's, Claude Code's and
Gemini CLI's read records by JSON value (`codex.py`, `pi.py`, `claude_code.py`, `gemini.py`).
Detection reads only the file's first value (and a `.json` that names `projectHash`: the whole
document, GEM-1).
"""

from __future__ import annotations

import os

from ..errors import E_HOST, Rejection

TYPE_CHECKING = False  # typing's own flag costs its import, and this runs on every count
if TYPE_CHECKING:
    from typing import Any

VSCODE = "vscode"
CODEX = "codex"
PI = "pi"
CLAUDE_CODE = "claude-code"
GEMINI = "gemini-cli"
OPENCODE = "opencode"
CHAT_LOOP = "basic-agent-chat-loop"
COPILOT_CLI = "copilot-cli"
HOSTS = (
    VSCODE,
    CODEX,
    PI,
    CLAUDE_CODE,
    GEMINI,
    OPENCODE,
    CHAT_LOOP,
    COPILOT_CLI,
)  # HST-1, in spec/hosts.toml's order

# HST-2, CLC-1: the Claude Code records that carry no `uuid`, and the member each one names
# itself by (a resume-picker title row, a file backup snapshot, a queued prompt, title rows).
CLAUDE_CODE_UNTHREADED = {
    "summary": "leafUuid",
    "file-history-snapshot": "messageId",
    "queue-operation": "sessionId",
    "ai-title": "sessionId",
    "custom-title": "sessionId",
}

# How much of the file detection reads before it parses a whole first line: a VS Code log's
# first line can be hundreds of megabytes, and its first member is `kind`.
PEEK = 1 << 16


def classify(value: Any) -> str | None:
    """HST-2: the host a first JSON value belongs to; None when no host claims it (HST-4)."""
    if not isinstance(value, dict):
        return VSCODE  # VS Code's rules reject it (ERR-4)
    if isinstance(value.get("sessionId"), str) and isinstance(value.get("projectHash"), str):
        return GEMINI  # GEM-1: the chat's metadata record (it may carry `kind`: checked first)
    if "kind" in value:
        return VSCODE
    kind = value.get("type")
    if kind == "session_meta" or (isinstance(kind, str) and isinstance(value.get("payload"), dict)):
        return CODEX
    if kind == "session":
        return PI
    if isinstance(kind, str) and _is_claude_code(kind, value):
        return CLAUDE_CODE
    envelope = isinstance(value.get("data"), dict)
    if isinstance(kind, str) and kind.startswith("session.") and envelope:
        return COPILOT_CLI  # CPL-1: an event envelope (the first is a `session.start`)
    if (
        kind is None
        and isinstance(value.get("id"), str)
        and isinstance(value.get("timestamp"), str)
    ):
        return CODEX  # CDX-1: the legacy rollout header of era C0
    return None


def _is_claude_code(kind: str, value: dict[str, Any]) -> bool:
    """HST-2, CLC-1: a conversation record (string `uuid` and `sessionId`) or one of the
    records without a `uuid` that carries the member it is known by."""
    if isinstance(value.get("uuid"), str) and isinstance(value.get("sessionId"), str):
        return True
    member = CLAUDE_CODE_UNTHREADED.get(kind)
    return member is not None and isinstance(value.get(member), str)


def detect(path: str | os.PathLike[str]) -> str:
    """HST-2: the host of the file at `path`, from its first value; E-HOST when none (ERR-13)."""
    from ..replay import BOM, open_log, parse_json

    name = os.fspath(path)
    if os.path.isdir(name):
        from .opencode_read import is_storage

        if is_storage(name):
            return OPENCODE  # OPC-1: a JSON storage folder
    if name.endswith(".md"):
        return CHAT_LOOP  # HST-2, BCL-1: a markdown session file; its reader checks the header
    if name.endswith(".json"):
        return json_host(path)

    with open_log(path) as stream:
        head = stream.read(PEEK)
        if head.startswith(b"SQLite format 3\x00"):
            return OPENCODE  # OPC-1: a SQLite database
        body = head[len(BOM) :] if head.startswith(BOM) else head
        start = len(body) - len(body.lstrip(b"\n"))
        first = body[start:]
        if first.startswith(b'{"kind"') and not _names_project_hash(first, stream):
            return VSCODE  # a VS Code entry; Gemini's record names `projectHash` (GEM-1)
    if b"\n" not in first:  # a long first line: read it whole (the scan above moved on)
        with open_log(path) as stream:
            first = stream.read(len(head)) + stream.readline()
            first = first[len(BOM) :] if first.startswith(BOM) else first
            first = first[len(first) - len(first.lstrip(b"\n")) :]
    line = first.split(b"\n", 1)[0]
    if not line:
        return VSCODE  # no entry at all: ERR-1
    try:
        value = parse_json(line, 1)
    except Rejection:
        value = _first_value(line)
        if value is None:
            return VSCODE  # not JSON: VS Code's rules reject it (ERR-3, ERR-9)
    host = classify(value)
    if host is None:
        raise Rejection(0, E_HOST, f"not a session of a known host ({', '.join(HOSTS)})")
    return host


def json_host(path: str | os.PathLike[str]) -> str:
    """HST-2, LEG-1, GEM-1: one JSON document is a VS Code session or export, unless it is a
    whole-file Gemini CLI chat. Only a document that names `projectHash` near its start is
    parsed here (Gemini CLI writes it second); every other `.json` is VS Code's, unread."""
    from ..replay import BOM, open_log
    from .gemini import is_chat_document

    with open_log(path) as stream:
        head = stream.read(PEEK)
        if b'"projectHash"' not in head:
            return VSCODE
        data = head + stream.read()
    try:
        import json

        value = json.loads(data[len(BOM) :] if data.startswith(BOM) else data)
    except (ValueError, RecursionError):
        return VSCODE  # VS Code's rules reject it (LEG-1, ERR-3)
    return GEMINI if is_chat_document(value) else VSCODE


def _names_project_hash(head: bytes, stream: Any) -> bool:
    """Whether the first line holds the bytes `"projectHash"`, read in chunks to its end.

    A first line that starts with `{"kind"` is VS Code's unless it is a Gemini CLI record, which
    names `projectHash` (GEM-1, checked before `kind` by HST-2). VS Code's first line can be
    hundreds of megabytes, so it is scanned in chunks, never held or parsed; the stream is left
    wherever the scan stopped."""
    key = b'"projectHash"'
    tail = b""
    chunk = head
    while True:
        window = tail + chunk.split(b"\n", 1)[0]
        if key in window:
            return True
        if b"\n" in chunk or not chunk:
            return False
        tail = window[-len(key) :]
        chunk = stream.read(PEEK)


def _first_value(line: bytes) -> Any:
    """The first of several glued values on a line (JSV-1), or None when it does not parse."""
    import json

    try:
        value, _ = json.JSONDecoder().raw_decode(line.decode("utf-8", "replace").lstrip(" \t\r"))
    except (ValueError, RecursionError):
        return None
    return value
