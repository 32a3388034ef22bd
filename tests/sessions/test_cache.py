"""The listing's cache: a second `sessions` counts nothing unchanged, and never trusts a change.

Expected counts are the corpus cases' own (`case.toml`), never a previous run's output.
"""

from __future__ import annotations

import io
import os
import shutil
import stat
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest

from rebootspec.conformance.commands import session_rows, sessions_cache
from rebootspec.conformance.commands import sessions as sessions_command
from rebootspec.conformance.commands.sessions_cache import CACHE_ENV, FILE_NAME
from tests.sessions.fake_homes import (
    CHAT_LOOP_CASE,
    CODEX_CASE,
    FIXTURES,
    PI_CASE,
    ROOT,
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


# --- issue 43, defect 4: a cache that is a cache ----------------------------------------------

CODEX_ID = "019c8a59-e9dd-71f0-9ae3-4079fe9726a9"
PI_ID = "0b6a1f4e-2c3d-4e5f-8a9b-1c2d3e4f5a6b"


def listing_with(argv: list[str]) -> tuple[dict[str, dict[str, object]], str]:
    out, err = io.StringIO(), io.StringIO()
    assert sessions_command.cli(["--json", "--jobs", "1", *argv], out, err) == 0, err.getvalue()
    rows = [orjson.loads(line) for line in out.getvalue().splitlines()]
    return {str(row["id"]): row for row in rows}, err.getvalue()


def fresh() -> dict[str, dict[str, object]]:
    """The listing with every session counted again: what the cache must never contradict."""
    return listing_with(["--no-cache"])[0]


def edit_cache(path: Path, change: Callable[[dict[str, Any]], None], reseal: bool = False) -> None:
    """Change the cached rows as a person with an editor would; `reseal` also writes the
    digest that matches the change (a forged file: only the row checks are left)."""
    data = orjson.loads(path.read_bytes())
    for entry in data["entries"].values():
        for row in entry["rows"]:
            change(row)
    if reseal:
        data["digest"] = sessions_cache.digest(data["entries"])
    path.write_bytes(orjson.dumps(data))


def _set(name: str, value: object) -> Callable[[dict[str, Any]], None]:
    def change(row: dict[str, Any]) -> None:
        row[name] = value

    return change


def _code(row: dict[str, Any]) -> None:
    row["warnings"] = [{"code": "W-\x1b[31mRED", "message": "x"}]


EDITS = {
    "99": _set("reboots", 99),
    "-5": _set("reboots", -5),
    "lots": _set("reboots", "lots"),
    "1e308": _set("reboots", 1e308),
    "a-true": _set("reboots", True),
    "escape-in-a-code": _code,
    "modified-yesterday": _set("modified", "yesterday"),
    "title-a-number": _set("title", 7),
    "another-file": _set("file", "/etc/passwd"),
}
# A row a forger could write with the matching digest is still checked: all but a count that
# is a plausible number.
FORGED = sorted(set(EDITS) - {"99"})


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edited_cache_is_never_believed(home: FakeHome, tmp_path: Path, edit: str) -> None:
    before = listing()
    edit_cache(tmp_path / "cache" / FILE_NAME, EDITS[edit])
    assert listing() == before == fresh()


@pytest.mark.parametrize("edit", FORGED)
def test_a_row_that_is_no_row_is_counted_again(home: FakeHome, tmp_path: Path, edit: str) -> None:
    before = listing()
    edit_cache(tmp_path / "cache" / FILE_NAME, EDITS[edit], reseal=True)
    assert listing() == before == fresh()


def test_a_row_of_the_wrong_type_is_rebuilt_and_no_cache_never_crashes(
    home: FakeHome, tmp_path: Path
) -> None:
    """`"modified": "yesterday"` crashed every later run until the file was deleted."""
    before = listing()
    cache = tmp_path / "cache" / FILE_NAME
    edit_cache(cache, _set("modified", "yesterday"), reseal=True)
    assert fresh() == before  # --no-cache: never reads it
    assert listing() == before  # the cached listing: counts it again
    rows = [r for e in orjson.loads(cache.read_bytes())["entries"].values() for r in e["rows"]]
    assert rows and all(isinstance(row["modified"], float) for row in rows)  # rebuilt


@pytest.mark.parametrize("cut", [1, 100, -1])
def test_a_truncated_cache_is_rebuilt(home: FakeHome, tmp_path: Path, cut: int) -> None:
    before = listing()
    cache = tmp_path / "cache" / FILE_NAME
    cache.write_bytes(cache.read_bytes()[:cut])
    assert listing() == before
    assert orjson.loads(cache.read_bytes())["entries"]  # whole again


def test_a_huge_cache_file_is_not_read(home: FakeHome, tmp_path: Path) -> None:
    """A cache file is read up to a bound (a 1 GiB sparse file costs nothing)."""
    before = listing()
    cache = tmp_path / "cache" / FILE_NAME
    os.truncate(cache, 2**30)
    started = time.perf_counter()
    assert listing() == before
    assert time.perf_counter() - started < 20
    assert cache.stat().st_size < sessions_cache.MAX_BYTES


def _planted(tmp_path: Path) -> None:
    """A row saying 42 for every session, sealed: what another user could leave."""
    edit_cache(tmp_path / "cache" / FILE_NAME, _set("reboots", 42), reseal=True)


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes and owners")
def test_a_cache_folder_others_can_write_is_not_used(home: FakeHome, tmp_path: Path) -> None:
    listing()
    folder = tmp_path / "cache"
    _planted(tmp_path)
    folder.chmod(0o777)
    rows, err = listing_with([])
    assert rows[CODEX_ID]["reboots"] == expected(CODEX_CASE)["reboots"] != 42
    warned = [line for line in err.splitlines() if "cache folder" in line]
    assert len(warned) == 1 and "written by other users" in warned[0]


@pytest.mark.skipif(os.name != "posix" or os.geteuid() != 0, reason="chown needs root")
def test_a_cache_folder_of_another_user_is_not_used(home: FakeHome, tmp_path: Path) -> None:
    listing()
    folder = tmp_path / "cache"
    _planted(tmp_path)
    os.chown(folder, 4242, 4242)
    os.chown(folder / FILE_NAME, 4242, 4242)
    rows, err = listing_with([])
    assert rows[PI_ID]["reboots"] == expected(PI_CASE)["reboots"] != 42
    assert "another user" in err


@pytest.mark.skipif(os.name != "posix", reason="symbolic links")
def test_a_symlinked_cache_file_is_not_read(home: FakeHome, tmp_path: Path) -> None:
    listing()
    cache = tmp_path / "cache" / FILE_NAME
    _planted(tmp_path)
    elsewhere = tmp_path / "planted.json"
    cache.rename(elsewhere)
    cache.symlink_to(elsewhere)
    planted = elsewhere.read_bytes()
    assert listing()[CODEX_ID]["reboots"] == expected(CODEX_CASE)["reboots"] != 42
    assert elsewhere.read_bytes() == planted  # never written through the link either


def test_a_chain_whose_earlier_file_was_removed_is_counted_again(
    home: FakeHome, tmp_path: Path
) -> None:
    """A chat-loop row is keyed on every file of its chain: removing the first session makes
    the later two unwalkable (BCL-6), as `count` says."""
    from rebootspec.reference.cli import main

    asked, newest = home.add_chat_loop(tmp_path)
    middle, oldest = "harvest_20261125_034838", "harvest_20261125_034832"
    first = listing()
    assert first[newest]["reboots"] == expected(CHAT_LOOP_CASE)["reboots"]
    assert "sources" not in first[newest]  # the cache's own, never shown
    (asked.parent / f"{oldest}.md").unlink()
    err = io.StringIO()
    assert main(["count", str(asked)], out=io.StringIO(), err=err) == 1
    assert "E-CHAIN" in err.getvalue()
    after = listing()
    for sid in (newest, middle):
        assert after[sid]["reboots"] is None
        assert [w["code"] for w in after[sid]["warnings"]] == ["E-CHAIN"]  # type: ignore[union-attr]
    assert after == fresh()


def test_a_removed_link_put_back_is_counted_again(home: FakeHome, tmp_path: Path) -> None:
    """A rejected chain is keyed on the file it missed: when it comes back, so does the count."""
    asked, newest = home.add_chat_loop(tmp_path)
    oldest = asked.parent / "harvest_20261125_034832.md"
    kept = oldest.read_bytes()
    oldest.unlink()
    assert listing()[newest]["reboots"] is None
    oldest.write_bytes(kept)
    assert listing()[newest]["reboots"] == expected(CHAT_LOOP_CASE)["reboots"]


def test_a_same_size_edit_with_its_time_put_back_is_seen(home: FakeHome) -> None:
    first = listing()
    (rollout,) = (home.home / ".codex").rglob("rollout-*.jsonl")
    before = rollout.stat()
    data = rollout.read_bytes()
    assert data.count(b'"type":"compacted"') == 1
    rollout.write_bytes(data.replace(b'"type":"compacted"', b'"type":"compactex"'))
    os.utime(rollout, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert rollout.stat().st_size == before.st_size
    assert rollout.stat().st_mtime_ns == before.st_mtime_ns
    after = listing()
    assert after[CODEX_ID]["reboots"] != first[CODEX_ID]["reboots"]
    assert after == fresh()


def test_a_file_made_unreadable_is_not_served_from_the_cache(
    home: FakeHome, monkeypatch: pytest.MonkeyPatch
) -> None:
    listing()
    (log,) = (home.home / ".pi").rglob("*.jsonl")
    counted: list[str] = []
    original = session_rows.count_row

    def spy(item: Any) -> Any:
        counted.append(item.path)
        return original(item)

    monkeypatch.setattr(session_rows, "count_row", spy)
    log.chmod(0)
    try:
        row = listing()[PI_ID]
    finally:
        log.chmod(0o600)
    assert counted == [str(log)]
    if not os.access(log, os.R_OK, effective_ids=False) or os.geteuid() != 0:
        assert row["reboots"] is None and "E-READ" in str(row["warnings"])


def test_every_code_the_reference_gives_a_row_may_be_cached() -> None:
    """A code missing from the spec's list would make every row that has it counted anew on
    each listing: the reference's codes are all in it (the finder's loop is a problem row,
    never cached)."""
    import re

    found: set[str] = set()
    for source in (ROOT / "reference").rglob("*.py"):
        found |= set(re.findall(r'"([EW](?:-[A-Z]+)+)"', source.read_text("utf-8")))
    assert found - sessions_cache.known_codes() == {"W-LOOP"}
