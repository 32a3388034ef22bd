"""JSV-3 under a named host (HST-3): a log with no parsable record never gets a count.

Issue 43, defect 5: `count --host codex` on a file of `not json` printed `{"reboots":0,...}`
(pi, claude-code and copilot-cli the same), where the spec forbids any number. The expected
rejection is the spec's own for the same bytes when no host is named (HST-2's last row: VS Code's
rules, `E-EMPTY`, `E-JSON` or `E-ENTRY` at the first value's line), read off each input below.
Every host of the registry is asked, and every command that counts a file a host names.
"""

from __future__ import annotations

import io
from pathlib import Path

import orjson
import pytest

from rebootspec.reference.cli import main
from rebootspec.reference.core import records
from rebootspec.reference.core.registry import hosts

# (bytes, the rejection a person reads off them: code, line). A line of spaces is left out: it
# holds no value for a record host (JSV-1) but is a line VS Code's rules refuse (E-JSON).
NO_RECORD = {
    "not-json": (b"not json\n", ("E-JSON", 1)),
    "empty": (b"", ("E-EMPTY", 0)),
    "blank-lines": (b"\n\n\n", ("E-EMPTY", 0)),
    "torn-tail-only": (b'{"type":', ("E-EMPTY", 0)),
    "blank-then-bad": (b'\n{"type":1\n', ("E-JSON", 2)),
    "numbers-only": (b"1\n[2]\n", ("E-ENTRY", 1)),
    "bad-then-number": (b"nope\n3\n", ("E-JSON", 1)),
}
HOSTS = [host.key for host in hosts()]


def run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def record_hosts(tmp_path: Path) -> set[str]:
    """The hosts whose count reads a log record by record (the shared machinery, records.py)."""
    used: set[str] = set()
    original = records.count_file
    probe = tmp_path / "probe.jsonl"
    probe.write_bytes(b'{"type":"x"}\n')
    for key in HOSTS:

        def spy(*args: object, _key: str = key, **kwargs: object) -> object:
            used.add(_key)
            return original(*args, **kwargs)  # type: ignore[arg-type]

        records.count_file = spy  # type: ignore[assignment]
        try:
            run(["count", "--host", key, str(probe)])
        finally:
            records.count_file = original
    return used


def test_the_record_hosts_are_found(tmp_path: Path) -> None:
    """The test below covers the shared machinery: at least the four hosts of the issue."""
    assert {"codex", "pi", "claude-code", "copilot-cli"} <= record_hosts(tmp_path)


@pytest.mark.parametrize("name", sorted(NO_RECORD))
@pytest.mark.parametrize("host", HOSTS)
def test_no_record_gets_no_count_under_any_host(tmp_path: Path, host: str, name: str) -> None:
    data, _ = NO_RECORD[name]
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    code, out, err = run(["count", "--host", host, str(path)])
    assert code == 1 and out == "", (out, err)
    assert len(err.splitlines()) == 1 and err.startswith(f"error: {path}:")


@pytest.mark.parametrize("name", sorted(NO_RECORD))
def test_a_record_host_rejects_as_the_unnamed_path_does(tmp_path: Path, name: str) -> None:
    data, (code_expected, line) = NO_RECORD[name]
    path = tmp_path / "g.jsonl"
    path.write_bytes(data)
    unnamed = run(["count", str(path)])[2]
    assert unnamed.startswith(f"error: {path}:{line}: {code_expected}:")
    for host in sorted(record_hosts(tmp_path)):
        code, out, err = run(["count", "--host", host, str(path)])
        assert (code, out) == (1, ""), (host, out)
        assert err.startswith(f"error: {path}:{line}: {code_expected}:"), (host, err)


def test_the_fast_path_gives_no_count_either(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A big log goes to a host's fast path first: it too never answers a log with no record."""
    monkeypatch.setattr(records, "FAST_FROM_BYTES", 1)
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"1\n" * 50 + b"not json\n")
    for host in sorted(record_hosts(tmp_path)):
        code, out, err = run(["count", "--host", host, str(path)])
        assert (code, out) == (1, ""), (host, out)
        assert err.startswith(f"error: {path}:1: E-ENTRY:"), (host, err)


def test_one_record_among_bad_lines_is_still_counted(tmp_path: Path) -> None:
    """JSV-3 itself: a bad line is skipped with its warning when a record remains (pi's header)."""
    path = tmp_path / "g.jsonl"
    header = {"type": "session", "id": "p1", "timestamp": "2026-03-01T10:00:00.000Z", "cwd": "/"}
    path.write_bytes(b"not json\n" + orjson.dumps(header) + b"\n")
    code, out, _ = run(["count", "--host", "pi", str(path)])
    answer = orjson.loads(out)
    assert code == 0 and answer["reboots"] == 0
    assert [w["code"] for w in answer["warnings"]] == ["W-SKIPPED"]


def test_whoami_gives_no_count_for_a_pi_file_with_no_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every entry point: `whoami` counts the file PI_SESSION_FILE names with pi's reader."""
    from rebootspec.conformance.commands.whoami import whoami

    path = tmp_path / "2026-03-02T10-00-04-000Z_7eb0cddb-8209-448f-8553-6181b3013229.jsonl"
    path.write_bytes(b"not json\n")
    out, err = io.StringIO(), io.StringIO()
    code = whoami([], out=out, err=err, env={"HOME": str(tmp_path), "PI_SESSION_FILE": str(path)})
    assert code != 0 and '"reboots"' not in out.getvalue(), (out.getvalue(), err.getvalue())
    # Refused either by JSV-3 (E-JSON) or before, as a file that is no pi session at all.
    assert "E-JSON" in err.getvalue() or "not a session of pi" in err.getvalue()
