"""The opencode reader (reference/hosts/opencode/reader.py, store.py; spec/hosts/opencode.md).

Every expected count comes from a store plan (generators/hosts/opencode_plan.py) or from the
chapter's rules written out here by hand, never from running the reference. The stores are
written by the generator's model of opencode's writer into temporary folders.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
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
    expected_rejection,
)
from rebootspec.generators.hosts.opencode.scenarios import SCENARIOS
from rebootspec.reference import count_path
from rebootspec.reference.core.answer import RecordCount
from rebootspec.reference.core.errors import Rejection
from rebootspec.reference.core.registry import detect
from rebootspec.reference.hosts.opencode.reader import js_truthy

OPENCODE = "opencode"

PAIRS = [(s, era) for s in SCENARIOS for era in s.eras]


def write(files: StoreFiles, folder: Path) -> Path:
    """The store's files under `folder`; the path the counter gets."""
    for name, data in files.files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return folder / files.input


def answer(path: Path, session: str | None) -> int | str:
    """The count, or the rejection's code."""
    try:
        result = count_path(path, session=session)
    except Rejection as rejection:
        return rejection.code
    assert isinstance(result, RecordCount)
    return result.reboots


def tree(folder: Path) -> dict[str, tuple[int, str]]:
    """Every file under `folder`: its mode and the digest of its bytes."""
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            out[str(path.relative_to(folder))] = (path.stat().st_mode, digest)
    return out


@pytest.mark.parametrize(("scenario", "era"), PAIRS, ids=[f"{s.name}/{e}" for s, e in PAIRS])
def test_each_scenario_counts_as_its_plan_says(scenario: Any, era: str, tmp_path: Path) -> None:
    store = scenario.plan(era)
    files = render(store)
    path = write(files, tmp_path)
    assert answer(path, files.session) == (expected_rejection(store) or expected_reboots(store))


@pytest.mark.parametrize("era", ["O1", "O2", "O3"])
def test_the_store_is_never_changed_not_even_beside_the_database(era: str, tmp_path: Path) -> None:
    """OPC-12: no file of the store changes and none appears (no -shm, no -wal)."""
    damage = "wal-only" if era != "O1" else "none"
    store = OcStore(era, (OcSession((OcPrompt(1), OcCompact(), OcPrompt(1))),), damage=damage)
    files = render(store)
    path = write(files, tmp_path)
    for file in tmp_path.rglob("*"):
        if file.is_file():
            file.chmod(0o444)
    before = tree(tmp_path)
    assert answer(path, files.session) == 1
    assert tree(tmp_path) == before


def test_committed_writes_in_the_wal_are_counted(tmp_path: Path) -> None:
    """OPC-12: the second compaction lives only in opencode.db-wal; without that file the
    database holds the first one only."""
    steps = (OcPrompt(1), OcCompact("manual"), OcPrompt(1), OcCompact("auto"), OcPrompt(1))
    store = OcStore("O3", (OcSession(steps),), damage="wal-only")
    files = render(store)
    path = write(files, tmp_path)
    assert answer(path, files.session) == 2
    (tmp_path / "opencode.db-wal").unlink()
    assert answer(path, files.session) == 1


def test_a_database_locked_by_opencode_is_still_read(tmp_path: Path) -> None:
    """OPC-12: a writer holding an exclusive lock does not stop the count (the copy takes no
    lock), and the count is of the committed content."""
    steps = (OcPrompt(1), OcCompact("manual"), OcPrompt(1))
    store = OcStore("O2", (OcSession(steps),))
    files = render(store)
    path = write(files, tmp_path)
    holder = sqlite3.connect(path, isolation_level=None)
    try:
        holder.execute("PRAGMA journal_mode = DELETE")
        holder.execute("BEGIN EXCLUSIVE")
        holder.execute("UPDATE session SET title = 'busy'")
        with pytest.raises(sqlite3.OperationalError):
            sqlite3.connect(path, timeout=0).execute("SELECT count(*) FROM message").fetchone()
        assert answer(path, files.session) == 1
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_sessions_are_chosen_by_id_and_never_guessed(tmp_path: Path) -> None:
    """OPC-11: each session of a store by its id; no id and several sessions is E-SESSION;
    no id and one session is that session."""
    plans = (
        OcSession((OcPrompt(1), OcCompact(), OcPrompt(1)), title="one"),
        OcSession((OcPrompt(1),), title="none"),
        OcSession((OcPrompt(1), OcCompact(), OcCompact("manual")), title="two"),
    )
    for era in ("O1", "O2"):
        for index in range(3):
            store = OcStore(era, plans, selected=index, seed=index)
            files = render(store)
            path = write(files, tmp_path / f"{era}-{index}")
            assert answer(path, files.session) == expected_reboots(store) == [1, 0, 2][index]
            assert answer(path, None) == "E-SESSION"
        single = OcStore(era, plans[2:], selected=None)
        path = write(render(single), tmp_path / f"{era}-single")
        assert answer(path, None) == 2


