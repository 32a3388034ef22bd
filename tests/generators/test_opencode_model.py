"""The opencode writer model (generators/hosts/opencode*.py) and the stores it writes.

The expected counts come from the plans; these tests check the written stores against the
plans with a reading of their own (plain SQL over the tables, or the JSON files), never by
running the reference: the pairs that finished, the fork copies' times, where the WAL begins,
the layout of a storage folder, and that every build writes the same bytes.
"""

from __future__ import annotations

import json
import sqlite3
import struct
from pathlib import Path
from typing import Any

import pytest

from rebootspec.generators.hosts.opencode.files import StoreFiles, render
from rebootspec.generators.hosts.opencode.plan import (
    OcCompact,
    OcPrompt,
    OcSession,
    OcStore,
    expected_reboots,
)
from rebootspec.generators.hosts.opencode.scenarios import SCENARIOS
from rebootspec.generators.hosts.opencode.schema import PINNED_VERSION, WAL_SALTS, pin_wal

PAIRS = [(s, era) for s in SCENARIOS for era in s.eras]
IDS = [f"{s.name}/{e}" for s, e in PAIRS]
# OPC-3: the columns opencode's first migration gives the tables a session lives in.
COLUMNS = {
    "session": [
        "id", "project_id", "parent_id", "slug", "directory", "title", "version", "share_url",
        "summary_additions", "summary_deletions", "summary_files", "summary_diffs", "revert",
        "permission", "time_created", "time_updated", "time_compacting", "time_archived",
    ],
    "message": ["id", "session_id", "time_created", "time_updated", "data"],
    "part": ["id", "message_id", "session_id", "time_created", "time_updated", "data"],
}  # fmt: skip


def write(files: StoreFiles, folder: Path) -> Path:
    for name, data in files.files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return folder / files.input


def finished_pairs_sql(path: Path, session: str) -> int:
    """The session's own finished, error-free summaries whose parent holds a compaction part,
    by SQL alone (SQLite's JSON functions); a copy is older than its session."""
    query = """
        SELECT count(DISTINCT u.id) FROM message a
        JOIN message u ON u.id = json_extract(a.data, '$.parentID')
        JOIN part p ON p.message_id = u.id AND json_extract(p.data, '$.type') = 'compaction'
        JOIN session s ON s.id = a.session_id
        WHERE a.session_id = ? AND json_extract(a.data, '$.role') = 'assistant'
          AND json_extract(a.data, '$.summary') = 1
          AND json_extract(a.data, '$.finish') IS NOT NULL
          AND json_extract(a.data, '$.error') IS NULL
          AND json_extract(a.data, '$.time.created') >= s.time_created
    """
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(connection.execute(query, (session,)).fetchone()[0])
    finally:
        connection.close()


def storage_messages(root: Path, session: str) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((root / "message" / session).glob("*.json"))]


def finished_pairs_storage(root: Path, session: str) -> int:
    """The same reading over a storage folder; O0's summaries when the session has no pair."""
    info = json.loads(next((root / "session").glob(f"*/{session}.json")).read_text())
    messages = storage_messages(root, session)
    parts = {
        m["id"]: [json.loads(p.read_text()) for p in (root / "part" / m["id"]).glob("*.json")]
        for m in messages
    }
    compaction = {i for i, ps in parts.items() if any(p["type"] == "compaction" for p in ps)}
    own = [m for m in messages if m["time"]["created"] >= info["time"]["created"]]
    summaries = [m for m in own if m["role"] == "assistant" and m.get("summary") is True]
    if not compaction:
        aborted = [
            m
            for m in summaries
            if m.get("error", {}).get("name") == "MessageAbortedError"
            and any(p["type"] == "text" and p["text"] for p in parts[m["id"]])
        ]
        return len([m for m in summaries if "error" not in m]) + len(aborted)
    return len(
        {
            m["parentID"]
            for m in summaries
            if m.get("parentID") in compaction and m.get("finish") and "error" not in m
        }
    )


CLEAN = [
    (s, e) for s, e in PAIRS if s.name not in ("opencode-hostile-values", "opencode-other-sqlite")
]


@pytest.mark.parametrize(("scenario", "era"), CLEAN, ids=[f"{s.name}/{e}" for s, e in CLEAN])
def test_the_written_store_holds_what_the_plan_says(
    scenario: Any, era: str, tmp_path: Path
) -> None:
    store = scenario.plan(era)
    files = render(store)
    if store.damage in ("truncated", "not-a-database", "torn-json") or store.ask_missing:
        return  # rejected stores: their damage is checked below
    path = write(files, tmp_path)
    assert files.session is not None
    if files.input == "storage":
        got = finished_pairs_storage(path, files.session)
    else:
        got = finished_pairs_sql(path, files.session)
    assert got == expected_reboots(store)


