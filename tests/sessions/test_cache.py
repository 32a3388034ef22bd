"""The listing's cache: a second `sessions` counts nothing unchanged, and never trusts a change.

Expected counts are the corpus cases' own (`case.toml`), never a previous run's output.
"""

from __future__ import annotations

import io
import os
import shutil
import stat
from pathlib import Path

import orjson
import pytest

from rebootspec.conformance.commands import session_rows
from rebootspec.conformance.commands import sessions as sessions_command
from rebootspec.conformance.commands.sessions_cache import CACHE_ENV, FILE_NAME
from tests.sessions.fake_homes import (
    CODEX_CASE,
    FIXTURES,
    PI_CASE,
    FakeHome,
    expected,
    make_home,
    use,
)

ZERO_CODEX = "2ZDA"  # a Codex rollout whose expected count differs from CODEX_CASE's


def listing() -> dict[str, dict[str, object]]:
    out, err = io.StringIO(), io.StringIO()
    assert sessions_command.cli(["--json", "--jobs", "1"], out, err) == 0, err.getvalue()
    rows = [orjson.loads(line) for line in out.getvalue().splitlines()]
    return {str(row["id"]): row for row in rows}


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> FakeHome:
    fake = make_home(tmp_path)
    fake.add_codex("019c8a59-e9dd-71f0-9ae3-4079fe9726a9")
    fake.add_pi("0b6a1f4e-2c3d-4e5f-8a9b-1c2d3e4f5a6b")
    fake.add_opencode()
    use(fake, monkeypatch)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    return fake


def _no_counting(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> object:
        raise AssertionError("counted again although nothing changed")

    monkeypatch.setattr(session_rows, "count_row", refuse)
    monkeypatch.setattr(session_rows, "count_store", refuse)


def test_a_second_listing_with_nothing_changed_counts_nothing(
    home: FakeHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = listing()
    assert (
        first["019c8a59-e9dd-71f0-9ae3-4079fe9726a9"]["reboots"] == expected(CODEX_CASE)["reboots"]
    )
    _no_counting(monkeypatch)
    assert listing() == first


def test_a_changed_file_is_counted_again(home: FakeHome, tmp_path: Path) -> None:
    listing()
    (rollout,) = (home.home / ".codex").rglob("rollout-*.jsonl")
    before = rollout.stat()
    shutil.copyfile(FIXTURES / ZERO_CODEX / "session.jsonl", rollout)
    os.utime(rollout, ns=(before.st_atime_ns, before.st_mtime_ns + 10**9))
    row = listing()["019c8a59-e9dd-71f0-9ae3-4079fe9726a9"]
    assert row["reboots"] == expected(ZERO_CODEX)["reboots"] != expected(CODEX_CASE)["reboots"]


def test_a_deleted_cache_is_rebuilt_and_private(
    home: FakeHome, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = listing()
    cache = tmp_path / "cache" / FILE_NAME
    assert stat.S_IMODE(cache.parent.stat().st_mode) == 0o700
    cache.unlink()
    assert listing() == first
    assert cache.exists()
    _no_counting(monkeypatch)
    assert (
        listing()["0b6a1f4e-2c3d-4e5f-8a9b-1c2d3e4f5a6b"]["reboots"] == expected(PI_CASE)["reboots"]
    )


def test_a_damaged_cache_is_ignored(home: FakeHome, tmp_path: Path) -> None:
    first = listing()
    (tmp_path / "cache" / FILE_NAME).write_bytes(b"{not json")
    assert listing() == first
