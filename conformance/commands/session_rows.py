"""One row of `rebootspec sessions`: count one found file, in a worker process, never raising.

Why apart from the listing: this is the function the process pool runs, so it must be a
top-level function of a module that imports quickly, and it must turn every failure of one file
into a warning on that file's row — a rejected log (its code), a file that vanished or changed
while it was read, a symbolic link loop, a bug — so a scan of thousands of files never stops.

The count is the reference's (`count_path`'s readers, the same functions); the title or first
message is read on the same pass, from the values the reader sees.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import Any

from ...reference import FAST_FROM_BYTES, count_vscode
from ...reference.count import count_state
from ...reference.errors import Notice, Rejection
from ...reference.finder import Found
from ...reference.hosts import CODEX, OPENCODE, VSCODE, codex, detect, pi
from ...reference.jsonvalues import iter_values
from ...reference.replay import load_path, open_regular

Row = dict[str, Any]
TITLE_CHARS = 200  # kept in a row; the table shortens further
E_READ = "E-READ"
E_INTERNAL = "E-INTERNAL"
W_CHANGED = "W-CHANGED"
READS = 2  # a file that changed while it was read is read once more (a live session)


def count_batch(items: list[Found]) -> list[Row]:
    """The rows of a batch of files (one task of the pool: fewer round trips than one a file)."""
    return [count_row(item) for item in items]


def count_row(item: Found) -> Row:
    """The row of one file; every failure is a warning on it, never an exception."""
    row: Row = {
        "host": item.host,
        "id": item.id,
        "title": "",
        "modified": None,
        "reboots": None,
        "warnings": [],
        "file": item.path,
        "size": None,
        "store": item.store,
    }
    try:
        _fill(row, item.path, item.id)
    except Rejection as rejection:  # ERR-10: the code, and where
        _warn(row, rejection.code, f"line {rejection.line}: {rejection.reason}")
    except FileNotFoundError:  # listed, then gone: deleted or moved (archived) meanwhile
        _warn(row, E_READ, "the file vanished while the scan ran")
    except OSError as error:
        _warn(row, E_READ, f"cannot read: {error.strerror or error}")
    except MemoryError:
        _warn(row, E_INTERNAL, "out of memory")
    except Exception as error:  # a bug in the reference, never the file's fault
        _warn(row, E_INTERNAL, f"internal error: {type(error).__name__}: {error}")
    return row


def _fill(row: Row, path: str, session: str) -> None:
    before = _stamp(path, row)
    for _ in range(READS):
        host, reboots, title, notices = _read(path, before[0], session)
        after = _stamp(path, row)
        if after == before:
            break
        before = after
    else:
        _warn(row, W_CHANGED, "the file changed while it was read (a live session?)")
    row["host"] = host
    row["reboots"] = reboots
    row["title"] = _shorten(title, TITLE_CHARS)
    for notice in notices:
        _warn(row, notice.code, notice.message)


def _stamp(path: str, row: Row) -> tuple[int, int]:
    info = os.stat(path)
    row["modified"] = info.st_mtime
    row["size"] = info.st_size
    return info.st_size, info.st_mtime_ns


def _read(path: str, size: int, session: str) -> tuple[str, int, str, list[Notice]]:
    """(host, reboots, title, warnings) of one file, by the reference's readers; an opencode
    store is counted for the session `session` of it (OPC-11)."""
    host = detect(path)
    if host == OPENCODE:
        from ...reference.hosts.opencode import count_opencode

        result = count_opencode(path, session)
        return host, result.reboots, "", result.notices
    if host == VSCODE:
        if size >= FAST_FROM_BYTES:  # the fast path answers; its title is not read
            fast = count_vscode(path)
            return host, fast.reboots, "", fast.notices
        replay = load_path(path)
        count = count_state(replay.state)
        return host, count.reboots, vscode_title(replay.state), [*replay.notices, *count.notices]
    notices: list[Notice] = []
    titles: list[str] = []
    with open_regular(path) as stream:
        values = _watch(iter_values(stream, notices), host, titles)
        result = codex.count_records(values) if host == CODEX else pi.count_records(values)
    return host, result.reboots, (titles or [""])[0], [*notices, *result.notices]


def vscode_title(state: dict[str, Any]) -> str:
    """The title VS Code shows (`customTitle`), else the first request's message."""
    title = state.get("customTitle")
    if isinstance(title, str) and title.strip():
        return title
    requests = state.get("requests")
    if isinstance(requests, list) and requests and isinstance(requests[0], dict):
        message = requests[0].get("message")
        if isinstance(message, dict) and isinstance(message.get("text"), str):
            return str(message["text"])
    return ""


def _watch(
    values: Iterable[tuple[int, Any]], host: str, titles: list[str]
) -> Iterator[tuple[int, Any]]:
    """Pass the reader's values through, noting the session's name or first user message.

    A name the user gave (pi's `session_info`) goes first; else the first user message.
    """
    first: str | None = None
    for line, value in values:
        if isinstance(value, dict):
            if host == CODEX:
                first = first or _codex_message(value)
            else:
                name = _pi_name(value)
                if name:
                    titles[:] = [name]
                first = first or _pi_message(value)
        yield line, value
    if not titles and first:
        titles.append(first)


def _codex_message(value: dict[str, Any]) -> str | None:
    payload = value.get("payload")
    if value.get("type") != "event_msg" or not isinstance(payload, dict):
        return None
    if payload.get("type") == "user_message" and isinstance(payload.get("message"), str):
        return str(payload["message"]) or None
    return None


def _pi_name(value: dict[str, Any]) -> str | None:
    name = value.get("name")
    if value.get("type") == "session_info" and isinstance(name, str) and name.strip():
        return name
    return None


def _pi_message(value: dict[str, Any]) -> str | None:
    message = value.get("message")
    if value.get("type") != "message" or not isinstance(message, dict):
        return None
    if message.get("role") != "user":
        return None
    content = message.get("content")
    if isinstance(content, str):
        return content or None
    if isinstance(content, list):
        texts = [p["text"] for p in content if isinstance(p, dict) and _is_text(p.get("text"))]
        return " ".join(texts) or None
    return None


def _is_text(value: Any) -> bool:
    return isinstance(value, str)


def _warn(row: Row, code: str, message: str) -> None:
    row["warnings"].append({"code": code, "message": message})


def _shorten(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
