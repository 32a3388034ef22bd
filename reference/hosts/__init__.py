"""The host layer: which host wrote a file (HST-2), and that host's reader.

Each host has one small reader beside the core: VS Code's is the replay and count of the
package root (`replay.py`, `count.py`, spec/hosts/vscode.md); Codex's and pi's read records by
JSON value (`codex.py`, `pi.py`). Detection reads only the file's first value.
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
HOSTS = (VSCODE, CODEX, PI)  # HST-1, in spec/hosts.toml's order

# How much of the file detection reads before it parses a whole first line: a VS Code log's
# first line can be hundreds of megabytes, and its first member is `kind`.
PEEK = 1 << 16


def classify(value: Any) -> str | None:
    """HST-2: the host a first JSON value belongs to; None when no host claims it (HST-4)."""
    if not isinstance(value, dict):
        return VSCODE  # VS Code's rules reject it (ERR-4)
    if "kind" in value:
        return VSCODE
    kind = value.get("type")
    if kind == "session_meta" or (isinstance(kind, str) and isinstance(value.get("payload"), dict)):
        return CODEX
    if kind == "session":
        return PI
    if (
        kind is None
        and isinstance(value.get("id"), str)
        and isinstance(value.get("timestamp"), str)
    ):
        return CODEX  # CDX-1: the legacy rollout header of era C0
    return None


def detect(path: str | os.PathLike[str]) -> str:
    """HST-2: the host of the file at `path`, from its first value; E-HOST when none (ERR-13)."""
    from ..replay import BOM, open_regular, parse_json

    name = os.fspath(path)
    if name.endswith(".json"):
        return VSCODE  # LEG-1: one JSON document is a VS Code session or export
    with open_regular(path) as stream:
        head = stream.read(PEEK)
        body = head[len(BOM) :] if head.startswith(BOM) else head
        start = len(body) - len(body.lstrip(b"\n"))
        if body[start:].startswith(b'{"kind"'):
            return VSCODE
        first = body[start:]
        if b"\n" not in first:
            first += stream.readline()
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


def _first_value(line: bytes) -> Any:
    """The first of several glued values on a line (JSV-1), or None when it does not parse."""
    import json

    try:
        value, _ = json.JSONDecoder().raw_decode(line.decode("utf-8", "replace").lstrip(" \t\r"))
    except (ValueError, RecursionError):
        return None
    return value
