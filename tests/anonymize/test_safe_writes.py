"""The anonymizer and `add-fixture` never lose data and never leak it (issue: hostile input).

Writes are atomic and never clobber: an existing output survives without `--force`, a symlinked
output is refused and its target untouched, somebody else's `OUT.partial` is left alone, and a
failing `add-fixture` leaves the corpus folder exactly as it was.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from rebootspec.conformance.commands.contribute import add_fixture, anonymize

LOG = (
    b'{"kind":0,"v":{"version":3,"sessionId":"s","requests":[]}}\n'
    b'{"kind":2,"k":["requests"],"v":[{"requestId":"Qx1","response":[{"kind":'
    b'"progressTaskSerialized","content":{"value":"Compacted conversation"}}],'
    b'"result":{"metadata":{"summaries":[{"text":"Ab3"}]}}}]}\n'
)
SECRET = ["--secret-hex", "0123abcd"]


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` (names and bytes), symlinks as their target text."""
    found = {}
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            found[str(path.relative_to(folder))] = os.readlink(path).encode()
        elif path.is_file():
            found[str(path.relative_to(folder))] = path.read_bytes()
        else:
            found[str(path.relative_to(folder))] = b"<dir>"
    return found


def test_an_existing_output_is_kept_without_force(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(LOG)
    target = tmp_path / "out.jsonl"
    target.write_bytes(b"precious")
    assert anonymize([str(source), str(target), *SECRET]) == 2
    assert target.read_bytes() == b"precious"
    assert anonymize([str(source), str(target), *SECRET, "--force"]) == 0
    assert target.read_bytes() != b"precious"


def test_a_symlinked_output_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(LOG)
    outside = tmp_path / "elsewhere.txt"
    outside.write_bytes(b"not yours")
    link = tmp_path / "out.jsonl"
    link.symlink_to(outside)
    for extra in ([], ["--force"]):
        assert anonymize([str(source), str(link), *SECRET, *extra]) == 2
        assert outside.read_bytes() == b"not yours"
        assert link.is_symlink()


def test_somebody_elses_partial_file_is_never_deleted(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(LOG)
    partial = tmp_path / "out.jsonl.partial"
    partial.write_bytes(b"another run's work")
    assert anonymize([str(source), str(tmp_path / "out.jsonl"), *SECRET]) == 0
    assert partial.read_bytes() == b"another run's work"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "in.jsonl",
        "out.jsonl",
        "out.jsonl.partial",
    ]


def test_a_failed_run_leaves_no_output_and_no_temporary_file(tmp_path: Path) -> None:
    source = tmp_path / "in.jsonl"
    source.write_bytes(LOG)
    missing_dir = tmp_path / "no-such-dir" / "out.jsonl"
    assert anonymize([str(source), str(missing_dir), *SECRET]) == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.jsonl"]


def test_secrets_in_keys_paths_kinds_and_broken_lines_do_not_survive(tmp_path: Path) -> None:
    """Every position the issue named: a map keyed by user text, a `k` path through it, a
    value under a nested `kind`, and the text before the first colon of a malformed line."""
    data = (
        b'{"kind":0,"v":{"version":3,"sessionId":"s","requests":[],'
        b'"toolCallResults":{"SECRETKEY-1 notes.txt":{"value":"ok"}}}}\n'
        b'{"kind":1,"k":["toolCallResults","SECRETKEY-1 notes.txt","value"],"v":"SECRETVALUE-2"}\n'
        b'{"kind":1,"k":["x"],"v":{"kind":["SECRETKIND-3"],"y":{"kind":{"z":"SECRETKIND-4"}}}}\n'
        b'{"SECRETBROKEN-5 before colon": oops\n'
    )
    source = tmp_path / "in.jsonl"
    source.write_bytes(data)
    target = tmp_path / "out.jsonl"
    assert anonymize([str(source), str(target), *SECRET]) == 0
    out = target.read_bytes()
    for secret in (b"SECRETKEY", b"notes.txt", b"SECRETVALUE", b"SECRETKIND", b"SECRETBROKEN"):
        assert secret not in out, secret


def fixture_args(tmp_path: Path, title: str, rules: str = "CNT-2") -> list[str]:
    session = tmp_path / "s.jsonl"
    session.write_bytes(LOG)
    return [
        str(session),
        "--title",
        title,
        "--rules",
        rules,
        "--tags",
        "summaries-array",
        "--era",
        "compacted-summaries",
        "--expect-reboots",
        "1",
        "--hand-written",
        "--fixtures",
        str(tmp_path / "fixtures"),
    ]


def test_add_fixture_with_a_non_utf8_title_changes_nothing(tmp_path: Path) -> None:
    """A title with undecodable bytes (as argv delivers them) is a usage error; no folder."""
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    (fixtures / "AAAA").mkdir()
    before = snapshot(fixtures)
    argv = fixture_args(tmp_path, "a title with a bad byte \udcff in it; one reboot")
    assert add_fixture(argv) == 2
    assert snapshot(fixtures) == before


def test_add_fixture_that_fails_while_writing_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up after the session was copied: one line, nothing half-made is left."""
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    (fixtures / "AAAA").mkdir()
    before = snapshot(fixtures)

    def full_disk(*args: object, **kwargs: object) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_text", full_disk)
    assert add_fixture(fixture_args(tmp_path, "one compaction with summary Ab3; one reboot")) == 2
    assert snapshot(fixtures) == before


def test_add_fixture_accepts_protocol_rules(tmp_path: Path) -> None:
    (tmp_path / "fixtures").mkdir()
    argv = fixture_args(tmp_path, "one compaction with summary Ab3; one reboot", "CNT-2,PRO-2")
    assert add_fixture(argv) == 0
