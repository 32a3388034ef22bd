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
from typing import Any

from ...reference.core.errors import Notice, Rejection, os_reason
from ...reference.core.registry import detect, get
from ...reference.sessions.finder import Found

Row = dict[str, Any]
TITLE_CHARS = 200  # kept in a row; the table shortens further
E_READ = "E-READ"
E_INTERNAL = "E-INTERNAL"
W_CHANGED = "W-CHANGED"
READS = 2  # a file that changed while it was read is read once more (a live session)


def count_batch(items: list[Found]) -> list[Row]:
    """The rows of a batch of files (one task of the pool: fewer round trips than one a file).

    The sessions of one store (an opencode database) come as one item each and are counted
    together, the store read once: its first item stands for all of them."""
    rows: list[Row] = []
    stores: dict[tuple[str, str], set[str]] = {}
    for item in items:
        if item.within:
            stores.setdefault((item.host, item.path), set()).add(item.id)
        else:
            rows.append(count_row(item))
    for (host, path), ids in stores.items():
        label = next(item.store for item in items if item.within and item.path == path)
        rows += [row for row in count_store(path, host, label) if row["id"] in ids or not row["id"]]
    return rows


def count_row(item: Found) -> Row:
    """The row of one file; every failure is a warning on it, never an exception."""
    row = _blank(item)
    try:
        _fill(row, item.path, item.id)
    except Rejection as rejection:  # ERR-10: the code, and where
        _warn(row, rejection.code, f"line {rejection.line}: {rejection.reason}")
        row["sources"] = list(rejection.sources)  # a chain's files it was read from
    except FileNotFoundError:  # listed, then gone: deleted or moved (archived) meanwhile
        _warn(row, E_READ, "the file vanished while the scan ran")
    except OSError as error:
        _warn(row, E_READ, f"cannot read: {os_reason(error)}")
    except MemoryError:
        _warn(row, E_INTERNAL, "out of memory")
    except Exception as error:  # a bug in the reference, never the file's fault
        _warn(row, E_INTERNAL, f"internal error: {type(error).__name__}: {error}")
    return row


def cache_key(item: Found) -> str:
    """What a row is kept under in the listing's cache: the file, or the store, it came from."""
    return "\0".join((item.host, item.store, item.path, "" if item.within else item.id))


# What a row carries for the listing's cache only, never shown: its key, and the other files its
# answer was read from (a chat-loop chain's earlier files, `Answer.sources`).
PRIVATE = ("cache_key", "sources")


def _blank(item: Found) -> Row:
    return {
        "cache_key": cache_key(item),
        "host": item.host,
        "id": item.id,
        "title": "",
        "modified": None,
        "reboots": None,
        "warnings": [],
        "file": item.path,
        "size": None,
        "store": item.store,
        "sources": [],
    }


def _fill(row: Row, path: str, session: str) -> None:
    before = _stamp(path, row)
    for _ in range(READS):
        host, reboots, title, notices, sources = _read(path, before[0], session)
        after = _stamp(path, row)
        if after == before:
            break
        before = after
    else:
        _warn(row, W_CHANGED, "the file changed while it was read (a live session?)")
    row["host"] = host
    row["id"] = get(host).session_ids(path, session)[0]  # a Gemini CLI chat's whole id
    row["reboots"] = reboots
    row["title"] = _shorten(title, TITLE_CHARS)
    row["sources"] = sources
    for notice in notices:
        _warn(row, notice.code, notice.message)


def _stamp(path: str, row: Row) -> tuple[int, int]:
    info = os.stat(path)
    row["modified"] = info.st_mtime
    row["size"] = info.st_size
    return info.st_size, info.st_mtime_ns


def _read(path: str, size: int, session: str) -> tuple[str, int, str, list[Notice], list[str]]:
    """(host, reboots, title, warnings, the other files read) of one file, by the host the
    registry detects and its own count (the same call `count` makes); a store is counted for
    the session `session` of it (OPC-11)."""
    host = detect(path)
    answer = host.count(path, session=session, with_title=True)
    return host.key, answer.reboots, answer.title, list(answer.notices), list(answer.sources)


def count_store(path: str, host_key: str, store: str) -> list[Row]:
    """The rows of every session of one store (an opencode database or storage folder), the
    store read once (one private copy of a database, OPC-12), whatever its size."""
    host = get(host_key)
    rows: list[Row] = []
    try:
        info = os.stat(path)
        answers = host.count_store(path)
    except Rejection as rejection:
        row = _blank(Found(host_key, store, "", path, True))
        _warn(row, rejection.code, f"line {rejection.line}: {rejection.reason}")
        return [row]
    except OSError as error:
        row = _blank(Found(host_key, store, "", path, True))
        _warn(row, E_READ, f"cannot read: {os_reason(error)}")
        return [row]
    for ident, title, answer in answers:
        row = _blank(Found(host_key, store, ident, path, True))
        row["modified"], row["size"] = info.st_mtime, info.st_size
        row["title"] = _shorten(title, TITLE_CHARS)
        if isinstance(answer, Rejection):
            _warn(row, answer.code, f"line {answer.line}: {answer.reason}")
        elif isinstance(answer, Exception):
            _warn(row, E_INTERNAL, f"internal error: {type(answer).__name__}: {answer}")
        else:
            row["reboots"] = answer.reboots
            for notice in answer.notices:
                _warn(row, notice.code, notice.message)
        rows.append(row)
    return rows


def _warn(row: Row, code: str, message: str) -> None:
    row["warnings"].append({"code": code, "message": message})


def _shorten(text: str, limit: int) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
