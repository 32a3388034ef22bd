"""The end-of-run check re-reads only files whose `lstat` signature moved, and still catches every
write: same size, modification time put back, or a write in the same clock tick as the start."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from rebootspec.conformance.runner import integrity
from rebootspec.conformance.runner.integrity import changes, scan


def tree(root: Path) -> tuple[Path, Path]:
    (root / "A1").mkdir(parents=True)
    kept, edited = root / "A1" / "case.toml", root / "A1" / "session.jsonl"
    kept.write_text('id = "A1"\n')
    edited.write_bytes(b'{"a":1}\n')
    return kept, edited


def reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files `scan` hashes from now on."""
    seen: list[Path] = []
    digest = integrity.file_digest

    def counted(path: Path) -> str | None:
        seen.append(path)
        return digest(path)

    monkeypatch.setattr(integrity, "file_digest", counted)
    return seen


def test_a_same_size_write_with_its_mtime_put_back_is_caught_and_nothing_else_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept, edited = tree(tmp_path)
    monkeypatch.setattr(integrity, "RACY_NS", 0)  # these files are seconds old, not racy
    start = scan(tmp_path)
    time.sleep(0.05)  # past the file system's clock tick, so the write moves the change time
    before = os.lstat(edited)
    edited.write_bytes(b'{"a":2}\n')  # same size
    os.utime(edited, ns=(before.st_atime_ns, before.st_mtime_ns))
    seen = reads(monkeypatch)
    end = scan(tmp_path, start)
    assert changes(start.digests, end.digests, "c") == ["c/A1/session.jsonl (changed)"]
    assert seen == [edited]  # the unchanged case.toml kept its digest unread
    assert kept not in seen


def test_a_file_written_just_before_the_start_is_read_again_at_the_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, edited = tree(tmp_path)  # written now: within RACY_NS of the start
    start = scan(tmp_path)
    assert start.signatures["A1/session.jsonl"] is None
    seen = reads(monkeypatch)
    end = scan(tmp_path, start)
    assert edited in seen and end.digests == start.digests


def test_an_added_a_deleted_and_a_replaced_file_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept, edited = tree(tmp_path)
    monkeypatch.setattr(integrity, "RACY_NS", 0)
    start = scan(tmp_path)
    kept.unlink()
    replacement = tmp_path / "other"
    replacement.write_bytes(b'{"a":1}\n')  # same bytes, a new inode
    os.replace(replacement, edited)
    (tmp_path / "A1" / "new.json").write_text("{}")
    end = scan(tmp_path, start)
    assert changes(start.digests, end.digests, "c") == [
        "c/A1/case.toml (deleted)",
        "c/A1/new.json (added)",
    ]
    assert end.signatures["A1/session.jsonl"] != start.signatures["A1/session.jsonl"]
