"""An opencode store as files: a SQLite database (eras O2, O3) or a JSON storage folder (O0,
O1), with the damage the plan asks for (OPC-1, OPC-12).

The database gets one transaction per write, as opencode's `updateMessage` / `updatePart`
each write one row; the storage folder gets each row's last state, one file a row, written as
opencode's storage layer writes it (`JSON.stringify(value, null, 2)`, no final newline).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from .plan import KILO_ERAS, OcStore, base_era
from .schema import Write, database, last_commit_size, schema
from .writer import PROJECT, Row, Writer, Written, play, selected

PAGE = 4096


@dataclass
class StoreFiles:
    """The files of a case's `input/` folder, which of them is the input, and the session."""

    files: dict[str, bytes]
    input: str
    session: str | None
    writer: Writer


def render(store: OcStore) -> StoreFiles:
    """The plan's store as files (`input` names the database file or the storage folder)."""
    writer = play(store)
    session = None if store.selected is None and not store.ask_missing else selected(writer)
    if base_era(store.era) in ("O0", "O1"):
        files = storage_files(writer)
        if store.damage == "torn-json":
            files = _tear(files, session)
        return StoreFiles(files, "storage", session, writer)
    writes = sqlite_writes(writer)
    if store.damage in ("wal-only", "wal-torn"):
        first = _last_compaction_write(writer, writes)
        files = database(schema(store.era), [w for w, _ in writes], wal_from=first)
        if store.damage == "wal-torn":
            last = writes[-1][1]  # the cut must take exactly a summary's finishing write
            if last is None or not {"summary", "finish"} <= set(last.data):
                raise ValueError("a wal-torn store must end with a finished summary")
            cut = last_commit_size(files["opencode.db-wal"])
            files["opencode.db-wal"] = files["opencode.db-wal"][:-cut]
    else:
        files = database(schema(store.era), [w for w, _ in writes])
    if store.damage == "truncated":
        files["opencode.db"] = files["opencode.db"][:PAGE]
    elif store.damage == "not-a-database":
        files["opencode.db"] = b"SQLite format 3\x00" + b"\xff" * (PAGE - 16)
    name = store.name or (
        "kilo.db" if store.era in KILO_ERAS else "opencode.db"
    )  # kilo.md, "Where it lives"
    files = {name + key[len("opencode.db") :]: data for key, data in files.items()}
    return StoreFiles(files, name, session, writer)


# -- the database ---------------------------------------------------------------------------


def sqlite_writes(writer: Writer) -> list[tuple[Write, Row | None]]:
    """Every write of the store in time order: the project, each session row, its rows."""
    writes: list[tuple[Write, Row | None]] = [(_project(writer), None)]
    for session in writer.sessions:
        writes.append((_session_row(session), None))
        seen: set[str] = set()
        for row in session.writes:
            writes.append((_row_write(row, row.id in seen), row))
            seen.add(row.id)
    return writes


def _project(writer: Writer) -> Write:
    created = writer.sessions[0].info["time"]["created"] if writer.sessions else 0

    def write(connection: sqlite3.Connection) -> None:
        connection.execute(
            "INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes)"
            " VALUES (?, ?, 'git', ?, ?, '[]')",
            (PROJECT, "/home/dev/project", created, created),
        )

    return write


def _session_row(session: Written) -> Write:
    info = session.info
    revert = _compact(info["revert"]) if "revert" in info else None

    def write(connection: sqlite3.Connection) -> None:
        connection.execute(
            "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version,"
            " revert, time_created, time_updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                info["id"], PROJECT, session.parent, info["slug"], info["directory"],
                info["title"], info["version"], revert, info["time"]["created"],
                info["time"]["updated"],
            ),
        )  # fmt: skip

    return write


def _row_write(row: Row, again: bool) -> Write:
    """One `updateMessage` / `updatePart`: insert the row, or replace its data."""
    data = _compact(row.data)
    table = "message" if row.table == "message" else "part"

    def write(connection: sqlite3.Connection) -> None:
        if again:
            connection.execute(f"UPDATE {table} SET data = ? WHERE id = ?", (data, row.id))
        elif table == "message":
            connection.execute(
                "INSERT INTO message VALUES (?, ?, ?, ?, ?)",
                (row.id, row.session, row.created, row.created, data),
            )
        else:
            connection.execute(
                "INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)",
                (row.id, row.message, row.session, row.created, row.created, data),
            )

    return write


def _last_compaction_write(writer: Writer, writes: list[tuple[Write, Row | None]]) -> int:
    """The index of the first write of the store's last compaction: from there on, the
    writes stay in the WAL (OPC-12)."""
    for index in range(len(writes) - 1, -1, -1):
        row = writes[index][1]
        if row is not None and row.table == "part" and _is_compaction(row.data):
            return index - 1  # its user message was written just before its part
    raise ValueError("a WAL case needs a compaction")


def _is_compaction(data: Any) -> bool:
    return isinstance(data, dict) and data.get("type") == "compaction"


def _compact(value: Any) -> str:
    """`JSON.stringify(value)`."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# -- the storage folder ---------------------------------------------------------------------


def storage_files(writer: Writer) -> dict[str, bytes]:
    """`storage/session/<project>/<id>.json`, `storage/message/<session>/<id>.json`,
    `storage/part/<message>/<id>.json`: each row's last state."""
    files: dict[str, bytes] = {}
    for session in writer.sessions:
        files[f"storage/session/{PROJECT}/{session.id}.json"] = _pretty(session.info)
        for row in session.latest().values():
            if row.table == "message":
                value: Any = row.data
                if isinstance(value, dict):
                    value = {"id": row.id, "sessionID": row.session, **value}
                files[f"storage/message/{row.session}/{row.id}.json"] = _pretty(value)
            else:
                ids = {"id": row.id, "sessionID": row.session, "messageID": row.message}
                files[f"storage/part/{row.message}/{row.id}.json"] = _pretty({**ids, **row.data})
    return files


def _tear(files: dict[str, bytes], session: str | None) -> dict[str, bytes]:
    """A message file of the session cut short while it was written (OPC-12)."""
    name = max(f for f in files if f.startswith(f"storage/message/{session}/"))
    files[name] = files[name][: len(files[name]) // 2]
    return files


def _pretty(value: Any) -> bytes:
    """`JSON.stringify(value, null, 2)`."""
    return json.dumps(value, ensure_ascii=False, indent=2).encode("utf-8")
