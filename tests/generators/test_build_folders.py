"""The build writes and checks cases whose input is a folder of files (spec/FIXTURES.md,
"Inputs of several files"): every file byte-exact, stray files found and removed, a stale
generated case removed whole."""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from rebootspec.generators.corpus import build


@dataclass
class FolderCase:
    id: str
    inputs: dict[str, bytes] = field(default_factory=dict)
    file_name: str = "unused"
    data: bytes = b""

    def files(self) -> dict[str, bytes]:
        return self.inputs

    def toml(self) -> str:
        return f'id = "{self.id}"\nprovenance = "generator:test"\n'


def test_a_folder_case_is_written_checked_and_cleaned(tmp_path: Path) -> None:
    case = FolderCase("ZZ44", {"input/opencode.db": b"db", "input/opencode.db-wal": b"wal"})
    out = io.StringIO()
    assert build.write(tmp_path, [case], whole=True, out=out) == 0
    assert (tmp_path / "ZZ44" / "input" / "opencode.db-wal").read_bytes() == b"wal"
    assert build.differences(tmp_path, [case], whole=True) == []

    (tmp_path / "ZZ44" / "input" / "stray.md").write_bytes(b"x")
    (tmp_path / "ZZ44" / "input" / "opencode.db").write_bytes(b"changed")
    problems = build.differences(tmp_path, [case], whole=True)
    assert problems == ["differs: ZZ44/input/opencode.db", "extra file: ZZ44/input/stray.md"]

    smaller = FolderCase("ZZ44", {"input/opencode.db": b"db"})
    assert build.write(tmp_path, [smaller], whole=True, out=out) == 0
    assert sorted(p.name for p in (tmp_path / "ZZ44" / "input").iterdir()) == ["opencode.db"]
    assert build.differences(tmp_path, [smaller], whole=True) == []


def test_a_stale_folder_case_is_removed_whole_and_retired(tmp_path: Path) -> None:
    case = FolderCase("ZZ55", {"input/a/b.md": b"chain"})
    out = io.StringIO()
    build.write(tmp_path, [case], whole=True, out=out)
    build.write(tmp_path, [], whole=True, out=out)
    assert not (tmp_path / "ZZ55").exists()
    assert (tmp_path / "retired.txt").read_text("utf-8") == "ZZ55\n"
