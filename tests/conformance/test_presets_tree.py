"""Presets lay the input into a fake VS Code tree the tool finds, and read its answer."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from rebootspec.conformance.presets import parse_candidate
from rebootspec.conformance.presets.qhoami import QhoamiPreset
from rebootspec.conformance.presets.reboot_count import RebootCountPreset
from rebootspec.conformance.presets.vscode_tree import SESSION_ID, WORKSPACE_HASH
from rebootspec.conformance.runner.answers import PatternReader
from rebootspec.conformance.runner.candidates import CandidateError
from rebootspec.conformance.runner.outcome import classify

# A stand-in for qhoami's out/cli.js: finds the session the way qhoami does on Linux and
# prints its size in bytes as `patch` (so the test knows the answer without counting).
FAKE_QHOAMI = """
const fs = require('fs'), path = require('path'), os = require('os');
const a = process.argv;
const id = a[a.indexOf('--session-id') + 1];
const h = a[a.indexOf('--workspace-hash') + 1];
const user = path.join(os.homedir(), '.config', 'Code - Insiders', 'User');
const dir = path.join(user, 'workspaceStorage', h, 'chatSessions');
for (const ext of ['.jsonl', '.json']) {
  const p = path.join(dir, id + ext);
  if (fs.existsSync(p)) {
    console.log(JSON.stringify({patch: fs.statSync(p).size, ext}, null, 2));
    process.exit(0);
  }
}
console.error('Session not found: ' + id); process.exit(1);
"""

FAKE_REBOOT_COUNT = """
import os, sys
from pathlib import Path
base = Path(os.environ["APPDATA"]) / "Code - Insiders" / "User" / "workspaceStorage"
path = base / sys.argv[2] / "chatSessions" / f"{sys.argv[1]}.jsonl"
if not path.exists():
    raise FileNotFoundError(f"JSONL not found: {path}")
print("TRUE REBOOT COUNT (unique summary transitions): 99")
print(f"Patch = {path.stat().st_size}")
"""


@pytest.fixture
def session(tmp_path: Path) -> Path:
    source = tmp_path / "in" / "session.jsonl"
    source.parent.mkdir()
    source.write_bytes(b'{"kind":0,"v":{"requests":[]}}\n')
    return source


@pytest.mark.skipif(
    shutil.which("node") is None or sys.platform != "linux", reason="needs node on Linux"
)
def test_qhoami_preset_finds_the_session_through_home(tmp_path: Path, session: Path) -> None:
    checkout = tmp_path / "qhoami"
    (checkout / "out").mkdir(parents=True)
    (checkout / "out" / "cli.js").write_text(FAKE_QHOAMI, encoding="utf-8")
    candidate = parse_candidate(f"qhoami:{checkout}")
    assert isinstance(candidate, QhoamiPreset)
    run = candidate.run(session, timeout=20)
    size = session.stat().st_size
    assert (
        classify({"outcome": "count", "reboots": size}, run, candidate.default_reader()).outcome
        == "pass"
    )


def test_reboot_count_preset_reads_patch_line(tmp_path: Path, session: Path) -> None:
    script = tmp_path / "count_reboots_ground_truth.py"
    script.write_text(FAKE_REBOOT_COUNT, encoding="utf-8")
    candidate = parse_candidate(f"reboot-count:{script}")
    run = candidate.run(session, timeout=20)
    size = session.stat().st_size
    assert (
        classify({"outcome": "count", "reboots": size}, run, candidate.default_reader()).outcome
        == "pass"
    )
    assert isinstance(candidate.default_reader(), PatternReader)


def test_reboot_count_traceback_is_a_crash_not_a_rejection(tmp_path: Path) -> None:
    script = tmp_path / "count_reboots_ground_truth.py"
    script.write_text(FAKE_REBOOT_COUNT, encoding="utf-8")
    legacy = tmp_path / "session.json"
    legacy.write_text('{"requests": []}', encoding="utf-8")
    run = RebootCountPreset.create(script).run(legacy, timeout=20)
    verdict = classify({"outcome": "reject"}, run, PatternReader(r"^Patch = (\d+)"))
    assert verdict.outcome == "crash" and "FileNotFoundError" in verdict.detail
    assert str(tmp_path) not in verdict.detail or "<case>" in verdict.detail


def test_bad_preset_paths_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(CandidateError, match=r"out/cli\.js"):
        parse_candidate(f"qhoami:{tmp_path}")
    with pytest.raises(CandidateError, match="not a file"):
        parse_candidate(f"reboot-count:{tmp_path}/nope.py")
    with pytest.raises(CandidateError, match="empty"):
        parse_candidate("   '' ")


def test_ids_are_fixed() -> None:
    assert SESSION_ID.count("-") == 4 and len(WORKSPACE_HASH) == 32


@pytest.mark.skipif(
    shutil.which("node") is None or sys.platform != "linux", reason="needs node on Linux"
)
def test_qhoami_session_not_found_is_a_rejection_without_a_code(
    tmp_path: Path, session: Path
) -> None:
    """Protocol 2 for the qhoami preset: its own "Session not found" (exit 1) is a rejection
    that never matches a code; any other exit 1 (a stack trace) is a crash."""
    checkout = tmp_path / "qhoami"
    (checkout / "out").mkdir(parents=True)
    cli = checkout / "out" / "cli.js"
    cli.write_text("console.error('Session not found: x'); process.exit(1);\n", encoding="utf-8")
    candidate = parse_candidate(f"qhoami:{checkout}")
    run = candidate.run(session, timeout=20)
    reject = {"outcome": "reject"}
    reader = candidate.default_reader()
    assert classify(reject, run, reader, expected_code="E-JSON").outcome == "pass"
    assert classify(reject, run, reader, expected_code="E-JSON", match_codes=True).outcome == (
        "fail"
    )
    cli.write_text("throw new Error('boom');\n", encoding="utf-8")
    crashed = candidate.run(session, timeout=20)
    assert crashed.exit_code == 1 and classify(reject, crashed, reader).outcome == "crash"


def test_presets_run_in_a_folder_holding_only_the_input(tmp_path: Path, session: Path) -> None:
    script = tmp_path / "count_reboots_ground_truth.py"
    script.write_text(
        "import json, os\nprint(json.dumps(sorted(os.listdir('.'))))\nprint('Patch = 1')\n",
        encoding="utf-8",
    )
    run = parse_candidate(f"reboot-count:{script}").run(session, timeout=20)
    assert run.stdout.splitlines()[0] == '["session.jsonl"]'
