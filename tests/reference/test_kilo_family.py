"""Kilo, a member of opencode's family (spec/hosts/kilo.md): opencode's reader under Kilo's name,
and a database told from opencode's by its rows (KLO-1), never by its name.

Why here besides the corpus cases: the corpus pins answers of fixed files; these tests change one
store between two counts in one process (the family's reading is remembered per file version)
and check that Kilo reuses opencode's reader instead of holding a copy of it.
"""

from __future__ import annotations

import shutil
import sqlite3
import tomllib
from pathlib import Path

import pytest

from rebootspec.reference import Rejection, count_path
from rebootspec.reference.core import registry

ROOT = Path(__file__).resolve().parents[2]
KILO_CASE = ROOT / "fixtures" / "GXMQ"  # Kilo 7.7.9's writer model (K1): two reboots
OPENCODE_CASE = ROOT / "fixtures" / "4J2L"  # opencode 1.18.33's, saved as kilo.db: two reboots


def _case(folder: Path) -> tuple[str, str, int]:
    meta = tomllib.loads((folder / "case.toml").read_text("utf-8"))
    return str(meta["input"]), str(meta["session"]), int(meta["expect"]["reboots"])


def _store(folder: Path, tmp_path: Path, name: str) -> tuple[Path, str, int]:
    given, session, reboots = _case(folder)
    target = tmp_path / name
    shutil.copyfile(folder / "input" / given, target)
    return target, session, reboots


def _change(path: Path, *statements: str) -> None:
    connection = sqlite3.connect(path)
    try:
        for statement in statements:
            connection.execute(statement)
        connection.commit()
    finally:
        connection.close()


def test_kilo_holds_no_reader_of_its_own() -> None:
    """HST-1: a family member reuses its owner's reader through the host interface."""
    package = ROOT / "reference" / "hosts" / "kilo"
    assert sorted(p.name for p in package.glob("*.py")) == ["__init__.py", "stores.py"]
    assert registry.get("kilo").family == "opencode"
    assert not (ROOT / "generators" / "hosts" / "kilo").exists()  # opencode's model plays K0, K1


def test_a_kilo_answer_carries_kilos_name_and_the_sessions_own_release(tmp_path: Path) -> None:
    store, session, reboots = _store(KILO_CASE, tmp_path, "copy.sqlite")
    connection = sqlite3.connect(f"file:{store}?mode=ro", uri=True)
    query = "SELECT version FROM session WHERE id = ?"
    (release,) = connection.execute(query, (session,)).fetchone()
    connection.close()
    answer = count_path(store, session=session)
    assert (answer.host, answer.reboots) == ("kilo", reboots)
    assert answer.to_json()["host_version"] == release


def test_the_rows_decide_and_a_changed_store_is_read_again(tmp_path: Path) -> None:
    """KLO-1: the same file, changed between two counts, is judged by its rows as they are."""
    store, session, reboots = _store(KILO_CASE, tmp_path, "kilo.db")
    assert (count_path(store, session=session).host, reboots) == ("kilo", 2)
    # opencode writes a session into it: both members' marks, attributed to neither.
    _change(
        store,
        "INSERT INTO session (id, project_id, slug, directory, title, version, time_created,"
        " time_updated) SELECT 'ses_other', project_id, slug, directory, title, '1.18.33',"
        f" time_created, time_updated FROM session WHERE id = '{session}'",
    )
    with pytest.raises(Rejection) as rejected:
        count_path(store, session=session)
    assert rejected.value.code == "E-HOST"


def test_an_opencode_store_named_kilo_db_is_opencodes(tmp_path: Path) -> None:
    store, session, reboots = _store(OPENCODE_CASE, tmp_path, "kilo.db")
    answer = count_path(store, session=session)
    assert (answer.host, answer.reboots) == ("opencode", reboots)
    # Kilo 7.7 opens it (KILO_DB): its tables make the store carry both members' marks.
    _change(store, "CREATE TABLE kilo_board (root_session_id text PRIMARY KEY)")
    with pytest.raises(Rejection) as rejected:
        count_path(store, session=session)
    assert rejected.value.code == "E-HOST"