@pytest.mark.parametrize(("scenario", "era"), PAIRS, ids=IDS)
def test_every_build_writes_the_same_bytes(scenario: Any, era: str) -> None:
    assert render(scenario.plan(era)).files == render(scenario.plan(era)).files


@pytest.mark.parametrize("era", ["O2", "O3"])
def test_a_database_has_opencodes_tables_and_a_pinned_header(era: str, tmp_path: Path) -> None:
    files = render(OcStore(era, (OcSession((OcPrompt(1),)),)))
    data = files.files["opencode.db"]
    assert data[:16] == b"SQLite format 3\x00"
    assert data[18:20] == b"\x02\x02"  # WAL mode, as opencode leaves it
    assert struct.unpack(">I", data[96:100])[0] == PINNED_VERSION
    connection = sqlite3.connect(write(files, tmp_path))
    for table, columns in COLUMNS.items():
        names = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
        assert names[: len(columns)] == columns
    connection.close()


def test_the_pinned_wal_is_still_a_valid_wal(tmp_path: Path) -> None:
    """The WAL's salts and checksums are set again: SQLite must still replay every frame, so
    the rows written after the checkpoint are visible, and only through the WAL."""
    steps = (OcPrompt(1), OcCompact("manual"), OcPrompt(1), OcCompact("auto"), OcPrompt(1))
    store = OcStore("O3", (OcSession(steps),), damage="wal-only")
    files = render(store)
    wal = files.files["opencode.db-wal"]
    assert struct.unpack(">II", wal[16:24]) == WAL_SALTS
    assert pin_wal(wal) == wal

    def messages(path: Path) -> int:
        connection = sqlite3.connect(path)
        try:
            return int(connection.execute("SELECT count(*) FROM message").fetchone()[0])
        finally:
            connection.close()

    with_wal = messages(write(files, tmp_path / "with"))
    written = {r.id for s in files.writer.sessions for r in s.writes if r.table == "message"}
    assert with_wal == len(written)
    only_db = tmp_path / "without" / "opencode.db"
    only_db.parent.mkdir()
    only_db.write_bytes(files.files["opencode.db"])
    without = messages(only_db)
    assert without < with_wal


def test_storage_files_are_opencodes_layout(tmp_path: Path) -> None:
    """OPC-1, OPC-3: session/<project>/<id>.json, message/<session>/<id>.json,
    part/<message>/<id>.json, each `JSON.stringify(value, null, 2)` without a final newline."""
    files = render(OcStore("O1", (OcSession((OcPrompt(1), OcCompact(), OcPrompt(1))),)))
    assert files.input == "storage"
    for name, data in files.files.items():
        kind, folder, file = name.split("/")[1:]
        value = json.loads(data)
        assert not data.endswith(b"\n") and data.startswith(b"{\n  ")
        assert file == value["id"] + ".json"
        if kind == "message":
            assert folder == value["sessionID"]
        elif kind == "part":
            assert folder == value["messageID"]
        else:
            assert kind == "session" and folder == value["projectID"]


def test_a_fork_copies_every_message_with_its_time(tmp_path: Path) -> None:
    """OPC-9: new ids, the source's time.created, a session created after every copy."""
    source = OcSession((OcPrompt(1), OcCompact(), OcPrompt(1)), title="source")
    store = OcStore("O2", (source, OcSession((OcPrompt(1),), fork_of=source)), selected=1)
    files = render(store)
    connection = sqlite3.connect(write(files, tmp_path))
    rows = connection.execute(
        "SELECT s.id, s.time_created, m.id, m.time_created, m.data FROM message m"
        " JOIN session s ON s.id = m.session_id ORDER BY m.time_created, m.id"
    ).fetchall()
    connection.close()
    fork = [r for r in rows if r[0] == files.session]
    original = [r for r in rows if r[0] != files.session]
    copies = [r for r in fork if r[3] < r[1]]
    assert [r[3] for r in copies] == [r[3] for r in original]
    assert not {r[2] for r in copies} & {r[2] for r in original}
    assert [json.loads(r[4])["role"] for r in copies] == [
        json.loads(r[4])["role"] for r in original
    ]
