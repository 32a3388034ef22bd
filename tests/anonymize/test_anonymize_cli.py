"""`rebootspec anonymize IN OUT` as a contributor runs it (in process, the reference wired in)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rebootspec.conformance.commands.contribute import anonymize as cli

LOG = (
    b'{"kind":0,"v":{"version":3,"requests":[]}}\n'
    b'{"kind":2,"k":["requests"],"v":[{"requestId":"request_private","message":{"text":'
    b'"refactor /home/ana/payroll.py"},"response":[{"kind":"progressTaskSerialized","content":'
    b'{"value":"Compacted conversation"}}],"result":{"metadata":{"summary":{"text":"S1"}}}}]}\n'
)


def test_writes_an_anonymized_file_and_reports_the_unchanged_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "real.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(LOG)
    assert cli([str(source), str(target)]) == 0
    data = target.read_bytes()
    assert b"payroll" not in data and b"request_private" not in data
    assert b'"value":"Compacted conversation"' in data
    out = capsys.readouterr().out
    assert "reference result unchanged: reboots 1" in out


def test_a_random_secret_gives_different_pseudonyms_each_run(tmp_path: Path) -> None:
    source = tmp_path / "real.jsonl"
    source.write_bytes(LOG)
    assert cli([str(source), str(tmp_path / "a.jsonl")]) == 0
    assert cli([str(source), str(tmp_path / "b.jsonl")]) == 0
    assert (tmp_path / "a.jsonl").read_bytes() != (tmp_path / "b.jsonl").read_bytes()


def test_a_known_secret_reproduces_and_warns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "real.jsonl"
    source.write_bytes(LOG)
    for name in ("a.jsonl", "b.jsonl"):
        assert cli([str(source), str(tmp_path / name), "--secret-hex", "00ff"]) == 0
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert "never contribute" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("names", "extra", "message"),
    [
        (("real.jsonl", "out.json"), [], "must end in .jsonl"),
        (("real.txt", "out.txt"), [], "not a .json or .jsonl file"),
        (("missing.jsonl", "out.jsonl"), [], "no such file"),
        (("real.jsonl", "real.jsonl"), [], "would overwrite the input"),
        (("real.jsonl", "out.jsonl"), ["--secret-hex", "xyz"], "hexadecimal"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    names: tuple[str, str],
    extra: list[str],
    message: str,
) -> None:
    (tmp_path / "real.jsonl").write_bytes(LOG)
    (tmp_path / "real.txt").write_bytes(LOG)
    argv = [str(tmp_path / names[0]), str(tmp_path / names[1]), *extra]
    assert cli(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert (tmp_path / "real.jsonl").read_bytes() == LOG


def test_an_existing_output_needs_force(tmp_path: Path) -> None:
    source, target = tmp_path / "real.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(LOG)
    target.write_bytes(b"keep me")
    assert cli([str(source), str(target)]) == 2
    assert target.read_bytes() == b"keep me"
    assert cli([str(source), str(target), "--force"]) == 0
    assert target.read_bytes() != b"keep me"


def test_a_changed_result_deletes_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """If the anonymizer ever broke a file, the contributor must not get it."""
    source, target = tmp_path / "real.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(LOG)

    def damaging(stream_in: object, stream_out: object, container: str, rewriter: object) -> int:
        stream_out.write(b"{}\n")  # type: ignore[attr-defined]
        return 1

    monkeypatch.setattr("rebootspec.generators.anonymize.command.anonymize_stream", damaging)
    assert cli([str(source), str(target)]) == 3
    assert not target.exists()
    assert "different reference result" in capsys.readouterr().err


def test_rebootspec_runs_both_tools(tmp_path: Path) -> None:
    """The commands CONTRIBUTING.md shows, as a contributor types them (`rebootspec ...`)."""
    root = Path(__file__).resolve().parents[2]
    source, target = tmp_path / "real.jsonl", tmp_path / "out.jsonl"
    source.write_bytes(LOG)
    env = {**os.environ, "PYTHONPATH": str(root)}
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "anonymize", str(source), str(target)],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert b"payroll" not in target.read_bytes()
    fixtures = tmp_path / "fixtures"
    fixtures.mkdir()
    argv = [str(target), "--title", "one compaction with one summary; one reboot", "--rules"]
    argv += ["CNT-2", "--tags", "singular-summary", "--era", "compacted", "--expect-reboots"]
    argv += ["1", "--fixtures", str(fixtures)]
    done = subprocess.run(
        [sys.executable, "-m", "rebootspec.conformance", "add-fixture", *argv],
        capture_output=True,
        text=True,
        cwd=root,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (case,) = fixtures.iterdir()
    assert (case / "session.jsonl").read_bytes() == target.read_bytes()