def test_detection_of_a_database_and_a_storage_folder(tmp_path: Path) -> None:
    """OPC-1, HST-2: a file with SQLite's header, a folder with session/ and message/."""
    for era, name in (("O2", "db"), ("O1", "folder")):
        files = render(OcStore(era, (OcSession((OcPrompt(1),)),)))
        assert detect(write(files, tmp_path / name)).key == OPENCODE
    other = tmp_path / "other"
    other.mkdir()
    assert answer(other, None) == "E-READ"  # ERR-12: a folder that is no store


def _database(tmp_path: Path, data: str, part: str = '{"type":"compaction"}') -> Path:
    """A minimal store of one session: a compaction user message and a summary whose data
    column is `data`."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "opencode.db"
    connection = sqlite3.connect(path)
    connection.executescript(
        "CREATE TABLE session (id text, time_created integer, version text);"
        "CREATE TABLE message (id text, session_id text, time_created integer, data text);"
        "CREATE TABLE part (id text, message_id text, session_id text, data text);"
        "INSERT INTO session VALUES ('ses_a', 1000, '1.2.1');"
        "INSERT INTO message VALUES ('msg_1', 'ses_a', 2000, '{\"role\":\"user\"}');"
    )
    connection.execute("INSERT INTO part VALUES ('prt_1', 'msg_1', 'ses_a', ?)", (part,))
    connection.execute("INSERT INTO message VALUES ('msg_2', 'ses_a', 3000, ?)", (data,))
    connection.commit()
    connection.close()
    return path


SUMMARY = {"role": "assistant", "parentID": "msg_1", "summary": True, "finish": "stop"}


@pytest.mark.parametrize(
    ("members", "expected"),
    [
        ({}, 1),
        ({"finish": "unknown"}, 1),  # OPC-7
        ({"finish": None}, 0),
        ({"error": {"name": "APIError"}}, 0),  # OPC-6
        ({"error": {}}, 0),  # an empty object is set
        ({"error": None}, 1),
        ({"summary": "yes"}, 1),  # JavaScript finds a non-empty string true
        ({"summary": 0}, 0),
        ({"summary": []}, 1),
        ({"parentID": {"id": "msg_1"}}, 0),
        ({"parentID": ["msg_1"]}, 0),
        ({"role": ["assistant"]}, 0),
        ({"finish": ""}, 0),
    ],
)
def test_members_are_judged_as_opencode_judges_them(
    members: dict[str, Any], expected: int, tmp_path: Path
) -> None:
    """OPC-4, OPC-12: written out by hand from the chapter, one member changed at a time."""
    path = _database(tmp_path, json.dumps({**SUMMARY, **members}))
    assert answer(path, "ses_a") == expected


@pytest.mark.parametrize(
    ("data", "part", "expected"),
    [
        ("[]", '{"type":"compaction"}', 0),
        ('"text"', '{"type":"compaction"}', 0),
        ("7", '{"type":"compaction"}', 0),
        ("null", '{"type":"compaction"}', 0),
        (json.dumps(SUMMARY), '{"type":["compaction"]}', 0),
        (json.dumps(SUMMARY), "[]", 0),
        (json.dumps(SUMMARY), "{not json", "E-READ"),
        ("{not json", '{"type":"compaction"}', "E-READ"),
        (json.dumps(SUMMARY), "[" * 2000 + "]" * 2000, "E-LIMIT"),
        # JSON.parse reads a lone surrogate and a number too big for a double; so does this
        (
            json.dumps({**SUMMARY, "note": "\\ud800"}).replace("\\\\", "\\"),
            '{"type":"compaction"}',
            1,
        ),
        (json.dumps(SUMMARY)[:-1] + ',"cost":1e400}', '{"type":"compaction"}', 1),
        (json.dumps(SUMMARY), '{"type":"compaction"} x', "E-READ"),
        (json.dumps(SUMMARY), '{"type":"compaction","cost":NaN}', "E-READ"),
    ],
)
def test_rows_of_other_types_and_rows_that_do_not_parse(
    data: str, part: str, expected: int | str, tmp_path: Path
) -> None:
    """OPC-12: a row that is JSON but no object is no message or part; one opencode cannot
    parse makes the session unreadable; nesting past 1024 levels is E-LIMIT."""
    assert answer(_database(tmp_path, data, part), "ses_a") == expected


def test_text_that_is_not_utf8_is_read_with_replacement_characters(tmp_path: Path) -> None:
    """OPC-12: bytes that are not UTF-8 in a data column do not make the session unreadable."""
    path = _database(tmp_path, json.dumps(SUMMARY))
    connection = sqlite3.connect(path)
    odd = json.dumps({**SUMMARY, "note": "x"}).encode().replace(b'"x"', b'"\xff\xfe"')
    connection.execute("UPDATE message SET data = CAST(? AS TEXT) WHERE id = 'msg_2'", (odd,))
    connection.commit()
    connection.close()
    assert answer(path, "ses_a") == 1


def test_a_sqlite_database_of_another_program_is_no_host(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    connection = sqlite3.connect(path)
    connection.execute("CREATE TABLE notes (body text)")
    connection.commit()
    connection.close()
    assert answer(path, None) == "E-HOST"


def test_garbage_after_the_header_and_a_cut_database_are_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "opencode.db"
    path.write_bytes(b"SQLite format 3\x00" + bytes(range(256)) * 16)
    assert answer(path, "ses_a") == "E-READ"
    whole = _database(tmp_path / "whole", json.dumps(SUMMARY))
    cut = tmp_path / "cut.db"
    cut.write_bytes(whole.read_bytes()[:4096])
    assert answer(cut, "ses_a") == "E-READ"


@pytest.mark.parametrize(
    ("value", "truth"),
    [
        (None, False), (False, False), (0, False), (0.0, False), ("", False),
        (True, True), (1, True), (-1.5, True), ("0", True), ("false", True), ([], True),
        ({}, True), ([0], True),
    ],
)  # fmt: skip
def test_javascript_truthiness(value: Any, truth: bool) -> None:
    assert js_truthy(value) is truth


def test_random_member_values_never_crash_the_reader(tmp_path: Path) -> None:
    """OPC-12: any JSON value in any member the count reads gives a count of 0 or 1 (one
    pair at most) or a rejection, never an exception of another kind."""
    rng = random.Random(7)
    values: list[Any] = [None, True, False, 0, 1, -2.5, "", "x", "stop", [], [1], {}, {"a": 1}]
    values += ["msg_1", {"name": "MessageAbortedError"}, 10**30]
    for index in range(40):
        members = {
            key: rng.choice(values)
            for key in ("role", "parentID", "summary", "finish", "error", "time")
            if rng.random() < 0.5
        }
        part = json.dumps({"type": rng.choice(values)})
        path = _database(tmp_path / str(index), json.dumps({**SUMMARY, **members}), part)
        assert answer(path, "ses_a") in (0, 1)
        os.remove(path)


def _harvested() -> list[dict[str, Any]]:
    """The opencode entries of the harvest manifest (stores the real programs wrote)."""
    from rebootspec.generators.harvest import corpus

    if not corpus.available():
        return []
    return [e for e in corpus.entries() if e["host"] == "opencode"]


@pytest.mark.parametrize(
    "entry", _harvested(), ids=[f"{e['file']}/{e['role']}" for e in _harvested()]
)
def test_stores_the_real_programs_wrote_count_as_their_scripts_caused(
    entry: dict[str, Any], tmp_path: Path
) -> None:
    """Each harvested session counts what the harvest script caused (its `expected`, from the
    script's plan and the scripted model's log), on a copy of the store."""
    import shutil

    from rebootspec.generators.harvest import corpus

    shutil.copytree(corpus.source(entry), tmp_path / "store")  # the case's input/
    assert answer(tmp_path / "store" / entry["input"], entry["session"]) == entry["expected"]
